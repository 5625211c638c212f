/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/jiffies.h>: jiffies is set by the driver. */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H

#include <linux/types.h>

extern unsigned long volatile jiffies;

/* The kernel's definitions, without typecheck(). */
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	((long)((a) - (b)) >= 0)
#define time_before_eq(a, b)	time_after_eq(b, a)

#endif
