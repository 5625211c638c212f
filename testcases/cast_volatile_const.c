// SPDX-License-Identifier: GPL-2.0
/* Qualifiers do not hide an operand's type. */
#include <linux/types.h>

static volatile u32 hw_counter;

int qual_volatile(u32 deadline, u32 now)
{
	hw_counter = now;
	return (s32)(hw_counter - deadline) >= 0;
}

int qual_const(const unsigned int a, const unsigned int b)
{
	return (int)(a - b) < 0;
}
