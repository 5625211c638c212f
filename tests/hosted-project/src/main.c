/* Prints every comparison of the project at the values where counters wrap. */
#include <stdint.h>
#include <stdio.h>

#include "proj/clock.h"
#include "seq.h"

static const uint32_t values[] = {
	0, 1, 2, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff,
};

#define N (sizeof(values) / sizeof(values[0]))

/* The two's-complement tick of a 32-bit pattern, without an implementation-defined cast. */
static tick_t tick_of(uint32_t v)
{
	return v <= INT32_MAX ? (tick_t)v : (tick_t)(v - 0x80000000u) + INT32_MIN;
}

int main(void)
{
	struct timer t = { 0, NULL }, u = { 0, NULL };
	unsigned int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			t.expires = tick_of(values[i]);
			u.expires = tick_of(values[j]);
			printf("%08x %08x: expired %d pending %d sooner %d before %d after_eq %d\n",
			       (unsigned int)values[i], (unsigned int)values[j],
			       timer_expired(tick_of(values[i]), tick_of(values[j])),
			       timer_pending(tick_of(values[i]), tick_of(values[j])),
			       timer_sooner(&t, &u),
			       seq_before(values[i], values[j]),
			       seq_after_eq(values[i], values[j]));
		}
	for (i = 0; i < N; i++)
		printf("window %08x: %d %d\n", (unsigned int)values[i],
		       window_open(values[i] / 2, 100, 200), window_open(100, values[i], 7));
	return 0;
}
