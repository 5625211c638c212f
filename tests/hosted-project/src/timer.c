#include <stdio.h>

#include "proj/clock.h"

int timer_expired(tick_t now, tick_t due)
{
	return now - due >= 0;
}

int timer_pending(tick_t now, tick_t due)
{
	if (due - now > 0)
		return 1;
	return tick_after(due, now) ? 2 : 0;
}
