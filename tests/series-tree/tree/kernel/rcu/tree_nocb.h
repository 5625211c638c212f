/* SPDX-License-Identifier: GPL-2.0+ */
/*
 * Read-Copy Update mechanism for mutual exclusion (tree-based version)
 * Internal non-public definitions that provide either classic
 * or preemptible semantics (synthetic stand-in).
 */
#include <linux/rcupdate.h>
#include "tree.h"

static int nocb_nobypass_lim_per_jiffy = 16 * 1000 / 250;

static void rcu_nocb_try_bypass(struct rcu_data *rdp, unsigned long j)
{
	int c;

	if (j == 0) {
		c = rdp->nocb_nobypass_count + 1;
	} else {
		c = rdp->nocb_nobypass_count - nocb_nobypass_lim_per_jiffy;
		if (ULONG_CMP_LT(rdp->nocb_nobypass_count,
				 nocb_nobypass_lim_per_jiffy))
			c = 0;
		else if (c > nocb_nobypass_lim_per_jiffy)
			c = nocb_nobypass_lim_per_jiffy;
	}
	rdp->nocb_nobypass_count = c;
}

static bool rcu_nocb_gp_needed(struct rcu_data *rdp)
{
	return ULONG_CMP_GE(rdp->gp_seq_needed, rdp->gp_seq) ||
	       ULONG_CMP_LT(rdp->sample, rdp->sample_seen);
}
