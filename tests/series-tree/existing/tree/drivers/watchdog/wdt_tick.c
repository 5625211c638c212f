// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <linux/jiffies.h>

static unsigned long next_heartbeat;

int wdt_expired(void)
{
	return (long)(jiffies - next_heartbeat) >= 0;
}

int wdt_pending(unsigned long deadline)
{
	if ((long)(jiffies - deadline) < 0)
		return 1;
	return 0;
}

int wdt_late(unsigned long deadline)
{
	return (long)(deadline - jiffies) < 0;
}
