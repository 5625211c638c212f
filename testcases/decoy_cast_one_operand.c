// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

/*
 * The cast applies to a alone: (int)a - b is ((int)a) - b, no cast of a
 * difference, and an unsigned one since b is.  The cast rule leaves these
 * alone; the third one, 0 > x - b, is matched only through the paren
 * isomorphism of 0 op (A - B), since SmPL reads 0 op A - B as (0 op A) - B.
 */
int cast_first_operand(u32 a, u32 b)
{
	return (int)a - b < 0;
}

int cast_first_operand_paren(u32 a, u32 b)
{
	return ((int)a - b) >= 0;
}

int cast_first_operand_reversed(u32 a, u32 b)
{
	return 0 > (s32)a - b;
}
