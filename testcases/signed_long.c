// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int epoch_past(long now, long then)
{
	return now - then > 0;
}

int epoch_mixed(long now, int then)
{
	return now - then >= 0;
}

int epoch_ssize(ssize_t now, ssize_t then)
{
	return now - then < 0;
}
