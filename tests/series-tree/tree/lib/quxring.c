// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

/* a ring whose producer and consumer counters wrap */
struct quxring {
	u32 prod;
	u32 cons;
};

int quxring_ahead(struct quxring *r)
{
	return (s32)(r->prod - r->cons) > 0;
}

int quxring_behind(struct quxring *r)
{
	return (s32)(r->cons - r->prod) > 0;
}
