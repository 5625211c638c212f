#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Prove the wrapcmp helpers with Z3, from the header's own text.

The __WRAPCMP_FAMILY body and its instantiations are read from the header
(WRAPCMP_HEADER, default include/linux/wrapcmp.h).  The macro arguments are
expanded by the C preprocessor: for the hosted branch gcc -E (LP64) and
i686-linux-gnu-gcc -E (ILP32) over <stdint.h> and <limits.h>, for the
__KERNEL__ branch a prelude with the kernel's u8..u64 typedefs and the MAX
macros of include/linux/limits.h and include/vdso/limits.h.  Each return
expression is then typed with C's rules (integer promotion, usual arithmetic
conversions, literal types) and translated to Z3 bit-vectors.

For every family X, width N (from X: U8 8, U16 16, U32 32, U64 64, UINT int,
ULONG long) and OP, it proves for all 64-bit inputs x, y (any integer
argument reaches the function as a conversion to T, which 64 bits cover):

    X_CMP_OP(x, y) == ((sN)((uN)x - (uN)y) OP 0)

and that no signed overflow, division by zero, bad shift or out-of-range
conversion to a signed type happens on the way.  It then shows that the
tempting wrong forms have counterexamples.

Run with /usr/bin/python3 (Debian's python3-z3).

Usage: prove_helpers.py                      all proofs, PASS/FAIL lines
       prove_helpers.py --expr EXPR --family X --op OP [--model lp64|ilp32]
                                             prove one candidate return
                                             expression in a, b, T, MAX
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


def parse_header(text, kernel):
    """Object-like defines, the family macro and the instantiations of one branch."""
    defined = {"__KERNEL__"} if kernel else set()
    fam_name, fam_def = "__WRAPCMP_FAMILY", None
    objs, funcs, code = {}, {}, []
    stack = []              # (active, taken) per conditional level

    def active():
        return all(a for a, _ in stack)

    for line in logical_lines(text):
        s = line.strip()
        m = re.match(r"#\s*(\w+)\s*(.*)", s)
        if m:
            d, rest = m.group(1), m.group(2).strip()
            if d in ("ifdef", "ifndef"):
                name = rest.split()[0]
                cond = (name in defined or name in objs or name in funcs)
                cond = cond if d == "ifdef" else not cond
                stack.append((cond, cond))
            elif d == "if":
                raise ParseError("#if is not understood by this parser: %s" % s)
            elif d == "else":
                if not stack:
                    raise ParseError("#else without #if")
                a, taken = stack.pop()
                stack.append((not taken, True))
            elif d == "endif":
                if not stack:
                    raise ParseError("#endif without #if")
                stack.pop()
            elif not active():
                continue
            elif d == "define":
                fm = re.match(r"(\w+)\(([^)]*)\)\s*(.*)", rest)
                if fm:
                    params = [p.strip() for p in fm.group(2).split(",")]
                    funcs[fm.group(1)] = (params, fm.group(3))
                    if fm.group(1) == fam_name:
                        if fam_def is not None:
                            raise ParseError("%s defined twice" % fam_name)
                        fam_def = (params, fm.group(3))
                else:
                    om = re.match(r"(\w+)\s*(.*)", rest)
                    objs[om.group(1)] = om.group(2)
            elif d == "undef":
                name = rest.split()[0]
                objs.pop(name, None)
                funcs.pop(name, None)
            continue
        if active() and s:
            code.append(s)
    if stack:
        raise ParseError("unterminated conditional")

    if fam_def is None:
        raise ParseError("no #define %s(X, T, MAX) found" % fam_name)
    params, body = fam_def
    if len(params) != 3:
        raise ParseError("%s has %d parameters, expected (X, T, MAX)" % (fam_name, len(params)))
    body = " ".join(body.split())
    px, pt, pmax = params

    funcs_found = {}
    fre = re.compile(
        r"static\s+inline\s+(\w+(?:\s+\w+)*)\s+__\s*##\s*%s\s*##\s*_CMP_(\w+)\s*\(\s*%s\s+(\w+)\s*,\s*%s"
        r"\s+(\w+)\s*\)\s*\{\s*return\s+([^;{}]*);\s*\}" % (px, pt, pt))
    for m in fre.finditer(body):
        ret, op, an, bn, expr = m.groups()
        if ret != "int":
            raise ParseError("X##_CMP_%s returns %s, not int" % (op, ret))
        if op in funcs_found:
            raise ParseError("X##_CMP_%s defined twice" % op)
        funcs_found[op] = (an, bn, expr.strip())
    n_static = len(re.findall(r"\bstatic\b", body))
    if sorted(funcs_found) != sorted(OPS) or n_static != 4:
        raise ParseError("family body: found %s (%d static functions); expected exactly "
                         "LT, LE, GT, GE as 'static inline int __##X##_CMP_OP(T a, T b) "
                         "{ return EXPR; }'" % (sorted(funcs_found), n_static))

    insts = []
    for line in code:
        for m in re.finditer(r"\b%s\s*\(([^()]*)\)" % fam_name, line):
            args = [x.strip() for x in m.group(1).split(",")]
            if len(args) != 3:
                raise ParseError("bad instantiation: %s" % m.group(0))
            insts.append(tuple(args))
    return {"params": params, "funcs": funcs_found, "insts": insts, "objs": objs,
            "macros": funcs}


def check_macros(h):
    """The public names are macros that check their arguments and call the proved
    function of the same name: [(name, error or None)]."""
    out = []
    call = h["macros"].get("__WRAPCMP_CALL")
    wide = h["macros"].get("__WRAPCMP_CALL_WIDE")
    if not call or " ".join(call[1].split()).replace(" ", "")[-len("__##f(a,b))"):] != "__##f(a,b))" \
            or "__WRAPCMP_IS_INT(a)&&__WRAPCMP_IS_INT(b)" not in call[1].replace(" ", ""):
        return [("__WRAPCMP_CALL", "missing, or not: check both arguments, call __##f(a, b)")]
    if not wide or "sizeof((a)-(b))>=(bytes)" not in wide[1].replace(" ", "") or \
            "__WRAPCMP_CALL(f,a,b)" not in wide[1].replace(" ", ""):
        return [("__WRAPCMP_CALL_WIDE", "missing, or not: check sizeof((a) - (b)), then "
                 "__WRAPCMP_CALL(f, a, b)")]
    widths = {"U64": ("8", '"s64"'), "ULONG": ("sizeof(long)", '"long"')}
    for x, _, _ in h["insts"]:
        for op in OPS:
            name = "%s_CMP_%s" % (x, op)
            want = (["a", "b"], "__WRAPCMP_CALL(%s, a, b)" % name)
            got = h["macros"].get(name)
            got = got and (got[0], " ".join(got[1].split()))
            out.append((name, None if got == want else "is %r, not %r" % (got, want)))
            if x in widths:
                wname = name + "_WIDE"
                want = (["a", "b"], "__WRAPCMP_CALL_WIDE(%s, a, b, %s, %s)"
                        % ((name,) + widths[x]))
                got = h["macros"].get(wname)
                got = got and (got[0], " ".join(got[1].split()))
                out.append((wname, None if got == want else "is %r, not %r" % (got, want)))
    return out


KERNEL_PRELUDE = """
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
#define UINT_MAX	(~0U)
#define ULONG_MAX	(~0UL)
#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
"""

HOSTED_PRELUDE = "#include <stdint.h>\n#include <limits.h>\n"


def expand_with_cpp(cpp, prelude, objs, items):
    """Let the real preprocessor expand each text in items; return texts and typedefs."""
    src = [prelude]
    for name, val in objs.items():
        src.append("#undef %s\n#define %s %s" % (name, name, val))
    for i, text in enumerate(items):
        src.append("@@%d@@ %s @@END@@" % (i, text))
    tmpdir = tempfile.mkdtemp(prefix="wrapcmp-prove.")
    try:
        path = os.path.join(tmpdir, "probe.c")
        with open(path, "w") as f:
            f.write("\n".join(src) + "\n")
        r = subprocess.run(cpp + ["-E", "-P", path], capture_output=True, text=True)
    finally:
        shutil.rmtree(tmpdir)
    if r.returncode:
        raise ParseError("%s -E failed: %s" % (" ".join(cpp), r.stderr.strip()[:500]))
    out = r.stdout
    res = []
    for i in range(len(items)):
        m = re.search(r"@@%d@@(.*?)@@END@@" % i, out, re.S)
        if not m:
            raise ParseError("preprocessor lost item %d" % i)
        res.append(" ".join(m.group(1).split()))
    typedefs = {}
    for m in re.finditer(r"typedef\s+([\w\s]+?)\s+(\w+)\s*;", out):
        typedefs[m.group(2)] = m.group(1).split()
    return res, typedefs


# ---------------------------------------------------------------- expressions

TOK = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*)|([A-Za-z_]\w*)|"
                 r"(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>&|^!~()?:]))")


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
        else:
            toks.append(("op", m.group(3)))
    return toks


