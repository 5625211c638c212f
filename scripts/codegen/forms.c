// SPDX-License-Identifier: GPL-2.0
/*
 * Three forms of each comparison, for scripts/bench-codegen:
 *	helper_X_OP	X_CMP_OP(a, b) from <linux/wrapcmp.h> (given with -include)
 *	cast_X_OP	the cast idiom it replaces: (sN)(a - b) OP 0 on unsigned a, b;
 *			for 8 and 16 bits (sN)(uN)(a - b) OP 0, as the difference is int
 *	signed_X_OP	a - b OP 0 on signed a, b (undefined on overflow; for 8 and 16
 *			bits the operands promote to int, so it cannot wrap and means
 *			a OP b: not the same function)
 * Compile with -ffunction-sections so each function has a section of its own.
 */
#include <stdint.h>

#define FORMS(X, U, S, OP, SYM, CAST)						\
int helper_##X##_##OP(U a, U b)							\
{										\
	return X##_CMP_##OP(a, b);						\
}										\
int cast_##X##_##OP(U a, U b)							\
{										\
	return CAST(U, S, a - b) SYM 0;						\
}										\
int signed_##X##_##OP(S a, S b)							\
{										\
	return a - b SYM 0;							\
}

#define CAST_NARROW(U, S, d)	(S)(U)(d)
#define CAST_WIDE(U, S, d)	(S)(d)

#define FAMILY(X, U, S, CAST)							\
	FORMS(X, U, S, LT, <, CAST)						\
	FORMS(X, U, S, LE, <=, CAST)						\
	FORMS(X, U, S, GT, >, CAST)						\
	FORMS(X, U, S, GE, >=, CAST)

FAMILY(U8, uint8_t, int8_t, CAST_NARROW)
FAMILY(U16, uint16_t, int16_t, CAST_NARROW)
FAMILY(U32, uint32_t, int32_t, CAST_WIDE)
FAMILY(U64, uint64_t, int64_t, CAST_WIDE)
FAMILY(UINT, unsigned int, int, CAST_WIDE)
FAMILY(ULONG, unsigned long, long, CAST_WIDE)
