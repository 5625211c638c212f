/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations that spatch does not read: the field and function types stay unknown to the rules. */
struct remote_stamps {
	u8 c8;
	u16 c16;
	u32 c32;
	u64 c64;
	s8 s8v;
	s32 s32v;
	s64 s64v;
	unsigned long ul;
	long sl;
};

static u64 remote_clock = 0xfffffffffffffff0ULL;

static inline u64 remote_now(void)
{
	remote_clock += 0x3000000000000000ULL;
	return remote_clock;
}
