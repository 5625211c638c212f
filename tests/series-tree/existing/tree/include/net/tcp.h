/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _TCP_H
#define _TCP_H

#include <linux/types.h>

/* stand-in: the kernel's is (__s32)(seq1 - seq2) < 0 */
bool before(__u32 seq1, __u32 seq2);

#endif /* _TCP_H */
