"""The output files of a run, the check that the report and the diff agree, and the
lock that keeps two runs out of one OUT."""
import errno
import fcntl
import json
import os
import re
import shutil
import tempfile
import time

from .sources import byte_order, report_name
from .util import Fatal, write_bytes, write_text

# how report.txt says that a site lies in a report-only folder (run.py writes it, the
# series counts it)
REPORT_ONLY_NOTE = "is reported, never patched"

CONFIDENCES = ("low", "moderate", "high")
CONFIDENCE_IN_MESSAGE = re.compile(r"\(confidence: (low|moderate|high)\)$")
HELPER_INCLUDE = b"#include <linux/wrapcmp.h>"


def confidence_rank(c):
    """Order of a confidence; one the runner does not know is left to the rule's own
    -D confidence= test, so it ranks above all."""
    return CONFIDENCES.index(c) if c in CONFIDENCES else len(CONFIDENCES)


def confidence_of(f, conf):
    """A rule gives each finding its confidence at the end of the message; else the
    rule file's // Confidence: header."""
    m = CONFIDENCE_IN_MESSAGE.search(f["message"])
    return m.group(1) if m else conf.get(f["rule"], "Unknown").lower()


def finding_key(f):
    return (byte_order(f["file"]), f["line"], f["col"], f["rule"], f["message"])


def unique_findings(findings):
    uniq = {}
    for f in findings:
        uniq[finding_key(f)] = f
    return [uniq[k] for k in sorted(uniq)]


def matched_text(text_of, f):
    lines = text_of(f["file"])
    lo = f["line"]
    hi = f["line_end"] or lo
    if f["rule"] == "macro":	# the define's logical line
        while hi <= len(lines) and lines[hi - 1].rstrip().endswith("\\"):
            hi += 1
    return "\n".join(lines[lo - 1:hi])


# ---------------------------------------------------------------- report and diff agree

def hunks(diff):
    """[(removed old line numbers, added lines)] of a one-file unified diff."""
    out, old, cur = [], 0, None
    for line in diff.split(b"\n"):
        m = re.match(rb"@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@", line)
        if m:
            old = int(m.group(1))
            cur = ([], [])
            out.append(cur)
        elif cur is None:	# the --- and +++ lines
            continue
        elif line.startswith(b"-"):
            cur[0].append(old)
            old += 1
        elif line.startswith(b"+"):
            cur[1].append(line[1:])
        elif line.startswith(b" "):
            old += 1
    return out


def directive(line):
    """A line with its end and the blanks around its '#' dropped ("# include" is
    "#include")."""
    return re.sub(rb"^[ \t]*#[ \t]*", b"#", line.rstrip(b"\r"))


def consistency(rewritten, diffs, include_of=lambda rel: HELPER_INCLUDE, new_files=()):
    """Differences between the findings the report calls rewritten and the diff, as
    messages; none when every such finding has a line the diff removes, every hunk
    removes a line of such a finding (or only adds the helper include, include_of(file),
    and perhaps a blank line), and no file gets the include twice.  new_files: files the
    diff adds whole (a project's header), which no finding explains."""
    problems = []
    diffs = {rel: d for rel, d in diffs.items() if rel not in new_files}
    spans = {}
    for f in rewritten:
        spans.setdefault(f["file"], []).append((f["line"], f["line_end"] or f["line"], f))
    for rel in sorted(set(spans) | set(diffs), key=byte_order):
        hs = hunks(diffs.get(rel, b""))
        removed = {n for r, _ in hs for n in r}
        for lo, hi, f in spans.get(rel, []):
            if not any(lo <= n <= hi for n in removed):
                problems.append("%s:%d: the report says the %s site is rewritten, but "
                                "wrapcmp.diff does not change it" % (rel, lo, f["rule"]))
        for r, added in hs:
            if r and any(lo <= n <= hi for n in r for lo, hi, _ in spans.get(rel, [])):
                continue
            if not r and [directive(a) for a in added if a.strip(b"\r")] == \
                    [include_of(rel)]:
                continue	# the include, perhaps with a blank line after it
            problems.append("%s:%d: wrapcmp.diff changes lines that no rewritten finding "
                            "explains" % (rel, r[0] if r else 0))
        inc = include_of(rel)
        n = sum(1 for _, added in hs for a in added if directive(a) == inc)
        if n > 1:
            problems.append("%s: wrapcmp.diff adds %s %d times" % (rel, inc.decode(), n))
    return problems


# ---------------------------------------------------------------- files

EVIDENCE = (("(operand types checked at build time)", "operand types checked at build time"),
            ("(types from typecheck())", "types from typecheck()"))


def evidence(f):
    """Why a rewrite is exact: what the rule knew of the operand types."""
    for said, why in EVIDENCE:
        if said in f["message"]:
            return why
    return "types known to spatch"


