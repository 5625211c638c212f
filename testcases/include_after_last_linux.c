// SPDX-License-Identifier: GPL-2.0
/* The helper include goes after the last <linux/...> include. */
#include <linux/types.h>
#include <linux/kernel.h>
#include <asm/io.h>
#include "remote.h"

int inc_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}
