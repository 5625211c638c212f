// SPDX-License-Identifier: GPL-2.0
/*
 * Value tests for the helpers of <linux/wrapcmp.h> and of the hosted
 * include/wrapcmp.h.
 *
 * The header is not included here: tests/check-helpers passes it with
 * -include, so that a mutated copy of it can be tested as well.
 *
 * Every helper X_CMP_OP(a, b) is compared against a reference that is
 * computed without any signed conversion: the N-bit difference is formed in
 * uint64_t and masked, its top bit is the sign of (sN)((uN)a - (uN)b), and
 * the comparison with zero follows from the sign and the zero-ness.
 *
 * Usage: helpers_test [PREFIX]   (PREFIX is put before every assertion name)
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if !defined(_LINUX_WRAPCMP_H) && !defined(WRAPCMP_H)
#error "compile with -include <path of wrapcmp.h>"
#endif

enum { OP_LT, OP_LE, OP_GT, OP_GE, NR_OPS };
static const char *const op_name[NR_OPS] = { "LT", "LE", "GT", "GE" };
static const char *const op_sym[NR_OPS] = { "<", "<=", ">", ">=" };

static const char *prefix = "";
static int nr_fail;

static void report(int ok, const char *name, const char *fmt, const char *detail)
{
	if (ok)
		printf("PASS %s%s: %s\n", prefix, name, fmt);
	else
		printf("FAIL %s%s: %s\n", prefix, name, detail);
	if (!ok)
		nr_fail++;
}

static uint64_t width_mask(unsigned int bits)
{
	return bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* 1 exactly when (sN)((uN)a - (uN)b) OP 0, computed from bits only. */
static int ref(unsigned int bits, uint64_t a, uint64_t b, int op)
{
	uint64_t d = (a - b) & width_mask(bits);
	int neg = (int)((d >> (bits - 1)) & 1);
	int zero = d == 0;

	switch (op) {
	case OP_LT:
		return neg;
	case OP_LE:
		return neg || zero;
	case OP_GT:
		return !neg && !zero;
	default:
		return !neg;
	}
}

/* xorshift64, fixed seed */
static uint64_t rng_state = UINT64_C(0x9e3779b97f4a7c15);

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	rng_state = x;
	return x;
}

struct stats {
	unsigned long long pairs;
	unsigned long long bad[NR_OPS];
	uint64_t bad_a[NR_OPS], bad_b[NR_OPS];
	int bad_got[NR_OPS];
};

#define DEFINE_FAMILY(X, T)						\
static void X##_check(struct stats *st, uint64_t a, uint64_t b)		\
{									\
	const unsigned int bits = sizeof(T) * CHAR_BIT;			\
	int got[NR_OPS], op;						\
									\
	got[OP_LT] = X##_CMP_LT((T)a, (T)b);				\
	got[OP_LE] = X##_CMP_LE((T)a, (T)b);				\
	got[OP_GT] = X##_CMP_GT((T)a, (T)b);				\
	got[OP_GE] = X##_CMP_GE((T)a, (T)b);				\
	st->pairs++;							\
	for (op = 0; op < NR_OPS; op++) {				\
		if (got[op] == ref(bits, a, b, op))			\
			continue;					\
		if (!st->bad[op]++) {					\
			st->bad_a[op] = a & width_mask(bits);		\
			st->bad_b[op] = b & width_mask(bits);		\
			st->bad_got[op] = got[op];			\
		}							\
	}								\
}

DEFINE_FAMILY(U8, uint8_t)
DEFINE_FAMILY(U16, uint16_t)
DEFINE_FAMILY(U32, uint32_t)
DEFINE_FAMILY(U64, uint64_t)
DEFINE_FAMILY(UINT, unsigned int)
DEFINE_FAMILY(ULONG, unsigned long)

struct family {
	const char *name;
	unsigned int bits;
	void (*check)(struct stats *st, uint64_t a, uint64_t b);
};

static const struct family families[] = {
	{ "U8", 8, U8_check },
	{ "U16", 16, U16_check },
	{ "U32", 32, U32_check },
	{ "U64", 64, U64_check },
	{ "UINT", sizeof(unsigned int) * CHAR_BIT, UINT_check },
	{ "ULONG", sizeof(unsigned long) * CHAR_BIT, ULONG_check },
};

