// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>

int wrap_likely(u32 a, u32 b)
{
	if (likely((int)(a - b) < 0))
		return 1;
	return 0;
}

int wrap_unlikely(u32 a, u32 b)
{
	if (unlikely((s32)(a - b) > 0))
		return 1;
	return 0;
}

int wrap_warn(u32 a, u32 b)
{
	return WARN_ON((int)(a - b) <= 0);
}
