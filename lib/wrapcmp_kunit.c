// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the wrap-safe counter comparisons of <linux/wrapcmp.h>.
 *
 *	./tools/testing/kunit/kunit.py run \
 *		--kconfig_add CONFIG_WRAPCMP_KUNIT_TEST=y 'wrapcmp*'
 *
 * X_CMP_OP(a, b) must be (sN)((uN)a - (uN)b) OP 0, where N is the width of X.
 * That reference is computed here in plain C: the kernel is built with
 * -fno-strict-overflow, and GCC and Clang convert an out-of-range value to a
 * signed type modulo 2^N.  The tables also give the expected value of every
 * case, so that a reader sees them.
 *
 * With d = (uN)(a - b), the cases that matter are around d = 2^(N-1), the
 * half-way point.  There both (sN)(a - b) and (sN)(b - a) are negative: LT
 * and LE are true, GT and GE are false, and GT(a, b) is not LT(b, a).
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/prandom.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/wrapcmp.h>

enum wrapcmp_width {
	WRAPCMP_U8,
	WRAPCMP_U16,
	WRAPCMP_U32,
	WRAPCMP_U64,
	WRAPCMP_UINT,
	WRAPCMP_ULONG,
};

enum wrapcmp_op {
	WRAPCMP_LT,
	WRAPCMP_LE,
	WRAPCMP_GT,
	WRAPCMP_GE,
	WRAPCMP_NR_OPS,
};

static const char * const wrapcmp_op_str[WRAPCMP_NR_OPS] = {
	[WRAPCMP_LT] = "<",
	[WRAPCMP_LE] = "<=",
	[WRAPCMP_GT] = ">",
	[WRAPCMP_GE] = ">=",
};

static const char * const wrapcmp_cast_str[] = {
	[WRAPCMP_U8] = "s8",
	[WRAPCMP_U16] = "s16",
	[WRAPCMP_U32] = "s32",
	[WRAPCMP_U64] = "s64",
	[WRAPCMP_UINT] = "int",
	[WRAPCMP_ULONG] = "long",
};

/* d OP 0, d being (sN)((uN)a - (uN)b). */
static int wrapcmp_sign_cmp(enum wrapcmp_op op, s64 d)
{
	switch (op) {
	case WRAPCMP_LT:
		return d < 0;
	case WRAPCMP_LE:
		return d <= 0;
	case WRAPCMP_GT:
		return d > 0;
	default:
		return d >= 0;
	}
}

/* The reference: (sN)((uN)a - (uN)b) OP 0, in plain C. */
static int wrapcmp_ref(enum wrapcmp_width width, enum wrapcmp_op op,
		       u64 a, u64 b)
{
	s64 d;

	switch (width) {
	case WRAPCMP_U8:
		d = (s8)((u8)a - (u8)b);
		break;
	case WRAPCMP_U16:
		d = (s16)((u16)a - (u16)b);
		break;
	case WRAPCMP_U32:
		d = (s32)((u32)a - (u32)b);
		break;
	case WRAPCMP_UINT:
		d = (int)((unsigned int)a - (unsigned int)b);
		break;
	case WRAPCMP_ULONG:
		d = (long)((unsigned long)a - (unsigned long)b);
		break;
	case WRAPCMP_U64:
	default:
		d = (s64)(a - b);
		break;
	}

	return wrapcmp_sign_cmp(op, d);
}

/*
 * Every helper behind a function of the same signature, so that one loop can
 * test them all.  Each wrapper passes its arguments in the helper's own type.
 */
#define WRAPCMP_WRAPPER(helper, type)					\
static int wrap_##helper(u64 a, u64 b)					\
{									\
	return helper((type)a, (type)b);				\
}

WRAPCMP_WRAPPER(U8_CMP_LT, u8)
WRAPCMP_WRAPPER(U8_CMP_LE, u8)
WRAPCMP_WRAPPER(U8_CMP_GT, u8)
WRAPCMP_WRAPPER(U8_CMP_GE, u8)
WRAPCMP_WRAPPER(U16_CMP_LT, u16)
WRAPCMP_WRAPPER(U16_CMP_LE, u16)
WRAPCMP_WRAPPER(U16_CMP_GT, u16)
WRAPCMP_WRAPPER(U16_CMP_GE, u16)
WRAPCMP_WRAPPER(U32_CMP_LT, u32)
WRAPCMP_WRAPPER(U32_CMP_LE, u32)
WRAPCMP_WRAPPER(U32_CMP_GT, u32)
WRAPCMP_WRAPPER(U32_CMP_GE, u32)
WRAPCMP_WRAPPER(U64_CMP_LT, u64)
WRAPCMP_WRAPPER(U64_CMP_LE, u64)
WRAPCMP_WRAPPER(U64_CMP_GT, u64)
WRAPCMP_WRAPPER(U64_CMP_GE, u64)
WRAPCMP_WRAPPER(UINT_CMP_LT, unsigned int)
WRAPCMP_WRAPPER(UINT_CMP_LE, unsigned int)
WRAPCMP_WRAPPER(UINT_CMP_GT, unsigned int)
WRAPCMP_WRAPPER(UINT_CMP_GE, unsigned int)
WRAPCMP_WRAPPER(ULONG_CMP_LT, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_LE, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_GT, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_GE, unsigned long)
WRAPCMP_WRAPPER(U64_CMP_LT_WIDE, u64)
WRAPCMP_WRAPPER(U64_CMP_LE_WIDE, u64)
WRAPCMP_WRAPPER(U64_CMP_GT_WIDE, u64)
WRAPCMP_WRAPPER(U64_CMP_GE_WIDE, u64)
WRAPCMP_WRAPPER(ULONG_CMP_LT_WIDE, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_LE_WIDE, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_GT_WIDE, unsigned long)
WRAPCMP_WRAPPER(ULONG_CMP_GE_WIDE, unsigned long)

