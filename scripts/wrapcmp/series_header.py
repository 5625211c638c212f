"""wrapcmp-series: the header patch (0001), and what it does to the callers of
rcupdate.h's ULONG_CMP_GE()/ULONG_CMP_LT().

The patch adds include/linux/wrapcmp.h, makes include/linux/rcupdate.h include it instead
of defining its own ULONG_CMP_GE()/ULONG_CMP_LT(), adds the header's KUnit suite
(lib/wrapcmp_kunit.c, its lib/Kconfig.debug entry and lib/Makefile line, see kunit.py) and
a MAINTAINERS section for the new files.

rcupdate.h's macros, ULONG_MAX / 2 >= (a) - (b), subtract in the arguments' own type; the
header's functions subtract in unsigned long.  For each caller in the tree the types of
a - b are looked up (a name or a ->/. field declared in the files of the caller's folder or
in the headers its file includes, READ_ONCE() and data_race() looked through, casts, calls
of functions declared there, integer constants) and the caller is classed:

  unsigned long, or long (wrapping: the kernel builds with -fno-strict-overflow):
      the same answer;
  int, both operands narrower than int: the int difference is exact, the same answer;
  int, at least one operand int: the macro is true exactly when the 32-bit difference is
      negative, which is UINT_CMP_LT()/UINT_CMP_GE(); a caller whose two arguments are a
      name or a field declared int is changed to that helper in the header patch, any
      other is reported;
  anything else (unsigned int, 64-bit types, types not found): reported.
"""
import os
import re
import shutil
import subprocess

from . import kernel_header, kunit
from .series_groups import maintainers_with_entry, wrapcmp_entry
from .series_sites import balanced, read_text, write_text

HEADER = kernel_header.HEADER
RCU = kernel_header.RCU
KUNIT_FILES = [kunit.TEST_SOURCE, kunit.KCONFIG, kunit.MAKEFILE]
CALL = re.compile(r"\bULONG_CMP_(LT|GE)\s*\(")

QUALIFIERS = {"const", "volatile", "static", "extern", "register", "inline", "__always_inline",
              "__read_mostly", "__maybe_unused"}
TYPE_WORDS = {"unsigned", "signed", "short", "long", "int", "char", "bool", "_Bool"}
TYPEDEFS = {"u8": "unsigned char", "u16": "unsigned short", "u32": "unsigned int",
            "u64": "unsigned long long", "s8": "signed char", "s16": "short", "s32": "int",
            "s64": "long long", "size_t": "unsigned long", "ssize_t": "long",
            "uintptr_t": "unsigned long", "ulong": "unsigned long", "uint": "unsigned int",
            "ushort": "unsigned short", "bool": "unsigned char", "_Bool": "unsigned char",
            "time64_t": "long long", "ktime_t": "long long"}
for _n in (8, 16, 32, 64):
    TYPEDEFS["__u%d" % _n] = TYPEDEFS["u%d" % _n]
    TYPEDEFS["__s%d" % _n] = TYPEDEFS["s%d" % _n]
    TYPEDEFS["uint%d_t" % _n] = TYPEDEFS["u%d" % _n]
    TYPEDEFS["int%d_t" % _n] = TYPEDEFS["s%d" % _n]
# (rank, unsigned) of the C types, LP64
RANK = {"char": 1, "short": 2, "int": 3, "long": 4, "long long": 5}
KNOWN = {"jiffies": "unsigned long", "ULONG_MAX": "unsigned long", "LONG_MAX": "long",
         "UINT_MAX": "unsigned int", "INT_MAX": "int"}


def normal_type(words):
    """'unsigned long int' -> 'unsigned long', 'u16' -> 'unsigned short'; None if not an
    integer type of C or of the kernel."""
    ws = [w for w in words.split() if w not in QUALIFIERS and not w.startswith("__attribute")]
    if len(ws) == 1 and ws[0] in TYPEDEFS:
        return TYPEDEFS[ws[0]]
    if not ws or any(w not in TYPE_WORDS for w in ws):
        return None
    unsigned = "unsigned" in ws
    base = [w for w in ws if w not in ("unsigned", "signed")]
    if base.count("long") == 2:
        b = "long long"
    elif "long" in base:
        b = "long"
    elif "short" in base:
        b = "short"
    elif "char" in base:
        b = "char"
    elif base in ([], ["int"]):
        b = "int"
    elif base in (["bool"], ["_Bool"]):
        return "unsigned char"
    else:
        return None
    return ("unsigned " if unsigned else "") + b if b != "char" or unsigned else "signed char"


