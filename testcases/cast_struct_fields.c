// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

struct flow {
	u32 snd_nxt;
	u32 snd_una;
	u16 window;
};

static int flow_in_flight(const struct flow *f)
{
	return (s32)(f->snd_nxt - f->snd_una) > 0;
}

static int flow_window(const struct flow *f, u16 w)
{
	return (s16)(f->window - w) < 0;
}

int flow_check(u32 nxt, u32 una, u16 win, u16 w)
{
	struct flow f = { .snd_nxt = nxt, .snd_una = una, .window = win };

	return flow_in_flight(&f) * 2 + flow_window(&f, w);
}