struct wrapcmp_helper {
	const char *name;
	enum wrapcmp_width width;
	enum wrapcmp_op op;
	int (*fn)(u64 a, u64 b);
};

#define WRAPCMP_HELPER(helper, width, op)				\
	{ #helper, WRAPCMP_##width, WRAPCMP_##op, wrap_##helper }

static const struct wrapcmp_helper wrapcmp_helpers[] = {
	WRAPCMP_HELPER(U8_CMP_LT, U8, LT),
	WRAPCMP_HELPER(U8_CMP_LE, U8, LE),
	WRAPCMP_HELPER(U8_CMP_GT, U8, GT),
	WRAPCMP_HELPER(U8_CMP_GE, U8, GE),
	WRAPCMP_HELPER(U16_CMP_LT, U16, LT),
	WRAPCMP_HELPER(U16_CMP_LE, U16, LE),
	WRAPCMP_HELPER(U16_CMP_GT, U16, GT),
	WRAPCMP_HELPER(U16_CMP_GE, U16, GE),
	WRAPCMP_HELPER(U32_CMP_LT, U32, LT),
	WRAPCMP_HELPER(U32_CMP_LE, U32, LE),
	WRAPCMP_HELPER(U32_CMP_GT, U32, GT),
	WRAPCMP_HELPER(U32_CMP_GE, U32, GE),
	WRAPCMP_HELPER(U64_CMP_LT, U64, LT),
	WRAPCMP_HELPER(U64_CMP_LE, U64, LE),
	WRAPCMP_HELPER(U64_CMP_GT, U64, GT),
	WRAPCMP_HELPER(U64_CMP_GE, U64, GE),
	WRAPCMP_HELPER(UINT_CMP_LT, UINT, LT),
	WRAPCMP_HELPER(UINT_CMP_LE, UINT, LE),
	WRAPCMP_HELPER(UINT_CMP_GT, UINT, GT),
	WRAPCMP_HELPER(UINT_CMP_GE, UINT, GE),
	WRAPCMP_HELPER(ULONG_CMP_LT, ULONG, LT),
	WRAPCMP_HELPER(ULONG_CMP_LE, ULONG, LE),
	WRAPCMP_HELPER(ULONG_CMP_GT, ULONG, GT),
	WRAPCMP_HELPER(ULONG_CMP_GE, ULONG, GE),
	WRAPCMP_HELPER(U64_CMP_LT_WIDE, U64, LT),
	WRAPCMP_HELPER(U64_CMP_LE_WIDE, U64, LE),
	WRAPCMP_HELPER(U64_CMP_GT_WIDE, U64, GT),
	WRAPCMP_HELPER(U64_CMP_GE_WIDE, U64, GE),
	WRAPCMP_HELPER(ULONG_CMP_LT_WIDE, ULONG, LT),
	WRAPCMP_HELPER(ULONG_CMP_LE_WIDE, ULONG, LE),
	WRAPCMP_HELPER(ULONG_CMP_GT_WIDE, ULONG, GT),
	WRAPCMP_HELPER(ULONG_CMP_GE_WIDE, ULONG, GE),
};

/*
 * The tables, one per width.  want[] is LT, LE, GT, GE, and d is
 * (uN)(a - b) in terms of the half-way point 2^(N-1).  On each row every
 * helper of the width must give want[], and so must the reference.
 */
struct wrapcmp_case {
	u64 a;
	u64 b;
	int want[WRAPCMP_NR_OPS];
	const char *d;
};

#define D_ZERO		"0"
#define D_PLUS		"+1"
#define D_MINUS		"-1"
#define D_HALF		"2^(N-1)"
#define D_HALF_M1	"2^(N-1) - 1"
#define D_HALF_P1	"2^(N-1) + 1"

static const struct wrapcmp_case u8_cases[] = {
	/*  a     b       LT LE GT GE */
	{ 0x00, 0x00, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x7f, 0x7f, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x80, 0x80, { 0, 1, 0, 1 }, D_ZERO },
	{ 0xff, 0xff, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x01, 0x00, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x00, 0xff, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x80, 0x7f, { 0, 0, 1, 1 }, D_PLUS },
	{ 0xff, 0xfe, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x00, 0x01, { 1, 1, 0, 0 }, D_MINUS },
	{ 0xff, 0x00, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x7f, 0x80, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x80, 0x00, { 1, 1, 0, 0 }, D_HALF },
	{ 0x00, 0x80, { 1, 1, 0, 0 }, D_HALF },
	{ 0xff, 0x7f, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7f, 0xff, { 1, 1, 0, 0 }, D_HALF },
	{ 0x81, 0x01, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7f, 0x00, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0xff, 0x80, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x00, 0x81, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x81, 0x00, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x00, 0x7f, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x80, 0xff, { 1, 1, 0, 0 }, D_HALF_P1 },
};

static const struct wrapcmp_case u16_cases[] = {
	/*  a       b         LT LE GT GE */
	{ 0x0000, 0x0000, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x7fff, 0x7fff, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x8000, 0x8000, { 0, 1, 0, 1 }, D_ZERO },
	{ 0xffff, 0xffff, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x0001, 0x0000, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x0000, 0xffff, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x8000, 0x7fff, { 0, 0, 1, 1 }, D_PLUS },
	{ 0xffff, 0xfffe, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x0000, 0x0001, { 1, 1, 0, 0 }, D_MINUS },
	{ 0xffff, 0x0000, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x7fff, 0x8000, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x8000, 0x0000, { 1, 1, 0, 0 }, D_HALF },
	{ 0x0000, 0x8000, { 1, 1, 0, 0 }, D_HALF },
	{ 0xffff, 0x7fff, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fff, 0xffff, { 1, 1, 0, 0 }, D_HALF },
	{ 0x8001, 0x0001, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fff, 0x0000, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0xffff, 0x8000, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x0000, 0x8001, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x8001, 0x0000, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x0000, 0x7fff, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x8000, 0xffff, { 1, 1, 0, 0 }, D_HALF_P1 },
};

static const struct wrapcmp_case u32_cases[] = {
	/*  a           b             LT LE GT GE */
	{ 0x00000000, 0x00000000, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x7fffffff, 0x7fffffff, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x80000000, 0x80000000, { 0, 1, 0, 1 }, D_ZERO },
	{ 0xffffffff, 0xffffffff, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x00000001, 0x00000000, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x00000000, 0xffffffff, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x80000000, 0x7fffffff, { 0, 0, 1, 1 }, D_PLUS },
	{ 0xffffffff, 0xfffffffe, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x00000000, 0x00000001, { 1, 1, 0, 0 }, D_MINUS },
	{ 0xffffffff, 0x00000000, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x7fffffff, 0x80000000, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x80000000, 0x00000000, { 1, 1, 0, 0 }, D_HALF },
	{ 0x00000000, 0x80000000, { 1, 1, 0, 0 }, D_HALF },
	{ 0xffffffff, 0x7fffffff, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fffffff, 0xffffffff, { 1, 1, 0, 0 }, D_HALF },
	{ 0x80000001, 0x00000001, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fffffff, 0x00000000, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0xffffffff, 0x80000000, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x00000000, 0x80000001, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x80000001, 0x00000000, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x00000000, 0x7fffffff, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x80000000, 0xffffffff, { 1, 1, 0, 0 }, D_HALF_P1 },
};

static const struct wrapcmp_case u64_cases[] = {
	/*  a                      b                        LT LE GT GE */
	{ 0x0000000000000000ULL, 0x0000000000000000ULL, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x7fffffffffffffffULL, 0x7fffffffffffffffULL, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x8000000000000000ULL, 0x8000000000000000ULL, { 0, 1, 0, 1 }, D_ZERO },
	{ 0xffffffffffffffffULL, 0xffffffffffffffffULL, { 0, 1, 0, 1 }, D_ZERO },
	{ 0x0000000000000001ULL, 0x0000000000000000ULL, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x0000000000000000ULL, 0xffffffffffffffffULL, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x8000000000000000ULL, 0x7fffffffffffffffULL, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x0000000100000000ULL, 0x00000000ffffffffULL, { 0, 0, 1, 1 }, D_PLUS },
	{ 0x0000000000000000ULL, 0x0000000000000001ULL, { 1, 1, 0, 0 }, D_MINUS },
	{ 0xffffffffffffffffULL, 0x0000000000000000ULL, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x7fffffffffffffffULL, 0x8000000000000000ULL, { 1, 1, 0, 0 }, D_MINUS },
	{ 0x8000000000000000ULL, 0x0000000000000000ULL, { 1, 1, 0, 0 }, D_HALF },
	{ 0x0000000000000000ULL, 0x8000000000000000ULL, { 1, 1, 0, 0 }, D_HALF },
	{ 0xffffffffffffffffULL, 0x7fffffffffffffffULL, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fffffffffffffffULL, 0xffffffffffffffffULL, { 1, 1, 0, 0 }, D_HALF },
	{ 0x8000000000000001ULL, 0x0000000000000001ULL, { 1, 1, 0, 0 }, D_HALF },
	{ 0x7fffffffffffffffULL, 0x0000000000000000ULL, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0xffffffffffffffffULL, 0x8000000000000000ULL, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x0000000000000000ULL, 0x8000000000000001ULL, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0x8000000000000001ULL, 0x0000000000000000ULL, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x0000000000000000ULL, 0x7fffffffffffffffULL, { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0x8000000000000000ULL, 0xffffffffffffffffULL, { 1, 1, 0, 0 }, D_HALF_P1 },
};

/* unsigned int and unsigned long: the width is the architecture's. */
#define UINT_HALF	((unsigned int)INT_MAX + 1)
#define ULONG_HALF	((unsigned long)LONG_MAX + 1)

static const struct wrapcmp_case uint_cases[] = {
	/*  a              b                LT LE GT GE */
	{ 0,             0,             { 0, 1, 0, 1 }, D_ZERO },
	{ INT_MAX,       INT_MAX,       { 0, 1, 0, 1 }, D_ZERO },
	{ UINT_HALF,     UINT_HALF,     { 0, 1, 0, 1 }, D_ZERO },
	{ UINT_MAX,      UINT_MAX,      { 0, 1, 0, 1 }, D_ZERO },
	{ 1,             0,             { 0, 0, 1, 1 }, D_PLUS },
	{ 0,             UINT_MAX,      { 0, 0, 1, 1 }, D_PLUS },
	{ UINT_HALF,     INT_MAX,       { 0, 0, 1, 1 }, D_PLUS },
	{ UINT_MAX,      UINT_MAX - 1,  { 0, 0, 1, 1 }, D_PLUS },
	{ 0,             1,             { 1, 1, 0, 0 }, D_MINUS },
	{ UINT_MAX,      0,             { 1, 1, 0, 0 }, D_MINUS },
	{ INT_MAX,       UINT_HALF,     { 1, 1, 0, 0 }, D_MINUS },
	{ UINT_HALF,     0,             { 1, 1, 0, 0 }, D_HALF },
	{ 0,             UINT_HALF,     { 1, 1, 0, 0 }, D_HALF },
	{ UINT_MAX,      INT_MAX,       { 1, 1, 0, 0 }, D_HALF },
	{ INT_MAX,       UINT_MAX,      { 1, 1, 0, 0 }, D_HALF },
	{ UINT_HALF + 1, 1,             { 1, 1, 0, 0 }, D_HALF },
	{ INT_MAX,       0,             { 0, 0, 1, 1 }, D_HALF_M1 },
	{ UINT_MAX,      UINT_HALF,     { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0,             UINT_HALF + 1, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ UINT_HALF + 1, 0,             { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0,             INT_MAX,       { 1, 1, 0, 0 }, D_HALF_P1 },
	{ UINT_HALF,     UINT_MAX,      { 1, 1, 0, 0 }, D_HALF_P1 },
};

static const struct wrapcmp_case ulong_cases[] = {
	/*  a               b                 LT LE GT GE */
	{ 0,              0,              { 0, 1, 0, 1 }, D_ZERO },
	{ LONG_MAX,       LONG_MAX,       { 0, 1, 0, 1 }, D_ZERO },
	{ ULONG_HALF,     ULONG_HALF,     { 0, 1, 0, 1 }, D_ZERO },
	{ ULONG_MAX,      ULONG_MAX,      { 0, 1, 0, 1 }, D_ZERO },
	{ 1,              0,              { 0, 0, 1, 1 }, D_PLUS },
	{ 0,              ULONG_MAX,      { 0, 0, 1, 1 }, D_PLUS },
	{ ULONG_HALF,     LONG_MAX,       { 0, 0, 1, 1 }, D_PLUS },
	{ ULONG_MAX,      ULONG_MAX - 1,  { 0, 0, 1, 1 }, D_PLUS },
	{ 0,              1,              { 1, 1, 0, 0 }, D_MINUS },
	{ ULONG_MAX,      0,              { 1, 1, 0, 0 }, D_MINUS },
	{ LONG_MAX,       ULONG_HALF,     { 1, 1, 0, 0 }, D_MINUS },
	{ ULONG_HALF,     0,              { 1, 1, 0, 0 }, D_HALF },
	{ 0,              ULONG_HALF,     { 1, 1, 0, 0 }, D_HALF },
	{ ULONG_MAX,      LONG_MAX,       { 1, 1, 0, 0 }, D_HALF },
	{ LONG_MAX,       ULONG_MAX,      { 1, 1, 0, 0 }, D_HALF },
	{ ULONG_HALF + 1, 1,              { 1, 1, 0, 0 }, D_HALF },
	{ LONG_MAX,       0,              { 0, 0, 1, 1 }, D_HALF_M1 },
	{ ULONG_MAX,      ULONG_HALF,     { 0, 0, 1, 1 }, D_HALF_M1 },
	{ 0,              ULONG_HALF + 1, { 0, 0, 1, 1 }, D_HALF_M1 },
	{ ULONG_HALF + 1, 0,              { 1, 1, 0, 0 }, D_HALF_P1 },
	{ 0,              LONG_MAX,       { 1, 1, 0, 0 }, D_HALF_P1 },
	{ ULONG_HALF,     ULONG_MAX,      { 1, 1, 0, 0 }, D_HALF_P1 },
};

static void wrapcmp_case_desc(const struct wrapcmp_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "a=%#llx b=%#llx d=%s",
		 c->a, c->b, c->d);
}

KUNIT_ARRAY_PARAM(u8_table, u8_cases, wrapcmp_case_desc);
KUNIT_ARRAY_PARAM(u16_table, u16_cases, wrapcmp_case_desc);
KUNIT_ARRAY_PARAM(u32_table, u32_cases, wrapcmp_case_desc);
KUNIT_ARRAY_PARAM(u64_table, u64_cases, wrapcmp_case_desc);
KUNIT_ARRAY_PARAM(uint_table, uint_cases, wrapcmp_case_desc);
KUNIT_ARRAY_PARAM(ulong_table, ulong_cases, wrapcmp_case_desc);

/* Every helper of this width, and the reference, against one table row. */
static void wrapcmp_check_case(struct kunit *test, enum wrapcmp_width width)
{
	const struct wrapcmp_case *c = test->param_value;
	const char *cast = wrapcmp_cast_str[width];
	unsigned int i;
	int op;

	for (op = 0; op < WRAPCMP_NR_OPS; op++) {
		int ref = wrapcmp_ref(width, op, c->a, c->b);

		KUNIT_EXPECT_EQ_MSG(test, c->want[op], ref,
				    "table row a=%#llx b=%#llx: (%s)(a - b) %s 0 is %d, not %d",
				    c->a, c->b, cast, wrapcmp_op_str[op], ref,
				    c->want[op]);
	}

	for (i = 0; i < ARRAY_SIZE(wrapcmp_helpers); i++) {
		const struct wrapcmp_helper *h = &wrapcmp_helpers[i];
		int got, ref;

		if (h->width != width)
			continue;
		got = h->fn(c->a, c->b);
		ref = wrapcmp_ref(width, h->op, c->a, c->b);
		KUNIT_EXPECT_EQ_MSG(test, got, c->want[h->op],
				    "%s(%#llx, %#llx) is %d; (%s)(a - b) %s 0 is %d (d = %s)",
				    h->name, c->a, c->b, got, cast,
				    wrapcmp_op_str[h->op], ref, c->d);
	}
}

static void u8_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_U8);
}

static void u16_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_U16);
}

