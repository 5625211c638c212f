// SPDX-License-Identifier: GPL-2.0
/* Look-alikes of a difference kept in a variable that are not the idiom. */
#include <linux/types.h>
#include <linux/kernel.h>

/* d is unsigned: the compilers' -Wtype-limits, not this rule */
int unsigned_d(u32 a, u32 b)
{
	u32 d = a - b;

	return d > 0;
}

/* an operand changes in between */
int operand_changes(int a, int b)
{
	int d = a - b;

	a++;
	return d < 0;
}

/* an operand is assigned in between */
int operand_assigned(int a, int b)
{
	int d = a - b;

	b = 0;
	return d < 0;
}

/* d is reassigned in between */
int d_reassigned(int a, int b)
{
	int d = a - b;

	d = 5;
	return d < 0;
}

/* d is read in between (kept: the rule wants the plain shape) */
int d_read(int a, int b)
{
	int d = a - b;

	check_hook(d);
	return d < 0;
}

/* narrow operands in an int: d holds the exact difference, d < 0 means a < b */
int narrow_exact(u8 a, u8 b)
{
	int d = a - b;

	return d < 0;
}

/* compared with something other than zero */
int not_zero(int a, int b)
{
	int d = a - b;

	return d < 3;
}

/* equality is not an order */
int equality(int a, int b)
{
	int d = a - b;

	return d == 0;
}

/* a pointer difference */
int pointers(const char *a, const char *b)
{
	long d = a - b;

	return d < 0;
}

/* floating point */
int floats(double a, double b)
{
	double d = a - b;

	return d < 0;
}

/* a bound, not a difference: d = len - 4 is read as the signed rule would not */
int sum_not_difference(int a, int b)
{
	int d = a + b;

	return d < 0;
}

/* a bound: one side is a constant */
int constant_side(int len)
{
	int left = len - 4;

	return left < 0;
}

/* used on a path that returns first: reported only when no use of d comes between */
int used_on_other_path(int a, int b, int x)
{
	int d = a - b;

	if (x)
		return d;
	return d < 0;
}

/* operands narrower than int: a - b is exact, and so is a wider d */
int narrow_in_long(u16 a, u16 b)
{
	long d = a - b;

	return d < 0;
}

int narrow_in_s64(u8 a, u8 b)
{
	s64 d = a - b;

	if (d > 0)
		return 1;
	return 0;
}
