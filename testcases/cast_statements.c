// SPDX-License-Identifier: GPL-2.0
/* The idiom wherever an expression may stand. */
#include <linux/types.h>

int in_while(u32 now, u32 end)
{
	int n = 0;

	while ((s32)(now - end) < 0 && n < 4) {
		now += 0x40000000;
		n++;
	}
	return n;
}

int in_for(u32 now, u32 end)
{
	int n;

	for (n = 0; (int)(end - now) > 0 && n < 3; n++)
		now += 0x50000000;
	return n;
}

int in_assignment(u32 now, u32 end)
{
	int late;

	late = (int)(now - end) >= 0;
	return late;
}

int in_ternary(u32 now, u32 end)
{
	return (int)(now - end) < 0 ? 1 : 2;
}
