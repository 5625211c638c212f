/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/bug.h>: see tests/shim/README. */
#ifndef _SHIM_LINUX_BUG_H
#define _SHIM_LINUX_BUG_H

#include <linux/compiler.h>

extern unsigned int shim_nr_warn, shim_nr_bug;

#define WARN_ON(condition) ({						\
	int __ret_warn_on = !!(condition);				\
	if (__ret_warn_on)						\
		shim_nr_warn++;						\
	__ret_warn_on;							\
})

#define WARN_ON_ONCE(condition)	WARN_ON(condition)

#define BUG_ON(condition)						\
	do {								\
		if (condition)						\
			shim_nr_bug++;					\
	} while (0)

#define BUG()	BUG_ON(1)

#endif
