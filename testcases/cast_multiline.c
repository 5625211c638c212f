// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

struct ring {
	u32 head;
	u32 tail;
};

static int ring_behind(struct ring *r, u32 pos)
{
	return (int)(r->head -
		     pos) < 0;
}

static int ring_ahead(struct ring *r, u32 pos)
{
	return 0 <
	       (int)(r->tail - pos);
}

int ring_check(u32 head, u32 tail, u32 pos)
{
	struct ring r = { .head = head, .tail = tail };

	return ring_behind(&r, pos) * 2 + ring_ahead(&r, pos);
}
