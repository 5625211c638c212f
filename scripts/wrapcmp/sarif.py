"""SARIF 2.1.0 output of a run (OUT/report.sarif), for code-scanning dashboards.
Standard library only.

  sarif(findings, rules, diffs, tree_label, source=None, tree_root=None,
        header="<linux/wrapcmp.h>") -> dict   (header: a project's, as fixes name it)
      findings    report.json's list as json.load gives it (names with surrogateescape)
      rules       rules.read_rules()'s dicts; the pseudo-rule "macro" is added here
      diffs       {file: bytes of its `diff -u`}, as run.py builds it (split_diff())
      tree_label  summary.txt's name of the tree, in SRCROOT's description
      source      optional callable file -> bytes: exact columns on any line; without
                  it, the finding's "matched" text (exact on UTF-8 lines, and where each
                  U+FFFD there stands for one byte, as in Latin-1 text)
      tree_root   optional absolute path of the tree: SRCROOT then gets its file: URI
  write_sarif(path, ...same...)  UTF-8 JSON, keys sorted, no timestamps: same input,
                                 same bytes
  split_diff(data) -> {file: bytes}          OUT/wrapcmp.diff cut per file
  from_out(out, rules_dir, tree_root=None)   sarif() of a finished OUT folder
                                             (scripts/wrapcmp-sarif OUT)

One run of tool "wrapcmp" (no informationUri: the schema wants an absolute URI, and the
tool has no web page); a reportingDescriptor per rule: id = rule name, fullDescription =
the rule file's leading /// lines, shortDescription = their first sentence, cut at its
first colon, help.text (which GitHub requires) = fullDescription and a word on the rule's
confidence and on fixes.  One result per finding, in report.json's order.  The log keeps
to what GitHub code scanning and GitLab read of SARIF (sarif_subset.py checks it): every
required property, no empty string, relative URIs, the documented values and limits.
Artifact URIs: the name's bytes, all but unreserved characters and '/' percent-encoded,
relative to uriBaseId SRCROOT; urllib.parse.unquote_to_bytes() gives the name back.

Levels: a confidence says how sure the rule is that a wrap test was meant, not how grave
the site is, and no site breaks the build, so no "error": high -> warning, moderate ->
warning, low -> note ("a > b may be what was meant"), anything else -> warning (SARIF's
default).  result.properties.confidence keeps the confidence; a rule's properties have
its // Confidence: header, GitHub's "precision" (high, medium, low) and "problem.severity"
(warning, or recommendation for a note); no "security-severity", which would make every
result a security alert: a wrap test is a correctness problem.  With --evidence,
result.properties.compilerEvidence is report.json's compiler_evidence (exploited, not
exploited, unclear, not compiled), compilerEvidenceSummary and the message's [compiler:
...] the short form report.txt gives, per compiler.

Regions: spatch's and macro-scan's columns are 0-based byte offsets; SARIF's are 1-based
UTF-16 code units (run.columnKind), an undecodable byte counting one; endColumn is the
column after the site.  A macro-scan site has no end: its region runs to the end of the
#define's logical line.  contextRegion: the matched lines.

Fixes, on rewritten findings only: one fix, one artifactChange, from the change blocks
(runs of -/+ lines) of the file's diff.  A block whose removed lines meet the finding's
lines is the finding's; a block that only adds #include <linux/wrapcmp.h> (and a blank
line) is a further replacement in the fix of the file's first rewritten finding; any
other block goes to the next rewritten finding of its hunk (the temporary rule's removed
declaration), else the one before, else the file's first.  A block with as many added as
removed lines, its findings each on one line, is cut per line, so each fix changes its
own line; findings on one line share it.  A deletedRegion is whole lines with their ends
(column 1 to column 1 of the next line; an insertion is empty); insertedContent the
added lines with their ends (CRLF kept), plus "binary" (base64) when not UTF-8.  All fixes
of a file, each distinct replacement once, give the patched file.

partialFingerprints["wrapcmpSite/v1"]: sha256 of rule, file name bytes, matched text with
white space collapsed, and the number of earlier findings with those three: no line
number, so moved code keeps it.
"""
import base64
import hashlib
import json
import os
import re
import sys
import urllib.parse

