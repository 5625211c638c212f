"""series-buildcheck: build a wrapcmp series before and after, in three configurations,
and compare diagnostics and object code.

    series-buildcheck --tree TREE --series OUT/series --out OUT [--work WORK] [--jobs N]
                      [--configs allmodconfig,i386,defconfig] [--only REGEX] [--max-files N]
                      [--i386-compiler cross|host] [--no-vmlinux-diff]

The configurations (--configs, default all three, run in this order):

  allmodconfig  x86_64 allmodconfig, the touched files: every .c file the series touches,
                the .c file that #includes a touched .c file, the RCU users of
                ULONG_CMP_GE/LT (the header patch changes where those come from) and up to
                three includers of each touched header; the files the configuration's
                Makefiles leave out are listed and not built.
  i386          i386 allmodconfig (ARCH=i386, CROSS_COMPILE=i686-linux-gnu-, Debian's
                gcc-i686-linux-gnu; --i386-compiler host builds with the host gcc -m32
                instead: measured on Linux 6.1, both give the same code in the same
                time), the same files: unsigned long is 32 bits here.  allmodconfig
                rather than defconfig because it takes in the touched drivers: of the 134
                files of the 6.1 series, i386 allmodconfig has 100 (and 22 undetermined),
                i386 defconfig 26 (and 16), at the same cost per object.
  defconfig     x86_64 defconfig, the whole kernel (`make`: vmlinux, bzImage and modules),
                and the touched files' objects of that build compared.

Every configuration is built twice, from two git copies of the tree: WORK/buildcheck/
src-after at a commit made of the series applied to the pristine commit of the copy
`make series` keeps in WORK/tree (`git apply --cached`: a later run with the same series
rewrites no file, and make rebuilds nothing), and WORK/buildcheck/src-before at the
pristine commit with its line numbers aligned to the series (--before aligned, the
default): in every file the series changes, blank lines where it adds lines (a lone
backslash inside a continued macro) and `#line N` where it removes some, so that __LINE__
(WARN(), BUG(), the line passed to a printing helper) is the same on both sides and an
instruction that differs is a change of code, not of a line number.  The code is the
pristine code, token for token.  --before pristine builds the pristine tree as it is.  Each
(configuration, side) has its own O= folder, WORK/buildcheck/CONFIG-before and
CONFIG-after, kept between runs: a later run is incremental.  CONFIG_WERROR is turned off
(a warning stays a warning).  TREE itself is never read by a build nor written.

Diagnostics.  The compiler is run through a small wrapper (WORK/buildcheck/bin/) that keeps
a copy of its messages in .NAME.o.wrapcmp beside every object, so that the diagnostics of an
object compiled in an earlier run still count in an incremental one.  objtool, modpost and
linker messages are read from the make log and kept per product (the object, vmlinux,
Module.symvers) in .wrapcmp-logdiag.json in the build folder.  A diagnostic is (file, kind,
message) without line and column; its count is the number of times it was printed (a
warning in a header counts once per object that includes it).  A new diagnostic is one
printed more often after the series than before; for the touched files, only the objects
that built before the series are compared (the error counts cover all of them).

Object code (scripts/wrapcmp/buildfiles.py): for each file built before and after, the text
size (bytes of the executable sections) and the number of instructions that differ
(objdump -d, normalised, diffed function by function; one instruction changed in place
counts 1).  With defconfig, vmlinux too (--no-vmlinux-diff skips its instruction count,
about a minute).

Outputs, written into OUT only at the end (Ctrl-C leaves OUT as it was):
  OUT/buildcheck.txt       the figures, for people
  OUT/buildcheck.json      the same, for the series generator (format below)
  OUT/buildcheck-logs/     CONFIG-{configure,prepare,before,after}.log

OUT/buildcheck.json, format 1:
  {"format": 1, "tree": path, "series": path, "started": "YYYY-MM-DD HH:MM:SS",
   "seconds": total, "status": "ok" | "new warnings" | "errors",
   "patches": ["0001-....patch", ...],
   "configs": {NAME: {
       "arch", "kconfig", "scope": "touched files" | "whole kernel", "compiler",
       "status": "ok" | "new warnings" | "errors" | "not run",
       "seconds": {"configure", "prepare", "before", "after"},
       "objects": {"tried", "built_before", "built_after", "outside", "compiled_before",
                   "compiled_after"}        (compiled_*: objects compiled in this run, the
                                            others were up to date; the whole kernel has
                                            only these two)
       "outside": [.c files the configuration's Makefiles leave out, not built],
       "failed_before": [objects tried that did not build before the series],
       "through_includer": [touched .c files only #included by another .c file, whose
                            object is not built on its own],
       "make_status": {"before": exit code, "after": exit code}     (whole kernel)
       "errors_before", "errors_after", "warnings_before", "warnings_after": counts,
       "new_errors", "new_warnings", "gone": [{"file", "kind", "message", "count"}],
       "lost": [objects built before the series and not after],
       "added_not_built": [objects of files the series adds that did not build after],
       "vmlinux": {"text_before", "text_after", "insns_before", "insns_after",
                   "insns_differ"}          (defconfig, when both were linked)
       }},
   "files": {PATH: {"patch": "00NN-....patch" or null, "why": "touched" | "includes X" |
                    "uses ULONG_CMP_GE/LT (RCU)",
                    NAME: {"built": bool, "text_before": n, "text_after": n,
                           "insns_before": n, "insns_after": n, "insns_differ": n,
                           "objects": [...]}}},
   "by_patch": {PATCH: {NAME: {"files", "built", "text_before", "text_after",
                               "insns_differ"}}}}
  A touched .c or .h file counts through "objects": its own .o for a .c file that is
  compiled, else the objects that #include it (a touched header's includers, the .c file
  that includes a touched .c file); "built" is true when at least one of them was built
  before and after, and the figures are sums over those (null when not built).
  "by_patch" sums each patch's distinct objects once.  A configuration that was not
  selected has only "status": "not run".  Numbers are integers, times in seconds.

Exit status: 0 when no selected configuration has a new error, a new warning, an object
that stopped building, or (whole kernel) a build that fails after the series; 1 otherwise;
2 on bad input or a setup failure (no series, no tree or git copy, a missing compiler or
tool: the message names the Debian package), 130 on Ctrl-C.
"""
import argparse
import collections
import errno
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from . import buildfiles as bf
from .buildfiles import (all_diag_files, as_list, counts, diag_path, obj_of, plan_files,
                         prepare_sources, read_config, read_diag, read_series, run, selected,
                         update_log_store, write_if_changed)
