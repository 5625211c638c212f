/* A plain signed difference compared with 0: a > b unless overflow wraps. */
int tick_after(int a, int b)
{
	return a - b > 0;
}
