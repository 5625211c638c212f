// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int ns_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

int ns_after(s64 a, u32 b)
{
	return (long long)(a - b) > 0;
}

int ns_std(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) <= 0;
}

int ns_uapi(__u64 a, __u64 b)
{
	return (__s64)(a - b) >= 0;
}
