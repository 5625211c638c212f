// SPDX-License-Identifier: GPL-2.0
/*
 * A statement that uses the same a - b again outside the comparison with 0
 * (88pm860x_battery.c) is reported, not rewritten: the rewrite would leave
 * the other use as it was, half of the test in each form.
 */
#include <linux/types.h>

int resistor_close(int data, int resistor)
{
	if ((data - resistor > 0) &&
			(data - resistor < resistor))
		return 1;
	return 0;
}

int stamp_near(u32 now, u32 stamp)
{
	return (s32)(now - stamp) > 0 && (s32)(now - stamp) < 100;
}

/* a use in the next statement, or another difference: rewritten */
u32 stamp_gap(u32 now, u32 stamp)
{
	if ((s32)(now - stamp) < 0)
		return 0;
	return now - stamp;
}

int both_behind(u32 a, u32 b, u32 c, u32 d)
{
	return (s32)(a - b) < 0 && (s32)(c - d) < 0;
}

/* the body of the if is another statement: rewritten (mlx4 resource_tracker.c) */
int from_free(int count, int guaranteed, int allocated)
{
	int free;

	if (guaranteed - allocated > 0)
		free = (unsigned int)guaranteed - allocated;
	else
		free = count;
	return free;
}

int abs_of(const int *tmp, int mean)
{
	return (*tmp - mean) < 0 ? -(*tmp - mean) : (*tmp - mean);
}
