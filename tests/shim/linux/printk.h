/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/printk.h>: arguments are evaluated, nothing is printed. */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H

static inline __attribute__((__format__(__printf__, 1, 2))) int printk(const char *fmt, ...)
{
	(void)fmt;
	return 0;
}

#define pr_info(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...)	printk(fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	printk(fmt, ##__VA_ARGS__)

#endif
