// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int lit_int(u32 a)
{
	return (int)(a - 5) < 0;
}

int lit_hex(u32 a)
{
	return (s32)(0x10U - a) > 0;
}

int lit_char(u8 a)
{
	return (s8)(a - 'a') >= 0;
}

int lit_long(unsigned long a)
{
	return (long)(a - 1UL) <= 0;
}
