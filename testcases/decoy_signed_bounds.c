// SPDX-License-Identifier: GPL-2.0
/* A signed difference with a constant is a bound, not two counters: left alone. */
#include <linux/types.h>

#define BUF_SIZE	64

int room_left(int len)
{
	return len - 4 > 0;
}

int has_previous(int i)
{
	return i - 1 >= 0;
}

int buffer_full(int used)
{
	return BUF_SIZE - used <= 0;
}

int short_room(short len)
{
	return len - 4 > 0;
}