BINPREC = [("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
           ("<<", ">>"), ("+", "-"), ("*", "/", "%")]


class Parser:
    """C expression parser producing a small AST; resolves typedefs to CTypes."""

    def __init__(self, toks, model, typedefs, variables):
        self.t, self.i, self.model = toks, 0, model
        self.typedefs, self.vars = typedefs, variables

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

    def ev(self, n):
        kind = n[0]
        if kind == "num":
            return (z3.BitVecVal(n[2], n[1].width), n[1])
        if kind == "var":
            return self.env[n[1]]
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


def check(ast, param_t, n, op, model, names=("a", "b")):
    """None if proven, else a description of a counterexample."""
    x, y = z3.BitVec("x", 64), z3.BitVec("y", 64)
    ull = make_type(model, "long long", False)
    sem = Sem(model, {})
    sem.env = {names[0]: sem.conv((x, ull), param_t), names[1]: sem.conv((y, ull), param_t)}
    res = sem.conv(sem.ev(ast), sem.int_t)[0]
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
    return tuple(swap_ab(c, a, b) if isinstance(c, tuple) else c for c in ast)


def strip_casts(ast, t):
    if ast[0] == "cast" and ast[1] == t:
        return strip_casts(ast[2], t)
    return tuple(strip_casts(c, t) if isinstance(c, tuple) and c and isinstance(c[0], str)
                 else c for c in ast)


def branches():
    """(label, kernel?, model, cpp command or None)"""
    out = [("hosted-lp64", False, "lp64", ["gcc"])]
    i686 = shutil.which("i686-linux-gnu-gcc")
    out.append(("hosted-ilp32", False, "ilp32", [i686] if i686 else ["gcc", "-m32"]))
    out.append(("kernel-lp64", True, "lp64", ["gcc", "-nostdinc"]))
    out.append(("kernel-ilp32", True, "ilp32", ["gcc", "-nostdinc"]))
    return out


def load(text, kernel, model, cpp):
    """[(X, param CType, N, {op: (an, bn, ast)})] for one branch."""
    h = parse_header(text, kernel)
    px, pt, pmax = h["params"]
    if len(h["insts"]) != 6:
        raise ParseError("%d instantiations of __WRAPCMP_FAMILY, expected 6" % len(h["insts"]))
    items = []
    for x, t, mx in h["insts"]:
        items.append(t)
        for op in OPS:
            an, bn, e = h["funcs"][op]
            e = re.sub(r"\b%s\b" % re.escape(pt), " %s " % t, e)
            e = re.sub(r"\b%s\b" % re.escape(pmax), " %s " % mx, e)
            items.append(e)
    texts, typedefs = expand_with_cpp(cpp, KERNEL_PRELUDE if kernel else HOSTED_PRELUDE,
                                      h["objs"], items)
    fams = []
    k = 0
    for x, t, mx in h["insts"]:
        ttext = texts[k]
        k += 1
        param_t = Parser(tokenize(ttext), model, typedefs, set()).resolve_type(ttext.split())
        ops = {}
        for op in OPS:
            an, bn, _ = h["funcs"][op]
            etext = texts[k]
            k += 1
            ast = Parser(tokenize(etext), model, typedefs, {an, bn}).parse()
            ops[op] = (an, bn, ast, etext)
        fams.append((x, param_t, family_width(model, x), ops))
    return fams, typedefs


def main_proofs(path):
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        report(False, "parse-header", "cannot read %s: %s" % (path, e))
        return
    loaded = {}
    for label, kernel, model, cpp in branches():
        try:
            fams, _ = load(text, kernel, model, cpp)
        except ParseError as e:
            report(False, "parse-header/%s" % label, "cannot parse %s: %s" % (path, e))
            continue
        loaded[label] = (fams, model)
        report(True, "parse-header/%s" % label, "6 families x 4 helpers read from %s" % path)
        for name, err in check_macros(parse_header(text, kernel)):
            report(err is None, "macro/%s/%s" % (label, name), err or
                   "checks its arguments at build time and calls __%s()" % name.replace("_WIDE", ""))
        for x, pt_, n, ops in fams:
            for op in OPS:
                an, bn, ast, etext = ops[op]
                name = "prove/%s/%s_CMP_%s" % (label, x, op)
                err = check(ast, pt_, n, op, model, (an, bn))
                if pt_.width != n:
                    err = "parameter type %s is %d bits, %s needs %d" % (pt_, pt_.width, x, n)
                report(err is None, name, err or
                       "`return %s;` (T = %s) == (s%d)((u%d)a - (u%d)b) %s 0 for all a, b; "
                       "no UB or implementation-defined conversion" %
                       (etext, pt_, n, n, n, OPSYM[op]))

    # the tempting wrong forms must have counterexamples
    if "hosted-lp64" not in loaded:
        report(False, "wrong-forms", "header not parsed; cannot build the wrong forms")
        return
    fams, model = loaded["hosted-lp64"]
    for x, pt_, n, ops in fams:
        for wrong, src, desc in (("GT", "LT", "GT(a, b) as LT(b, a)"),
                                 ("LE", "GE", "LE(a, b) as GE(b, a)")):
            an, bn, ast, etext = ops[src]
            err = check(swap_ab(ast, an, bn), pt_, n, wrong, model, (an, bn))
            report(err is not None, "wrong-form/%s_CMP_%s" % (x, desc.replace(" ", "")),
                   ("found " + err) if err else "no counterexample: %s is not wrong?" % desc)
        if n in (8, 16):
            for op in OPS:
                an, bn, ast, etext = ops[op]
                bare = strip_casts(ast, pt_)
                err = check(bare, pt_, n, op, model, (an, bn))
                report(err is not None, "wrong-form/%s_CMP_%s-without-cast-to-T" % (x, op),
                       ("found " + err) if err else
                       "no counterexample without the narrowing cast")


def main_expr(args):
    model = args.model
    kernel = False
    label, cpp = ("hosted-" + model,
                  ["gcc"] if model == "lp64" else [shutil.which("i686-linux-gnu-gcc") or "gcc"])
    path = os.path.join(ROOT, os.environ.get("WRAPCMP_HEADER", "include/linux/wrapcmp.h"))
    with open(path) as f:
        h = parse_header(f.read(), kernel)
    inst = [i for i in h["insts"] if i[0] == args.family]
    if not inst:
        raise ParseError("no family %s in the header" % args.family)
    _, t, mx = inst[0]
    e = re.sub(r"\bT\b", " %s " % t, args.expr)
    e = re.sub(r"\bMAX\b", " %s " % mx, e)
    (ttext, etext), typedefs = expand_with_cpp(cpp, HOSTED_PRELUDE, h["objs"], [t, e])
    pt_ = Parser([], model, typedefs, set()).resolve_type(ttext.split())
    ast = Parser(tokenize(etext), model, typedefs, {"a", "b"}).parse()
    n = family_width(model, args.family)
    err = check(ast, pt_, n, args.op, model)
    report(err is None, "prove-expr/%s/%s_CMP_%s" % (label, args.family, args.op),
           err or "`return %s;` == (s%d)((u%d)a - (u%d)b) %s 0 for all a, b; no UB" %
           (etext, n, n, n, OPSYM[args.op]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--expr")
    ap.add_argument("--family", choices=["U8", "U16", "U32", "U64", "UINT", "ULONG"])
    ap.add_argument("--op", choices=OPS)
    ap.add_argument("--model", choices=["lp64", "ilp32"], default="lp64")
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
        main_proofs(hdr if os.path.isabs(hdr) else os.path.join(ROOT, hdr))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
