// SPDX-License-Identifier: GPL-2.0
/*
 * The example of "Signed overflow optimization hazards in the kernel"
 * (McKenney, 2012), restated: once the compiler knows a > 0 and b < 0, it may
 * take a - b > 0 as always true, because the only way it could be false is a
 * signed overflow, which is undefined.  With a = INT_MAX and b = INT_MIN the
 * wrapping difference is -1, so code compiled literally does not call
 * do_another_thing(), and code whose test was folded away does.
 *
 * long_cmp_rewritten() is the same function after the suite's rewrite of
 * (a - b) > 0 for int a, b: UINT_CMP_GT(a, b), which is defined for all values.
 * The header is given with -include.  (The article's function returns long
 * but never returns a value; here it returns nothing.)
 */
#include "hooks.h"

void long_cmp_opt(const int a, const int b)
{
	if (a > 0) {
		do_something();
		if (b < 0) {
			do_something_else();
			if ((a - b) > 0)
				do_another_thing();
		}
	}
}

void long_cmp_rewritten(const int a, const int b)
{
	if (a > 0) {
		do_something();
		if (b < 0) {
			do_something_else();
			if (UINT_CMP_GT(a, b))
				do_another_thing();
		}
	}
}
