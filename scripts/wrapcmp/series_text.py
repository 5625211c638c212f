"""wrapcmp-series: the texts: commit messages with their evidence, the header patch's
message, the cover letter, and the object code figures of OUT/buildcheck.json.

Each patch's message names its sites (path:line, the idiom as the file writes it, the
rewrite), explains only the idioms the patch holds, says why each rewrite is exact (from
report.json's exact_because) and gives the object code before and after for its files,
from OUT/buildcheck.json when `make series-buildcheck` has run on a series whose patch for
those files was the same (make series, make series-buildcheck, make series again).
"""
import collections
import json
import os
import re

from .evidence import EXPLOITED, NOT_COMPILED, NOT_EXPLOITED, UNCLEAR, VERDICTS, per_compiler, \
    built_without_wrap as overflow_undefined
from .series_sites import HELPER, calls_in, lines_of

IDIOMS = {
    "cast": "a difference cast to a signed type, (s32)(a - b) < 0",
    "signed": "the plain difference of signed counters, a - b > 0",
    "temporary": "a difference kept in a signed temporary, d = a - b; ... d < 0",
}
EXPLAIN = {
    "cast": "Converting an out-of-range value to a signed type, as the cast does, is "
            "implementation-defined in C: the test relies on the compiler wrapping it "
            "modulo 2^N.",
    "signed": "The difference of two signed counters overflows once they are more than "
              "half their range apart, and signed overflow is undefined: a compiler may "
              "fold \"a - b > 0\" into \"a > b\", which is wrong once a counter wraps.  The "
              "kernel builds with -fno-strict-overflow, so the code generated today is "
              "right; the test depends on that flag.",
    "temporary": "Keeping the difference in a signed temporary is the same conversion to a "
                 "signed type (or, for signed operands, the same overflow) under another "
                 "name; the temporary has no other use, and the rewrite removes it.",
}
NEW_HELPERS = ("Replace them with the helpers of <linux/wrapcmp.h> (added by the first patch "
               "of this series), which compute the same two's-complement answer in unsigned "
               "arithmetic only.")
# The kernel's helpers: what they compute, as their headers define them, keyed by (header,
# name): rxrpc's after() is (s32)(seq1 - seq2) > 0, tcp's is before(seq2, seq1).
RXRPC_HEADER = "net/rxrpc/ar-internal.h"
KERNEL_HELPERS = {
    ("<linux/jiffies.h>", "time_after"): "(long)((b) - (a)) < 0",
    ("<linux/jiffies.h>", "time_before"): "(long)((a) - (b)) < 0",
    ("<linux/jiffies.h>", "time_after_eq"): "(long)((a) - (b)) >= 0",
    ("<linux/jiffies.h>", "time_before_eq"): "(long)((b) - (a)) >= 0",
    ("<linux/jiffies.h>", "time_after64"): "(__s64)((b) - (a)) < 0",
    ("<linux/jiffies.h>", "time_before64"): "(__s64)((a) - (b)) < 0",
    ("<linux/jiffies.h>", "time_after_eq64"): "(__s64)((a) - (b)) >= 0",
    ("<linux/jiffies.h>", "time_before_eq64"): "(__s64)((b) - (a)) >= 0",
    ("<net/tcp.h>", "before"): "(__s32)(seq1 - seq2) < 0",
    ("<net/tcp.h>", "after"): "before(seq2, seq1)",
    (RXRPC_HEADER, "before"): "(s32)(seq1 - seq2) < 0",
    (RXRPC_HEADER, "before_eq"): "(s32)(seq1 - seq2) <= 0",
    (RXRPC_HEADER, "after"): "(s32)(seq1 - seq2) > 0",
    (RXRPC_HEADER, "after_eq"): "(s32)(seq1 - seq2) >= 0",
}


def kernel_helper(name, path):
    """(header, definition) of the kernel's helper name as a site of the file path (relative
    to the tree) calls it, or None.  The rules use rxrpc's before() and kin only in a file
    that includes "ar-internal.h", which is the one beside it: in the kernel, a file of
    net/rxrpc/.  Elsewhere a name has one header."""
    if os.path.dirname(os.path.normpath(path or "")) == os.path.dirname(RXRPC_HEADER):
        if (RXRPC_HEADER, name) in KERNEL_HELPERS:
            return RXRPC_HEADER, KERNEL_HELPERS[(RXRPC_HEADER, name)]
    found = [(h, d) for (h, n), d in KERNEL_HELPERS.items() if n == name and h != RXRPC_HEADER]
    return found[0] if len(found) == 1 else None