from .evidence import short

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVELS = {"high": "warning", "moderate": "warning", "low": "note"}
PRECISION = {"high": "high", "moderate": "medium", "low": "low"}
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}
HELP = ("\n\nThe rule's confidence: %s (how sure it is that a wrap test was meant; each "
        "result gives its own).  A result with a fix is rewritten in wrapcmp.diff; one "
        "without a fix is reported only.")
UNKNOWN_TEXT = "/// Findings of %s, a rule that the rules folder does not have.\n"
FINGERPRINT = "wrapcmpSite/v1"
BASE = "SRCROOT"
# the include the runner adds: <linux/wrapcmp.h>, or a project's "...wrapcmp.h"
INCLUDE = re.compile(rb'#include (<linux/wrapcmp\.h>|"[^"]*wrapcmp\.h")')
KERNEL_HEADER = "<linux/wrapcmp.h>"
MACRO_TEXT = ("/// A wrap test inside a function-like #define body that spatch does not "
              "match, found by scripts/macro-scan: a signed cast of a difference, or a "
              "difference of two parenthesized macro arguments, compared with 0.  Reported, "
              "never rewritten: a macro's arguments have no type, and one macro serves many "
              "callers.\n")
HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
C_ESCAPES = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11,
             ord("f"): 12, ord("r"): 13, ord('"'): 34, ord("\\"): 92}


# ---------------------------------------------------------------- names and text

def uri(path):
    """The relative URI of a file name: its bytes, all but unreserved ones and '/'
    percent-encoded."""
    return urllib.parse.quote(os.fsencode(path), safe="/")


def units(raw):
    """The width of bytes in UTF-16 code units, an undecodable byte counting one."""
    return sum(2 if ord(c) > 0xFFFF else 1 for c in raw.decode("utf-8", "surrogateescape"))


def cleaned(x):
    """x with strings that JSON carries as UTF-8: a lone surrogate becomes U+FFFD."""
    if isinstance(x, str):
        return x.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    if isinstance(x, dict):
        return {cleaned(k): cleaned(v) for k, v in x.items()}
    if isinstance(x, list):
        return [cleaned(v) for v in x]
    return x


def content(raw):
    """artifactContent of bytes: their text, and their base64 when they are not UTF-8."""
    try:
        return {"text": raw.decode("utf-8")}
    except UnicodeDecodeError:
        return {"text": raw.decode("utf-8", "replace"),
                "binary": base64.b64encode(raw).decode("ascii")}


def description(text, name):
    """(short, full) from a rule file's first run of /// lines."""
    paras, started = [[]], False
    for line in text.split("\n"):
        if line.startswith("///"):
            started = True
            s = line[3:].strip()
            if s:
                paras[-1].append(s)
            elif paras[-1]:
                paras.append([])
        elif started:
            break
    full = "\n\n".join(" ".join(p) for p in paras if p) or name
    m = re.search(r"[.:](\s|$)", full)
    return (full[:m.start()] + "." if m else full), full


# ---------------------------------------------------------------- unified diffs

def unquote_label(label):
    """A file name from a diff header: git's C quoting undone, a tab and what follows
    an unquoted name dropped, the a/ or b/ taken off."""
    if label.startswith(b'"'):
        out, i = bytearray(), 1
        while i < len(label) and label[i] != 34:
            b = label[i]
            if b == 92 and i + 1 < len(label):
                if label[i + 1:i + 2].isdigit():
                    out.append(int(label[i + 1:i + 4], 8) & 0xFF)
                    i += 4
                    continue
                out.append(C_ESCAPES.get(label[i + 1], label[i + 1]))
                i += 2
                continue
            out.append(b)
            i += 1
        raw = bytes(out)
    else:
        raw = label.split(b"\t", 1)[0]
    if raw[:2] in (b"a/", b"b/"):
        raw = raw[2:]
    return os.fsdecode(raw)


