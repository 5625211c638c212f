// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int smalla_after(u32 a, u32 b)
{
	return (s32)(a - b) > 0;
}