/* 0, 1, 2, MAX/2-1, MAX/2, MAX/2+1, MAX/2+2, MAX-1, MAX and every single bit */
static unsigned int boundary_values(unsigned int bits, uint64_t *v)
{
	uint64_t max = width_mask(bits), half = max / 2;
	unsigned int n = 0, i;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = 2;
	v[n++] = half - 1;
	v[n++] = half;
	v[n++] = half + 1;
	v[n++] = half + 2;
	v[n++] = max - 1;
	v[n++] = max;
	for (i = 0; i < bits; i++)
		v[n++] = UINT64_C(1) << i;
	return n;
}

#define NR_RANDOM	1000000

static void run_family(const struct family *f)
{
	struct stats st;
	uint64_t bv[9 + 64];
	unsigned int nb = boundary_values(f->bits, bv);
	uint64_t mask = width_mask(f->bits);
	char how[256], name[64], detail[512];
	unsigned long i, j;
	int op;

	memset(&st, 0, sizeof(st));
	if (f->bits == 8) {
		for (i = 0; i < 256; i++)
			for (j = 0; j < 256; j++)
				f->check(&st, i, j);
		snprintf(how, sizeof(how), "%llu pairs (every pair)", st.pairs);
	} else if (f->bits == 16) {
		/*
		 * Every a (65536) against the same 4096 distinct b: the boundary
		 * values and every single bit, then xorshift values; and, for
		 * every a, b = a - D for each boundary difference D, so that
		 * every a meets every boundary difference.
		 */
		static unsigned char seen[65536];
		uint64_t bs[4096];
		unsigned int n = 0, nd;

		memset(seen, 0, sizeof(seen));
		for (i = 0; i < nb; i++) {
			if (!seen[bv[i]]) {
				seen[bv[i]] = 1;
				bs[n++] = bv[i];
			}
		}
		nd = n;
		while (n < 4096) {
			uint64_t v = rnd() & mask;

			if (!seen[v]) {
				seen[v] = 1;
				bs[n++] = v;
			}
		}
		for (i = 0; i < 65536; i++) {
			for (j = 0; j < n; j++)
				f->check(&st, i, bs[j]);
			for (j = 0; j < 9; j++)
				f->check(&st, i, (i - bv[j]) & mask);
		}
		snprintf(how, sizeof(how),
			 "%llu pairs (every a x 4096 distinct b [%u distinct boundary/single-bit + xorshift] + every a x 9 boundary differences)",
			 st.pairs, nd);
	} else {
		unsigned long long nbp;

		for (i = 0; i < nb; i++)
			for (j = 0; j < nb; j++)
				f->check(&st, bv[i], bv[j]);
		nbp = st.pairs;
		for (i = 0; i < NR_RANDOM; i++) {
			uint64_t a = rnd() & mask;

			f->check(&st, a, rnd() & mask);
		}
		/* random a, b at a boundary difference (+-0..2) from it */
		for (i = 0; i < NR_RANDOM; i++) {
			uint64_t a = rnd() & mask;
			uint64_t r = rnd();
			uint64_t d = bv[r % nb] + (r >> 32) % 5 - 2;

			f->check(&st, a, (a - d) & mask);
		}
		snprintf(how, sizeof(how),
			 "%llu pairs (%llu boundary pairs of %u values + %d uniform xorshift + %d xorshift a with boundary difference)",
			 st.pairs, nbp, nb, NR_RANDOM, NR_RANDOM);
	}

	for (op = 0; op < NR_OPS; op++) {
		char okmsg[512];

		snprintf(name, sizeof(name), "%s_CMP_%s", f->name, op_name[op]);
		snprintf(okmsg, sizeof(okmsg), "%s, all equal (s%u)((u%u)a - (u%u)b) %s 0", how,
			 f->bits, f->bits, f->bits, op_sym[op]);
		snprintf(detail, sizeof(detail),
			 "%llu of %llu pairs differ from (s%u)((u%u)a - (u%u)b) %s 0, first a=%#llx b=%#llx gives %d",
			 st.bad[op], st.pairs, f->bits, f->bits, f->bits, op_sym[op],
			 (unsigned long long)st.bad_a[op], (unsigned long long)st.bad_b[op],
			 st.bad_got[op]);
		report(!st.bad[op], name, okmsg, detail);
	}
}

/* ---- arguments of other integer types convert to uN ---- */

