"""spatch in patch mode on copies of the snapshot, and the unified diff of the result.

Each rule runs, in file-name order, on the result of the one before, and only on the
files where it reported a site it rewrites.  The copies have generated names; the
diff carries the tree's names (diff_label).  Lines that spatch did not change keep
their bytes, line ends included (keep_line_ends)."""
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

from .parallel import run_parallel
from .report_pass import SPATCH_ERROR, SPATCH_OPTS, last_error, split_groups
from .sources import diff_label
from .util import Fatal, read_bytes, write_bytes

LINE = re.compile(rb"(?<=\n)")


def split_lines(data):
    """Lines with their ends; only '\\n' ends a line (a lone '\\r' does not)."""
    return [l for l in LINE.split(data) if l]


def content(line):
    """A line without its end: '\\n', and a '\\r' before it."""
    if line.endswith(b"\n"):
        line = line[:-1]
    return line[:-1] if line.endswith(b"\r") else line


def keep_line_ends(orig, new):
    """new, with every line it shares with orig (compared without line ends) byte for
    byte as in orig, and each line of its own ended as most lines of orig are.
    spatch 1.1.1 moves the '\\r' of a CRLF file from an untouched line to the line it
    adds after it; this puts every '\\r' back where the file wants it."""
    if b"\r" not in orig and b"\r" not in new:
        return new
    old_lines, new_lines = split_lines(orig), split_lines(new)
    crlf = sum(1 for l in old_lines if l.endswith(b"\r\n"))
    eol = b"\r\n" if crlf * 2 > len(old_lines) else b"\n"
    sm = difflib.SequenceMatcher(None, [content(l) for l in old_lines],
                                 [content(l) for l in new_lines], autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out.extend(old_lines[i1:i2])
        else:
            for l in new_lines[j1:j2]:
                out.append(content(l) + (eol if l.endswith(b"\n") else b""))
    return b"".join(out)


def worker(argv):
    """Internal (wrapcmp-run --patch-worker WORK ID): copy the job's files from the
    snapshot, so that a retry starts from the originals, then apply each rule in order."""
    work, jid = argv
    pdir = os.path.join(work, "patch")
    snapdir = open(os.path.join(pdir, "snapshot")).read().strip()
    with open(os.path.join(pdir, jid + ".list")) as f:
        files = [l for l in f.read().split("\n") if l]
    with open(os.path.join(pdir, "rules")) as f:
        rules = [l for l in f.read().split("\n") if l]
    with open(os.path.join(pdir, "options")) as f:
        options = [l for l in f.read().split("\n") if l]
    scratch = os.path.join(pdir, "tree")
    for sid in files:
        shutil.copyfile(os.path.join(snapdir, sid), os.path.join(scratch, sid))
    rc = 0
    with open(os.path.join(pdir, jid + ".err"), "w") as err:
        for k, r in enumerate(rules):
            groups = os.path.join(pdir, "%s.%d.groups" % (jid, k))
            if not os.path.exists(groups):
                continue	# no finding of this rule in these files
            p = subprocess.run(["spatch", "--sp-file", r, "-D", "patch"] + options +
                               SPATCH_OPTS + ["--in-place", "--file-groups", groups],
                               cwd=scratch, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True, errors="replace")
            err.write(p.stderr)
            bad = [l for l in p.stderr.splitlines() if SPATCH_ERROR.search(l)]
            if p.returncode != 0 or bad:
                rc = 1
                err.write("wrapcmp-run: %s failed (exit %d)\n" % (r, p.returncode))
                break
    return rc


def patch_pass(args, work, snap, files, rules, rules_of, options, entry):
    """Patch the snapshot copies of files (tree paths); rules_of[file] names the rules
    with a rewritten finding there.  Returns ({file: new bytes}, failures)."""
    pdir = os.path.join(work, "patch")
    scratch = os.path.join(pdir, "tree")
    os.makedirs(scratch)
    write_bytes(os.path.join(pdir, "snapshot"), os.fsencode(snap.dir) + b"\n")
    with open(os.path.join(pdir, "rules"), "w") as f:
        f.write("".join(r["path"] + "\n" for r in rules))
    with open(os.path.join(pdir, "options"), "w") as f:
        f.write("".join(o + "\n" for o in options))
    size = max(1, args.shard_size // 2)
    shards = {}
    for i in range(0, len(files), size):
        shards["p%05d" % (i // size)] = files[i:i + size]

    def write(jid, fl):
        with open(os.path.join(pdir, jid + ".list"), "w") as f:
            f.write("".join(snap.ids[x] + "\n" for x in fl))
        # rule k runs only on the files where it reported something: a rewrite only
        # removes sites, so a later rule cannot find a new one in an earlier rule's output
        for k, r in enumerate(rules):
            mine = [snap.ids[x] for x in fl if r["name"] in rules_of[x]]
            if mine:
                with open(os.path.join(pdir, "%s.%d.groups" % (jid, k)), "w") as f:
                    f.write(split_groups(mine))

    for jid, fl in shards.items():
        write(jid, fl)
    command = "%s %s --patch-worker %s {}" % (shlex.quote(sys.executable), shlex.quote(entry),
                                              shlex.quote(work))
    timeout = len(rules) * (args.timeout + args.timeout_per_file * size)
    ok = run_parallel(args, work, "patch", command, sorted(shards),
                      {k: len(v) for k, v in shards.items()}, len(files), "patch", timeout, 2)
    failures = {}
    bad = [s for s in sorted(shards) if not ok[s]]
    if bad:
        single = {}
        for s in bad:
            for f in shards[s]:
                jid = "q%05d" % len(single)
                single[jid] = f
                write(jid, [f])
        ok2 = run_parallel(args, work, "patch-single", command, sorted(single),
                           {k: 1 for k in single}, len(single), "patch, file by file",
                           len(rules) * (args.timeout + args.timeout_per_file * 4), 1)
        for jid, f in single.items():
            if not ok2[jid]:
                failures[f] = "patch mode: " + last_error(os.path.join(pdir, jid + ".err"))
    out = {}
    for rel in files:
        if rel in failures:
            continue
        orig = snap.data(rel)
        new = keep_line_ends(orig, read_bytes(os.path.join(scratch, snap.ids[rel])))
        if new != orig:
            out[rel] = new
    return out, failures


def unified_diff(work, snap, rel, new):
    """`diff -u` of the snapshot's copy of rel against new, with the tree's name."""
    path = os.path.join(work, "diff-new")
    write_bytes(path, new)
    p = subprocess.run(["diff", "-u", "--label", diff_label("a/" + rel), "--label",
                        diff_label("b/" + rel), snap.path(rel), path], capture_output=True)
    if p.returncode == 0:
        return b""
    if p.returncode != 1:
        raise Fatal("diff failed on %s: %s" % (rel, p.stderr.decode(errors="replace")))
    return p.stdout
