"""wrapcmp-series: turn a tree-wide wrapcmp run into a patch series a maintainer can take.

    wrapcmp-series --tree TREE --run RUN --out OUT [--buildcheck OUT/buildcheck.json]

RUN holds what scripts/wrapcmp-run wrote (wrapcmp.diff, report.json, summary.txt), made with
the kernel's own helpers where exact (EXISTING=yes) and the headers' types read where the
fast pass left them to the build (TYPES=direct): `make series` makes it.  OUT/series/ gets:

  0000-cover-letter.patch  hazard, helper table, sites per patch (to the kernel's helpers
                           and to the new header's), the statements left unconverted whole,
                           the low sites left out with both readings, how the series was
                           made and verified, whitespace fixes, checkpatch findings that
                           stay, each with its reason
  0001-...patch            adds include/linux/wrapcmp.h, its KUnit suite (lib/) and a
                           MAINTAINERS entry, makes include/linux/rcupdate.h include it
                           instead of defining ULONG_CMP_GE/ULONG_CMP_LT, and changes the
                           callers whose answer that would change (int arguments) to the
                           helper that keeps it; left out when every site uses a helper the
                           kernel already has
  0002-...                 one patch per maintained area (MAINTAINERS, longest matching F:),
                           each naming its sites, why each rewrite is exact, and the object
                           code before and after (OUT/buildcheck.json)
  send.sh                  the git send-email command for the series (written, never run)

and OUT/series-check.txt: checkpatch --strict output per patch and the verification.

Grouping and subject prefixes: see series_groups.py.  To:/Cc: come from each file's most
specific MAINTAINERS entry (series_groups.recipients: To: M:, Cc: R: and L:; a file with
no entry: the closest parent entry, with linux-kernel in Cc:); the cover letter goes To:
the header patch's maintainers and the lists two patches share (at most 12) and names the
rest in its text; Signed-off-by (and the MAINTAINERS
entry's M:) from `git config user.name`/`user.email` (an error if unset).

The object code: `make series-buildcheck` builds the series made here and writes
OUT/buildcheck.json; run `make series` again and each patch whose files changed the same way
carries its figures.  Without it each says "object code not compared".

Verification, all done here, any failure exits non-zero: each patch through the tree's
scripts/checkpatch.pl --strict (no ERROR allowed; a WARNING or a CHECK the replaced lines did
not raise is listed in the cover letter with its reason); the series applied with `git am`
to a pristine git copy of the tree; the result equal to the tree patched with wrapcmp.diff
apart from the header patch, the whitespace fixes and the statements left unconverted.

Everything is made in a stage folder renamed into OUT/series at the end, under a lock on
SERIES_WORK: an error or Ctrl-C leaves OUT/series as it was.
"""
import argparse
import collections
import datetime
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from . import series_groups as groups_mod
from . import includes, series_header, series_sites, series_text
from .outputs import REPORT_ONLY_NOTE, OutLock, install_outputs
from .series_sites import CONFIDENCES, FileChange, read_text
from .util import Fatal, ROOT

PROG = "wrapcmp-series"
HEADER = series_header.HEADER
RCU = series_header.RCU


def die(msg, code=2):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(code)


def run(cmd, cwd=None, env=None, check=True, inp=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, input=inp, capture_output=True, text=True,
                       errors="surrogateescape")
    if check and p.returncode != 0:
        die("command failed (%d): %s\n%s%s" % (p.returncode, " ".join(cmd), p.stdout[-3000:],
                                                p.stderr[-3000:]))
    return p


def log(msg):
    print("%s: %s" % (PROG, msg), flush=True)


# ---------------------------------------------------------------- tree and git

def git_env(ident, date):
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=ident[0], GIT_AUTHOR_EMAIL=ident[1],
               GIT_COMMITTER_NAME=ident[0], GIT_COMMITTER_EMAIL=ident[1],
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return env


def git_identity():
    name = run(["git", "config", "user.name"], check=False).stdout.strip()
    email = run(["git", "config", "user.email"], check=False).stdout.strip()
    if not name or not email:
        die("no git identity for the Signed-off-by line: git config user.name/user.email "
            "is unset.  Set it with\n  git config --global user.name 'Your Name'\n"
            "  git config --global user.email you@example.org")
    return name, email


def tree_stamp(tree):
    """What the pristine commit records about the tree, to know when a copy is stale."""
    parts = [os.path.abspath(tree)]
    for f in ("", "Makefile", "MAINTAINERS"):
        try:
            parts.append("%s:%d" % (f or ".", int(os.stat(os.path.join(tree, f)).st_mtime)))
        except OSError:
            parts.append(f + ":-")
    return "pristine " + " ".join(parts)