EXACT = {
    "types known to spatch": "the operand types are declared where spatch sees them",
    "operand types checked at build time": "the helpers refuse a pointer or floating "
        "operand at build time, and the _WIDE ones a difference narrower than the cast, so "
        "a build without error is the proof",
    "types from typecheck()": "the macro typecheck()s both operands, but that only warns, "
        "so the rewrite holds for a caller of any integer type: a cast to 32 bits or fewer "
        "keeps the low bits of a - b as the helper does, and the _WIDE helper that a long or "
        "64-bit cast gets refuses at build time a caller whose a - b is narrower, the one "
        "case where it would answer otherwise",
    "the kernel's own helper, proved equal": "for the operand types the kernel's helper "
        "accepts (its typecheck(), or its parameters), it computes the site's own test; "
        "the wrapcmp project's tests/prove_conversions.py proves it from the kernel's text",
}
EXISTING_EXACT = "the kernel's own helper, proved equal"
NOT_COMPARED = "Object code not compared (make series-buildcheck not run)."


def wrap(text, width=72, indent="", first=None):
    words, lines = text.split(), []
    cur = first if first is not None else indent
    start = cur
    for w in words:
        if len(cur) + len(w) + (0 if cur == start else 1) > width and cur != start:
            lines.append(cur)
            cur = start = indent
        cur += ("" if cur == start else " ") + w
    if cur.strip():
        lines.append(cur)
    return "\n".join(lines)


def exact_because(site):
    if site["existing"]:
        return EXISTING_EXACT
    return site.get("exact_because") or "types known to spatch"


def helper_names(site, replacement):
    """The helpers a site ends up calling, by name."""
    if replacement:
        return [re.match(r"!?\s*(\w+)", replacement).group(1)]
    m = re.match(r"!?(\w+)\(\)", site["use"] or "")
    return [m.group(1)] if m else []


# ---------------------------------------------------------------- object code

class Buildcheck:
    """OUT/buildcheck.json, read defensively: per configuration a label and status; per
    file the figures, valid only where the series it was made of changed that file the same
    way as this series does."""

    def __init__(self, path):
        self.path, self.doc, self.why_not = path, None, None
        self.old_changes = {}
        if not path or not os.path.exists(path):
            self.why_not = "make series-buildcheck not run"
            return
        try:
            with open(path) as f:
                doc = json.load(f)
            if not isinstance(doc, dict) or not isinstance(doc.get("files"), dict):
                raise ValueError("no \"files\"")
        except (OSError, ValueError) as e:
            self.why_not = "%s unreadable: %s" % (os.path.basename(path), e)
            return
        self.doc = doc
        series = doc.get("series") if isinstance(doc.get("series"), str) else None
        if not series or not os.path.isdir(series):
            series = os.path.join(os.path.dirname(path), "series")
        for name in doc.get("patches") or []:
            p = os.path.join(series, str(name))
            if os.path.isfile(p):
                with open(p, encoding="utf-8", errors="surrogateescape", newline="") as f:
                    for rel, ch in file_changes(f.read()).items():
                        self.old_changes.setdefault(rel, []).extend(ch)

    def configs(self):
        out = []
        cfgs = self.doc.get("configs") if self.doc else None
        for name, c in (cfgs.items() if isinstance(cfgs, dict) else []):
            if not isinstance(c, dict) or c.get("status") == "not run":
                continue
            label = "%s %s" % (c.get("arch") or "", c.get("kconfig") or name) \
                if c.get("arch") else {"allmodconfig": "x86_64 allmodconfig",
                                       "i386": "i386 allmodconfig",
                                       "defconfig": "x86_64 defconfig"}.get(name, name)
            out.append((name, label.strip(), c))
        return out

    def lines_for(self, changes):
        """The object code lines for files changed as changes ({path: +/- lines})."""
        if not self.doc:
            return [NOT_COMPARED if self.why_not == "make series-buildcheck not run" else
                    wrap("Object code not compared (%s)." % self.why_not)]
        stale = [f for f in changes if self.old_changes.get(f) != changes[f]]
        if stale:
            return [wrap("Object code not compared: OUT/buildcheck.json was made from another "
                         "version of this patch (%s); run make series-buildcheck, then make "
                         "series again." % ", ".join(sorted(stale)))]
        files = self.doc["files"]
        known = [f for f in sorted(changes) if isinstance(files.get(f), dict)]
        if not known:
            return [wrap("Object code not compared (make series-buildcheck did not build %s)."
                         % ", ".join(sorted(changes)))]
        out = []
        for name, label, _ in self.configs():
            tb = ta = nd = built = 0
            missing = []
            for f in known:
                e = files[f].get(name)
                if not isinstance(e, dict) or not e.get("built") or not all(
                        isinstance(e.get(k), int) for k in ("text_before", "text_after",
                                                            "insns_differ")):
                    missing.append(f)
                    continue
                built += 1
                tb += e["text_before"]
                ta += e["text_after"]
                nd += e["insns_differ"]
            if not built:
                out.append("%s: not built (not in this configuration)" % label)
                continue
            size = "text size unchanged" if ta == tb else "text %+d bytes (%d -> %d)" % (
                ta - tb, tb, ta)
            line = "%s: %s, %d instruction%s differ" % (label, size, nd, "" if nd == 1 else "s")
            if missing:
                line += " (not built there: %s)" % ", ".join(missing)
            out.append(line)
        if not out:
            return ["Object code not compared (OUT/buildcheck.json has no configuration)."]
        unknown = [f for f in sorted(changes) if f not in known]
        if unknown:
            out.append("not built by make series-buildcheck: %s" % ", ".join(unknown))
        return ["Object code before and after (make series-buildcheck):"] + \
            [wrap(l, width=75, indent="      ", first="  ") for l in out]

    def summary(self):
        if not self.doc:
            return None
        out = []
        for _, label, c in self.configs():
            line = "%s: %s" % (label, c.get("status", "?"))
            failed = c.get("failed_before") or []
            if failed:	# their diagnostics say nothing about the series
                line += " (%d object%s that did not build before the series either: not " \
                    "compared: %s)" % (len(failed), "" if len(failed) == 1 else "s",
                                       ", ".join(failed))
            out.append(line)
        return out


