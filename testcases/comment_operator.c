// SPDX-License-Identifier: GPL-2.0
/* A comment next to the operator does not confuse the rules. */
#include <linux/types.h>

int comment_lt(u32 a, u32 b)
{
	return (int)(a - b) /* late? */ < 0;
}

int comment_gt(int a, int b)
{
	return a - b > /* newer */ 0;
}
