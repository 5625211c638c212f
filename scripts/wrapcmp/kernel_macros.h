/*
 * kernel_macros.h: macros that spatch should read as the kernel's source means them,
 * given to spatch with --macro-file by wrapcmp-run on a kernel tree (never on a C
 * project, whose macros of these names may mean something else).
 *
 * BPF_CALL_0() to BPF_CALL_5() (include/linux/filter.h) open the body of a BPF helper:
 *	BPF_CALL_2(bpf_skb_pull_data, struct sk_buff *, skb, u32, len)
 *	{ ... }
 * Their real expansion (BPF_CALL_x, __BPF_MAP) is too deep for spatch, which then
 * parses net/core/filter.c of Linux 6.1, with 135 of them, again and again around each one:
 * 9.8 s of CPU, and the bodies of those helpers are not searched.  Read as the
 * function headers they stand for, filter.c parses in 1.8 s.
 */
#define BPF_CALL_0(name) u64 name(void)
#define BPF_CALL_1(name, t1, a1) u64 name(t1 a1)
#define BPF_CALL_2(name, t1, a1, t2, a2) u64 name(t1 a1, t2 a2)
#define BPF_CALL_3(name, t1, a1, t2, a2, t3, a3) u64 name(t1 a1, t2 a2, t3 a3)
#define BPF_CALL_4(name, t1, a1, t2, a2, t3, a3, t4, a4) \
	u64 name(t1 a1, t2 a2, t3 a3, t4 a4)
#define BPF_CALL_5(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5) \
	u64 name(t1 a1, t2 a2, t3 a3, t4 a4, t5 a5)
