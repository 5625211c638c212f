// SPDX-License-Identifier: GPL-2.0-only
/// Report comparisons with 0 that look like wrap tests but cannot be.
///
/// Matches, where spatch knows the types of both operands, an unsigned
/// difference compared with 0 (a - b > 0 means a != b, a - b < 0 is
/// always false) and a difference whose signedness depends on the
/// architecture (long - unsigned int is signed on 64-bit and unsigned on
/// 32-bit); and, whatever the operand types, an unsigned cast of a
/// difference compared with 0, (u32)(a - b) < 0.  OP is one of < <= > >=.
/// Rewrites nothing: what the writer meant must be decided by a person.
/// The report on an unsigned cast names the <linux/wrapcmp.h> helper of
/// a wrap test, and so does the report on an unsigned difference where
/// an operand is known to wrap (jiffies, a sequence number ...).
/// Never matches an uncast difference whose operand types are unknown,
/// a signed difference, or operands both narrower than int.
///
// Confidence: Moderate
// Copyright: (C) 2026 The wrapcmp authors.
// Comments: Report, context and org modes only.
// Comments: -D hosted, for a C project that is not the kernel: typedef
// Comments: names of integer types (typedef uint32_t tick_t;) count as the
// Comments: types they name.
// Options: --no-includes --include-headers
// Prefilter: comparison

virtual patch
virtual context
virtual org
virtual report
virtual noinclude
virtual hosted

@initialize:python@
@@
# The python the wrapcmp rules share is the module wrapcmp_shared.py beside this
# file (cocci.cocci_file is the path of the running semantic patch).
import os
import sys
wrapcmp_dir = os.path.dirname(os.path.abspath(cocci.cocci_file))
wrapcmp_module = os.path.join(wrapcmp_dir, "wrapcmp_shared.py")
if not os.path.isfile(wrapcmp_module):
	sys.exit("%s: cannot find %s (the python the wrapcmp rules share must lie "
		 "beside the rule)" % (cocci.cocci_file, wrapcmp_module))
sys.path.insert(0, wrapcmp_dir)
from wrapcmp_shared import *

// -D noinclude: the caller places #include <linux/wrapcmp.h>
@script:python depends on noinclude@
@@
wrapcmp_set_include_mode("no")

// -D hosted: a C project, not the kernel: #include "wrapcmp.h" (unless -D
// noinclude), and typedef names of plain integer types resolved
@script:python depends on hosted@
@@
wrapcmp_set_include_mode("hosted")

// spatch matches a conjunction with E@pc against every expression of a file,
// which is slow (and slower with E@pc first): wb_site_find finds the sites without
// it, then wb_site binds the whole comparison E at the places found, in one
// pass over the file (wrapcmp_note_found()).  The paren isomorphism stays on:
// SmPL reads 0 op A - B as (0 op A) - B, so only its variant of 0 op (A - B)
// matches the code 0 < a - b.
@wb_site_find disable drop_cast@
expression A, B;
binary operator op = {<, <=, >, >=};
position pa, pz;
@@

(
 A@pa - B op 0@pz
|
 0@pz op A@pa - B
|
 (A@pa - B) op 0@pz
|
 0@pz op (A@pa - B)
)

@script:python@
pa << wb_site_find.pa;
pz << wb_site_find.pz;
@@
wrapcmp_note_found("wb_site", pa, pz)

@wb_site depends on wb_site_find disable drop_cast@
expression A, B, E;
binary operator op = {<, <=, >, >=};
position pc, pb;
position pa : script:python() { wrapcmp_was_found("wb_site", "a", pa) };
position pz : script:python() { wrapcmp_was_found("wb_site", "z", pz) };
@@

(
(
 A@pa - B@pb op 0@pz
|
 0@pz op A@pa - B@pb
|
 (A@pa - B@pb) op 0@pz
|
 0@pz op (A@pa - B@pb)
)
&
 E@pc
)

@wb_type_a@
position wb_site.pa;
type TA;
TA I;
@@

I@pa

@script:python@
pa << wb_site.pa;
t << wb_type_a.TA;
@@
wrapcmp_note_type(pa, t)

@wb_type_b@
position wb_site.pb;
type TB;
TB I;
@@

I@pb

@script:python@
pb << wb_site.pb;
t << wb_type_b.TB;
@@
wrapcmp_note_type(pb, t)

