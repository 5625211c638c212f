// SPDX-License-Identifier: GPL-2.0-only
/// Compare free-running counters with the helpers of <linux/wrapcmp.h>
/// when their difference is first kept in a signed variable:
/// d = a - b; ... if (d < 0).  Storing an unsigned difference in a
/// signed variable is the cast idiom; a signed difference can overflow,
/// which is undefined.
///
/// Matches d = a - b; (or T d = a - b;) and then d OP 0 or 0 OP d, OP
/// one of < <= > >=, where spatch knows the types of d, a and b, d is a
/// signed integer, neither a nor b is a constant, and in between d is
/// not used and neither a nor b changes.  Rewrites it to
/// U32_CMP_LT(a, b) and the like, removing d, when the comparison is the
/// condition of the next if or return and d is declared in the function
/// and has no other use there.  Reports only every other such site, with
/// the reason.
///
//# The narrower of d and the difference picks the helper.  A d wider
//# than an unsigned difference is never negative (where long is one of
//# the two, on one word size only): reported as a dead test.  An int d
//# that holds the exact difference of operands narrower than int is no
//# finding.  A constant is a literal or a name in capitals.
//
// Confidence: Moderate
// Copyright: (C) 2026 The wrapcmp authors.
// Comments: Each finding ends with its own confidence: high where the
// Comments: difference is unsigned, else low, or moderate where an operand
// Comments: is known to wrap.
// Comments: -D confidence=moderate or =high: only findings of at least that
// Comments: confidence (the message ends with it) are rewritten.
// Comments: -D hosted, for a C project that is not the kernel: typedef
// Comments: names of integer types (typedef uint32_t tick_t;) count as the
// Comments: types they name, and a rewritten file includes "wrapcmp.h" (the
// Comments: include/wrapcmp.h of wrapcmp) instead of <linux/wrapcmp.h>.
// Comments: -D noinclude: no #include is added; the caller places it.
// Options: --no-includes --include-headers
// Prefilter: temporary

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
import re
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

@wt_site disable drop_cast@
identifier d;
expression A, B, C, E;
type T;
binary operator op = {<, <=, >, >=};
assignment operator aop;
position pd, pa, pb, pc, pz, pcmp;
@@

(
 T d@pd = A@pa - B@pb;
|
 d@pd = A@pa - B@pb;
)
 ... when != d
     when != A aop E
     when != B aop E
     when != \( A++ \| ++A \| A-- \| --A \| B++ \| ++B \| B-- \| --B \| &A \| &B \)
(
 C@pcmp
&
(
 d@pc op 0@pz
|
 0@pz op d@pc
)
)

@wt_type_d@
position wt_site.pc;
type TD;
TD I;
@@

I@pc

@script:python@
pc << wt_site.pc;
t << wt_type_d.TD;
@@
wrapcmp_note_type(pc, t)

@wt_type_a@
position wt_site.pa;
type TA;
TA I;
@@

I@pa

@script:python@
pa << wt_site.pa;
t << wt_type_a.TA;
@@
wrapcmp_note_type(pa, t)

@wt_type_b@
position wt_site.pb;
type TB;
TB I;
@@

I@pb

@script:python@
pb << wt_site.pb;
t << wt_type_b.TB;
@@
wrapcmp_note_type(pb, t)

@script:python wt_typed@
pd << wt_site.pd;
pc << wt_site.pc;
pa << wt_site.pa;
pb << wt_site.pb;
a << wt_site.A;
b << wt_site.B;
d << wt_site.d;
@@
if wrapcmp_temp_candidate(pc, pa, pb, a, b, d) is None:
	cocci.include_match(False)

@wt_use@
identifier wt_site.d;
position p;
@@

d@p

@script:python@
p << wt_use.p;
d << wt_site.d;
@@
wrapcmp_temp_note_use(p, d)

@wt_declared@
identifier wt_site.d;
position wt_site.pd;
type T;
expression E;
@@

(
 T d@pd = E;
|
 T d;
 ... when != d
 d@pd = E;
)

