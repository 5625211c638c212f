// SPDX-License-Identifier: GPL-2.0
/* s32 is never used in a declaration here, so spatch parses the casts as calls. */
#include <linux/types.h>

int seq_before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}

int seq_after(u32 seq1, u32 seq2)
{
	return (s32)(seq2 - seq1) < 0;
}

int seq_not_before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) >= 0;
}
