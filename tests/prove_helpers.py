#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove the wrapcmp helpers with Z3, from the header's own text.

The header (WRAPCMP_HEADER, default include/linux/wrapcmp.h; the hosted
include/wrapcmp.h works the same way) is run through the C preprocessor as
a compiler sees it, one branch at a time:
  include/linux/wrapcmp.h  kernel-lp64 and kernel-ilp32 (-D__KERNEL__
                           -nostdinc, with a <linux/types.h> and
                           <linux/limits.h> that hold the kernel's u8..u64
                           typedefs and MAX macros; the header has no other
                           branch: it includes those two unconditionally);
  include/wrapcmp.h        checked-lp64, checked-ilp32 (gcc: WRAPCMP_CHECKED
                           is 1) and unchecked-lp64, unchecked-ilp32
                           (-DWRAPCMP_CHECKED=0, the plain C99 forms).
Every static inline function of the expanded header is read: a body of
declarations, `(void)__builtin_sub_overflow(x, y, &d);` (x - y computed
exactly, stored modulo 2^N in d: no overflow, no sanitizer) and one return.
Each expression is typed with C's rules (integer promotion, usual
arithmetic conversions, literal types, conversion of a call's arguments to
the parameter types) and translated to Z3 bit-vectors.

Each public macro X_CMP_OP(x, y) (and X_CMP_OP_WIDE) is expanded too.  Its
expansion, outside sizeof(), must be one call of a function of the header
with each of x and y exactly once, converted by an explicit cast to the
parameter type where the branch is checked (so that -fsanitize=
implicit-conversion has nothing to report) and given as it is otherwise.
In a checked branch the sizeof() part must test __builtin_classify_type() of
both arguments (and, for _WIDE, sizeof((x) - (y)) against the width).  The
kernel header's ULONG_CMP_LT and ULONG_CMP_GE, and no other macro, must also
check what makes them compute what rcupdate.h's macros of those names did:
sizeof((x) - (y)) >= sizeof(unsigned long) || (sizeof(x) < sizeof(int) &&
sizeof(y) < sizeof(int)), and sizeof((x) - (y)) <= sizeof(unsigned long)
(tests/prove_conversions.py proves that this holds for exactly the argument
types where they do).

For every family X, width N (from X: U8 8, U16 16, U32 32, U64 64, UINT int,
ULONG long) and OP, it proves for all 64-bit inputs x, y (any integer
argument reaches the helper as a conversion to T, which 64 bits cover):

    X_CMP_OP(x, y) == ((sN)((uN)x - (uN)y) OP 0)

and that no signed overflow, division by zero, bad shift, out-of-range
conversion to a signed type or read of an unset variable happens on the
way.  It then shows that the tempting wrong forms have counterexamples.

Run with /usr/bin/python3 (Debian's python3-z3).

Usage: prove_helpers.py                      all proofs, PASS/FAIL lines
       prove_helpers.py --expr EXPR --family X --op OP [--model lp64|ilp32]
                                             prove one candidate return
                                             expression in a, b, T, MAX (it
                                             may call the header's functions)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import z3
except ImportError:
    print("FAIL z3: cannot import z3; run with /usr/bin/python3 (python3-z3)")
    sys.exit(1)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OPS = ("LT", "LE", "GT", "GE")
OPSYM = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">="}

failures = 0


def report(ok, name, msg):
    global failures
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg), flush=True)
    if not ok:
        failures += 1


class ParseError(Exception):
    pass


# ---------------------------------------------------------------- C types

class CType:
    def __init__(self, name, width, signed, rank):
        self.name, self.width, self.signed, self.rank = name, width, signed, rank

    def __eq__(self, other):
        return isinstance(other, CType) and (self.width, self.signed, self.rank) == \
            (other.width, other.signed, other.rank)

    def __hash__(self):
        return hash((self.width, self.signed, self.rank))

    def __repr__(self):
        return self.name


MODELS = {
    "lp64": {"char": 8, "short": 16, "int": 32, "long": 64, "long long": 64},
    "ilp32": {"char": 8, "short": 16, "int": 32, "long": 32, "long long": 64},
}
RANKS = {"_Bool": 0, "char": 1, "short": 2, "int": 3, "long": 4, "long long": 5}


def make_type(model, base, signed):
    width = 1 if base == "_Bool" else MODELS[model][base]
    name = ("" if signed else "unsigned ") + base
    if base == "_Bool":
        name, signed = "_Bool", False
    return CType(name, width, signed, RANKS[base])


TYPE_WORDS = {"unsigned", "signed", "char", "short", "int", "long", "_Bool"}


def type_from_words(model, words):
    """Canonical type from specifier words such as 'unsigned long int'."""
    words = [w for w in words if w not in ("const", "volatile", "__extension__")]
    if any(w not in TYPE_WORDS for w in words) or not words:
        raise ParseError("not a basic integer type: %s" % " ".join(words))
    signed = "unsigned" not in words
    n_long = words.count("long")
    if "_Bool" in words:
        base = "_Bool"
    elif "char" in words:
        base = "char"       # plain char is signed on x86, aarch64 differs; not used
    elif "short" in words:
        base = "short"
    elif n_long == 2:
        base = "long long"
    elif n_long == 1:
        base = "long"
    else:
        base = "int"
    return make_type(model, base, signed)


# ---------------------------------------------------------------- header

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: " " + "\n" * m.group(0).count("\n"), text,
                  flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def logical_lines(text):
    return strip_comments(text).replace("\\\n", " ").split("\n")


