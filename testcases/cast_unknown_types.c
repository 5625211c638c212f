// SPDX-License-Identifier: GPL-2.0
/* Operand types declared elsewhere are unknown here: rewritten, the types checked at build time. */
#include <linux/types.h>
#include "remote.h"

int remote_before(struct remote *r, u32 b)
{
	return (int)(r->seq - b) < 0;
}

int remote_after(u32 a)
{
	return (s32)(remote_counter() - a) > 0;
}
