/* The site is in a macro that two functions use: its code is in both. */
#define TICK_AFTER(a, b) ((a) - (b) > 0)

int late(int now, int due)
{
	return TICK_AFTER(now, due);
}

int early(int now, int due)
{
	return TICK_AFTER(due, now);
}
