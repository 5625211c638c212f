"""spatch in report mode over the snapshot: one parse per file for all its rules."""
import base64
import os
import re
import shlex
import sys

from .parallel import run_parallel
from .rules import TAG, write_combined
from .sources import byte_order
from .trim import TRIM_KEY, untrim, write_trimmed
from .util import log

SPATCH_OPTS = ["--no-includes", "--include-headers"]
# spatch finds the python for the rules by starting the first python3 on PATH three
# times, and behind a version manager's shim (pyenv) that costs 0.6 s of every spatch
# process.  Where the shim's python has no libpython to show, spatch falls back to the
# Debian libpython it was built with, the one /usr/bin/python3 runs on: naming
# /usr/bin/python3 keeps that python and skips the detour.  (A pyenv python's own
# libpython, unoptimised, makes the rules slower.)
DEBIAN_PYTHON = "/usr/bin/python3"
SPATCH_PYTHON = ["--python", DEBIAN_PYTHON] if os.path.exists(DEBIAN_PYTHON) else []
RESULT = ".cocci_res"	# spatch --out-place: the patched copy of a file
# In patch mode spatch also prints a diff of each file it changed: it parses the file
# and its patched copy again to see whether they differ only in spacing, then starts
# diff(1).  The runner makes its own diffs from the .cocci_res copies (diffs.py), so
# --no-show-diff: a third of the comparison rules' time on Linux 6.1, same copies.
PATCH_OUTPUT = ["--out-place", "--no-show-diff"]
SPATCH_ERROR = re.compile(r"^(Error in Python script|EXN:|Fatal error|exception )")


def split_groups(files):
    """--file-groups format: one group per file, separated by blank lines."""
    return "\n\n".join(files) + "\n"


def last_error(path):
    try:
        lines = [l.strip() for l in open(path, errors="replace") if l.strip()
                 and not l.startswith(("HANDLING", "init_defs"))]
    except OSError:
        lines = []
    why = lines[-1] if lines else "killed (timeout) or crashed without a message"
    return why[:200]


def rules_for(rules, kinds):
    """The names of the rules a file needs: those whose prefilter kind it has
    (kinds None: all)."""
    return tuple(r["name"] for r in rules
                 if kinds is None or r["kind"] is None or r["kind"] in kinds)


def estimate(size, nrules):
    """About how long spatch takes on a file of size bytes with nrules rules, in
    arbitrary units: parsing costs about as much per byte as running one rule.  A rough
    model: on Linux 6.1 one spatch process per group of files took 2.4 s of CPU a MB
    with the temporary rule alone (net/core/filter.c aside), 2.6 with the three
    comparison rules, 4.3 with all four.  Shards cut by those figures instead finished
    no sooner in a replay of the run from each file's own time, so the model stays."""
    return (size + 4096) * (1 + nrules)


def plan_shards(groups, cap):
    """Cut the files into shards: [(semantic patch, options, [file ids])], the heaviest
    shard first, the order GNU parallel starts them in.  groups holds (semantic patch,
    options, [(file id, estimate)]); a shard holds files of one group only.  Each
    shard takes the heaviest files left in its group up to half of the group's
    remaining estimate, but at least a 32nd and at most an 8th of the whole run's, and
    at most cap files: large shards first to pay spatch's start-up (0.3 to 0.6 s with
    the rules) rarely, small ones last so that no core waits long for the last one.
    The plan depends on the files alone, never on JOBS, and no result depends on which
    files share a shard."""
    total = sum(c for _, _, fl in groups for _, c in fl)
    least, most = total / 32.0, total / 8.0
    out = []
    for sp, o, fl in groups:
        fl = sorted(fl, key=lambda x: (-x[1], x[0]))
        left = sum(c for _, c in fl)
        cur, cost = [], 0
        for fid, c in fl:
            if cur and (cost + c > min(most, max(least, left / 2.0)) or len(cur) >= cap):
                out.append((cost, sp, o, cur))
                left -= cost
                cur, cost = [], 0
            cur.append(fid)
            cost += c
        if cur:
            out.append((cost, sp, o, cur))
    out.sort(key=lambda x: (-x[0], x[3][0]))
    return [(sp, o, fl) for _, sp, o, fl in out]


