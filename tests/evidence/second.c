/* A site, and in the same function an unrelated overflow that the compiler also uses:
 * the function differs with -fwrapv before and after the rewrite. */
int next_due(int now, int due, int step)
{
	if (now - due >= 0)
		return 1;
	return due + step > due;
}
