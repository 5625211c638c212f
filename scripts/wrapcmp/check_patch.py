"""wrapcmp-check-patch: does my patch add the idiom?  A checkpatch-style check.

Reads a patch (git format-patch output, one or more patches in one mbox file, or plain
`git diff` / `diff -u` output; '-' or nothing: standard input), copies the files it
touches from the tree (their pre-image; a file it creates starts absent) into a scratch
folder, applies it there with `git apply`, one patch after the other, and runs
scripts/wrapcmp-run on the patched copies of the .c and .h files to which the patch adds
lines (only those whose added lines lie in a function or declaration in which
scripts/prefilter.c finds a candidate: spatch reads no other file).  It prints,
checkpatch-style, only the findings on lines the patch adds (a finding
spans report.json's line..line_end; the new file's line numbers):

    path:line: WARNING: <message> [rule]

    total: 1 warning (1 at confidence moderate or above), 12 lines added in 3 files checked

Exit status: 1 when a printed finding reaches --confidence (default moderate), 0 when
none does, 2 when the patch cannot be read or does not apply to the tree (the message
names the file and the hunk), or when the check itself failed.  The tree is only read:
everything happens in a scratch folder under the system's temporary folder (TMPDIR),
which is removed at the end, also on an error or Ctrl-C.

--fix writes the patch again with the flagged sites (printed, at or above --confidence,
rewritten by wrapcmp-run) rewritten as wrapcmp-run's wrapcmp.diff rewrites them, and
#include <linux/wrapcmp.h> added where a rewritten file needs it; the sites that were in
the files before stay as they were, and every other byte of the patch (mail headers,
commit message, the diffs of other files) is kept.  A diffstat in the commit message is
not recounted.  It goes to --fix-out (default PATCH.wrapcmp-fix; standard output for a
patch read from standard input, the report then going to standard error).

No name from the patch ever reaches a shell: git apply and wrapcmp-run get argument
vectors, and wrapcmp-run hands spatch generated names only.
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

from .includes import add_helper_include, uses_more_helpers
from .project import ANY_HELPER_INCLUDE
from .macro_scan import blank
from .patchfile import Patch, PatchError, check_name, parse_patch, read_patches, split_lines
from .sources import diff_label, report_name
from .util import Fatal, ROOT, log, set_prog

PROG = "wrapcmp-check-patch"
CONFIDENCES = ("low", "moderate", "high")
RUNNER = os.path.join(ROOT, "scripts", "wrapcmp-run")
HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
SEVERITY = re.compile(r"^(WARNING|ERROR|CHECK|INFO): ")
# wrapcmp-run settings a caller's environment must not change here: the scratch tree is
# not the tree (APPLY, TYPES, HOSTS), and the rest is given on the command line
RUNNER_ENV_DROP = ("TREE", "OUT", "PATHS", "APPLY", "CONFIDENCE", "REPORT_ONLY_DIRS",
                   "HOSTS", "TYPES", "WORKDIR", "ALLOW_PARSE_FAILURES", "HOSTED", "HEADER",
                   "COMPILE_COMMANDS")


def git_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
                "LC_ALL": "C"})
    return env


def patch_what(name, patch, count):
    if count == 1:
        return name
    return "%s, patch %d of %d%s" % (name, patch.number, count,
                                     ' ("%s")' % patch.subject if patch.subject else "")


def git_names(out):
    """Per file diff, the name `git apply --numstat -z` reads (the new one, or the old one
    of a deleted file)."""
    return [os.fsdecode(f.split(b"\t", 2)[2]) for f in out.split(b"\0")[:-1]]


def explain_apply_failure(err, patch, what, tree_label):
    """A message naming the file and the hunk git apply could not apply."""
    text = err.decode("utf-8", "replace").strip()
    m = re.search(r"patch failed: (.*):(\d+)$", text, re.M)
    if m:
        name, line = m.group(1), int(m.group(2))
        for fd in patch.files:
            if report_name(fd.old or "") == name or fd.old == name:
                for k, h in enumerate(fd.hunks):
                    if h.old_start == line:
                        return ("%s: %s: hunk %d of %d (%s) does not apply to the tree %s"
                                "\ngit apply says:\n  %s" % (
                                    what, report_name(fd.old), k + 1, len(fd.hunks),
                                    h.header, tree_label, text.replace("\n", "\n  ")))
    m = re.search(r"error: (.*): (No such file or directory|does not exist in index)$",
                  text, re.M)
    if m:
        return ("%s: %s: the patch changes a file that is not in the tree %s\n"
                "git apply says:\n  %s" % (what, m.group(1), tree_label,
                                           text.replace("\n", "\n  ")))
    m = re.search(r"error: (.*): already exists in working directory$", text, re.M)
    if m:
        return ("%s: %s: the patch creates a file that is already in the tree %s\n"
                "git apply says:\n  %s" % (what, m.group(1), tree_label,
                                           text.replace("\n", "\n  ")))
    return "%s does not apply to the tree %s\ngit apply says:\n  %s" % (
        what, tree_label, text.replace("\n", "\n  "))


def copy_in(tree, stree, name):
    """The tree's file (or symbolic link) at name into the scratch tree, if it has one."""
    src = os.path.join(tree, name)
    try:
        st = os.lstat(src)
    except (FileNotFoundError, NotADirectoryError):
        return
    dst = os.path.join(stree, name)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(src), dst)
    elif stat.S_ISREG(st.st_mode):
        with open(src, "rb") as f:
            data = f.read()
        with open(dst, "wb") as f:
            f.write(data)
        os.chmod(dst, st.st_mode & 0o777)


