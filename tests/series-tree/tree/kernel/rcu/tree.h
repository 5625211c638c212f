/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Read-Copy Update mechanism for mutual exclusion (tree-based version),
 * synthetic stand-in.
 */
#include <linux/types.h>

struct rcu_data {
	unsigned long	gp_seq;		/* Track rsp->gp_seq counter. */
	unsigned long	gp_seq_needed;	/* Track furthest future GP request. */
	int nocb_nobypass_count;	/* # ->cblist enqueues at ^^^ time. */
	unsigned short	sample;		/* a narrow counter */
	unsigned short	sample_seen;
};