def make_git_copy(tree, dest, env, fresh=False):
    """A git repository at dest whose root commit is the pristine tree.  An earlier copy of
    the same tree is reused (deleting 75,000 files is slow here): checked out at its root
    commit, cleaned, its series branch dropped."""
    stamp = tree_stamp(tree)
    if not fresh and os.path.isdir(os.path.join(dest, ".git")):
        p = run(["git", "log", "--max-parents=0", "--format=%H %s", "wrapcmp-pristine"],
                cwd=dest, check=False)
        if p.returncode == 0 and p.stdout.strip().split(" ", 1)[1:] == [stamp]:
            base = p.stdout.split()[0]
            run(["git", "checkout", "-q", "-f", "--detach", base], cwd=dest)
            run(["git", "clean", "-q", "-f", "-d", "-x"], cwd=dest)
            run(["git", "branch", "-q", "-D", "wrapcmp-series"], cwd=dest, check=False)
            log("reusing the git copy in %s" % dest)
            return base
    if os.path.exists(dest):
        log("removing the stale copy %s" % dest)
        shutil.rmtree(dest)
    if os.path.isdir(os.path.join(tree, ".git")):
        run(["git", "clone", "-q", "--shared", tree, dest])
        dirty = run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=tree).stdout
        if dirty.strip():
            log("warning: %s has uncommitted changes; the series is based on its HEAD" % tree)
        run(["git", "branch", "-f", "wrapcmp-pristine", "HEAD"], cwd=dest)
        return run(["git", "rev-parse", "HEAD"], cwd=dest).stdout.strip()
    log("making a git copy of %s in %s" % (tree, dest))
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    run(["cp", "-a", tree, dest])
    run(["git", "init", "-q", dest])
    run(["git", "config", "gc.auto", "0"], cwd=dest)
    g = ["git", "-c", "core.compression=1", "-c", "core.autocrlf=false"]
    run(g + ["add", "-A", "-f", "."], cwd=dest)
    run(g + ["commit", "-q", "--no-verify", "-m", stamp], cwd=dest, env=env)
    run(["git", "branch", "-f", "wrapcmp-pristine", "HEAD"], cwd=dest)
    return run(["git", "rev-parse", "HEAD"], cwd=dest).stdout.strip()


def clear_stale_locks(repo):
    """A git killed midway (Ctrl-C) leaves its lock files; no other git runs here now
    (SERIES_WORK is locked), so they are stale."""
    for name in ("index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"):
        try:
            os.unlink(os.path.join(repo, ".git", name))
        except OSError:
            pass
    refs = os.path.join(repo, ".git", "refs")
    for dirpath, _, files in os.walk(refs):
        for f in files:
            if f.endswith(".lock"):
                os.unlink(os.path.join(dirpath, f))


def git_text(repo, ref, path):
    p = subprocess.run(["git", "show", "%s:%s" % (ref, path)], cwd=repo, capture_output=True)
    if p.returncode != 0:
        return None
    return p.stdout.decode("utf-8", "surrogateescape")


# ---------------------------------------------------------------- the tree's tools

COVER_TO_CAP = 12


def cover_recipients(addressed, new_header):
    """(to, rest) of the cover letter: To: the header patch's maintainers and the lists
    that at least two patches share (every list when there is one patch), at most
    COVER_TO_CAP addresses; rest: every other address of the patches, named in the
    letter's text."""
    lists = collections.Counter(a for to, cc in addressed for a in set(to + cc)
                                if groups_mod.is_list(a))
    to = list(addressed[0][0]) if new_header else []
    need = 2 if len(addressed) > 1 else 1
    for a, n in sorted(lists.items(), key=lambda t: (-t[1], t[0])):
        if n >= need and a not in to:
            to.append(a)
    to = to[:COVER_TO_CAP]
    rest = []
    for t, c in addressed:
        rest += [a for a in t + c if a not in to and a not in rest]
    return to, rest


def series_commands(args, run_dir, out, built):
    """The commands that made the series, as a reader runs them: TREE=linux (the tree's
    own folder), OUT=out, the run's folder named relative to it; the build check and the
    second make series only when the build check ran.  No path of this machine."""
    rel = os.path.relpath(run_dir, out)
    run_out = "out" if rel == "." else "out/" + rel if not rel.startswith("..") else "run"
    cmds = ["make run TREE=linux OUT=%s CONFIDENCE=%s EXISTING=%s TYPES=%s" % (
        run_out, args.confidence, args.existing, args.types),
        "make series TREE=linux OUT=out"]
    if built:
        cmds += ["make series-buildcheck TREE=linux OUT=out", "make series TREE=linux OUT=out"]
    return cmds


def add_headers(path, to, cc):
    text = read_text(path)
    head, sep, rest = text.partition("\n\n")
    extra = ""
    if to:
        extra += "\nTo: " + ",\n    ".join(to)
    if cc:
        extra += "\nCc: " + ",\n    ".join(cc)
    series_sites.write_text(path, head + extra + sep + rest)


