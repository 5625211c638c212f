// SPDX-License-Identifier: GPL-2.0
/* Plain differences of unknown types are not reported: a > b may be meant. */
#include <linux/types.h>
#include "remote.h"

int unknown_plain(struct remote *r, int b)
{
	return r->seq - b > 0;
}

int unknown_call(int b)
{
	return remote_counter() - b < 0;
}
