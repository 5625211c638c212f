// SPDX-License-Identifier: GPL-2.0
/* One rewrite of each confidence, for -D confidence= and CONFIDENCE=. */
#include <linux/types.h>

int conf_high(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

struct conn {
	int rx_seq;
};

/* evidence that the value wraps: a sequence-number field (a name alone is none) */
int conf_moderate(int rx, int acked_seq)
{
	struct conn c = { .rx_seq = rx };

	return c.rx_seq - acked_seq > 0;
}

int conf_low(long budget, long used)
{
	return budget - used >= 0;
}
