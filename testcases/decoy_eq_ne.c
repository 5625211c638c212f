// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int same(u32 a, u32 b)
{
	return (int)(a - b) == 0;
}

int differ(int a, int b)
{
	return a - b != 0;
}

int differ_cast(u32 a, u32 b)
{
	return 0 != (s32)(a - b);
}