PROBE_X, PROBE_Y = "wrapcmp_probe_x", "wrapcmp_probe_y"

KERNEL_TYPES_H = """
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
"""

KERNEL_LIMITS_H = """
#define UINT_MAX	(~0U)
#define ULONG_MAX	(~0UL)
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
"""


class Branch:
    """One way a compiler sees the header: label, model, preprocessor command, and
    whether the helpers must check their arguments (guards, explicit casts)."""

    def __init__(self, label, model, cpp, kernel, checked):
        self.label, self.model, self.cpp = label, model, cpp
        self.kernel, self.checked = kernel, checked


def is_kernel_header(text):
    """The kernel's header includes <linux/types.h>; the hosted one <stdint.h>."""
    return re.search(r"^\s*#\s*include\s*<linux/types\.h>", text, re.M) is not None


def branches(text):
    i686 = shutil.which("i686-linux-gnu-gcc")
    ilp32 = [i686] if i686 else ["gcc", "-m32"]
    if is_kernel_header(text):
        return [Branch("kernel-lp64", "lp64", ["gcc", "-nostdinc", "-D__KERNEL__"], True, True),
                Branch("kernel-ilp32", "ilp32", ["gcc", "-nostdinc", "-D__KERNEL__"], True,
                       True)]
    return [Branch("checked-lp64", "lp64", ["gcc"], False, True),
            Branch("checked-ilp32", "ilp32", ilp32, False, True),
            Branch("unchecked-lp64", "lp64", ["gcc", "-DWRAPCMP_CHECKED=0"], False, False),
            Branch("unchecked-ilp32", "ilp32", ilp32 + ["-DWRAPCMP_CHECKED=0"], False, False)]


def main_branch(text, model):
    """The branch that code built with the header's own compiler uses: the kernel one
    of the kernel header, the checked one of the hosted header."""
    want = ("kernel-" if is_kernel_header(text) else "checked-") + model
    return next(b for b in branches(text) if b.label == want)


def public_names():
    names = ["%s_CMP_%s" % (x, op) for x in FAMILIES for op in OPS]
    return names + ["%s_CMP_%s_WIDE" % (x, op) for x in ("U64", "ULONG") for op in OPS]


def preprocess(text, branch, items):
    """The header's expansion (everything before the items) and each item's expansion."""
    tmpdir = tempfile.mkdtemp(prefix="wrapcmp-prove.")
    try:
        hdr = os.path.join(tmpdir, "wrapcmp_under_test.h")
        with open(hdr, "w") as f:
            f.write(text)
        inc = os.path.join(tmpdir, "inc")
        os.makedirs(os.path.join(inc, "linux"))
        with open(os.path.join(inc, "linux", "types.h"), "w") as f:
            f.write(KERNEL_TYPES_H)
        with open(os.path.join(inc, "linux", "limits.h"), "w") as f:
            f.write(KERNEL_LIMITS_H)
        src = ['#include "%s"' % hdr, "@@HEADER-END@@"]
        for i, t in enumerate(items):
            src.append("@@%d@@ %s @@END@@" % (i, t))
        path = os.path.join(tmpdir, "probe.c")
        with open(path, "w") as f:
            f.write("\n".join(src) + "\n")
        cmd = branch.cpp + ["-E", "-P", "-I", inc, path]
        r = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        shutil.rmtree(tmpdir)
    if r.returncode:
        raise ParseError("%s failed: %s" % (" ".join(cmd), r.stderr.strip()[:500]))
    head, sep, rest = r.stdout.partition("@@HEADER-END@@")
    if not sep:
        raise ParseError("preprocessor output has no end of the header")
    res = []
    for i in range(len(items)):
        m = re.search(r"@@%d@@(.*?)@@END@@" % i, rest, re.S)
        if not m:
            raise ParseError("preprocessor lost item %d" % i)
        res.append(" ".join(m.group(1).split()))
    return head, res


def typedefs_of(text):
    out = {}
    for m in re.finditer(r"typedef\s+([\w\s]+?)\s+(\w+)\s*;", text):
        out[m.group(2)] = m.group(1).split()
    return out


class Func:
    """A static inline function of the header: ret CType, params [(name, CType)],
    stmts [("decl", CType, name, init AST or None) | ("subov", x AST, y AST, name) |
    ("return", AST)], and the text of its body."""

    def __init__(self, name, ret, params, stmts, text):
        self.name, self.ret, self.params, self.stmts, self.text = name, ret, params, stmts, text

    def returned(self):
        return next(s[1] for s in self.stmts if s[0] == "return")


FUNC_RE = re.compile(r"\bstatic\s+(?:__inline__|__inline|inline)\s+([A-Za-z_][\w\s]*?)\s*"
                     r"\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*\{([^{}]*)\}", re.S)


