#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove, with Z3, the C conversion facts that the wrapcmp rewrites rely on.

Run:    /usr/bin/python3 tests/prove_conversions.py
        (Debian's python3-z3; the python3 first on PATH may not see it.)
        tests/check-proof runs it after tests/prove_helpers.py.
Env:    TREE            Linux source tree for part 3 (default
                        /var/cache/wrapcmp/linux-source-6.1); absent is a FAIL.
        WRAPCMP_HEADER  the helper header (default include/linux/wrapcmp.h).
Output: one "PASS name: what was proved" or "FAIL name: why" line per fact
        (about 300 lines), then a "# N PASS, M FAIL in T s" line; exit status 1
        if any line is FAIL.  About 20 s on this machine (2 cores); the only
        other programs it runs are gcc -E (via prove_helpers.load) and
        gcc/i686-linux-gnu-gcc/clang -fsyntax-only on small probe files.

Operand types: _Bool, s8 (signed char), u8, s16 (short), u16, int,
unsigned int, long, unsigned long, long long, unsigned long long: 11 types,
every pair (a, b) of them, under LP64 (long is 64 bits) and ILP32 (long is
32 bits).  Plain char is signed char or unsigned char depending on the ABI;
both are in the list, so it is covered either way.

How C is modelled.  Every expression below is C text, parsed and evaluated
by prove_helpers.py's C semantics (prove_helpers.Parser and Sem), the same
code that proves the helpers; values are Z3 bit-vectors of the type's width
(1 bit for _Bool).  The rules it implements:
  - integer promotion: _Bool, char and short types become int;
  - usual arithmetic conversions (C11 6.3.1.8) pick the common type of a - b;
  - conversion to an unsigned type of N bits is reduction modulo 2^N
    (truncation, or zero/sign extension of the source by its signedness);
  - conversion to _Bool is "!= 0";
  - conversion of an out-of-range value to a signed type is
    implementation-defined (C11 6.3.1.3p3).  GCC ("Integers implementation")
    and clang define it as reduction modulo 2^N, and the model does that;
    every line that depends on it says so.  As a sanity check, gcc and clang
    are asked to constant-fold a few such conversions;
  - signed overflow in a - b is undefined: part 1 proves the identity both
    where a - b is defined and, for -fwrapv / -fno-strict-overflow (which
    the kernel uses), for all values with the difference wrapping.
The model's common type of a - b (width and signedness) is checked against
gcc (x86-64) and i686-linux-gnu-gcc for all 121 pairs.

What is proved (N is the width of the cast or helper, uN/sN the unsigned and
signed N-bit types):
  1. cast-width: for N in 8, 16, 32 and every pair of operand types:
       (sN)(a - b) == (sN)((uN)a - (uN)b)
     (i) for all a, b where a - b does not overflow, (ii) for all a, b with
     wrapping; the rewritten form itself never overflows.  Then, with the
     helper bodies read from the header, (sN)(a - b) OP 0 == UN_CMP_OP(a, b)
     for OP in <, <=, >, >= (U8, U16, U32, and UINT for int casts).
  2. wide: for N = 64 (s64) and N = width of long, the same identity holds
     (wrapping) for every pair whose common type is at least N bits, with
     (sN)(a - b) OP 0 == U64_CMP_OP / ULONG_CMP_OP(a, b).  A narrower pair
     gets its counterexample (a PASS "needed" line, saying whether it needs
     a - b to overflow), except the pairs whose operands are both narrower
     than int: their a - b is exact in int, so the identity holds for them
     too, and the program checks that they are exactly those pairs.  The
     _WIDE forms' condition sizeof((a) - (b)) >= bytes (8, sizeof(long)),
     read from their expansion, is checked to hold exactly when the common type is at
     least N bits (so it refuses every pair with a counterexample, and the
     exact-anyway pairs as well), in the model and by compiling
     U64/ULONG_CMP_LT_WIDE on every pair with both compilers.
  3. kernel: time_after/before[_eq][64] from include/linux/jiffies.h,
     before()/after() from include/net/tcp.h and before(), before_eq(),
     after(), after_eq() from net/rxrpc/ar-internal.h are read from the
     tree's text (typecheck() conjuncts or the parameters give the argument
     types), translated and proved equal to ULONG/U64/U32_CMP_LT/GE (tcp's
     before() to UINT_CMP_LT too), rxrpc's four to U32_CMP_LT/LE/GT/GE and
     UINT_CMP_LT/LE/GT/GE.  A helper is named by its header and name: tcp's
     after() is not rxrpc's.  time_after is not ULONG_CMP_GT and
     time_before_eq not ULONG_CMP_LE (same for the 64-bit forms and tcp's
     after()): they differ exactly at the half-way point (uN)(a - b) ==
     2^(N-1).
  4. drop-cast: for helper width N in 8, 16, 32, 64, int, long and every
     cast type T: (uN)((T)x) == (uN)x for x of every type when
     width(T) >= N; when width(T) < N a counterexample, and the list of
     types X for which it is still exact (exactly those whose values T holds).
     The helpers convert each argument to uN (checked from the header), so
     this is when HELPER((T)a, (T)b) may become HELPER(a, b).
  5. rcupdate (the kernel header only): rcupdate.h's old
     ULONG_CMP_LT(a, b) (ULONG_MAX / 2 < (a) - (b)) and ULONG_CMP_GE(a, b)
     (ULONG_MAX / 2 >= (a) - (b)), subtracting in the type of a - b, with
     -fno-strict-overflow (wrapping), equal the header's helpers of those
     names for all values of exactly the pairs where a - b is as wide as
     unsigned long or both operands are narrower than int; every other pair
     has a counterexample.  That set is the one the header's build-time
     condition of those two names accepts (read from their expansion by
     prove_helpers.analyse_macro, evaluated with the model's sizes), and the
     one gcc / i686-linux-gnu-gcc compile ULONG_CMP_LT/GE(a, b) for: they
     refuse the rest with the header's message.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import z3
except ImportError:
    print("FAIL z3: cannot import z3; run with /usr/bin/python3 (python3-z3)")
    sys.exit(1)

import prove_helpers as ph  # noqa: E402

ROOT = os.path.dirname(HERE)
MODELS = ("lp64", "ilp32")
MODEL_NAME = {"lp64": "LP64", "ilp32": "ILP32"}
OPS = ("LT", "LE", "GT", "GE")
OPSYM = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
IMPL = "implementation-defined, GCC and clang: modulo 2^%d"

# (label, C spelling)
TYPES = [
    ("_Bool", "_Bool"),
    ("s8", "signed char"),
    ("u8", "unsigned char"),
    ("s16", "short"),
    ("u16", "unsigned short"),
    ("int", "int"),
    ("unsigned int", "unsigned int"),
    ("long", "long"),
    ("unsigned long", "unsigned long"),
    ("long long", "long long"),
    ("unsigned long long", "unsigned long long"),
]
SPELL = dict(TYPES)
SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shim")
PAIRS = [(a, b) for a, _ in TYPES for b, _ in TYPES]

failures = 0
n_pass = 0


def report(ok, name, msg):
    global failures, n_pass
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg), flush=True)
    if ok:
        n_pass += 1
    else:
        failures += 1