@script:python wb_decide@
pc << wb_site.pc;
pa << wb_site.pa;
pb << wb_site.pb;
pz << wb_site.pz;
op << wb_site.op;
a << wb_site.A;
b << wb_site.B;
@@
msg = wrapcmp_bug_decide(pa, pb, pz, op, a, b)
if msg is None:
	cocci.include_match(False)
else:
	wrapcmp_bug_sites[wrapcmp_key(pc)] = msg

// spatch matches a conjunction with E@pc against every expression of a file,
// which is slow (and slower with E@pc first): wb_ucast_find finds the sites without
// it, then wb_ucast binds the whole comparison E at the places found, in one
// pass over the file (wrapcmp_note_found()).  The paren isomorphism is off in
// both: every parenthesized form is listed, and what it would add, (T)A - B or a
// call tf(A - B), is other code.
@wb_ucast_find disable drop_cast, paren@
typedef u8, u16, u32, u64, __u8, __u16, __u32, __u64;
typedef uint8_t, uint16_t, uint32_t, uint64_t;
type T = {unsigned char, u8, __u8, uint8_t,
	  unsigned short, unsigned short int, u16, __u16, uint16_t,
	  unsigned, unsigned int, u32, __u32, uint32_t,
	  unsigned long, unsigned long int, size_t,
	  unsigned long long, unsigned long long int, u64, __u64, uint64_t};
identifier tf =~ "^(u8|u16|u32|u64|__u8|__u16|__u32|__u64|uint8_t|uint16_t|uint32_t|uint64_t|size_t)$";
expression A, B;
binary operator op = {<, <=, >, >=};
position pa, pz;
@@

(
 (T)(A@pa - B) op 0@pz
|
 0@pz op (T)(A@pa - B)
|
 ((T)(A@pa - B)) op 0@pz
|
 0@pz op ((T)(A@pa - B))
|
 (tf)(A@pa - B) op 0@pz
|
 0@pz op (tf)(A@pa - B)
|
 ((tf)(A@pa - B)) op 0@pz
|
 0@pz op ((tf)(A@pa - B))
)

@script:python@
pa << wb_ucast_find.pa;
pz << wb_ucast_find.pz;
@@
wrapcmp_note_found("wb_ucast", pa, pz)

@wb_ucast depends on wb_ucast_find disable drop_cast, paren@
typedef u8, u16, u32, u64, __u8, __u16, __u32, __u64;
typedef uint8_t, uint16_t, uint32_t, uint64_t;
type T = {unsigned char, u8, __u8, uint8_t,
	  unsigned short, unsigned short int, u16, __u16, uint16_t,
	  unsigned, unsigned int, u32, __u32, uint32_t,
	  unsigned long, unsigned long int, size_t,
	  unsigned long long, unsigned long long int, u64, __u64, uint64_t};
identifier tf =~ "^(u8|u16|u32|u64|__u8|__u16|__u32|__u64|uint8_t|uint16_t|uint32_t|uint64_t|size_t)$";
expression A, B, E;
binary operator op = {<, <=, >, >=};
position pc;
position pa : script:python() { wrapcmp_was_found("wb_ucast", "a", pa) };
position pz : script:python() { wrapcmp_was_found("wb_ucast", "z", pz) };
@@

(
(
 (T)(A@pa - B) op 0@pz
|
 0@pz op (T)(A@pa - B)
|
 ((T)(A@pa - B)) op 0@pz
|
 0@pz op ((T)(A@pa - B))
|
 (tf)(A@pa - B) op 0@pz
|
 0@pz op (tf)(A@pa - B)
|
 ((tf)(A@pa - B)) op 0@pz
|
 0@pz op ((tf)(A@pa - B))
)
&
 E@pc
)

@script:python@
pc << wb_ucast.pc;
pa << wb_ucast.pa;
pz << wb_ucast.pz;
t << wb_ucast.T = "";
tf << wb_ucast.tf = "";
op << wb_ucast.op;
@@
wrapcmp_bug_sites[wrapcmp_key(pc)] = wrapcmp_ucast_decide(pa, pz, t, tf, op)

@script:python depends on report@
pc << wb_site.pc;
@@
coccilib.report.print_report(pc[0], wrapcmp_bug_sites[wrapcmp_key(pc)])

@script:python depends on report@
pc << wb_ucast.pc;
@@
coccilib.report.print_report(pc[0], wrapcmp_bug_sites[wrapcmp_key(pc)])

