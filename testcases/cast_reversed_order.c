// SPDX-License-Identifier: GPL-2.0
/* The constant on the left: 0 > x is x < 0, 0 < x is x > 0. */
#include <linux/types.h>

int rev_lt(u32 a, u32 b)
{
	return 0 > (int)(a - b);
}

int rev_le(u32 a, u32 b)
{
	return 0 >= (int)(a - b);
}

int rev_gt(u32 a, u32 b)
{
	return 0 < (int)(a - b);
}

int rev_ge(u32 a, u32 b)
{
	return 0 <= (int)(a - b);
}
