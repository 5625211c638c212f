"""wrapcmp-census: which of a kernel tree's rewritten sites would gcc and clang miscompile
without -fno-strict-overflow (issue 19)?  `make census TREE=... OUT=...`.

    wrapcmp-census --tree TREE --out OUT [--work WORK] [--jobs N] [--compilers gcc,clang]
                   [--paths PATH ...]

  1. The run the series is made from (wrapcmp-run --confidence moderate --existing yes
     --types direct, as `make series` makes it) into OUT/census-scan: its rewritten .c
     files are the ones to build.
  2. For each compiler, an x86_64 allmodconfig build folder WORK/allmodconfig-CC
     (CONFIG_WERROR off; configured and prepared once, kept between runs), and in it the
     objects of those files only (`make -k dir/file.o ...`): a file the configuration
     does not build has no object, and its sites are "not compiled".
  3. The compile commands of those objects, read from the .NAME.o.cmd files Kbuild
     writes beside them (the compiler's arguments only: what follows the source file,
     objtool's run, is left out), into WORK/allmodconfig-CC/compile_commands.json.  They
     are given to a compiler as arguments, never to a shell.
  4. The run again, with --evidence and those compile commands (the first compiler's as
     COMPILE_COMMANDS, the others' as --evidence-commands), into OUT/series-run, where
     `make series` finds it: with its settings, `make series` uses it as it is, and each
     patch says what the compilers do with its sites.
  5. OUT/census.txt and OUT/census.json: per rule, the rewritten sites and, per compiler,
     how many are exploited, not exploited, unclear and not compiled (evidence.py says
     what each verdict means).

The builds run the tree's own Makefiles and compiler flags, as `make series-buildcheck`
does; no file name of the tree reaches a shell (make gets each object as one argument,
and only names of letters, digits and _ . , + - /).
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from .buildcheck import build_env, configure, make_cmd, run_logged, tail
from .buildfiles import obj_of, read_config, selected
from .evidence import NOT_COMPILED, VERDICTS, per_compiler, \
    built_without_wrap as overflow_undefined
from .util import ROOT, Fatal, log

RUN = os.path.join(ROOT, "scripts", "wrapcmp-run")
# the settings of the run `make series` makes (mk/series.mk)
SERIES_SETTINGS = ["--confidence", "moderate", "--existing", "yes", "--types", "direct"]
SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.,+/-]*\.c")
CMD_LINE = re.compile(r"^(?:saved)?cmd_\S+\.o := (.*?\s)(\S+\.c)\s*(?:;|$)")
RULES = ("wrapcmp_cast", "wrapcmp_signed", "wrapcmp_temporary", "wrapcmp_bugs")


def wrapcmp_run(tree, out, extra, logfile):
    """wrapcmp-run into out; its messages into logfile and, shortened, to the terminal."""
    cmd = [RUN, "--tree", tree, "--out", out] + SERIES_SETTINGS + extra
    log("census: wrapcmp-run %s (its messages: %s)" % (" ".join(SERIES_SETTINGS + [
        a if not a.startswith("/") else os.path.basename(a) for a in extra]), logfile))
    env = {k: v for k, v in os.environ.items() if k not in (
        "EVIDENCE", "COMPILE_COMMANDS", "EVIDENCE_COMMANDS", "CONFIDENCE", "EXISTING",
        "TYPES", "HOSTED", "HEADER", "PATHS")}
    with open(logfile, "w") as f:
        p = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=f,
                           stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise Fatal("wrapcmp-run failed (exit %d); the end of %s:\n%s"
                    % (p.returncode, logfile, tail(logfile)))
    with open(os.path.join(out, "report.json"), encoding="utf-8",
              errors="surrogateescape") as f:
        return json.load(f)


def touched_files(findings):
    """(the rewritten .c files to build, those left out for their names)."""
    files = sorted({f["file"] for f in findings if f.get("rewritten") and
                    f["file"].endswith(".c")})
    ok = [f for f in files if SAFE_NAME.fullmatch(f) and ".." not in f.split("/")]
    return ok, [f for f in files if f not in ok]


def cmd_file(bld, rel):
    obj = os.path.normpath(obj_of(rel))
    return os.path.join(bld, os.path.dirname(obj), "." + os.path.basename(obj) + ".cmd")


def compile_command(bld, tree, rel):
    """{directory, file, arguments} of rel's object in bld, from its .o.cmd, or None."""
    try:
        with open(cmd_file(bld, rel), encoding="utf-8", errors="surrogateescape") as f:
            first = f.readline().rstrip("\n")
    except OSError:
        return None
    m = CMD_LINE.match(first)
    if not m:
        return None
    src = m.group(2)
    if os.path.realpath(os.path.join(bld, src)) != os.path.realpath(os.path.join(tree, rel)):
        return None
    try:
        args = shlex.split(m.group(1) + src)
    except ValueError:
        return None
    return {"directory": bld, "file": os.path.join(tree, rel), "arguments": args}


