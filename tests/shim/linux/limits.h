/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hosted stand-in for <linux/limits.h>: the kernel's U8_MAX .. S64_MIN from
 * <stdint.h>, and INT_MAX, UINT_MAX, ULONG_MAX & co. from <limits.h>, as
 * include/linux/wrapcmp.h needs them.
 *
 * glibc's <limits.h> includes <linux/limits.h> itself, for PATH_MAX and kin,
 * and finds this file while tests/shim is on the -I path: it also gets the
 * uapi header it wanted, by #include_next.  That is a GCC extension, which
 * -pedantic reports outside a system header: hence the pragma.
 */
#ifndef _SHIM_LINUX_LIMITS_H
#define _SHIM_LINUX_LIMITS_H

#pragma GCC system_header
#include_next <linux/limits.h>
#include <limits.h>
#include <stdint.h>

#define U8_MAX		UINT8_MAX
#define S8_MAX		INT8_MAX
#define S8_MIN		INT8_MIN
#define U16_MAX		UINT16_MAX
#define S16_MAX		INT16_MAX
#define S16_MIN		INT16_MIN
#define U32_MAX		UINT32_MAX
#define S32_MAX		INT32_MAX
#define S32_MIN		INT32_MIN
#define U64_MAX		UINT64_MAX
#define S64_MAX		INT64_MAX
#define S64_MIN		INT64_MIN

#endif
