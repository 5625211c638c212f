// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int beta_before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
