// SPDX-License-Identifier: GPL-2.0
/* Floating differences are never the idiom. */
#include <linux/types.h>

int float_cast(int a, int b)
{
	double x = a / 4.0, y = b / 4.0;

	return (int)(x - y) < 0;
}

int float_plain(int a, int b)
{
	float x = a, y = b;

	return x - y > 0;
}

int float_literal(u32 a)
{
	return (int)(a - 0.5) < 0;
}