def write_outputs(stage, findings, rules, diff, stats, text_of, rewritten=(), compiler=None):
    """rewritten: finding_key()s of the findings wrapcmp.diff rewrites.  compiler: None, or
    {finding_key(): evidence.py's {"compiler_evidence", "details"}} (--evidence only)."""
    from .evidence import short
    ev = compiler or {}
    conf = {r["name"]: r["confidence"] for r in rules}
    conf["macro"] = "Moderate"
    findings = unique_findings(findings)
    write_text(os.path.join(stage, "report.txt"), "".join(
        "%s:%d:%d: %s%s [%s]\n" % (report_name(f["file"]), f["line"], f["col"], f["message"],
                                   " [%s]" % short(ev[finding_key(f)])
                                   if finding_key(f) in ev else "", f["rule"])
        for f in findings))
    js = []
    for f in findings:
        js.append({"file": f["file"], "line": f["line"], "column": f["col"],
                   "line_end": f["line_end"], "column_end": f["col_end"],
                   "rule": f["rule"], "confidence": confidence_of(f, conf),
                   "message": f["message"], "matched": matched_text(text_of, f),
                   "rewritten": finding_key(f) in rewritten,
                   "exact_because": evidence(f) if finding_key(f) in rewritten else None})
        if compiler is not None:
            e = ev.get(finding_key(f), {"compiler_evidence": "not compiled", "details": []})
            js[-1]["compiler_evidence"] = e["compiler_evidence"]
            js[-1]["compiler_evidence_details"] = e["details"]
    with open(os.path.join(stage, "report.json"), "w", encoding="utf-8",
              errors="surrogateescape") as out:
        json.dump(js, out, indent=1, sort_keys=True)
        out.write("\n")
    write_bytes(os.path.join(stage, "wrapcmp.diff"), diff)
    per_rule, per_dir = {}, {}
    for f in findings:
        per_rule[f["rule"]] = per_rule.get(f["rule"], 0) + 1
        top = f["file"].split("/", 1)[0] if "/" in f["file"] else "."
        per_dir[top] = per_dir.get(top, 0) + 1
    s = []
    s.append("tree: %s" % stats["tree_label"])
    if stats.get("paths"):
        s.append("paths: %s" % " ".join(report_name(p) for p in stats["paths"]))
    s.append("rules: %s" % " ".join(r["name"] for r in rules))
    s.append("prefilter: %s" % ("off (exhaustive)" if stats["no_prefilter"] else "on"))
    s.append("patch confidence: %s and above" % stats["confidence"])
    s.append("kernel helpers where exact (EXISTING): %s" % stats.get("existing", "no"))
    s.append("reported, never patched: %s" % (" ".join(stats["report_only"]) or "none"))
    if stats.get("hosted"):
        s.append("a C project, not a kernel tree: the header is %s" % stats["hosted"])
    if stats.get("commands"):
        s.append("compile commands: %s" % "\n  ".join(stats["commands"]))
    s.append("files scanned: %d" % stats["scanned"])
    s.append("files passed to spatch: %d" % stats["to_spatch"])
    s.append("files with findings: %d" % len({f["file"] for f in findings}))
    s.append("files patched: %d" % stats["patched"])
    s.append("findings: %d" % len(findings))
    s.append("")
    s.append("findings per rule:")
    for r in [r["name"] for r in rules] + ["macro"]:
        s.append("  %-24s %6d  (confidence %s)" % (r, per_rule.get(r, 0), conf.get(r)))
    s.append("")
    s.append("findings per top-level directory:")
    for d in sorted(per_dir):
        s.append("  %-24s %6d" % (d, per_dir[d]))
    s.append("")
    s.append("files that failed (spatch crashed or timed out, also alone): %d"
             % len(stats["failures"]))
    for f in sorted(stats["failures"], key=byte_order):
        s.append("  %s: %s" % (report_name(f), stats["failures"][f]))
    s.append("")
    s.append("files spatch could parse only in part (parse errors, still searched): %d"
             % len(stats["parse_errors"]))
    for f in sorted(stats["parse_errors"], key=byte_order):
        s.append("  %s" % report_name(f))
    s.append("")
    s.append("time taken: %.1f s (wall): %s" % (time.time() - stats["t0"], ", ".join(
        "%s %.1f s" % kv for kv in stats["phases"])))
    s.append("jobs: %s" % stats["jobs"])
    write_text(os.path.join(stage, "summary.txt"), "\n".join(s) + "\n")


def install_outputs(stage, out):
    """Replace OUT by the finished stage folder."""
    old = None
    if os.path.lexists(out):
        if not os.path.isdir(out) or os.path.islink(out):
            raise Fatal("OUT=%s exists and is not a folder" % out)
        old = tempfile.mkdtemp(prefix=".old-", dir=os.path.dirname(out) or ".")
        os.rmdir(old)
        os.rename(out, old)
    os.rename(stage, out)
    if old:
        shutil.rmtree(old, ignore_errors=True)


class OutLock:
    """An exclusive lock on OUT, held for the whole run (a lock file beside it), so that
    a second run into the same OUT stops with a clear error instead of mixing outputs."""

    def __init__(self, out):
        self.out = out
        self.path = os.path.join(os.path.dirname(out), ".%s.lock" % os.path.basename(out))
        self.fd = None

    def __enter__(self):
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                os.close(fd)
                if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise
                try:
                    pid = open(self.path).read().strip()
                except OSError:
                    pid = "?"
                raise Fatal("another run is writing %s (process %s): wait for it to end, or "
                            "give another OUT" % (self.out, pid or "?"))
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:	# else the holder removed the file after we opened it: again
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, b"%d\n" % os.getpid())
        self.fd = fd
        return self

    def __exit__(self, *a):
        try:
            os.unlink(self.path)
        except OSError:
            pass
        os.close(self.fd)
