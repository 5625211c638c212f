// SPDX-License-Identifier: GPL-2.0
/* (long)(u32 - u32) is zero-extended on 64-bit: reported, never rewritten. */
#include <linux/types.h>

int narrow_long(u32 a, u32 b)
{
	return (long)(a - b) < 0;
}

int narrow_long_int(unsigned int a, unsigned short b)
{
	return (long int)(a - b) >= 0;
}