static void u32_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_U32);
}

static void u64_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_U64);
}

static void uint_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_UINT);
}

static void ulong_table(struct kunit *test)
{
	wrapcmp_check_case(test, WRAPCMP_ULONG);
}

/*
 * Beyond the tables: one helper against the reference on many pairs.  Only
 * the first few mismatches are reported, then their number.
 */
#define WRAPCMP_MAX_REPORTS	4

static u64 wrapcmp_max(enum wrapcmp_width width)
{
	switch (width) {
	case WRAPCMP_U8:
		return U8_MAX;
	case WRAPCMP_U16:
		return U16_MAX;
	case WRAPCMP_U32:
		return U32_MAX;
	case WRAPCMP_UINT:
		return UINT_MAX;
	case WRAPCMP_ULONG:
		return ULONG_MAX;
	case WRAPCMP_U64:
	default:
		return U64_MAX;
	}
}

struct wrapcmp_sweep {
	struct kunit *test;
	const struct wrapcmp_helper *h;
	u64 max;
	unsigned long checked;
	unsigned long wrong;
};

/* a and b are taken modulo 2^N, as the helper's arguments are. */
static void wrapcmp_sweep_check(struct wrapcmp_sweep *s, u64 a, u64 b)
{
	const struct wrapcmp_helper *h = s->h;
	int got, ref;

	a &= s->max;
	b &= s->max;
	got = h->fn(a, b);
	ref = wrapcmp_ref(h->width, h->op, a, b);
	s->checked++;
	if (got == ref)
		return;
	if (s->wrong++ < WRAPCMP_MAX_REPORTS)
		KUNIT_FAIL(s->test,
			   "%s(%#llx, %#llx) is %d; (%s)(a - b) %s 0 is %d (d = %#llx)",
			   h->name, a, b, got, wrapcmp_cast_str[h->width],
			   wrapcmp_op_str[h->op], ref, (a - b) & s->max);
}

