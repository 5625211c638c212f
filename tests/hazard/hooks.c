// SPDX-License-Identifier: GPL-2.0
/*
 * The three callees live in their own translation unit, built at -O0, so the
 * compiler of the article's function cannot inline them or see what they do:
 * it can only call them or not.
 */
#include "hooks.h"

unsigned int nr_something, nr_something_else, nr_another_thing;

void do_something(void)
{
	nr_something++;
}

void do_something_else(void)
{
	nr_something_else++;
}

void do_another_thing(void)
{
	nr_another_thing++;
}