def read_state(stree, names):
    """{name: bytes, or None when the scratch tree has no regular file there}."""
    out = {}
    for name in names:
        path = os.path.join(stree, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as f:
                out[name] = f.read()
        else:
            out[name] = None
    return out


def find_block(lines, block, want, lo):
    """Where block starts in lines, nearest to want and not before lo (git apply's search)."""
    n = len(block)
    last = len(lines) - n
    want = max(lo, min(want, last))
    for d in range(0, max(last - lo, 0) + 2):
        for at in ((want - d, want + d) if d else (want,)):
            if lo <= at <= last and lines[at:at + n] == block:
                return at
    return None


def place(old, new, hunks):
    """(old line -> new line map, new lines the hunks add), 1-based, by laying the
    hunks on old as git apply does; None when that does not give new."""
    ol = split_lines(old or b"")
    omap, out, added = {}, [], set()
    pos = 0
    offset = 0
    for h in hunks:
        pre = [c for t, c in h.body if t != "+"]
        base = h.old_start - 1 if h.old_len else h.old_start
        at = find_block(ol, pre, base + offset, pos)
        if at is None:
            return None
        offset = at - base
        for i in range(pos, at):
            out.append(ol[i])
            omap[i + 1] = len(out)
        i = at
        for t, c in h.body:
            if t == " ":
                out.append(ol[i])
                omap[i + 1] = len(out)
                i += 1
            elif t == "-":
                i += 1
            else:
                out.append(c)
                added.add(len(out))
        pos = i
    for i in range(pos, len(ol)):
        out.append(ol[i])
        omap[i + 1] = len(out)
    if b"".join(out) != (new or b""):
        return None
    return omap, added


def place_by_diff(old, new):
    """The same from a line diff of old and new (when the hunks cannot be laid)."""
    a, b = split_lines(old or b""), split_lines(new or b"")
    omap, added = {}, set()
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                omap[i1 + k + 1] = j1 + k + 1
        else:
            added.update(range(j1 + 1, j2 + 1))
    return omap, added


class Series:
    """The patches applied one after the other in the scratch tree: the state of every
    touched file after each patch (states[0] is the tree), how each patch moves the lines
    of the files it changes, and the lines the series adds (in the last state)."""

    def __init__(self, tree, tree_label, stree, patches, name, p, scratch):
        self.patches = patches
        self.names = []
        for patch in patches:
            what = patch_what(name, patch, len(patches))
            for fd in patch.files:
                for n in (fd.old, fd.new):
                    if n is not None:
                        check_name(n, what)
                        if n not in self.names:
                            self.names.append(n)
        for n in self.names:
            copy_in(tree, stree, n)
        self.states = [read_state(stree, self.names)]
        self.moves = []		# per patch: {new path: (old path or None, omap)}
        self.twice = set()	# (patch index, path) changed by two diffs of one patch
        added = {}
        env = git_env()
        env["GIT_CEILING_DIRECTORIES"] = os.path.dirname(stree)
        for k, patch in enumerate(patches):
            what = patch_what(name, patch, len(patches))
            pfile = os.path.join(scratch, "patch-%d" % (k + 1))
            with open(pfile, "wb") as f:
                f.write(patch.data)
            base = ["git", "apply", "-p%d" % p, "--whitespace=nowarn"]
            chk = subprocess.run(base + ["--numstat", "-z", pfile], cwd=stree, env=env,
                                 capture_output=True)
            if chk.returncode != 0:
                raise PatchError(explain_apply_failure(chk.stderr, patch, what, tree_label))
            mine = [fd.new if fd.new is not None else fd.old for fd in patch.files]
            theirs = git_names(chk.stdout)
            if mine != theirs:
                raise PatchError("%s: git apply reads other file names in this patch than "
                                 "this check does (%s against %s): give -p if the names "
                                 "have another number of leading folders" % (
                                     what, ", ".join(report_name(t) for t in theirs),
                                     ", ".join(report_name(m) for m in mine)))
            app = subprocess.run(base + [pfile], cwd=stree, env=env, capture_output=True)
            if app.returncode != 0:
                raise PatchError(explain_apply_failure(app.stderr, patch, what, tree_label))
            before, after = self.states[-1], read_state(stree, self.names)
            self.states.append(after)
            moves = {}
            seen = {}
            for fd in patch.files:
                for n in {fd.old, fd.new} - {None}:
                    seen[n] = seen.get(n, 0) + 1
            new_added = dict(added)
            gone = set()
            for fd in patch.files:
                if fd.new is None:
                    if not fd.copy:
                        gone.add(fd.old)
                    continue
                if seen[fd.new] > 1 or (fd.old is not None and seen[fd.old] > 1):
                    self.twice.add((k, fd.new))
                    src = fd.new
                    r = place_by_diff(before.get(src), after.get(fd.new))
                else:
                    src = fd.old
                    r = None
                    if not fd.binary:
                        r = place(before.get(src) if src else None, after.get(fd.new),
                                  fd.hunks)
                    if r is None:
                        r = place_by_diff(before.get(src) if src else None,
                                          after.get(fd.new))
                omap, plus = r
                moves[fd.new] = (src, omap)
                prev = added.get(src, set()) if src else set()
                new_added[fd.new] = {omap[l] for l in prev if l in omap} | plus
                if fd.old is not None and fd.old != fd.new and not fd.copy:
                    gone.add(fd.old)
            for g in gone - set(moves):
                new_added.pop(g, None)
            added = new_added
            self.moves.append(moves)
        self.added = {n: s for n, s in added.items() if self.states[-1].get(n) is not None}

    def final(self):
        return self.states[-1]

    def back(self, path, lines, k):
        """(path, lines) in state k of the given lines of path in the last state, or None
        when one of them is not yet there."""
        lines = list(lines)
        for j in range(len(self.patches), k, -1):
            mv = self.moves[j - 1].get(path)
            if mv is None:
                continue
            src, omap = mv
            if src is None:
                return None
            inv = {v: o for o, v in omap.items()}
            if any(l not in inv for l in lines):
                return None
            lines = [inv[l] for l in lines]
            path = src
        return path, lines


# ------------------------------------------------------------------ the gate

DIRECTIVE_LINE = re.compile(r"^[ \t]*#(?:\\\r?\n|[^\n])*", re.M)
DEFINE_LINE = re.compile(r"[ \t]*#[ \t]*define\b")


def gate_variant(data, added):
    """The file reduced to the top-level constructs (a function, a declaration, up to its
    '}' or ';' at brace depth 0) that hold a line the patch adds, with comments and
    literal contents blanked and everything else turned to spaces, line breaks kept; or
    None when the file cannot be cut so (unbalanced braces, an added line in a #define).

    A finding on an added line lies inside such a construct, and the prefilter's
    candidate for it is made of tokens of that statement (its scan stops at ; { } and
    the like), or of one function body (a difference kept in a variable): when the
    prefilter finds no candidate in the reduced file, no rule can report anything on an
    added line, and spatch need not read the file (see scripts/prefilter.c)."""
    text = data.decode("latin-1")
    clean = blank(text)
    starts = [0] + [m.end() for m in re.finditer(r"\n", clean)]

    def line_of(off):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= off:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1
    scan = list(clean)
    directives = []
    for m in DIRECTIVE_LINE.finditer(clean):
        first, last = line_of(m.start()), line_of(max(m.end() - 1, m.start()))
        is_define = bool(DEFINE_LINE.match(m.group(0)))
        if is_define and any(l in added for l in range(first, last + 1)):
            return None
        directives.append((m.start(), m.end(), is_define))
        for k in range(m.start(), m.end()):
            if scan[k] != "\n":
                scan[k] = " "
    scan = "".join(scan)
    constructs, depth, start = [], 0, 0
    for m in re.finditer(r"[{};]", scan):
        c = m.group(0)
        if c == "{":
            depth += 1
            continue
        if c == "}":
            depth -= 1
            if depth < 0:
                return None
        if depth == 0:
            constructs.append((start, m.end()))
            start = m.end()
    if depth != 0:
        return None
    constructs.append((start, len(scan)))
    keep = []
    for s, e in constructs:
        ws = re.compile(r"\s*").match(scan, s).end()
        if ws >= e:
            continue
        if any(l in added for l in range(line_of(ws), line_of(e - 1) + 1)):
            keep.append((ws, e))
    for s, e, is_define in directives:
        if not is_define:
            keep.append((s, e))
    out = [c if c == "\n" else " " for c in clean]
    for s, e in keep:
        out[s:e] = clean[s:e]
    return "".join(out).encode("latin-1")


def gate(scratch, final, files, added):
    """The files whose added lines may hold a finding (see gate_variant)."""
    from .prefilter import prefilter
    gdir = os.path.join(scratch, "gate")
    os.makedirs(gdir)
    ids, through = {}, []
    for n in files:
        v = gate_variant(final[n], added[n])
        if v is None:
            through.append(n)
            continue
        gid = "%06d%s" % (len(ids), ".h" if n.endswith(".h") else ".c")
        with open(os.path.join(gdir, gid), "wb") as f:
            f.write(v)
        ids[gid] = n
    passed = prefilter(gdir, sorted(ids), os.cpu_count() or 1) if ids else {}
    through += [ids[g] for g in passed]
    return [n for n in files if n in through]


# ------------------------------------------------------------------ running the rules

def project_of(tree):
    """Hosted() for a project (HOSTED=, HEADER= as for wrapcmp-run), None for a kernel
    tree.  The project's compile commands only choose the default HEADER here: the
    scratch tree has the patched files, not the headers their flags reach."""
    from argparse import Namespace
    from .project import Hosted, default_header, hosted_choice
    from .run import load_commands
    if not hosted_choice(os.environ.get("HOSTED", ""), tree):
        return None
    header = os.environ.get("HEADER")
    if header:
        why = "HEADER="
    else:
        header, why = default_header(tree, load_commands(
            Namespace(compile_commands=os.environ.get("COMPILE_COMMANDS")), tree))
    return Hosted(tree, header, why)


def run_rules(tree, stree, scratch, files, confidence, verbose, project):
    """wrapcmp-run on the scratch tree's copies of files; its report.json and the
    wrapcmp.diff (bytes)."""
    from argparse import Namespace
    from .run import report_only_dirs
    dirs = report_only_dirs(Namespace(report_only_dirs=os.environ.get("REPORT_ONLY_DIRS")),
                            tree)
    out = os.path.join(scratch, "out")
    work = os.path.join(scratch, "work")
    os.makedirs(work)
    argv = [sys.executable, RUNNER, "--tree", stree, "--out", out, "--workdir", work,
            "--confidence", confidence, "--types", "off", "--shard-size", "1",
            "--report-only-dirs", " ".join(d.rstrip("/") for d in dirs),
            "--hosted", "yes" if project else "no"] + \
        (["--header", project.header] if project else []) + [
            "--paths"] + ["./" + f for f in files]
    env = {k: v for k, v in os.environ.items() if k not in RUNNER_ENV_DROP}
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        so, se = proc.communicate()
    except BaseException:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        stop_leftovers(scratch)
        raise
    err = se.decode("utf-8", "replace")
    if verbose:
        sys.stderr.write(err)
    if proc.returncode != 0:
        raise Fatal("wrapcmp-run failed (exit %d) on the patched files:\n  %s" % (
            proc.returncode, "\n  ".join(err.strip().splitlines()[-12:])))
    with open(os.path.join(out, "report.json"), encoding="utf-8",
              errors="surrogateescape") as f:
        report = json.load(f)
    with open(os.path.join(out, "wrapcmp.diff"), "rb") as f:
        diff = f.read()
    return report, diff


def stop_leftovers(scratch):
    """Stop, by their ids, the processes still working in the scratch folder (their
    command lines name it).  wrapcmp-run starts GNU parallel in a session of its own,
    which a signal to wrapcmp-run's process group does not reach; seen here: a SIGTERM
    that came as wrapcmp-run was starting parallel left parallel running, and retrying
    its spatch job, after wrapcmp-run had exited."""
    mark = os.fsencode(scratch) + b"/"

    def working():
        pids = []
        for d in os.listdir("/proc"):
            if d.isdigit() and int(d) != os.getpid():
                try:
                    with open("/proc/%s/cmdline" % d, "rb") as f:
                        if mark in f.read():
                            pids.append(int(d))
                except OSError:
                    pass
        return pids
    if not os.path.isdir("/proc"):
        return
    for sig, wait in ((signal.SIGTERM, 3.0), (signal.SIGKILL, 1.0)):
        pids = working()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        end = time.time() + wait
        while time.time() < end and working():
            time.sleep(0.1)


def span(f):
    return range(f["line"], (f["line_end"] or f["line"]) + 1)


def rank(c):
    return CONFIDENCES.index(c) if c in CONFIDENCES else len(CONFIDENCES)


# ------------------------------------------------------------------ --fix

def groups_of(fd):
    """The changes of a wrapcmp.diff file diff as groups, runs of '-' and '+' lines:
    {"at": line, "removed": [old line numbers, 1-based], "added": [new lines' bytes]}."""
    out = []
    for h in fd.hunks:
        old = h.old_start if h.old_len else h.old_start + 1
        cur = None
        for t, c in h.body + [(" ", None)]:
            if t == " ":
                if cur:
                    out.append(cur)
                    cur = None
                old += 1
                continue
            if cur is None:
                cur = {"at": old, "removed": [], "added": []}
            if t == "-":
                cur["removed"].append(old)
                old += 1
            else:
                cur["added"].append(c)
    return out


def choose_groups(groups, rewritten, flagged):
    """The groups that rewrite flagged findings, and the flagged findings that cannot be
    told apart from a site the patch did not add (left as they are)."""
    keep, tangled = [], []
    flagged_ids = {id(f) for f in flagged}
    temporaries = sorted((f for f in rewritten if f["rule"] == "wrapcmp_temporary"),
                         key=lambda f: f["line"])
    for g in groups:
        if not g["removed"]:
            continue		# the include: placed again below, as the runner places it
        owners = [f for f in rewritten if any(l in span(f) for l in g["removed"])]
        if not owners:		# a temporary's declaration or assignment, removed
            after = [f for f in temporaries if f["line"] > g["removed"][-1]]
            owners = after[:1]
        if not owners:
            continue
        mine = [f for f in owners if id(f) in flagged_ids]
        if len(mine) == len(owners):
            keep.append((g, owners))
        elif mine:
            if len(g["removed"]) == len(g["added"]):	# one line for one line: split
                o = []
                for l, a in zip(g["removed"], g["added"]):
                    # a line of no site's own (a site's reindented last line) goes
                    # with the line above it
                    o = [f for f in owners if l in span(f)] or o
                    if o and all(id(f) in flagged_ids for f in o):
                        keep.append(({"at": l, "removed": [l], "added": [a]}, o))
            else:
                tangled.extend(mine)
    return keep, tangled


def fixed_states(series, wdiff_files, report_by_file, flagged, project=None):
    """states'[k] for every k: the states with the kept groups applied where their lines
    are, and the include where a rewrite needs it.  Returns (states', tangled)."""
    n = len(series.patches)
    fixed = [dict(s) for s in series.states]
    tangled = []
    plan = {}		# path in the last state -> [(group, owners)]
    for path, fd in wdiff_files.items():
        rewritten = [f for f in report_by_file.get(path, []) if f.get("rewritten")]
        keep, t = choose_groups(groups_of(fd), rewritten,
                                [f for f in flagged if f["file"] == path])
        tangled.extend(t)
        if keep:
            plan[path] = keep
    final = series.final()
    for k in range(1, n + 1):
        edits = {}	# path in state k -> [(first, last, added)]
        for path, keep in plan.items():
            for g, owners in keep:
                need = sorted(set(g["removed"]) | {l for f in owners for l in span(f)})
                r = series.back(path, need, k)
                if r is None:
                    continue
                p_k, lines_k = r
                where = dict(zip(need, lines_k))
                rem = [where[l] for l in g["removed"]]
                if rem != list(range(rem[0], rem[0] + len(rem))):
                    continue
                old_lines = split_lines(series.states[k][p_k] or b"")
                fin_lines = split_lines(final[path])
                if [old_lines[l - 1] for l in rem] != [fin_lines[l - 1] for l in g["removed"]]:
                    continue
                edits.setdefault(p_k, []).append((rem[0], rem[-1], g["added"]))
        for p_k, es in edits.items():
            lines = split_lines(series.states[k][p_k])
            for first, last, add in sorted(es, reverse=True):
                lines[first - 1:last] = add
            data = b"".join(lines)
            if uses_more_helpers(series.states[k][p_k], data):
                data = add_helper_include(data, project.include_line(p_k),
                                          ANY_HELPER_INCLUDE)[0] \
                    if project else add_helper_include(data)[0]
            fixed[k][p_k] = data
    return fixed, tangled


def blob_id(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def new_hunks(scratch, old, new):
    """`diff -u` hunks from old to new (bytes or None): the lines from the first '@@'."""
    a, b = os.path.join(scratch, "fix-a"), os.path.join(scratch, "fix-b")
    for path, data in ((a, old), (b, new)):
        with open(path, "wb") as f:
            f.write(data or b"")
    p = subprocess.run(["diff", "-u", "--label", "a", "--label", "b", a, b],
                       capture_output=True, env=dict(os.environ, LC_ALL="C"))
    if p.returncode not in (0, 1):
        raise Fatal("diff failed: %s" % p.stderr.decode("utf-8", "replace"))
    lines = split_lines(p.stdout)
    return b"".join(lines[2:]) if lines else b""


def fixed_patch(series, fixed, scratch):
    """The input's bytes with the file diffs whose states changed made again."""
    out = []
    for k, patch in enumerate(series.patches):
        lines = patch.lines
        before, after = series.states[k], series.states[k + 1]
        fbefore, fafter = fixed[k], fixed[k + 1]
        pos = 0
        for fd in patch.files:
            ob = before.get(fd.old) if fd.old else None
            nb = after.get(fd.new) if fd.new else None
            fo = fbefore.get(fd.old) if fd.old else None
            fn = fafter.get(fd.new) if fd.new else None
            if ob == fo and nb == fn or fd.binary:
                continue
            if (k, fd.new) in series.twice:
                raise Fatal("--fix: patch %d changes %s in two diffs; cannot write it again"
                            % (k + 1, report_name(fd.new)))
            out.append(b"".join(lines[pos:fd.start]))
            head = list(lines[fd.start:fd.hunks_at])
            if fd.index_line is not None:
                j = fd.index_line - fd.start
                m = re.match(rb"index ([0-9a-f]+)\.\.([0-9a-f]+)(.*)$", head[j], re.S)
                if m:
                    a, b = m.group(1), m.group(2)
                    if fo != ob:
                        a = blob_id(fo).encode()[:len(a)] if fo is not None else a
                    if fn is not None:
                        b = blob_id(fn).encode()[:len(b)]
                    head[j] = b"index " + a + b".." + b + m.group(3)
            body = new_hunks(scratch, fo, fn)
            if not any(l.startswith(b"--- ") for l in head) and body:
                head.append(b"--- " + (os.fsencode(diff_label("a/" + fd.old)) if fd.old
                                       else b"/dev/null") + b"\n")
                head.append(b"+++ " + (os.fsencode(diff_label("b/" + fd.new)) if fd.new
                                       else b"/dev/null") + b"\n")
            if body or fd.old != fd.new or fd.old is None or fd.new is None or \
                    any(l.startswith((b"old mode", b"new mode")) for l in head):
                out.append(b"".join(head) + body)
            pos = fd.end
        out.append(b"".join(lines[pos:]))
    return b"".join(out)


# ------------------------------------------------------------------ the command

def parse_args(argv):
    doc = __doc__
    ap = argparse.ArgumentParser(prog=PROG, description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(doc.split("\n")[2:]))
    ap.add_argument("patch", nargs="?", default="-",
                    help="the patch file ('-' or none: standard input)")
    ap.add_argument("--tree", default=None,
                    help="the kernel tree or C project the patch applies to (default: the "
                    "current directory, when it holds Kbuild and MAINTAINERS, or .git); a "
                    "project's helpers are those of HEADER=, as for wrapcmp-run")
    ap.add_argument("--confidence", default="moderate", choices=CONFIDENCES,
                    help="exit 1 when a finding on an added line has at least this "
                    "confidence; --fix rewrites those (default moderate)")
    ap.add_argument("--fix", action="store_true",
                    help="write the patch with the flagged sites rewritten")
    ap.add_argument("--fix-out", default=None, metavar="FILE",
                    help="where --fix writes ('-': standard output; default PATCH.wrapcmp-fix, "
                    "or standard output for a patch from standard input)")
    ap.add_argument("-p", type=int, default=1, dest="strip", metavar="N",
                    help="leading folders to strip from the patch's file names (default 1, "
                    "as git apply)")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also print wrapcmp-run's log and what was checked (stderr)")
    args = ap.parse_args(argv)
    if args.strip < 0:
        ap.error("-p must be 0 or more")
    if args.fix_out is not None and not args.fix:
        ap.error("--fix-out needs --fix")
    return args


def resolve_tree(arg):
    if arg is None:
        here = os.getcwd()
        # make check-patch runs in this checkout, which is not the tree to check
        if not (os.path.isfile(os.path.join(here, "Kbuild")) and
                os.path.isfile(os.path.join(here, "MAINTAINERS"))) and \
                (not os.path.exists(os.path.join(here, ".git")) or
                 os.path.realpath(here) == os.path.realpath(ROOT)):
            raise Fatal("the current directory %s is not a kernel tree (no Kbuild and "
                        "MAINTAINERS) nor the top of a project's git checkout: give the "
                        "tree the patch applies to, with TREE=/path/to/tree (make "
                        "check-patch) or --tree" % here)
        return here, "."
    if not os.path.isdir(arg):
        raise Fatal("tree %s is not a folder" % arg)
    return os.path.abspath(arg), arg


def read_input(name):
    try:
        if name == "-":
            return sys.stdin.buffer.read(), "<stdin>"
        with open(name, "rb") as f:
            return f.read(), name
    except OSError as e:
        raise PatchError("cannot read the patch %s: %s" % (name, e.strerror or e))


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def write_out(path, data):
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".%s.tmp-" % os.path.basename(path), dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.rename(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def check(args, say):
    data, name = read_input(args.patch)
    tree, tree_label = resolve_tree(args.tree)
    # the scratch tree holds only the patched files: the real tree says what it is
    project = project_of(tree)
    patches = read_patches(data, args.strip, name)
    fix_out = args.fix_out or ((args.patch + ".wrapcmp-fix") if args.patch != "-" else "-")
    scratch = tempfile.mkdtemp(prefix="wrapcmp-check-patch-")
    try:
        stree = os.path.join(scratch, "tree")
        os.makedirs(stree)
        series = Series(tree, tree_label, stree, patches, name, args.strip, scratch)
        final = series.final()
        touched = [n for n in series.names if final.get(n) is not None and
                   n.endswith((".c", ".h")) and
                   any(n == fd.new for p in patches for fd in p.files)]
        others = len([n for n in series.names if final.get(n) is not None and
                      n not in touched and any(n == fd.new for p in patches
                                               for fd in p.files)])
        with_added = [n for n in touched if series.added.get(n)]
        to_run = gate(scratch, final, with_added, series.added) if with_added else []
        if args.verbose:
            log("%d of the %d file(s) with added lines may hold a site on one of them"
                % (len(to_run), len(with_added)))
        report, wdiff = ([], b"")
        if to_run:
            report, wdiff = run_rules(tree, stree, scratch, to_run, args.confidence,
                                      args.verbose, project)
        order = {n: i for i, n in enumerate(touched)}
        shown = [f for f in report if f["file"] in series.added and
                 any(l in series.added[f["file"]] for l in span(f))]
        shown.sort(key=lambda f: (order.get(f["file"], 0), f["line"], f["column"], f["rule"]))
        if args.verbose:
            log("%d finding(s) in the %d file(s) checked, %d on lines the patch adds; "
                "scratch folder %s" % (len(report), len(to_run), len(shown), scratch))
        for f in shown:
            msg = f["message"]
            m = SEVERITY.match(msg)
            sev = m.group(1) if m else "WARNING"
            msg = msg[m.end():] if m else msg
            say("%s:%d: %s: %s [%s]" % (report_name(f["file"]), f["line"], sev, msg,
                                        f["rule"]))
        over = [f for f in shown if rank(f["confidence"]) >= rank(args.confidence)]
        nlines = sum(len(series.added.get(n, ())) for n in touched)
        say("")
        say("total: %s (%d at confidence %s or above), %s added in %s checked%s" % (
            plural(len(shown), "warning"), len(over), args.confidence,
            plural(nlines, "line"), plural(len(touched), "file"),
            ", %s not checked (not .c or .h)" % plural(others, "other file")
            if others else ""))
        if args.fix:
            wfiles = {}
            if wdiff:
                holder = Patch(1, wdiff)
                parse_patch(holder, 1, "wrapcmp.diff")
                wfiles = {fd.new: fd for fd in holder.files}
            by_file = {}
            for f in report:
                by_file.setdefault(f["file"], []).append(f)
            if project:		# the header the runner adds to the scratch tree
                wfiles.pop(project.header, None)
            fixed, tangled = fixed_states(series, wfiles, by_file, over, project)
            fixed_bytes = fixed_patch(series, fixed, scratch)
            changed = sum(1 for f in over if f.get("rewritten") and f not in tangled)
            for f in over:
                if not f.get("rewritten"):
                    log("--fix: %s:%d is left as it is: wrapcmp-run reports it but does "
                        "not rewrite it" % (report_name(f["file"]), f["line"]))
            for f in tangled:
                log("--fix: %s:%d is not rewritten: its change cannot be told apart from "
                    "the one of a site the patch did not add" % (report_name(f["file"]),
                                                                 f["line"]))
            write_out(fix_out, fixed_bytes)
            if project and changed and not project.present:
                log("--fix: the rewritten sites use the helpers of %s, which the tree does "
                    "not have yet: copy wrapcmp's include/wrapcmp.h there (or make run "
                    "TREE=... APPLY=1 adds it)" % project.header)
            log("--fix: %s rewritten; the patch %s %s" % (
                plural(changed, "site"),
                "is unchanged in" if fixed_bytes == data else "with them is in",
                "standard output" if fix_out == "-" else fix_out))
        return 1 if over else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def on_signal(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    set_prog(PROG)
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, on_signal)
    to_stderr = args.fix and (args.fix_out == "-" or
                              (args.fix_out is None and args.patch == "-"))
    stream = sys.stderr if to_stderr else sys.stdout

    def say(line):
        stream.write(line + "\n")
        stream.flush()
    try:
        return check(args, say)
    except PatchError as e:
        log("error: %s" % e)
        log("nothing was written in the tree")
        return 2
    except Fatal as e:
        log("error: %s" % e)
        return 2
    except OSError as e:
        log("error: %s%s" % (e.strerror or e, " (%s)" % e.filename if e.filename else ""))
        return 2
    except KeyboardInterrupt:
        log("interrupted: nothing was written")
        return 130
