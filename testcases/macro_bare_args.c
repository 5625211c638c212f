// SPDX-License-Identifier: GPL-2.0
/*
 * A macro parameter without parentheses in a - b: a caller's argument is pasted
 * in as tokens, so SN_LT(a, b + 1) is (s32)(a - b + 1) < 0, while the helper
 * would compute a - (b + 1).  Reported, not rewritten.  The parenthesized
 * SN_GE is rewritten.
 */
#include <linux/types.h>

#define SN_LT(x, y)	((s32)(x - y) < 0)
#define SN_GE(x, y)	((s32)((x) - (y)) >= 0)

int sn_next(u32 a, u32 b)
{
	return SN_LT(a, b + 1);
}

int sn_ge_next(u32 a, u32 b)
{
	return SN_GE(a, b + 1);
}
