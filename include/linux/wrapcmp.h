/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Wrap-safe comparison of free-running counters.
 *
 * X_CMP_OP(a, b) is 1 exactly when (sN)((uN)a - (uN)b) OP 0 in two's-complement
 * arithmetic, where N is the width of X and OP is <, <=, > or >=: "a is before,
 * at or before, after, at or after b" on a counter that wraps.  Code that
 * writes this as (int)(a - b) < 0 relies on an implementation-defined
 * conversion, and a - b < 0 on signed counters relies on signed overflow,
 * which is undefined.  The helpers compute the same answer for every value of
 * a and b in unsigned arithmetic only.  Each argument is converted to uN and
 * evaluated once; the result is an int.  A pointer or floating argument is a
 * build error.
 *
 * With d = (uN)(a - b):  LT is d > MAX / 2,  GE is d <= MAX / 2,
 *                        GT is (uN)(d - 1) < MAX / 2,  LE is (uN)(d - 1) >= MAX / 2.
 * GT is not LT with its arguments swapped: at d == MAX / 2 + 1 both (sN)(a - b)
 * and (sN)(b - a) are negative.
 *
 * The wrap is the point here, so the integer sanitizers must not see one
 * (clang's -fsanitize=integer,implicit-conversion, CONFIG_UBSAN_INTEGER_WRAP):
 * each argument is converted to uN by an explicit cast, and d and d - 1 are
 * __builtin_sub_overflow() into a uN, which wraps and is not instrumented.
 * The code generated is the same as for (a - b) and (d - 1).
 *
 * U64_CMP_OP_WIDE(a, b) and ULONG_CMP_OP_WIDE(a, b) are U64_CMP_OP(a, b) and
 * ULONG_CMP_OP(a, b) for code that was (s64)(a - b) OP 0 or (long)(a - b) OP 0:
 * they also check at build time that a - b is at least that wide.  Where it is
 * narrower, the cast widens the difference instead of wrapping it, and the
 * helper would not compute what the code did.
 *
 * <linux/rcupdate.h> had ULONG_CMP_GE(a, b) and ULONG_CMP_LT(a, b) as
 * ULONG_MAX / 2 >= (a) - (b) and ULONG_MAX / 2 < (a) - (b), which subtract in
 * the arguments' own (promoted) type; it now gets them from here.  The helpers
 * convert each argument to unsigned long first.  That is the same where a - b
 * is exactly as wide as unsigned long, and where both arguments are narrower
 * than int (their int difference cannot overflow, and sign-extends to the
 * same value modulo 2^BITS_PER_LONG).  It is not where a - b is int or
 * unsigned int on 64-bit: ULONG_CMP_LT(INT_MAX, -1) on two ints was 1, and
 * would be 0.  Nor where a - b is u64 on 32-bit: the old macros compared all
 * 64 bits of it with ULONG_MAX / 2.  So these two names, and only these two,
 * refuse such a caller at build time, with a message that names
 * U32_CMP_LT() or U64_CMP_LT() (_GE()) instead.  On 32-bit, int is as wide
 * as long, so an int caller builds: there the helper is exact.
 * ULONG_CMP_GT() and ULONG_CMP_LE() are new, with no old callers to keep.
 */
#ifndef _LINUX_WRAPCMP_H
#define _LINUX_WRAPCMP_H

#include <linux/types.h>
#include <linux/limits.h>

/*
 * <linux/rcupdate.h> had macros of two of these names that subtract in the
 * arguments' own type; it includes this header instead.
 */
#undef ULONG_CMP_GE
#undef ULONG_CMP_LT

#define __WRAPCMP_FAMILY(X, T, MAX)					\
static inline T __##X##_WRAP_SUB(T a, T b)				\
{									\
	T d;								\
									\
	__builtin_sub_overflow(a, b, &d);				\
	return d;							\
}									\
static inline int __##X##_CMP_LT(T a, T b)				\
{									\
	return __##X##_WRAP_SUB(a, b) > MAX / 2;			\
}									\
static inline int __##X##_CMP_GE(T a, T b)				\
{									\
	return __##X##_WRAP_SUB(a, b) <= MAX / 2;			\
}									\
static inline int __##X##_CMP_GT(T a, T b)				\
{									\
	return __##X##_WRAP_SUB(__##X##_WRAP_SUB(a, b), 1) < MAX / 2;	\
}									\
static inline int __##X##_CMP_LE(T a, T b)				\
{									\
	return __##X##_WRAP_SUB(__##X##_WRAP_SUB(a, b), 1) >= MAX / 2;	\
}

__WRAPCMP_FAMILY(U8, u8, U8_MAX)
__WRAPCMP_FAMILY(U16, u16, U16_MAX)
__WRAPCMP_FAMILY(U32, u32, U32_MAX)
__WRAPCMP_FAMILY(U64, u64, U64_MAX)
__WRAPCMP_FAMILY(UINT, unsigned int, UINT_MAX)
__WRAPCMP_FAMILY(ULONG, unsigned long, ULONG_MAX)

#undef __WRAPCMP_FAMILY

/*
 * Build-time checks.  They do not evaluate their arguments.
 * __builtin_classify_type() (gcc, clang) is 1 to 4 for the integer, char,
 * enum and bool types, 5 for a pointer or an array, 8 for a floating type.
 * __WRAPCMP_CALL(X, OP, a, b) calls __X_CMP_OP() with a and b cast to
 * __WRAPCMP_X, the type of the family's parameters; _WIDE also checks that
 * a - b is at least as wide.  X and OP are only pasted (or made a string),
 * so a macro of such a name (U32, LT) changes nothing.
 */
#define __WRAPCMP_U8		u8
#define __WRAPCMP_U16		u16
#define __WRAPCMP_U32		u32
#define __WRAPCMP_U64		u64
#define __WRAPCMP_UINT		unsigned int
#define __WRAPCMP_ULONG		unsigned long
#define __WRAPCMP_ASSERT(cond, msg)					\
	((void)sizeof(struct { _Static_assert(cond, msg); int __wrapcmp; }))
#define __WRAPCMP_IS_INT(x)						\
	(__builtin_classify_type(x) >= 1 && __builtin_classify_type(x) <= 4)
#define __WRAPCMP_CALL(X, OP, a, b)					\
	__WRAPCMP_CHECK(X##_CMP_##OP, __WRAPCMP_##X, a, b)
#define __WRAPCMP_CALL_WIDE(X, OP, a, b, what)				\
	__WRAPCMP_CHECK_WIDE(X##_CMP_##OP, __WRAPCMP_##X, a, b, what)
#define __WRAPCMP_CHECK(f, T, a, b)					\
	(__WRAPCMP_ASSERT(__WRAPCMP_IS_INT(a) && __WRAPCMP_IS_INT(b),	\
			  #f "(): an argument is not an integer "	\
			  "(a pointer or floating value)"),		\
	 __##f((T)(a), (T)(b)))
#define __WRAPCMP_CHECK_WIDE(f, T, a, b, what)				\
	(__WRAPCMP_ASSERT(sizeof((a) - (b)) >= sizeof(T),		\
			  #f "_WIDE(): a - b is narrower than " what	\
			  ", so the (" what ")(a - b) it replaces "	\
			  "does not wrap where this helper does"),	\
	 __WRAPCMP_CHECK(f, T, a, b))
/*
 * __WRAPCMP_CALL_RCU(OP, a, b) is __WRAPCMP_CALL(ULONG, OP, a, b) for the two
 * names rcupdate.h had (see the top of this file): it also checks that a - b
 * is exactly as wide as unsigned long, or that a and b are both narrower than
 * int, where the helper computes what the old macro did.
 */
#define __WRAPCMP_CALL_RCU(OP, a, b)					\
	(__WRAPCMP_ASSERT(sizeof((a) - (b)) >= sizeof(unsigned long) ||	\
			  (sizeof(a) < sizeof(int) &&			\
			   sizeof(b) < sizeof(int)),			\
			  "ULONG_CMP_" #OP "(): a - b is narrower "	\
			  "than unsigned long: the rcupdate.h macro "	\
			  "of this name subtracted in that type; use "	\
			  "U32_CMP_" #OP "() for int counters"),	\
	 __WRAPCMP_ASSERT(sizeof((a) - (b)) <= sizeof(unsigned long),	\
			  "ULONG_CMP_" #OP "(): a - b is wider than "	\
			  "unsigned long: the rcupdate.h macro of "	\
			  "this name compared all of it; use "		\
			  "U64_CMP_" #OP "() for u64 counters"),	\
	 __WRAPCMP_CHECK(ULONG_CMP_##OP, __WRAPCMP_ULONG, a, b))

#define U8_CMP_LT(a, b)		__WRAPCMP_CALL(U8, LT, a, b)
#define U8_CMP_LE(a, b)		__WRAPCMP_CALL(U8, LE, a, b)
#define U8_CMP_GT(a, b)		__WRAPCMP_CALL(U8, GT, a, b)
#define U8_CMP_GE(a, b)		__WRAPCMP_CALL(U8, GE, a, b)
#define U16_CMP_LT(a, b)	__WRAPCMP_CALL(U16, LT, a, b)
#define U16_CMP_LE(a, b)	__WRAPCMP_CALL(U16, LE, a, b)
#define U16_CMP_GT(a, b)	__WRAPCMP_CALL(U16, GT, a, b)
#define U16_CMP_GE(a, b)	__WRAPCMP_CALL(U16, GE, a, b)
#define U32_CMP_LT(a, b)	__WRAPCMP_CALL(U32, LT, a, b)
#define U32_CMP_LE(a, b)	__WRAPCMP_CALL(U32, LE, a, b)
#define U32_CMP_GT(a, b)	__WRAPCMP_CALL(U32, GT, a, b)
#define U32_CMP_GE(a, b)	__WRAPCMP_CALL(U32, GE, a, b)
#define U64_CMP_LT(a, b)	__WRAPCMP_CALL(U64, LT, a, b)
#define U64_CMP_LE(a, b)	__WRAPCMP_CALL(U64, LE, a, b)
#define U64_CMP_GT(a, b)	__WRAPCMP_CALL(U64, GT, a, b)
#define U64_CMP_GE(a, b)	__WRAPCMP_CALL(U64, GE, a, b)
#define UINT_CMP_LT(a, b)	__WRAPCMP_CALL(UINT, LT, a, b)
#define UINT_CMP_LE(a, b)	__WRAPCMP_CALL(UINT, LE, a, b)
#define UINT_CMP_GT(a, b)	__WRAPCMP_CALL(UINT, GT, a, b)
#define UINT_CMP_GE(a, b)	__WRAPCMP_CALL(UINT, GE, a, b)
#define ULONG_CMP_LT(a, b)	__WRAPCMP_CALL_RCU(LT, a, b)
#define ULONG_CMP_LE(a, b)	__WRAPCMP_CALL(ULONG, LE, a, b)
#define ULONG_CMP_GT(a, b)	__WRAPCMP_CALL(ULONG, GT, a, b)
#define ULONG_CMP_GE(a, b)	__WRAPCMP_CALL_RCU(GE, a, b)

#define U64_CMP_LT_WIDE(a, b)	__WRAPCMP_CALL_WIDE(U64, LT, a, b, "s64")
#define U64_CMP_LE_WIDE(a, b)	__WRAPCMP_CALL_WIDE(U64, LE, a, b, "s64")
#define U64_CMP_GT_WIDE(a, b)	__WRAPCMP_CALL_WIDE(U64, GT, a, b, "s64")
#define U64_CMP_GE_WIDE(a, b)	__WRAPCMP_CALL_WIDE(U64, GE, a, b, "s64")
#define ULONG_CMP_LT_WIDE(a, b)	__WRAPCMP_CALL_WIDE(ULONG, LT, a, b, "long")
#define ULONG_CMP_LE_WIDE(a, b)	__WRAPCMP_CALL_WIDE(ULONG, LE, a, b, "long")
#define ULONG_CMP_GT_WIDE(a, b)	__WRAPCMP_CALL_WIDE(ULONG, GT, a, b, "long")
#define ULONG_CMP_GE_WIDE(a, b)	__WRAPCMP_CALL_WIDE(ULONG, GE, a, b, "long")

#endif /* _LINUX_WRAPCMP_H */
