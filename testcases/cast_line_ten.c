/*
 * A comparison whose operand and 0 stand on lines 9 and 10: the rule must
 * compare line numbers as numbers, not as text ("10" < "9").
 */
#include <linux/types.h>

int expired(unsigned int now, unsigned int due)
{
	return (int)(now -
		     due) < 0;
}

int after_eq(unsigned int now,
	     unsigned int due)
{
	return 0 <= (int)
		(now - due);
}
