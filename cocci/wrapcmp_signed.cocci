// SPDX-License-Identifier: GPL-2.0-only
/// Compare free-running signed counters with the helpers of
/// <linux/wrapcmp.h>: a - b > 0 on int, long or long long operands can
/// overflow, which is undefined, and the compiler may fold it to a > b.
/// UINT_CMP_GT(a, b) gives the answer of the wrapping subtraction in
/// unsigned arithmetic only.
///
/// Matches a - b OP 0 and 0 OP a - b, OP one of < <= > >=, where spatch
/// knows the types of both operands and the difference is signed on
/// every architecture.  Rewrites it to the helper of the width of the
/// promoted type.  Reports only: an operator or 0 from a macro; a
/// #define body (typecheck() only warns); a low site whose operands
/// name sizes (len - n > 0); a statement that uses a - b again; a
/// file with no place for the #include.  Never matches operands of unknown type, a
/// constant operand (len - 4 > 0 is a bound), operands narrower than
/// int, nor an unsigned, pointer, floating or architecture-dependent
/// difference.
///
//# Signed on every architecture: int, long or long long once promoted,
//# with or without parentheses.  long - unsigned int is not (it is
//# unsigned on 32-bit): wrapcmp_bugs reports it, and unsigned
//# differences.  A constant is a literal or a name in capitals.  A
//# caller of a #define body may pass any type: a long makes a - b
//# wider than the helper, a u32 makes it unsigned.  Where spatch adds
//# the include, a file whose last #include comes after its first
//# function, or that has none, has no place for it.
//
// Confidence: Moderate
// Copyright: (C) 2026 The wrapcmp authors.
// Comments: Each finding ends with its own confidence: low, moderate where
// Comments: an operand is known to wrap (jiffies, a clock, a sequence
// Comments: number, a field only ever incremented).
// Comments: -D confidence=moderate or =high: only findings of at least that
// Comments: confidence (the message ends with it) are rewritten.
// Comments: -D existing=yes: time_before() and its kin on jiffies, and
// Comments: before() of <net/tcp.h>, where they compute exactly the same.
// Comments: -D hosted, for a C project that is not the kernel: typedef
// Comments: names of integer types (typedef uint32_t tick_t;) count as the
// Comments: types they name, and a rewritten file includes "wrapcmp.h" (the
// Comments: include/wrapcmp.h of wrapcmp) instead of <linux/wrapcmp.h>.
// Comments: -D noinclude: no #include is added; the caller places it.
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
// which is slow (and slower with E@pc first): ws_site_find finds the sites without
// it, then ws_site binds the whole comparison E at the places found, in one
// pass over the file (wrapcmp_note_found()).  The paren isomorphism stays on:
// SmPL reads 0 op A - B as (0 op A) - B, so only its variant of 0 op (A - B)
// matches the code 0 < a - b.
@ws_site_find disable drop_cast@
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
pa << ws_site_find.pa;
pz << ws_site_find.pz;
@@
wrapcmp_note_found("ws_site", pa, pz)

@ws_site depends on ws_site_find disable drop_cast@
expression A, B, E;
binary operator op = {<, <=, >, >=};
position pc, pb;
position pa : script:python() { wrapcmp_was_found("ws_site", "a", pa) };
position pz : script:python() { wrapcmp_was_found("ws_site", "z", pz) };
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

@ws_type_a@
position ws_site.pa;
type TA;
TA I;
@@

I@pa

@script:python@
pa << ws_site.pa;
t << ws_type_a.TA;
@@
wrapcmp_note_type(pa, t)

@ws_type_b@
position ws_site.pb;
type TB;
TB I;
@@

I@pb

@script:python@
pb << ws_site.pb;
t << ws_type_b.TB;
@@
wrapcmp_note_type(pb, t)

@ws_has_include depends on ws_site && !noinclude@
position p;
@@

(
#include <linux/wrapcmp.h>@p
|
#include "wrapcmp.h"@p
)

@script:python@
p << ws_has_include.p;
@@
wrapcmp_has_header.add(p[0].file)

@ws_function depends on ws_site && !ws_has_include && !noinclude@
identifier f;
position p;
@@

f(...)@p { ... }

@script:python@
p << ws_function.p;
@@
wrapcmp_note_function(p)

@ws_linux_include depends on ws_site && !ws_has_include && !noinclude@
position p;
@@

#include <linux/...>@p

@script:python@
p << ws_linux_include.p;
@@
wrapcmp_note_include(p, True)

@ws_any_include depends on ws_site && !ws_has_include && !noinclude@
position p;
@@

(
#include <...>@p
|
#include "..."@p
)

@script:python@
p << ws_any_include.p;
@@
wrapcmp_note_include(p, False)

@script:python ws_decide@
pc << ws_site.pc;
pa << ws_site.pa;
pb << ws_site.pb;
pz << ws_site.pz;
op << ws_site.op;
a << ws_site.A;
b << ws_site.B;
existing << virtual.existing = "no";
@@
wrapcmp_set_existing_mode(existing)
d = wrapcmp_signed_decide(pc, pa, pb, pz, op, a, b)
if d is None:
	cocci.include_match(False)