def split_top(toks, sep):
    """toks split at the sep tokens that are not inside parentheses."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t == ("op", "("):
            depth += 1
        elif t == ("op", ")"):
            depth -= 1
        if depth == 0 and t == ("op", sep):
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def parse_functions(head, model, typedefs):
    funcs = {}
    for m in FUNC_RE.finditer(head):
        ret_words, name, ptext, body = m.groups()
        p = Parser([], model, typedefs, set())
        ret = p.resolve_type(ret_words.split())
        params = []
        for ps in ptext.split(","):
            words = ps.split()
            if len(words) < 2:
                raise ParseError("%s(): parameter %r has no name" % (name, ps.strip()))
            params.append((words[-1], p.resolve_type(words[:-1])))
        scope = {n for n, _ in params}
        stmts = []
        for st in split_top(tokenize(body), ";"):
            if not st:
                continue
            if st[0] == ("id", "return"):
                stmts.append(("return", Parser(st[1:], model, typedefs, set(scope),
                                               funcs).parse()))
                continue
            core = st[3:] if st[:3] == [("op", "("), ("id", "void"), ("op", ")")] else st
            if core[:2] == [("id", "__builtin_sub_overflow"), ("op", "(")] and \
                    core[-1] == ("op", ")"):
                args = split_top(core[2:-1], ",")
                if len(args) != 3 or len(args[2]) != 2 or args[2][0] != ("op", "&") or \
                        args[2][1][1] not in scope:
                    raise ParseError("%s(): __builtin_sub_overflow(x, y, &local) expected: %s"
                                     % (name, " ".join(t[1] for t in st)))
                xa, ya = (Parser(a, model, typedefs, set(scope), funcs).parse() for a in args[:2])
                stmts.append(("subov", xa, ya, args[2][1][1]))
                continue
            k = 0
            p = Parser(st, model, typedefs, set(scope), funcs)
            while k < len(st) and p.is_type_word(st[k]):
                k += 1
            if k and k < len(st) and st[k][0] == "id":
                t = p.resolve_type([w for _, w in st[:k]])
                init = None
                if len(st) > k + 1:
                    if st[k + 1] != ("op", "="):
                        raise ParseError("%s(): declaration not understood: %s"
                                         % (name, " ".join(w for _, w in st)))
                    init = Parser(st[k + 2:], model, typedefs, set(scope), funcs).parse()
                stmts.append(("decl", t, st[k][1], init))
                scope.add(st[k][1])
                continue
            raise ParseError("%s(): statement not understood: %s"
                             % (name, " ".join(w for _, w in st)))
        if sum(1 for s in stmts if s[0] == "return") != 1 or stmts[-1][0] != "return":
            raise ParseError("%s(): expected one return, at the end" % name)
        if name in funcs:
            raise ParseError("%s() defined twice" % name)
        funcs[name] = Func(name, ret, params, stmts, " ".join(body.split()))
    return funcs


def remove_sizeof(toks):
    """(toks without the sizeof (...) groups, [the groups' tokens])."""
    out, groups, i = [], [], 0
    while i < len(toks):
        if toks[i] == ("id", "sizeof") and i + 1 < len(toks) and toks[i + 1] == ("op", "("):
            depth, j = 0, i + 1
            while j < len(toks):
                depth += {"(": 1, ")": -1}.get(toks[j][1], 0) if toks[j][0] == "op" else 0
                if depth == 0:
                    break
                j += 1
            groups.append(toks[i:j + 1])
            i = j + 1
        else:
            out.append(toks[i])
            i += 1
    return out, groups


def tokens_text(toks):
    return " ".join(t[1] for t in toks)


class Macro:
    """One public macro's expansion: the call it makes (AST over PROBE_X, PROBE_Y), the
    function called, how the arguments are passed, and what its build-time checks test."""

    def __init__(self, name, text, call, fn, explicit, checks, wide_bytes, msg_ok, rcu):
        self.name, self.text, self.call, self.fn = name, text, call, fn
        self.explicit, self.checks, self.wide_bytes, self.msg_ok = explicit, checks, wide_bytes, \
            msg_ok
        self.rcu = rcu          # the checks of rcupdate.h's two names: (narrow, wide) found


def analyse_macro(name, text, model, typedefs, funcs):
    toks = tokenize(text)
    rest, groups = remove_sizeof(toks)
    calls = [k for k in range(len(rest) - 1)
             if rest[k][0] == "id" and rest[k][1] in funcs and rest[k + 1] == ("op", "(")]
    if len(calls) != 1:
        raise ParseError("%s: expands to %d calls of the header's functions, not 1: %s"
                         % (name, len(calls), text[:300]))
    k = calls[0]
    depth, j = 0, k + 1
    while j < len(rest):
        depth += {"(": 1, ")": -1}.get(rest[j][1], 0) if rest[j][0] == "op" else 0
        if depth == 0:
            break
        j += 1
    call_toks, outside = rest[k:j + 1], rest[:k] + rest[j + 1:]
    extra = [t for t in outside if t not in (("op", "("), ("op", ")"), ("op", ","),
                                              ("id", "void"), ("id", "__extension__"))]
    if extra:
        raise ParseError("%s: evaluates more than the call: %s" % (name, tokens_text(extra)))
    for v in (PROBE_X, PROBE_Y):
        n = sum(1 for t in call_toks if t == ("id", v))
        if n != 1:
            raise ParseError("%s: evaluates an argument %d times: %s" % (name, n, text[:300]))
    fn = funcs[rest[k][1]]
    call = Parser(call_toks, model, typedefs, {PROBE_X, PROBE_Y}, funcs).parse()
    args = call[2]
    if len(args) != 2 or len(fn.params) != 2:
        raise ParseError("%s: calls %s() with %d arguments" % (name, fn.name, len(args)))
    kinds = []
    for a, v, (_, pt) in zip(args, (PROBE_X, PROBE_Y), fn.params):
        if a == ("var", v):
            kinds.append(False)
        elif a[0] == "cast" and a[1] == pt and a[2] == ("var", v):
            kinds.append(True)
        else:
            raise ParseError("%s: argument %s is passed as %r, neither as it is nor cast to %s"
                             % (name, v, a, pt))
    if kinds[0] != kinds[1]:
        raise ParseError("%s: one argument is cast, the other is not" % name)
    unevaluated = " ".join(tokens_text(g) for g in groups)
    checks = []
    for v in (PROBE_X, PROBE_Y):
        want = ("__builtin_classify_type ( %s ) >= 1 && __builtin_classify_type ( %s ) <= 4"
                % (v, v))
        if want in unevaluated:
            checks.append("int-" + v)
    # rcupdate.h's ULONG_CMP_LT/GE: a - b exactly unsigned long wide, or both narrower
    # than int.  Taken out before the _WIDE condition is looked for.
    diff = r"sizeof \( \( %s \) - \( %s \) \)" % (PROBE_X, PROBE_Y)
    rcu_narrow = (diff + r" >= sizeof \( unsigned long \) \|\| \( sizeof \( %s \) < "
                  r"sizeof \( int \) && sizeof \( %s \) < sizeof \( int \) \)"
                  % (PROBE_X, PROBE_Y))
    rcu_wide = diff + r" <= sizeof \( unsigned long \)"
    rcu = (re.search(rcu_narrow, unevaluated) is not None,
           re.search(rcu_wide, unevaluated) is not None)
    unevaluated = re.sub(rcu_wide, " ", re.sub(rcu_narrow, " ", unevaluated))
    wide_bytes = None
    m = re.search(r"sizeof \( \( %s \) - \( %s \) \) >= (sizeof \( [\w ]+ \)|\d+|\( \d+ \))"
                  % (PROBE_X, PROBE_Y), unevaluated)
    if m:
        bt = m.group(1).strip("() ")
        if bt.startswith("sizeof"):
            words = bt[len("sizeof"):].strip(" ()").split()
            wide_bytes = Parser([], model, typedefs, set()).resolve_type(words).width // 8
        else:
            wide_bytes = int(bt)
    strings = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))
    base = name[:-len("_WIDE")] if name.endswith("_WIDE") else name
    msg_ok = (name + "(): ") in strings or re.search(
        r"\b%s_\w+\s*:" % re.escape(name), text) is not None
    if name.endswith("_WIDE"):
        msg_ok = msg_ok and ((base + "(): ") in strings or
                             re.search(r"\b%s_argument\w*\s*:" % re.escape(base), text))
    return Macro(name, text, call, fn, kinds[0], checks, wide_bytes, bool(msg_ok), rcu)


