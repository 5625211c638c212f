// SPDX-License-Identifier: GPL-2.0
/*
 * No #include at all: this file is #included by another, so there is no place for
 * <linux/wrapcmp.h>. The site is reported and not rewritten.
 */
typedef unsigned long long u64;
typedef long long s64;

int clock_older(u64 x, u64 y)
{
	return (s64)(x - y) < 0;
}
