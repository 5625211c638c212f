// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int excluded_after(int a, int b)
{
	return a - b > 0;
}
