/* TCP-style sequence numbers. */
#ifndef NET_SEQ_H
#define NET_SEQ_H

#include <stdint.h>

typedef uint32_t seq_t;

int seq_before(seq_t a, seq_t b);
int seq_after_eq(seq_t a, seq_t b);
int window_open(seq_t una, seq_t nxt, int16_t win);

#endif /* NET_SEQ_H */