CP = re.compile(r"^(ERROR|WARNING|CHECK):(\w+): (.*)$")


def checkpatch(work, patch):
    script = os.path.join(work, "scripts", "checkpatch.pl")
    if not os.path.exists(script):
        die("%s has no scripts/checkpatch.pl" % work)
    p = run(["perl", script, "--strict", "--show-types", "--no-color", patch], cwd=work,
            check=False)
    found, lines = [], p.stdout.splitlines()
    for i, line in enumerate(lines):
        m = CP.match(line)
        if m:
            where = ""
            for nxt in lines[i + 1:i + 3]:
                w = re.match(r"^#\d+: FILE: (\S+?):(\d+):", nxt)
                if w:
                    where = "%s:%s" % (w.group(1), w.group(2))
                    break
            found.append((m.group(1), m.group(2), m.group(3), where))
    return found, p.stdout


WARNING_REASONS = {
    "FILE_PATH_CHANGES": "a new file: the MAINTAINERS entry of this patch covers it",
    "LONG_LINE": "the helper call is a few characters longer than the idiom and no comma "
                 "of the helper's arguments gives two lines that fit",
}
HEADER_CHECK_REASONS = {
    "MACRO_ARG_REUSE": "T is a type, MAX and what are constants, and the second use of a "
                       "and b is inside __builtin_classify_type() or sizeof(), which do not "
                       "evaluate them: each argument is evaluated once, by the inline "
                       "function (tests/check-helpers of the wrapcmp project checks it)",
    "MACRO_ARG_PRECEDENCE": "MAX is always one of the header's *_MAX constants, one token",
    "CAMELCASE": "_Static_assert is a keyword of C11, not a name this patch makes up",
}
CHECK_REASONS = {
    "LONG_LINE": WARNING_REASONS["LONG_LINE"],
    "PARENTHESIS_ALIGNMENT": "the line continues an expression whose open parenthesis the "
                             "rewrite moved; the continuation line is not part of the patch",
    "MACRO_ARG_REUSE": "the macro's body is as it was; its argument is evaluated as often as "
                       "before (each helper evaluates its arguments once)",
    "MACRO_ARG_PRECEDENCE": "the argument is passed to a helper function call, where "
                            "precedence cannot bind it differently",
    "UNNECESSARY_PARENTHESES": "the parentheses were in the original expression; the rewrite "
                               "keeps the operands as written",
    "COMPARISON_TO_NULL": "an unchanged part of the rewritten line",
    "LOGICAL_CONTINUATIONS": "an unchanged part of the rewritten line",
    "CAMELCASE": "a name of the code, not of this patch",
    "SPACING": "an unchanged part of the rewritten line",
}


