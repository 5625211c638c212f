// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int gen_lt(unsigned int a, unsigned int b)
{
	return (int)(a - b) < 0;
}

int gen_le(unsigned int a, unsigned int b)
{
	return (int)(a - b) <= 0;
}

int gen_gt(unsigned int a, unsigned int b)
{
	return (int)(a - b) > 0;
}

int gen_ge(unsigned int a, unsigned int b)
{
	return (int)(a - b) >= 0;
}