def file_changes(patch_text):
    """{path: [the +/- lines of its hunks]} of a patch (mail or plain diff)."""
    out, cur, in_hunk = {}, None, False
    for line in lines_of(patch_text):
        if line.startswith("diff --git "):
            cur, in_hunk = None, False
            continue
        if line.startswith("+++ ") and not in_hunk:
            p = line[4:].rstrip("\n").split("\t")[0]
            cur = p[2:] if p.startswith("b/") else p
            out.setdefault(cur, [])
            continue
        if line.startswith("@@"):
            in_hunk = True
            continue
        if line.startswith("--- ") and not in_hunk:
            continue
        if cur and in_hunk and line[:1] in "+-":
            out[cur].append(line.rstrip("\n"))
        elif line.startswith("-- \n") or line.strip() == "--":
            cur, in_hunk = None, False
    return out


# ---------------------------------------------------------------- commit messages

def subject_for(prefix, helpers):
    hl = sorted(helpers)
    if hl and not any(HELPER.match(h) for h in hl) and len(hl) > 2:
        return "%s: use the kernel's helpers for wrapping counter comparisons" % prefix
    if len(hl) == 1:
        subject = "%s: use %s() for wrapping counter comparisons" % (prefix, hl[0])
    elif len(hl) == 2:
        subject = "%s: use %s() and %s()" % (prefix, hl[0], hl[1])
    else:
        subject = "%s: use wrapcmp helpers for counter comparisons" % prefix
    if len(subject) > 72:
        subject = "%s: use wrapcmp helpers for counter comparisons" % prefix
    if len(subject) > 72:
        subject = "%s: use wrapcmp helpers" % prefix
    return subject


CAST = re.compile(r"^\(\s*([A-Za-z_][\w ]*?)\s*\)\s*\(.*\)\s*([<>]=?)\s*0$")
SIGNED = re.compile(r"\s([<>]=?)\s*0$")
IDIOM_WORDS = {
    "cast": "a difference cast to a signed type",
    "signed": "the plain difference of signed counters",
    "temporary": "a difference kept in a signed temporary",
}


def idiom_text(kind, sites, idioms):
    """The idiom of the sites of kind as they really are: the casts and operators as
    written ("(s64)(a - b) < 0, (int)(a - b) >= 0"); the casts alone where there are
    more than three forms; the words alone where the sites' text shows neither."""
    forms, casts = [], []
    for s in sites:
        if s["rule"] != "wrapcmp_" + kind:
            continue
        code = " ".join((idioms.get(id(s)) or s["matched"] or "").split())
        form = None
        if kind == "cast":
            m = CAST.match(code)
            if m:
                cast = " ".join(m.group(1).split())
                form = "(%s)(a - b) %s 0" % (cast, m.group(2))
                casts += [cast] if cast not in casts else []
        else:
            m = SIGNED.search(code)
            if m:
                form = ("a - b %s 0" if kind == "signed" else "d = a - b; ... d %s 0") % \
                    m.group(1)
        if form and form not in forms:
            forms.append(form)
    if forms and len(forms) <= 3:
        return "%s, %s" % (IDIOM_WORDS[kind], ", ".join(forms))
    if kind == "cast" and 1 <= len(casts) <= 3:
        return "%s, %s compared with 0" % (IDIOM_WORDS[kind], ", ".join(
            "(%s)(a - b)" % c for c in casts))
    return IDIOM_WORDS[kind]


def site_verdicts(sites):
    """{compiler: {verdict: [sites]}} of the sites of an EVIDENCE=yes run (make census),
    or None when the run had no evidence.  A site that a compiler has no verdict on (a
    header's, or a file without an object) is "not compiled" for it."""
    if not sites or any(s.get("evidence") is None for s in sites):
        return None
    names = sorted({c for s in sites for c in per_compiler(s["evidence"])},
                   key=lambda c: (c.split()[0] != "gcc", c))
    out = collections.OrderedDict()
    for c in names:
        by = {v: [] for v in VERDICTS}
        for s in sites:
            by[per_compiler(s["evidence"]).get(c, NOT_COMPILED)].append(s)
        out[c] = by
    return out


