// SPDX-License-Identifier: GPL-2.0
/* One rewrite of each confidence, for -D confidence= and CONFIDENCE=. */
#include <linux/types.h>

int conf_high(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

int conf_moderate(int seq, int acked_seq)
{
	return seq - acked_seq > 0;
}

int conf_low(long budget, long used)
{
	return budget - used >= 0;
}
