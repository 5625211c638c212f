#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Differential test of every rewrite: testcases/NAME.c against expected/NAME.res.

For each testcase that has an expected result, both files are built as hosted
programs with -I tests/shim -I include (tests/shim's <linux/types.h> and
<linux/limits.h> serve the kernel header in userspace; the header given by
WRAPCMP_HEADER is put on the include path before include/):

    original  gcc -O0 -fwrapv                                   (wrapping meaning)
    rewrite   gcc -O2 -fsanitize=undefined -fno-sanitize-recover=all

A generated driver #includes the file (so static functions are callable) and
calls every function whose parameters are all of integer type and whose
result is integer or void, as found by clang's JSON AST (typedefs resolved
through desugaredQualType).  Operands: boundary values of every width
(0, 1, MAX/2-1, MAX/2, MAX/2+1, MAX-1, MAX, and the signed MIN, MIN+1, -2,
-1), converted to the parameter's type, in every combination for up to two
operands and every pair of operands otherwise (at most 4000 calls), plus
2000 pseudo-random calls per function (Python's random, seeded from the
testcase and function names; a third of the operands lie at a boundary
difference from another operand).  When
the file uses jiffies or readl() & co., those values are operands too.  The
shim's recorders (WARN_ON, BUG_ON, do_something..., check_hook, I/O) are
printed with each result.  The two outputs must be byte-identical and the
UBSan build must report nothing.

A UBSan report inside a function whose text the rules left unchanged is
undefined behaviour that was there before (a decoy): that function is left
out of the comparison and named in the PASS line, never silently.  So is an
unchanged function whose output differs because -O2 folded its overflow.

