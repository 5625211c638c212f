"""macro-scan: the wrapcmp idioms inside function-like #define bodies, which spatch does not match.

Usage: macro-scan [--tree DIR] [--files-from LIST|-] [FILE...]

Prints one line per site, `path:line:col: message [macro]` (line 1-based, column 0-based as
spatch prints them; path as given, relative to --tree), in file order.  A site is a
comparison with a literal 0 (`<`, `<=`, `>`, `>=`, either side) whose other operand is,
after removing redundant parentheses,
  - a cast to a signed integer type of a parenthesized difference, `(T)(X - Y)` or
    `(T)((X) - (Y))`, T one of int, signed, short, long, long long, signed char, s8..s64,
    __s8..__s64, int8_t..int64_t (with optional `signed` / `int` words), or
  - a difference of two parenthesized macro arguments, `(X) - (Y)`.
Comments and string contents are ignored; backslash continuations are followed.
These sites are reported, never rewritten: one macro serves many callers.
"""
import re
import sys

SIGNED_TYPEDEFS = {"s8", "s16", "s32", "s64", "__s8", "__s16", "__s32", "__s64",
                   "int8_t", "int16_t", "int32_t", "int64_t"}
TYPE_WORDS = {"signed", "int", "long", "short", "char"}
REL = {"<", "<=", ">", ">="}
STOP = {";", ",", "?", ":", "=", "==", "!=", "&&", "||", "|", "^", "+=", "-=", "*=", "/=",
        "%=", "&=", "|=", "^=", "<<=", ">>=", "<", "<=", ">", ">=", "{", "}"}
OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")": "(", "]": "[", "}": "{"}
TOKEN = re.compile(r"""
    (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<str>"[^"\n]*"|'[^'\n]*')
  | (?P<op><<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#|\.\.\.|\S)
""", re.X)
ZERO = re.compile(r"(0[xX])?0+[uUlL]*$")
DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_][A-Za-z0-9_]*)\(", re.M)


def blank(text):
    """Comments to spaces and literal contents to spaces, keeping every offset and newline."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c == "/" and text.startswith("//", i):
            j = i
            while j < n and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n and text[j + 1] == "\n":
                    out[j] = " "
                    j += 2
                    continue
                out[j] = " "
                j += 1
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                if text[j] == "\\" and j + 1 < n:
                    if text[j + 1] != "\n":
                        out[j] = out[j + 1] = " "
                    j += 2
                    continue
                out[j] = " "
                j += 1
            i = j + 1
        else:
            i += 1
    return "".join(out)


def logical_end(text, start):
    """End offset of the logical line starting at start (backslash-newlines continue it)."""
    i = start
    while True:
        j = text.find("\n", i)
        if j < 0:
            return len(text)
        k = j - 1
        while k >= i and text[k] in " \t\r":
            k -= 1
        if k >= i and text[k] == "\\":
            i = j + 1
            continue
        return j


def tokens(text, start, end):
    toks = []
    for m in TOKEN.finditer(text, start, end):
        s = m.group(0)
        if s == "\\":
            continue
        toks.append((s, m.start()))
    return toks


def match_group(toks, i):
    """Index of the bracket matching toks[i] (an opener), or None."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j][0]
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
            if depth == 0:
                return j if CLOSE[t] == toks[i][0] else None
    return None


def strip_parens(ts):
    while len(ts) >= 2 and ts[0][0] == "(" and match_group(ts, 0) == len(ts) - 1:
        ts = ts[1:-1]
    return ts


def is_type(words):
    if len(words) == 1 and words[0] in SIGNED_TYPEDEFS:
        return True
    if not words or any(w not in TYPE_WORDS for w in words):
        return False
    if "char" in words:
        return words == ["signed", "char"]
    return words != [] and words.count("long") <= 2


def top_minus(ts):
    """Index of the last top-level binary '-' in ts, or None."""
    depth, last = 0, None
    for j, (t, _) in enumerate(ts):
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        elif t == "-" and depth == 0 and j > 0 and (
                ts[j - 1][0] in (")", "]") or re.match(r"[A-Za-z0-9_$.]", ts[j - 1][0])):
            last = j
    return last


def classify(ts):
    """The idiom the operand ts is, as a short text, or None."""
    ts = strip_parens(ts)
    if not ts:
        return None
    if ts[0][0] == "(":
        c = match_group(ts, 0)
        if c is not None and c + 1 < len(ts) and ts[c + 1][0] == "(" \
                and match_group(ts, c + 1) == len(ts) - 1:
            words = [t for t, _ in ts[1:c]]
            if is_type(words):
                inner = strip_parens(ts[c + 2:-1])
                if top_minus(inner) is not None:
                    return "(%s)(a - b)" % " ".join(words)
            return None
    j = top_minus(ts)
    if j is not None:
        left, right = ts[:j], ts[j + 1:]
        if left and right and left[0][0] == "(" and match_group(left, 0) == len(left) - 1 \
                and right[0][0] == "(" and match_group(right, 0) == len(right) - 1:
            return "(a) - (b)"
    return None


def operand(toks, i, step):
    """Tokens of the operand that starts next to index i going in direction step."""
    depth, j = 0, i
    while 0 <= j < len(toks):
        t = toks[j][0]
        if t in (OPEN if step > 0 else CLOSE):
            depth += 1
        elif t in (CLOSE if step > 0 else OPEN):
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and t in STOP:
            break
        j += step
    return toks[i:j] if step > 0 else toks[j + 1:i + 1]


def scan_text(text):
    """Yield (offset, message) for every site in the function-like macros of text."""
    clean = blank(text)
    for m in DEFINE.finditer(clean):
        name = m.group(1)
        end = logical_end(clean, m.start())
        toks = tokens(clean, m.end() - 1, end)
        c = match_group(toks, 0)
        if c is None:
            continue
        body = toks[c + 1:]
        for k, (t, off) in enumerate(body):
            if t not in REL:
                continue
            if k + 1 < len(body) and ZERO.match(body[k + 1][0]):
                ts = operand(body, k - 1, -1)
                kind = classify(ts) if ts else None
                if kind:
                    yield ts[0][1], "macro %s(): %s %s 0" % (name, kind, t)
            if k > 0 and ZERO.match(body[k - 1][0]):
                ts = operand(body, k + 1, +1)
                kind = classify(ts) if ts else None
                if kind:
                    yield body[k - 1][1], "macro %s(): 0 %s %s" % (name, t, kind)


def message(site):
    if "(a) - (b)" in site:
        return ("WARNING: %s: overflows on signed arguments, means a != b on unsigned ones; "
                "report only, macro bodies are not rewritten" % site)
    return ("WARNING: %s relies on wrapping: use the <linux/wrapcmp.h> helper; report only, "
            "macro bodies are not rewritten" % site)


def sites(text):
    """[(line, column, message)] of one file's text: line 1-based, column 0-based."""
    if "define" not in text:
        return []
    out = []
    for off, site in sorted(set(scan_text(text))):
        out.append((text.count("\n", 0, off) + 1, off - (text.rfind("\n", 0, off) + 1),
                    message(site)))
    return out


def scan(text, shown):
    """The report lines (path:line:col: message [macro]) of one file's text."""
    return ["%s:%d:%d: %s [macro]\n" % ((shown,) + s) for s in sites(text)]


def scan_file(path, shown):
    try:
        with open(path, encoding="latin-1") as f:
            text = f.read()
    except OSError as e:
        sys.stderr.write("macro-scan: %s: %s\n" % (path, e))
        return 1
    sys.stdout.write("".join(scan(text, shown)))
    return 0


def main():
    import argparse
    import os
    ap = argparse.ArgumentParser(prog="macro-scan", description=__doc__.split("\n")[0])
    ap.add_argument("--tree", default=None, help="paths are relative to this folder")
    ap.add_argument("--files-from", default=None, help="file with one path a line, - for stdin")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = list(args.files)
    if args.files_from:
        src = sys.stdin if args.files_from == "-" else open(args.files_from)
        files += [l.rstrip("\n") for l in src if l.strip()]
    rc = 0
    for f in files:
        full = os.path.join(args.tree, f) if args.tree else f
        rc |= scan_file(full, f)
    return rc
