// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

struct bar_state {
	int gen;
};

void bar_bump(struct bar_state *st)
{
	st->gen++;
}

int bar_newer(struct bar_state *st, int seen)
{
	return st->gen - seen > 0;
}

int bar_older(u32 a, u32 b)
{
	return (int)(a - b) < 0;
}

int bar_window(u32 first_sequence_number_in_receive_window, u32 last_sequence_number_acknowledged_by_peer)
{
	return (s32)(first_sequence_number_in_receive_window - last_sequence_number_acknowledged_by_peer) >= 0 ? 1 : 0;
}

int bar_window_behind(u32 first, u32 last)
{
	s32 d = first - last;

	return d < 0;
}

int bar_either_behind(u32 first, u32 last, u32 acked, u32 sent)
{
	return (s32)(first - last) < 0 ||
	       (s32)(acked - sent) < 0;
}

unsigned long bar_read_attr_generation_counter(void);

int bar_attr_stale(unsigned long attr_gencount, unsigned long fattr_gencount)
{
	return (long)(fattr_gencount - attr_gencount) > 0 ||
	       (long)(attr_gencount - bar_read_attr_generation_counter()) > 0;
}