def ctype(model, label):
    return ph.type_from_words(model, SPELL[label].split())


# ---------------------------------------------------------------- evaluation

class Env:
    """Z3 variables of given C types and evaluation of C text over them."""

    def __init__(self, model, types, typedefs=None, tag=""):
        self.model, self.typedefs = model, typedefs or {}
        self.vars = {}
        for name, t in types.items():
            self.vars[name] = (z3.BitVec("%s%s" % (name, tag), t.width), t)

    def sem(self):
        s = ph.Sem(self.model, {})
        s.env = dict(self.vars)
        return s

    def parse(self, text):
        return ph.Parser(ph.tokenize(text), self.model, self.typedefs, set(self.vars)).parse()

    def ev(self, text):
        """(value, type, ub list) of C expression text."""
        s = self.sem()
        v = s.ev(self.parse(text))
        return v[0], v[1], s.ub

    def truth(self, text):
        s = self.sem()
        v = s.ev(self.parse(text))
        return s.truth(v), s.ub

    def common(self, a, b):
        return self.sem().common(self.vars[a], self.vars[b])[2]

    def show(self, m, name):
        bv, t = self.vars[name]
        return show_val(m.eval(bv, model_completion=True).as_long(), t)


def show_val(v, t):
    if t.signed:
        if v >= 1 << (t.width - 1):
            v -= 1 << t.width
        return str(v)
    return str(v) if v < 10 else hex(v)


_SOLVER = []


def solve(*facts):
    """Model of facts, or None if unsatisfiable; raise on unknown.  One incremental
    QF_BV solver, each query in its own push/pop scope (several times faster than a
    fresh solver per query)."""
    if not _SOLVER:
        _SOLVER.append(z3.SolverFor("QF_BV"))
    s = _SOLVER[0]
    s.push()
    try:
        s.add(*facts)
        r = s.check()
        if r == z3.sat:
            return s.model()
        if r == z3.unsat:
            return None
        raise RuntimeError("z3 says %s" % r)
    finally:
        s.pop()


def split_ub(ub):
    """(signed-overflow conditions, implementation-defined conversion conditions)."""
    ovf, impl = [], []
    for desc, cond in ub:
        if desc.startswith("signed overflow"):
            ovf.append(cond)
        elif desc.startswith("implementation-defined conversion"):
            impl.append(cond)
        else:
            raise RuntimeError("unexpected guard: %s" % desc)
    return ovf, impl


def any_of(conds):
    return z3.Or(*conds) if conds else z3.BoolVal(False)


# ---------------------------------------------------------------- helpers

def load_helpers():
    """{model: {family: (param CType, N, ops)}}, {model: {name: prove_helpers.Macro}} and the
    header's path: the kernel header's one branch (include/wrapcmp.h: its checked one)."""
    hdr = os.environ.get("WRAPCMP_HEADER", "include/linux/wrapcmp.h")
    path = hdr if os.path.isabs(hdr) else os.path.join(ROOT, hdr)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        report(False, "helpers", "cannot read %s: %s" % (path, e))
        return None, None, None
    out, macros = {}, {}
    for model in MODELS:
        try:
            fams, macros[model] = ph.load(text, ph.main_branch(text, model))
        except ph.ParseError as e:
            report(False, "helpers/%s" % model, "cannot parse %s: %s" % (path, e))
            return None, None, None
        out[model] = {x: (pt, n, ops) for x, pt, n, ops in fams}
    return out, macros, path


def helper_truth(helpers, model, fam, op, args):
    """Z3 Bool: fam_CMP_op(args[0], args[1]); each argument converted to the parameter type."""
    pt, n, ops = helpers[model][fam]
    an, bn, ast, _ = ops[op]
    s = ph.Sem(model, {})
    s.env = {an: s.conv(args[0], pt), bn: s.conv(args[1], pt)}
    return s.truth(s.ev(ast))


# ---------------------------------------------------------------- part 1 and 2

CASTS = {
    # label: (N or None for long, signed spelling, unsigned spelling, helper families)
    "s8": (8, "signed char", "unsigned char", ("U8",)),
    "s16": (16, "short", "unsigned short", ("U16",)),
    "s32": (32, "int", "unsigned int", ("U32", "UINT")),
    "s64": (64, "long long", "unsigned long long", ("U64",)),
    "long": (None, "long", "unsigned long", ("ULONG",)),
}


def cast_width(model, label):
    n = CASTS[label][0]
    return n if n else ph.MODELS[model]["long"]


def identity(model, label, a_t, b_t):
    """Facts about (sN)(a - b) vs (sN)((uN)a - (uN)b) for one type pair."""
    n = cast_width(model, label)
    _, sc, uc, _ = CASTS[label]
    env = Env(model, {"a": ctype(model, a_t), "b": ctype(model, b_t)})
    lhs_text = "(%s)(a - b)" % sc
    rhs_text = "(%s)((%s)a - (%s)b)" % (sc, uc, uc)
    lhs, _, lub = env.ev(lhs_text)
    rhs, _, rub = env.ev(rhs_text)
    lovf, limpl = split_ub(lub)
    rovf, rimpl = split_ub(rub)
    res = {"env": env, "n": n, "common": env.common("a", "b")}
    m = solve(lhs != rhs)
    res["wrap"] = None if m is None else m
    if m is not None:
        res["cex"] = "a=%s, b=%s: (%s)(a - b) = %s, (%s)((u%d)a - (u%d)b) = %s" % (
            env.show(m, "a"), env.show(m, "b"), label, show_signed(m.eval(lhs).as_long(), n),
            label, n, n, show_signed(m.eval(rhs).as_long(), n))
    defined = z3.Not(any_of(lovf))
    res["defined"] = solve(defined, lhs != rhs)
    res["defined_nonvacuous"] = solve(defined) is not None
    res["overflow_possible"] = solve(any_of(lovf)) is not None
    res["rhs_ovf"] = solve(any_of(rovf))
    res["impl"] = solve(any_of(limpl + rimpl)) is not None
    return res


def show_signed(v, n):
    if v >= 1 << (n - 1):
        v -= 1 << n
    return str(v)


def cast_helper_mismatch(helpers, model, label, fam, env):
    """A model where (sN)(a - b) OP 0 differs from fam_CMP_OP(a, b), else None."""
    sc = CASTS[label][1]
    diffs = []
    for op in OPS:
        c, _ = env.truth("(%s)(a - b) %s 0" % (sc, OPSYM[op]))
        h = helper_truth(helpers, model, fam, op, (env.vars["a"], env.vars["b"]))
        diffs.append(c != h)
    m = solve(z3.Or(*diffs))
    if m is None:
        return None
    return "a=%s, b=%s" % (env.show(m, "a"), env.show(m, "b"))


