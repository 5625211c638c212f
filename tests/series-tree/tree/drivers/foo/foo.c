// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <linux/jiffies.h>

struct foo {
	u32 head;
	u32 tail;
};

int foo_pending(struct foo *f)
{
	return (int)(f->head - f->tail) > 0;
}

int foo_expired(u32 now, u32 deadline)
{
	if ((s32)(now - deadline) >= 0)
		return 1;
	return 0;
}

int foo_spaces(u32 a, u32 b)
{
        return (s32)(a - b) < 0;
}

/* no counter here: left out at confidence moderate, listed in the cover letter */
int foo_room(int budget, int spent)
{
	return budget - spent > 0;
}

/* one expression, one form: the dead half stays, so the whole statement does */
int foo_mixed(u32 head, u32 tail, u32 lo, u32 hi)
{
	return (s32)(head - tail) < 0 ||
	       (s64)(lo - hi) < 0;
}

int foo_timed_out(unsigned long deadline)
{
	return (long)(jiffies - deadline) >= 0;
}

struct foo_flow {
	u32 last_qtail;
};

int foo_flow_stale(struct foo_flow *rflow, u32 *per_cpu_input_queue_heads, int target_cpu, int flow_is_active)
{
	if (flow_is_active &&
	    ((int)(per_cpu_input_queue_heads[target_cpu] - rflow->last_qtail) >= 0 || rflow->last_qtail == 0)) {
		return 1;
	}
	return 0;
}

/* the parameter list keeps its style: the rewrite fixes the comma */
#define foo_tick_before(t1,t2) ((s16)((s16)(t1) - (s16)(t2)) < 0)
