/* The project's clock: a free-running signed tick counter that wraps. */
#ifndef PROJ_CLOCK_H
#define PROJ_CLOCK_H

#include <stdint.h>

typedef int32_t tick_t;

struct timer {
	tick_t expires;
	void (*fire)(struct timer *t);
};

/* Is tick a after tick b? */
static inline int tick_after(tick_t a, tick_t b)
{
	return a - b > 0;
}

int timer_expired(tick_t now, tick_t due);
int timer_pending(tick_t now, tick_t due);
int timer_sooner(const struct timer *t, const struct timer *u);

#endif /* PROJ_CLOCK_H */
