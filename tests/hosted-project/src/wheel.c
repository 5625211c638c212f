#include "proj/clock.h"

/* Does timer t fire before timer u?  Both types come from proj/clock.h only. */
int timer_sooner(const struct timer *t, const struct timer *u)
{
	return t->expires - u->expires < 0;
}
