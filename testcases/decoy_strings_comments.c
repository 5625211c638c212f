// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

/* Compare with (int)(a - b) < 0 or with a - b > 0: this comment stays. */
static const char doc[] = "(s32)(seq1 - seq2) < 0";

// (long)(jiffies - timeout) >= 0 in a line comment
int doc_length(int a)
{
	return a ^ (int)sizeof(doc);
}