else:
	wrapcmp_signed_sites[wrapcmp_key(pc)] = d

@script:python depends on report@
pc << ws_site.pc;
@@
coccilib.report.print_report(pc[0], wrapcmp_signed_sites[wrapcmp_key(pc)][1])

@script:python depends on org@
pc << ws_site.pc;
@@
coccilib.org.print_todo(pc[0], wrapcmp_signed_sites[wrapcmp_key(pc)][1])

@depends on context && !patch@
expression ws_site.E;
position ws_site.pc;
@@

* E@pc

@script:python ws_form depends on patch@
pc << ws_site.pc;
threshold << virtual.confidence = "low";
h;
ex;
@@
form, msg, confidence = wrapcmp_signed_sites[wrapcmp_key(pc)]
if form is None or wrapcmp_below(confidence, threshold):
	cocci.include_match(False)
else:
	h, ex = wrapcmp_replacement(form)
	coccinelle.h = cocci.make_ident(h)
	coccinelle.ex = cocci.make_expr(ex)
	if form[0] != "existing":
		wrapcmp_needs_header.add(pc[0].file)

// h(A, B) keeps the operands as written; other forms (a cast dropped, a helper of the
// kernel) are written from text, ex, and h is then WRAPCMP_WHOLE
@ws_fix depends on patch@
expression ws_site.E, ws_site.A, ws_site.B;
position ws_site.pc;
identifier ws_form.h;
expression ws_form.ex;
position pa : script:python(h) { str(h) != WRAPCMP_WHOLE };
position pw : script:python(h) { str(h) == WRAPCMP_WHOLE };
@@

(
- (E@pc@pa)
+ h(A, B)
|
- E@pc@pa
+ h(A, B)
|
- (E@pc@pw)
+ ex
|
- E@pc@pw
+ ex
)

@depends on ws_fix && !ws_has_include && !noinclude && !hosted@
position p : script:python() { int(p[0].line) == wrapcmp_include_anchor(p[0].file, True) };
@@

(
#include <linux/...>@p
+#include <linux/wrapcmp.h>
|
#include <...>@p
+#include <linux/wrapcmp.h>
|
#include "..."@p
+#include <linux/wrapcmp.h>
)

@depends on ws_fix && !ws_has_include && !noinclude && hosted@
position p : script:python() { int(p[0].line) == wrapcmp_include_anchor(p[0].file, True) };
@@

(
#include <...>@p
+#include "wrapcmp.h"
|
#include "..."@p
+#include "wrapcmp.h"
)

// The python of this rule: what its script rules above call.  Like every
// initialize rule, it runs before the first file.
@initialize:python@
@@
WRAPCMP_SIGNED_PREFIX = {"32": "UINT", "L": "ULONG", "64": "U64"}
WRAPCMP_FIXED_32 = ("s32", "__s32", "int32_t")

wrapcmp_signed_sites = {}

def wrapcmp_signed_decide(pc, pa, pb, pz, op, a, b):
	"""Return (form or None, report message, confidence) or None when not the idiom."""
	op = wrapcmp_op(op)
	right = wrapcmp_zero_first(pz, pa)
	ca = wrapcmp_operand(pa, a)
	cb = wrapcmp_operand(pb, b)
	if ca in (None, "never") or cb in (None, "never"):
		return None
	if WRAPCMP_CONSTANT.fullmatch(" ".join(str(a).split())) or \
	   WRAPCMP_CONSTANT.fullmatch(" ".join(str(b).split())):
		return None		# len - 4 > 0 is a bound, not two counters
	kind, w = wrapcmp_difference(ca, cb)
	if kind != "signed":
		return None		# narrow, unsigned, or signed on some architectures only
	prefix = WRAPCMP_SIGNED_PREFIX[w]
	if w == "32" and (wrapcmp_types.get(wrapcmp_key(pa)) in WRAPCMP_FIXED_32 or
			  wrapcmp_types.get(wrapcmp_key(pb)) in WRAPCMP_FIXED_32):
		prefix = "U32"
	helper = prefix + "_CMP_" + WRAPCMP_OP_SUFFIX[(op, right)]
	shape = "0 %s a - b" % op if right else "a - b %s 0" % op
	confidence, note = wrapcmp_confidence(pa, pb, a, b, False)
	if wrapcmp_from_macro(pc, pa, pb, pz):
		return None, ("WARNING: a - b compared with 0 through a macro on signed operands "
			      "can overflow: use a %s_CMP_ helper%s; not rewritten: its operator "
			      "or 0 comes from a macro, which spatch 1.1.1 cannot rewrite "
			      "(confidence: %s)" % (prefix, note, confidence)), confidence
	form = wrapcmp_form(pc, helper, pa, pb, a, b, ca, cb)
	why = wrapcmp_not_counters(confidence, a, b) or wrapcmp_half_converted(pc, a, b) or \
		wrapcmp_cannot_patch(pc, pa, pb)
	return None if why else form, ("WARNING: %s on signed operands can overflow: use %s%s%s "
				       "(confidence: %s)" % (shape, wrapcmp_use(form), note, why,
							     confidence)), confidence
