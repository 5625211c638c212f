/* SPDX-License-Identifier: GPL-2.0 */
/* Hosted stand-in for <linux/errno.h>: the kernel's values. */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H

#define EIO		5
#define EAGAIN		11
#define ENOMEM		12
#define EBUSY		16
#define ENODEV		19
#define EINVAL		22
#define ETIME		62
#define ETIMEDOUT	110

#endif