def split_type(t):
    return ("unsigned" in t, RANK[t.replace("unsigned ", "").replace("signed ", "")])


def promoted(t):
    u, r = split_type(t)
    return "int" if r < RANK["int"] else t


def difference_type(ta, tb):
    """The type of a - b under C's usual arithmetic conversions (LP64)."""
    ta, tb = promoted(ta), promoted(tb)
    if ta == tb:
        return ta
    (ua, ra), (ub, rb) = split_type(ta), split_type(tb)
    if ua == ub:
        return ta if ra > rb else tb
    (rs, ut), (sr, st) = ((ra, ta), (rb, tb)) if ua else ((rb, tb), (ra, ta))
    if rs >= sr:
        return ut
    # the signed type is wider: on LP64 long and long long hold every unsigned int
    if rs == RANK["int"]:
        return st
    return "unsigned " + st


# ---------------------------------------------------------------- declarations

DECL = re.compile(r"(?m)^[ \t]*((?:[A-Za-z_]\w*[ \t*]+)+?)([^;(){}]*);")


def declared(name, texts):
    """The integer types a name is declared with in texts (variables, fields, parameters,
    function return types), normalised; {} when none is found."""
    types = set()
    n = re.escape(name)
    for text in texts:
        if name not in text:
            continue
        # declarations: "TYPE a, *b, name[N] = x;"
        for m in re.finditer(r"(?m)^[ \t]*((?:[A-Za-z_]\w*[ \t]+)+)([^;(){}=]*?\b%s\b[^;(){}]*);"
                             % n, text):
            base = m.group(1)
            for d in split_top(m.group(2)):
                dm = re.match(r"\s*\**\s*([A-Za-z_]\w*)", d)
                if dm and dm.group(1) == name:
                    t = normal_type(base)
                    if t:
                        types.add(t)
        # "unsigned long *name" declarations whose first word is on the line
        for m in re.finditer(r"(?m)^[ \t]*((?:[A-Za-z_]\w*[ \t]+)+)\**%s\s*(?:\[[^]]*\])?\s*[;=,]"
                             % n, text):
            t = normal_type(m.group(1))
            if t:
                types.add(t)
        # parameters
        for m in re.finditer(r"[(,]\s*((?:[A-Za-z_]\w*\s+)+)\**%s\s*[,)]" % n, text):
            t = normal_type(m.group(1))
            if t:
                types.add(t)
        # functions: "static inline unsigned long name(" at the start of a line
        for m in re.finditer(r"(?m)^((?:[A-Za-z_]\w*[ \t]+)+)\**%s\s*\(" % n, text):
            t = normal_type(m.group(1))
            if t:
                types.add(t)
    return types


