// SPDX-License-Identifier: GPL-2.0
#include <linux/types.h>

int uapi_before(__u32 a, __u32 b)
{
	return (__s32)(a - b) < 0;
}

int std_before(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) < 0;
}

int byte_after(__u8 a, __u8 b)
{
	return (__s8)(a - b) > 0;
}

int half_after(uint16_t a, uint16_t b)
{
	return (int16_t)(a - b) > 0;
}

int plain_signed(unsigned a, unsigned b)
{
	return (signed)(a - b) >= 0;
}

int signed_int(unsigned a, unsigned b)
{
	return (signed int)(a - b) <= 0;
}
