// SPDX-License-Identifier: GPL-2.0
/*
 * With -D existing=yes, jiffies comparisons use the kernel's own helpers where
 * they compute exactly the same and their typecheck() passes: time_after_eq()
 * for GE, time_after() with the operands swapped when jiffies is the second
 * operand of LT, the 64-bit forms on u64.  GT has none (time_after(a, b) differs
 * from GT(a, b) at the half-way point), and a u32 operand fails typecheck(), so
 * those get the new helper.
 */
#include <linux/types.h>
#include <linux/jiffies.h>

int expired(unsigned long timeout)
{
	return (long)(jiffies - timeout) >= 0;
}

int not_yet(unsigned long timeout)
{
	return (long)(timeout - jiffies) < 0 ? 0 : 1;
}

int still_before(unsigned long timeout)
{
	if ((long)(jiffies - timeout) < 0)
		return 1;
	return 0;
}

int after_gt(unsigned long timeout)
{
	return (long)(jiffies - timeout) > 0;
}

int narrow_stamp(u32 stamp)
{
	return (long)(jiffies - stamp) < 0;
}

int expired64(u64 deadline)
{
	return (s64)(get_jiffies_64() - deadline) >= 0;
}
