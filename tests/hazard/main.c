// SPDX-License-Identifier: GPL-2.0
/*
 * Calls the original and the rewritten function and prints whether each one
 * called do_another_thing(), for the article's operands (INT_MAX, INT_MIN)
 * and for (1, INT_MIN + 1), where the wrapping difference is exactly INT_MIN
 * (the half-way point, where GT differs from LT with swapped arguments):
 *	original=<0|1> rewritten=<0|1> half_original=<0|1> half_rewritten=<0|1> calls=<ok|bad>
 * calls=ok when do_something() and do_something_else() ran once per call.
 */
#include <limits.h>
#include <stdio.h>
#include "hooks.h"

static unsigned int run(long (*fn)(const int, const int), int a, int b, int *ok)
{
	unsigned int s = nr_something, se = nr_something_else;

	nr_another_thing = 0;
	fn(a, b);
	if (nr_something != s + 1 || nr_something_else != se + 1)
		*ok = 0;
	return nr_another_thing;
}

int main(void)
{
	unsigned int orig, rewr, half_orig, half_rewr;
	int ok = 1;

	orig = run(long_cmp_opt, INT_MAX, INT_MIN, &ok);
	rewr = run(long_cmp_rewritten, INT_MAX, INT_MIN, &ok);
	half_orig = run(long_cmp_opt, 1, INT_MIN + 1, &ok);
	half_rewr = run(long_cmp_rewritten, 1, INT_MIN + 1, &ok);
	printf("original=%u rewritten=%u half_original=%u half_rewritten=%u calls=%s\n",
	       orig, rewr, half_orig, half_rewr, ok ? "ok" : "bad");
	return 0;
}
