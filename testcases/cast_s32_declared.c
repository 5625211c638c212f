// SPDX-License-Identifier: GPL-2.0
/* Here s32 is declared, so spatch parses (s32)(...) as a cast. */
#include <linux/types.h>

int ack_is_new(u32 ack, u32 last_ack)
{
	s32 delta = 0;

	if ((s32)(ack - last_ack) > 0)
		delta = 1;
	return delta;
}

int ack_is_old(u32 ack, u32 last_ack)
{
	return (s32)(ack - last_ack) <= 0;
}
