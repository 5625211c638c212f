// SPDX-License-Identifier: GPL-2.0
/* A later #include inside #ifdef does not count: the header goes with the first block. */
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
