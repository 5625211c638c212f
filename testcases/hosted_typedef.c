/*
 * A C project's counter types are typedefs.  With -D hosted the rules resolve
 * the typedefs of the file (and the runner gives them those of its headers);
 * the kernel keeps to its fixed names, so without -D hosted these are unknown.
 */
#include <stdint.h>

typedef int32_t tick_t;
typedef tick_t ostick_t;
typedef long jiffy_t;
typedef uint32_t seq_t;
typedef const int cticks_t;
typedef struct tick_pair tick_pair_t;
typedef short small_t;

int after(tick_t a, tick_t b)
{
	return a - b > 0;
}

int chained(ostick_t now, ostick_t due)
{
	return now - due >= 0;
}

int longer(jiffy_t now, jiffy_t due)
{
	return 0 < now - due;
}

int constant(cticks_t a, cticks_t b)
{
	return a - b < 0;
}

/* unsigned: not a signed difference; the cast form is another rule's */
int seq_lt(seq_t a, seq_t b)
{
	return (int32_t)(a - b) < 0;
}

int seq_ne(seq_t a, seq_t b)
{
	return a - b > 0;
}

/* narrower than int: a - b cannot overflow */
int small(small_t a, small_t b)
{
	return a - b > 0;
}
