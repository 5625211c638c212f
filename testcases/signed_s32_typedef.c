// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int credit_left(s32 credit, s32 used)
{
	return credit - used > 0;
}

int credit_uapi(__s32 credit, __s32 used)
{
	return credit - used >= 0;
}