@script:python@
pd << wt_site.pd;
t << wt_declared.T;
@@
wrapcmp_temp_declared.add(wrapcmp_key(pd))

@wt_next depends on wt_site@
identifier d;
expression A, B;
position pd;
type T;
statement S;
position p;
@@

(
 T d@pd = A - B;
|
 d@pd = A - B;
)
 S@p

@script:python@
pd << wt_next.pd;
p << wt_next.p;
@@
wrapcmp_temp_next[wrapcmp_key(pd)] = p

@wt_has_include depends on wt_site && !noinclude@
position p;
@@

(
#include <linux/wrapcmp.h>@p
|
#include "wrapcmp.h"@p
)

@script:python@
p << wt_has_include.p;
@@
wrapcmp_has_header.add(p[0].file)

@wt_function depends on wt_site@
identifier f;
position p;
@@

f(...)@p { ... }

@script:python@
p << wt_function.p;
@@
wrapcmp_note_function(p)
wrapcmp_temp_functions.setdefault(p[0].file, set()).add(int(p[0].line))

@wt_linux_include depends on wt_site && !wt_has_include && !noinclude@
position p;
@@

#include <linux/...>@p

@script:python@
p << wt_linux_include.p;
@@
wrapcmp_note_include(p, True)

@wt_any_include depends on wt_site && !wt_has_include && !noinclude@
position p;
@@

(
#include <...>@p
|
#include "..."@p
)

@script:python@
p << wt_any_include.p;
@@
wrapcmp_note_include(p, False)

@script:python wt_decide@
pd << wt_site.pd;
pc << wt_site.pc;
pz << wt_site.pz;
pa << wt_site.pa;
pb << wt_site.pb;
pcmp << wt_site.pcmp;
a << wt_site.A;
b << wt_site.B;
d << wt_site.d;
@@
r = wrapcmp_temp_decide(pd, pc, pz, pa, pb, pcmp, a, b, d)
if r is None:
	cocci.include_match(False)
else:
	wrapcmp_temp_sites[wrapcmp_key(pc)] = r

@script:python depends on report@
pc << wt_site.pc;
@@
coccilib.report.print_report(pc[0], wrapcmp_temp_sites[wrapcmp_key(pc)][1])

@script:python depends on org@
pc << wt_site.pc;
@@
coccilib.org.print_todo(pc[0], wrapcmp_temp_sites[wrapcmp_key(pc)][1])

@depends on context && !patch@
identifier wt_site.d;
expression wt_site.A, wt_site.B;
binary operator wt_site.op;
position wt_site.pd, wt_site.pc;
type T;
@@

(
* T d@pd = A - B;
|
* d@pd = A - B;
)
 ...
(
* d@pc op 0
|
* 0 op d@pc
)

@script:python wt_helper depends on patch@
pc << wt_site.pc;
threshold << virtual.confidence = "low";
h;
@@
helper, msg, confidence = wrapcmp_temp_sites[wrapcmp_key(pc)]
if helper is None or wrapcmp_below(confidence, threshold):
	cocci.include_match(False)
else:
	coccinelle.h = cocci.make_ident(helper)
	wrapcmp_needs_header.add(pc[0].file)

@wt_fix depends on patch@
identifier wt_site.d;
expression wt_site.A, wt_site.B, C;
position wt_site.pd, wt_site.pcmp;
identifier wt_helper.h;
type T;
statement S1, S2;
@@

(
- T d@pd = A - B;
|
- T d;
  ... when != d
- d@pd = A - B;
)
(
  if (
- C@pcmp
+ h(A, B)
  ) S1 else S2
|
  if (
- C@pcmp
+ h(A, B)
  ) S1
|
  return
- C@pcmp
+ h(A, B)
  ;
)

@depends on wt_fix && !wt_has_include && !noinclude && !hosted@
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

@depends on wt_fix && !wt_has_include && !noinclude && hosted@
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
WRAPCMP_TEMP_PREFIX = {"8": "U8", "16": "U16", "32": "UINT", "L": "ULONG", "64": "U64"}
WRAPCMP_TEMP_FIXED_32 = ("s32", "__s32", "int32_t", "u32", "__u32", "uint32_t")

