// SPDX-License-Identifier: GPL-2.0
/*
 * long - unsigned int is signed on 64-bit and unsigned on 32-bit, and
 * s64 - unsigned long is unsigned on 64-bit: the meaning depends on the
 * architecture, so these are not rewritten.
 */
#include <linux/types.h>

int arch_long(long a, unsigned int b)
{
	return a - b > 0;
}

int arch_s64(s64 a, unsigned long b)
{
	return a - b < 0;
}