from .util import Fatal, log, set_prog

PROG = "series-buildcheck"
DEFAULT_WORK_PARENT = "/var/cache/wrapcmp/series-work"

CONFIGS = collections.OrderedDict([
    ("allmodconfig", {"arch": "x86_64", "kconfig": "allmodconfig", "whole": False,
                      "label": "x86_64 allmodconfig, touched files"}),
    ("i386", {"arch": "i386", "kconfig": "allmodconfig", "whole": False,
              "label": "i386 allmodconfig, touched files"}),
    ("defconfig", {"arch": "x86_64", "kconfig": "defconfig", "whole": True,
                   "label": "x86_64 defconfig, whole kernel"}),
])
I386_CROSS = "i686-linux-gnu-"
I386_PACKAGE = "gcc-i686-linux-gnu"
# Tools the builds need, and the Debian package of each.
TOOLS = [("make", "make"), ("gcc", "gcc"), ("git", "git"), ("flex", "flex"),
         ("bison", "bison"), ("bc", "bc"), ("objdump", "binutils"), ("ld", "binutils"),
         ("openssl", "openssl"), ("perl", "perl")]
HEADERS = [("/usr/include/gelf.h", "libelf-dev"), ("/usr/include/openssl/ssl.h", "libssl-dev")]
BUILD_ENV = {"LC_ALL": "C", "KBUILD_BUILD_TIMESTAMP": "wrapcmp buildcheck",
             "KBUILD_BUILD_USER": "wrapcmp", "KBUILD_BUILD_HOST": "buildcheck"}


# ------------------------------------------------------------------ processes

class Interrupted(Exception):
    pass


def run_logged(cmd, logfile, cwd=None, env=None, append=False):
    """cmd with its output into logfile, in its own session so that Ctrl-C here stops it
    and everything it started.  Returns (exit code, seconds)."""
    start = time.time()
    with open(logfile, "a" if append else "w") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=f, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            proc.wait()
        except BaseException:
            stop(proc)
            raise
    return proc.returncode, time.time() - start