def overflow_flags(sites):
    """How the two builds of the evidence differ, in words, from its details."""
    flags = {d["flags"]["overflow undefined"] for s in sites for d in s.get("evidence") or []
             if d.get("flags")}
    if flags == {"-fstrict-overflow added"}:
        return "built again with -fstrict-overflow after the kernel's -fno-strict-overflow"
    return "built with signed overflow wrapping and with it undefined"


def evidence_lines(sites, of="these sites"):
    """A patch's words on what the compilers do with its sites without
    -fno-strict-overflow, or [] for a run without evidence."""
    per = site_verdicts(sites)
    if per is None:
        return []
    one = len(sites) == 1
    said = collections.OrderedDict()
    for c, by in per.items():
        bits = []
        if by[EXPLOITED]:
            bits.append(("%s differently, as if the subtraction could not wrap (%s)" % (
                "it" if one else "%d" % len(by[EXPLOITED]),
                ", ".join("%s:%d" % (s["path"], s["line"]) for s in by[EXPLOITED]))))
        if by[NOT_EXPLOITED]:
            bits.append("it the same both ways" if one
                        else "%d the same" % len(by[NOT_EXPLOITED]))
        if by[UNCLEAR]:
            bits.append("%s unclear, its function differing for another reason too (%s)" % (
                "it" if one else "%d" % len(by[UNCLEAR]),
                ", ".join("%s:%d" % (s["path"], s["line"]) for s in by[UNCLEAR])))
        if by[NOT_COMPILED]:
            bits.append("%s not at all (no object in the configuration, or a header)"
                        % ("it" if one else "%d" % len(by[NOT_COMPILED])))
        said.setdefault(", ".join(bits[:-1]) + " and " + bits[-1] if len(bits) > 1
                        else bits[0], []).append(c)
    parts = ["%s compile%s %s" % (" and ".join(cs), "" if len(cs) > 1 else "s", what)
             for what, cs in said.items()]
    if not parts:
        return [wrap("Compiler evidence: no compiler built the files of %s." % of)]
    text = "Without -fno-strict-overflow (each file %s, the object code compared function " \
        "by function; make census): %s." % (overflow_flags(sites), "; ".join(parts))
    if any(by[EXPLOITED] for by in per.values()):
        text += "  With this patch each of those compiles the same both ways."
    out = [wrap(text)]
    live = built_without_wrap(sites)
    if live:
        out += ["", wrap("%s built without -fno-strict-overflow or -fwrapv (%s own "
                         "compile command, as the x86 EFI stub is): there signed overflow is "
                         "undefined today, so this rewrite can change what the compiled code "
                         "computes, which is the point of it: %s." % (
                             "This site is" if len(live) == 1 else "These sites are",
                             "its" if len({s["path"] for s in live}) == 1 else "their",
                             "; ".join("%s:%d (%s)" % (s["path"], s["line"], ", ".join(
                                 "%s %s" % (c, v) for c, v in per_compiler(
                                     s["evidence"]).items())) for s in live)))]
    return out


def built_without_wrap(sites):
    """The sites whose file's own compile command leaves signed overflow undefined
    (evidence.built_without_wrap)."""
    return [s for s in sites if overflow_undefined(s.get("evidence"))]


def cover_letter_evidence(allsites):
    """The cover letter's census of the series' sites, per compiler, or [] for a run
    without evidence."""
    per = site_verdicts(allsites)
    if per is None:
        return []
    live = built_without_wrap(allsites)
    return ["", wrap("Compiler evidence (make census; each patch names its own sites):")] + \
        [line for c, by in per.items() for line in wrap(
            "%s: %d compiled differently without -fno-strict-overflow, %d the same, %d "
            "unclear, %d not compiled, of the %d sites." % (
                c, len(by[EXPLOITED]), len(by[NOT_EXPLOITED]), len(by[UNCLEAR]),
                len(by[NOT_COMPILED]), len(allsites)), indent="    ",
            first="  ").split("\n")] + [line for line in wrap(
                "%d of the %d sites %s in files built without -fno-strict-overflow or "
                "-fwrapv, where the rewrite changes what the code may compute today: %s." % (
                    len(live), len(allsites), "is" if len(live) == 1 else "are",
                    ", ".join("%s:%d" % (s["path"], s["line"]) for s in live)),
                indent="    ", first="  ").split("\n") if live]


