/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/typecheck.h>: 1, and a warning when x is not of the type. */
#ifndef _SHIM_LINUX_TYPECHECK_H
#define _SHIM_LINUX_TYPECHECK_H

#define typecheck(type, x) \
	({ type __wc_want; __typeof__(x) __wc_got; (void)(&__wc_want == &__wc_got); 1; })

#endif
