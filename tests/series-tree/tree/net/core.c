// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int core_untouched(u32 a, u32 b)
{
	return a == b;
}
