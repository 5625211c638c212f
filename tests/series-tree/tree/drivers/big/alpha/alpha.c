// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int alpha_later(s64 stamp, s64 last)
{
	return stamp - last > 0;
}
