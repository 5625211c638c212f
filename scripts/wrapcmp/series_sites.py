"""wrapcmp-series: what a run found and changed, and the text of each file in the series.

A run's wrapcmp.diff is read as change blocks (runs of removed and added lines), so that
the series can leave some out, whitespace-exact: a statement where a site the series
rewrites meets a site of the report it leaves unconverted (below the patch confidence, or
reported only) keeps its original text, whole.  The lines the series adds then get
whitespace-only fixes: tabs for a rewritten line's space indent, a space between a cast and
--/++, and a line over 100 columns (80 in netdev's files) wrapped at the comma of a
helper's arguments.
"""
import collections
import json
import os
import re

from .util import Fatal

HEADER_INCLUDE = "#include <linux/wrapcmp.h>"


def is_header_include(line):
    """The include of the header, in any spelling ("# include" too)."""
    return re.sub(r"^#\s*", "#", line.strip()) == HEADER_INCLUDE
CONFIDENCES = ("low", "moderate", "high")
CONFIDENCE = re.compile(r"\(confidence: (low|moderate|high)\)$")
HELPER = re.compile(r"\b(U8|U16|U32|U64|UINT|ULONG)_CMP_(LT|LE|GT|GE)(?:_WIDE)?\b")
EXISTING = re.compile(r"\b(time_(?:before|after)(?:_eq)?(?:64)?|before|after)\b")
# A call of a helper, new or the kernel's; group 1 is a '!' in front of it.
CALL = re.compile(r"(!\s*)?\b((?:U8|U16|U32|U64|UINT|ULONG)_CMP_(?:LT|LE|GT|GE)(?:_WIDE)?|"
                  r"time_(?:before|after)(?:_eq)?(?:64)?|before|after)\s*\(")
# "use X()", "use time_after() with a and b swapped", "use !before()"
USE = re.compile(r"\buse (!?[A-Za-z_]\w*\(\)(?: with a and b swapped)?)")
PLAIN = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
KIND_OF_RULE = {"wrapcmp_cast": "cast", "wrapcmp_signed": "signed",
                "wrapcmp_temporary": "temporary"}
MAX_COLUMNS = 100
# netdev still wants 80 columns (Documentation/process/maintainer-netdev.rst)
NETDEV_COLUMNS = 80
NETDEV_PATHS = re.compile(r"(net|drivers/net|include/net)/")


def max_columns(path):
    """The line length the file's subsystem wants: 80 for netdev's files, else 100."""
    return NETDEV_COLUMNS if NETDEV_PATHS.match(path or "") else MAX_COLUMNS


# ---------------------------------------------------------------- text helpers

def read_text(path):
    """A file's text, line ends and undecodable bytes kept."""
    with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
        return f.read()


def write_text(path, text):
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
        f.write(text)


def lines_of(text):
    """The lines of text, each with its '\\n' (the last one may have none)."""
    out = text.split("\n")
    last = out.pop()
    out = [l + "\n" for l in out]
    if last:
        out.append(last)
    return out