def part1(helpers):
    for model in MODELS:
        for label in ("s8", "s16", "s32"):
            n, sc, uc, fams = CASTS[label]
            bad_w, bad_d, bad_r = [], [], []
            n_ovf = n_impl = 0
            envs = []
            for a_t, b_t in PAIRS:
                r = identity(model, label, a_t, b_t)
                envs.append(r["env"])
                pair = "(%s, %s)" % (a_t, b_t)
                if r["wrap"] is not None:
                    bad_w.append("%s %s" % (pair, r["cex"]))
                if r["defined"] is not None or not r["defined_nonvacuous"]:
                    bad_d.append(pair)
                if r["rhs_ovf"] is not None:
                    bad_r.append(pair)
                n_ovf += r["overflow_possible"]
                n_impl += r["impl"]
            name = "cast-width/%s/%s" % (model, label)
            what = "(%s)(a - b) == (%s)((%s)a - (%s)b)" % (label, label, "u%d" % n, "u%d" % n)
            report(not bad_d, name + "/defined",
                   "%s for all a, b with a - b defined (no signed overflow), all %d type pairs "
                   "of %d types (%s; a - b can overflow for %d pairs)" %
                   (what, len(PAIRS), len(TYPES), MODEL_NAME[model], n_ovf)
                   if not bad_d else "fails or vacuous for %s" % ", ".join(bad_d[:5]))
            report(not bad_w and not bad_r, name + "/wrapping",
                   "%s for all values of all %d type pairs, a - b wrapping (-fwrapv); "
                   "(u%d)a - (u%d)b never overflows; the conversion to %s is out of range for "
                   "some values in %d pairs (%s)" %
                   (what, len(PAIRS), n, n, label, n_impl, IMPL % n)
                   if not bad_w and not bad_r else
                   "counterexample %s" % "; ".join(bad_w[:3]) if bad_w else
                   "rewritten form overflows for %s" % ", ".join(bad_r[:5]))
            if helpers is None:
                continue
            for fam in fams:
                bad = []
                for env, (a_t, b_t) in zip(envs, PAIRS):
                    m = cast_helper_mismatch(helpers, model, label, fam, env)
                    if m:
                        bad.append("(%s, %s) %s" % (a_t, b_t, m))
                report(not bad, "cast-helper/%s/%s/%s" % (model, label, fam),
                       "(%s)(a - b) OP 0 == %s_CMP_OP(a, b) for OP in <, <=, >, >= (helper "
                       "read from the header), all values of all %d type pairs (%s)" %
                       (label, fam, len(PAIRS), MODEL_NAME[model])
                       if not bad else "differs: %s" % "; ".join(bad[:3]))


def wide_condition(macros, model):
    """{family: bytes}: what the header's U64_CMP_*_WIDE and ULONG_CMP_*_WIDE check
    sizeof((a) - (b)) against, read from their expansions (prove_helpers.analyse_macro)."""
    out = {}
    for fam in ("U64", "ULONG"):
        for op in OPS:
            m = macros[model].get("%s_CMP_%s_WIDE" % (fam, op))
            if m is None or m.wide_bytes is None:
                raise ph.ParseError("%s_CMP_%s_WIDE does not assert sizeof((a) - (b)) >= bytes"
                                    % (fam, op))
            if out.setdefault(fam, m.wide_bytes) != m.wide_bytes:
                raise ph.ParseError("%s _WIDE forms disagree on bytes" % fam)
    return out


def part2(helpers, hmacros, compiled):
    for model in MODELS:
        try:
            wbytes = wide_condition(hmacros, model) if hmacros else None
        except ph.ParseError as e:
            report(False, "wide/header/%s" % model, str(e))
            wbytes = None
        for label, fam in (("s64", "U64"), ("long", "ULONG")):
            n = cast_width(model, label)
            _, sc, uc, _ = CASTS[label]
            proved, needed, exact_anyway, bad = [], [], [], []
            for a_t, b_t in PAIRS:
                r = identity(model, label, a_t, b_t)
                ct = r["common"]
                pair = "(%s)(%s - %s)" % (label, a_t, b_t)
                if ct.width >= n:
                    if r["wrap"] is None and r["rhs_ovf"] is None:
                        proved.append((a_t, b_t, r["env"]))
                    else:
                        bad.append("%s: expected to hold (common type %s), counterexample %s"
                                   % (pair, ct, r.get("cex")))
                elif r["wrap"] is None:
                    exact_anyway.append((a_t, b_t))
                else:
                    needed.append((a_t, b_t))
                    how = ("only where a - b overflows %s (-fwrapv)" % ct if r["defined"] is None
                           else "also with a - b defined (%s wraps)" % ct)
                    report(True, "needed/%s/(%s)(%s-%s)" % (model, label, a_t.replace(" ", "_"),
                                                             b_t.replace(" ", "_")),
                           "a - b is %s, %d bits < %d: counterexample %s; they differ %s"
                           % (ct, ct.width, n, r["cex"], how))
            report(not bad, "wide/%s/%s" % (model, label),
                   "(%s)(a - b) == (%s)((u%d)a - (u%d)b) for all values (wrapping) of the %d type "
                   "pairs whose a - b is at least %d bits (%s; conversion %s); "
                   "counterexamples for %d narrower pairs (needed lines)" %
                   (label, label, n, n, len(proved), n, MODEL_NAME[model], IMPL % n, len(needed))
                   if not bad else "; ".join(bad[:3]))
            narrow_ops = {(a, b) for a, b in PAIRS
                          if ph.MODELS[model]["int"] < n and
                          ctype(model, a).rank < ph.RANKS["int"] and
                          ctype(model, b).rank < ph.RANKS["int"]}
            ok = set(exact_anyway) == narrow_ops
            if exact_anyway or not ok:
                report(ok, "wide-exact-anyway/%s/%s" % (model, label),
                       "(%s)(a - b) == (%s)((u%d)a - (u%d)b) also holds for all values of the %d "
                       "pairs whose a - b is only %d bits: exactly those where both operands are "
                       "narrower than int (%s), so a - b is computed exactly in int and never "
                       "wraps; the header's _WIDE forms refuse them all the same (conservative, "
                       "not unsound)" % (label, label, n, n, len(exact_anyway),
                                         ph.MODELS[model]["int"],
                                         ", ".join(t for t, _ in TYPES
                                                   if ctype(model, t).rank < ph.RANKS["int"]))
                       if ok else "the pairs where the identity holds although a - b is "
                       "narrower differ from those with both operands narrower than int on %s" %
                       sorted(set(exact_anyway) ^ narrow_ops)[:5])
            if helpers is not None:
                hb = []
                for a_t, b_t, env in proved:
                    m = cast_helper_mismatch(helpers, model, label, fam, env)
                    if m:
                        hb.append("(%s, %s) %s" % (a_t, b_t, m))
                report(not hb, "cast-helper/%s/%s/%s" % (model, label, fam),
                       "(%s)(a - b) OP 0 == %s_CMP_OP(a, b) for OP in <, <=, >, >=, all values of "
                       "those %d pairs (%s)" % (label, fam, len(proved), MODEL_NAME[model])
                       if not hb else "differs: %s" % "; ".join(hb[:3]))
            proved_set = {(a, b) for a, b, _ in proved}
            if wbytes:
                bts = wbytes[fam]
                accepted = set()
                for a_t, b_t in PAIRS:
                    e2 = Env(model, {"a": ctype(model, a_t), "b": ctype(model, b_t)})
                    if e2.common("a", "b").width // 8 >= bts:
                        accepted.add((a_t, b_t))
                diff = sorted(accepted ^ proved_set)
                report(not diff, "wide-sizeof/%s/%s_CMP_*_WIDE" % (model, fam),
                       "the header's sizeof((a) - (b)) >= %d (on %s) holds for exactly the %d "
                       "pairs whose a - b is at least %d bits, the condition proved above; it "
                       "refuses the %d others (%d needed, %d exact anyway)"
                       % (bts, MODEL_NAME[model], len(accepted), n,
                          len(PAIRS) - len(accepted), len(needed), len(exact_anyway))
                       if not diff else "condition and proof disagree on %s" % diff[:5])
            if compiled.get(model) is not None:
                cc, refused = compiled[model]
                got = {p for p in PAIRS if (fam, p) not in refused}
                diff = sorted(got ^ proved_set)
                report(not diff, "wide-compile/%s/%s_CMP_LT_WIDE" % (model, fam),
                       "%s compiles %s_CMP_LT_WIDE(a, b) from the header for exactly those %d "
                       "pairs and refuses the other %d at build time"
                       % (cc, fam, len(got), len(PAIRS) - len(got))
                       if not diff else "%s: compiled set and proved set differ on %s"
                       % (cc, diff[:5]))