def check_patches(work, numbered, n_patches, env, work_root):
    """checkpatch --strict on every patch, and on each patch reversed to see what the
    replaced lines raised already.  Returns the report text, new ERRORs, old ERRORs,
    WARNINGs and new CHECKs (each with its reason)."""
    report, errors, old_errors, warnings, checks = [], [], [], [], []
    for i, p in enumerate(numbered):
        found, text = checkpatch(work, p)
        report.append("== %s\n%s" % (os.path.basename(p), text))
        before = set()
        if any(k in ("WARNING", "ERROR", "CHECK") for k, *_ in found):
            rev = os.path.join(work_root, "reverse.patch")
            commit = run(["git", "rev-parse", "HEAD~%d" % (n_patches - 1 - i)],
                         cwd=work).stdout.strip()
            rtext = run(["git", "format-patch", "-1", "--stdout", "-R", commit], cwd=work,
                        env=env).stdout
            series_sites.write_text(rev, rtext)
            rfound, _ = checkpatch(work, rev)
            before = {(t, w.split(":")[0]) for k, t, _, w in rfound}
        name = os.path.basename(p)
        for k, t, msg, where in found:
            old = (t, where.split(":")[0]) in before
            if k == "ERROR" and old:
                old_errors.append((name, t, msg, where,
                                   "the line this patch replaces raises it too, and it is not "
                                   "a whitespace fix: left for the maintainers"))
            elif k == "ERROR":
                errors.append((name, t, msg, where))
            elif k == "WARNING":
                why = WARNING_REASONS.get(t) or (
                    "the line this patch replaces raises it too: existing style, not this "
                    "patch's to change" if old else "not explained: please review")
                warnings.append((name, t, msg, where, why))
            elif k == "CHECK" and not old:
                own = where.split(":")[0] == HEADER and HEADER_CHECK_REASONS.get(t)
                checks.append((name, t, msg, where, own or CHECK_REASONS.get(
                    t, "not explained: please review")))
    return "".join(report), errors, old_errors, warnings, checks


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", required=True, help="the kernel tree the run was made on")
    ap.add_argument("--run", required=True, help="the runner's output folder (wrapcmp.diff)")
    ap.add_argument("--out", required=True, help="writes OUT/series/")
    ap.add_argument("--work", help="scratch folder with the git copies of the tree, kept and "
                    "reused by later runs and by series-buildcheck (default "
                    "/var/cache/wrapcmp/series-work/NAME-OF-TREE)")
    ap.add_argument("--fresh", action="store_true", help="copy the tree again even if the "
                    "scratch folder has a copy of it")
    ap.add_argument("--merge-below", type=int, default=0, help="areas with fewer rewritten "
                    "sites than this are merged into a shared enclosing area (default 0: "
                    "one patch per most specific MAINTAINERS entry, as netdev and most "
                    "subsystems take them)")
    ap.add_argument("--split-above", type=int, default=12, help="a patch with more files than "
                    "this is split by directory (default 12)")
    ap.add_argument("--date", help="author and commit date (default: now), e.g. for "
                    "reproducible output '2024-01-01T00:00:00+00:00'")
    ap.add_argument("--no-verify", action="store_true", help="skip git am and tree comparison")
    ap.add_argument("--confidence", choices=CONFIDENCES, default="moderate",
                    help="the patch confidence RUN was made with (make run CONFIDENCE=...); "
                    "the cover letter lists the sites below it that the rules would rewrite, "
                    "with both readings (default moderate)")
    ap.add_argument("--existing", choices=("yes", "no"), default="yes",
                    help="the EXISTING= setting RUN must have been made with (default yes: "
                    "the kernel's own helpers where exact)")
    ap.add_argument("--types", choices=("off", "direct", "recursive"), default="direct",
                    help="the TYPES= setting RUN must have been made with (default direct)")
    ap.add_argument("--buildcheck", help="the object code figures of make series-buildcheck "
                    "(default OUT/buildcheck.json; absent: each patch says the object code "
                    "was not compared)")
    return ap.parse_args(argv)


def check_run(run_dir, args):
    """summary.txt of the run: made with the confidence, EXISTING and TYPES asked for."""
    path = os.path.join(run_dir, "summary.txt")
    summary = read_text(path) if os.path.exists(path) else ""
    made = re.search(r"(?m)^patch confidence: (\w+) and above$", summary)
    existing = re.search(r"(?m)^kernel helpers where exact \(EXISTING\): (\w+)$", summary)
    types = re.search(r"typed pass \((\w+),", summary)
    got = (made.group(1) if made else "unknown", existing.group(1) if existing else "no",
           types.group(1) if types else "off")
    want = (args.confidence, args.existing, args.types)
    if got[0] != want[0]:
        die("%s was made with patch confidence %s, not %s: run `make run CONFIDENCE=%s OUT=%s` "
            "first (make series does)" % (run_dir, got[0], want[0], want[0], run_dir))
    if got[1:] != want[1:]:
        die("%s was made with EXISTING=%s TYPES=%s, not EXISTING=%s TYPES=%s: run `make run "
            "CONFIDENCE=%s EXISTING=%s TYPES=%s OUT=%s` first (make series does)"
            % ((run_dir,) + got[1:] + want[1:] + want + (run_dir,)))
    never = re.search(r"(?m)^reported, never patched: (.*)$", summary)
    return tuple(d.rstrip("/") + "/" for d in never.group(1).split()) \
        if never and never.group(1) != "none" else ()


def in_dirs(path, dirs):
    return any(re.match(re.escape(d).replace(r"\*", "[^/]+"), path) for d in dirs)


def keep_providers_together(groups, kept):
    """groups with a file that has the helpers from another file of the series (its own
    "..." header, or the .c file that #includes it) put in one patch with that file, so
    that each patch builds on its own."""
    def data(p):
        fc = kept[p]
        return series_sites.apply_blocks(p, fc.old_text, fc.blocks)[0].encode(
            "utf-8", "surrogateescape")
    final = {p: data(p) for p in kept}
    added = {p for p, fc in kept.items() if any(b.is_include() for b in fc.blocks)}
    group_of = {f: g for g in groups for f in g.files}
    for f in sorted(kept):
        if f in added or not series_sites.HELPER.search(final[f].decode("latin-1")):
            continue
        prov = includes.provider_header(f, final[f], lambda h: final.get(h) if h in added
                                        else None)
        if prov is None:
            prov = next((p for p in sorted(added) if os.path.dirname(p) == os.path.dirname(f)
                         and includes.includes_line(final[p], os.path.basename(f)) is not None),
                        None)
        g, h = group_of[f], group_of.get(prov)
        if h is None or h is g:
            continue
        h.files = sorted(h.files + g.files)
        for x in g.files:
            group_of[x] = h
        groups = [x for x in groups if x is not g]
    return groups


