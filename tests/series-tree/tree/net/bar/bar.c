// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int bar_newer(int gen, int seen)
{
	return gen - seen > 0;
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