# ---------------------------------------------------------------- compiler probes

def compilers():
    out = {"lp64": ("gcc", ["gcc"])}
    i686 = shutil.which("i686-linux-gnu-gcc")
    out["ilp32"] = ("i686-linux-gnu-gcc", [i686]) if i686 else ("gcc -m32", ["gcc", "-m32"])
    return out


def compile_probes(hpath):
    """Per model: (compiler, {(family, pair)} refused by _WIDE, and by the kernel header's
    ULONG_CMP_LT/GE as ("RCU", pair)); also checks the model's common types and the
    implementation-defined conversion samples.  The kernel header is compiled with
    tests/shim's <linux/types.h> and <linux/limits.h>."""
    with open(hpath) as f:
        kernel = ph.is_kernel_header(f.read())
    res = {}
    samples = [("(signed char)200", "-56"), ("(short)40000", "-25536"),
               ("(int)0x80000000u", "(-2147483647 - 1)"),
               ("(long long)0x8000000000000001ull", "(-9223372036854775807LL)"),
               ("(signed char)-129", "127"), ("(int)-1ull", "-1")]
    for model, (label, cc) in compilers().items():
        lines = ['#include "%s"' % hpath]
        for i, (a_t, b_t) in enumerate(PAIRS):
            e = Env(model, {"a": ctype(model, a_t), "b": ctype(model, b_t)})
            ct = e.common("a", "b")
            lines.append("_Static_assert(sizeof((%s)0 - (%s)0) == %d && "
                         "(((__typeof__((%s)0 - (%s)0))-1) < 0) == %d, \"wrapcmp-type %d\");"
                         % (SPELL[a_t], SPELL[b_t], ct.width // 8, SPELL[a_t], SPELL[b_t],
                            int(ct.signed), i))
            lines.append("void f_%d(%s a, %s b) { (void)U64_CMP_LT_WIDE(a, b); "
                         "(void)ULONG_CMP_LT_WIDE(a, b); }" % (i, SPELL[a_t], SPELL[b_t]))
            if kernel:
                lines.append("void f_%d_rcu(%s a, %s b) { (void)ULONG_CMP_LT(a, b); "
                             "(void)ULONG_CMP_GE(a, b); }" % (i, SPELL[a_t], SPELL[b_t]))
        for k, (e, v) in enumerate(samples):
            lines.append("_Static_assert(%s == %s, \"wrapcmp-impl %d\");" % (e, v, k))
        tmp = tempfile.mkdtemp(prefix="wrapcmp-conv.")
        try:
            path = os.path.join(tmp, "probe.c")
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            try:
                r = subprocess.run(cc + (["-I", SHIM] if kernel else []) +
                                   ["-std=gnu11", "-fsyntax-only", "-fmax-errors=0",
                                         "-fdiagnostics-plain-output", path],
                                   capture_output=True, text=True,
                                   env=dict(os.environ, LC_ALL="C"))
            except OSError as ex:
                report(False, "model/%s/compiler" % model, "cannot run %s: %s" % (label, ex))
                res[model] = None
                continue
            clang_ok = None
            if shutil.which("clang"):
                tgt = "x86_64-linux-gnu" if model == "lp64" else "i686-linux-gnu"
                src = "\n".join("_Static_assert(%s == %s, \"wrapcmp-impl %d\");" % (e, v, k)
                                for k, (e, v) in enumerate(samples)) + "\n"
                cpath = os.path.join(tmp, "impl.c")
                with open(cpath, "w") as f:
                    f.write(src)
                rc = subprocess.run(["clang", "--target=" + tgt, "-fsyntax-only", cpath],
                                    capture_output=True, text=True)
                clang_ok = rc.returncode == 0
        finally:
            shutil.rmtree(tmp)
        bad_types, refused, other, bad_impl = [], set(), [], []
        func = None
        for line in r.stderr.splitlines():
            m = re.search(r"In function '(f_\d+)(_rcu)?'", line)
            if m:
                func = int(m.group(1)[2:])
                continue
            if "error" not in line:
                continue
            m = re.search(r"wrapcmp-type (\d+)", line)
            if m:
                bad_types.append(PAIRS[int(m.group(1))])
                continue
            m = re.search(r"wrapcmp-impl (\d+)", line)
            if m:
                bad_impl.append(samples[int(m.group(1))][0])
                continue
            m = re.search(r'"(U64|ULONG)_CMP_LT_WIDE\(\): a - b is narrower', line)
            if m and func is not None:
                refused.add((m.group(1), PAIRS[func]))
                continue
            m = re.search(r'"ULONG_CMP_(LT|GE)\(\): a - b is (narrower|wider) than unsigned '
                          r'long: the rcupdate\.h macro of this name', line)
            if m and func is not None and kernel:
                refused.add(("RCU", PAIRS[func]))
                continue
            other.append(line)
        if other:
            report(False, "model/%s/compiler" % model, "%s: unexpected errors: %s"
                   % (label, " | ".join(other[:3])))
            res[model] = None
            continue
        report(not bad_types, "model/%s/common-type" % model,
               "the model's type of a - b (promotion, usual arithmetic conversions) matches "
               "%s's sizeof and signedness for all %d pairs" % (label, len(PAIRS))
               if not bad_types else "%s disagrees on %s" % (label, bad_types[:5]))
        report(not bad_impl and clang_ok is not False, "model/%s/impl-defined" % model,
               "%s%s constant-fold%s out-of-range conversions to signed types modulo 2^N as "
               "modelled (%d samples, e.g. (signed char)200 == -56); C leaves them "
               "implementation-defined" % (label, " and clang" if clang_ok else "",
                                            "" if clang_ok else "s", len(samples))
               if not bad_impl and clang_ok is not False else
               "not modulo 2^N: %s%s" % (bad_impl, "" if clang_ok is not False else
                                         " (clang disagrees)"))
        res[model] = (label, refused)
    return res


