/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/compiler.h>: see tests/shim/README. */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define __iomem
#define __user
#define __force
#define __must_check
#ifndef __always_inline	/* glibc's <sys/cdefs.h> has one */
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define noinline	__attribute__((__noinline__))

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))

#endif