@script:python depends on org@
pc << wb_site.pc;
@@
coccilib.org.print_todo(pc[0], wrapcmp_bug_sites[wrapcmp_key(pc)])

@script:python depends on org@
pc << wb_ucast.pc;
@@
coccilib.org.print_todo(pc[0], wrapcmp_bug_sites[wrapcmp_key(pc)])

@depends on context && !patch@
expression wb_site.E;
position wb_site.pc;
@@

* E@pc

@depends on context && !patch@
expression wb_ucast.E;
position wb_ucast.pc;
@@

* E@pc

// The python of this rule: what its script rules above call.  Like every
// initialize rule, it runs before the first file.
@initialize:python@
@@
WRAPCMP_UNSIGNED_PREFIX = {"8": "U8", "16": "U16", "32": "UINT", "L": "ULONG", "64": "U64"}
WRAPCMP_FIXED_U32 = ("u32", "__u32", "uint32_t")
WRAPCMP_ARCH_DIFFERENCE = {
	"L": "long minus unsigned int is signed on 64-bit and unsigned on 32-bit",
	"64": "s64 minus unsigned long is unsigned on 64-bit and signed on 32-bit"}

wrapcmp_bug_sites = {}

def wrapcmp_bug_decide(pa, pb, pz, op, a, b):
	"""Report message for a plain a - b OP 0, or None when it is not a bug form."""
	op = wrapcmp_op(op)
	right = wrapcmp_zero_first(pz, pa)
	suffix = WRAPCMP_OP_SUFFIX[(op, right)]
	shape = "0 %s a - b" % op if right else "a - b %s 0" % op
	ca = wrapcmp_operand(pa, a)
	cb = wrapcmp_operand(pb, b)
	if ca in (None, "never") or cb in (None, "never"):
		return None
	kind, width = wrapcmp_difference(ca, cb)
	if kind not in ("arch", "unsigned"):
		return None
	confidence, note = wrapcmp_confidence(pa, pb, a, b, False)
	tail = "%s (confidence: %s)" % (note, confidence)
	if kind == "arch":
		return "WARNING: %s: %s%s" % (shape, WRAPCMP_ARCH_DIFFERENCE[width], tail)
	hint = ""
	if confidence == "moderate":
		prefix = WRAPCMP_UNSIGNED_PREFIX[width]
		if width == "32" and (wrapcmp_types.get(wrapcmp_key(pa)) in WRAPCMP_FIXED_U32 or
				      wrapcmp_types.get(wrapcmp_key(pb)) in WRAPCMP_FIXED_U32):
			prefix = "U32"
		hint = "; if a and b are wrapping counters, use %s_CMP_%s()%s" % (
			prefix, suffix, wrapcmp_jiffies_hint(ca, cb, a, b, suffix))
	return "WARNING: %s on an unsigned difference %s%s%s" % (
		shape, WRAPCMP_UNSIGNED_MEANING[suffix], hint, tail)

WRAPCMP_UCAST_PREFIX = {}
for names, prefix in (
	(("unsigned char", "u8", "__u8", "uint8_t"), "U8"),
	(("unsigned short", "unsigned short int", "u16", "__u16", "uint16_t"), "U16"),
	(("unsigned", "unsigned int"), "UINT"),
	(("u32", "__u32", "uint32_t"), "U32"),
	(("unsigned long", "unsigned long int", "size_t"), "ULONG"),
	(("unsigned long long", "unsigned long long int", "u64", "__u64", "uint64_t"), "U64")):
	for name in names:
		WRAPCMP_UCAST_PREFIX[name] = prefix

def wrapcmp_ucast_decide(pa, pz, t, tf, op):
	op = wrapcmp_op(op)
	cast = " ".join((t or tf).split())
	right = wrapcmp_zero_first(pz, pa)
	suffix = WRAPCMP_OP_SUFFIX[(op, right)]
	shape = "0 %s (%s)(a - b)" % (op, cast) if right else "(%s)(a - b) %s 0" % (cast, op)
	return ("WARNING: %s %s: an unsigned value is never negative; a wrap test is %s_CMP_%s() "
		"(confidence: high)" % (shape, WRAPCMP_UNSIGNED_MEANING[suffix],
					WRAPCMP_UCAST_PREFIX[cast], suffix))