def prepare(args, tree, run_dir, never):
    """The files of the series and their sites: (changes {path: FileChange}, sites,
    left_out)."""
    diff_path = os.path.join(run_dir, "wrapcmp.diff")
    file_diffs = series_sites.split_diff(read_text(diff_path))
    if not file_diffs:
        die("%s is empty: nothing to send" % diff_path)
    threshold = CONFIDENCES.index(args.confidence)
    sites = series_sites.read_sites(run_dir, ROOT, threshold)
    by_file = collections.defaultdict(list)
    for s in sites:
        by_file[s["path"]].append(s)
    changes = collections.OrderedDict()
    for path, fdiff in file_diffs.items():
        # what the run added so that its diff builds alone is patch 1's to make
        if path in (HEADER, series_header.RCU):
            continue
        full = os.path.join(tree, path)
        if not os.path.isfile(full):
            die("wrapcmp.diff touches %s, which is not in %s: make the run again" % (path, tree))
        fc = FileChange(path, read_text(full), fdiff)
        fc.blocks = [b for b in fc.blocks if not series_sites.is_rcu_rename(b)]
        rewritten = [s for s in by_file[path] if s["in_diff"]]
        unconverted = [s for s in by_file[path] if not s["in_diff"]]
        fc.sites = series_sites.take_out_mixed(fc, rewritten, unconverted)
        fc.file_diff = fdiff
        changes[path] = fc
    left_out = [s for s in sites if s["rewritable"] and not s["in_diff"] and
                CONFIDENCES.index(s["confidence"]) < threshold and not in_dirs(s["path"], never)]
    return file_diffs, changes, sites, left_out


def main(argv=None):
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return real_main(sys.argv[1:] if argv is None else argv)
    except KeyboardInterrupt:
        die("interrupted: OUT/series was left as it was; run again", 130)
    except Fatal as e:
        die(str(e))


def real_main(argv):
    args = parse_args(argv)
    tree = os.path.abspath(args.tree)
    out = os.path.abspath(args.out)
    run_dir = os.path.abspath(args.run)
    if not os.path.isdir(tree):
        die("no tree at %s" % tree)
    if not os.path.exists(os.path.join(run_dir, "wrapcmp.diff")):
        die("no %s: run `make run OUT=%s` first" % (os.path.join(run_dir, "wrapcmp.diff"),
                                                     run_dir))
    ident = git_identity()
    date = args.date or datetime.datetime.now(datetime.timezone.utc).replace(
        microsecond=0).isoformat()
    env = git_env(ident, date)
    never = check_run(run_dir, args)
    file_diffs, changes, sites, left_out = prepare(args, tree, run_dir, never)
    work_root = os.path.abspath(args.work or os.path.join(
        "/var/cache/wrapcmp/series-work", os.path.basename(tree.rstrip("/"))))
    try:
        os.makedirs(work_root, exist_ok=True)
        os.makedirs(out, exist_ok=True)
        lock = OutLock(os.path.join(work_root, "series"))
        lock.__enter__()
    except OSError as e:
        die("cannot write into the scratch folder SERIES_WORK=%s (%s): give a writable one, "
            "e.g. SERIES_WORK=/tmp/series-work" % (work_root, e.strerror or e))
    # Everything goes into a stage folder beside OUT/series, renamed into place at the
    # end: an error or Ctrl-C leaves the previous series as it was.
    stage = tempfile.mkdtemp(prefix=".series.tmp-", dir=out)
    try:
        make_series(args, tree, out, run_dir, stage, work_root, file_diffs, changes, sites,
                    left_out, ident, env)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        lock.__exit__()
    return 0