def parse_diff(data):
    """[(file, start offset, end offset, hunks)] of a unified diff; a hunk is
    (old start, old count, [(kind, line bytes with their end)]), kind one of ' -+', a
    line that '\\ No newline at end of file' follows without its '\\n'."""
    lines = [m.group(0) for m in re.finditer(rb"[^\n]*\n|[^\n]+$", data)]
    files, i, off = [], 0, 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(b"--- ") and i + 1 < len(lines) and lines[i + 1].startswith(b"+++ "):
            if files:
                files[-1][2] = off
            files.append([unquote_label(lines[i + 1][4:].rstrip(b"\n")), off, None, []])
            off += len(line) + len(lines[i + 1])
            i += 2
            continue
        m = HUNK.match(line)
        if not m or not files:
            raise ValueError("not a unified diff: %r" % line[:80])
        old, new = int(m.group(2) or 1), int(m.group(4) or 1)
        body = []
        files[-1][3].append((int(m.group(1)), old, body))
        off += len(line)
        i += 1
        while i < len(lines) and (old or new or lines[i].startswith(b"\\")):
            line = lines[i]
            kind = line[:1]
            if kind == b"\\":
                if body:
                    body[-1] = (body[-1][0], body[-1][1].rstrip(b"\n"))
            elif kind in (b" ", b"-", b"+", b"\n"):
                text = line[1:] if kind != b"\n" else b"\n"	# an empty context line
                kind = " " if kind == b"\n" else kind.decode()
                body.append((kind, text))
                old -= kind in " -"
                new -= kind in " +"
            else:
                raise ValueError("a hunk ends early at %r" % line[:80])
            off += len(line)
            i += 1
    if files:
        files[-1][2] = off
    return [tuple(f) for f in files]


def split_diff(data):
    """{file: its part of a diff of many files}."""
    return {f: data[a:b] for f, a, b, _ in parse_diff(data)}


def blocks(hunk):
    """[(hunk's old lines (lo, hi), first old line, removed lines, added lines)]: the
    runs of - and + lines of a hunk; a run that only adds has its insertion line."""
    start, count, body = hunk
    pos = start if count else start + 1
    span = (pos, pos + max(count, 1) - 1)
    out, cur = [], None
    for kind, text in body:
        if kind == " ":
            cur = None
            pos += 1
            continue
        if cur is None:
            cur = (span, pos, [], [])
            out.append(cur)
        if kind == "-":
            cur[2].append(text)
            pos += 1
        else:
            cur[3].append(text)
    return out


def replacement(first, removed, added):
    if not removed:
        end = (first, 1)
    elif removed[-1].endswith(b"\n"):
        end = (first + len(removed), 1)
    else:
        end = (first + len(removed) - 1, units(removed[-1]) + 1)
    r = {"deletedRegion": {"startLine": first, "startColumn": 1,
                           "endLine": end[0], "endColumn": end[1]}}
    if added:
        r["insertedContent"] = content(b"".join(added))
    return r


def fixes_of_file(rel, hunks, rewritten, header=KERNEL_HEADER):
    """{index of a rewritten finding: its fix}; rewritten: [(index, finding)], in order.
    header: where the helpers are, as the fix's description names them."""
    spans = [(i, f["line"], f["line_end"] or f["line"]) for i, f in rewritten]
    pieces = {i: [] for i, _, _ in spans}
    include = {}
    first = spans[0][0]
    for hunk in hunks:
        for (hlo, hhi), line, removed, added in blocks(hunk):
            hit = [s for s in spans if removed and s[1] <= line + len(removed) - 1 and line <= s[2]]
            if hit and len(removed) == len(added) > 1 and all(lo == hi for _, lo, hi in hit):
                parts = [(line + k, [removed[k]], [added[k]]) for k in range(len(removed))]
            else:
                parts = [(line, removed, added)]
            for pline, prem, padd in parts:
                last = pline + max(len(prem), 1) - 1
                owners = [i for i, lo, hi in spans if prem and lo <= last and pline <= hi]
                text = [a.rstrip(b"\r\n") for a in padd if a.strip(b"\r\n")]
                if not owners and not prem and len(text) == 1 and INCLUDE.fullmatch(text[0]):
                    owners = [first]
                    include[first] = text[0].decode("utf-8", "surrogateescape")
                if not owners:
                    near = [s for s in spans if s[1] <= hhi and hlo <= s[2]]
                    after = [s for s in near if s[1] >= last]
                    before = [s for s in near if s[1] < pline]
                    owners = [after[0][0] if after else before[-1][0] if before else first]
                for i in owners:
                    pieces[i].append(replacement(pline, prem, padd))
    out = {}
    for i, lo, hi in spans:
        if not pieces[i]:
            continue
        reps = sorted({json.dumps(r, sort_keys=True): r for r in pieces[i]}.values(),
                      key=lambda r: (r["deletedRegion"]["startLine"],
                                     r["deletedRegion"]["endLine"]))
        what = "line %d" % lo if lo == hi else "lines %d-%d" % (lo, hi)
        out[i] = {"description": {"text": "Rewrite %s with the %s helper, as wrapcmp.diff "
                                  "does%s" % (what, header, "; also add " + include[i]
                                              if i in include else "")},
                  "artifactChanges": [{"artifactLocation": {"uri": uri(rel), "uriBaseId": BASE},
                                       "replacements": reps}]}
    return out