def columns(line):
    """The width of a line, tabs to the next multiple of 8."""
    n = 0
    for ch in line.rstrip("\r\n"):
        n = (n // 8 + 1) * 8 if ch == "\t" else n + 1
    return n


def balanced(text, open_at):
    """The offset just after the bracket that closes the one at open_at, or None."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] in "([":
            depth += 1
        elif text[i] in ")]":
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def calls_in(text):
    """[(start, end, text)] of the helper calls in text, outermost only."""
    out, pos = [], 0
    while True:
        m = CALL.search(text, pos)
        if not m:
            return out
        end = balanced(text, m.end() - 1)
        if end is None:
            return out
        out.append((m.start(), end, " ".join(text[m.start():end].split())))
        pos = end


def helpers_added(new_minus_old):
    """Counter of wrapcmp helper names in the added minus the removed lines of a diff."""
    c = collections.Counter()
    for line in new_minus_old.splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            c.update(m.group(0) for m in HELPER.finditer(line))
        elif line.startswith("-") and not line.startswith("---"):
            c.subtract(m.group(0) for m in HELPER.finditer(line))
    return collections.Counter({k: v for k, v in c.items() if v > 0})


# ---------------------------------------------------------------- the diff

def split_diff(text):
    """{path: diff text of that file} in the order of the diff (hunk lengths are counted,
    so a removed line that starts with '-- ' is not taken for a file header)."""
    files = collections.OrderedDict()
    cur, buf, left = None, [], [0, 0]
    for line in lines_of(text):
        if left[0] > 0 or left[1] > 0:
            buf.append(line)
            if line.startswith("-"):
                left[0] -= 1
            elif line.startswith("+"):
                left[1] -= 1
            elif not line.startswith("\\"):
                left[0] -= 1
                left[1] -= 1
            continue
        if line.startswith(("diff ", "--- ")) and (cur is not None or buf) and \
                not (line.startswith("--- ") and buf and buf[-1].startswith("diff ")):
            if cur is not None:
                files[cur] = "".join(buf)
            cur, buf = None, []
        m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", line)
        if m:
            left = [int(m.group(1) or 1), int(m.group(2) or 1)]
        if line.startswith("+++ "):
            path = line[4:].split("\t")[0].strip()
            cur = path[2:] if path.startswith("b/") else path
        buf.append(line)
    if cur is not None:
        files[cur] = "".join(buf)
    return files


class Block:
    """A run of removed and added lines: old lines start..start+len(removed)-1 (1-based;
    for an insertion, the added lines go before old line start)."""

    def __init__(self, start):
        self.start, self.removed, self.added = start, [], []

    @property
    def end(self):
        return self.start + len(self.removed) - 1

    def is_include(self):
        added = [a for a in self.added if a.strip()]
        return not self.removed and len(added) == 1 and is_header_include(added[0])


def is_rcu_rename(block):
    """A block that only renames ULONG_CMP_LT()/GE() calls to UINT_CMP_*(): what the run
    adds so that its diff builds alone (kernel_header.build_alone), patch 1's change."""
    def norm(line):
        return " ".join(line[1:].split())
    if not block.removed or len(block.removed) != len(block.added):
        return False
    pairs = [(norm(r), norm(a)) for r, a in zip(block.removed, block.added)]
    return any(r != a for r, a in pairs) and all(
        re.sub(r"\bULONG_CMP_(LT|GE)\b", r"UINT_CMP_\1", r) == a for r, a in pairs)


def blocks_of(fdiff):
    """The change blocks of a one-file unified diff, in order."""
    blocks, cur, old, in_hunk = [], None, 0, False
    for line in lines_of(fdiff):
        m = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", line)
        if m:
            old = int(m.group(1)) + (1 if m.group(2) == "0" else 0)
            cur, in_hunk = None, True
            continue
        if not in_hunk:
            continue
        if line.startswith("\\"):	# \ No newline at end of file: the line before has none
            last = cur.added if cur and cur.added else cur.removed if cur else None
            if last:
                last[-1] = last[-1].rstrip("\n")
            continue
        tag, body = line[:1], line[1:]
        if tag == " ":
            cur = None
            old += 1
        elif tag in "-+" and tag:
            if cur is None:
                cur = Block(old)
                blocks.append(cur)
            if tag == "-":
                cur.removed.append(body)
                old += 1
            else:
                cur.added.append(body)
    return blocks


def apply_blocks(path, old_text, blocks, origins=False):
    """(new text, [was added] per new line) of old_text with blocks applied; with origins,
    [(block, index in its added lines) or None] per new line instead."""
    old = lines_of(old_text)
    out, added = [], []
    pos = 1
    for b in sorted(blocks, key=lambda b: b.start):
        if b.start < pos or b.end > len(old):
            raise Fatal("wrapcmp.diff does not apply to %s at line %d: the tree changed "
                        "since the run; make the run again" % (path, b.start))
        for line in old[pos - 1:b.start - 1]:
            out.append(line)
            added.append(None)
        got = old[b.start - 1:b.start - 1 + len(b.removed)]
        if [g.rstrip("\n") for g in got] != [r.rstrip("\n") for r in b.removed]:
            raise Fatal("wrapcmp.diff does not apply to %s at line %d: the tree changed "
                        "since the run; make the run again" % (path, b.start))
        for k, a in enumerate(b.added):
            out.append(a)
            added.append((b, k))
        pos = b.start + len(b.removed)
    for line in old[pos - 1:]:
        out.append(line)
        added.append(None)
    return "".join(out), added if origins else [a is not None for a in added]


# ---------------------------------------------------------------- the report

def report_only_rules(root):
    """The rules of cocci/ that never rewrite (no - or + line), and the macro scanner."""
    names = {"macro"}
    cocci = os.path.join(root, "cocci")
    for f in os.listdir(cocci):
        if f.endswith(".cocci"):
            with open(os.path.join(cocci, f)) as fh:
                if not re.search(r"(?m)^[-+]", fh.read()):
                    names.add(f[:-len(".cocci")])
    return names


REPORT = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>[\d-]+): (?:WARNING: )?(?P<msg>.*?)"
                    r"\s*\[(?P<rule>[\w-]+)\]\s*$")


