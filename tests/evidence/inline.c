/* The site is inside a static inline used from two functions: its code is in both. */
void fire(void);

static inline int after(int a, int b)
{
	return a - b > 0;
}

int expired(int now, int due)
{
	return after(now, due);
}

void poll(int now, int due)
{
	if (after(now, due))
		fire();
}
