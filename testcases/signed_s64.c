// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int clock_past(s64 now, s64 then)
{
	return now - then > 0;
}

int clock_ll(long long now, int then)
{
	return 0 < now - then;
}

int clock_u32_operand(s64 now, u32 then)
{
	return now - then <= 0;
}