def cut_matched(f):
    """The finding's own text: report.json's "matched" holds whole lines."""
    text = (f.get("matched") or "").split("\n")
    if f.get("line_end") == f["line"] + len(text) - 1 and text and \
            f.get("column_end") is not None and f.get("column") is not None:
        text[-1] = text[-1][:f["column_end"]]
        text[0] = text[0][f["column"]:]
    return " ".join("\n".join(text).split())


def read_sites(run_dir, root, threshold):
    """The findings of the run, from report.json (report.txt for an older run).  Each is a
    dict: path, line, col, line_end, rule, msg, confidence, matched, rewritable (a rule
    rewrites it at confidence low), in_diff (wrapcmp.diff rewrites it), exact_because,
    evidence (report.json's compiler_evidence_details of an EVIDENCE=yes run, else None)."""
    report_only = report_only_rules(root)
    sites = []
    js = os.path.join(run_dir, "report.json")
    if os.path.exists(js):
        with open(js, encoding="utf-8", errors="surrogateescape") as f:
            try:
                data = json.load(f)
            except ValueError as e:
                raise Fatal("%s is not JSON (%s): make the run again" % (js, e))
        for f in data:
            msg = re.sub(r"^WARNING: ", "", f["message"])
            s = {"path": f["file"], "line": f["line"], "col": f.get("column") or 0,
                 "line_end": f.get("line_end") or f["line"], "rule": f["rule"], "msg": msg,
                 "confidence": f.get("confidence") or "high", "matched": cut_matched(f),
                 "exact_because": f.get("exact_because"), "in_diff": f.get("rewritten"),
                 # a run with EVIDENCE=yes (make census): what the compilers do with it
                 "evidence": f.get("compiler_evidence_details")
                 if "compiler_evidence" in f else None}
            sites.append(s)
    else:
        txt = os.path.join(run_dir, "report.txt")
        if os.path.exists(txt):
            with open(txt, encoding="utf-8", errors="surrogateescape") as fh:
                for line in fh:
                    m = REPORT.match(line.rstrip("\n"))
                    if m:
                        d = m.groupdict()
                        c = CONFIDENCE.search(d["msg"])
                        sites.append({"path": d["path"], "line": int(d["line"]),
                                      "col": int(d["col"].split("-")[0]),
                                      "line_end": int(d["line"]), "rule": d["rule"],
                                      "msg": d["msg"], "confidence": c.group(1) if c else "high",
                                      "matched": "", "exact_because": None, "in_diff": None,
                                      "evidence": None})
    for s in sites:
        s["rewritable"] = "not rewritten" not in s["msg"] and s["rule"] not in report_only
        if s["confidence"] not in CONFIDENCES:
            s["confidence"] = "high"
        if s["in_diff"] is None:	# a run older than report.json's "rewritten"
            s["in_diff"] = s["rewritable"] and CONFIDENCES.index(s["confidence"]) >= threshold
        s["use"] = use_of(s)
        s["existing"] = bool(s["use"]) and not HELPER.search(s["use"])
        s["kind"] = "existing" if s["existing"] else KIND_OF_RULE.get(s["rule"], s["rule"])
    return sites


def use_of(site):
    """What the report says to write: 'U32_CMP_LT()', 'time_after() with a and b swapped'."""
    m = USE.search(site["msg"])
    return m.group(1) if m else ""


def idiom_of(site, old_text):
    """The idiom as the file writes it, on one line."""
    code = site["matched"]
    if site["rule"] == "wrapcmp_temporary" and code:
        name = re.match(r"[A-Za-z_]\w*", code)
        lines = old_text.split("\n")
        before = "\n".join(lines[max(0, site["line"] - 40):site["line"] - 1])
        rhs = re.findall(r"\b%s\s*=(?!=)\s*([^;]*);" % re.escape(name.group(0)), before) \
            if name else []
        op = re.search(r"\.\.\. d ([<>]=?) 0", site["msg"])
        if name and code == name.group(0) and op:	# the finding spans the name only
            code = "%s %s 0" % (code, op.group(1))
        if rhs:
            return "%s = %s; ... %s" % (name.group(0), " ".join(rhs[-1].split()), code)
    return code


