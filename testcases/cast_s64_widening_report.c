// SPDX-License-Identifier: GPL-2.0
/*
 * (s64)(u32 - u32) is never negative, and (s64)(unsigned long - unsigned long)
 * is not on 32-bit: reported, never rewritten.
 */
#include <linux/types.h>

int wide_u32(u32 a, u32 b)
{
	return (s64)(a - b) < 0;
}

int wide_ulong(unsigned long a, unsigned long b)
{
	return (long long)(a - b) >= 0;
}
