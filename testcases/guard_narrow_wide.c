// SPDX-License-Identifier: GPL-2.0
/*
 * A wrong guess never compiles: (s64)(a - b) of 32-bit unsigned arguments is
 * never negative, so this test is dead, and U64_CMP_LT() would make it live.
 * The rule cannot see the arguments of a #define body and writes the _WIDE
 * helper, whose build-time check stops the build here.
 */
#include <linux/types.h>

#define STAMP_BEFORE(a, b)	((s64)((a) - (b)) < 0)

int stamp32_before(u32 a, u32 b)
{
	return STAMP_BEFORE(a, b);
}
