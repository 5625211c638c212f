// SPDX-License-Identifier: GPL-2.0
/*
 * The article's example: with a > 0 and b < 0 known, the compiler may take
 * a - b > 0 for granted, although a - b overflows for INT_MAX and INT_MIN.
 */
#include <linux/types.h>

extern void do_something(void);
extern void do_something_else(void);
extern void do_another_thing(void);

long long_cmp_opt(const int a, const int b)
{
	if (a > 0) {
		do_something();
		if (b < 0) {
			do_something_else();
			if ((a - b) > 0)
				do_another_thing();
		}
	}
	return 0;
}
