// SPDX-License-Identifier: GPL-2.0
/* The mx1 timer shape: a free-running 32-bit counter read from a register. */
#include <linux/types.h>
#include <linux/io.h>
#include <linux/errno.h>

#define TIMER_COUNT	0x08

static int timer_set_next_event(unsigned long delta, void __iomem *base)
{
	unsigned long match;

	match = readl(base + TIMER_COUNT) + delta;

	return (int)(match - readl(base + TIMER_COUNT)) < 0 ? -ETIME : 0;
}

int timer_program(unsigned long delta)
{
	return timer_set_next_event(delta, NULL);
}
