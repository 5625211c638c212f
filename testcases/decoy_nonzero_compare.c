// SPDX-License-Identifier: GPL-2.0
/* Comparisons against anything but 0 are not the idiom. */
#include <linux/types.h>

int against_one(u32 a, u32 b)
{
	return (int)(a - b) < 1;
}

int against_limit(int a, int b, int limit)
{
	return a - b > limit;
}

int against_long_zero(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0L;
}

int against_minus_one(int a, int b)
{
	return a - b >= -1;
}
