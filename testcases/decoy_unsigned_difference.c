// SPDX-License-Identifier: GPL-2.0
/* Unsigned differences are not the signed idiom: never rewritten. */
#include <linux/types.h>

int u32_diff(u32 a, u32 b)
{
	return a - b > 0;
}

int ulong_diff(unsigned long a, long b)
{
	return a - b < 0;
}

int u64_diff(u64 a, s64 b)
{
	return a - b >= 0;
}
