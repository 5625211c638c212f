/* SPDX-License-Identifier: GPL-2.0 */
/* Call recorders for the hazard demonstration; defined in hooks.c. */
#ifndef HAZARD_HOOKS_H
#define HAZARD_HOOKS_H

extern unsigned int nr_something, nr_something_else, nr_another_thing;

void do_something(void);
void do_something_else(void);
void do_another_thing(void);

long long_cmp_opt(const int a, const int b);
long long_cmp_rewritten(const int a, const int b);

#endif
