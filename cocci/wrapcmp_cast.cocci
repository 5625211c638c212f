// SPDX-License-Identifier: GPL-2.0-only
/// Compare free-running counters with the helpers of <linux/wrapcmp.h>
/// instead of casting their difference to a signed type: in
/// (s32)(a - b) < 0 the conversion to s32 is implementation-defined,
/// and where a and b are signed the subtraction can overflow, which is
/// undefined.  U32_CMP_LT(a, b) gives the same answer in unsigned
/// arithmetic only.
///
/// Matches (T)(a - b) OP 0 and 0 OP (T)(a - b), T a signed integer type,
/// OP one of < <= > >=, in code and in #define bodies.  Rewrites it to
/// the helper of the width of T, also where spatch cannot see the
/// operand types: the helpers check them at build time.  Reports only: a
/// long or 64-bit cast of a difference known to be narrower; an operator
/// or 0 from a macro; a #define body in which a parameter stands bare in
/// a - b; a statement that uses the same a - b again, which the rewrite
/// would leave half converted; a file with no place for the #include.
/// Never matches a pointer or floating difference.
///
//# T: signed char, short, int, long, long long, s8..s64, __s8..__s64,
//# int8_t..int64_t, with or without extra parentheses.  Where spatch
//# cannot see the operand types, a cast of 32 bits or less keeps the low
//# bits, as the helper does, which fails the build on a pointer or
//# floating operand; a long or 64-bit cast gets the _WIDE helper, which
//# also fails the build when a - b is narrower.  So does a #define body
//# that typecheck()s its operands (time_after()): typecheck() only
//# warns, and a caller may pass a u32 all the same.  A cast that the helper
//# makes redundant is dropped from its arguments.  (s64)(u32 - u32) is
//# never negative: that site is reported, not rewritten.  Where spatch
//# adds the include, a file whose last #include comes after its first
//# function, or that has none, has no place for it.
//
// Confidence: High
// Copyright: (C) 2026 The wrapcmp authors.
// Comments: Each finding ends with its own confidence: moderate, high
// Comments: where both operands are unsigned.
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
// which is slow (and slower with E@pc first): wc_site_find finds the sites without
// it, then wc_site binds the whole comparison E at the places found, in one
// pass over the file (wrapcmp_note_found()).  The paren isomorphism is off in
// both: every parenthesized form is listed, and what it would add, (T)A - B or a
// call tf(A - B), is other code: 12 forms to match instead of 40.
@wc_site_find disable drop_cast, paren@
typedef s8, s16, s32, s64, __s8, __s16, __s32, __s64;
typedef int8_t, int16_t, int32_t, int64_t;
type T = {signed char, s8, __s8, int8_t,
	  short, short int, signed short, signed short int, s16, __s16, int16_t,
	  int, signed, signed int, s32, __s32, int32_t,
	  long, long int, signed long, signed long int,
	  long long, long long int, signed long long, signed long long int, s64, __s64, int64_t};
identifier tf =~ "^(s8|s16|s32|s64|__s8|__s16|__s32|__s64|int8_t|int16_t|int32_t|int64_t)$";
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
 (T)((A@pa - B)) op 0@pz
|
 0@pz op (T)((A@pa - B))
|
 (tf)(A@pa - B) op 0@pz
|
 0@pz op (tf)(A@pa - B)
|
 ((tf)(A@pa - B)) op 0@pz
|
 0@pz op ((tf)(A@pa - B))
|
 (tf)((A@pa - B)) op 0@pz
|
 0@pz op (tf)((A@pa - B))
)

@script:python@
pa << wc_site_find.pa;
pz << wc_site_find.pz;
@@
wrapcmp_note_found("wc_site", pa, pz)

@wc_site depends on wc_site_find disable drop_cast, paren@
typedef s8, s16, s32, s64, __s8, __s16, __s32, __s64;
typedef int8_t, int16_t, int32_t, int64_t;
type T = {signed char, s8, __s8, int8_t,
	  short, short int, signed short, signed short int, s16, __s16, int16_t,
	  int, signed, signed int, s32, __s32, int32_t,
	  long, long int, signed long, signed long int,
	  long long, long long int, signed long long, signed long long int, s64, __s64, int64_t};
