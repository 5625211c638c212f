// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int paren_outer(u32 a, u32 b)
{
	return ((int)(a - b)) < 0;
}

int paren_inner(u32 a, u32 b)
{
	return (int)((a - b)) >= 0;
}

int paren_reversed(u16 a, u16 b)
{
	return 0 <= ((short)(a - b));
}

int paren_whole(u32 a, u32 b)
{
	return ((int)(a - b) > 0);
}

int paren_operands(u32 a, u32 b)
{
	return (int)((a) - (b)) <= 0;
}
