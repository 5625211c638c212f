// SPDX-License-Identifier: GPL-2.0
/* short - int is an int difference and can overflow. */
#include <linux/types.h>

int narrow_wide(short a, int b)
{
	return a - b < 0;
}

int char_wide(int a, signed char b)
{
	return a - b > 0;
}