def build(compiler, tree, work, files, jobs):
    """Configure and prepare WORK/allmodconfig-COMPILER (once), build the objects of
    files; the path of the compile_commands.json of those that built, and the files
    without an object."""
    c = {"arch": "x86_64", "kconfig": "allmodconfig", "cc": compiler}
    name = "allmodconfig-%s" % compiler
    bld = os.path.join(work, name)
    logs = os.path.join(work, "logs")
    os.makedirs(logs, exist_ok=True)
    configure(c, tree, bld, logs, name, "census", jobs)
    marker = os.path.join(bld, ".wrapcmp-prepared")
    if not os.path.exists(marker):
        log("census: %s: make modules_prepare" % name)
        logfile = os.path.join(logs, "%s-prepare.log" % name)
        rc, _ = run_logged(make_cmd(c, tree, bld, jobs) + ["modules_prepare"], logfile,
                           env=build_env())
        if rc != 0:
            raise Fatal("make modules_prepare in %s failed (exit %d); the end of %s:\n%s"
                        % (bld, rc, logfile, tail(logfile)))
        open(marker, "w").close()
    # Kbuild builds any object named on its command line, so only those the
    # configuration's Makefiles select (or that they leave undecided) are named
    cfg = read_config(os.path.join(bld, ".config"))
    wanted = [f for f in files if selected(tree, os.path.normpath(obj_of(f)), cfg) is not False]
    logfile = os.path.join(logs, "%s-objects.log" % name)
    log("census: %s: building the objects of %d of the %d files (the others are not in the "
        "configuration; make -k; %s)" % (name, len(wanted), len(files), logfile))
    rc, secs = run_logged(make_cmd(c, tree, bld, jobs) + ["-k"] +
                          [obj_of(f) for f in wanted], logfile, env=build_env())
    entries, missing = [], []
    for rel in files:
        e = compile_command(bld, tree, rel) if rel in wanted else None
        (entries.append(e) if e else missing.append(rel))
    log("census: %s: %d of %d objects built (%.0f s)%s" % (
        name, len(entries), len(files), secs,
        "; %d not in the configuration, %d failed (%s)" % (
            len(files) - len(wanted), len(wanted) - len(entries), logfile)
        if missing else ""))
    path = os.path.join(bld, "compile_commands.json")
    with open(path + ".tmp", "w") as f:
        json.dump(entries, f, indent=1)
    os.replace(path + ".tmp", path)
    return path, missing


def census(findings, compilers):
    """{rule: {"sites": n, compiler: {verdict: n}}} over the rewritten sites, and the
    compilers' full names."""
    names = sorted({c for f in findings if f.get("rewritten")
                    for c in per_compiler(f.get("compiler_evidence_details"))})
    full = {w: next((n for n in names if n.split()[0] == w), w) for w in compilers}
    table = {}
    for f in findings:
        if not f.get("rewritten"):
            continue
        row = table.setdefault(f["rule"], {"sites": 0})
        row["sites"] += 1
        pc = {c.split()[0]: v
              for c, v in per_compiler(f.get("compiler_evidence_details")).items()}
        for w in compilers:
            v = pc.get(w, NOT_COMPILED)
            row.setdefault(w, {k: 0 for k in VERDICTS})[v] += 1
    return table, full


def built_without_wrap(findings):
    """file:line of the rewritten sites whose file's own command leaves signed overflow
    undefined (evidence.built_without_wrap)."""
    return ["%s:%d" % (f["file"], f["line"]) for f in findings if f.get("rewritten") and
            overflow_undefined(f.get("compiler_evidence_details"))]