identifier tf =~ "^(s8|s16|s32|s64|__s8|__s16|__s32|__s64|int8_t|int16_t|int32_t|int64_t)$";
expression A, B, E;
binary operator op = {<, <=, >, >=};
position pc, pb;
position pa : script:python() { wrapcmp_was_found("wc_site", "a", pa) };
position pz : script:python() { wrapcmp_was_found("wc_site", "z", pz) };
@@

(
(
 (T)(A@pa - B@pb) op 0@pz
|
 0@pz op (T)(A@pa - B@pb)
|
 ((T)(A@pa - B@pb)) op 0@pz
|
 0@pz op ((T)(A@pa - B@pb))
|
 (T)((A@pa - B@pb)) op 0@pz
|
 0@pz op (T)((A@pa - B@pb))
|
 (tf)(A@pa - B@pb) op 0@pz
|
 0@pz op (tf)(A@pa - B@pb)
|
 ((tf)(A@pa - B@pb)) op 0@pz
|
 0@pz op ((tf)(A@pa - B@pb))
|
 (tf)((A@pa - B@pb)) op 0@pz
|
 0@pz op (tf)((A@pa - B@pb))
)
&
 E@pc
)

@wc_type_a@
position wc_site.pa;
type TA;
TA I;
@@

I@pa

@script:python@
pa << wc_site.pa;
t << wc_type_a.TA;
@@
wrapcmp_note_type(pa, t)

@wc_type_b@
position wc_site.pb;
type TB;
TB I;
@@

I@pb

@script:python@
pb << wc_site.pb;
t << wc_type_b.TB;
@@
wrapcmp_note_type(pb, t)

@wc_has_include depends on wc_site && !noinclude@
position p;
@@

(
#include <linux/wrapcmp.h>@p
|
#include "wrapcmp.h"@p
)

@script:python@
p << wc_has_include.p;
@@
wrapcmp_has_header.add(p[0].file)

@wc_function depends on wc_site && !wc_has_include && !noinclude@
identifier f;
position p;
@@

f(...)@p { ... }

@script:python@
p << wc_function.p;
@@
wrapcmp_note_function(p)

@wc_linux_include depends on wc_site && !wc_has_include && !noinclude@
position p;
@@

#include <linux/...>@p

@script:python@
p << wc_linux_include.p;
@@
wrapcmp_note_include(p, True)

@wc_any_include depends on wc_site && !wc_has_include && !noinclude@
position p;
@@

(
#include <...>@p
|
#include "..."@p
)

@script:python@
p << wc_any_include.p;
@@
wrapcmp_note_include(p, False)

@script:python wc_decide@
pc << wc_site.pc;
pa << wc_site.pa;
pb << wc_site.pb;
pz << wc_site.pz;
t << wc_site.T = "";
tf << wc_site.tf = "";
op << wc_site.op;
a << wc_site.A;
b << wc_site.B;
existing << virtual.existing = "no";
@@
wrapcmp_set_existing_mode(existing)
d = wrapcmp_cast_decide(pc, pa, pb, pz, t, tf, op, a, b)
if d is None:
	cocci.include_match(False)
else:
	wrapcmp_cast_sites[wrapcmp_key(pc)] = d

@script:python depends on report@
pc << wc_site.pc;
@@
coccilib.report.print_report(pc[0], wrapcmp_cast_sites[wrapcmp_key(pc)][1])

@script:python depends on org@
pc << wc_site.pc;
@@
coccilib.org.print_todo(pc[0], wrapcmp_cast_sites[wrapcmp_key(pc)][1])

@depends on context && !patch@
expression wc_site.E;
position wc_site.pc;
@@

* E@pc

@script:python wc_form depends on patch@
pc << wc_site.pc;
threshold << virtual.confidence = "low";
h;
ex;
@@
form, msg, confidence = wrapcmp_cast_sites[wrapcmp_key(pc)]
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
@wc_fix depends on patch@
expression wc_site.E, wc_site.A, wc_site.B;
position wc_site.pc;
identifier wc_form.h;
expression wc_form.ex;
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

@depends on wc_fix && !wc_has_include && !noinclude && !hosted@
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

