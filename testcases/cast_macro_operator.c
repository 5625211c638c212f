/*
 * The operator and the 0 come from a macro: spatch 1.1.1 takes them from the
 * macro's body, where their order says nothing of the comparison's, and it
 * cannot delete them.  Those sites are reported, not rewritten; the plain site
 * of the same file is still rewritten.
 */
#include <linux/types.h>

#define BEFORE < 0

int before(unsigned int x, unsigned int y)
{
	return (int)(x - y) BEFORE;
}

int after(unsigned int x, unsigned int y)
{
	return (int)(x - y) > 0;
}

int late(int now, int due)
{
	return now - due BEFORE;
}
