/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <asm/io.h>. */
#include <linux/io.h>
