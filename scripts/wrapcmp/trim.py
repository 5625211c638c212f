"""Trimmed copies for spatch: function bodies that cannot hold a site, blanked.

spatch parses every function of a file and runs every rule over each, but a rule can
match only in a function whose body holds a comparison with zero and a '-' (every
rule's site does: prefilter.c, items 1-5; the temporary rule's assignment, its
comparison and every use of d in between lie in one body), or uses a macro of the file
that could give it one of those (spatch reads the file's own #define lines: a '<', '>',
'-' or '##' in the macro's body, or a name of such a macro).  So the fast pass gives
spatch a copy of each file in which the other bodies are blanked: every byte between
their braces but the line ends becomes a space.  Lines and columns stay where they
were, and everything outside the bodies stays as it is: declarations, types,
#define and #include lines, and each function's header, which declares its type.
The rules' Python reads the untrimmed text of the file (WRAPCMP_SOURCES, the
snapshot's folder), for the evidence it looks for all over the file.

A body is blanked only where the braces are surely a function's: a '{' at the top
level whose header ends in  name(...)  after a type (an identifier or '*'), perhaps
followed by attributes  __x(...)  and no directive line inside the body.  A file
whose braces do not balance outside comments, strings and directives (as an #if
with a '{' in each branch makes them) is not trimmed at all.  untrim() puts the
patched copy's changes back into the whole file, and says so when a change touches a
blanked line (the file is then run again whole)."""
import hashlib
import os
import re

from .layout import opcodes
from .util import read_bytes, write_bytes

# comments, strings and character constants (\\. also takes a line splice)
COMMENT = rb"/\*.*?\*/|//(?:[^\n\\]|\\.)*"
LITERAL = rb"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"
# what the scan stops at: a directive line (^: a line's start), a brace, and a run of
# other code in one piece (comments, literals and line ends that start no directive
# in it, a quote that starts none as itself), so that the scan stops rarely
EVENT = re.compile(
    rb"(?P<directive>^[ \t]*#(?:" + COMMENT + rb"|[^\n\\/]|\\.|/)*)"
    rb"|(?P<open>\{)|(?P<close>\})"
    rb"|(?P<code>(?:[^{}\"'/\n]+|" + LITERAL + rb"|[\"']|" + COMMENT +
    rb"|/|\n(?![ \t]*#))+)", re.S | re.M)
NOISE = re.compile(COMMENT + rb"|" + LITERAL, re.S)
TOKEN = re.compile(rb"[A-Za-z_]\w*|\S")
NOT_A_NAME = frozenset(
    b"if while for switch return sizeof typeof __typeof__ __typeof _Alignof alignof "
    b"__alignof__ __attribute__ __attribute asm __asm__ __asm _Static_assert do else "
    b"case goto".split())
NOT_A_TYPE = frozenset(b"else do return case goto struct union enum typedef".split())
AGGREGATE = frozenset(b"struct union enum".split())
# what a site needs in its body: a comparison with zero (a lenient superset: any
# '<' or '>' with a 0 beside it, over an opening or closing parenthesis) and a '-'
ZERO_COMPARISON = re.compile(rb"[<>]=?\s*(?:\(\s*)?0|0\w*\s*(?:\)\s*)?[<>]")
MINUS = re.compile(rb"-(?!>)")
SPLICE = re.compile(rb"\\\r?\n")
DEFINE = re.compile(rb"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(.*)", re.S)
# a macro whose body could give a site its operator, its 0 or its '-' (spatch takes
# them from the file's own #define: testcases/cast_macro_operator.c)
MACRO_PART = re.compile(rb"[<>-]|##")
NAME = re.compile(rb"[A-Za-z_]\w*")


def is_function_header(text):
    """True when text, the code before a top-level '{' (comments and literals blanked),
    ends as a function definition's header does: ... type name(...) attributes."""
    toks = TOKEN.findall(text)
    end = len(toks)
    while end and toks[end - 1] == b")":
        depth, k = 0, end - 1
        while k >= 0:
            if toks[k] == b")":
                depth += 1
            elif toks[k] == b"(":
                depth -= 1
                if depth == 0:
                    break
            k -= 1
        if k < 1:
            return False
        name, before = toks[k - 1], toks[k - 2] if k >= 2 else b""
        if not NAME.fullmatch(name) or name in NOT_A_NAME:
            return False
        attribute = name.startswith(b"__")
        if (before == b"*" or NAME.fullmatch(before) and
                before not in NOT_A_TYPE) and not (
                    attribute and k >= 3 and toks[k - 3] in AGGREGATE):
            return True
        if not attribute:
            return False
        end = k - 1		# an attribute after the parameters: look before it
    return False


