// SPDX-License-Identifier: GPL-2.0
/* Sites in macro arguments are rewritten; in a #define body too, the types checked at build time. */
#include <linux/types.h>
#include <linux/bug.h>

#define seq_is_before(a, b)	((s32)((a) - (b)) < 0)

int arg_bug(u32 a, u32 b)
{
	BUG_ON((int)(a - b) > 0x7fffffff);
	return WARN_ON((s32)(a - b) >= 0);
}

int arg_macro_body(u32 a, u32 b)
{
	return seq_is_before(a, b);
}
