// SPDX-License-Identifier: GPL-2.0
/* Both rules rewrite here; the include is added once. */
#include <linux/types.h>

int fam_cast(u32 a, u32 b)
{
	return (int)(a - b) < 0;
}

int fam_signed(int a, int b)
{
	return a - b > 0;
}
