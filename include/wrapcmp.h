/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Wrap-safe comparison of free-running counters, for C projects (C99 or later,
 * <stdint.h> and <limits.h> only).  The wrapcmp runner copies this file into a
 * project whose code it rewrites.  The kernel's version is
 * include/linux/wrapcmp.h, with the same names and the same results.
 *
 * X_CMP_OP(a, b) is 1 exactly when (sN)((uN)a - (uN)b) OP 0 in two's-complement
 * arithmetic, where N is the width of X and OP is <, <=, > or >=: "a is before,
 * at or before, after, at or after b" on a counter that wraps.  Code that
 * writes this as (int32_t)(a - b) < 0 relies on an implementation-defined
 * conversion, and a - b < 0 on signed counters relies on signed overflow,
 * which is undefined: built without -fwrapv, gcc and clang compile it as a < b.
 * The helpers compute the answer in unsigned arithmetic only.  Each argument
 * is converted to uN and evaluated once; the result is an int.
 *
 *   X:  U8 uint8_t, U16 uint16_t, U32 uint32_t, U64 uint64_t,
 *       UINT unsigned int, ULONG unsigned long
 *
 * With d = (uN)(a - b):  LT is d > MAX / 2,  GE is d <= MAX / 2,
 *                        GT is (uN)(d - 1) < MAX / 2,  LE is (uN)(d - 1) >= MAX / 2.
 * GT is not LT with its arguments swapped: at d == MAX / 2 + 1 both (sN)(a - b)
 * and (sN)(b - a) are negative.
 *
 * U64_CMP_OP_WIDE(a, b) and ULONG_CMP_OP_WIDE(a, b) are for code that was
 * (int64_t)(a - b) OP 0 or (long)(a - b) OP 0: they also check at build time
 * that a - b is at least that wide, since a narrower difference is widened by
 * such a cast, never wrapped.
 *
 * With GCC and clang (WRAPCMP_CHECKED is 1) a pointer or floating argument,
 * or a too narrow difference for _WIDE, fails the build with a message that
 * names the helper.  The wrap is the point here, so the integer sanitizers
 * (-fsanitize=integer,implicit-conversion) must not see one: each argument is
 * converted by an explicit cast, and d and d - 1 are computed with
 * __builtin_sub_overflow(), which wraps and is not instrumented.  The code
 * generated is the same as for (uN)(a - b) and (uN)(d - 1).
 *
 * With other compilers, or where WRAPCMP_CHECKED is defined to 0 before this
 * header, the helpers compute the same results in plain C99.  A pointer
 * argument still needs a diagnostic (it is converted implicitly to an integer
 * parameter), but a floating argument is converted, and the _WIDE check is
 * not made.
 */
#ifndef WRAPCMP_H
#define WRAPCMP_H

#include <limits.h>
#include <stdint.h>

#ifndef WRAPCMP_CHECKED
#if defined(__GNUC__) || defined(__clang__)
#define WRAPCMP_CHECKED 1
#else
#define WRAPCMP_CHECKED 0
#endif
#endif

#define WRAPCMP_U8		uint8_t
#define WRAPCMP_U16		uint16_t
#define WRAPCMP_U32		uint32_t
#define WRAPCMP_U64		uint64_t
#define WRAPCMP_UINT		unsigned int
#define WRAPCMP_ULONG		unsigned long

/*
 * WRAPCMP_SUB(name, T) defines name(a, b) as (T)(a - b); the family's is
 * wrapcmp_X_WRAP_SUB().  __inline__ is inline for GCC and clang in every C
 * mode, C89 too.  X is only ever pasted, so a macro of such a name (U32,
 * ULONG) changes nothing.
 */
#if WRAPCMP_CHECKED
#define WRAPCMP_STATIC	static __inline__
#define WRAPCMP_SUB(name, T)						\
WRAPCMP_STATIC T name(T wrapcmp_a, T wrapcmp_b)				\
{									\
	T wrapcmp_d;							\
									\
	(void)__builtin_sub_overflow(wrapcmp_a, wrapcmp_b, &wrapcmp_d);	\
	return wrapcmp_d;						\
}
#else
#define WRAPCMP_STATIC	static inline
#define WRAPCMP_SUB(name, T)						\
WRAPCMP_STATIC T name(T wrapcmp_a, T wrapcmp_b)				\
{									\
	return (T)(wrapcmp_a - wrapcmp_b);				\
}
#endif

