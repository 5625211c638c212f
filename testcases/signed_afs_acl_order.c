// SPDX-License-Identifier: GPL-2.0
/* The afs shape: an int generation counter in a cached object. */
#include <linux/types.h>

struct cached_permit {
	int acl_order;
	int nr_permits;
};

static int permit_is_stale(const struct cached_permit *p, int acl_order)
{
	if (p->acl_order - acl_order > 0)
		return 1;
	return 0;
}

int permit_check(int cached_order, int acl_order)
{
	struct cached_permit p = { .acl_order = cached_order };

	return permit_is_stale(&p, acl_order);
}