# ---------------------------------------------------------------- part 3

def tree_text(tree, rel):
    with open(os.path.join(tree, rel)) as f:
        return f.read()


def kernel_typedefs(tree):
    """Integer typedefs read from the tree: __s8..__u64, s8..u64, bool."""
    tds = {}
    for rel in ("include/uapi/asm-generic/int-ll64.h", "include/asm-generic/int-ll64.h",
                "include/linux/types.h"):
        for line in ph.logical_lines(tree_text(tree, rel)):
            m = re.match(r"\s*(?:__extension__\s+)?typedef\s+([\w\s]+?)\s+(\w+)\s*;\s*$", line)
            if not m:
                continue
            words = ["signed" if w == "__signed__" else w for w in m.group(1).split()]
            if all(w in ph.TYPE_WORDS or w in tds for w in words):
                tds.setdefault(m.group(2), words)
    for need in ("__u32", "__s32", "__u64", "__s64", "bool"):
        if need not in tds:
            raise ph.ParseError("typedef %s not found in the tree" % need)
    return tds


def c_tokens(text):
    return re.findall(r"\w+|&&|\|\||<<|>>|<=|>=|==|!=|\S", text)


def split_args(toks):
    """toks is '(' ... ')'; return list of token lists of the top-level arguments."""
    args, cur, depth = [], [], 0
    for t in toks[1:-1]:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        if t == "," and depth == 0:
            args.append(cur)
            cur = []
        else:
            cur.append(t)
    args.append(cur)
    return args


