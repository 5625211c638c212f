// SPDX-License-Identifier: GPL-2.0
/*
 * Signed differences with no sign that a value wraps, whose operands name
 * sizes or amounts: a > b is what they mean, so they are reported, not
 * rewritten.  A counter's name (prod_index, iv32_n) is not a size, and a
 * size that is known to wrap (a sequence-number field) is rewritten.
 */
#include <linux/types.h>

/* the underflow check of refcount's __refcount_sub_and_test() */
int sub_underflows(int old, int i)
{
	return old < 0 || old - i < 0;
}

int bytes_left(int len, int n)
{
	return len - n > 0;
}

int fits_trailer(int payload_len, int trailer_len)
{
	return payload_len - trailer_len <= 0;
}

int more_sges(int numSGE, int num_sge)
{
	return numSGE - num_sge > 0;
}

long above_floor(long power_indbm, long floor_dbm)
{
	return power_indbm - floor_dbm > 0;
}

/* counters: rewritten */
int cq_behind(int prod_index, int cons_index)
{
	return prod_index - cons_index >= 0;
}

int iv_replayed(int iv32_n, int iv32_o)
{
	return iv32_n - iv32_o < 0;
}

struct flow {
	int snd_seq;
};

/* a size, but known to wrap: moderate, rewritten */
int seq_ahead(int len)
{
	struct flow f = { .snd_seq = len };

	return f.snd_seq - len > 0;
}
