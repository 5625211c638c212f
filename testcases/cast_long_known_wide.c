// SPDX-License-Identifier: GPL-2.0
/* A cast to long is exact when an operand is as wide as long. */
#include <linux/types.h>

int stamp_before(unsigned long a, unsigned long b)
{
	return (long)(a - b) < 0;
}

int stamp_mixed(unsigned long a, u32 b)
{
	return (long)(a - b) >= 0;
}

int stamp_size(size_t a, size_t b)
{
	return (long int)(a - b) > 0;
}

int stamp_signed_long(long a, long b)
{
	return (signed long)(a - b) <= 0;
}
