// SPDX-License-Identifier: GPL-2.0
/*
 * A #define body has no types, unless it typecheck()s its arguments, as
 * time_after() does: then the site is rewritten and typecheck() stays.
 * typecheck() only warns, so a long or 64-bit cast still gets the _WIDE
 * helper, which refuses a caller's narrower a - b at build time.
 */
#include <linux/types.h>
#include <linux/typecheck.h>

typedef u32 stamp_t;

#define stamp_after(a, b) \
	(typecheck(unsigned long, a) && \
	 typecheck(unsigned long, b) && \
	 ((long)((b) - (a)) < 0))

#define stamp_after_eq64(a, b) \
	(typecheck(__u64, a) && typecheck(__u64, b) && ((__s64)((a) - (b)) >= 0))

/* a typedef of the file is looked through */
#define stamp32_after(a, b) \
	(typecheck(stamp_t, a) && typecheck(stamp_t, b) && (s32)((a) - (b)) > 0)

/*
 * signed counters, both checked: reported only, since a caller that passes
 * two u32 gets a warning and an unsigned a - b, never below 0
 */
#define count_before(a, b) \
	(typecheck(int, a) && typecheck(int, b) && ((a) - (b) < 0))

/* only one argument is checked: the _WIDE helper checks the width at build time */
#define half_checked(a, b) \
	(typecheck(unsigned long, a) && ((long)((a) - (b)) < 0))

/* no typecheck(): the _WIDE helper too */
#define unchecked(a, b)	((long)((a) - (b)) < 0)

/* typecheck() of another macro's argument does not count: _WIDE */
#define other_args(a, b, c, d) \
	(typecheck(unsigned long, c) && typecheck(unsigned long, d) && ((long)((a) - (b)) < 0))

int stamp_checks(unsigned long x, unsigned long y, u64 p, u64 q, stamp_t s, stamp_t t)
{
	return stamp_after(x, y) + 2 * stamp_after_eq64(p, q) + 4 * stamp32_after(s, t) +
	       16 * half_checked(x, y) + 32 * unchecked(x, y) + 64 * other_args(x, y, x, y);
}

/* left as it was: its overflow is the original's */
int count_checks(int i, int j)
{
	return count_before(i, j);
}
