// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>
#include <net/tcp.h>

int tcp_seq_acked(u32 snd_una, u32 seq)
{
	return (s32)(seq - snd_una) < 0;
}

int tcp_seq_not_before(u32 snd_una, u32 high_seq)
{
	return (s32)(snd_una - high_seq) >= 0;
}