def load_branch(text, branch):
    """(funcs, macros {name: Macro}, typedefs) of one branch of the header."""
    names = public_names()
    head, exps = preprocess(text, branch, ["%s(%s, %s)" % (n, PROBE_X, PROBE_Y) for n in names])
    typedefs = typedefs_of(head)
    funcs = parse_functions(head, branch.model, typedefs)
    if not funcs:
        raise ParseError("no static inline function in the expanded header")
    macros = {}
    for n, e in zip(names, exps):
        if e == "%s(%s, %s)" % (n, PROBE_X, PROBE_Y) or e.startswith(n + " ("):
            raise ParseError("%s is not defined" % n)
        macros[n] = analyse_macro(n, e, branch.model, typedefs, funcs)
    return funcs, macros, typedefs


def load(text, branch):
    """[(X, param CType, N, {op: (x name, y name, call AST, description)})], macros: the
    24 helpers of one branch, as calls of the public macros with x and y."""
    funcs, macros, _ = load_branch(text, branch)
    fams = []
    for x in FAMILIES:
        ops, pts = {}, set()
        for op in OPS:
            m = macros["%s_CMP_%s" % (x, op)]
            pts.add(m.fn.params[0][1])
            pts.add(m.fn.params[1][1])
            ops[op] = (PROBE_X, PROBE_Y, m.call, "%s(): %s" % (m.fn.name, describe(m.fn, funcs)))
        if len(pts) != 1:
            raise ParseError("%s: the helpers' parameter types differ: %s"
                             % (x, sorted(map(str, pts))))
        fams.append((x, pts.pop(), family_width(branch.model, x), ops))
    return fams, macros


def describe(fn, funcs, seen=None):
    """fn's body, with the bodies of the functions it calls."""
    seen = set() if seen is None else seen
    out = ["`%s`" % fn.text]
    seen.add(fn.name)
    for other in funcs.values():
        if other.name not in seen and re.search(r"\b%s\s*\(" % re.escape(other.name), fn.text):
            out.append("%s(): %s" % (other.name, describe(other, funcs, seen)))
    return ", ".join(out)


RCU_NAMES = ("ULONG_CMP_LT", "ULONG_CMP_GE")


def check_macro(m, branch):
    """None, or what is wrong with the public macro m in this branch."""
    if branch.kernel and m.name in RCU_NAMES and m.rcu != (True, True):
        return ("does not check at build time that a - b is exactly unsigned long wide or "
                "both arguments narrower than int, where rcupdate.h's %s() computed what it "
                "does (found: narrow %s, wide %s)" % (m.name, m.rcu[0], m.rcu[1]))
    if (not branch.kernel or m.name not in RCU_NAMES) and any(m.rcu):
        return "has the checks of rcupdate.h's ULONG_CMP_LT/GE, which only those two take"
    if branch.checked and not m.explicit:
        return ("passes the arguments to %s() without an explicit cast: "
                "-fsanitize=implicit-conversion reports a narrowing or sign change" % m.fn.name)
    if not branch.checked and m.explicit:
        return ("casts the arguments explicitly where nothing checks them: a pointer "
                "converts silently")
    if branch.checked and len(m.checks) != 2:
        return "does not check that both arguments are integers (__builtin_classify_type())"
    if branch.checked and not m.msg_ok:
        return "its build-time checks do not name the helper"
    if not branch.checked and (m.checks or m.wide_bytes):
        return "has build-time checks where they cannot work"
    return None