def split_top(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return out


def strip_outer(e):
    e = e.strip()
    while e.startswith("(") and balanced(e, 0) == len(e):
        e = e[1:-1].strip()
    return e


def expr_type(e, scopes):
    """The integer types expression e may have (a name declared with several types has
    several), an empty set when not found.  scopes: lists of texts to search for
    declarations, innermost first."""
    e = strip_outer(" ".join(e.split()))
    m = re.match(r"^(READ_ONCE|data_race|smp_load_acquire)\s*\((.*)\)$", e)
    if m and balanced(e, e.index("(")) == len(e):
        return expr_type(m.group(2).lstrip("&"), scopes)
    m = re.match(r"^\(([A-Za-z_][\w ]*)\)\s*(\S.*)$", e)
    if m and normal_type(m.group(1)):
        return {normal_type(m.group(1))}
    if re.match(r"^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$", e):
        suffix = re.search(r"[uUlL]*$", e).group(0).lower()
        return {{"": "int", "u": "unsigned int", "l": "long", "ul": "unsigned long",
                 "lu": "unsigned long"}.get(suffix, "long long")}
    if e in KNOWN:
        return {KNOWN[e]}
    if re.match(r"^[A-Z][A-Z0-9_]*$", e):
        return {"int"}		# a constant macro: an int constant unless its text says more
    parts = binary_parts(e)
    if parts:
        ts = [expr_type(p, scopes) for p in parts]
        if not all(ts):
            return set()
        out = ts[0]
        for u in ts[1:]:
            out = {difference_type(a, b) for a in out for b in u}
        return out
    m = re.match(r"^([~*-])\s*(.*)$", e)
    if m:
        t = expr_type(m.group(2), scopes)
        return t if m.group(1) == "*" else {promoted(x) for x in t}
    m = re.match(r"^([A-Za-z_]\w*)\s*\(", e)
    if m and balanced(e, m.end() - 1) == len(e):
        return lookup(m.group(1), scopes)
    m = re.match(r"^(?:[A-Za-z_]\w*(?:\[[^]]*\])?\s*(?:->|\.)\s*)*([A-Za-z_]\w*)(\[[^]]*\])?$", e)
    if m:
        return lookup(m.group(1), scopes)
    return set()


def binary_parts(e):
    """The operands of the top-level +, -, &, |, ^, *, /, %, <<, >> of e, or None."""
    depth, cuts, i = 0, [], 0
    while i < len(e):
        ch = e[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and ch in "+-&|^*/%<>" and i > 0:
            prev = e[:i].rstrip()
            two = e[i:i + 2]
            if two in ("->", "++", "--", "&&", "||") or two in ("<=", ">=", "==", "!="):
                i += 2
                continue
            if prev and (prev[-1].isalnum() or prev[-1] in ")]_"):
                width = 2 if two in ("<<", ">>") else 1
                cuts.append((i, width))
                i += width
                continue
        i += 1
    if not cuts:
        return None
    out, last = [], 0
    for at, w in cuts:
        out.append(e[last:at])
        last = at + w
    out.append(e[last:])
    return [p for p in out if p.strip()]


def lookup(name, scopes):
    """The types name is declared with in the innermost scope that declares it."""
    for texts in scopes:
        ts = declared(name, texts)
        if ts:
            return ts
    return set()


def included_headers(work, text, depth=2):
    """The texts of the <...> headers under include/ that text includes, breadth first to
    depth levels."""
    seen, out, level = set(), [], [text]
    for _ in range(depth):
        nxt = []
        for t in level:
            for m in re.finditer(r'(?m)^\s*#\s*include\s*<([^>]+)>', t):
                p = os.path.join(work, "include", m.group(1))
                if p in seen or not os.path.isfile(p):
                    continue
                seen.add(p)
                nxt.append(read_text(p))
        out.extend(nxt)
        level = nxt
    return out


def enclosing_function(text, offset):
    """The text of the function around offset: from the last line that starts a function
    (a line at column 0 that is followed by a '{' line) to offset."""
    starts = [m.start() for m in re.finditer(r"(?m)^[A-Za-z_][^\n;]*\([^;]*?\)\s*\n\{", text)
              if m.start() < offset]
    return text[starts[-1]:offset] if starts else text[:offset]


def plain(e):
    """A name or a ->/. field."""
    return re.match(r"^[A-Za-z_]\w*(\s*(->|\.)\s*[A-Za-z_]\w*)*$", strip_outer(e)) is not None


def rcu_callers(work, idle=False):
    """Every call of ULONG_CMP_LT()/ULONG_CMP_GE() in the tree at work (rcupdate.h's own
    definitions aside), classed: dicts path, line, name, args, types, verdict, change.
    idle: the grep over the tree runs at the lowest priority (nice 19), for a run that
    starts it while spatch has the CPUs."""
    nice = ["nice", "-n", "19"] if idle and shutil.which("nice") else []
    p = subprocess.run(nice + ["grep", "-rlZE", "--include=*.c", "--include=*.h",
                        r"ULONG_CMP_(LT|GE)[[:space:]]*\(", "."], cwd=work,
                       capture_output=True, text=True, errors="surrogateescape")
    out = []
    folder_texts = {}
    for rel in sorted(x[2:] for x in p.stdout.split("\0") if x.startswith("./")):
        if rel in (RCU, HEADER) or rel.startswith(("tools/", "scripts/")):
            continue
        text = read_text(os.path.join(work, rel))
        folder = os.path.dirname(rel)
        if folder not in folder_texts:
            folder_texts[folder] = [read_text(os.path.join(work, folder, f))
                                    for f in sorted(os.listdir(os.path.join(work, folder)))
                                    if f.endswith((".c", ".h")) and
                                    os.path.isfile(os.path.join(work, folder, f))]
        headers = None
        for m in CALL.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if re.match(r"\s*#\s*define\b", text[line_start:m.start()]):
                continue
            end = balanced(text, m.end() - 1)
            if end is None:
                continue
            args = split_top(text[m.end():end - 1])
            if len(args) != 2:
                continue
            if headers is None:
                headers = [text] + included_headers(work, text)
            scopes = [[enclosing_function(text, m.start())], [text], folder_texts[folder],
                      headers]
            types = [sorted(expr_type(a, scopes)) for a in args]
            c = {"path": rel, "line": text.count("\n", 0, m.start()) + 1,
                 "name": m.group(0)[:-1].strip(), "op": m.group(1), "args": [" ".join(a.split()) for a in args],
                 "types": types, "offset": m.start(), "end": end, "change": None}
            c["verdict"] = verdict(c, args)
            out.append(c)
    return out


def verdict(c, args):
    """What the header's ULONG_CMP_*() does to this caller; sets c["change"] for a
    caller to rename."""
    ta, tb = c["types"]
    if not ta or not tb:
        return "types not found: not decided"
    vs = {one_verdict(c["op"], a, b, args) for a in ta for b in tb}
    if len(vs) > 1:
        return "declared with several types (%s; %s): not decided" % (
            " or ".join(sorted(ta)), " or ".join(sorted(tb)))
    v = vs.pop()
    if v.startswith("changed to "):
        c["change"] = "UINT_CMP_" + c["op"]
    return v


def one_verdict(op, ta, tb, args):
    d = difference_type(ta, tb)
    if d in ("unsigned long", "long"):
        return "same"
    if d == "int":
        if split_type(ta)[1] < RANK["int"] and split_type(tb)[1] < RANK["int"]:
            return "same (both narrower than int: the int difference is exact)"
        if ta == "int" and tb == "int" and all(plain(a) for a in args):
            return "changed to UINT_CMP_%s()" % op
        return "int difference: UINT_CMP_%s() would be the same; not changed here" % op
    return "a - b is %s: differs, not changed here" % d


def renamed_calls(text, cs):
    """text with the calls cs (of rcu_callers() on this text) renamed to their "change",
    continuation lines re-aligned with the shorter name."""
    for c in sorted(cs, key=lambda c: -c["offset"]):
        start, end = c["offset"], c["end"]
        call = text[start:end]
        assert call.startswith(c["name"])
        line_start = text.rfind("\n", 0, start) + 1
        old_col = columns_of(text[line_start:start] + c["name"] + "(")
        new = c["change"] + call[len(c["name"]):]
        new_col = old_col - len(c["name"]) + len(c["change"])
        lines = new.split("\n")
        for i in range(1, len(lines)):
            body = lines[i].lstrip(" \t")
            if columns_of(lines[i][:len(lines[i]) - len(body)]) == old_col:
                lines[i] = "\t" * (new_col // 8) + " " * (new_col % 8) + body
        text = text[:start] + "\n".join(lines) + text[end:]
    return text


def callers_to_change(callers):
    """{path: [the callers of that file to rename]}."""
    by_path = {}
    for c in callers:
        if c["change"]:
            by_path.setdefault(c["path"], []).append(c)
    return by_path


def change_callers(work, callers):
    """Rename the calls whose "change" is set, in the tree at work; returns the paths
    changed."""
    by_path = callers_to_change(callers)
    for rel, cs in by_path.items():
        path = os.path.join(work, rel)
        write_text(path, renamed_calls(read_text(path), cs))
    return sorted(by_path)


def columns_of(s):
    n = 0
    for ch in s:
        n = (n // 8 + 1) * 8 if ch == "\t" else n + 1
    return n


# ---------------------------------------------------------------- the patch

def make_header_patch(work, ident):
    """Write the header patch's files into the git copy at work.  Returns (paths, info):
    info holds "reconciled" (rcupdate.h changed), "callers" (rcu_callers()), "changed"
    (the callers' files changed), "kunit" (the KUnit files changed), "maintainers"."""
    info = {}
    rcu = os.path.join(work, RCU)
    reconciled = False
    if os.path.exists(rcu):
        new = kernel_header.reconciled_rcupdate(read_text(rcu))
        if new is not None:
            write_text(rcu, new)
            reconciled = True
    info["reconciled"] = reconciled
    write_text(os.path.join(work, HEADER), kernel_header.header_text(reconciled))
    info["callers"] = rcu_callers(work) if reconciled else []
    info["changed"] = change_callers(work, info["callers"])
    info["kunit"] = kunit.add_to_tree(work)
    mpath = os.path.join(work, "MAINTAINERS")
    text = read_text(mpath)
    new = maintainers_with_entry(text, wrapcmp_entry(ident, [HEADER, kunit.TEST_SOURCE]))
    info["maintainers"] = new is not None
    if new is not None:
        write_text(mpath, new)
    paths = [HEADER] + ([RCU] if reconciled else []) + info["changed"] + info["kunit"] + \
        (["MAINTAINERS"] if info["maintainers"] else [])
    return paths, info
