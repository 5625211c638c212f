/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _NET_BAZ_BAZ_H
#define _NET_BAZ_BAZ_H

#include <linux/types.h>

static inline int baz_tsn_lt(u32 tsn, u32 ctsn)
{
	return (s32)(tsn - ctsn) < 0;
}

#endif /* _NET_BAZ_BAZ_H */