# ---------------------------------------------------------------- expressions

TOK = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*)|([A-Za-z_]\w*)|"
                 r"(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>&|^!~()?:,;{}=\[\].])|"
                 r"(\"(?:[^\"\\]|\\.)*\"))")


def tokenize(text):
    toks, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOK.match(text, pos)
        if not m or m.end() == pos:
            raise ParseError("cannot tokenize %r at %r" % (text, text[pos:pos + 20]))
        pos = m.end()
        if m.group(1):
            toks.append(("num", m.group(1)))
        elif m.group(2):
            toks.append(("id", m.group(2)))
        elif m.group(3):
            toks.append(("op", m.group(3)))
        else:
            toks.append(("str", m.group(4)))
    return toks


BINPREC = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
           ("<<", ">>"), ("+", "-"), ("*", "/", "%")]


class Parser:
    """C expression parser producing a small AST; resolves typedefs to CTypes.  A call of
    one of funcs ({name: Func}) is ("call", name, [argument ASTs], Func)."""

    def __init__(self, toks, model, typedefs, variables, funcs=None):
        self.t, self.i, self.model = toks, 0, model
        self.typedefs, self.vars = typedefs, variables
        self.funcs = funcs or {}

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else (None, None)

    def take(self, val=None):
        tok = self.peek()
        if tok[0] is None or (val is not None and tok[1] != val):
            raise ParseError("expected %r, got %r" % (val, tok[1]))
        self.i += 1
        return tok

    def is_type_word(self, tok):
        return tok[0] == "id" and (tok[1] in TYPE_WORDS or tok[1] in self.typedefs or
                                   tok[1] in ("const", "volatile"))

    def resolve_type(self, words):
        out = []
        for w in words:
            seen = 0
            while w in self.typedefs:
                ws = self.typedefs[w]
                if len(ws) == 1 and ws[0] in self.typedefs:
                    w = ws[0]
                    seen += 1
                    if seen > 20:
                        raise ParseError("typedef loop at %s" % w)
                    continue
                out.extend(ws)
                w = None
                break
            if w is not None:
                out.append(w)
        return type_from_words(self.model, out)

    def parse(self):
        e = self.expr(0)
        if self.peek()[0] is not None:
            raise ParseError("trailing tokens at %r" % (self.peek(),))
        return e

    def expr(self, level):
        if level == len(BINPREC):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in BINPREC[level]:
            op = self.take()[1]
            right = self.expr(level + 1)
            left = ("bin", op, left, right)
        return left

    def unary(self):
        tok = self.peek()
        if tok[0] == "op" and tok[1] in ("-", "+", "~", "!"):
            self.take()
            return ("un", tok[1], self.unary())
        if tok == ("op", "(") and self.is_type_word(self.peek(1)):
            self.take("(")
            words = []
            while self.is_type_word(self.peek()):
                words.append(self.take()[1])
            self.take(")")
            return ("cast", self.resolve_type(words), self.unary())
        return self.primary()

    def primary(self):
        tok = self.take()
        if tok == ("op", "("):
            e = self.expr(0)
            self.take(")")
            return e
        if tok[0] == "num":
            return ("num",) + literal(self.model, tok[1])
        if tok[0] == "id" and tok[1] in self.vars:
            return ("var", tok[1])
        if tok[0] == "id" and tok[1] in self.funcs and self.peek() == ("op", "("):
            self.take("(")
            args = []
            if self.peek() != ("op", ")"):
                args.append(self.expr(0))
                while self.peek() == ("op", ","):
                    self.take(",")
                    args.append(self.expr(0))
            self.take(")")
            f = self.funcs[tok[1]]
            if len(args) != len(f.params):
                raise ParseError("%s() takes %d arguments, given %d"
                                 % (f.name, len(f.params), len(args)))
            return ("call", tok[1], args, f)
        raise ParseError("unexpected token %r" % (tok[1],))


def literal(model, text):
    m = re.match(r"(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$", text)
    digits, suf = m.group(1), m.group(2).lower()
    if digits.lower().startswith("0x"):
        val, dec = int(digits, 16), False
    elif digits != "0" and digits.startswith("0"):
        val, dec = int(digits, 8), False
    else:
        val, dec = int(digits), True
    uns = "u" in suf
    nl = suf.count("l")
    bases = ["int", "long", "long long"][nl if nl < 3 else 2:]
    cands = []
    for b in bases:
        if uns:
            cands.append(make_type(model, b, False))
        else:
            cands.append(make_type(model, b, True))
            if not dec:
                cands.append(make_type(model, b, False))
    for t in cands:
        lim = 1 << (t.width - 1 if t.signed else t.width)
        if val < lim:
            return (t, val)
    raise ParseError("literal %s fits no type" % text)


# ---------------------------------------------------------------- semantics

