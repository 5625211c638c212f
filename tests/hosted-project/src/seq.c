#include "seq.h"

int seq_before(seq_t a, seq_t b)
{
	return (int32_t)(a - b) < 0;
}

int seq_after_eq(seq_t a, seq_t b)
{
	return (int32_t)(a - b) >= 0;
}

int window_open(seq_t una, seq_t nxt, int16_t win)
{
	return (int32_t)(una + (seq_t)win - nxt) > 0;
}
