// SPDX-License-Identifier: GPL-2.0
/* The rewrite is shorter than the idiom: lines that fitted still fit. */
#include <linux/types.h>

struct rx_queue {
	u32 next_to_clean_sequence;
	u32 last_completed_sequence;
};

static int rx_queue_needs_poll(const struct rx_queue *queue, int budget, int work_done)
{
	return work_done < budget && (s32)(queue->next_to_clean_sequence - queue->last_completed_sequence) < 0;
}

static int rx_queue_lagging(const struct rx_queue *queue)
{
	return (int)(queue->last_completed_sequence -
		     queue->next_to_clean_sequence) > 0;
}

int rx_check(u32 clean, u32 done, int budget, int work)
{
	struct rx_queue q = { .next_to_clean_sequence = clean, .last_completed_sequence = done };

	return rx_queue_needs_poll(&q, budget, work) * 2 + rx_queue_lagging(&q);
}