wrapcmp_temp_sites = {}
wrapcmp_temp_functions = {}	# file -> start lines of its functions
wrapcmp_temp_uses = {}		# (file, name) -> (line, column) of each use
wrapcmp_temp_next = {}		# pd key -> position of the statement after d = a - b
wrapcmp_temp_declared = set()	# pd keys where d is declared in the function before

def wrapcmp_within(p, q):
	"""True when the code at p lies within the code at q."""
	return p[0].file == q[0].file and \
		(int(q[0].line), int(q[0].column)) <= (int(p[0].line), int(p[0].column)) and \
		(int(p[0].line_end), int(p[0].column_end)) <= (int(q[0].line_end), int(q[0].column_end))

def wrapcmp_temp_note_use(p, d):
	wrapcmp_temp_uses.setdefault((p[0].file, str(d)), set()).add(
		(int(p[0].line), int(p[0].column)))

def wrapcmp_temp_used_between(pd, pc, d):
	"""True unless the comparison at pc comes after pd in the text with no use of d
	in between.  (scripts/prefilter.c relies on this: it drops a file where every
	comparison is preceded by a sure use of d.)"""
	start = (int(pd[0].line), int(pd[0].column))
	end = (int(pc[0].line), int(pc[0].column))
	if end <= start:
		return True
	return any(start < u < end for u in wrapcmp_temp_uses.get((pd[0].file, str(d)), ()))

def wrapcmp_temp_other_use(pd, pc, d):
	"""True when the name d appears in the function of pd other than at pd and pc.
	A function runs from its name to the name of the next function, so a use between
	two functions counts for the first: more uses, never fewer."""
	f = pd[0].file
	line = int(pd[0].line)
	starts = wrapcmp_temp_functions.get(f, set())
	lo = max([s for s in starts if s <= line], default=None)
	if lo is None:
		return True
	hi = min([s for s in starts if s > line], default=1 << 30)
	own = {(int(p[0].line), int(p[0].column)) for p in (pd, pc)}
	return any(lo <= l < hi and (l, c) not in own
		   for l, c in wrapcmp_temp_uses.get((f, str(d)), ()))

def wrapcmp_temp_prefix(width, types):
	"""Helper family of this width; U32 rather than UINT when a type says 32 bits."""
	if width == "32" and any(t in WRAPCMP_TEMP_FIXED_32 for t in types):
		return "U32"
	return WRAPCMP_TEMP_PREFIX[width]

def wrapcmp_temp_candidate(pc, pa, pb, a, b, d):
	"""The checks that need no other rule: d a signed integer, a and b integers and
	neither one constant.  Run early, so that the later rules see fewer sites.
	Returns the classes of d, a and b, or None."""
	cd = wrapcmp_operand(pc, d)
	ca = wrapcmp_operand(pa, a)
	cb = wrapcmp_operand(pb, b)
	if None in (cd, ca, cb) or "never" in (cd, ca, cb) or not cd[1]:
		return None
	if WRAPCMP_CONSTANT.fullmatch(" ".join(str(a).split())) or \
	   WRAPCMP_CONSTANT.fullmatch(" ".join(str(b).split())):
		return None
	return cd, ca, cb

def wrapcmp_temp_is_condition(ps, pc, pz, op, d):
	"""True when the statement at ps is  if (d op 0) ...  or  return d op 0;  (either
	side, parentheses allowed) and holds the comparison at pc."""
	if not wrapcmp_within(pc, ps):
		return False
	text = wrapcmp_text_at(ps)
	m = re.match(r"\s*(if|return)\b\s*", text)
	if not m:
		return False
	rest = text[m.end():]
	if m.group(1) == "return":
		cond = rest.rstrip().rstrip(";")
	else:
		if not rest.startswith("("):
			return False
		depth = 0
		for i, ch in enumerate(rest):
			depth += {"(": 1, ")": -1}.get(ch, 0)
			if depth == 0:
				cond = rest[1:i]
				break
		else:
			return False
	cond = re.sub(r"[\s()]", "", cond)
	zero = re.sub(r"\s", "", wrapcmp_text_at(pz))
	o = wrapcmp_op(op)
	return cond in (str(d) + o + zero, zero + o + str(d))

