// SPDX-License-Identifier: GPL-2.0
/* a - b - c is (a - b) - c: the helper takes a - b and c. */
#include <linux/types.h>

int three(u32 a, u32 b, u32 c)
{
	return (int)(a - b - c) < 0;
}

int offset(u32 a, u32 b, u32 d)
{
	return (int)(a - (b + d)) > 0;
}
