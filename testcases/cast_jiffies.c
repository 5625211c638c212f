// SPDX-License-Identifier: GPL-2.0
/* jiffies is unsigned long: a cast to long is exact. */
#include <linux/types.h>
#include <linux/jiffies.h>

int timeout_expired(unsigned long timeout)
{
	return (long)(jiffies - timeout) >= 0;
}

int timeout_pending(unsigned long timeout)
{
	if ((long)(timeout - jiffies) > 0)
		return 1;
	return 0;
}
