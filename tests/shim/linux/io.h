/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hosted stand-in for <linux/io.h>.  The read accessors ignore the address and
 * return the driver's values in turn (shim_io_value[0], [1], [0], ...); the
 * write accessors are recorded.  See tests/shim/README.
 */
#ifndef _SHIM_LINUX_IO_H
#define _SHIM_LINUX_IO_H

#include <linux/types.h>
#include <linux/compiler.h>

extern u32 shim_io_read(void);
extern void shim_io_write(u32 value);

static inline u32 __raw_readl(const volatile void __iomem *addr)
{
	(void)addr;
	return shim_io_read();
}

static inline u32 readl(const volatile void __iomem *addr)
{
	(void)addr;
	return shim_io_read();
}

static inline u16 readw(const volatile void __iomem *addr)
{
	(void)addr;
	return (u16)shim_io_read();
}

static inline u8 readb(const volatile void __iomem *addr)
{
	(void)addr;
	return (u8)shim_io_read();
}

static inline u32 ioread32(const volatile void __iomem *addr)
{
	(void)addr;
	return shim_io_read();
}

static inline void writel(u32 value, volatile void __iomem *addr)
{
	(void)addr;
	shim_io_write(value);
}

static inline void writew(u16 value, volatile void __iomem *addr)
{
	(void)addr;
	shim_io_write(value);
}

static inline void writeb(u8 value, volatile void __iomem *addr)
{
	(void)addr;
	shim_io_write(value);
}

#endif
