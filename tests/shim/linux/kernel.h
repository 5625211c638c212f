/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/kernel.h>: see tests/shim/README. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H

#include <limits.h>
#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/bug.h>
#include <linux/printk.h>

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

/* Recorded by tests/shim/shim.c. */
extern void do_something(void);
extern void do_something_else(void);
extern void do_another_thing(void);
extern int check_hook(int v);

#endif