def may_hold_site(body, macros):
    """Whether a body may hold a rule's site; macros: a pattern of
    the names of the file's macros that could give it a part of one, or None."""
    body = NOISE.sub(b" ", SPLICE.sub(b"", body))	# no comment or literal holds a token
    return macros is not None and macros.search(body) is not None or \
        ZERO_COMPARISON.search(body) is not None and MINUS.search(body) is not None


def site_macros(defines):
    """A pattern of the names, among the file's #define lines, of the macros whose body
    holds a '<', '>', '-' or '##', or names such a macro; None when there is none."""
    bodies = {}
    for d in defines:
        m = DEFINE.match(SPLICE.sub(b"", d))
        if m:
            bodies.setdefault(m.group(1), []).append(m.group(2))
    found = {n for n, bl in bodies.items() if any(MACRO_PART.search(b) for b in bl)}
    grown = True
    while grown:
        grown = False
        for n, bl in bodies.items():
            if n not in found and any(set(NAME.findall(b)) & found for b in bl):
                found.add(n)
                grown = True
    if not found:
        return None
    return re.compile(rb"\b(?:%s)\b" % b"|".join(re.escape(n) for n in sorted(found)))


BLANK = bytes(b if b == 10 else 32 for b in range(256))	# a space for every byte but \n


def blank(data, start, end):
    return data[start:end].translate(BLANK)


def trimmed(data):
    """data (a C file's bytes) with the bodies that cannot hold a site blanked, or None
    when no body is blanked (none can be, or the braces do not balance)."""
    depth = 0
    since = 0		# where the code after the last top-level '}' or directive starts
    body = None		# (offset after '{', whether its header is a function's)
    directive = False	# the body has a directive line
    cuts, defines = [], []
    for m in EVENT.finditer(data):
        kind = m.lastgroup
        if kind == "open":
            if depth == 0:
                head = NOISE.sub(b" ", data[since:m.start()])
                head = head[max(head.rfind(b";"), head.rfind(b"}")) + 1:]
                body = (m.end(), is_function_header(head))
                directive = False
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                start, function = body
                if function and not directive:
                    cuts.append((start, m.start()))
                since = m.end()
        elif kind == "directive":
            defines.append(m.group())
            if depth == 0:
                since = m.end()
            else:
                directive = True
    if depth != 0:
        return None
    macros = site_macros(defines)
    cuts = [(s, e) for s, e in cuts if not may_hold_site(data[s:e], macros)]
    if not cuts:
        return None
    out, at = [], 0
    for s, e in cuts:
        out += [data[at:s], blank(data, s, e)]
        at = e
    out.append(data[at:])
    return b"".join(out)


def untrim(original, trimmed_data, result):
    """The whole file patched as spatch patched its trimmed copy (result), or None when
    a change touches a line that was blanked."""
    o = original.split(b"\n")
    t = trimmed_data.split(b"\n")
    r = result.split(b"\n")
    if len(o) != len(t):
        return None
    a = [x.decode("latin-1") for x in t]
    b = [x.decode("latin-1") for x in r]
    out = []
    for op, i1, i2, j1, j2 in opcodes(a, b):
        if op == "equal":
            out += o[i1:i2]
        elif any(o[i] != t[i] for i in range(i1, i2)):
            return None
        else:
            out += r[j1:j2]
    return b"\n".join(out)


def write_trimmed(src, dst):
    """Write the trimmed copy of file src (or src as it is) to dst, whole or not at all
    (a retried job writes it again)."""
    data = read_bytes(src)
    write_bytes(dst + ".tmp", trimmed(data) or data)
    os.replace(dst + ".tmp", dst)


with open(__file__, "rb") as _f:
    # in the cache's key of a trimmed file's results: what decides the trimmed copy
    TRIM_KEY = "trimmed-" + hashlib.sha256(_f.read()).hexdigest()[:16]
