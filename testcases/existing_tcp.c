// SPDX-License-Identifier: GPL-2.0
/*
 * With -D existing=yes, a file that includes <net/tcp.h> compares sequence
 * numbers with its before(): LT is before(a, b), GE is !before(a, b); GT and LE
 * have no exact form there and get the new helper.
 */
#include <linux/types.h>
#include <net/tcp.h>

int seq_lt(u32 seq, u32 ack)
{
	return (s32)(seq - ack) < 0;
}

int seq_ge(u32 seq, u32 ack)
{
	if ((int)(seq - ack) >= 0)
		return 1;
	return 0;
}

int seq_gt(u32 seq, u32 ack)
{
	return (s32)(seq - ack) > 0;
}
