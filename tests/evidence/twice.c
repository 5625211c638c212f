/*
 * Built twice (tests/check-evidence gives it a second compile command, at -O0): the -O2
 * build folds a - b > 0 to a > b, the -O0 build does not.
 */
int twice_after(int a, int b)
{
	return a - b > 0;
}
