// SPDX-License-Identifier: GPL-2.0
/* Pointer differences count elements: never the idiom. */
#include <linux/types.h>

static int ptr_cast(const u32 *p, const u32 *q)
{
	return (int)(p - q) < 0;
}

static int ptr_plain(const char *p, const char *q)
{
	return p - q > 0;
}

int ptr_check(int i, int j)
{
	static const u32 buf[8];
	static const char text[8];

	i &= 7;
	j &= 7;
	return ptr_cast(buf + i, buf + j) * 2 + ptr_plain(text + i, text + j);
}
