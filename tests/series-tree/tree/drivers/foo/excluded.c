// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int excluded_after(int seq, int ack)
{
	return seq - ack > 0;
}
