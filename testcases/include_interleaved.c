// SPDX-License-Identifier: GPL-2.0
/* <linux/...> includes around others: the helper goes after the last of them. */
#include <linux/types.h>
#include <asm/io.h>
#include <linux/kernel.h>
#include <asm/barrier.h>
#include "remote.h"

int inc_mixed(u32 a, u32 b)
{
	return (int)(a - b) >= 0;
}
