// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <linux/wrapcmp.h>
#include <linux/kernel.h>

int inc_present(u32 a, u32 b)
{
	return U32_CMP_LT(a, b) + ((int)(a - b) > 0);
}
