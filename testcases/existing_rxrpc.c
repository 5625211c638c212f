// SPDX-License-Identifier: GPL-2.0
/*
 * With -D existing=yes, a file that includes rxrpc's "ar-internal.h" compares
 * sequence numbers with its before(), before_eq(), after() and after_eq().
 * They take u32 and compute (s32)(seq1 - seq2) < 0, <= 0, > 0 and >= 0, so
 * each is exactly the helper of its operator, GT and LE too (tcp's after() is
 * before(seq2, seq1) and is not GT: existing_tcp.c).  A 16-bit comparison has
 * no rxrpc form and gets the new helper.  The difference of two int casts
 * (the signed form, as in input.c) is GT too: after() with the casts kept.
 */
#include <linux/types.h>
#include "ar-internal.h"

int seq_lt(u32 seq, u32 hard_ack)
{
	return (s32)(seq - hard_ack) < 0;
}

int seq_le(u32 seq, u32 top)
{
	if ((int)(seq - top) <= 0)
		return 1;
	return 0;
}

int serial_gt(u32 serial, u32 hi_serial)
{
	return 0 < (s32)(serial - hi_serial);
}

int serial_newer(u32 serial, u32 hi_serial)
{
	return (int)serial - (int)hi_serial > 0;
}

int seq_ge(u32 seq, u32 window)
{
	return (__s32)(seq - window) >= 0;
}

int cid_lt(u16 a, u16 b)
{
	return (s16)(a - b) < 0;
}
