// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int gamma_before_eq(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) <= 0;
}
