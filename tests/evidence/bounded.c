/* The operands are known to be small: the difference cannot overflow, so -fwrapv changes
 * nothing. */
int slot_after(int a, int b)
{
	a &= 0xffff;
	b &= 0xffff;
	return a - b > 0;
}
