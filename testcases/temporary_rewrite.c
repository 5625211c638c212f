// SPDX-License-Identifier: GPL-2.0
/* A difference kept in a signed variable, compared in the next statement, used nowhere else. */
#include <linux/types.h>
#include <linux/kernel.h>

struct ring {
	u32 head;
	u32 tail;
};

/* unsigned operands in an int: the cast idiom, written as an initialisation */
int ring_behind(struct ring *r)
{
	int diff = r->head - r->tail;

	if (diff < 0)
		return 1;
	return 0;
}

/* s32 says 32 bits: U32 */
int seq_after(u32 seq, u32 ack)
{
	s32 delta = seq - ack;

	if (delta > 0) {
		do_something();
		return 1;
	} else {
		do_something_else();
	}
	return 0;
}

/* declared apart, assigned later; the zero on the left */
long stamp_not_before(long stamp, long now)
{
	long elapsed;

	do_something();
	elapsed = now - stamp;
	if (0 <= elapsed)
		return 1;
	return 0;
}

/* in a return; several declarators share the line */
int gen_not_after(int gen, int cur)
{
	int d, unused = 0;

	d = gen - cur;
	return d <= 0;
}

/* d narrower than the difference keeps its low 16 bits */
int slot_before(u32 slot, u32 first)
{
	s16 off = slot - first;

	return off < 0;
}

/* d wider than a signed difference: the wrap happens in the subtraction */
int order_before(int order, int limit)
{
	long long d = order - limit;

	if (d < 0)
		return -1;
	return 0;
}

/* 64-bit counters */
int count_after(u64 count, u64 mark)
{
	s64 d = count - mark;

	return 0 > d;
}