def make_series(args, tree, out, run_dir, stage, work_root, file_diffs, changes, sites,
                left_out, ident, env):
    series = os.path.join(stage, "series")
    os.makedirs(series)
    buildcheck = series_text.Buildcheck(os.path.abspath(args.buildcheck) if args.buildcheck
                                        else os.path.join(out, "buildcheck.json"))
    kept = collections.OrderedDict((p, fc) for p, fc in changes.items() if fc.blocks)
    mixed = [(p, m) for p, fc in changes.items() for m in fc.mixed]
    per_file = {p: max(1, len(fc.sites)) for p, fc in kept.items()}
    if not kept:
        die("every change of wrapcmp.diff was left out (statements where a rewritten and an "
            "unconverted site meet): nothing to send")
    sections = groups_mod.read_maintainers(tree)
    groups, _ = groups_mod.make_groups(list(kept), sections, per_file, args.merge_below,
                                       args.split_above)
    groups = keep_providers_together(groups, kept)
    new_header = any(series_sites.HELPER.search("".join(b.added))
                     for fc in kept.values() for b in fc.blocks)
    log("%d files in %d patches%s" % (len(kept), len(groups),
                                      " (+ header patch)" if new_header else ""))

    work = os.path.join(work_root, "tree")
    clear_stale_locks(work)
    base = make_git_copy(tree, work, env, args.fresh)
    run(["git", "checkout", "-q", "-b", "wrapcmp-series"], cwd=work)

    # 0001: the header, its KUnit suite, its MAINTAINERS entry, rcupdate.h and its callers.
    header_info, header_files = None, []
    if new_header:
        header_files, header_info = series_header.make_header_patch(work, ident)
        run(["git", "add", "-f", "--"] + header_files, cwd=work)
        run(["git", "commit", "-q", "--no-verify", "-F", "-"], cwd=work, env=env,
            inp=series_text.header_message(header_info, ident))

    # One commit per group.
    is_git = os.path.isdir(os.path.join(tree, ".git"))
    meta, fixups, after_local = [], [], []
    first = 2 if new_header else 1
    n_patches = len(groups) + (1 if new_header else 0)
    sited = {p for p, fc in kept.items() if fc.sites}
    found = [groups_mod.prefix_and_source(g, tree, is_git, run, sited) for g in groups]
    prefixes = groups_mod.unique_prefixes(groups, [p for p, _ in found])
    sources = collections.Counter(how for _, how in found)
    guessed = sorted({p for p, how in found if how not in ("git log", "the table")})
    log("subject prefixes: %s%s" % (", ".join(
        "%d from %s" % (sources[how], how) for how in groups_mod.PREFIX_SOURCES
        if sources[how]), " (not from git log or the table: %s)" % ", ".join(guessed)
        if guessed else ""))
    subjects = {}
    for i, g in enumerate(groups):
        gsites, repl, idioms = [], {}, {}
        for f in g.files:
            fc = kept[f]
            now = read_text(os.path.join(work, f))
            if now != fc.old_text:	# the header patch changed it
                fc.old_text = now
            series_sites.finish(fc)
            series_sites.write_text(os.path.join(work, f), fc.new_text)
            fixups.extend(fc.fixups)
            line = series_sites.include_after_local(fc)
            if line:
                after_local.append((f, line))
            fc.sites.sort(key=lambda s: (s["line"], s["col"]))
            gsites.extend(fc.sites)
            repl.update(series_sites.replacements(fc))
            for s in fc.sites:
                idioms[id(s)] = series_sites.idiom_of(s, fc.old_text)
        run(["git", "add", "-f", "--"] + g.files, cwd=work)
        staged = run(["git", "diff", "--cached", "--"] + g.files, cwd=work).stdout
        subject, body = series_text.commit_message(
            g, prefixes[i], gsites, repl, idioms,
            buildcheck.lines_for(series_text.file_changes(staged)), ident, new_header)
        if subject in subjects:	# unique_prefixes makes this impossible; never send it
            die("two patches would have the subject %r: %s and %s"
                % (subject, subjects[subject], g.label))
        subjects[subject] = g.label
        run(["git", "commit", "-q", "--no-verify", "-F", "-"], cwd=work, env=env,
            inp=subject + "\n\n" + body)
        num = "%02d" % (first + i) if n_patches < 100 else "%03d" % (first + i)
        meta.append((num, g, gsites, repl))

    # Cover letter text goes in as the branch description.
    cover_subject = "wrapcmp: compare wrapping counters in unsigned arithmetic"
    run(["git", "config", "branch.wrapcmp-series.description",
         cover_subject + "\n\n@@COVER@@\n"], cwd=work)
    run(["git", "format-patch", "-q", "-n", "--cover-letter", "--cover-from-description=subject",
         "--no-signature", "--stat=72", "--summary", "-o", series, base + "..HEAD"],
        cwd=work, env=env)
    patches = sorted(p for p in os.listdir(series) if p.endswith(".patch"))
    cover = os.path.join(series, patches[0])
    numbered = [os.path.join(series, p) for p in patches[1:]]
    assert len(numbered) == n_patches, (len(numbered), n_patches)

    # Addresses.
    # Addresses: each patch To: its entry's M:, Cc: its R: and L: (series_groups.recipients,
    # on the MAINTAINERS that has the header patch's entry).
    wsections = groups_mod.read_maintainers(work)
    patch_files = ([header_files] if new_header else []) + [g.files for g in groups]
    addressed, no_to = [], []
    for p, files in zip(numbered, patch_files):
        to, cc = groups_mod.recipients(wsections, files)
        if not to:
            no_to.append(os.path.basename(p))
        add_headers(p, to, cc)
        addressed.append((to, cc))
    cover_to, cover_rest = cover_recipients(addressed, new_header)

    report, errors, old_errors, warnings, checks = check_patches(
        work, numbered, n_patches, env, work_root)

    verify = []
    if not args.no_verify:
        verify = verify_series(work, work_root, base, numbered, env, read_text(
            os.path.join(run_dir, "wrapcmp.diff")), file_diffs, changes, header_files, fixups)

    sites_reported_only = collections.Counter(s["rule"] for s in sites if not s["rewritable"])
    version = None
    kv = {}
    mk = os.path.join(tree, "Makefile")
    if os.path.exists(mk):
        for line in open(mk, errors="replace"):
            m = re.match(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)", line)
            if m:
                kv[m.group(1)] = m.group(2)
    if kv:
        version = ("%s.%s.%s" % (kv.get("VERSION"), kv.get("PATCHLEVEL"), kv.get("SUBLEVEL")),
                   os.path.basename(tree))
    ctx = {
        "header_info": header_info, "meta": meta, "n_files": len(kept),
        "reported_only": sites_reported_only, "mixed": mixed, "confidence": args.confidence,
        "in_report_only": any(REPORT_ONLY_NOTE in s["msg"] for s in sites),
        "left_out": [(s, series_sites.readings(s, read_text(os.path.join(tree, s["path"]))
                                                if os.path.isfile(os.path.join(tree, s["path"]))
                                                else "")) for s in left_out],
        "merge_below": args.merge_below, "split_above": args.split_above,
        "commands": series_commands(args, run_dir, out, buildcheck.configs()),
        "types": args.types, "errors": errors, "warnings": warnings, "checks": checks,
        "old_errors": old_errors, "verify": verify, "buildcheck": buildcheck,
        "fixups": fixups, "include_after_local": after_local, "version": version,
    }
    cover_text = series_text.cover_letter(ctx)
    if cover_rest:
        cover_text = cover_text.rstrip("\n") + "\n\n" + series_text.wrap(
            "This letter goes to the lists the patches share and the header patch's "
            "maintainers; each patch goes to its own maintainers, reviewers and lists, "
            "%d more: %s." % (len(cover_rest), ", ".join(cover_rest)))
    text = read_text(cover).replace("@@COVER@@", cover_text)
    series_sites.write_text(cover, text)
    add_headers(cover, cover_to, [])
    if no_to:
        log("warning: no To: in %s" % ", ".join(no_to))

    # send.sh: written, never run.
    send = os.path.join(series, "send.sh")
    with open(send, "w") as f:
        f.write("#!/bin/sh\n"
                "# Written by scripts/wrapcmp-series; review the patches, then run it.\n"
                "# Each patch carries its own To:/Cc: from its MAINTAINERS entry; the\n"
                "# cover letter goes to the shared lists and the header's maintainers.\n"
                "set -e\n"
                "cd \"$(dirname \"$0\")\"\n"
                "exec git send-email --thread --no-chain-reply-to --confirm=always \\\n"
                "\t--suppress-cc=self \"$@\" \\\n")
        for p in patches:
            f.write("\t%s \\\n" % p)
        f.write("\n")
    os.chmod(send, 0o755)

    with open(os.path.join(stage, "series-check.txt"), "w", errors="surrogateescape") as f:
        f.write(report)
        f.write("\n".join(verify) + "\n")
    install_outputs(series, os.path.join(out, "series"))
    os.replace(os.path.join(stage, "series-check.txt"), os.path.join(out, "series-check.txt"))
    n_sites = sum(len(m[2]) for m in meta)
    n_existing = sum(1 for m in meta for s in m[2] if s["existing"])
    log("%d patches + cover letter in %s: %d sites in %d files (%d to the kernel's helpers, "
        "%d to <linux/wrapcmp.h>'s); %d statements left unconverted whole"
        % (len(numbered), os.path.join(out, "series"), n_sites, len(kept), n_existing,
           n_sites - n_existing, len(mixed)))
    log("checkpatch --strict: %d new ERROR, %d ERROR raised by the replaced line too, "
        "%d WARNING, %d new CHECK; %d whitespace fixes"
        % (len(errors), len(old_errors), len(warnings), len(checks), len(fixups)))
    for f, line in after_local:
        log("warning: %s:%d: the include comes after a local \"...\" include" % (f, line))
    for v in verify:
        log(v)
    if errors:
        for e in errors:
            sys.stderr.write("checkpatch ERROR in %s: %s %s %s\n" % e)
        die("%d checkpatch ERRORs" % len(errors), 1)