static void wrapcmp_helper_desc(const struct wrapcmp_helper *h, char *desc)
{
	strscpy(desc, h->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wrapcmp_each_helper, wrapcmp_helpers, wrapcmp_helper_desc);

/*
 * For one helper: every pair for U8, every difference from a few starting
 * points for U16, and for each width the differences next to 0, 2^(N-1) and
 * 2^N from a few starting points, then pseudo-random pairs (fixed seed).
 */
static void sweep(struct kunit *test)
{
	const struct wrapcmp_helper *h = test->param_value;
	u64 max = wrapcmp_max(h->width);
	struct wrapcmp_sweep s = { .test = test, .h = h, .max = max };
	u64 half = max / 2 + 1;
	const u64 starts[] = {
		0, 1, half - 1, half, half + 1, max - 1, max,
		0x0123456789abcdefULL & max, 0xfedcba9876543210ULL & max,
	};
	const u64 near[] = { 0, half, max };
	struct rnd_state rnd;
	unsigned int i, j;
	u64 a, d;
	s64 k;

	if (h->width == WRAPCMP_U8) {
		for (a = 0; a <= max; a++)
			for (d = 0; d <= max; d++)
				wrapcmp_sweep_check(&s, a, a - d);
	} else if (h->width == WRAPCMP_U16) {
		for (i = 0; i < ARRAY_SIZE(starts); i++)
			for (d = 0; d <= max; d++)
				wrapcmp_sweep_check(&s, starts[i], starts[i] - d);
	}

	for (i = 0; i < ARRAY_SIZE(starts); i++)
		for (j = 0; j < ARRAY_SIZE(near); j++)
			for (k = -3; k <= 3; k++) {
				d = (near[j] + k) & max;
				wrapcmp_sweep_check(&s, starts[i], starts[i] - d);
				wrapcmp_sweep_check(&s, starts[i] - d, starts[i]);
			}

	prandom_seed_state(&rnd, 0x77726170636d70ULL);
	for (i = 0; i < 4096; i++) {
		u64 x = (u64)prandom_u32_state(&rnd) << 32 | prandom_u32_state(&rnd);
		u64 y = (u64)prandom_u32_state(&rnd) << 32 | prandom_u32_state(&rnd);

		wrapcmp_sweep_check(&s, x, y);
		/* x against the half-way point from it and next to it. */
		wrapcmp_sweep_check(&s, x, x - half);
		wrapcmp_sweep_check(&s, x, x - half + 1);
		wrapcmp_sweep_check(&s, x, x - half - 1);
	}

	KUNIT_EXPECT_EQ_MSG(test, s.wrong, 0UL,
			    "%s: %lu of %lu pairs differ from (%s)(a - b) %s 0",
			    h->name, s.wrong, s.checked,
			    wrapcmp_cast_str[h->width], wrapcmp_op_str[h->op]);
}

/*
 * Arguments of other integer types.  Each is converted to uN, so X_CMP_OP(a, b)
 * must be (sN)((uN)a - (uN)b) OP 0 for these very arguments: the macros below
 * compute that reference from the arguments as they are, and call the four
 * helpers X_CMP_LT .. X_CMP_GE (or their _WIDE forms) on them.
 */
static void wrapcmp_check_types(struct kunit *test,
				const char * const *helpers, const char *args,
				u64 a, u64 b, const int *got, s64 d,
				const char *sn, const char *un)
{
	int op;

	for (op = 0; op < WRAPCMP_NR_OPS; op++) {
		int ref = wrapcmp_sign_cmp(op, d);

		KUNIT_EXPECT_EQ_MSG(test, got[op], ref,
				    "%s(%s) is %d, with a=%#llx b=%#llx as u64; (%s)((%s)a - (%s)b) %s 0 is %d",
				    helpers[op], args, got[op], a, b, sn, un, un,
				    wrapcmp_op_str[op], ref);
	}
}

#define WRAPCMP_EXPECT_FOUR(test, lt, le, gt, ge, SN, UN, a, b) do {	\
	static const char * const wc_names[WRAPCMP_NR_OPS] = {		\
		#lt, #le, #gt, #ge					\
	};								\
	typeof(a) wc_a = (a);						\
	typeof(b) wc_b = (b);						\
	UN wc_ua = wc_a, wc_ub = wc_b;					\
	s64 wc_d = (SN)(wc_ua - wc_ub);					\
	int wc_got[WRAPCMP_NR_OPS] = {					\
		lt(wc_a, wc_b), le(wc_a, wc_b),				\
		gt(wc_a, wc_b), ge(wc_a, wc_b),				\
	};								\
									\
	wrapcmp_check_types(test, wc_names, #a ", " #b, (u64)wc_a,	\
			    (u64)wc_b, wc_got, wc_d, #SN, #UN);		\
} while (0)

#define WRAPCMP_EXPECT_TYPES(test, X, SN, UN, a, b)			\
	WRAPCMP_EXPECT_FOUR(test, X##_CMP_LT, X##_CMP_LE, X##_CMP_GT,	\
			    X##_CMP_GE, SN, UN, a, b)

#define WRAPCMP_EXPECT_TYPES_WIDE(test, X, SN, UN, a, b)		\
	WRAPCMP_EXPECT_FOUR(test, X##_CMP_LT_WIDE, X##_CMP_LE_WIDE,	\
			    X##_CMP_GT_WIDE, X##_CMP_GE_WIDE, SN, UN, a, b)

enum wrapcmp_enum { WRAPCMP_ENUM_LOW = 1, WRAPCMP_ENUM_HIGH = 200 };

static void argument_types(struct kunit *test)
{
	u8 u8_lo = 0x10, u8_hi = 0xf0;
	s8 s8_min = S8_MIN, s8_max = S8_MAX, s8_neg = -1;
	u16 u16_hi = 0x8000;
	int int_min = INT_MIN, int_max = INT_MAX, int_neg = -128;
	int int_wide = 0x17f, int_zero = 0;
	u32 u32_zero = 0, u32_max = U32_MAX;
	s64 s64_big = 0x100000005LL, s64_six = 6, s64_neg = -1;
	s64 s64_min = S64_MIN;
	u64 u64_wide = 0x18000, u64_max = U64_MAX;
	unsigned long ul_half = ULONG_HALF, ul_one = 1;
	long l_neg = -1, l_int_min = INT_MIN, l_int_max = INT_MAX;
	bool t = true, f = false;
	char c_a = 'a', c_b = 'b';
	enum wrapcmp_enum e_lo = WRAPCMP_ENUM_LOW, e_hi = WRAPCMP_ENUM_HIGH;

	/* u8 to a 32-bit helper: 0x10 - 0xf0 is -224, not a wrapped u8. */
	WRAPCMP_EXPECT_TYPES(test, U32, s32, u32, u8_lo, u8_hi);
	WRAPCMP_EXPECT_TYPES(test, U32, s32, u32, u8_hi, u8_lo);
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, u8_lo, u8_hi);
	/* Negative s8 is sign-extended before the conversion to uN. */
	WRAPCMP_EXPECT_TYPES(test, U32, s32, u32, s8_min, s8_max);
	WRAPCMP_EXPECT_TYPES(test, U64, s64, u64, s8_neg, u32_zero);
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, s8_min, int_zero);
	/* s64 to UINT: truncated, so 0x100000005 is before 6. */
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, s64_big, s64_six);
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, s64_six, s64_big);
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, s64_neg, int_zero);
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, s64_min, int_zero);
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, int_min, int_max);
	/* Wider than the helper: only the low N bits count. */
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, int_wide, int_zero);
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, int_neg, int_zero);
	WRAPCMP_EXPECT_TYPES(test, U16, s16, u16, u64_wide, int_zero);
	WRAPCMP_EXPECT_TYPES(test, U16, s16, u16, u16_hi, u64_max);
	/* u32 to U64: 0 - 0xffffffff does not wrap at 32 bits. */
	WRAPCMP_EXPECT_TYPES(test, U64, s64, u64, u32_zero, u32_max);
	WRAPCMP_EXPECT_TYPES(test, U32, s32, u32, u32_zero, u32_max);
	/*
	 * int to ULONG: LT and GE refuse two ints at build time (rcupdate.h's
	 * macros subtracted in int), so the ints come widened to long.
	 */
	WRAPCMP_EXPECT_TYPES(test, ULONG, long, unsigned long, l_int_min, l_int_max);
	WRAPCMP_EXPECT_TYPES(test, ULONG, long, unsigned long, ul_half, l_neg);
	WRAPCMP_EXPECT_TYPES(test, ULONG, long, unsigned long, l_neg, ul_one);
	/* bool, char and enum. */
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, t, f);
	WRAPCMP_EXPECT_TYPES(test, U32, s32, u32, f, t);
	WRAPCMP_EXPECT_TYPES(test, U64, s64, u64, t, t);
	WRAPCMP_EXPECT_TYPES(test, ULONG, long, unsigned long, f, t);
	WRAPCMP_EXPECT_TYPES(test, UINT, int, unsigned int, c_a, c_b);
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, e_hi, e_lo);
	WRAPCMP_EXPECT_TYPES(test, U8, s8, u8, e_lo, e_hi);
	/* The _WIDE forms, where a - b is at least 64 bits or a long. */
	WRAPCMP_EXPECT_TYPES_WIDE(test, U64, s64, u64, u64_max, u32_max);
	WRAPCMP_EXPECT_TYPES_WIDE(test, U64, s64, u64, s64_neg, int_max);
	WRAPCMP_EXPECT_TYPES_WIDE(test, U64, s64, u64, s64_min, u32_max);
	WRAPCMP_EXPECT_TYPES_WIDE(test, U64, s64, u64, u64_max, t);
	WRAPCMP_EXPECT_TYPES_WIDE(test, ULONG, long, unsigned long, ul_half, int_zero);
	WRAPCMP_EXPECT_TYPES_WIDE(test, ULONG, long, unsigned long, l_neg, int_max);
	WRAPCMP_EXPECT_TYPES_WIDE(test, ULONG, long, unsigned long, ul_one, u8_hi);
	WRAPCMP_EXPECT_TYPES_WIDE(test, ULONG, long, unsigned long, ul_half, ul_one);
}

