// SPDX-License-Identifier: GPL-2.0
/*
 * #define bodies without typecheck(): their arguments have no type, so the
 * helpers check at build time what each use passes.  Any integers are exact
 * for a cast to 32 bits or less; a 64-bit cast gets the _WIDE helper.
 */
#include <linux/types.h>

#define SEQ_BEFORE(a, b)	((s32)((a) - (b)) < 0)
#define SLOT_AFTER(a, b)	((s16)((a) - (b)) > 0)
#define STAMP_NOT_AFTER(a, b)	((s64)((a) - (b)) <= 0)

int seq_u32(u32 x, u32 y)
{
	return SEQ_BEFORE(x, y);
}

int seq_mixed(u16 x, int y)
{
	return SEQ_BEFORE(x, y);
}

int seq_wide(u64 x, s64 y)
{
	return SEQ_BEFORE(x, y);
}

int slot(u16 x, u16 y)
{
	return SLOT_AFTER(x, y);
}

int stamp(u64 x, u64 y)
{
	return STAMP_NOT_AFTER(x, y);
}
