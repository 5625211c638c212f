// SPDX-License-Identifier: GPL-2.0
/* No <linux/...> include: the helper include goes after the last include. */
#include <stdint.h>

typedef uint32_t u32;

#include "remote.h"

int inc_std(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}