/*
 * Each argument is evaluated exactly once, and the result is an int.  The
 * arguments, of the helper's own type, are x++ and y-- on x = 1, y = 0: the
 * helper sees (1, 0), d = +1 for every width.
 */
static u64 wrapcmp_count(unsigned int *count, u64 v)
{
	(*count)++;
	return v;
}

static void wrapcmp_check_once(struct kunit *test, const char *helper,
			       int got, int want, unsigned int na,
			       unsigned int nb, bool moved, bool is_int)
{
	KUNIT_EXPECT_EQ_MSG(test, na, 1U,
			    "%s() evaluated its first argument %u times",
			    helper, na);
	KUNIT_EXPECT_EQ_MSG(test, nb, 1U,
			    "%s() evaluated its second argument %u times",
			    helper, nb);
	KUNIT_EXPECT_TRUE_MSG(test, moved,
			      "%s(x++, y--) did not leave x = 2 and y = -1",
			      helper);
	KUNIT_EXPECT_EQ_MSG(test, got, want, "%s(x++, y--) on x = 1, y = 0",
			    helper);
	KUNIT_EXPECT_TRUE_MSG(test, is_int, "%s() is not an int", helper);
}

#define WRAPCMP_EXPECT_ONCE(test, helper, type, want) do {		\
	unsigned int na = 0, nb = 0;					\
	type x = 1, y = 0;						\
	int r = helper((type)wrapcmp_count(&na, x++),			\
		       (type)wrapcmp_count(&nb, y--));			\
	bool is_int = __builtin_types_compatible_p(typeof(helper(x, y)), int); \
									\
	wrapcmp_check_once(test, #helper, r, want, na, nb,		\
			   x == 2 && y == (type)-1, is_int);		\
} while (0)

