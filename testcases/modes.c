// SPDX-License-Identifier: GPL-2.0
/* One site of each rule, for the context and org modes. */
#include <linux/types.h>

int mode_cast(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

int mode_signed(long a, long b)
{
	return a - b >= 0;
}

int mode_report_only(u32 a, u32 b)
{
	return (s64)(a - b) > 0;
}

int mode_bug(u32 a, u32 b)
{
	return a - b > 0;
}

int mode_temporary(u32 a, u32 b)
{
	int d = a - b;

	return d < 0;
}
