// SPDX-License-Identifier: GPL-2.0
/*
 * A wrong guess never compiles: this #define body looks like the idiom, but a
 * caller passes pointers (a pointer difference counts elements).  The rule
 * cannot see the callers and rewrites the body; the rewritten file then fails
 * to build with the helper's message instead of changing what it computes.
 */
#include <linux/types.h>

#define BEFORE(p, q)	((int)((p) - (q)) < 0)

int buf_before(char *buf, int i, int j)
{
	return BEFORE(buf + i, buf + j);
}
