// SPDX-License-Identifier: GPL-2.0
/* Narrow casts take the low bits of the promoted difference. */
#include <linux/types.h>

int frame_before(u8 a, u8 b)
{
	return (signed char)(a - b) < 0;
}

int frame_after(u8 a, u8 b)
{
	return (s8)(a - b) > 0;
}

int slot_before(u16 a, u16 b)
{
	return (short)(a - b) < 0;
}

int slot_after_eq(u16 a, u16 b)
{
	return (s16)(a - b) >= 0;
}

int slot_from_wide(u32 a, u32 b)
{
	return (signed short)(a - b) <= 0;
}