def commit_message(g, prefix, sites, repl, idioms, object_lines, ident, new_header):
    """(subject, body) of the patch of group g.  sites: the sites it rewrites, in order;
    repl: {id(site): the call that replaces it}; idioms: {id(site): the idiom as written}."""
    helpers = set()
    for s in sites:
        helpers.update(helper_names(s, repl.get(id(s))))
    subject = subject_for(prefix, helpers)
    kinds = collections.OrderedDict()
    for k in ("cast", "signed", "temporary"):
        if any(s["rule"] == "wrapcmp_" + k for s in sites):
            kinds[k] = True
    n = len(sites)
    who = "These files compare" if len(g.files) > 1 else \
        os.path.basename(g.files[0]) + " compares"
    count = "" if n <= 1 else " (%d sites)" % n
    if len(kinds) > 1:
        text = "%s free-running counters through a signed difference%s: %s." % (
            who, count, "; ".join(idiom_text(k, sites, idioms) for k in kinds))
    else:
        text = "%s free-running counters through %s%s." % (
            who, "".join(idiom_text(k, sites, idioms) for k in kinds) or
            "a signed difference", count)
    body = [wrap(text), ""]
    body += [wrap(" ".join(EXPLAIN[k] for k in kinds)), ""] if kinds else []
    new = [s for s in sites if not s["existing"]]
    existing = [s for s in sites if s["existing"]]
    if new:
        text = NEW_HELPERS if new_header else \
            "Replace them with the helpers of <linux/wrapcmp.h>, which compute the same " \
            "two's-complement answer in unsigned arithmetic only."
        if len(new) == 1:
            text = text.replace("Replace them with the helpers", "Replace it with the "
                                "helper").replace("which compute ", "which computes ")
        body += [wrap(text), ""]
    if existing:
        used = sorted({(h, kernel_helper(h, s["path"])) for s in existing
                       for h in helper_names(s, repl.get(id(s)))
                       if kernel_helper(h, s["path"])})
        defs = "; ".join("%s(a, b) of %s is %s" % (h, k[0], k[1]) for h, k in used)
        body += [wrap("Where the kernel has a helper that computes exactly the site's test, "
                      "use it: %s.  The rewrite is the site's own test, written the way the "
                      "rest of the kernel writes it%s." % (
                          defs, ", arguments swapped where the site has them the other "
                          "way round" if any("swapped" in s["use"] for s in existing) else "")),
                 ""]
    body.append("No functional change intended.")
    body.append("")
    body.append("Sites (as written -> as rewritten: why the rewrite is exact):")
    for s in sites:
        r = repl.get(id(s)) or s["use"] or "?"
        body.append("  %s:%d: %s" % (s["path"], s["line"], idioms.get(id(s)) or s["matched"]
                                     or s["msg"]))
        body.append(wrap("-> %s: %s" % (r, exact_because(s)), width=75, indent="       ",
                         first="    "))
    reasons = [why for why in sorted({exact_because(s) for s in sites}) if why in EXACT]
    if reasons:
        body += ["", "Why each rewrite is exact:"]
        for why in reasons:
            body.append(wrap("%s: %s." % (why, EXACT[why]), width=75, indent="    ",
                             first="  "))
    body.append("")
    ev = evidence_lines(sites)
    if ev:
        body += ev + [""]
    body += object_lines
    body.append("")
    body.append("Found with the Coccinelle rules of the wrapcmp project.")
    body.append("")
    body.append("Signed-off-by: %s <%s>" % ident)
    return subject, "\n".join(body) + "\n"


HEADER_SUBJECT = "include/linux/wrapcmp.h: add wrap-safe counter comparison helpers"

HEADER_INTRO = """\
Counters that wrap are compared all over the tree through a signed
difference, (s32)(a - b) < 0 or a - b > 0 on signed operands.  That
relies on an implementation-defined conversion or on signed overflow,
which is undefined.  Add helpers that give the same two's-complement
answer in unsigned arithmetic only:

  {U8,U16,U32,U64,UINT,ULONG}_CMP_{LT,LE,GT,GE}(a, b)

X_CMP_OP(a, b) is 1 exactly when (sN)((uN)a - (uN)b) OP 0.  Each
is a macro that checks at build time that both arguments are integers
(a pointer or floating argument is an error that names the helper) and
calls a static inline function, so each argument is converted and
evaluated once.  GT and LE are not LT and GE with swapped arguments: at
the half-way point both signed differences are negative, and the
helpers keep that.  U64_CMP_*_WIDE() and ULONG_CMP_*_WIDE() also check
that a - b is at least 64 bits, or long, wide, where they replace a
cast of the difference to s64 or long."""


def header_message(info, ident):
    """The message of the header patch; info from series_header.make_header_patch()."""
    parts = [HEADER_SUBJECT, "", HEADER_INTRO, ""]
    if info.get("kunit"):
        parts += [wrap("lib/wrapcmp_kunit.c tests every helper against that definition "
                       "(CONFIG_WRAPCMP_KUNIT_TEST): the boundary values of each width, "
                       "the half-way point in both directions, and arguments of other "
                       "integer types."), ""]
    if info.get("maintainers"):
        parts += [wrap("Add a MAINTAINERS entry for the two new files."), ""]
    if info.get("reconciled"):
        parts += rcu_note(info.get("callers") or [])
    parts.append("Signed-off-by: %s <%s>" % ident)
    return "\n".join(parts) + "\n"


