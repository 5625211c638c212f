// SPDX-License-Identifier: GPL-2.0
/* Unsigned casts are not the idiom (and are dead or mean !=). */
#include <linux/types.h>

int cast_unsigned(u32 a, u32 b)
{
	return (unsigned int)(a - b) > 0;
}

int cast_u32(u32 a, u32 b)
{
	return (u32)(a - b) >= 0;
}

int cast_ulong(unsigned long a, unsigned long b)
{
	return (unsigned long)(a - b) < 0;
}
