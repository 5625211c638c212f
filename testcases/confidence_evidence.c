// SPDX-License-Identifier: GPL-2.0
/*
 * Evidence for moderate confidence on signed operands: a field only ever
 * incremented is a counter; a loop index is incremented too, but it is bounded
 * by a constant and never wraps, so it is no evidence (the comparison is a
 * size check, dp_ctrl.c of Linux 6.1).  A cast in front of a sequence field is
 * not part of the name the report gives.  The site's own comparison with 0 is
 * no bound.
 */
#include <linux/types.h>

struct ring {
	int head;
	int tail;
	int upper;
	int rest;
	int mark;
	u32 serial;
};

void ring_push(struct ring *r)
{
	r->head++;
}

int ring_pending(struct ring *r)
{
	return r->head - r->tail > 0;
}

void ring_scan(struct ring *r, int size)
{
	for (r->upper = 1; r->upper <= 15; r->upper++)
		r->rest = size - 2 * r->upper;
}

int ring_split(struct ring *r)
{
	return r->rest - r->upper > 0;
}

int ring_newer(u32 serial, int hi)
{
	struct ring r = { .serial = serial };

	return (int)r.serial - hi > 0;
}

void ring_pop(struct ring *r)
{
	r->mark = r->head;
	r->tail++;
}

int ring_behind(struct ring *r)
{
	return r->mark - r->tail > 0;
}

extern unsigned long jiffies;

int ring_late(long deadline)
{
	long left = deadline - ((long)jiffies);

	if (left <= 0)
		return 0;
	return left;
}
