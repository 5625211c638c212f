// SPDX-License-Identifier: GPL-2.0
/* Differences kept in a signed variable that are reported, not rewritten. */
#include <linux/types.h>
#include <linux/kernel.h>

/* d is used again after the comparison */
int seq_lag(u32 seq, u32 ack)
{
	int lag = seq - ack;

	if (lag < 0)
		return 0;
	return lag;
}

/* d is used inside the branch */
int seq_wait(u32 seq, u32 ack)
{
	int lag = seq - ack;

	if (lag > 0)
		check_hook(lag);
	return 0;
}

/* another statement comes between: moving a - b there could change its value */
int tail_passed(u32 tail, u32 head)
{
	int d = tail - head;

	do_something();
	return d >= 0;
}

/* the comparison is part of a larger condition */
int head_ahead(u32 head, u32 tail, int flag)
{
	int d = head - tail;

	if (flag && d > 0)
		return 1;
	return 0;
}

/* d is a parameter: no declaration to remove */
int time_passed(u32 time, u32 base, int d)
{
	d = time - base;
	if (d >= 0)
		return 1;
	return 0;
}

/* widened unsigned difference: never negative */
int seq_wide(u32 seq, u32 ack)
{
	s64 d = seq - ack;

	if (d < 0)
		return 1;
	return 0;
}

/* long: wider than unsigned int on 64-bit only */
int seq_long(unsigned int seq, unsigned int ack)
{
	long d = seq - ack;

	return d < 0;
}
