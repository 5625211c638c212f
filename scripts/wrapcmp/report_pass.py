"""spatch in report mode over the snapshot: one parse per file for all its rules."""
import os
import re
import shlex

from .parallel import run_parallel
from .rules import TAG, combined_rules
from .util import log

SPATCH_OPTS = ["--no-includes", "--include-headers"]
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


def report_pass(args, work, snap, kinds, rules, spatch_opts=SPATCH_OPTS, name="report"):
    """Run the rules each file needs; files that need the same rules share shards and
    one semantic patch joining those rules.  Returns (findings, parse_errors,
    failures, shards), with tree paths."""
    sdir = os.path.join(work, name)
    os.mkdir(sdir)
    size = args.shard_size
    by_rules = {}
    for f in kinds:
        if f not in snap.ids:
            continue
        names = rules_for(rules, kinds[f])
        if names:	# else no rule of this run needs the file (--rules with fewer kinds)
            by_rules.setdefault(names, []).append(snap.ids[f])
    shards, sp_of = {}, {}
    for g, names in enumerate(sorted(by_rules)):
        sp = os.path.join(work, "%s-rules-%d.cocci" % (name, g))
        with open(sp, "w") as f:
            f.write(combined_rules([r for r in rules if r["name"] in names]))
        files = by_rules[names]
        # spatch's start-up is paid per shard: files that need fewer of the rules go in
        # larger shards, so that a shard holds about the same amount of rule work
        gsize = max(1, size * len(rules) // len(names))
        for i in range(0, len(files), gsize):
            sid = "s%05d" % len(shards)
            shards[sid] = files[i:i + gsize]
            sp_of[sid] = sp
    total = sum(len(fl) for fl in shards.values())
    for sid, fl in shards.items():
        with open(os.path.join(sdir, sid + ".list"), "w") as f:
            f.write(split_groups(fl))
        os.symlink(sp_of[sid], os.path.join(sdir, sid + ".cocci"))
    d = shlex.quote(sdir)
    spatch = ["-D", "report"] + spatch_opts + ["--parse-error-msg"]
    base = "cd %s && spatch --sp-file %s/{}.cocci %s" % (
        shlex.quote(snap.dir), d, " ".join(shlex.quote(a) for a in spatch))
    command = base + " --file-groups %s/{}.list > %s/{}.out 2> %s/{}.err" % (d, d, d)
    weights = {sid: len(fl) for sid, fl in shards.items()}
    largest = max([len(fl) for fl in shards.values()] or [1])
    timeout = args.timeout + args.timeout_per_file * largest
    ok = run_parallel(args, work, name, command, sorted(shards), weights, total,
                      name, timeout, 2) if shards else {}
    failed_shards = [s for s in sorted(shards) if not ok[s]]
    failures = {}
    if failed_shards:
        single = {}
        for s in failed_shards:
            for f in shards[s]:
                fid = "f%05d" % len(single)
                single[fid] = f
                with open(os.path.join(sdir, fid + ".list"), "w") as out:
                    out.write(f + "\n")
                os.symlink(sp_of[s], os.path.join(sdir, fid + ".cocci"))
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
    findings, parse_errors = [], set()
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
    return findings, parse_errors, failures, len(shards)