static void evaluated_once(struct kunit *test)
{
	WRAPCMP_EXPECT_ONCE(test, U8_CMP_LT, u8, 0);
	WRAPCMP_EXPECT_ONCE(test, U8_CMP_LE, u8, 0);
	WRAPCMP_EXPECT_ONCE(test, U8_CMP_GT, u8, 1);
	WRAPCMP_EXPECT_ONCE(test, U8_CMP_GE, u8, 1);
	WRAPCMP_EXPECT_ONCE(test, U16_CMP_LT, u16, 0);
	WRAPCMP_EXPECT_ONCE(test, U16_CMP_LE, u16, 0);
	WRAPCMP_EXPECT_ONCE(test, U16_CMP_GT, u16, 1);
	WRAPCMP_EXPECT_ONCE(test, U16_CMP_GE, u16, 1);
	WRAPCMP_EXPECT_ONCE(test, U32_CMP_LT, u32, 0);
	WRAPCMP_EXPECT_ONCE(test, U32_CMP_LE, u32, 0);
	WRAPCMP_EXPECT_ONCE(test, U32_CMP_GT, u32, 1);
	WRAPCMP_EXPECT_ONCE(test, U32_CMP_GE, u32, 1);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_LT, u64, 0);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_LE, u64, 0);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_GT, u64, 1);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_GE, u64, 1);
	WRAPCMP_EXPECT_ONCE(test, UINT_CMP_LT, unsigned int, 0);
	WRAPCMP_EXPECT_ONCE(test, UINT_CMP_LE, unsigned int, 0);
	WRAPCMP_EXPECT_ONCE(test, UINT_CMP_GT, unsigned int, 1);
	WRAPCMP_EXPECT_ONCE(test, UINT_CMP_GE, unsigned int, 1);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_LT, unsigned long, 0);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_LE, unsigned long, 0);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_GT, unsigned long, 1);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_GE, unsigned long, 1);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_LT_WIDE, u64, 0);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_LE_WIDE, u64, 0);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_GT_WIDE, u64, 1);
	WRAPCMP_EXPECT_ONCE(test, U64_CMP_GE_WIDE, u64, 1);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_LT_WIDE, unsigned long, 0);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_LE_WIDE, unsigned long, 0);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_GT_WIDE, unsigned long, 1);
	WRAPCMP_EXPECT_ONCE(test, ULONG_CMP_GE_WIDE, unsigned long, 1);
}

static struct kunit_case wrapcmp_test_cases[] = {
	KUNIT_CASE_PARAM(u8_table, u8_table_gen_params),
	KUNIT_CASE_PARAM(u16_table, u16_table_gen_params),
	KUNIT_CASE_PARAM(u32_table, u32_table_gen_params),
	KUNIT_CASE_PARAM(u64_table, u64_table_gen_params),
	KUNIT_CASE_PARAM(uint_table, uint_table_gen_params),
	KUNIT_CASE_PARAM(ulong_table, ulong_table_gen_params),
	KUNIT_CASE_PARAM(sweep, wrapcmp_each_helper_gen_params),
	KUNIT_CASE(argument_types),
	KUNIT_CASE(evaluated_once),
	{}
};

static struct kunit_suite wrapcmp_test_suite = {
	.name = "wrapcmp",
	.test_cases = wrapcmp_test_cases,
};

kunit_test_suite(wrapcmp_test_suite);

MODULE_DESCRIPTION("KUnit tests for <linux/wrapcmp.h>");
MODULE_LICENSE("GPL");