def temporary_span(site, old_text):
    """(first, last) lines of a temporary's assignment through its comparison."""
    name = re.match(r"[A-Za-z_]\w*", site["matched"] or "")
    lines = old_text.split("\n")
    first = site["line"]
    if name:
        for n in range(site["line"] - 1, max(0, site["line"] - 40), -1):
            if re.search(r"\b%s\s*=(?!=)" % re.escape(name.group(0)), lines[n - 1]):
                first = n
                break
    return first, site["line_end"]


# ---------------------------------------------------------------- the left-out sites' readings

def top_level(text, pattern):
    """Start offsets of the matches of pattern outside brackets."""
    depth, hits = 0, []
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and re.match(pattern, text[i:]):
            hits.append(i)
    return hits


def strip_parens(text):
    """text without the parentheses that enclose all of it: ((a - b)) -> a - b."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for ch in text[1:-1]:
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth < 0:	# (a) - (b): the first '(' closes before the end
                return text
        if depth:
            return text
        text = text[1:-1].strip()
    return text


def operands(difference):
    """(a, b) of the difference a - b, or None."""
    text = strip_parens(difference)
    m = re.match(r"\((?:[A-Za-z_][\w ]*)\)\s*(\(.*\))$", text, re.S)
    if m:
        text = strip_parens(m.group(1))
    cut = [i for i in top_level(text, r"-(?![->=])") if i > 0 and
           re.search(r"[\w)\]]\s*$", text[:i])]
    if not cut:
        return None
    return strip_parens(text[:cut[-1]]), strip_parens(text[cut[-1] + 1:])


def readings(site, old_text):
    """(the code, the plain comparison, the helper call) of a left-out site, or None."""
    h = re.search(r"\buse ((?:U8|U16|U32|U64|UINT|ULONG)_CMP_(LT|LE|GT|GE))\(\)", site["msg"])
    if not h or not site["matched"]:
        return None
    code = idiom_of(site, old_text)
    if site["rule"] == "wrapcmp_temporary":
        if " = " not in code:
            return None
        ab = operands(code.split(" = ", 1)[1].split(";", 1)[0])
    else:
        rel = top_level(code, r"(<=|>=|<(?!<)|>(?!>))")
        rel = [i for i in rel if code[i - 1:i] not in ("-", "<", ">")]
        if len(rel) != 1:
            return None
        op = re.match(r"<=|>=|<|>", code[rel[0]:]).group(0)
        left, right = code[:rel[0]], code[rel[0] + len(op):]
        ab = operands(right if strip_parens(left) in ("0",) else left)
    if not ab:
        return None
    a, b = ab
    return code, "%s %s %s" % (a, PLAIN[h.group(2)], b), "%s(%s, %s)" % (h.group(1), a, b)


# ---------------------------------------------------------------- statements

def statement_spans(text):
    """[(first line, last line)] of the statements of a C file: the text between two of
    ';', '{', '}' outside brackets, comments and strings; a preprocessor directive (with its
    continuation lines) is a statement of its own."""
    spans = []
    i, n, line = 0, len(text), 1
    depth, start = 0, None
    at_line_start = True
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
            at_line_start = True
            i += 1
            continue
        if ch in " \t\r\f\v":
            i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            line += text.count("\n", i, j)
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if ch == "#" and at_line_start:
            first = line
            j = i
            while True:
                k = text.find("\n", j)
                if k < 0:
                    k = n
                    break
                if text[k - 1:k] == "\\" or text[k - 2:k] == "\\\r":
                    j = k + 1
                    continue
                break
            line += text.count("\n", i, k)
            spans.append((first, line))
            i = k
            continue
        at_line_start = False
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            if start is None:
                start = line
            continue
        if start is None:
            start = line
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch in ";{}" and depth == 0:
            spans.append((start, line))
            start = None
        i += 1
    if start is not None:
        spans.append((start, line))
    return spans


def statement_of(spans, line):
    """The innermost span that holds line (directives first: they are exact)."""
    best = None
    for s in spans:
        if s[0] <= line <= s[1] and (best is None or s[1] - s[0] < best[1] - best[0]):
            best = s
    return best


class FileChange:
    """One file of the series: its blocks (those the series keeps), the sites it rewrites,
    the statements taken out."""

    def __init__(self, path, old_text, fdiff):
        self.path, self.old_text, self.fdiff = path, old_text, fdiff
        self.blocks = blocks_of(fdiff)
        self.sites = []           # rewritten by the series
        self.mixed = []           # dicts: first, last, text, rewritten, unconverted
        self.fixups = []          # "path:line: what"
        self.new_text = None
        self.added = []


def take_out_mixed(fc, rewritten, unconverted):
    """Leave out of fc the statements where a rewritten site and an unconverted one meet.
    Returns the sites still rewritten."""
    spans = statement_spans(fc.old_text)
    at = collections.defaultdict(lambda: ([], []))
    for s in rewritten:
        at[statement_of(spans, s["line"])][0].append(s)
    for s in unconverted:
        at[statement_of(spans, s["line"])][1].append(s)
    drop = set()
    for span, (rw, un) in sorted((k, v) for k, v in at.items() if k is not None):
        if not rw or not un:
            continue
        first, last = span
        for s in rw:
            if s["rule"] == "wrapcmp_temporary":
                f, l = temporary_span(s, fc.old_text)
                first, last = min(first, f), max(last, l)
        for i, b in enumerate(fc.blocks):
            if (b.removed and b.start <= last and b.end >= first) or \
                    (not b.removed and first < b.start <= last):
                drop.add(i)
        old_lines = fc.old_text.split("\n")
        fc.mixed.append({"first": span[0], "last": span[1], "rewritten": rw, "unconverted": un,
                         "text": " ".join(" ".join(old_lines[span[0] - 1:span[1]]).split())})
    if not drop:
        return rewritten
    kept = [b for i, b in enumerate(fc.blocks) if i not in drop]
    gone = [b for i, b in enumerate(fc.blocks) if i in drop]
    lost = [s for s in rewritten
            if any(b.removed and b.start <= s["line_end"] and b.end >= s["line"] for b in gone)]
    fc.blocks = kept
    still = [s for s in rewritten if s not in lost]
    # no helper of <linux/wrapcmp.h> left: no include either
    if not any(HELPER.search("".join(b.added)) for b in kept if not b.is_include()):
        fc.blocks = [b for b in kept if not b.is_include()]
    return still


# ---------------------------------------------------------------- whitespace fixes

CAST_WORDS = r"(?:unsigned |signed |const |volatile )*(?:int|long|short|char|long long|[su](?:8|16|32|64)|__[su](?:8|16|32|64)|u?int(?:8|16|32|64)_t)"
FIXUPS = [
    # checkpatch CODE_INDENT (ERROR): the rewritten line keeps the original's space indent.
    ("indent with tabs", re.compile(r"^(\t*)( {8,})(?=\S)"),
     lambda m: m.group(1) + "\t" * (len(m.group(2)) // 8) + " " * (len(m.group(2)) % 8)),
    # checkpatch SPACING (ERROR): spatch prints "(int) --x" as "(int)--x".
    ("space between a cast and --/++", re.compile(r"(\(%s\))(--|\+\+)(?=[\w(])" % CAST_WORDS),
     lambda m: m.group(1) + " " + m.group(2)),
    # checkpatch SPACING (ERROR): "#define tick_before(t1,t2)" keeps its parameter list
    # when the rule rewrites the body on the same line.
    ("space after a comma of a macro's parameters",
     re.compile(r"^(\s*#\s*define\s+\w+\()([\w\s,.]*,[^\s)][\w\s,.]*)(?=\))"),
     lambda m: m.group(1) + re.sub(r",\s*", ", ", m.group(2))),
]


def indent_to(col):
    return "\t" * (col // 8) + " " * (col % 8)


def rewrap(line, limit=MAX_COLUMNS, fit=None):
    """A line over limit columns cut in two at the comma of a helper call's arguments,
    the second part aligned with the character after the call's '(' (what checkpatch
    wants of a continuation), both parts within fit columns (default: limit); None when
    no such cut fits."""
    body = line.rstrip("\r\n")
    end = line[len(body):]
    if columns(body) <= limit:
        return None
    limit = fit or limit
    for start, stop, _ in calls_in(body):
        open_at = body.index("(", start)
        depth, commas = 0, []
        for i in range(open_at, stop):
            if body[i] in "([":
                depth += 1
            elif body[i] in ")]":
                depth -= 1
            elif body[i] == "," and depth == 1:
                commas.append(i)
        col = columns(body[:open_at + 1])
        for c in reversed(commas):
            first = body[:c + 1].rstrip()
            second = indent_to(col) + body[c + 1:].lstrip()
            if columns(first) <= limit and columns(second) <= limit and \
                    body[c + 1:].strip():
                return [first + end, second + end]
    return None


def open_paren_col(line):
    """The column after the last unclosed '(' of a line that ends in &&, || or a comma
    (where checkpatch --strict wants the next line aligned), or None."""
    body = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', lambda m: "x" * len(m.group(0)),
                  line.rstrip("\r\n"))
    if not re.search(r"(&&|\|\||,)\s*$", body):
        return None
    stack = []
    for i, ch in enumerate(body):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            stack.pop()
    return columns(body[:stack[-1] + 1]) if stack else None


def trailing_op(line):
    m = re.search(r"(&&|\|\||[-+*/%&|^?:<>=]=?)\s*$", line.rstrip("\r\n"))
    return m.group(1) if m else None


def leading(line):
    return line[:len(line) - len(line.lstrip(" \t"))]


def finish(fc):
    """fc.new_text: the kept blocks applied, then the whitespace fixes on added lines:
    FIXUPS; a continuation line aligned with the open parenthesis of the line before, or,
    after an operator, indented as the original continuation line was; a line over
    max_columns() (80 in netdev's files, else 100) wrapped at the comma of a helper's
    arguments."""
    text, origins = apply_blocks(fc.path, fc.old_text, fc.blocks, origins=True)
    limit = max_columns(fc.path)
    lines = lines_of(text)
    out, flags, done = [], [], []
    for line, origin in zip(lines, origins):
        if origin is None:
            out.append(line)
            flags.append(False)
            continue
        b, k = origin
        for what, rx, repl in FIXUPS:
            new = rx.sub(repl, line)
            if new != line:
                done.append((len(out) + 1, what))
                line = new
        if k > 0 and flags[-1]:
            want, what = None, None
            col = open_paren_col(out[-1])
            if col is not None:
                want, what = indent_to(col), "continuation aligned with the open parenthesis"
            elif k < len(b.removed) and trailing_op(b.added[k - 1]) and \
                    trailing_op(b.added[k - 1]) == trailing_op(b.removed[k - 1]):
                want, what = leading(b.removed[k]), "the original continuation indent kept"
            if want is not None and leading(line) != want and line.strip():
                line = want + line.lstrip(" \t")
                done.append((len(out) + 1, what))
        cut = rewrap(line, limit)
        if cut:
            done.append((len(out) + 1, "wrapped at the helper's comma (over %d columns)"
                         % limit))
            out.extend(cut)
            flags.extend([True, True])
        else:
            out.append(line)
            flags.append(True)
    fc.new_text = "".join(out)
    fc.added = flags
    per_line = collections.OrderedDict()
    for n, what in done:
        if what not in per_line.setdefault(n, []):
            per_line[n].append(what)
    fc.fixups = ["%s:%d: %s" % (fc.path, n, "; ".join(w)) for n, w in per_line.items()]
    return fc.new_text


def include_after_local(fc):
    """The line of the added #include <linux/wrapcmp.h> when a local #include "..." lies
    between it and the file's last <linux/...> include before it (or before it at all,
    when the file's <linux/...> includes all come later, e.g. inside an #if: placing it
    first there is right); else None."""
    lines = fc.new_text.split("\n")
    linux = [i for i, l in enumerate(lines) if re.match(r"\s*#\s*include\s*<linux/", l)
             and not is_header_include(l)]
    for i, (line, was_added) in enumerate(zip(lines, fc.added)):
        if not (was_added and is_header_include(line)) or not linux:
            continue
        before = [j for j in linux if j < i]
        if any(re.match(r'\s*#\s*include\s*"', l)
               for l in lines[before[-1] + 1 if before else 0:i]):
            return i + 1
    return None


def replacements(fc):
    """{id(site): the helper call that replaces it}, from the added lines of the block
    holding each site (paired in order when a block holds several)."""
    out = {}
    for b in fc.blocks:
        if not b.removed:
            continue
        here = sorted((s for s in fc.sites if b.start <= s["line"] <= b.end),
                      key=lambda s: (s["line"], s["col"]))
        calls = [c[2] for c in calls_in("".join(b.added))]
        removed_calls = [c[2] for c in calls_in("".join(b.removed))]
        calls = [c for c in calls if c not in removed_calls]
        if len(calls) == len(here):
            for s, c in zip(here, calls):
                out[id(s)] = c
    return out