# ---------------------------------------------------------------- the log

def region(f, lines, top):
    """The finding's region; lines[n - top] is line n's bytes without its '\\n'."""
    def line_of(n):
        return lines[n - top] if 0 <= n - top < len(lines) else b""
    first = line_of(f["line"])
    r = {"startLine": f["line"], "startColumn": units(first[:f["column"] or 0]) + 1}
    if f["line_end"] is not None and f["column_end"] is not None:
        r["endLine"] = f["line_end"]
        r["endColumn"] = units(line_of(f["line_end"])[:f["column_end"]]) + 1
    else:	# macro-scan: to the end of the logical line
        r["endLine"] = f["line"] + f["matched"].count("\n")
        r["endColumn"] = units(line_of(r["endLine"]).rstrip(b"\r")) + 1
    return r


def fingerprint(f, seen):
    key = (f["rule"].encode("utf-8", "surrogatepass"), os.fsencode(f["file"]),
           " ".join(f["matched"].split()).encode("utf-8", "surrogatepass"))
    seen[key] = seen.get(key, -1) + 1
    h = hashlib.sha256()
    for part in key + (str(seen[key]).encode(),):
        h.update(part + b"\0")
    return h.hexdigest()


def descriptor(name, text, confidence):
    short, full = description(text, name)
    c = str(confidence).lower()
    level = LEVELS.get(c, "warning")
    return {"id": name, "shortDescription": {"text": short}, "fullDescription": {"text": full},
            "help": {"text": full + HELP % confidence},
            "defaultConfiguration": {"level": level},
            "properties": {"confidence": c, "precision": PRECISION.get(c, "medium"),
                           "problem.severity": PROBLEM_SEVERITY[level]}}


def sarif(findings, rules, diffs, tree_label, source=None, tree_root=None,
          header=KERNEL_HEADER):
    descs = [descriptor(r["name"], r["text"], r["confidence"]) for r in rules
             if r["name"] != "macro"]
    descs.append(descriptor("macro", MACRO_TEXT, "Moderate"))
    index = {d["id"]: k for k, d in enumerate(descs)}
    for f in findings:		# a rule the list does not know still gets a descriptor
        if f["rule"] not in index:
            index[f["rule"]] = len(descs)
            descs.append(descriptor(f["rule"], UNKNOWN_TEXT % f["rule"], "unknown"))
    fixes = {}
    for rel, data in diffs.items():
        hunks = [h for _, _, _, hs in parse_diff(data) for h in hs]
        mine = [(i, f) for i, f in enumerate(findings) if f["file"] == rel and f["rewritten"]]
        if hunks and mine:
            fixes.update(fixes_of_file(rel, hunks, mine, header))
    files, results, seen = {}, [], {}
    for i, f in enumerate(findings):
        if source is not None and f["file"] not in files:
            try:
                files[f["file"]] = source(f["file"]).split(b"\n")
            except (OSError, KeyError):
                files[f["file"]] = None
        if files.get(f["file"]) is None:	# matched: a U+FFFD was most likely one byte
            lines = [l.replace("\ufffd", "\udcff").encode("utf-8", "surrogateescape")
                     for l in f["matched"].split("\n")]
            top = f["line"]
        else:
            lines, top = files[f["file"]], 1
        c = f["confidence"]
        props = {"confidence": c, "rewritten": bool(f["rewritten"])}
        if f.get("exact_because"):
            props["exactBecause"] = f["exact_because"]
        message = f["message"]
        if "compiler_evidence" in f:	# --evidence: the verdict, and report.txt's words
            words = short({"compiler_evidence": f["compiler_evidence"],
                           "details": f.get("compiler_evidence_details") or []})
            props["compilerEvidence"] = f["compiler_evidence"]
            props["compilerEvidenceSummary"] = words
            message = "%s [%s]" % (message, words)
        res = {"ruleId": f["rule"], "ruleIndex": index[f["rule"]],
               "level": LEVELS.get(c, "warning"), "message": {"text": message},
               "locations": [{"physicalLocation": {
                   "artifactLocation": {"uri": uri(f["file"]), "uriBaseId": BASE},
                   "region": region(f, lines, top),
                   "contextRegion": {"startLine": f["line"],
                                     "endLine": f["line"] + f["matched"].count("\n"),
                                     "snippet": {"text": f["matched"]}}}}],
               "partialFingerprints": {FINGERPRINT: fingerprint(f, seen)},
               "properties": props}
        if i in fixes:
            res["fixes"] = [fixes[i]]
        results.append(res)
    base = {"description": {"text": "the scanned tree: %s" % tree_label}}
    if tree_root:
        base["uri"] = "file://" + urllib.parse.quote(
            os.fsencode(os.path.abspath(tree_root)).rstrip(b"/") + b"/", safe="/")
    run = {"tool": {"driver": {"name": "wrapcmp", "rules": descs}},
           "originalUriBaseIds": {BASE: base}, "columnKind": "utf16CodeUnits",
           "defaultEncoding": "utf-8", "newlineSequences": ["\r\n", "\n"],
           "results": results}
    return cleaned({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]})


