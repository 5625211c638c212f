/* The article's example: after a > 0 and b < 0, a - b > 0 is "always true" to a compiler
 * that may assume no signed overflow. */
void do_something(void);
void do_something_else(void);
void do_another_thing(void);

void long_cmp_opt(const int a, const int b)
{
	if (a > 0) {
		do_something();
		if (b < 0) {
			do_something_else();
			if ((a - b) > 0)
				do_another_thing();
		}
	}
}
