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

/*
 * ULONG_CMP_GE() and ULONG_CMP_LT() check that a - b is as wide as unsigned
 * long (rcupdate.h had macros of these names): the cast stays, since without
 * it a - b would be s64 on 32-bit.  ULONG_CMP_GT() has no such check.
 */
int version_valid(long version, s64 invalid_before)
{
	return version - (long)invalid_before >= 0;
}

int version_newer(long version, s64 seen)
{
	return version - (long)seen > 0;
}
