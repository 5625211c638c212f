// SPDX-License-Identifier: GPL-2.0
/* Code already written with the helpers is left as it is. */
#include <linux/types.h>
#include <linux/wrapcmp.h>

int done_before(u32 a, u32 b)
{
	return U32_CMP_LT(a, b);
}

int done_after(unsigned long a, unsigned long b)
{
	return ULONG_CMP_GT(a, b) || UINT_CMP_GE(a, b);
}
