/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations that spatch does not read: the operand types stay unknown to the rules. */
struct remote {
	u32 seq;
};

static u32 remote_value = 0xfffffff0;

static inline u32 remote_counter(void)
{
	remote_value += 0x30000000;
	return remote_value;
}