class Sem:
    """Evaluate an AST to (z3 bit-vector, CType), collecting undefined-behaviour guards."""

    def __init__(self, model, env):
        self.model, self.env = model, env
        self.ub = []            # (description, z3 Bool that holds when it happens)
        self.int_t = make_type(model, "int", True)

    def conv(self, v, t, why=None):
        e, s = v
        if t.name == "_Bool":
            return (z3.If(e != 0, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)), t)
        if t.signed and (s.width > t.width or (s.width == t.width and not s.signed)):
            # out-of-range conversion to a signed type is implementation-defined
            lo, hi = -(1 << (t.width - 1)), (1 << (t.width - 1)) - 1
            w = s.width + 1
            ev = z3.SignExt(1, e) if s.signed else z3.ZeroExt(1, e)
            self.ub.append(("implementation-defined conversion of %s to %s" % (s, t),
                            z3.Or(ev < z3.BitVecVal(lo, w), ev > z3.BitVecVal(hi, w))))
        if t.width < s.width:
            e = z3.Extract(t.width - 1, 0, e)
        elif t.width > s.width:
            e = z3.SignExt(t.width - s.width, e) if s.signed else z3.ZeroExt(t.width - s.width, e)
        return (e, t)

    def promote(self, v):
        t = v[1]
        if t.rank < RANKS["int"]:
            return self.conv(v, self.int_t)
        return v

    def common(self, l, r):
        l, r = self.promote(l), self.promote(r)
        a, b = l[1], r[1]
        if a == b:
            t = a
        elif a.signed == b.signed:
            t = a if a.rank >= b.rank else b
        else:
            u, s = (a, b) if not a.signed else (b, a)
            if u.rank >= s.rank:
                t = u
            elif s.width > u.width:
                t = s
            else:
                t = make_type(self.model, s.name, False)
        return self.conv(l, t), self.conv(r, t), t

    def truth(self, v):
        return v[0] != z3.BitVecVal(0, v[1].width)

    def boolean(self, cond):
        return (z3.If(cond, z3.BitVecVal(1, 32), z3.BitVecVal(0, 32)), self.int_t)

    def run(self, f, args):
        """The value f returns for args (already of the parameter types)."""
        saved, self.env = self.env, {pn: a for (pn, _), a in zip(f.params, args)}
        try:
            for st in f.stmts:
                if st[0] == "decl":
                    self.env[st[2]] = (self.conv(self.ev(st[3]), st[1]) if st[3] is not None
                                       else (None, st[1]))
                elif st[0] == "subov":
                    # __builtin_sub_overflow: x - y exactly, stored modulo 2^N; never UB
                    (xe, xt), (ye, yt) = self.ev(st[1]), self.ev(st[2])
                    t = self.env[st[3]][1]
                    w = 130
                    xw = z3.SignExt(w - xt.width, xe) if xt.signed else z3.ZeroExt(w - xt.width, xe)
                    yw = z3.SignExt(w - yt.width, ye) if yt.signed else z3.ZeroExt(w - yt.width, ye)
                    if t.name == "_Bool":
                        raise ParseError("%s(): __builtin_sub_overflow into a _Bool" % f.name)
                    self.env[st[3]] = (z3.Extract(t.width - 1, 0, xw - yw), t)
                else:
                    return self.conv(self.ev(st[1]), f.ret)
        finally:
            self.env = saved
        raise ParseError("%s() has no return" % f.name)

    def ev(self, n):
        kind = n[0]
        if kind == "num":
            return (z3.BitVecVal(n[2], n[1].width), n[1])
        if kind == "var":
            v = self.env[n[1]]
            if v[0] is None:
                raise ParseError("%s is read before it is set" % n[1])
            return v
        if kind == "call":
            f = n[3]
            return self.run(f, [self.conv(self.ev(a), pt) for a, (_, pt) in zip(n[2], f.params)])
        if kind == "cast":
            return self.conv(self.ev(n[2]), n[1])
        if kind == "un":
            op = n[1]
            if op == "!":
                return self.boolean(z3.Not(self.truth(self.ev(n[2]))))
            e, t = self.promote(self.ev(n[2]))
            if op == "+":
                return (e, t)
            if op == "~":
                return (~e, t)
            if t.signed:
                self.ub.append(("signed overflow in -", e == z3.BitVecVal(1 << (t.width - 1),
                                                                           t.width)))
            return (-e, t)
        op, l, r = n[1], n[2], n[3]
        if op in ("&&", "||"):
            a, b = self.truth(self.ev(l)), self.truth(self.ev(r))
            return self.boolean(z3.And(a, b) if op == "&&" else z3.Or(a, b))
        if op in ("<<", ">>"):
            a, b = self.promote(self.ev(l)), self.promote(self.ev(r))
            w = a[1].width
            cnt = self.conv(b, make_type(self.model, "long long", False))[0]
            self.ub.append(("shift count out of range", z3.UGE(cnt, z3.BitVecVal(w, 64))))
            if b[1].signed:
                self.ub.append(("negative shift count", b[0] < 0))
            c = z3.Extract(w - 1, 0, cnt) if w < 64 else cnt
            if op == "<<":
                if a[1].signed:
                    wide = z3.SignExt(w, a[0]) << z3.ZeroExt(w, c)
                    self.ub.append(("signed overflow in <<",
                                    z3.Or(a[0] < 0, wide != z3.SignExt(w, a[0] << c))))
                return (a[0] << c, a[1])
            return ((a[0] >> c) if a[1].signed else z3.LShR(a[0], c), a[1])
        a, b, t = self.common(self.ev(l), self.ev(r))
        x, y = a[0], b[0]
        if op in ("<", ">", "<=", ">=", "==", "!="):
            if t.signed:
                f = {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y}
            else:
                f = {"<": z3.ULT(x, y), ">": z3.UGT(x, y), "<=": z3.ULE(x, y),
                     ">=": z3.UGE(x, y)}
            f["=="], f["!="] = x == y, x != y
            return self.boolean(f[op])
        if op in ("&", "|", "^"):
            return ({"&": x & y, "|": x | y, "^": x ^ y}[op], t)
        if op in ("+", "-", "*"):
            if t.signed:
                w = t.width
                xw, yw = z3.SignExt(w, x), z3.SignExt(w, y)
                exact = {"+": xw + yw, "-": xw - yw, "*": xw * yw}[op]
                res = {"+": x + y, "-": x - y, "*": x * y}[op]
                self.ub.append(("signed overflow in %s (%s)" % (op, t),
                                exact != z3.SignExt(w, res)))
                return (res, t)
            return ({"+": x + y, "-": x - y, "*": x * y}[op], t)
        if op in ("/", "%"):
            self.ub.append(("division by zero", y == 0))
            if t.signed:
                self.ub.append(("signed overflow in %s" % op,
                                z3.And(x == z3.BitVecVal(1 << (t.width - 1), t.width), y == -1)))
                return ((x / y) if op == "/" else z3.SRem(x, y), t)
            return ((z3.UDiv(x, y)) if op == "/" else z3.URem(x, y), t)
        raise ParseError("operator %s not supported" % op)


