// SPDX-License-Identifier: GPL-2.0
/* Comparisons with 0 that look like wrap tests and are not: reported only. */
#include <linux/types.h>
#include <linux/jiffies.h>

struct rxq {
	u32 head;
	u32 tail;
	unsigned long stamp;
};

int ring_has_work(const struct rxq *q)
{
	return q->head - q->tail > 0;
}

int ring_is_behind(const struct rxq *q)
{
	return q->head - q->tail < 0;
}

int stamp_not_before(const struct rxq *q, unsigned long now)
{
	return now - q->stamp >= 0;
}

int lengths_equal(size_t len, size_t used)
{
	return 0 >= len - used;
}

int truncated_cast(u32 seq, u32 ack)
{
	return (u32)(seq - ack) < 0;
}

int mixed_width(long budget, unsigned int used)
{
	return budget - used > 0;
}

int deadline_passed(unsigned long timeout)
{
	return jiffies - timeout >= 0;
}
