// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int negated(u32 a, u32 b)
{
	return !((int)(a - b) < 0);
}

int both(u32 a, u32 b, u32 c)
{
	return (int)(a - b) < 0 && (int)(b - c) < 0;
}

int either(u32 a, u32 b, u32 c)
{
	return (int)(a - b) >= 0 || 0 > (int)(c - b);
}
