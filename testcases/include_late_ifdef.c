// SPDX-License-Identifier: GPL-2.0
/*
 * The last <linux/...> include comes after code: spatch 1.1.1 can add an include only
 * after that last one, too late for the first use, so the sites are reported only.
 */
#include <linux/types.h>
#include <linux/kernel.h>

int counter_ahead(u32 c1, u32 c2)
{
	return (s32)(c2 - c1) < 0;
}

#ifdef CONFIG_EMULATE
#include <linux/jiffies.h>

int emulate_due(unsigned long due)
{
	return (long)(jiffies - due) >= 0;
}
#endif
