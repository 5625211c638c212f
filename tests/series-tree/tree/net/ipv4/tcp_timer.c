// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <net/tcp.h>

static int tcp_out_of_resources(u32 snd_una, u32 high_seq)
{
	if ((s32)(snd_una - high_seq) >= 0)
		return 1;
	return 0;
}

static int tcp_probe_pending(u32 snd_nxt, u32 snd_una)
{
	return (s32)(snd_nxt - snd_una) > 0;
}
