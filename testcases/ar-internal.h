/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stand-in for Linux 6.1's net/rxrpc/ar-internal.h, for existing_rxrpc.c: its
 * sequence-number comparisons, as that header defines them, so that
 * tests/difftest.py can build the testcase and its rewrites.
 */
#ifndef _TESTCASE_AR_INTERNAL_H
#define _TESTCASE_AR_INTERNAL_H

#include <linux/types.h>

static inline bool before(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) < 0;
}
static inline bool before_eq(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) <= 0;
}
static inline bool after(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) > 0;
}
static inline bool after_eq(u32 seq1, u32 seq2)
{
	return (s32)(seq1 - seq2) >= 0;
}

#endif