def dumps(log):
    return json.dumps(log, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write_log(path, log):
    """A SARIF log into path, replaced at once."""
    tmp = "%s.tmp-%d" % (path, os.getpid())
    with open(tmp, "wb") as out:
        out.write(dumps(log).encode("utf-8"))
    os.replace(tmp, path)


def write_sarif(path, *args, **kw):
    """sarif(*args, **kw) into path."""
    write_log(path, sarif(*args, **kw))


def from_out(out, rules_dir, tree_root=None):
    """sarif() of a finished OUT folder (report.json, wrapcmp.diff, summary.txt)."""
    from .rules import read_rules
    with open(os.path.join(out, "report.json"), encoding="utf-8") as f:
        findings = json.load(f)
    with open(os.path.join(out, "wrapcmp.diff"), "rb") as f:
        diffs = split_diff(f.read())
    label, header = "?", KERNEL_HEADER
    with open(os.path.join(out, "summary.txt"), encoding="utf-8",
              errors="surrogateescape") as f:
        for line in f:
            if line.startswith("tree: "):
                label = line[6:].rstrip("\n")
            m = re.match(r"a C project, not a kernel tree: the header is (.+?) \(", line)
            if m:
                header = m.group(1)
    source = None
    if tree_root:
        def source(rel):
            with open(os.path.join(os.fsencode(tree_root), os.fsencode(rel)), "rb") as f:
                return f.read()
    return sarif(findings, read_rules(rules_dir), diffs, label, source, tree_root, header)


def main(argv=None):
    import argparse
    from .util import Fatal, ROOT
    ap = argparse.ArgumentParser(prog="wrapcmp-sarif", description="OUT/report.sarif "
                                 "(SARIF 2.1.0) from a finished wrapcmp-run OUT folder")
    ap.add_argument("out", help="the OUT folder of scripts/wrapcmp-run")
    ap.add_argument("--rules", default=os.path.join(ROOT, "cocci"))
    ap.add_argument("--tree", help="the scanned tree, unchanged since the run: exact "
                    "columns on non-UTF-8 lines, and SRCROOT's file: URI")
    ap.add_argument("-o", "--output", help="default OUT/report.sarif")
    a = ap.parse_args(argv)
    try:
        log = from_out(a.out, a.rules, a.tree)
    except (OSError, ValueError, Fatal) as e:
        sys.stderr.write("wrapcmp-sarif: error: %s\n" % e)
        return 2
    path = a.output or os.path.join(a.out, "report.sarif")
    write_log(path, log)
    print(path)
    return 0