@depends on wc_fix && !wc_has_include && !noinclude && hosted@
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
WRAPCMP_CAST_PREFIX = {}
for names, prefix in (
	(("signed char", "s8", "__s8", "int8_t"), "U8"),
	(("short", "short int", "signed short", "signed short int", "s16", "__s16", "int16_t"),
	 "U16"),
	(("int", "signed", "signed int"), "UINT"),
	(("s32", "__s32", "int32_t"), "U32"),
	(("long", "long int", "signed long", "signed long int"), "ULONG"),
	(("long long", "long long int", "signed long long", "signed long long int", "s64", "__s64",
	  "int64_t"), "U64")):
	for name in names:
		WRAPCMP_CAST_PREFIX[name] = prefix

wrapcmp_cast_sites = {}

def wrapcmp_cast_decide(pc, pa, pb, pz, t, tf, op, a, b):
	"""Return (form or None, report message, confidence) or None when not the idiom.
	A cast to 32 bits or less keeps the low bits of a - b, so the rewrite is exact for
	operands of any integer types (tests/prove_conversions.py): where spatch cannot see
	them, the helper checks at build time that they are integers.  A cast to long or 64
	bits is exact only when a - b is that wide: where the types are not known, the
	_WIDE helper checks that at build time too."""
	cast = " ".join((t or tf).split())
	op = wrapcmp_op(op)
	right = wrapcmp_zero_first(pz, pa)
	suffix = WRAPCMP_OP_SUFFIX[(op, right)]
	prefix = WRAPCMP_CAST_PREFIX[cast]
	helper = prefix + "_CMP_" + suffix
	shape = "0 %s (%s)(a - b)" % (op, cast) if right else "(%s)(a - b) %s 0" % (cast, op)
	ca = wrapcmp_operand(pa, a)
	cb = wrapcmp_operand(pb, b)
	if "never" in (ca, cb):
		return None
	unsigned = ca is not None and cb is not None and not ca[1] and not cb[1]
	confidence, _ = wrapcmp_confidence(pa, pb, a, b, unsigned, idiom=True)
	tail = " (confidence: %s)" % confidence
	if wrapcmp_from_macro(pc, pa, pb, pz):
		return None, ("WARNING: (%s)(a - b) compared with 0 through a macro relies on "
			      "wrapping: use a %s_CMP_ helper; not rewritten: its operator or 0 "
			      "comes from a macro, which spatch 1.1.1 cannot rewrite%s" %
			      (cast, prefix, tail)), confidence
	wide = {"ULONG": ("L", "64"), "U64": ("64",)}.get(prefix)
	if ca is None or cb is None:
		evidence = " (operand types checked at build time)"
		if wide:
			helper += "_WIDE"
	elif wide and ca[0] not in wide and cb[0] not in wide:
		kind, width = wrapcmp_difference(ca, cb)
		if kind == "unsigned":
			where = (" on 32-bit" if width == "L" else
				 " on 64-bit" if prefix == "ULONG" else "")
			return None, ("WARNING: %s %s%s: the difference is unsigned and narrower than "
				      "%s, so the wrap test is dead; not rewritten%s" %
				      (shape, WRAPCMP_UNSIGNED_MEANING[suffix], where, cast, tail)), confidence
		return None, ("WARNING: %s: the difference may be narrower than %s; "
			      "not rewritten%s" % (shape, cast, tail)), confidence
	elif wrapcmp_key(pa) in wrapcmp_typechecked and wrapcmp_key(pb) in wrapcmp_typechecked:
		# typecheck() only warns: a caller may still pass a u32 to time_after(),
		# whose (long)(a - b) then widens a - b where the helper would wrap it
		evidence = " (types from typecheck())"
		if wide:
			helper += "_WIDE"
	else:
		evidence = ""
	form = wrapcmp_form(pc, helper, pa, pb, a, b, ca, cb)
	hint = wrapcmp_jiffies_hint(ca, cb, a, b, suffix) \
		if prefix == "ULONG" and ca is not None and form[0] != "existing" and \
		cb is not None else ""
	why = wrapcmp_half_converted(pc, a, b) or wrapcmp_cannot_patch(pc, pa, pb, macro_ok=True)
	return None if why else form, ("WARNING: %s relies on wrapping: use %s%s%s%s%s" %
				       (shape, wrapcmp_use(form), hint, evidence, why, tail)), confidence