def rcu_note(callers):
    """What the rcupdate.h change does to the callers of ULONG_CMP_GE()/ULONG_CMP_LT()."""
    same = [c for c in callers if c["verdict"] == "same"]
    narrow = [c for c in callers if c["verdict"].startswith("same (")]
    changed = [c for c in callers if c["change"]]
    other = [c for c in callers if c not in same and c not in narrow and c not in changed]
    out = [wrap("<linux/rcupdate.h> defined ULONG_CMP_GE() and ULONG_CMP_LT() as macros "
                "that subtract in the arguments' own type and compare the difference, "
                "converted to unsigned long, with ULONG_MAX / 2.  Make it include the new "
                "header instead, so that there is one definition; the header's "
                "ULONG_CMP_GE() and ULONG_CMP_LT() subtract in unsigned long."), ""]
    if not callers:
        return out + [wrap("No file of the tree calls them."), ""]
    text = ("For the %d call%s whose difference a - b is unsigned long (or long, which "
            "wraps the same way under -fno-strict-overflow) the answer is identical: the "
            "same subtraction in the same type." % (len(same), "" if len(same) == 1 else "s"))
    out.append(wrap(text))
    out.append("")
    if narrow:
        out.append(wrap("For the %d call%s whose operands are both narrower than int the "
                        "int difference is exact, and the answer is identical: %s." % (
                            len(narrow), "" if len(narrow) == 1 else "s",
                            ", ".join("%s:%d" % (c["path"], c["line"]) for c in narrow))))
        out.append("")
    for c in changed:
        out.append(wrap(
            "%s:%d calls %s(%s, %s) with two ints.  There the macro computes the int "
            "difference, which wraps at 32 bits (the kernel builds with "
            "-fno-strict-overflow), and is true exactly when it is negative: that is "
            "%s(), while the new %s() would subtract in unsigned long and differ when the "
            "int subtraction overflows.  Change the call to %s(): the answer is identical."
            % (c["path"], c["line"], c["name"], c["args"][0], c["args"][1], c["change"],
               c["name"], c["change"])))
        out.append("")
    for c in other:
        out.append(wrap("%s:%d: %s(%s, %s): %s." % (c["path"], c["line"], c["name"],
                                                    c["args"][0], c["args"][1], c["verdict"])))
        out.append("")
    return out


# ---------------------------------------------------------------- the cover letter

HAZARD = """\
Code that tells "before" from "after" on a free-running counter often
writes the test as a signed difference: (s32)(a - b) < 0, or a - b > 0
on signed counters.  The first relies on an implementation-defined
conversion of an out-of-range value to a signed type, the second on
signed overflow, which C leaves undefined: GCC 12 and clang 14 fold
the article's example "if ((a - b) > 0)" after "a > 0 && b < 0" to
"always true" from -O1 on.  The kernel builds with -fno-strict-overflow,
so the code generated today is right; the helpers make the intent
explicit and stop depending on that flag.  This is the hazard described
in "Signed overflow optimization hazards in the kernel" (LWN, 2012)."""

HELPER_TABLE = """\
  helper                    N       replaces
  U8_CMP_{LT,LE,GT,GE}      8       (s8)(a - b) OP 0
  U16_CMP_{LT,LE,GT,GE}     16      (s16)(a - b) OP 0
  U32_CMP_{LT,LE,GT,GE}     32      (s32)(a - b) OP 0
  UINT_CMP_{LT,LE,GT,GE}    int     (int)(a - b) OP 0, int a - b OP 0
  ULONG_CMP_{LT,LE,GT,GE}   long    (long)(a - b) OP 0, long a - b OP 0
  U64_CMP_{LT,LE,GT,GE}     64      (s64)(a - b) OP 0, s64 a - b OP 0

X_CMP_OP(a, b) is 1 exactly when (sN)((uN)a - (uN)b) OP 0 in two's
complement, for every a and b; each argument is evaluated once, the
arithmetic is unsigned only.  GT is not LT with swapped arguments: at
the half-way point both (sN)(a - b) and (sN)(b - a) are negative."""

RULE_COLUMN = (("wrapcmp_cast", "cast", "(T)(a - b) OP 0"),
               ("wrapcmp_signed", "signed", "a - b OP 0 on signed operands"),
               ("wrapcmp_temporary", "temp", "d = a - b; ... d OP 0"))


def counted(names):
    c = collections.Counter(names)
    return ", ".join("%s() %d" % (k, v) for k, v in sorted(c.items()))


