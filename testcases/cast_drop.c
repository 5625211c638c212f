// SPDX-License-Identifier: GPL-2.0
/*
 * A cast inside an operand that the helper's conversion makes redundant is
 * dropped: (u32)((int)x) is (u32)x for every integer x.  A narrower cast
 * stays, as does (bool), which is not a truncation.
 */
#include <linux/types.h>

struct cq {
	u32 cons_index;
};

int cq_poll(struct cq *cq, u32 prod_index)
{
	int n = 0;

	while ((int)--prod_index - (int)cq->cons_index >= 0)
		n++;
	return n;
}

int frame_after(u32 last_idx, u16 hw_cons)
{
	return (s16)((s16)last_idx - (s16)hw_cons) > 0;
}

int narrow_kept(u32 a, u32 b)
{
	return (int)((u8)a - (u8)b) < 0;
}

int sum_kept(u32 a, u32 b, u32 c)
{
	return (s32)((s32)(a + c) - (s32)b) < 0;
}