def write_job(sdir, jid, cwd, argv, files, whole=""):
    """The job's file list, and its command as NUL-separated words (the first the folder
    to run in, the second the folder of the whole files when the job trims them into
    the first, else empty), which spatch_job() executes: no shell sees a path."""
    with open(os.path.join(sdir, jid + ".list"), "w") as f:
        f.write(split_groups(files))
    with open(os.path.join(sdir, jid + ".argv"), "wb") as f:
        f.write(b"\0".join(os.fsencode(a) for a in [cwd, whole] + argv + [
            "--file-groups", os.path.join(sdir, jid + ".list")]))


def spatch_job(argv):
    """Internal (wrapcmp-run --spatch-job SDIR ID): become the job's spatch, its output
    in SDIR/ID.out and SDIR/ID.err.  A job that trims first writes the trimmed copy of
    each of its files (trim.py), in the job, so that the cores share that work too."""
    sdir, jid = argv
    with open(os.path.join(sdir, jid + ".argv"), "rb") as f:
        words = [os.fsdecode(w) for w in f.read().split(b"\0")]
    cwd, whole = words[0], words[1]
    del words[1]
    # a retry starts afresh: no patched copy of an earlier, killed try may stay
    with open(os.path.join(sdir, jid + ".list")) as f:
        for name in f.read().split():
            try:
                os.unlink(os.path.join(cwd, name + RESULT))
            except FileNotFoundError:
                pass
            if whole:
                write_trimmed(os.path.join(whole, name), os.path.join(cwd, name))
    if whole:
        os.environ["WRAPCMP_SOURCES"] = whole	# the rules' evidence reads whole files
    out = os.open(os.path.join(sdir, jid + ".out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    err = os.open(os.path.join(sdir, jid + ".err"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(out, 1)
    os.dup2(err, 2)
    os.chdir(words[0])
    os.execvp(words[1], words[1:])


CANNOT_REWRITE = "spatch 1.1.1 cannot rewrite this file"
CONFIDENCE_IN_MESSAGE = re.compile(r"\(confidence: (low|moderate|high)\)$")


def read_jobs(sdir, snap, jobs, findings, parse_errors, failures):
    """The findings, parse errors and failures that the jobs' spatch printed."""
    for j in jobs:
        with open(os.path.join(sdir, j + ".out"), errors="replace") as f:
            for line in f:
                if line.startswith(TAG + "\t"):
                    c = line.rstrip("\n").split("\t")
                    findings.append({"rule": c[1], "file": snap.rel(c[2]),
                                     "line": int(c[3]), "col": int(c[4]),
                                     "line_end": int(c[5]), "col_end": int(c[6]),
                                     "message": c[7]})
        with open(os.path.join(sdir, j + ".err"), errors="replace") as f:
            current = None
            for line in f:
                if line.startswith("HANDLING: "):
                    current = snap.rel(line[len("HANDLING: "):].strip())
                m = re.match(r"\s*= error in (.*); set verbose_parsing", line)
                if m and snap.rel(m.group(1)):
                    parse_errors.add(snap.rel(m.group(1)))
                # spatch goes on with the next file after an exception in a rule's python
                # code, and exits 0: that file was not fully searched, so it failed
                if current and SPATCH_ERROR.search(line):
                    why = line.strip()
                    if why.startswith("Error in Python script"):
                        why = "a rule's python code raised an exception (%s)" % why
                    failures.setdefault(current, why[:200])


def spatch_reason(why, sid):
    """What spatch said of the file with the copy's name sid, short: EXN:
    Failure("000001.c: 7: try to delete an expanded token: <") in 000001.c is
    "line 7: try to delete an expanded token: <"."""
    m = re.search(r'Failure\("%s: (\d+): (.*)"\)' % re.escape(sid), why)
    if m:
        return "line %s: %s" % (m.group(1), m.group(2))
    return why.replace(sid, "the file")


def report_only_retry(args, work, snap, sdir, name, command, failures, argv, unpatched,
                      run_dir, whole):
    """The files that failed in report and patch mode at once (alone, or with an error
    spatch went on after), again in report mode only, each alone.  Where that succeeds
    with no error, the file has not failed: its findings stand, each one that would be
    rewritten saying "not rewritten: spatch 1.1.1 cannot rewrite this file (why)"
    (unpatched[file] = why), and the run goes on.  Returns the jobs to read."""
    retry = {}
    for rel in sorted(failures, key=byte_order):
        if rel not in snap.ids:
            continue
        sid = snap.ids[rel]
        rid = "r%05d" % len(retry)
        retry[rid] = (rel, spatch_reason(failures[rel], sid))
        write_job(sdir, rid, run_dir, argv(sid), [sid], whole)
    if not retry:
        return []
    log("%d file(s) failed in patch mode; trying them in report mode only" % len(retry))
    ok = run_parallel(args, work, name + "-report-only", command, sorted(retry),
                      {k: 1 for k in retry}, len(retry), name + ", report mode only",
                      args.timeout + args.timeout_per_file * 4, 1)
    done = []
    for rid, (rel, why) in sorted(retry.items()):
        errors = {}
        if ok[rid]:
            read_jobs(sdir, snap, [rid], [], set(), errors)
        if ok[rid] and not errors:
            del failures[rel]
            unpatched[rel] = why
            done.append(rid)
    return done


def report_pass(args, work, snap, kinds, rules, entry, opts_of=lambda f: SPATCH_OPTS,
                name="report", patch=None, cache=None, key_of=None, trim=False):
    """Run the rules each file needs, with the spatch options opts_of(file) gives; files
    that need the same rules and options share shards and one semantic patch joining
    those rules.  With patch (the options of patch mode, e.g. -D confidence=low), the
    same parse also patches: each file spatch changes is left beside its copy in the
    snapshot as NAME.cocci_res (--out-place), the copy itself unchanged.  Returns
    (findings, parse_errors, failures, shards, {file: patched bytes}), with tree paths.
    With a cache (cache.py), a file whose key is there is not sent to spatch, and the
    results of each file spatch handled without failing are stored.  key_of(file), when
    given, stands for the options in the key: options that name scratch paths, which
    differ in every run, need words that say what they mean instead.  With trim, spatch
    reads trimmed copies (trim.py) in a folder of their own, and a file whose patch
    touches a blanked line is run again whole."""
    sdir = os.path.join(work, name)
    os.mkdir(sdir)
    run_dir, whole = snap.dir, ""
    if trim:
        run_dir, whole = os.path.join(work, name + "-trimmed"), snap.dir
        os.mkdir(run_dir)
    size = args.shard_size
    by_rules = {}
    for f in kinds:
        if f not in snap.ids:
            continue
        names = rules_for(rules, kinds[f])
        if names:	# else no rule of this run needs the file (--rules with fewer kinds)
            by_rules.setdefault((names, tuple(opts_of(f))), []).append(snap.ids[f])
    shards, sp_of, opts, groups = {}, {}, {}, []
    sps, texts = {}, {}
    findings, parse_errors, results, keys = [], set(), {}, {}
    for names, o in sorted(by_rules):
        if names not in sps:
            # in a folder of their own: the rules put theirs first on python's sys.path
            sps[names] = os.path.join(work, "rules", "%s-rules-%d.cocci" % (name, len(sps)))
            texts[names] = write_combined(sps[names], [r for r in rules if r["name"] in names])
        files = []
        for sid in by_rules[(names, o)]:
            rel = snap.rel(sid)
            if cache is None:
                files.append(sid)
                continue
            keys[rel] = cache.key(snap.data(rel), rel.endswith(".h"), texts[names],
                                  (key_of(rel) if key_of else list(o)) + (patch or []) +
                                  ([TRIM_KEY] if trim else []))
            hit = cache.get(keys[rel])
            if hit is None:
                files.append(sid)
                continue
            for c in hit["findings"]:
                findings.append(dict(zip(("rule", "line", "col", "line_end", "col_end",
                                          "message"), c), file=rel))
            if hit["parse_error"]:
                parse_errors.add(rel)
            if hit["result"] is not None:
                results[rel] = base64.b64decode(hit["result"])
        if files:
            groups.append((sps[names], list(o), [(sid, estimate(snap.size(sid), len(names)))
                                                  for sid in files]))
    for i, (sp, o, fl) in enumerate(plan_shards(groups, size)):
        sid = "s%05d" % i
        shards[sid], sp_of[sid], opts[sid] = fl, sp, o
    total = sum(len(fl) for fl in shards.values())

    def argv(sid, patching=True):
        return ["spatch"] + SPATCH_PYTHON + ["--sp-file", sp_of[sid], "-D", "report"] + \
            opts[sid] + (["-D", "patch"] + patch + PATCH_OUTPUT if patch and patching
                         else []) + ["--parse-error-msg"]
    for sid, fl in shards.items():
        write_job(sdir, sid, run_dir, argv(sid), fl, whole)
    command = "%s %s --spatch-job %s {}" % (shlex.quote(sys.executable), shlex.quote(entry),
                                            shlex.quote(sdir))
    weights = {sid: len(fl) for sid, fl in shards.items()}
    largest = max([len(fl) for fl in shards.values()] or [1])
    timeout = args.timeout + args.timeout_per_file * largest
    ok = run_parallel(args, work, name, command, sorted(shards), weights, total,
                      name, timeout, 2) if shards else {}
    failed_shards = [s for s in sorted(shards) if not ok[s]]
    failures, unpatched = {}, {}
    if failed_shards:
        single = {}
        for s in failed_shards:
            for f in shards[s]:
                fid = "f%05d" % len(single)
                single[fid] = f
                write_job(sdir, fid, run_dir, argv(s), [f], whole)
        log("%d shard(s) failed twice (%s); rerunning their %d files one by one"
            % (len(failed_shards), " ".join(failed_shards), len(single)))
        ok2 = run_parallel(args, work, name + "-single", command, sorted(single),
                           {k: 1 for k in single}, len(single), name + ", file by file",
                           args.timeout + args.timeout_per_file * 4, 1)
        for fid, f in single.items():
            if not ok2[fid]:
                failures[snap.rel(f)] = last_error(os.path.join(sdir, fid + ".err"))
        jobs = [s for s in sorted(shards) if ok[s]] + [j for j in sorted(single) if ok2[j]]
    else:
        jobs = sorted(shards)
    ran = set()
    read_jobs(sdir, snap, jobs, findings, parse_errors, failures)
    if patch and failures:
        shard_of = {f: s for s, fl in shards.items() for f in fl}
        retried = report_only_retry(args, work, snap, sdir, name, command, failures,
                                    lambda f: argv(shard_of[f], False), unpatched,
                                    run_dir, whole)
        findings[:] = [f for f in findings if f["file"] not in unpatched]
        parse_errors -= set(unpatched)
        read_jobs(sdir, snap, retried, findings, parse_errors, failures)
    blanked_line = []	# files whose patch touches a line that their trimmed copy blanked
    for j in jobs:
        with open(os.path.join(sdir, j + ".list")) as f:
            for sid in f.read().split():
                rel = snap.rel(sid)
                ran.add(rel)
                path = os.path.join(run_dir, sid + RESULT)
                if patch and os.path.exists(path) and rel not in failures:
                    with open(path, "rb") as r:
                        results[rel] = r.read()
                    if trim:
                        with open(os.path.join(run_dir, sid), "rb") as r:
                            copy = r.read()
                        if copy != snap.data(rel):
                            results[rel] = untrim(snap.data(rel), copy, results[rel])
                            if results[rel] is None:
                                blanked_line.append(rel)
    if blanked_line:
        log("%d file(s) patched on a line their trimmed copy blanked; running them whole"
            % len(blanked_line))
        wf, wpe, wfail, _, wres = report_pass(
            args, work, snap, {f: kinds[f] for f in blanked_line}, rules, entry, opts_of,
            name + "-whole", patch)
        again = set(blanked_line)
        findings[:] = [f for f in findings if f["file"] not in again] + wf
        parse_errors = (parse_errors - again) | wpe
        for rel in again:
            del results[rel]
            failures.pop(rel, None)
            unpatched.pop(rel, None)
        results.update(wres)
        failures.update(wfail)
    for rel, why in unpatched.items():
        for f in findings:
            if f["file"] == rel and "not rewritten" not in f["message"]:
                m = CONFIDENCE_IN_MESSAGE.search(f["message"])
                at = m.start() if m else len(f["message"])
                f["message"] = "%s; not rewritten: %s (%s)%s" % (
                    f["message"][:at].rstrip(), CANNOT_REWRITE, why,
                    " " + m.group(0) if m else "")
    if cache is not None:
        mine = {}
        for f in findings:
            mine.setdefault(f["file"], []).append(
                [f[k] for k in ("rule", "line", "col", "line_end", "col_end", "message")])
        for rel in sorted(ran - set(failures)):
            cache.put(keys[rel], {
                "findings": mine.get(rel, []), "parse_error": rel in parse_errors,
                "result": base64.b64encode(results[rel]).decode() if rel in results else None})
    return findings, parse_errors, failures, len(shards), results