def cover_counts(meta, n_files, header_info):
    """The per-patch table and the totals.  meta: [(number, group, sites, repl)]."""
    allsites = [s for _, _, ss, _ in meta for s in ss]
    n_rule = collections.Counter(s["rule"] for s in allsites)
    columns = [c for c in RULE_COLUMN if n_rule[c[0]]] or list(RULE_COLUMN[:2])
    lines = [wrap("Rewritten sites per patch (%s; kernel: of them, to the kernel's own "
                  "helpers):" % "; ".join("%s: %s" % (label, shape)
                                          for _, label, shape in columns)), ""]
    lines.append("  %-4s %s %-6s %-5s %s" % (
        "#", " ".join("%-6s" % label for _, label, _ in columns), "kernel", "files", "area"))
    for num, g, ss, _ in meta:
        c = collections.Counter(s["rule"] for s in ss)
        lines.append("  %-4s %s %-6d %-5d %s" % (
            num, " ".join("%-6d" % c[rule] for rule, _, _ in columns),
            sum(1 for s in ss if s["existing"]), len(g.files), g.label))
    existing = [h for _, _, ss, repl in meta for s in ss if s["existing"]
                for h in helper_names(s, repl.get(id(s)))]
    new = [h for _, _, ss, repl in meta for s in ss if not s["existing"]
           for h in helper_names(s, repl.get(id(s)))]
    lines += ["", wrap("Total: %d sites in %d files: %s." % (
        len(allsites), n_files,
        ", ".join("%d by the %s rule" % (n_rule[rule], label) for rule, label, _ in columns))),
        wrap("%d site%s use%s the kernel's own helpers%s, exact where they are used; %d "
             "use%s the helpers of <linux/wrapcmp.h>%s." % (
                 len(existing), "" if len(existing) == 1 else "s",
                 "s" if len(existing) == 1 else "",
                 " (%s)" % counted(existing) if existing else "",
                 len(new), "s" if len(new) == 1 else "",
                 " (%s)" % counted(new) if new else ""))]
    return lines