# ---------------------------------------------------------------- proofs

FAMILIES = ("U8", "U16", "U32", "U64", "UINT", "ULONG")
FAMILY_WIDTH = {"U8": 8, "U16": 16, "U32": 32, "U64": 64}


def family_width(model, x):
    if x in FAMILY_WIDTH:
        return FAMILY_WIDTH[x]
    if x == "UINT":
        return MODELS[model]["int"]
    if x == "ULONG":
        return MODELS[model]["long"]
    raise ParseError("unknown family %s" % x)


def spec(op, x, y, n):
    d = z3.Extract(n - 1, 0, x) - z3.Extract(n - 1, 0, y)
    zero = z3.BitVecVal(0, n)
    return {"LT": d < zero, "LE": d <= zero, "GT": d > zero, "GE": d >= zero}[op]


def check(ast, arg_t, n, op, model, names=("a", "b")):
    """None if proven, else a description of a counterexample.  The variables names are
    64-bit inputs converted to arg_t (None: unsigned long long, any integer argument)."""
    x, y = z3.BitVec("x", 64), z3.BitVec("y", 64)
    ull = make_type(model, "long long", False)
    arg_t = arg_t or ull
    sem = Sem(model, {})
    sem.env = {names[0]: sem.conv((x, ull), arg_t), names[1]: sem.conv((y, ull), arg_t)}
    try:
        res = sem.conv(sem.ev(ast), sem.int_t)[0]
    except ParseError as e:
        return str(e)
    want = z3.If(spec(op, x, y, n), z3.BitVecVal(1, 32), z3.BitVecVal(0, 32))
    mask = (1 << n) - 1

    def witness(m):
        xv = m.eval(x, model_completion=True).as_long()
        yv = m.eval(y, model_completion=True).as_long()
        got = m.eval(res, model_completion=True).as_long()
        exp = m.eval(want, model_completion=True).as_long()
        return "a=%#x b=%#x: helper gives %d, (s%d)((u%d)a - (u%d)b) %s 0 is %d" % (
            xv & mask, yv & mask, got, n, n, n, OPSYM[op], exp)

    s = z3.Solver()
    s.add(res != want)
    r = s.check()
    if r == z3.sat:
        return "counterexample " + witness(s.model())
    if r != z3.unsat:
        return "z3 says %s" % r
    for desc, cond in sem.ub:
        s = z3.Solver()
        s.add(cond)
        if s.check() != z3.unsat:
            return "%s, e.g. %s" % (desc, witness(s.model()))
    return None


def swap_ab(ast, a, b):
    if ast[0] == "var":
        return ("var", {a: b, b: a}.get(ast[1], ast[1]))
    return tuple(swap_ab(c, a, b) if isinstance(c, tuple) and c and isinstance(c[0], str)
                 else [swap_ab(e, a, b) for e in c] if isinstance(c, list) else c for c in ast)


def is_wrap_sub(f):
    """f(x, y) is (T)(x - y) by __builtin_sub_overflow into a T, or by the cast."""
    if len(f.params) != 2:
        return False
    (pa, ta), (pb, tb) = f.params
    body = [s[0] for s in f.stmts]
    if body == ["decl", "subov", "return"]:
        d, sub, ret = f.stmts
        return d[3] is None and sub[1:] == (("var", pa), ("var", pb), d[2]) and \
            ret[1] == ("var", d[2])
    return body == ["return"] and f.stmts[0][1] == ("cast", f.ret, ("bin", "-", ("var", pa),
                                                                       ("var", pb)))


def without_narrowing(ast, t):
    """ast with every cast to t dropped and every wrapping subtraction into t made a plain
    a - b, in the functions it calls too: the helpers as they would be without the
    narrowing to T that 8 and 16 bits need."""
    if not isinstance(ast, tuple) or not ast or not isinstance(ast[0], str):
        return ast
    if ast[0] == "cast" and ast[1] == t:
        return without_narrowing(ast[2], t)
    if ast[0] == "call":
        f = ast[3]
        args = [without_narrowing(a, t) for a in ast[2]]
        if is_wrap_sub(f) and f.ret == t:
            return ("bin", "-", args[0], args[1])
        stmts = []
        for s in f.stmts:
            if s[0] == "decl":
                stmts.append(("decl", s[1], s[2], without_narrowing(s[3], t)))
            elif s[0] == "return":
                stmts.append(("return", without_narrowing(s[1], t)))
            else:
                stmts.append(s)
        return ("call", ast[1], args, Func(f.name, f.ret, f.params, stmts, f.text))
    return tuple(without_narrowing(c, t) for c in ast)