def squash(text):
    return re.sub(r"\s+", "", text or "")


def verify_series(work, work_root, base, numbered, env, diff_text, file_diffs, changes,
                  header_files, fixups):
    """git am on a pristine copy, then the result compared with the tree patched with
    wrapcmp.diff.  Returns the lines for the cover letter."""
    am = os.path.join(work_root, "am")
    log("git am on a pristine copy (%s)" % am)
    # A clone of its own (hard links, no alternates): the copy in work may be made
    # afresh by a later run, and a --shared clone would lose its objects then.
    if os.path.isdir(am) and (
            os.path.exists(os.path.join(am, ".git", "objects", "info", "alternates")) or
            run(["git", "rev-parse", "--verify", "-q", "HEAD"], cwd=am,
                check=False).returncode != 0):
        shutil.rmtree(am)
    if not os.path.isdir(os.path.join(am, ".git")):
        run(["git", "clone", "-q", "--no-checkout", work, am])
        run(["git", "config", "gc.auto", "0"], cwd=am)
    clear_stale_locks(am)
    run(["git", "fetch", "-q", "origin", "+wrapcmp-pristine:refs/remotes/origin/pristine"],
        cwd=am)
    run(["git", "am", "--abort"], cwd=am, check=False)
    run(["git", "checkout", "-q", "-f", "--detach", base], cwd=am)
    run(["git", "clean", "-q", "-f", "-d", "-x"], cwd=am)
    run(["git", "branch", "-q", "-D", "am", "viadiff"], cwd=am, check=False)
    run(["git", "checkout", "-q", "-b", "am", base], cwd=am)
    p = run(["git", "am", "--whitespace=error-all"] + numbered, cwd=am, env=env, check=False)
    if p.returncode != 0:
        die("git am failed:\n%s%s" % (p.stdout[-3000:], p.stderr[-3000:]), 1)
    verify = ["git am: all %d patches apply in order to a pristine git copy of the tree"
              % len(numbered)]
    run(["git", "checkout", "-q", "-b", "viadiff", base], cwd=am)
    pp = subprocess.run(["patch", "-p1", "-s", "--no-backup-if-mismatch"], cwd=am,
                        input=diff_text, capture_output=True, text=True, errors="surrogateescape")
    if pp.returncode != 0:
        die("patch -p1 < wrapcmp.diff failed on the pristine copy:\n" + pp.stdout + pp.stderr, 1)
    run(["git", "add", "-f", "--"] + list(file_diffs), cwd=am)
    run(["git", "commit", "-q", "--no-verify", "-m", "wrapcmp.diff"], cwd=am, env=env)
    touched = set(run(["git", "diff", "--name-only", "-z", base, "am"], cwd=am).stdout
                  .split("\0")) - {""}
    unexpected = touched - set(file_diffs) - set(header_files)
    if unexpected:
        die("the series changes files that wrapcmp.diff does not: %s" % ", ".join(
            sorted(unexpected)), 1)
    differ, problems = [], []
    for path, fc in changes.items():
        if path in header_files:
            continue
        got = git_text(am, "am", path)
        via = git_text(am, "viadiff", path)
        if fc.mixed:
            # the tree patched with wrapcmp.diff, less the statements left unconverted
            want = series_sites.apply_blocks(path, git_text(am, base, path), fc.blocks)[0]
            old_lines = git_text(am, base, path).split("\n")
            for m in fc.mixed:
                if "\n".join(old_lines[m["first"] - 1:m["last"]]) not in got:
                    problems.append("%s:%d: the statement left unconverted is not as it was"
                                    % (path, m["first"]))
        else:
            want = via
        if squash(got) != squash(want):
            problems.append("%s: differs from the tree patched with wrapcmp.diff" % path)
        elif got != want:
            differ.append(path)
    fixed = sorted({f.rsplit(":", 2)[0] for f in fixups})
    if problems or sorted(differ) != fixed:
        die("the tree after the series differs from the tree patched with wrapcmp.diff:\n  "
            + "\n  ".join(problems + ["%s: whitespace differs, but no fix was made there" % f
                                      for f in differ if f not in fixed] +
                          ["%s: a whitespace fix was made, but the file is as in "
                           "wrapcmp.diff" % f for f in fixed if f not in differ]), 1)
    n_mixed = sum(len(fc.mixed) for fc in changes.values())
    apart = []
    if header_files:
        apart.append("the files of patch 1 (%s)" % ", ".join(header_files))
    if n_mixed:
        apart.append("the %d statement%s left unconverted whole (below)" % (
            n_mixed, "" if n_mixed == 1 else "s"))
    if fixups:
        apart.append("whitespace on %d line%s in %d file%s (below)" % (
            len(fixups), "" if len(fixups) == 1 else "s", len(fixed),
            "" if len(fixed) == 1 else "s"))
    text = "after the series the tree equals the tree patched with wrapcmp.diff"
    if apart:
        text += ", apart from " + ", ".join(apart[:-1]) + (" and " if len(apart) > 1 else "") \
            + apart[-1]
    verify.append(series_text.wrap(text + "."))
    return verify