A testcase named guard_*.c holds a site whose rewrite a caller makes wrong (pointer
arguments of a #define, a narrow difference under a 64-bit cast): its rewrite must fail to
build with the header's own message (GuardCase), never run.

A testcase with an expected/NAME.existing.res (its rewrite with -D existing=yes, the
kernel's own time_before() and kin) is tested with that rewrite too; a typecheck() of
theirs that fails (gcc's "comparison of distinct pointer types") is a FAIL.

Usage: tests/difftest.py [--cases DIR] [--expected DIR] [--keep] [NAME...]
Prints PASS/FAIL lines; exits 1 if any FAIL.
"""

import argparse
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIM = os.path.join(ROOT, "tests", "shim")
NR_RANDOM = 2000
MAX_COMBOS = 4000

# canonical clang spelling -> (bits, signed) on LP64
INT_TYPES = {
    "_Bool": (1, False), "char": (8, True), "signed char": (8, True),
    "unsigned char": (8, False), "short": (16, True), "unsigned short": (16, False),
    "int": (32, True), "unsigned int": (32, False), "long": (64, True),
    "unsigned long": (64, False), "long long": (64, True), "unsigned long long": (64, False),
}

failures = 0


def report(ok, name, msg):
    global failures
    print("%s %s: %s" % ("PASS" if ok else "FAIL", name, msg), flush=True)
    if not ok:
        failures += 1


def strip_quals(t):
    return " ".join(w for w in t.split() if w not in ("const", "volatile", "restrict"))


def int_type(qt):
    """Canonical integer type name for a clang type dict, or None."""
    t = strip_quals(qt.get("desugaredQualType", qt.get("qualType", "")))
    return t if t in INT_TYPES else None


def split_function_type(ft):
    """'int (unsigned int, long)' -> 'int' (the result type), or None."""
    m = re.match(r"^([^()]*?)\s*\((.*)\)\s*$", ft)
    return strip_quals(m.group(1)) if m else None


def main_file_loc(loc):
    loc = loc.get("expansionLoc", loc)
    return "includedFrom" not in loc


def functions(ast, text):
    """Function definitions of the main file, with callability and source text."""
    out = []
    for n in ast.get("inner", []):
        if n.get("kind") != "FunctionDecl" or not main_file_loc(n.get("loc", {})):
            continue
        inner = n.get("inner", [])
        if not any(c.get("kind") == "CompoundStmt" for c in inner):
            continue            # a declaration, not a definition
        name = n["name"]
        params = [c for c in inner if c.get("kind") == "ParmVarDecl"]
        ftype = n["type"].get("desugaredQualType", n["type"]["qualType"])
        ret = split_function_type(ftype)
        ptypes, why = [], None
        for p in params:
            t = int_type(p["type"])
            if t is None:
                why = "parameter %s is %s" % (p.get("name", "?"), p["type"]["qualType"])
                break
            ptypes.append(t)
        if why is None and n.get("variadic"):
            why = "variadic"
        if why is None and ret != "void" and ret not in INT_TYPES:
            why = "returns %s" % n["type"]["qualType"]
        if why is None and name == "main":
            why = "is main"
        rng = n["range"]
        b = rng["begin"].get("expansionLoc", rng["begin"])
        e = rng["end"].get("expansionLoc", rng["end"])
        start, end = b["offset"], e["offset"] + e.get("tokLen", 0)
        out.append({
            "name": name, "params": ptypes, "ret": ret, "why": why,
            "text": " ".join(text[start:end].split()),
            "first_line": text.count("\n", 0, start) + 1,
            "last_line": text.count("\n", 0, end) + 1,
        })
    return out


# ---------------------------------------------------------------- operands

def convert(v, t):
    bits, signed = INT_TYPES[t]
    if bits == 1:
        return 1 if v else 0
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def literal(v, t):
    bits, signed = INT_TYPES[t]
    if bits == 1:
        return str(v)
    if not signed:
        return "%#xULL" % v
    if v == -(1 << (bits - 1)):
        return "(%dLL - 1)" % (v + 1)
    return "%dLL" % v


PATTERNS = []
for _w in (8, 16, 32, 64):
    _m = (1 << _w) - 1
    PATTERNS += [0, 1, _m // 2 - 1, _m // 2, _m // 2 + 1, _m - 1, _m,
                 -(_m // 2 + 1), -(_m // 2), -2, -1]


def boundary(t):
    seen, out = set(), []
    for p in PATTERNS:
        v = convert(p, t)
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def operand_calls(types, seed):
    """List of operand tuples: boundary combinations, then pseudo-random ones."""
    rng = random.Random(seed)
    bnd = [boundary(t) for t in types]
    n = len(types)
    calls = []
    if n == 0:
        calls.append(())
    elif n <= 2:
        calls.extend(itertools.product(*bnd))
    else:
        for i, j in itertools.combinations(range(n), 2):
            for vi, vj in itertools.product(bnd[i], bnd[j]):
                c = [rng.choice(b) for b in bnd]
                c[i], c[j] = vi, vj
                calls.append(tuple(c))
        if len(calls) > MAX_COMBOS:
            calls = rng.sample(calls, MAX_COMBOS)
    for _ in range(NR_RANDOM if n else 0):
        raw = []
        for k in range(n):
            r = rng.random()
            if k and r < 1 / 3:
                # at a boundary difference from another operand
                d = rng.choice(PATTERNS) + rng.randint(-3, 3)
                raw.append(raw[rng.randrange(k)] - d)
            elif r < 2 / 3:
                raw.append(rng.getrandbits(64))
            else:
                raw.append(rng.choice(PATTERNS) + rng.randint(-3, 3))
        calls.append(tuple(convert(v, t) for v, t in zip(raw, types)))
    return calls


# ---------------------------------------------------------------- driver

def driver_source(path, funcs, plans):
    src = ["/* generated by tests/difftest.py */",
           "#include <stdint.h>",
           '#include "%s"' % path,
           "",
           "void __dt_set(unsigned long jif, uint32_t io0, uint32_t io1);",
           "void __dt_trace(const char *fn, unsigned long idx);",
           "void __dt_ret_s(const char *fn, unsigned long idx, long long v);",
           "void __dt_ret_u(const char *fn, unsigned long idx, unsigned long long v);",
           "void __dt_ret_void(const char *fn, unsigned long idx);",
           "int __dt_main(int argc, char **argv, unsigned int n, const char *const *names,",
           "\t      void (*const *run)(void));",
           ""]
    for k, f in enumerate(funcs):
        plan = plans[f["name"]]
        fields = ["\t%s p%d;" % (t, i) for i, t in enumerate(f["params"])]
        src.append("static const struct __dt_call_%d {" % k)
        src.extend(fields)
        src.append("\tunsigned long jif;\n\tuint32_t io0, io1;")
        src.append("} __dt_calls_%d[] = {" % k)
        for call in plan["calls"]:
            vals = [literal(v, t) for v, t in zip(call, plan["types"])]
            src.append("\t{ %s }," % ", ".join(vals))
        src.append("};")
        args = ", ".join("c->p%d" % i for i in range(len(f["params"])))
        if f["ret"] == "void":
            call = "%s(%s);\n\t\t__dt_ret_void(\"%s\", i);" % (f["name"], args, f["name"])
        elif INT_TYPES[f["ret"]][1]:
            call = "__dt_ret_s(\"%s\", i, (long long)%s(%s));" % (f["name"], f["name"], args)
        else:
            call = "__dt_ret_u(\"%s\", i, (unsigned long long)%s(%s));" % (
                f["name"], f["name"], args)
        src.append("""
static void __dt_run_%d(void)
{
	unsigned long i;

	for (i = 0; i < sizeof(__dt_calls_%d) / sizeof(__dt_calls_%d[0]); i++) {
		const struct __dt_call_%d *c = &__dt_calls_%d[i];

		__dt_set(c->jif, c->io0, c->io1);
		__dt_trace("%s", i);
		%s
	}
}
""" % (k, k, k, k, k, f["name"], call))
    src.append("static const char *const __dt_names[] = { %s };" %
               ", ".join('"%s"' % f["name"] for f in funcs))
    src.append("static void (*const __dt_runs[])(void) = { %s };" %
               ", ".join("__dt_run_%d" % k for k in range(len(funcs))))
    src.append("""
int main(int argc, char **argv)
{
	return __dt_main(argc, argv, %d, __dt_names, __dt_runs);
}""" % len(funcs))
    return "\n".join(src) + "\n"


def plan_for(name, f, hidden):
    """Operand types and calls; hidden operands (jiffies, two I/O values) last."""
    types = list(f["params"])
    extra = []
    if "jiffies" in hidden:
        extra.append("unsigned long")
    if "io" in hidden:
        extra += ["unsigned int", "unsigned int"]
    calls = operand_calls(types + extra, zlib.crc32(("%s/%s" % (name, f["name"])).encode()))
    full = []
    for c in calls:
        p = list(c[:len(types)])
        h = list(c[len(types):])
        jif = h.pop(0) if "jiffies" in hidden else 0
        io = h if "io" in hidden else [0, 0]
        full.append(tuple(p) + (jif, io[0], io[1]))
    return {"types": types + ["unsigned long", "unsigned int", "unsigned int"],
            "calls": full, "operands": len(types) + len(extra)}


def describe_call(f, plan, idx):
    c = plan["calls"][idx]
    args = ", ".join("%#x" % (v & (2 ** 64 - 1)) if v < 0 or v > 9 else str(v)
                     for v in c[:len(f["params"])])
    extra = "" if plan["operands"] == len(f["params"]) else \
        " [jiffies=%#x io=%#x,%#x]" % c[len(f["params"]):]
    return "%s(%s)%s" % (f["name"], args, extra)


# ---------------------------------------------------------------- one testcase

def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def rel(path):
    r = os.path.relpath(path, ROOT)
    return path if r.startswith("..") else r


def one_line(s, n=600):
    s = " ".join(s.split())
    return s if len(s) <= n else s[:n] + " ..."


def defines(text):
    """{name: definition} of the #defines of a file (continuation lines joined)."""
    out = {}
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", text,
                         re.M):
        out[m.group(1)] = " ".join(m.group(2).split())
    return out


def changed_macros(otext, rtext):
    """The names of the #defines the rewrite changed, and of those that use them."""
    do, dr = defines(otext), defines(rtext)
    changed = {n for n in set(do) | set(dr) if do.get(n) != dr.get(n)}
    grew = True
    while grew:
        more = {n for n, body in dr.items() if changed & set(re.findall(r"\w+", body))}
        grew = not more <= changed
        changed |= more
    return changed


class Case:
    def __init__(self, name, orig, res, incs, tmp):
        self.name, self.orig, self.res, self.incs, self.tmp = name, orig, res, incs, tmp
        self.label = "difftest/" + name

    def ast(self, path):
        p = run(["clang", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-x", "c"] +
                self.incs + [path])
        if p.returncode:
            raise RuntimeError("clang cannot parse %s: %s" % (rel(path),
                                                              one_line(p.stderr)))
        with open(path, errors="replace") as fh:
            text = fh.read()
        return functions(json.loads(p.stdout), text), text

    def build(self, path, flags, out):
        drv = out + ".c"
        with open(drv, "w") as fh:
            fh.write(driver_source(os.path.abspath(path), self.callable, self.plans))
        p = run(["gcc"] + flags + ["-Werror=implicit-function-declaration"] + self.incs +
                [drv, os.path.join(SHIM, "shim.c"), "-o", out])
        if "comparison of distinct pointer types" in p.stderr:
            raise RuntimeError("a typecheck() fails in %s: %s" % (rel(path), one_line(p.stderr)))
        if p.returncode:
            implicit = sorted(set(re.findall(r"implicit declaration of function [`'‘]"
                                             r"([^'`’]+)", p.stderr)))
            if implicit:
                raise RuntimeError("%s calls %s without a declaration (is #include "
                                   "<linux/wrapcmp.h> missing?)" % (rel(path),
                                                                   ", ".join(implicit)))
            undef = sorted(set(re.findall(r"undefined reference to [`']([^'`]+)'", p.stderr)))
            if undef:
                raise RuntimeError("undefined external(s) %s in %s: declare only what "
                                   "tests/shim provides, or define them in the testcase" %
                                   (", ".join(undef), rel(path)))
            raise RuntimeError("gcc %s failed on %s: %s" % (" ".join(flags),
                                                            rel(path),
                                                            one_line(p.stderr)))

    def execute(self, exe, skip, trace=False):
        env = dict(os.environ)
        if trace:
            env["DT_TRACE"] = "1"
        return run([exe] + sorted(skip), env=env, timeout=300)

    def go(self):
        try:
            self.check()
        except RuntimeError as e:
            report(False, self.label, str(e))
        except subprocess.TimeoutExpired:
            report(False, self.label, "a driver ran for more than 300 s")

    def check(self):
        fo, _ = self.ast(self.orig)
        fr, rtext = self.ast(self.res)
        co = [f["name"] for f in fo if not f["why"]]
        cr = [f["name"] for f in fr if not f["why"]]
        if co != cr:
            raise RuntimeError("callable functions differ: original %s, rewrite %s" % (co, cr))
        sig_o = {f["name"]: (f["params"], f["ret"]) for f in fo}
        for f in fr:
            if not f["why"] and sig_o.get(f["name"]) != (f["params"], f["ret"]):
                raise RuntimeError("%s changed its signature in the rewrite" % f["name"])
        skipped = ["%s (%s)" % (f["name"], f["why"]) for f in fo if f["why"]]
        self.callable = [f for f in fo if not f["why"]]
        if not self.callable:
            raise RuntimeError("no callable function (all %d skipped: %s): a harness that "
                               "calls nothing tests nothing" % (len(fo), "; ".join(skipped)))
        with open(self.orig, errors="replace") as fh:
            otext = fh.read()
        hidden = set()
        if re.search(r"\bjiffies\b", otext + rtext):
            hidden.add("jiffies")
        if re.search(r"\b(__raw_readl|readl|readw|readb|ioread32)\b", otext + rtext):
            hidden.add("io")
        self.plans = {f["name"]: plan_for(self.name, f, hidden) for f in self.callable}
        by_name = {f["name"]: f for f in self.callable}
        rfuncs = {f["name"]: f for f in fr}
        # a function is rewritten when its text changed or a #define it uses did
        macros = changed_macros(otext, rtext)
        changed = [f["name"] for f in fo if f["name"] in rfuncs and
                   (f["text"] != rfuncs[f["name"]]["text"] or
                    macros & set(re.findall(r"\w+", f["text"])))]

        exe_o = os.path.join(self.tmp, self.name + ".orig")
        exe_r = os.path.join(self.tmp, self.name + ".rewrite")
        self.build(self.orig, ["-O0", "-fwrapv"], exe_o)
        self.build(self.res, ["-O2", "-fsanitize=undefined", "-fno-sanitize-recover=all"], exe_r)

        skip, notes = set(), []
        for _ in range(len(self.callable) + 1):
            pr = self.execute(exe_r, skip)
            if pr.returncode == 0 and not pr.stderr:
                break
            ub = re.search(r"([^\s:]+):(\d+):(\d+): runtime error: ([^\n]*)", pr.stderr)
            if not ub:
                raise RuntimeError("rewrite build exited %d: %s" % (pr.returncode,
                                                                    one_line(pr.stderr)))
            tr = self.execute(exe_r, skip, trace=True)
            calls = re.findall(r"__dt_call (\w+)#(\d+)", tr.stderr)
            fn, idx = (calls[-1][0], int(calls[-1][1])) if calls else ("?", 0)
            where, line, msg = ub.group(1), int(ub.group(2)), ub.group(4)
            site = rel(where) if where.startswith("/") else where
            inside = None
            if os.path.abspath(where) == os.path.abspath(self.res):
                inside = next((f for f in fr if f["first_line"] <= line <= f["last_line"]),
                              None)
            what = "UBSan in the rewrite: %s:%d: %s, calling %s" % (
                site, line, msg, describe_call(by_name[fn], self.plans[fn], idx)
                if fn in by_name else fn)
            if inside is None or inside["name"] in changed or fn not in by_name:
                raise RuntimeError(what)
            skip.add(fn)
            notes.append("%s left out: UB in %s, which the rules left unchanged (%s:%d: %s)" %
                         (fn, inside["name"], site, line, msg))
        else:
            raise RuntimeError("UBSan keeps failing")
        if len(skip) == len(self.callable):
            raise RuntimeError("every callable function has undefined behaviour the rules left "
                               "alone, so nothing could be compared: %s" % "; ".join(notes))
        po = self.execute(exe_o, skip)
        if po.returncode or po.stderr:
            raise RuntimeError("original build exited %d: %s" % (po.returncode,
                                                                 one_line(po.stderr)))
        # A function the rules left unchanged can still differ where the compiler folded
        # its signed overflow without a UBSan report (len - 4 > 0 to len > 4): that is the
        # hazard of a decoy, not a rewrite.  Leave it out, by name; rewritten ones never.
        differ = {m.group(1) for a, b in itertools.zip_longest(po.stdout.splitlines(),
                                                              pr.stdout.splitlines())
                  if a != b for m in [re.match(r"(\w+)#", a or b or "")] if m}
        folded = sorted(f for f in differ if f in by_name and f not in changed)
        if folded and not differ - set(folded):
            skip.update(folded)
            notes.extend("%s left out: unchanged, and folded at -O2 where -fwrapv wraps" % f
                         for f in folded)
            if len(skip) == len(self.callable):
                raise RuntimeError("nothing left to compare: %s" % "; ".join(notes))
            pr = self.execute(exe_r, skip)
            po = self.execute(exe_o, skip)
        if po.stdout != pr.stdout:
            lo, lr = po.stdout.splitlines(), pr.stdout.splitlines()
            for i, (a, b) in enumerate(itertools.zip_longest(lo, lr, fillvalue="<none>")):
                if a != b:
                    break
            m = re.match(r"(\w+)#(\d+)", a if a != "<none>" else b)
            call = describe_call(by_name[m.group(1)], self.plans[m.group(1)],
                                 int(m.group(2))) if m and m.group(1) in by_name else "?"
            ndiff = sum(1 for a2, b2 in itertools.zip_longest(lo, lr) if a2 != b2)
            raise RuntimeError("outputs differ on %d of %d calls; first %s: original `%s`, "
                               "rewrite `%s`" % (ndiff, len(lo), call, a, b))
        ncalls = sum(len(self.plans[f["name"]]["calls"]) for f in self.callable
                     if f["name"] not in skip)
        msg = "%d functions, %d calls, outputs identical, UBSan silent" % (
            len(self.callable) - len(skip), ncalls)
        msg += "; rewritten: %s" % (", ".join(changed) if changed else "none")
        if hidden:
            msg += "; driver-set operands: %s" % ", ".join(sorted(hidden))
        if skipped:
            msg += "; skipped (non-integer signature): %s" % ", ".join(skipped)
        if notes:
            msg += "; " + "; ".join(notes)
        report(True, self.label, msg)


GUARD_MESSAGES = ("(): an argument is not an integer", "_WIDE(): a - b is narrower than")


class GuardCase(Case):
    """testcases/guard_*.c: a site the rules rewrite although a caller makes the rewrite
    wrong (a pointer argument, a narrow difference under a 64-bit cast).  The original
    must build; the rewrite must not, and must say why with the header's message."""

    def check(self):
        base = ["gcc", "-fsyntax-only", "-Wall"] + self.incs
        p = run(base + [self.orig])
        if p.returncode:
            raise RuntimeError("the original does not build: %s" % one_line(p.stderr))
        with open(self.res) as fh:
            if "<linux/wrapcmp.h>" not in fh.read():
                raise RuntimeError("%s has no rewrite to refuse" % rel(self.res))
        p = run(base + ["-x", "c", self.res])
        said = [m for m in GUARD_MESSAGES if m in p.stderr]
        report(p.returncode != 0 and said, self.label,
               "the rewrite fails to build, as it must: %s" %
               one_line(next((l for l in p.stderr.splitlines() if said and said[0] in l), ""))
               if p.returncode != 0 and said else
               "the rewrite built, or failed without the header's message: %s" %
               one_line(p.stderr))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default=os.path.join(ROOT, "testcases"))
    ap.add_argument("--expected", default=os.path.join(ROOT, "expected"))
    ap.add_argument("--keep", action="store_true", help="keep the scratch folder")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()

    for tool in ("gcc", "clang"):
        if not shutil.which(tool):
            report(False, "difftest", "%s not found" % tool)
            return 1
    hdr = os.environ.get("WRAPCMP_HEADER", "include/linux/wrapcmp.h")
    hdr = hdr if os.path.isabs(hdr) else os.path.join(ROOT, hdr)
    if not os.path.isfile(hdr):
        report(False, "difftest", "no header at %s" % hdr)
        return 1

    tmp = tempfile.mkdtemp(prefix="wrapcmp-difftest.")
    try:
        os.makedirs(os.path.join(tmp, "hdr", "linux"))
        shutil.copy(hdr, os.path.join(tmp, "hdr", "linux", "wrapcmp.h"))
        incs = ["-I", SHIM, "-I", os.path.join(tmp, "hdr"), "-I", os.path.join(ROOT, "include"),
                "-I", os.path.abspath(args.cases)]
        names = sorted(f[:-2] for f in os.listdir(args.cases) if f.endswith(".c") and
                       os.path.isfile(os.path.join(args.expected, f[:-2] + ".res")))
        if args.names:
            names = [n for n in names if n in args.names]
        if not names:
            report(False, "difftest", "no testcase with an expected .res in %s" % args.expected)
        for n in names:
            kind = GuardCase if n.startswith("guard_") else Case
            kind(n, os.path.join(args.cases, n + ".c"), os.path.join(args.expected, n + ".res"),
                 incs, tmp).go()
            # the rewrite with -D existing=yes (the kernel's own helpers) too
            res = os.path.join(args.expected, n + ".existing.res")
            if os.path.exists(res):
                Case(n + ".existing", os.path.join(args.cases, n + ".c"), res, incs, tmp).go()
    finally:
        if args.keep:
            print("# scratch kept in %s" % tmp)
        else:
            shutil.rmtree(tmp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
