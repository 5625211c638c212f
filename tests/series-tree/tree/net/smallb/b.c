// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int smallb_after_eq(u32 a, u32 b)
{
	return (s32)(a - b) >= 0;
}
