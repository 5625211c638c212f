/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hosted stand-in for <linux/jiffies.h>: jiffies is set by the driver.  The
 * time_*() helpers compute what the kernel's do, typecheck() included, so
 * that a rewrite to them builds only where the kernel's would.
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H

#include <linux/types.h>
#include <linux/typecheck.h>

extern unsigned long volatile jiffies;

static inline u64 get_jiffies_64(void)
{
	return jiffies;
}

#define time_after(a, b)	(typecheck(unsigned long, a) && \
				 typecheck(unsigned long, b) && \
				 ((long)((b) - (a)) < 0))
#define time_before(a, b)	time_after(b, a)
#define time_after_eq(a, b)	(typecheck(unsigned long, a) && \
				 typecheck(unsigned long, b) && \
				 ((long)((a) - (b)) >= 0))
#define time_before_eq(a, b)	time_after_eq(b, a)

#define time_after64(a, b)	(typecheck(__u64, a) && typecheck(__u64, b) && \
				 ((__s64)((b) - (a)) < 0))
#define time_before64(a, b)	time_after64(b, a)
#define time_after_eq64(a, b)	(typecheck(__u64, a) && typecheck(__u64, b) && \
				 ((__s64)((a) - (b)) >= 0))
#define time_before_eq64(a, b)	time_after_eq64(b, a)

#endif
