// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

struct foo {
	u32 head;
	u32 tail;
};

int foo_pending(struct foo *f)
{
	return (int)(f->head - f->tail) > 0;
}

int foo_expired(u32 now, u32 deadline)
{
	if ((s32)(now - deadline) >= 0)
		return 1;
	return 0;
}

int foo_spaces(u32 a, u32 b)
{
        return (s32)(a - b) < 0;
}

/* no counter here: left out at confidence moderate, listed in the cover letter */
int foo_room(int size, int used)
{
	return size - used > 0;
}
