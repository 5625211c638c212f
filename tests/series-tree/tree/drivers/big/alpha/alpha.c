// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int alpha_later(s64 a, s64 b)
{
	return a - b > 0;
}
