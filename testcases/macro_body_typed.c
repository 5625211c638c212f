// SPDX-License-Identifier: GPL-2.0
/* Operand casts give a #define body its types, but f1 and f2 stand bare in (u16)f1 - (u16)f2: reported. */
#include <linux/types.h>

#define frame_before(f1, f2)	((s16)((u16)f1 - (u16)f2) < 0)

int frame_check(u16 a, u16 b)
{
	return frame_before(a, b);
}
