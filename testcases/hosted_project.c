/*
 * A C project's timer code: with -D hosted the rewritten file includes
 * "wrapcmp.h" (the project's copy of include/wrapcmp.h), after its last
 * include, and never a <linux/...> header.
 */
#include <stdint.h>
#include <stdio.h>

struct timer {
	uint32_t expires;
};

int timer_expired(const struct timer *t, uint32_t now)
{
	return (int32_t)(now - t->expires) >= 0;
}

int tick_after(long a, long b)
{
	return a - b > 0;
}