def main_proofs(path, tag=""):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        report(False, tag + "parse-header", "cannot read %s: %s" % (path, e))
        return
    loaded = {}
    for br in branches(text):
        label = br.label
        try:
            fams, macros = load(text, br)
        except ParseError as e:
            report(False, tag + "parse-header/%s" % label, "cannot parse %s: %s" % (path, e))
            continue
        loaded[label] = (fams, br.model)
        report(True, tag + "parse-header/%s" % label, "6 families x 4 helpers read from %s "
               "(%s -E)" % (path, " ".join(os.path.basename(c) for c in br.cpp)))
        for name in public_names():
            m = macros[name]
            err = check_macro(m, br)
            base = name[:-len("_WIDE")] if name.endswith("_WIDE") else name
            if err is None and name != base:
                if m.call != macros[base].call:
                    err = "does not call what %s calls" % base
                elif br.checked:
                    x = base.split("_CMP_")[0]
                    want = family_width(br.model, x) // 8
                    if m.wide_bytes != want:
                        err = ("checks sizeof((a) - (b)) >= %s, not >= %d"
                               % (m.wide_bytes, want))
            how = ("(%s)(a), (%s)(b)" % (m.fn.params[0][1], m.fn.params[1][1]) if m.explicit
                   else "a, b")
            what = ("checks at build time that both arguments are integers%s%s, then " %
                    (" and that a - b is %d bytes or wider" % m.wide_bytes if m.wide_bytes else "",
                     " and, as rcupdate.h's %s() computed the same there, that a - b is "
                     "exactly unsigned long wide or both arguments narrower than int"
                     % name if all(m.rcu) else "")
                    if br.checked else "")
            report(err is None, tag + "macro/%s/%s" % (label, name), err or
                   "%scalls %s(%s), each argument evaluated once" % (what, m.fn.name, how))
        for x, pt_, n, ops in fams:
            for op in OPS:
                an, bn, ast, etext = ops[op]
                name = tag + "prove/%s/%s_CMP_%s" % (label, x, op)
                err = check(ast, None, n, op, model=br.model, names=(an, bn))
                if pt_.width != n:
                    err = "parameter type %s is %d bits, %s needs %d" % (pt_, pt_.width, x, n)
                report(err is None, name, err or
                       "%s_CMP_%s(a, b), %s (T = %s), == (s%d)((u%d)a - (u%d)b) %s 0 for all "
                       "a, b; no UB or implementation-defined conversion" %
                       (x, op, etext, pt_, n, n, n, OPSYM[op]))

    # the tempting wrong forms must have counterexamples
    first = branches(text)[0].label
    if first not in loaded:
        report(False, tag + "wrong-forms", "header not parsed; cannot build the wrong forms")
        return
    fams, model = loaded[first]
    for x, pt_, n, ops in fams:
        for wrong, src, desc in (("GT", "LT", "GT(a, b) as LT(b, a)"),
                                 ("LE", "GE", "LE(a, b) as GE(b, a)")):
            an, bn, ast, etext = ops[src]
            err = check(swap_ab(ast, an, bn), None, n, wrong, model, (an, bn))
            report(err is not None, tag + "wrong-form/%s_CMP_%s" % (x, desc.replace(" ", "")),
                   ("found " + err) if err else "no counterexample: %s is not wrong?" % desc)
        if n in (8, 16):
            for op in OPS:
                an, bn, ast, etext = ops[op]
                bare = without_narrowing(ast, pt_)
                err = check(bare, pt_, n, op, model, (an, bn))
                report(err is not None, tag + "wrong-form/%s_CMP_%s-without-cast-to-T" % (x, op),
                       ("found " + err) if err else
                       "no counterexample without the narrowing to T")


def main_expr(args):
    path = os.environ.get("WRAPCMP_HEADER", "include/linux/wrapcmp.h")
    path = path if os.path.isabs(path) else os.path.join(ROOT, path)
    with open(path) as f:
        text = f.read()
    br = next(b for b in branches(text) if b.model == args.model)
    funcs, macros, typedefs = load_branch(text, br)
    fn = macros["%s_CMP_%s" % (args.family, args.op)].fn
    pt_ = fn.params[0][1]
    e = re.sub(r"\bT\b", " %s " % pt_.name, args.expr)
    e = re.sub(r"\bMAX\b", " ((%s)~0ULL) " % pt_.name, e)
    ast = Parser(tokenize(e), br.model, typedefs, {"a", "b"}, funcs).parse()
    n = family_width(br.model, args.family)
    err = check(ast, pt_, n, args.op, br.model)
    report(err is None, "prove-expr/%s/%s_CMP_%s" % (br.label, args.family, args.op),
           err or "`return %s;` == (s%d)((u%d)a - (u%d)b) %s 0 for all a, b; no UB" %
           (" ".join(e.split()), n, n, n, OPSYM[args.op]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expr")
    ap.add_argument("--family", choices=list(FAMILIES))
    ap.add_argument("--op", choices=OPS)
    ap.add_argument("--model", choices=["lp64", "ilp32"], default="lp64")
    ap.add_argument("--tag", default="", help="put before every PASS/FAIL name")
    args = ap.parse_args()
    if args.expr:
        if not args.family or not args.op:
            ap.error("--expr needs --family and --op")
        try:
            main_expr(args)
        except ParseError as e:
            report(False, "prove-expr", str(e))
    else:
        hdr = os.environ.get("WRAPCMP_HEADER", "include/linux/wrapcmp.h")
        main_proofs(hdr if os.path.isabs(hdr) else os.path.join(ROOT, hdr), args.tag)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
