/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <net/tcp.h>: its sequence-number comparisons. */
#ifndef _SHIM_NET_TCP_H
#define _SHIM_NET_TCP_H

#include <linux/types.h>

static inline bool before(__u32 seq1, __u32 seq2)
{
	return (__s32)(seq1 - seq2) < 0;
}
#define after(seq2, seq1)	before(seq1, seq2)

#endif