def call_extent(toks, i):
    """Index just past the parenthesised argument list starting at toks[i] == '('."""
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == "(":
            depth += 1
        elif toks[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    raise ph.ParseError("unbalanced parentheses")


def expand(toks, defines, keep, painted=frozenset()):
    """Expand function-like macros in toks (not those in keep), C-style rescanning."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if t in defines and t not in keep and t not in painted and i + 1 < len(toks) \
                and toks[i + 1] == "(":
            end = call_extent(toks, i + 1)
            args = [expand(a, defines, keep, painted) for a in split_args(toks[i + 1:end])]
            params, body = defines[t]
            if len(args) != len(params):
                raise ph.ParseError("%s takes %d arguments" % (t, len(params)))
            sub = dict(zip(params, args))
            body_t = []
            for bt in c_tokens(body):
                body_t.extend(sub.get(bt, [bt]))
            out.extend(expand(body_t, defines, keep, painted | {t}))
            i = end
        else:
            out.append(t)
            i += 1
    return out


def c_join(toks):
    """Tokens back to readable C text."""
    text = " ".join(toks)
    text = re.sub(r"\( ", "(", text)
    text = re.sub(r" \)", ")", text)
    text = re.sub(r" ,", ",", text)
    return text


def strip_outer(toks):
    while toks and toks[0] == "(" and call_extent(toks, 0) == len(toks):
        toks = toks[1:-1]
    return toks


def split_and(toks):
    parts, cur, depth = [], [], 0
    for t in toks:
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        if t == "&&" and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


TYPECHECK_H = "include/linux/typecheck.h"
JIFFIES_H = "include/linux/jiffies.h"
TCP_H = "include/net/tcp.h"
RXRPC_H = "net/rxrpc/ar-internal.h"
# the headers whose static inline helpers are read, and the helpers each must have
INLINE_HEADERS = {TCP_H: ("before",), RXRPC_H: ("before", "before_eq", "after", "after_eq")}


def read_kernel(tree):
    """Parse the kernel helpers: ({header: {macro name: (params, body)}}, {header: {inline
    name: (return type words, [(type words, name)], return expression)}}, {(header, name):
    "path:line"}); typecheck's line is where["typecheck"]."""
    texts = {rel: tree_text(tree, rel) for rel in (TYPECHECK_H, JIFFIES_H, TCP_H, RXRPC_H)}
    defines = {rel: {} for rel in texts}
    where = {}
    for rel in (TYPECHECK_H, JIFFIES_H, TCP_H):
        text = texts[rel]
        lineno = 0
        for line in ph.strip_comments(text).split("\n"):
            lineno += 1
            m = re.match(r"\s*#\s*define\s+(\w+)\(([^)]*)\)\s*(.*)", line)
            if m:
                body = m.group(3)
                k = lineno
                lines = ph.strip_comments(text).split("\n")
                while body.endswith("\\"):
                    body = body[:-1] + " " + lines[k]
                    k += 1
                defines[rel][m.group(1)] = ([p.strip() for p in m.group(2).split(",")],
                                            " ".join(body.split()))
                where[(rel, m.group(1))] = "%s:%d" % (rel, lineno)
    where["typecheck"] = where.get((TYPECHECK_H, "typecheck"), "?")
    tcd = defines[TYPECHECK_H].get("typecheck")
    if not tcd or not re.search(r"^\(\{.*;\s*1\s*;\s*\}\)$", tcd[1]):
        raise ph.ParseError("include/linux/typecheck.h: typecheck(type, x) is not "
                            "({ ...; 1; }): %s" % (tcd,))
    inl = {}
    for rel, need in INLINE_HEADERS.items():
        text = texts[rel]
        inl[rel] = {}
        flat = " ".join(ph.strip_comments(text).split())
        for m in re.finditer(r"static inline (\w+(?: \w+)*) (\w+)\s*\(([^()]*)\)\s*\{\s*"
                             r"return ([^;{}]*);\s*\}", flat):
            params = []
            for p in m.group(3).split(","):
                w = p.split()
                params.append((w[:-1], w[-1]))
            inl[rel][m.group(2)] = (m.group(1).split(), params, m.group(4).strip())
        for name in need:
            if name not in inl[rel]:
                raise ph.ParseError("%s: no 'static inline bool %s(...) { return ...; }'"
                                    % (rel, name))
        for name in inl[rel]:
            m = re.search(r"static\s+inline\s+[\w\s]*\b%s\s*\(" % name, text)
            where[(rel, name)] = "%s:%d" % (rel, text[:m.start()].count("\n") + 1 if m else 0)
    return defines, inl, where


def kernel_expr(key, defines, inl):
    """Expand name(a, b) of header (key (header, name)), with the macros of that header and
    typecheck(), and its own static inline functions: (typecheck list [(type words, var)],
    ("expr", comparison text) or ("call", inline name, argument texts))."""
    header, name = key
    macros = dict(defines.get(header, {}), typecheck=defines[TYPECHECK_H]["typecheck"])
    inl = inl.get(header, {})
    toks = expand([name, "(", "a", ",", "b", ")"], macros, {"typecheck"} | set(inl))
    toks = strip_outer(toks)
    if toks and toks[0] in inl:
        end = call_extent(toks, 1)
        if end != len(toks):
            raise ph.ParseError("%s: trailing tokens after the call" % name)
        return [], ("call", toks[0], [c_join(a) for a in split_args(toks[1:end])])
    checks, rest = [], []
    for part in split_and(toks):
        part = strip_outer(part)
        if part and part[0] == "typecheck":
            args = split_args(part[1:])
            if len(args) != 2 or len(args[1]) != 1 or call_extent(part, 1) != len(part):
                raise ph.ParseError("%s: odd typecheck %s" % (name, " ".join(part)))
            checks.append((args[0], args[1][0]))
        else:
            rest.append(c_join(["("] + part + [")"]))
    if not rest:
        raise ph.ParseError("%s: no comparison" % name)
    return checks, ("expr", " && ".join(rest))


KERNEL_CLAIMS = [
    # (header, name), helper family, op, swapped (helper(b, a))
    ((JIFFIES_H, "time_before"), "ULONG", "LT", False),
    ((JIFFIES_H, "time_after"), "ULONG", "LT", True),
    ((JIFFIES_H, "time_after_eq"), "ULONG", "GE", False),
    ((JIFFIES_H, "time_before_eq"), "ULONG", "GE", True),
    ((JIFFIES_H, "time_before64"), "U64", "LT", False),
    ((JIFFIES_H, "time_after64"), "U64", "LT", True),
    ((JIFFIES_H, "time_after_eq64"), "U64", "GE", False),
    ((JIFFIES_H, "time_before_eq64"), "U64", "GE", True),
    ((TCP_H, "before"), "U32", "LT", False),
    ((TCP_H, "before"), "UINT", "LT", False),
    ((TCP_H, "after"), "U32", "LT", True),
    # rxrpc's take u32 and compare (s32)(seq1 - seq2) with 0: one helper per operator
    ((RXRPC_H, "before"), "U32", "LT", False),
    ((RXRPC_H, "before_eq"), "U32", "LE", False),
    ((RXRPC_H, "after"), "U32", "GT", False),
    ((RXRPC_H, "after_eq"), "U32", "GE", False),
    ((RXRPC_H, "before"), "UINT", "LT", False),
    ((RXRPC_H, "before_eq"), "UINT", "LE", False),
    ((RXRPC_H, "after"), "UINT", "GT", False),
    ((RXRPC_H, "after_eq"), "UINT", "GE", False),
]
KERNEL_NOT = [
    ((JIFFIES_H, "time_after"), "ULONG", "GT"),
    ((JIFFIES_H, "time_before_eq"), "ULONG", "LE"),
    ((JIFFIES_H, "time_after64"), "U64", "GT"),
    ((JIFFIES_H, "time_before_eq64"), "U64", "LE"),
    ((TCP_H, "after"), "U32", "GT"),
]
# the argument type a helper of each family must take (typecheck() or its parameters),
# as the kernel spells it
KERNEL_TYPES = {"ULONG": ("unsigned long",), "U64": ("__u64",), "U32": ("__u32", "u32"),
                "UINT": ("__u32", "u32")}


def kernel_label(key):
    """The name of a helper in the PASS/FAIL lines: the name alone for jiffies.h and tcp.h
    (as before rxrpc's were read), rxrpc/NAME for net/rxrpc/ar-internal.h's."""
    header, name = key
    return "rxrpc/%s" % name if header == RXRPC_H else name


def kernel_eval(key, parsed, model, tds, arg_type_words):
    """(Env, Z3 Bool value of name(a, b) of header (key), uses implementation-defined
    conversion?)"""
    checks, body = parsed[key]
    t = ph.Parser([], model, tds, set()).resolve_type(arg_type_words)
    env = Env(model, {"a": t, "b": t}, tds)
    if body[0] == "expr":
        v, ub = env.truth(body[1])
    else:
        _, fname, args = body
        ret, params, rexpr = parsed["__inline__"][key[0]][fname]
        s = env.sem()
        vals = [s.ev(env.parse(a)) for a in args]
        penv = {}
        for (pw, pn), val in zip(params, vals):
            penv[pn] = s.conv(val, ph.Parser([], model, tds, set()).resolve_type(pw))
        s2 = ph.Sem(model, penv)
        res = s2.ev(ph.Parser(ph.tokenize(rexpr), model, tds, set(penv)).parse())
        rt = ph.Parser([], model, tds, set()).resolve_type(ret)
        res = s2.conv(res, rt)
        v, ub = s2.truth(res), s.ub + s2.ub
    ovf, impl = split_ub(ub)
    if ovf and solve(any_of(ovf)) is not None:
        raise ph.ParseError("%s: signed overflow possible" % kernel_label(key))
    return env, v, solve(any_of(impl)) is not None


def part3(helpers):
    tree = os.environ.get("TREE", "/var/cache/wrapcmp/linux-source-6.1")
    if not os.path.isdir(tree):
        report(False, "kernel/tree", "no kernel tree at %s (set TREE to a Linux 6.1 source "
               "tree); the kernel helpers cannot be read, so they are not proved" % tree)
        return
    try:
        defines, inl, where = read_kernel(tree)
        tds = kernel_typedefs(tree)
    except (OSError, ph.ParseError) as e:
        report(False, "kernel/parse", "cannot read the helpers from %s: %s" % (tree, e))
        return
    parsed = {"__inline__": inl}
    keys = sorted({c[0] for c in KERNEL_CLAIMS})
    for key in keys:
        header, name = key
        if name not in defines.get(header, {}) and name not in inl.get(header, {}):
            report(False, "kernel/%s" % kernel_label(key), "not defined in %s/%s"
                   % (tree, header))
            continue
        try:
            parsed[key] = kernel_expr(key, defines, inl)
        except ph.ParseError as e:
            report(False, "kernel/%s" % kernel_label(key), str(e))
    report(True, "kernel/typecheck", "%s defines typecheck(type, x) as ({ ...; 1; }): a build-time "
           "type check whose value is 1, so 'typecheck(..) && typecheck(..) && C' is C"
           % where["typecheck"])
    argtype = {}
    for key, fam, _, _ in KERNEL_CLAIMS:
        if key not in parsed or key in argtype:
            continue
        header, name = key
        checks, body = parsed[key]
        # the families claimed for this helper: they must agree on the argument type
        want = set.intersection(*[set(KERNEL_TYPES[f]) for k, f, _, _ in KERNEL_CLAIMS
                                  if k == key])
        label = "kernel/types/%s" % kernel_label(key)
        if body[0] == "call":
            ret, params, rexpr = inl[header][body[1]]
            types = {" ".join(pw) for pw, _ in params}
            ok = len(types) == 1 and types <= want
            if ok:
                argtype[key] = next(iter(types)).split()
            defs = defines.get(header, {})
            how = ("static inline %s %s(%s) { return %s; } (%s)" % (
                " ".join(ret), name, ", ".join("%s %s" % (" ".join(pw), pn) for pw, pn in params),
                rexpr, where.get(key, "?")) if name == body[1] else
                "#define %s(%s) %s (%s): %s(a, b) is %s(%s)" % (
                    name, ", ".join(defs[name][0]), defs[name][1], where.get(key, "?"),
                    name, body[1], ", ".join(body[2])))
            report(ok, label,
                   "%s; the parameters are %s, so a, b are %s" % (how, " and ".join(sorted(types)),
                                                                 " ".join(argtype[key]))
                   if ok else "parameters are %s, expected one of %s" % (sorted(types),
                                                                       sorted(want)))
            continue
        defs = defines[header]
        vs = {v: " ".join(tw) for tw, v in checks}
        ok = sorted(vs) == ["a", "b"] and len(set(vs.values())) == 1 and set(vs.values()) <= want
        if ok:
            argtype[key] = vs["a"].split()
        report(ok, label,
               "#define %s(%s) %s (%s): typecheck()s a and b as %s; compares %s"
               % (name, ", ".join(defs[name][0]),
                  defs[name][1] if len(defs[name][1]) < 40 else "...",
                  where.get(key, "?"), vs["a"], body[1])
               if ok else "typecheck()s %s, expected both a and b as one of %s"
               % (vs, sorted(want)))
    if helpers is None:
        return
    for key, fam, op, swapped in KERNEL_CLAIMS:
        if key not in argtype:
            continue
        label = kernel_label(key) + ("/" + fam if fam == "UINT" else "")
        for model in MODELS:
            try:
                env, kv, impl = kernel_eval(key, parsed, model, tds, argtype[key])
            except ph.ParseError as e:
                report(False, "kernel/%s/%s" % (model, label), str(e))
                continue
            args = (env.vars["b"], env.vars["a"]) if swapped else (env.vars["a"], env.vars["b"])
            hv = helper_truth(helpers, model, fam, op, args)
            m = solve(kv != hv)
            call = "%s_CMP_%s(%s)" % (fam, op, "b, a" if swapped else "a, b")
            t = env.vars["a"][1]
            report(m is None, "kernel/%s/%s" % (model, label),
                   "%s(a, b) of %s == %s for all %s a, b (%d bits, %s)%s"
                   % (key[1], key[0], call, " ".join(argtype[key]), t.width, MODEL_NAME[model],
                      "; the kernel form relies on a conversion that is " + IMPL % t.width
                      if impl else "")
                   if m is None else "differs at a=%s, b=%s" % (env.show(m, "a"), env.show(m, "b")))
    for key, fam, op in KERNEL_NOT:
        if key not in argtype:
            continue
        name = key[1]
        for model in MODELS:
            try:
                env, kv, _ = kernel_eval(key, parsed, model, tds, argtype[key])
            except ph.ParseError as e:
                report(False, "kernel-not/%s/%s" % (model, kernel_label(key)), str(e))
                continue
            a, b = env.vars["a"], env.vars["b"]
            n = a[1].width
            hv = helper_truth(helpers, model, fam, op, (a, b))
            m = solve(kv != hv)
            half = (a[0] - b[0]) == z3.BitVecVal(1 << (n - 1), n)
            exactly = solve(z3.Not((kv != hv) == half))
            if m is None or exactly is not None:
                report(False, "kernel-not/%s/%s" % (model, kernel_label(key)),
                       "expected %s(a, b) of %s and %s_CMP_%s(a, b) to differ exactly at "
                       "a - b == 2^%d" % (name, key[0], fam, op, n - 1))
                continue
            report(True, "kernel-not/%s/%s" % (model, kernel_label(key)),
                   "%s(a, b) of %s is not %s_CMP_%s(a, b): counterexample a=%s, b=%s (%s gives "
                   "%d, the helper %d); they differ exactly where (u%d)(a - b) == 2^%d (%s), so "
                   "%s sites have no existing kernel helper there"
                   % (name, key[0], fam, op, env.show(m, "a"), env.show(m, "b"), name,
                      int(z3.is_true(m.eval(kv, model_completion=True))),
                      int(z3.is_true(m.eval(hv, model_completion=True))), n, n - 1,
                      MODEL_NAME[model], op))


# ---------------------------------------------------------------- part 4

HELPER_N = [("8", "U8"), ("16", "U16"), ("32", "U32"), ("64", "U64"), ("int", "UINT"),
            ("long", "ULONG")]
USPELL = {8: "unsigned char", 16: "unsigned short", 32: "unsigned int",
          64: "unsigned long long"}


def fits(model, x_t, t_t):
    """Does type t hold every value of type x?"""
    x, t = ctype(model, x_t), ctype(model, t_t)

    def rng(c):
        if c.name == "_Bool":
            return 0, 1
        if c.signed:
            return -(1 << (c.width - 1)), (1 << (c.width - 1)) - 1
        return 0, (1 << c.width) - 1
    (xl, xh), (tl, th) = rng(x), rng(t)
    return tl <= xl and xh <= th


def part4(helpers):
    results = {}
    for model in MODELS:
        for nlabel, fam in HELPER_N:
            n = ph.family_width(model, fam)
            uspell = "unsigned long" if nlabel == "long" else \
                "unsigned int" if nlabel == "int" else USPELL[n]
            if helpers is not None:
                pt = helpers[model][fam][0]
                if pt.signed or pt.width != n:
                    report(False, "drop-cast/%s/N=%s" % (model, nlabel),
                           "%s's parameter type %s is not u%d" % (fam, pt, n))
            for t_lab, t_sp in TYPES:
                tt = ctype(model, t_lab)
                exact, cex, impl = [], None, False
                for x_lab, _ in TYPES:
                    env = Env(model, {"x": ctype(model, x_lab)})
                    lhs, _, ub = env.ev("(%s)((%s)x)" % (uspell, t_sp))
                    rhs, _, _ = env.ev("(%s)x" % uspell)
                    _, im = split_ub(ub)
                    impl = impl or solve(any_of(im)) is not None
                    m = solve(lhs != rhs)
                    if m is None:
                        exact.append(x_lab)
                    elif cex is None:
                        cex = "x of type %s x=%s: (u%d)((%s)x) = %s, (u%d)x = %s" % (
                            x_lab, env.show(m, "x"), n, t_lab,
                            hex(m.eval(lhs).as_long()), n, hex(m.eval(rhs).as_long()))
                ok_fit = {x for x, _ in TYPES if fits(model, x, t_lab)}
                results[(nlabel, t_lab, model)] = (n, tt.width, exact, cex, impl, ok_fit)
    for nlabel, fam in HELPER_N:
        for t_lab, _ in TYPES:
            per = {m: results[(nlabel, t_lab, m)] for m in MODELS}
            sig = {m: (r[0], r[1], tuple(r[2])) for m, r in per.items()}
            groups = [list(MODELS)] if sig["lp64"] == sig["ilp32"] else [[m] for m in MODELS]
            for g in groups:
                n, tw, exact, cex, impl, ok_fit = per[g[0]]
                mlab = "+".join(g)
                name = "drop-cast/%s/N=%s/T=%s" % (mlab, nlabel, t_lab.replace(" ", "_"))
                models = " and ".join(MODEL_NAME[m] for m in g)
                if tw >= n:
                    ok = len(exact) == len(TYPES)
                    report(ok, name,
                           "(u%d)((%s)x) == (u%d)x for x of all %d integer types (%s; %s is "
                           "%d bits >= %d)%s: the cast may be dropped inside %s_CMP_*()"
                           % (n, t_lab, n, len(TYPES), models, t_lab, tw, n,
                              "; (%s)x out of range is %s" % (t_lab, IMPL % tw)
                              if impl else "", fam)
                           if ok else "expected to hold for all x, fails: %s" % cex)
                else:
                    ok = cex is not None and set(exact) == ok_fit
                    report(ok, name,
                           "needed: %s is %s < %d, counterexample %s; exact only for x of the "
                           "types whose every value %s holds: %s (%s)"
                           % (t_lab, "1 bit (conversion is x != 0)" if t_lab == "_Bool" else
                              "%d bits" % tw, n, cex, t_lab, ", ".join(exact), models)
                           if ok else "expected a counterexample and exactness only for types "
                           "that %s holds (%s), got exact for %s" %
                           (t_lab, sorted(ok_fit), exact))


# ---------------------------------------------------------------- main

# ---------------------------------------------------------------- part 5

RCU_OLD = {"LT": "(~0UL) / 2 < a - b", "GE": "(~0UL) / 2 >= a - b"}


def rcu_condition(hmacros, model):
    """The pairs the kernel header's ULONG_CMP_LT/GE accept, from the checks found in their
    expansion by prove_helpers.analyse_macro: sizeof((a) - (b)) >= sizeof(unsigned long) ||
    (sizeof(a) < sizeof(int) && sizeof(b) < sizeof(int)), and sizeof((a) - (b)) <=
    sizeof(unsigned long), with the model's sizes (in bytes; _Bool is 1)."""
    found = {hmacros[model]["ULONG_CMP_%s" % op].rcu for op in ("LT", "GE")}
    if len(found) != 1 or not any(next(iter(found))):
        raise ph.ParseError("ULONG_CMP_LT/GE have no checks of rcupdate.h's callers, or differ")
    narrow, wide = found.pop()

    def size(t):
        return max(t.width, 8) // 8

    out = set()
    for a_t, b_t in PAIRS:
        e = Env(model, {"a": ctype(model, a_t), "b": ctype(model, b_t)})
        d = size(e.common("a", "b"))
        lng, i = ph.MODELS[model]["long"] // 8, ph.MODELS[model]["int"] // 8
        sa, sb = size(ctype(model, a_t)), size(ctype(model, b_t))
        if (not narrow or d >= lng or (sa < i and sb < i)) and (not wide or d <= lng):
            out.add((a_t, b_t))
    return out


def part5(helpers, hmacros, compiled, hpath):
    with open(hpath) as f:
        if not ph.is_kernel_header(f.read()):
            return
    for model in MODELS:
        exact, differ = set(), []
        for a_t, b_t in PAIRS:
            env = Env(model, {"a": ctype(model, a_t), "b": ctype(model, b_t)})
            diffs = []
            for op in ("LT", "GE"):
                old, _ = env.truth(RCU_OLD[op])     # the ub list: -fno-strict-overflow wraps
                new = helper_truth(helpers, model, "ULONG", op, (env.vars["a"], env.vars["b"]))
                diffs.append(old != new)
            m = solve(z3.Or(*diffs))
            if m is None:
                exact.add((a_t, b_t))
            else:
                differ.append("(%s, %s) at a=%s, b=%s" % (a_t, b_t, env.show(m, "a"),
                                                          env.show(m, "b")))
        want = {(a, b) for a, b in PAIRS
                if Env(model, {"a": ctype(model, a), "b": ctype(model, b)}).common(
                    "a", "b").width == ph.MODELS[model]["long"] or
                (ctype(model, a).rank < ph.RANKS["int"] and
                 ctype(model, b).rank < ph.RANKS["int"])}
        report(exact == want, "rcupdate/%s/exact" % model,
               "rcupdate.h's ULONG_CMP_LT/GE (subtracting in the type of a - b, wrapping) == "
               "the header's, for all values, for exactly the %d pairs whose a - b is as wide "
               "as unsigned long or whose operands are both narrower than int (%s); the %d "
               "others have counterexamples, e.g. %s"
               % (len(exact), MODEL_NAME[model], len(differ), "; ".join(differ[:2]))
               if exact == want else "exact pairs and the stated condition differ on %s"
               % sorted(exact ^ want)[:5])
        try:
            accepted = rcu_condition(hmacros, model)
        except ph.ParseError as e:
            report(False, "rcupdate/%s/header" % model, str(e))
            continue
        diff = sorted(accepted ^ exact)
        report(not diff, "rcupdate/%s/header-condition" % model,
               "the header's build-time condition of ULONG_CMP_LT/GE accepts exactly those %d "
               "pairs and refuses the %d others (%s)" % (len(accepted), len(PAIRS) - len(accepted),
                                                         MODEL_NAME[model])
               if not diff else "condition and proof disagree on %s" % diff[:5])
        if compiled.get(model) is not None:
            cc, refused = compiled[model]
            got = {p for p in PAIRS if ("RCU", p) not in refused}
            diff = sorted(got ^ exact)
            report(not diff, "rcupdate/%s/compile" % model,
                   "%s compiles ULONG_CMP_LT/GE(a, b) from the header for exactly those %d pairs "
                   "and refuses the other %d with the header's message"
                   % (cc, len(got), len(PAIRS) - len(got))
                   if not diff else "%s: compiled set and proved set differ on %s" % (cc, diff[:5]))


def main():
    start = time.time()
    helpers, hmacros, hpath = load_helpers()
    compiled = compile_probes(hpath) if hpath else {}
    try:
        part1(helpers)
        part2(helpers, hmacros, compiled)
        part3(helpers)
        part4(helpers)
        if helpers is not None:
            part5(helpers, hmacros, compiled, hpath)
    except RuntimeError as e:
        report(False, "z3", str(e))
    print("# %d PASS, %d FAIL in %.1f s" % (n_pass, failures, time.time() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
