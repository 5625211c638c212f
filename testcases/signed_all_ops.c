// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int work_lt(int current_item, int other)
{
	return current_item - other < 0;
}

int work_le(int current_item, int other)
{
	return (current_item - other) <= 0;
}

int work_gt(int current_item, int other)
{
	return 0 > other - current_item;
}

int work_ge(int current_item, int other)
{
	return 0 <= (current_item - other);
}