def cover_letter(ctx):
    """The cover letter's body.  ctx: a dict of what main() gathered (see series.py)."""
    lines = [HAZARD, ""]
    info = ctx["header_info"]
    if info is not None:
        lines += ["The helpers, added by patch 1 as <linux/wrapcmp.h>:", "", HELPER_TABLE, ""]
        extra = []
        if info.get("kunit"):
            extra.append("its KUnit suite (lib/wrapcmp_kunit.c)")
        if info.get("maintainers"):
            extra.append("a MAINTAINERS entry for both files")
        if extra:
            lines += [wrap("Patch 1 also adds %s." % " and ".join(extra)), ""]
        if info.get("reconciled"):
            cs = info.get("callers") or []
            lines += [wrap(
                "Patch 1 also makes <linux/rcupdate.h> include the new header instead of "
                "defining its own ULONG_CMP_GE()/ULONG_CMP_LT() macros, so the helpers are "
                "defined once.  Of their %d callers, %d compute a - b in unsigned long (or "
                "long, or in int from narrower operands): identical; %d pass%s two ints and "
                "%s changed to UINT_CMP_*(), identical%s." % (
                    len(cs), sum(1 for c in cs if c["verdict"].startswith("same")),
                    sum(1 for c in cs if c["change"]),
                    "es" if sum(1 for c in cs if c["change"]) == 1 else "",
                    "is" if sum(1 for c in cs if c["change"]) == 1 else "are",
                    "; %d not decided, listed in patch 1" % sum(
                        1 for c in cs if not c["change"] and not c["verdict"].startswith("same"))
                    if any(not c["change"] and not c["verdict"].startswith("same") for c in cs)
                    else "")), ""]
    else:
        lines += [wrap("Every site of this series uses a helper the kernel already has, "
                       "where it computes exactly the site's test, so the series adds no "
                       "header."), ""]
    lines += cover_counts(ctx["meta"], ctx["n_files"], info)
    if ctx["reported_only"]:
        lines.append(wrap("Reported but not rewritten (the bug forms; operand types unknown "
                          "to the rules; #define bodies that do not typecheck() their "
                          "arguments; temporaries used again; files with no place for the "
                          "include%s), each with its reason in the report: %s." % (
                              "; folders that are reported, never patched"
                              if ctx.get("in_report_only") else "",
                              ", ".join("%d %s" % (v, k) for k, v in
                                        sorted(ctx["reported_only"].items())))))
    if ctx["mixed"]:
        lines += ["", wrap("Left unconverted whole: %d statement%s where a site this series "
                           "would rewrite meets a site it leaves as it is, so that one "
                           "expression keeps one form (the report has both sites):" % (
                               len(ctx["mixed"]), "" if len(ctx["mixed"]) == 1 else "s")), ""]
        for path, m in ctx["mixed"]:
            lines.append("  %s:%d: %s" % (path, m["first"], m["text"]))
            for s in m["rewritten"]:
                lines.append(wrap("would rewrite line %d (%s -> %s)" % (
                    s["line"], s["matched"] or s["rule"], s["use"]), width=75,
                    indent="        ", first="      "))
            for s in m["unconverted"]:
                why = ("confidence %s, below %s" % (s["confidence"], ctx["confidence"])
                       if s["rewritable"] else "reported only: " + short_reason(s))
                lines.append(wrap("leaves line %d (%s): %s" % (
                    s["line"], s["matched"] or s["rule"], why), width=75,
                    indent="        ", first="      "))
    if ctx["left_out"]:
        lines += ["", wrap("Left out: %d site%s of confidence below %s that the rules "
                           "would rewrite (`make run CONFIDENCE=low` has them).  Nothing shows "
                           "that their values wrap (no operand from jiffies, a clock or a "
                           "counter register, no sequence field, no field only ever "
                           "incremented), so the plain comparison may be what was meant.  Each has two readings: the plain one if the "
                           "values can never wrap, the helper if they can." % (
                               len(ctx["left_out"]), "" if len(ctx["left_out"]) == 1 else "s",
                               ctx["confidence"])), ""]
        for s, r in ctx["left_out"]:
            if r:
                lines.append("  %s:%d: %s" % (s["path"], s["line"], r[0]))
                lines.append("      never wraps: %s    may wrap: %s" % (r[1], r[2]))
            else:
                lines.append("  %s:%d: %s" % (s["path"], s["line"], s["msg"]))
    merge = ("areas with fewer than %d sites are merged into the enclosing area they share "
             "(never THE REST)" % ctx["merge_below"] if ctx["merge_below"] > 1 else
             "each section gets patches of its own")
    lines += ["", wrap("Grouping: each file goes to the MAINTAINERS section with the longest "
                       "matching F: pattern; %s; patches with more than %d files are split by "
                       "directory; patches touching only include/ come first, then the rest "
                       "by path." % (merge, ctx["split_above"])),
              "", "How this series was made and checked:", ""]
    lines += ["  " + c for c in ctx["commands"]]
    lines += ["", wrap(
        "The first runs Coccinelle's spatch with the wrapcmp rules over the tree, using the "
        "kernel's own helpers where they are exact (EXISTING=yes) and reading the included "
        "headers' types for the files whose operand types the fast pass could not see "
        "(TYPES=%s); the second splits its diff, runs scripts/checkpatch.pl --strict on "
        "every patch (%d new ERRORs, %d WARNINGs, %d new CHECKs), applies the series with "
        "git am to a pristine git copy of the tree and checks that the result equals the "
        "tree patched with the whole diff; %s" % (
            ctx["types"], len(ctx["errors"]), len(ctx["warnings"]), len(ctx["checks"]),
            buildcheck_words(ctx["buildcheck"]))), ""]
    lines += ctx["verify"]
    bc = ctx["buildcheck"].summary()
    lines += [""] + (["Object code (make series-buildcheck, per patch in each message):"] +
                     [wrap(l, indent="    ", first="  ") for l in bc] if bc else [NOT_COMPARED])
    lines += cover_letter_evidence([s for _, _, ss, _ in ctx["meta"] for s in ss])
    if ctx["fixups"]:
        lines += ["", wrap("Whitespace fixed on rewritten lines, so that checkpatch has "
                           "nothing to say about them (the tokens are as the rule wrote "
                           "them):"), ""]
        lines += ["  " + f for f in ctx["fixups"]]
    if ctx["include_after_local"]:
        lines += ["", wrap("The include goes after a local \"...\" include although the file "
                           "has <linux/...> includes (please move it):"), ""]
        lines += ["  %s:%d" % x for x in ctx["include_after_local"]]
    for title, items in (("checkpatch ERRORs that stay, and why:", ctx["old_errors"]),
                         ("checkpatch WARNINGs that stay, and why:", ctx["warnings"]),
                         ("checkpatch --strict CHECKs this series adds, and why they stay:",
                          ctx["checks"])):
        if items:
            lines += ["", title, ""]
            same = collections.OrderedDict()
            for pname, t, msg, where, why in items:
                wheres = same.setdefault((pname[:4], t, why), [])
                if (where or msg) not in wheres:
                    wheres.append(where or msg)
            for (pname, t, why), wheres in same.items():
                first, rest = wheres[0], wheres[1:]
                path = first.rsplit(":", 1)[0] + ":" if ":" in first else None
                shown = [first] + [w[len(path):] if path and w.startswith(path) else w
                                   for w in rest]
                lines.append(wrap("%s %s: %s" % (pname, t, ", ".join(shown)), width=75,
                                  indent="        ", first="  "))
                lines.append(wrap(why, indent="      "))
    if ctx["version"]:
        lines += ["", "Based on Linux %s (%s)." % ctx["version"]]
    return "\n".join(lines)


def buildcheck_words(bc):
    """What the cover letter says the build check did: only the configurations that ran
    (OUT/buildcheck.json), none when it has not run."""
    labels = [label for _, label, _ in bc.configs()]
    if not labels:
        return ("make series-buildcheck has not run on this series, so no object code was "
                "compared.")
    return ("the third builds the touched files before and after the series in %s, the "
            "configuration%s that ran, and compares diagnostics and object code; running "
            "the second again puts those figures into each patch." % (
                " and ".join([", ".join(labels[:-1]), labels[-1]] if len(labels) > 1
                             else labels), "s" if len(labels) > 1 else ""))


def short_reason(s):
    """Why the report leaves a site alone, in its own words."""
    msg = re.sub(r"\s*\(confidence: \w+\)$", "", s["msg"])
    m = re.search(r"; not rewritten: (.*)$", msg)
    if m:
        return m.group(1)
    msg = re.sub(r"; not rewritten$", "", msg)
    if s["rule"] == "wrapcmp_bugs":
        return "a bug form, never rewritten: " + msg
    return msg


def helpers_in_new_text(text):
    return collections.Counter(m.group(0) for m in HELPER.finditer(text))


def calls(text):
    return [c[2] for c in calls_in(text)]