struct conv_result {
	unsigned int cases, bad;
	char first[256];
};

static struct conv_result conv[6];

static void conv_check(int fam, unsigned int bits, const char *what, uint64_t x, uint64_t y,
		       int lt, int le, int gt, int ge)
{
	int got[NR_OPS] = { lt, le, gt, ge };
	struct conv_result *r = &conv[fam];
	int op;

	r->cases++;
	for (op = 0; op < NR_OPS; op++) {
		/* (uint64_t)x then masking is x mod 2^N for every integer x */
		if (got[op] == ref(bits, x, y, op))
			continue;
		if (!r->bad++)
			snprintf(r->first, sizeof(r->first), "%s: %s gives %d", what, op_name[op],
				 got[op]);
	}
}

#define CONV(fam, X, bits, TA, va, TB, vb)					\
	do {									\
		volatile TA vx_ = (va);						\
		volatile TB vy_ = (vb);						\
		TA x_ = vx_;							\
		TB y_ = vy_;							\
		conv_check(fam, bits, #X "(" #TA " " #va ", " #TB " " #vb ")",	\
			   (uint64_t)x_, (uint64_t)y_, X##_CMP_LT(x_, y_),	\
			   X##_CMP_LE(x_, y_), X##_CMP_GT(x_, y_),		\
			   X##_CMP_GE(x_, y_));					\
	} while (0)

/*
 * The kernel header refuses ULONG_CMP_LT() and ULONG_CMP_GE() at build time
 * where a - b is narrower than unsigned long and an argument is not narrower
 * than int: rcupdate.h's macros of those names subtracted in that type, and
 * the helper would not compute what they did (tests/check-helpers checks the
 * refusal).  A caller converts such arguments itself, as CONV_RCU does for
 * those two; LE and GT take them as they are.  The hosted header has no old
 * macros to keep and takes them all.
 */
#ifdef _LINUX_WRAPCMP_H
#define RCU_ARG(x)	((unsigned long)(x))
#else
#define RCU_ARG(x)	(x)
#endif

#define CONV_RCU(TA, va, TB, vb)						\
	do {									\
		volatile TA vx_ = (va);						\
		volatile TB vy_ = (vb);						\
		TA x_ = vx_;							\
		TB y_ = vy_;							\
		conv_check(5, sizeof(unsigned long) * CHAR_BIT,			\
			   "ULONG(" #TA " " #va ", " #TB " " #vb ")",		\
			   (uint64_t)x_, (uint64_t)y_,				\
			   ULONG_CMP_LT(RCU_ARG(x_), RCU_ARG(y_)),		\
			   ULONG_CMP_LE(x_, y_), ULONG_CMP_GT(x_, y_),		\
			   ULONG_CMP_GE(RCU_ARG(x_), RCU_ARG(y_)));		\
	} while (0)

static void run_conversions(void)
{
	const unsigned int ub = sizeof(unsigned int) * CHAR_BIT;
	const unsigned int lb = sizeof(unsigned long) * CHAR_BIT;
	char name[64], msg[128];
	int fam;

	CONV(0, U8, 8, int, 256 + 1, int, 0);
	CONV(0, U8, 8, int, -1, unsigned int, 0);
	CONV(0, U8, 8, long long, 0x1ff80LL, short, -128);
	CONV(0, U8, 8, unsigned int, 0x100u, unsigned int, 0x80u);
	CONV(0, U8, 8, signed char, -128, signed char, 127);
	CONV(0, U8, 8, uint16_t, 0x1234, _Bool, 1);
	CONV(0, U8, 8, uint64_t, UINT64_MAX, int, 0x7f);

	CONV(1, U16, 16, int, 65536 + 5, int, 0);
	CONV(1, U16, 16, int, -1, int, 0x7fff);
	CONV(1, U16, 16, long long, -32769LL, long long, 0);
	CONV(1, U16, 16, uint8_t, 0, uint8_t, 255);
	CONV(1, U16, 16, short, -32768, short, 0);
	CONV(1, U16, 16, unsigned long, 0x18000ul, unsigned int, 0);

	CONV(2, U32, 32, int, -1, long long, 0LL);
	CONV(2, U32, 32, long long, 0x100000000LL, int, 1);
	CONV(2, U32, 32, uint8_t, 0, uint8_t, 255);
	CONV(2, U32, 32, int, INT_MIN, int, INT_MAX);
	CONV(2, U32, 32, uint64_t, 0x180000000ULL, uint64_t, 0);
	CONV(2, U32, 32, short, -1, unsigned short, 0xffff);

	CONV(3, U64, 64, int, -1, int, 0);
	CONV(3, U64, 64, unsigned int, 0u, unsigned int, 0x80000000u);
	CONV(3, U64, 64, signed char, -128, long long, LLONG_MAX);
	CONV(3, U64, 64, long long, LLONG_MIN, int, 1);
	CONV(3, U64, 64, uint8_t, 1, int, -1);

	CONV(4, UINT, ub, long long, -1LL, int, 0);
	CONV(4, UINT, ub, int, INT_MIN, unsigned char, 1);
	CONV(4, UINT, ub, unsigned long long, 0x1ffffffffULL, int, 0);
	CONV(4, UINT, ub, uint16_t, 0, uint16_t, 0xffff);

	CONV_RCU(unsigned int, 0u, unsigned int, 0x80000000u);
	CONV_RCU(unsigned int, 0x80000000u, unsigned int, 0u);
	CONV_RCU(int, -1, int, 0);
	CONV(5, ULONG, lb, uint8_t, 0, uint8_t, 1);
	CONV(5, ULONG, lb, long long, LLONG_MIN, long long, LLONG_MAX);
	CONV(5, ULONG, lb, unsigned long long, ULLONG_MAX, unsigned int, 1u);

	for (fam = 0; fam < 6; fam++) {
		snprintf(name, sizeof(name), "%s other argument types", families[fam].name);
		snprintf(msg, sizeof(msg), "%u cases x 4 helpers behave as conversion to u%u",
			 conv[fam].cases, families[fam].bits);
		report(!conv[fam].bad, name, msg, conv[fam].first);
	}
}

/* ---- each argument evaluated once ---- */

static unsigned int nr_eval;

static uint64_t ev(uint64_t v)
{
	nr_eval++;
	return v;
}

/* i_ and j_ are long: the kernel's ULONG_CMP_LT/GE() refuse two ints (above) */
#define ONCE(X)								\
	do {								\
		long i_ = 5, j_ = 9;					\
		int ok_;						\
		char name_[64];						\
									\
		nr_eval = 0;						\
		(void)X##_CMP_LT(ev(1), ev(2));				\
		(void)X##_CMP_LE(ev(1), ev(2));				\
		(void)X##_CMP_GT(ev(1), ev(2));				\
		(void)X##_CMP_GE(ev(1), ev(2));				\
		(void)X##_CMP_LT(i_++, j_++);				\
		(void)X##_CMP_LE(i_++, j_++);				\
		(void)X##_CMP_GT(i_++, j_++);				\
		(void)X##_CMP_GE(i_++, j_++);				\
		ok_ = nr_eval == 8 && i_ == 9 && j_ == 13;		\
		snprintf(name_, sizeof(name_), "%s evaluates each argument once", #X); \
		report(ok_, name_, "8 calls, 8 argument evaluations, i++/j++ once each", \
		       "an argument was evaluated more or less than once");	\
	} while (0)

#define IS_INT(e)	_Generic((e), int: 1, default: 0)

#define RESULT_INT(X)							\
	do {								\
		char name_[64];						\
									\
		snprintf(name_, sizeof(name_), "%s result type", #X);	\
		report(IS_INT(X##_CMP_LT(0L, 0L)) && IS_INT(X##_CMP_LE(0L, 0L)) && \
		       IS_INT(X##_CMP_GT(0L, 0L)) && IS_INT(X##_CMP_GE(0L, 0L)), \
		       name_, "LT, LE, GT, GE are int (_Generic)",		\
		       "a helper's result is not of type int");		\
	} while (0)

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc > 1)
		prefix = argv[1];

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		run_family(&families[i]);

	run_conversions();

	ONCE(U8);
	ONCE(U16);
	ONCE(U32);
	ONCE(U64);
	ONCE(UINT);
	ONCE(ULONG);

	RESULT_INT(U8);
	RESULT_INT(U16);
	RESULT_INT(U32);
	RESULT_INT(U64);
	RESULT_INT(UINT);
	RESULT_INT(ULONG);

	return nr_fail ? 1 : 0;
}
