// SPDX-License-Identifier: GPL-2.0
/* Differences of operands narrower than int cannot overflow. */
#include <linux/types.h>

int short_diff(short a, short b)
{
	return a - b > 0;
}

int s8_diff(s8 a, s8 b)
{
	return a - b < 0;
}

int u16_diff(u16 a, u16 b)
{
	return 0 > a - b;
}