/* The names inside are prefixed too: a caller's macro cannot reach them. */
#define WRAPCMP_FAMILY(X, T, MAX)					\
WRAPCMP_SUB(wrapcmp_##X##_WRAP_SUB, T)					\
WRAPCMP_STATIC int wrapcmp_##X##_CMP_LT(T wrapcmp_a, T wrapcmp_b)	\
{									\
	return wrapcmp_##X##_WRAP_SUB(wrapcmp_a, wrapcmp_b) > MAX / 2;	\
}									\
WRAPCMP_STATIC int wrapcmp_##X##_CMP_GE(T wrapcmp_a, T wrapcmp_b)	\
{									\
	return wrapcmp_##X##_WRAP_SUB(wrapcmp_a, wrapcmp_b) <= MAX / 2;	\
}									\
WRAPCMP_STATIC int wrapcmp_##X##_CMP_GT(T wrapcmp_a, T wrapcmp_b)	\
{									\
	T wrapcmp_d = wrapcmp_##X##_WRAP_SUB(wrapcmp_a, wrapcmp_b);	\
									\
	return wrapcmp_##X##_WRAP_SUB(wrapcmp_d, 1) < MAX / 2;		\
}									\
WRAPCMP_STATIC int wrapcmp_##X##_CMP_LE(T wrapcmp_a, T wrapcmp_b)	\
{									\
	T wrapcmp_d = wrapcmp_##X##_WRAP_SUB(wrapcmp_a, wrapcmp_b);	\
									\
	return wrapcmp_##X##_WRAP_SUB(wrapcmp_d, 1) >= MAX / 2;		\
}

WRAPCMP_FAMILY(U8, WRAPCMP_U8, UINT8_MAX)
WRAPCMP_FAMILY(U16, WRAPCMP_U16, UINT16_MAX)
WRAPCMP_FAMILY(U32, WRAPCMP_U32, UINT32_MAX)
WRAPCMP_FAMILY(U64, WRAPCMP_U64, UINT64_MAX)
WRAPCMP_FAMILY(UINT, WRAPCMP_UINT, UINT_MAX)
WRAPCMP_FAMILY(ULONG, WRAPCMP_ULONG, ULONG_MAX)

#undef WRAPCMP_FAMILY
#undef WRAPCMP_SUB

#if WRAPCMP_CHECKED
/*
 * Build-time checks that do not evaluate their arguments.
 * __builtin_classify_type() is 1 to 4 for the integer, char, enum and bool
 * types, 5 for a pointer or an array, 8 for a floating type.
 * WRAPCMP_CALL(X, OP, a, b) calls wrapcmp_X_CMP_OP() with a and b cast to
 * WRAPCMP_X; _WIDE also checks that a - b is at least as wide.  X and OP are
 * only pasted here too.
 * WRAPCMP_ASSERT(cond, msg, name): from C11 on, _Static_assert prints msg.
 * Before C11 (where the C library may define _Static_assert as a macro that
 * cannot stand in a struct) a bit-field called name gets a negative width.
 */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L &&		\
	!defined(_Static_assert)
#define WRAPCMP_ASSERT(cond, msg, name)					\
	((void)sizeof(struct { _Static_assert(cond, msg); int name; }))
#else
#define WRAPCMP_ASSERT(cond, msg, name)					\
	((void)sizeof(struct { int name : (cond) ? 1 : -1; }))
#endif
#define WRAPCMP_IS_INT(x)						\
	(__builtin_classify_type(x) >= 1 && __builtin_classify_type(x) <= 4)
#define WRAPCMP_CALL(X, OP, a, b)					\
	WRAPCMP_CHECK(X##_CMP_##OP, WRAPCMP_##X, a, b)
#define WRAPCMP_CALL_WIDE(X, OP, a, b, what)				\
	WRAPCMP_CHECK_WIDE(X##_CMP_##OP, WRAPCMP_##X, a, b, what)
#define WRAPCMP_CHECK(f, T, a, b)					\
	(WRAPCMP_ASSERT(WRAPCMP_IS_INT(a) && WRAPCMP_IS_INT(b),		\
			#f "(): an argument is not an integer "		\
			"(a pointer or floating value)",		\
			f##_argument_is_not_an_integer),		\
	 wrapcmp_##f((T)(a), (T)(b)))
#define WRAPCMP_CHECK_WIDE(f, T, a, b, what)				\
	(WRAPCMP_ASSERT(sizeof((a) - (b)) >= sizeof(T),			\
			#f "_WIDE(): a - b is narrower than " what	\
			", so the (" what ")(a - b) it replaces "	\
			"does not wrap where this helper does",		\
			f##_WIDE_a_minus_b_is_too_narrow),		\
	 WRAPCMP_CHECK(f, T, a, b))
#else
#define WRAPCMP_CALL(X, OP, a, b)	wrapcmp_##X##_CMP_##OP(a, b)
#define WRAPCMP_CALL_WIDE(X, OP, a, b, what)	wrapcmp_##X##_CMP_##OP(a, b)
#endif

#define U8_CMP_LT(a, b)		WRAPCMP_CALL(U8, LT, a, b)
#define U8_CMP_LE(a, b)		WRAPCMP_CALL(U8, LE, a, b)
#define U8_CMP_GT(a, b)		WRAPCMP_CALL(U8, GT, a, b)
#define U8_CMP_GE(a, b)		WRAPCMP_CALL(U8, GE, a, b)
#define U16_CMP_LT(a, b)	WRAPCMP_CALL(U16, LT, a, b)
#define U16_CMP_LE(a, b)	WRAPCMP_CALL(U16, LE, a, b)
#define U16_CMP_GT(a, b)	WRAPCMP_CALL(U16, GT, a, b)
#define U16_CMP_GE(a, b)	WRAPCMP_CALL(U16, GE, a, b)
#define U32_CMP_LT(a, b)	WRAPCMP_CALL(U32, LT, a, b)
#define U32_CMP_LE(a, b)	WRAPCMP_CALL(U32, LE, a, b)
#define U32_CMP_GT(a, b)	WRAPCMP_CALL(U32, GT, a, b)
#define U32_CMP_GE(a, b)	WRAPCMP_CALL(U32, GE, a, b)
#define U64_CMP_LT(a, b)	WRAPCMP_CALL(U64, LT, a, b)
#define U64_CMP_LE(a, b)	WRAPCMP_CALL(U64, LE, a, b)
#define U64_CMP_GT(a, b)	WRAPCMP_CALL(U64, GT, a, b)
#define U64_CMP_GE(a, b)	WRAPCMP_CALL(U64, GE, a, b)
#define UINT_CMP_LT(a, b)	WRAPCMP_CALL(UINT, LT, a, b)
#define UINT_CMP_LE(a, b)	WRAPCMP_CALL(UINT, LE, a, b)
#define UINT_CMP_GT(a, b)	WRAPCMP_CALL(UINT, GT, a, b)
#define UINT_CMP_GE(a, b)	WRAPCMP_CALL(UINT, GE, a, b)
#define ULONG_CMP_LT(a, b)	WRAPCMP_CALL(ULONG, LT, a, b)
#define ULONG_CMP_LE(a, b)	WRAPCMP_CALL(ULONG, LE, a, b)
#define ULONG_CMP_GT(a, b)	WRAPCMP_CALL(ULONG, GT, a, b)
#define ULONG_CMP_GE(a, b)	WRAPCMP_CALL(ULONG, GE, a, b)

#define U64_CMP_LT_WIDE(a, b)	WRAPCMP_CALL_WIDE(U64, LT, a, b, "int64_t")
#define U64_CMP_LE_WIDE(a, b)	WRAPCMP_CALL_WIDE(U64, LE, a, b, "int64_t")
#define U64_CMP_GT_WIDE(a, b)	WRAPCMP_CALL_WIDE(U64, GT, a, b, "int64_t")
#define U64_CMP_GE_WIDE(a, b)	WRAPCMP_CALL_WIDE(U64, GE, a, b, "int64_t")
#define ULONG_CMP_LT_WIDE(a, b)	WRAPCMP_CALL_WIDE(ULONG, LT, a, b, "long")
#define ULONG_CMP_LE_WIDE(a, b)	WRAPCMP_CALL_WIDE(ULONG, LE, a, b, "long")
#define ULONG_CMP_GT_WIDE(a, b)	WRAPCMP_CALL_WIDE(ULONG, GT, a, b, "long")
#define ULONG_CMP_GE_WIDE(a, b)	WRAPCMP_CALL_WIDE(ULONG, GE, a, b, "long")

#endif /* WRAPCMP_H */
