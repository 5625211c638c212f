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
 * evaluated once; the result is an int.
 *
 * With d = (uN)(a - b):  LT is d > MAX / 2,  GE is d <= MAX / 2,
 *                        GT is (uN)(d - 1) < MAX / 2,  LE is (uN)(d - 1) >= MAX / 2.
 * GT is not LT with its arguments swapped: at d == MAX / 2 + 1 both (sN)(a - b)
 * and (sN)(b - a) are negative.
 */
#ifndef _LINUX_WRAPCMP_H
#define _LINUX_WRAPCMP_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/limits.h>
#define __WRAPCMP_U8		u8
#define __WRAPCMP_U16		u16
#define __WRAPCMP_U32		u32
#define __WRAPCMP_U64		u64
#define __WRAPCMP_U8_MAX	U8_MAX
#define __WRAPCMP_U16_MAX	U16_MAX
#define __WRAPCMP_U32_MAX	U32_MAX
#define __WRAPCMP_U64_MAX	U64_MAX
#else
#include <stdint.h>
#include <limits.h>
#define __WRAPCMP_U8		uint8_t
#define __WRAPCMP_U16		uint16_t
#define __WRAPCMP_U32		uint32_t
#define __WRAPCMP_U64		uint64_t
#define __WRAPCMP_U8_MAX	UINT8_MAX
#define __WRAPCMP_U16_MAX	UINT16_MAX
#define __WRAPCMP_U32_MAX	UINT32_MAX
#define __WRAPCMP_U64_MAX	UINT64_MAX
#endif

/*
 * <linux/rcupdate.h> has macros of these two names that subtract in the
 * arguments' own type.  The functions below give the same answer wherever
 * that subtraction is defined and, unlike them, for unsigned int arguments.
 * Where rcupdate.h comes after this header, its macros win from there on.
 */
#undef ULONG_CMP_GE
#undef ULONG_CMP_LT

#define __WRAPCMP_FAMILY(X, T, MAX)					\
static inline int X##_CMP_LT(T a, T b)					\
{									\
	return (T)(a - b) > MAX / 2;					\
}									\
static inline int X##_CMP_GE(T a, T b)					\
{									\
	return (T)(a - b) <= MAX / 2;					\
}									\
static inline int X##_CMP_GT(T a, T b)					\
{									\
	return (T)((T)(a - b) - 1) < MAX / 2;				\
}									\
static inline int X##_CMP_LE(T a, T b)					\
{									\
	return (T)((T)(a - b) - 1) >= MAX / 2;				\
}

__WRAPCMP_FAMILY(U8, __WRAPCMP_U8, __WRAPCMP_U8_MAX)
__WRAPCMP_FAMILY(U16, __WRAPCMP_U16, __WRAPCMP_U16_MAX)
__WRAPCMP_FAMILY(U32, __WRAPCMP_U32, __WRAPCMP_U32_MAX)
__WRAPCMP_FAMILY(U64, __WRAPCMP_U64, __WRAPCMP_U64_MAX)
__WRAPCMP_FAMILY(UINT, unsigned int, UINT_MAX)
__WRAPCMP_FAMILY(ULONG, unsigned long, ULONG_MAX)

#undef __WRAPCMP_FAMILY

#endif /* _LINUX_WRAPCMP_H */