def wrapcmp_temp_decide(pd, pc, pz, pa, pb, pcmp, a, b, d):
	"""Return (helper or None, report message, confidence) or None when not the idiom.
	The operator is read from the text of the comparison at pcmp: inheriting the binary
	operator metavariable makes the path search of spatch in wt_site several times slower."""
	classes = wrapcmp_temp_candidate(pc, pa, pb, a, b, d)
	if classes is None or wrapcmp_temp_used_between(pd, pc, d):
		return None
	cd, ca, cb = classes
	op = re.search(r"<=|>=|<|>", wrapcmp_text_at(pcmp)).group(0)
	right = wrapcmp_zero_first(pz, pc)
	suffix = WRAPCMP_OP_SUFFIX[(op, right)]
	kind, w = wrapcmp_difference(ca, cb)
	td = wrapcmp_types.get(wrapcmp_key(pc), "")
	ta = wrapcmp_types.get(wrapcmp_key(pa), "")
	tb = wrapcmp_types.get(wrapcmp_key(pb), "")
	shape = "d = a - b; ... " + ("0 %s d" % op if right else "d %s 0" % op)
	confidence, note = wrapcmp_confidence(pa, pb, a, b, kind == "unsigned")
	tail = "%s (confidence: %s)" % (note, confidence)
	wd = cd[0]
	if WRAPCMP_RANK[wd] <= WRAPCMP_RANK[w]:
		# d keeps the low bits of a - b (of the exact value when the operands
		# are narrower than int, which only wraps when d is narrower still)
		if kind == "narrow" and WRAPCMP_RANK[wd] >= 2:
			return None	# d holds the exact a - b: d < 0 means a < b
		helper = wrapcmp_temp_prefix(wd, (td,)) + "_CMP_" + suffix
	elif kind == "narrow":
		return None	# d is wider than the exact a - b of narrow operands: a < b
	elif kind == "signed":
		# d is wider: the wrap, if any, happened in the subtraction
		helper = wrapcmp_temp_prefix(w, (ta, tb)) + "_CMP_" + suffix
	elif kind == "unsigned" and (wd, w) in (("L", "32"), ("64", "L")):
		where = "64-bit" if wd == "L" else "32-bit"
		return None, ("WARNING: %s: d is wider than the unsigned difference on %s, where "
			      "it is never negative and d %s 0 %s; not rewritten%s" %
			      (shape, where, op, WRAPCMP_UNSIGNED_MEANING[suffix], tail)), confidence
	elif kind == "unsigned":
		return None, ("WARNING: %s %s: d is wider than the unsigned difference, so it is "
			      "never negative and the wrap test is dead; not rewritten%s" %
			      (shape, WRAPCMP_UNSIGNED_MEANING[suffix], tail)), confidence
	else:
		return None, ("WARNING: %s: the difference is signed on 64-bit and unsigned on "
			      "32-bit, and d is wider; not rewritten%s" % (shape, tail)), confidence
	what = "relies on wrapping" if kind == "unsigned" else "on signed operands can overflow"
	why = wrapcmp_cannot_patch(pc, pa, pb)
	if not why and wrapcmp_temp_other_use(pd, pc, d):
		why = "; not rewritten: d has another use"
	if not why and not (wrapcmp_key(pd) in wrapcmp_temp_next and wrapcmp_temp_is_condition(
			wrapcmp_temp_next[wrapcmp_key(pd)], pc, pz, op, d)):
		# \x27: an apostrophe, which spatch 1.1.1 can misread in the text of a rule
		why = "; not rewritten: the comparison is not the next statement\x27s condition"
	if not why and wrapcmp_key(pd) not in wrapcmp_temp_declared:
		why = "; not rewritten: d is not declared in the function"
	return None if why else helper, ("WARNING: %s %s: use %s()%s%s" %
					 (shape, what, helper, why, tail)), confidence