def census_text(table, full, compilers, meta):
    lines = ["# wrapcmp census: the rewritten sites of %s that the compilers use the overflow "
             "of" % meta["tree"],
             "# each touched .c file built in x86_64 allmodconfig with its own command, with "
             "-fstrict-overflow",
             "# after the kernel's -fno-strict-overflow and without; evidence.py's verdicts",
             "# compilers: %s" % ", ".join(full[c] for c in compilers),
             "# objects built: %s" % ", ".join("%s %d of %d" % (c, meta["built"][c],
                                                                 meta["files"])
                                                for c in compilers),
             "# built without -fno-strict-overflow or -fwrapv, where the rewrite changes the "
             "code generated today: %s" % (", ".join(meta.get("built_without_wrap") or [])
                                          or "none"),
             ""]
    head = "%-18s %5s" % ("rule", "sites")
    for c in compilers:
        head += "  | %-6s %9s %13s %7s %12s" % (c, "exploited", "not exploited", "unclear",
                                               "not compiled")
    lines.append(head)
    rules = [r for r in RULES if r in table] + sorted(r for r in table if r not in RULES)
    total = {"sites": 0}
    for r in rules + ["total"]:
        row = table.get(r) if r != "total" else total
        line = "%-18s %5d" % (r, row["sites"])
        if r != "total":
            total["sites"] += row["sites"]
        for c in compilers:
            v = row.get(c, {k: 0 for k in VERDICTS})
            if r != "total":
                t = total.setdefault(c, {k: 0 for k in VERDICTS})
                for k in VERDICTS:
                    t[k] += v[k]
            line += "  | %-6s %9d %13d %7d %12d" % ("", v["exploited"], v["not exploited"],
                                                   v["unclear"], v["not compiled"])
        lines.append(line)
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="wrapcmp-census", description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default=None, help="the build folders (default "
                    "/var/cache/wrapcmp/census-work/NAME-OF-TREE)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--compilers", default="gcc,clang")
    ap.add_argument("--paths", nargs="+", default=None, metavar="PATH",
                    help="only these folders or files of the tree (wrapcmp-run --paths)")
    args = ap.parse_args(argv)
    try:
        t0 = time.time()
        tree = os.path.abspath(args.tree)
        if not os.path.isfile(os.path.join(tree, "MAINTAINERS")) or \
           not os.path.isfile(os.path.join(tree, "Kbuild")):
            raise Fatal("%s is not a kernel tree (no MAINTAINERS or Kbuild): the census "
                        "builds the kernel; for a project, make run EVIDENCE=yes" % args.tree)
        compilers = [c for c in args.compilers.split(",") if c]
        for c in compilers:
            if c not in ("gcc", "clang"):
                raise Fatal("--compilers: %s is neither gcc nor clang" % c)
            if shutil.which(c) is None:
                raise Fatal("--compilers: no %s on PATH" % c)
        work = os.path.abspath(args.work or os.path.join(
            "/var/cache/wrapcmp/census-work", os.path.basename(tree.rstrip("/"))))
        out = os.path.abspath(args.out)
        os.makedirs(out, exist_ok=True)
        os.makedirs(os.path.join(work, "logs"), exist_ok=True)
        paths = ["--paths"] + args.paths if args.paths else []
        scan = wrapcmp_run(tree, os.path.join(out, "census-scan"), paths,
                           os.path.join(work, "logs", "scan.log"))
        files, odd = touched_files(scan)
        if odd:
            log("census: %d file(s) left out for their names: %s" % (len(odd), odd[:3]))
        if not files:
            raise Fatal("the run rewrites no .c file of %s: nothing to build" % args.tree)
        dbs, built = [], {}
        for c in compilers:
            path, missing = build(c, tree, work, files, args.jobs)
            dbs.append(path)
            built[c] = len(files) - len(missing)
        findings = wrapcmp_run(tree, os.path.join(out, "series-run"),
                               paths + ["--evidence", "--compile-commands", dbs[0],
                                "--evidence-commands"] + dbs[1:],
                               os.path.join(work, "logs", "evidence-run.log"))
        table, full = census(findings, compilers)
        meta = {"tree": os.path.basename(tree.rstrip("/")), "files": len(files),
                "built": built, "compilers": [full[c] for c in compilers],
                "built_without_wrap": built_without_wrap(findings),
                "seconds": round(time.time() - t0)}
        text = census_text(table, full, compilers, meta)
        with open(os.path.join(out, "census.txt"), "w") as f:
            f.write(text)
        with open(os.path.join(out, "census.json"), "w") as f:
            json.dump({"meta": meta, "rules": table}, f, indent=1, sort_keys=True)
        sys.stdout.write(text)
        log("census: %s/census.txt and census.json; the run with evidence in %s/series-run, "
            "which make series uses (%.0f s)" % (args.out, args.out, time.time() - t0))
        return 0
    except Fatal as e:
        sys.stderr.write("wrapcmp-census: %s\n" % e)
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("wrapcmp-census: interrupted\n")
        return 130