def stop(proc):
    """SIGINT to the process group (make deletes what it was writing), then SIGKILL."""
    for sig, wait in ((signal.SIGINT, 60), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def tail(path, n=25):
    with open(path, errors="replace") as f:
        return "".join(f.readlines()[-n:])


def check_tools(configs, i386_compiler):
    missing = []
    for tool, package in TOOLS:
        if not shutil.which(tool):
            missing.append("%s (Debian package %s)" % (tool, package))
    for path, package in HEADERS:
        if not os.path.exists(path):
            missing.append("%s (Debian package %s)" % (path, package))
    if "i386" in configs:
        if i386_compiler == "cross":
            for tool in ("gcc", "ld", "objcopy"):
                if not shutil.which(I386_CROSS + tool):
                    missing.append("%s%s (Debian package %s; or --i386-compiler host)"
                                   % (I386_CROSS, tool, I386_PACKAGE if tool == "gcc"
                                      else "binutils-i686-linux-gnu"))
        else:
            probe = subprocess.run(["gcc", "-m32", "-c", "-x", "c", "-o", "/dev/null", "-"],
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
            if probe.returncode != 0:
                missing.append("gcc -m32 (%s)" % probe.stdout.strip()[:200])
    if missing:
        raise Fatal("missing: %s; install with apt-get install (make install-deps lists "
                    "them)" % "; ".join(missing))


# ------------------------------------------------------------------ builds

WRAPPER = """#!/bin/sh
# Written by series-buildcheck (scripts/wrapcmp/buildcheck.py): runs the compiler below and
# keeps a copy of its messages in .NAME.wrapcmp beside the NAME.o or NAME.s it writes.
real='%s'
out=
prev=
for a do
	case $prev in -o) out=$a ;; esac
	prev=$a
done
case $out in
	*.o|*.s) ;;
	*) exec "$real" "$@" ;;
esac
case $out in
	*/*) diag="${out%%/*}/.${out##*/}.wrapcmp" ;;
	*) diag=".$out.wrapcmp" ;;
esac
"$real" "$@" 2>"$diag.tmp"
rc=$?
cat "$diag.tmp" >&2
mv -f "$diag.tmp" "$diag"
exit $rc
"""


def compiler_wrapper(bc, name):
    real = shutil.which(name)
    if real is None:
        raise Fatal("no %s on PATH" % name)
    d = os.path.join(bc, "bin")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, name)
    write_if_changed(path, WRAPPER % real.replace("'", "'\\''"), 0o755)
    return path


def make_cmd(c, src, bld, jobs):
    cmd = ["make", "-C", src, "O=" + bld, "ARCH=" + c["arch"], "CC=" + c["cc"]]
    if c.get("cross"):
        cmd.append("CROSS_COMPILE=" + c["cross"])
    return cmd + ["-j%d" % jobs]


def configure(c, src, bld, logs, name, side, jobs):
    """c's configuration in bld, CONFIG_WERROR off; redone only when the recipe changed
    or an earlier run stopped half-way (.wrapcmp-configured is written last)."""
    recipe = "%s %s cc=%s cross=%s WERROR=n\n" % (c["arch"], c["kconfig"],
                                                 os.path.basename(c["cc"]), c.get("cross", ""))
    marker = os.path.join(bld, ".wrapcmp-configured")
    os.makedirs(bld, exist_ok=True)
    try:
        with open(marker) as f:
            if f.read() == recipe and os.path.exists(os.path.join(bld, ".config")):
                return 0.0
    except OSError:
        pass
    if os.path.exists(marker):
        os.unlink(marker)
    # A new configuration: diagnostics kept from another one would not belong to it.
    for dirpath, _, files in os.walk(bld):
        for f in files:
            if f.endswith(".wrapcmp") or f == ".wrapcmp-logdiag.json":
                os.unlink(os.path.join(dirpath, f))
    logfile = os.path.join(logs, "%s-%s-configure.log" % (name, side))
    open(logfile, "w").close()
    log("%s %s: make %s" % (name, side, c["kconfig"]))
    base = make_cmd(c, src, bld, jobs)
    start = time.time()
    for cmd in (base + [c["kconfig"]],
                [os.path.join(src, "scripts", "config"), "--file",
                 os.path.join(bld, ".config"), "-d", "WERROR"],
                base + ["olddefconfig"]):
        rc, _ = run_logged(cmd, logfile, env=build_env(), append=True)
        if rc != 0:
            raise Fatal("%s failed (exit %d); the end of %s:\n%s"
                        % (" ".join(cmd), rc, logfile, tail(logfile)))
    cfg = read_config(os.path.join(bld, ".config"))
    want = "CONFIG_X86_32" if c["arch"] == "i386" else "CONFIG_X86_64"
    if cfg.get(want) != "y" or cfg.get("CONFIG_WERROR") == "y":
        raise Fatal("%s in %s: %s is not set, or CONFIG_WERROR still is"
                    % (c["kconfig"], bld, want))
    with open(marker, "w") as f:
        f.write(recipe)
    return time.time() - start


def build_env():
    env = dict(os.environ)
    env.update(BUILD_ENV)
    for v in ("CROSS_COMPILE", "ARCH", "KBUILD_OUTPUT", "O", "CC", "LLVM", "W", "C", "M"):
        env.pop(v, None)
    return env


def make(c, src, bld, targets, logfile, jobs, keep_going=True):
    cmd = make_cmd(c, src, bld, jobs) + (["-k"] if keep_going else []) + targets
    return run_logged(cmd, logfile, env=build_env())


# ------------------------------------------------------------------ one configuration

def side_state(bld, objs, roots, store, started):
    """For the touched-file build in bld: (built objects, {object: Counter of its
    diagnostics}, objects compiled in this run)."""
    built, diags, compiled = set(), {}, 0
    for o in objs:
        if os.path.exists(os.path.join(bld, o)):
            built.add(o)
        d = diag_path(bld, o)
        got = read_diag(d, roots)
        diags[o] = collections.Counter(got or [])
        if got is not None and os.path.getmtime(d) >= started - 1:
            compiled += 1
        diags[o].update(store.get(o, []))
    return built, diags, compiled


def whole_state(bld, roots, store, started):
    """For the whole-kernel build in bld: (Counter of diagnostics, objects compiled in this
    run)."""
    diags, compiled = collections.Counter(), 0
    for d in all_diag_files(bld):
        got = read_diag(d, roots)
        if got:
            diags.update(got)
        if os.path.getmtime(d) >= started - 1:
            compiled += 1
    for items in store.values():
        diags.update(items)
    return diags, compiled


def compare_objects(bld_b, bld_a, objs, what):
    out = {}
    for o in objs:
        b, a = os.path.join(bld_b, o), os.path.join(bld_a, o)
        if os.path.exists(b) and os.path.exists(a):
            try:
                out[o] = bf.compare(b, a)
            except (RuntimeError, ValueError, OSError) as e:
                log("%s: cannot compare %s: %s" % (what, o, e))
    return out


def run_config(name, c, srcs, bc, logs, why, via, jobs, vmlinux_diff):
    res = {"arch": c["arch"], "kconfig": c["kconfig"],
           "scope": "whole kernel" if c["whole"] else "touched files",
           "compiler": c["compiler_text"], "seconds": {}}
    blds = {s: os.path.join(bc, "%s-%s" % (name, s)) for s in ("before", "after")}
    roots = [srcs["before"], srcs["after"], blds["before"], blds["after"]]
    secs = res["seconds"]
    secs["configure"] = 0.0
    for side in ("before", "after"):
        secs["configure"] += configure(c, srcs[side], blds[side], logs, name, side, jobs)
    cfg = read_config(os.path.join(blds["before"], ".config"))
    if cfg != read_config(os.path.join(blds["after"], ".config")):
        log("%s: note: the configuration after the series differs from the one before" % name)
    objs = [obj_of(f) for f in why]
    state = {}
    if not c["whole"]:
        covered, outside, unknown, through = [], [], [], []
        for f in why:
            s = selected(srcs["before"], f[:-2] + ".o", cfg)
            if s is not True and len(via.get(f, ())) > 1:
                through.append(f)          # only #included by another .c file: built there
                continue
            (covered if s else outside if s is False else unknown).append(f)
        tried = covered + unknown          # a file the Makefiles do not clearly exclude
        res["outside"] = outside
        res["through_includer"] = through
        tried_objs = objs = [obj_of(f) for f in tried]
        log("%s: %d files: %d in the configuration, %d undetermined (tried), %d outside, "
            "%d built only through the .c file that includes them"
            % (name, len(why), len(covered), len(unknown), len(outside), len(through)))
        secs["prepare"] = 0.0
        for side in ("before", "after"):
            logfile = os.path.join(logs, "%s-%s-prepare.log" % (name, side))
            log("%s %s: make prepare (minutes the first time)" % (name, side))
            rc, t = make(c, srcs[side], blds[side], ["prepare"], logfile, jobs, keep_going=False)
            secs["prepare"] += t
            if rc != 0:
                raise Fatal("make prepare failed in %s (exit %d); the end of %s:\n%s"
                            % (blds[side], rc, logfile, tail(logfile)))
            logfile = os.path.join(logs, "%s-%s.log" % (name, side))
            log("%s %s: building %d objects" % (name, side, len(tried_objs)))
            started = time.time()
            rc, t = make(c, srcs[side], blds[side], tried_objs, logfile, jobs) \
                if tried_objs else (0, 0.0)
            secs[side] = t
            store = update_log_store(blds[side], logfile, roots, started) if tried_objs else {}
            state[side] = side_state(blds[side], tried_objs, roots, store, started)
            log("%s %s: %d of %d objects built (%d compiled in this run), %.0f s"
                % (name, side, len(state[side][0]), len(tried_objs), state[side][2], t))
        (bb, pb, cb), (ba, pa, ca) = state["before"], state["after"]
        # Totals over every object tried; new diagnostics only over the objects that built
        # before the series: one that fails either way says nothing about the series (a
        # changed line changes its error messages).
        totals = [sum(p.values(), collections.Counter()) for p in (pb, pa)]
        # an object whose source the series adds (lib/wrapcmp_kunit.c) did not fail
        # before: it was not there; its diagnostics after are the series' own
        added = added_by_series(srcs["before"], tried_objs)
        db = sum((pb[o] for o in bb), collections.Counter())
        da = sum((pa.get(o, collections.Counter()) for o in set(bb) | added),
                 collections.Counter())
        res["objects"] = {"tried": len(tried_objs), "built_before": len(bb),
                          "built_after": len(ba), "outside": len(outside),
                          "compiled_before": cb, "compiled_after": ca}
        res["lost"] = sorted(o for o in bb if o not in ba)
        res["added_not_built"] = sorted(o for o in added if o not in ba)
        res["failed_before"] = sorted(o for o in tried_objs if o not in bb and o not in added)
        failed_after = bool(res["added_not_built"])
    else:
        res["make_status"], res["objects"] = {}, {}
        for side in ("before", "after"):
            logfile = os.path.join(logs, "%s-%s.log" % (name, side))
            log("%s %s: make (the whole kernel; 20-30 minutes on 2 cores when much changed)"
                % (name, side))
            started = time.time()
            rc, t = make(c, srcs[side], blds[side], [], logfile, jobs)
            secs[side] = t
            res["make_status"][side] = rc
            store = update_log_store(blds[side], logfile, roots, started)
            state[side], res["objects"]["compiled_" + side] = whole_state(blds[side], roots,
                                                                          store, started)
            log("%s %s: make exit %d, %.0f s, %d objects compiled"
                % (name, side, rc, t, res["objects"]["compiled_" + side]))
        db, da = state["before"], state["after"]
        totals = [db, da]
        res["lost"] = []
        res["make_errors"] = {s: make_error_lines(os.path.join(logs, "%s-%s.log" % (name, s)))
                              for s in ("before", "after")}
        failed_after = res["make_status"]["after"] != 0
        vm = [os.path.join(blds[s], "vmlinux") for s in ("before", "after")]
        if all(os.path.exists(v) for v in vm):
            log("%s: comparing vmlinux" % name)
            if vmlinux_diff:
                res["vmlinux"] = bf.compare(*vm)
            else:
                res["vmlinux"] = {"text_before": bf.text_size(vm[0]),
                                  "text_after": bf.text_size(vm[1])}
    res["errors_before"], res["warnings_before"] = counts(totals[0])
    res["errors_after"], res["warnings_after"] = counts(totals[1])
    new, gone = da - db, db - da
    res["new_errors"] = as_list(collections.Counter({k: v for k, v in new.items()
                                                     if k[1] == "error"}))
    res["new_warnings"] = as_list(collections.Counter({k: v for k, v in new.items()
                                                       if k[1] == "warning"}))
    res["gone"] = as_list(gone)
    log("%s: comparing the objects" % name)
    res["_objects"] = compare_objects(blds["before"], blds["after"], objs, name)
    if res["new_errors"] or res["lost"] or failed_after:
        res["status"] = "errors"
    elif res["new_warnings"]:
        res["status"] = "new warnings"
    else:
        res["status"] = "ok"
    return res


def added_by_series(src_before, objs):
    """The objects of objs whose .c file is not in the tree before the series (the
    series adds it, as lib/wrapcmp_kunit.c)."""
    return {o for o in objs
            if not os.path.exists(os.path.join(src_before, os.path.splitext(o)[0] + ".c"))}


def make_error_lines(logfile):
    try:
        with open(logfile, errors="replace") as f:
            return [l.rstrip("\n") for l in f if re.match(r"^make(\[\d+\])?: \*\*\* ", l)][:20]
    except OSError:
        return []


# ------------------------------------------------------------------ results

def per_file(owner, why, via, results):
    files = collections.OrderedDict()
    names = sorted(set(via) | set(why))
    for path in names:
        entry = {"patch": owner.get(path), "why": "touched" if path in owner else why[path]}
        sources = via.get(path, [path])
        for name, res in results.items():
            if "_objects" not in res:
                continue
            objs = [obj_of(s) for s in sources]
            got = [res["_objects"][o] for o in objs if o in res["_objects"]]
            e = {"built": bool(got), "objects": objs}
            for k in ("text_before", "text_after", "insns_before", "insns_after",
                      "insns_differ"):
                e[k] = sum(g[k] for g in got) if got else None
            entry[name] = e
        files[path] = entry
    return files


def by_patch(owner, via, results):
    out = collections.OrderedDict()
    for patch in sorted(set(owner.values())):
        paths = sorted(p for p, o in owner.items() if o == patch and p in via)
        objs = sorted({obj_of(s) for p in paths for s in via[p]})
        entry = {}
        for name, res in results.items():
            if "_objects" not in res:
                continue
            got = [res["_objects"][o] for o in objs if o in res["_objects"]]
            entry[name] = {"files": len(paths), "objects": len(objs), "built": len(got),
                           "text_before": sum(g["text_before"] for g in got),
                           "text_after": sum(g["text_after"] for g in got),
                           "insns_differ": sum(g["insns_differ"] for g in got)}
        out[patch] = entry
    return out


def fmt_diags(items, limit=60):
    lines = ["    %s: %s: %s (x%d)" % (d["file"], d["kind"], d["message"], d["count"])
             for d in items[:limit]]
    if len(items) > limit:
        lines.append("    ... and %d more (all in buildcheck.json)" % (len(items) - limit))
    return lines


def report_text(doc, why, results):
    L = ["series-buildcheck: %s, %d patches, %s" % (doc["tree"], len(doc["patches"]),
                                                     doc["started"]),
         "status: %s; total time %s" % (doc["status"], hms(doc["seconds"])), ""]
    for name, c in CONFIGS.items():
        res = doc["configs"][name]
        if res["status"] == "not run":
            L += ["== %s (%s): not run" % (name, c["label"]), ""]
            continue
        s = res["seconds"]
        L.append("== %s (%s; %s): %s" % (name, c["label"], res["compiler"], res["status"]))
        if res["scope"] == "touched files":
            o = res["objects"]
            L.append("  objects: %d tried, %d built before, %d built after; %d files outside "
                     "the configuration (not built)" % (o["tried"], o["built_before"],
                                                        o["built_after"], o["outside"]))
            L.append("  compiled in this run: %d before, %d after (the rest were up to date)"
                     % (o["compiled_before"], o["compiled_after"]))
            L.append("  times: configure %s, prepare %s, before %s, after %s" % (
                hms(s.get("configure", 0)), hms(s.get("prepare", 0)), hms(s.get("before", 0)),
                hms(s.get("after", 0))))
        else:
            L.append("  make: exit %d before, exit %d after" % (res["make_status"]["before"],
                                                             res["make_status"]["after"]))
            L.append("  compiled in this run: %d objects before, %d after (the rest were up "
                     "to date)" % (res["objects"]["compiled_before"],
                                   res["objects"]["compiled_after"]))
            L.append("  times: configure %s, build before %s, build after %s" % (
                hms(s.get("configure", 0)), hms(s.get("before", 0)), hms(s.get("after", 0))))
            for side in ("before", "after"):
                for line in res["make_errors"][side]:
                    L.append("  %s: %s" % (side, line))
            v = res.get("vmlinux")
            if v:
                L.append("  vmlinux text: %d bytes before, %d after (%+d)%s" % (
                    v["text_before"], v["text_after"], v["text_after"] - v["text_before"],
                    "; %d of %d instructions differ" % (v["insns_differ"], v["insns_before"])
                    if "insns_differ" in v else ""))
        L.append("  errors: %d before, %d after; warnings: %d before, %d after" % (
            res["errors_before"], res["errors_after"], res["warnings_before"],
            res["warnings_after"]))
        L.append("  new errors: %d, new warnings: %d, objects that stopped building: %d" % (
            sum(d["count"] for d in res["new_errors"]),
            sum(d["count"] for d in res["new_warnings"]), len(res["lost"])))
        if res["new_errors"]:
            L += ["  new errors:"] + fmt_diags(res["new_errors"])
        if res["new_warnings"]:
            L += ["  new warnings:"] + fmt_diags(res["new_warnings"])
        if res["gone"]:
            L += ["  diagnostics gone after the series:"] + fmt_diags(res["gone"])
        if res["lost"]:
            L += ["  built before, not after:"] + ["    " + o for o in res["lost"]]
        if res.get("through_includer"):
            L += ["  built only through the .c file that #includes them: %s"
                  % ", ".join(res["through_includer"])]
        if res.get("added_not_built"):
            L += ["  added by the series, not built after: %d" % len(res["added_not_built"])]
            L += ["    " + o for o in res["added_not_built"]]
        if res.get("failed_before"):
            L += ["  tried, did not build before the series (its messages are not compared): "
                  "%d" % len(res["failed_before"])]
            L += ["    %s (%s)" % (o, why.get(os.path.normpath(o)[:-2] + ".c", ""))
                  for o in res["failed_before"]]
        if res.get("outside"):
            L += ["  outside the configuration: %d" % len(res["outside"])]
            L += ["    %s (%s)" % (f, why[f]) for f in res["outside"]]
        objs = results[name].get("_objects", {})
        same = sum(1 for v in objs.values() if v["text_before"] == v["text_after"])
        L.append("  object code, %d objects built before and after: text size unchanged in "
                 "%d, %d instructions differ in all" % (
                     len(objs), same, sum(v["insns_differ"] for v in objs.values())))
        L.append("")
    L.append("per touched file (text bytes before -> after, instructions that differ; "
             "- = not built):")
    names = [n for n in CONFIGS if "_objects" in results.get(n, {})]
    L.append("  %-60s %s" % ("file [patch]", "   ".join("%-22s" % n for n in names)))
    for path, e in doc["files"].items():
        if e["why"] != "touched":
            continue
        cells = []
        for n in names:
            x = e.get(n)
            cells.append("%-22s" % ("-" if not x or not x["built"] else "%d->%d %d" % (
                x["text_before"], x["text_after"], x["insns_differ"])))
        L.append("  %-60s %s" % ("%s [%s]" % (path, (e["patch"] or "")[:4]), "   ".join(cells)))
    L += ["", "text = bytes of the executable sections; instructions that differ: objdump -d, "
          "addresses and moved targets normalised, a line diff per function, an instruction "
          "changed in place counting 1 (scripts/wrapcmp/buildfiles.py)."]
    return "\n".join(L) + "\n"


def hms(seconds):
    seconds = int(round(seconds))
    return "%d min %02d s" % (seconds // 60, seconds % 60) if seconds >= 60 else "%d s" % seconds


# ------------------------------------------------------------------ OUT, the lock

def lock_work(bc):
    f = open(os.path.join(bc, "lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        f.close()
        if e.errno in (errno.EAGAIN, errno.EACCES):
            raise Fatal("another series-buildcheck is using %s; wait for it, or give another "
                        "SERIES_WORK" % bc)
        raise
    return f


def remove_dead_stages(out):
    """Stage folders of runs that were killed outright (SIGKILL, a crash)."""
    for name in os.listdir(out):
        m = re.match(r"^\.buildcheck-(?:stage|old)-(\d+)-", name)
        if not m:
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue                    # still running
        except ProcessLookupError:
            pass
        except PermissionError:
            continue
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)


def publish(stage, out):
    """Move the stage's outputs into OUT, with SIGINT held off so that OUT gets all of
    them or none."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        logs = os.path.join(out, "buildcheck-logs")
        if os.path.isdir(logs):
            trash = tempfile.mkdtemp(prefix=".buildcheck-old-%d-" % os.getpid(), dir=out)
            os.rename(logs, os.path.join(trash, "logs"))
        else:
            trash = None
        os.rename(os.path.join(stage, "buildcheck-logs"), logs)
        for f in ("buildcheck.json", "buildcheck.txt"):
            os.replace(os.path.join(stage, f), os.path.join(out, f))
        # The single logs of the earlier script.
        for f in ("buildcheck-before.log", "buildcheck-after.log", "buildcheck-config.log",
                  "buildcheck-prepare.log"):
            try:
                os.unlink(os.path.join(out, f))
            except OSError:
                pass
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)
    if trash:
        shutil.rmtree(trash, ignore_errors=True)


# ------------------------------------------------------------------ main

def parse_args(argv):
    doc = __doc__.split("\n")
    ap = argparse.ArgumentParser(prog=PROG, description=" ".join(doc[:2]),
                                 epilog="\n".join(doc[2:]),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", required=True, help="the kernel tree (only its git copy in "
                    "WORK/tree is read)")
    ap.add_argument("--series", required=True, help="OUT/series of `make series`")
    ap.add_argument("--out", required=True, help="where buildcheck.txt/.json and the logs go")
    ap.add_argument("--work", help="the scratch folder of `make series` (default %s/"
                    "NAME-OF-TREE)" % DEFAULT_WORK_PARENT)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--configs", default=",".join(CONFIGS),
                    help="comma-separated, from %s (default all)" % ", ".join(CONFIGS))
    ap.add_argument("--only", help="touched files: only those matching this regular expression")
    ap.add_argument("--max-files", type=int, help="touched files: only the first N")
    ap.add_argument("--i386-compiler", choices=("cross", "host"), default="cross",
                    help="i386: %sgcc (default) or the host gcc -m32" % I386_CROSS)
    ap.add_argument("--before", choices=("aligned", "pristine"), default="aligned",
                    help="the tree built before the series: the pristine tree with its line "
                    "numbers aligned to the series' (default), or exactly the pristine tree")
    ap.add_argument("--no-vmlinux-diff", action="store_true",
                    help="defconfig: vmlinux text sizes only, no instruction count")
    args = ap.parse_args(argv)
    configs = [x.strip() for x in args.configs.split(",") if x.strip()]
    bad = [x for x in configs if x not in CONFIGS]
    if bad or not configs:
        ap.error("--configs: unknown %s; choose from %s" % (", ".join(bad) or "(none given)",
                                                          ", ".join(CONFIGS)))
    args.configs = [n for n in CONFIGS if n in configs]
    if args.only:
        try:
            re.compile(args.only)
        except re.error as e:
            ap.error("--only: not a regular expression: %s" % e)
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    if args.max_files is not None and args.max_files < 1:
        ap.error("--max-files must be at least 1")
    return args


def compiler_text(cc):
    p = run([cc, "--version"], check=False)
    return p.stdout.split("\n")[0].strip() if p.returncode == 0 else cc


def main_run(args):
    t0 = time.time()
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    tree, series, out = (os.path.abspath(p) for p in (args.tree, args.series, args.out))
    if not os.path.isdir(tree) or not os.path.exists(os.path.join(tree, "Makefile")):
        raise Fatal("no kernel tree at %s: give TREE=/path/to/linux" % tree)
    patches, owner = read_series(series)
    work_root = os.path.abspath(args.work or os.path.join(DEFAULT_WORK_PARENT,
                                                          os.path.basename(tree.rstrip("/"))))
    if (os.path.realpath(work_root) + "/").startswith(os.path.realpath(tree) + "/"):
        raise Fatal("the work folder %s is inside the tree %s, which must not be written"
                    % (work_root, tree))
    check_tools(args.configs, args.i386_compiler)
    bc = os.path.join(work_root, "buildcheck")
    try:
        os.makedirs(bc, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=bc)
        probe.close()
    except OSError as e:
        raise Fatal("cannot write into the scratch folder SERIES_WORK=%s (%s): give a "
                    "writable one, e.g. SERIES_WORK=/tmp/series-work" % (work_root,
                                                                        e.strerror or e))
    try:
        os.makedirs(out, exist_ok=True)
        remove_dead_stages(out)
        stage = tempfile.mkdtemp(prefix=".buildcheck-stage-%d-" % os.getpid(), dir=out)
    except OSError as e:
        raise Fatal("cannot write into OUT=%s (%s)" % (out, e.strerror or e))
    lock = None
    try:
        lock = lock_work(bc)
        logs = os.path.join(stage, "buildcheck-logs")
        os.makedirs(logs)
        log("the series: %d patches; work folder %s" % (len(patches), bc))
        srcs = prepare_sources(tree, work_root, bc, series, patches, args.before)
        why, via = plan_files(srcs["before"], owner, args.only, args.max_files)
        results = collections.OrderedDict()
        for name in args.configs:
            c = dict(CONFIGS[name])
            if name == "i386" and args.i386_compiler == "cross":
                c["cross"] = I386_CROSS
                c["cc"] = compiler_wrapper(bc, I386_CROSS + "gcc")
            else:
                c["cc"] = compiler_wrapper(bc, "gcc")
            c["compiler_text"] = compiler_text(c["cc"]) + (
                " -m32" if name == "i386" and args.i386_compiler == "host" else "")
            results[name] = run_config(name, c, srcs, bc, logs, why, via, args.jobs,
                                       not args.no_vmlinux_diff)
        status = ("errors" if any(r["status"] == "errors" for r in results.values()) else
                  "new warnings" if any(r["status"] == "new warnings" for r in results.values())
                  else "ok")
        doc = collections.OrderedDict([
            ("format", 1), ("tree", tree), ("series", series), ("started", started),
            ("before", args.before),
            ("seconds", int(round(time.time() - t0))), ("status", status),
            ("patches", patches), ("configs", collections.OrderedDict()),
            ("files", per_file(owner, why, via, results)),
            ("by_patch", by_patch(owner, via, results))])
        for name in CONFIGS:
            if name in results:
                r = {k: v for k, v in results[name].items() if not k.startswith("_")}
                r["seconds"] = {k: int(round(v)) for k, v in r["seconds"].items()}
                doc["configs"][name] = r
            else:
                doc["configs"][name] = {"status": "not run"}
        text = report_text(doc, why, results)
        with open(os.path.join(stage, "buildcheck.json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        with open(os.path.join(stage, "buildcheck.txt"), "w") as f:
            f.write(text)
        publish(stage, out)
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0 if status == "ok" else 1
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        if lock is not None:
            lock.close()


def _terminate(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    set_prog(PROG)
    args = parse_args(sys.argv[1:] if argv is None else argv)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        return main_run(args)
    except Fatal as e:
        log("error: %s" % e)
        return 2
    except OSError as e:
        where = " (%s)" % e.filename if e.filename else ""
        log("error: %s%s" % (e.strerror or e, where))
        return 2
    except KeyboardInterrupt:
        log("interrupted; OUT is as it was, the work folder can be reused")
        return 130
