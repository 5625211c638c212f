// SPDX-License-Identifier: GPL-2.0
/*
 * Casts of differences whose operand types live in a header the rules do not
 * read.  A cast to 32 bits or less is exact for any integer operands, so it is
 * rewritten, the helper checking at build time that they are integers; a cast
 * to long or 64 bits gets the _WIDE helper, which also checks that a - b is
 * that wide.
 */
#include <linux/types.h>
#include "remote_types.h"

int u8_before(u8 a, u8 b)
{
	struct remote_stamps r = { .c8 = a, .s8v = b };

	return (s8)(r.c8 - r.s8v) < 0;
}

int u16_after(u16 a, s32 b)
{
	struct remote_stamps r = { .c16 = a, .s32v = b };

	return (s16)(r.c16 - r.s32v) > 0;
}

int u64_low_bits(u64 a, u64 b)
{
	struct remote_stamps r = { .c64 = a };

	return (int)(r.c64 - b) >= 0 ? 1 : (s32)(b - r.c64) <= 0;
}

int mixed_signs(s8 a, u32 b)
{
	struct remote_stamps r = { .s8v = a, .c32 = b };

	return (s32)(r.s8v - r.c32) <= 0;
}

int long_before(unsigned long a, unsigned long b)
{
	struct remote_stamps r = { .ul = a, .sl = b };

	return (long)(r.ul - r.sl) < 0;
}

int s64_after(u64 a, s32 b)
{
	struct remote_stamps r = { .c64 = a, .s32v = b };

	return (s64)(r.c64 - r.s32v) > 0;
}

int s64_signed(s64 a, s64 b)
{
	struct remote_stamps r = { .s64v = a };

	return 0 >= (long long)(r.s64v - b);
}

int clock_passed(u64 deadline)
{
	return (s64)(remote_now() - deadline) >= 0;
}
