/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _LINUX_TICKS_H
#define _LINUX_TICKS_H

#include <linux/types.h>

static inline int tick_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

#endif /* _LINUX_TICKS_H */
