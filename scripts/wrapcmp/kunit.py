"""wrapcmp-kunit: build and run lib/wrapcmp_kunit.c, the KUnit suite of <linux/wrapcmp.h>,
with a kernel tree's own tools/testing/kunit/kunit.py (UML).

    wrapcmp-kunit [--tree TREE] [--out OUT] [--work WORK] [--jobs N] [--timeout SECONDS]

1. WORK/tree is a scratch copy of TREE (`cp -a` on first use, about 15 s for Linux 6.1).
   It is kept between runs, with kunit.py's build folder WORK/tree/.kunit in it, so a
   later run rebuilds only what changed.  WORK/manifest.json records the size and time of
   every file of TREE as copied: a file of TREE that changed since is copied again, one
   that went away is deleted from the copy.  TREE itself is never written.
2. kernel_header.install() puts <linux/wrapcmp.h> into the copy and makes its rcupdate.h
   include it; add_to_tree() adds lib/wrapcmp_kunit.c, its Kconfig entry
   (WRAPCMP_KUNIT_TEST, next to OVERFLOW_KUNIT_TEST) and its lib/Makefile line.  With
   WRAPCMP_HEADER=path in the environment, that file is the header instead (to test a
   mutated header).  Files whose text does not change are not written, so make does not
   rebuild them.
3. `kunit.py run --jobs N --kunitconfig WORK/kunitconfig --json=OUT/kunit.json 'wrapcmp*'`
   in the copy, the .kunitconfig holding CONFIG_KUNIT=y and CONFIG_WRAPCMP_KUNIT_TEST=y.
   A first build takes about 7 minutes on 2 cores.  A header change rebuilds most of the
   kernel too, because rcupdate.h includes the header.
4. OUT/kunit.txt is kunit.py's whole output, OUT/kunit.json its parsed results.  The last
   line on stdout (also in OUT/kunit-summary.txt) counts the tests (the suite's
   KUNIT_CASE entries) and cases (each parameter of a parameterised test, or the test
   itself), passed and failed, and gives the times; failing helpers and cases are listed
   above it.

Exit status: 0 when every case passed, 1 when a case failed (or crashed), 2 on a setup
error (no tree, no kunit.py, an unreadable WRAPCMP_HEADER, a configuration or build
failure, no results), with a message and the tail of kunit.py's output where it helps.
"""
import argparse
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

from . import kernel_header
from .sources import DEFAULT_TREE, ensure_default_tree
from .util import Fatal, ROOT, log, set_prog

TEST_SOURCE = "lib/wrapcmp_kunit.c"
KCONFIG = "lib/Kconfig.debug"
MAKEFILE = "lib/Makefile"
KUNIT_PY = "tools/testing/kunit/kunit.py"
DEFAULT_WORK_PARENT = "/var/cache/wrapcmp/kunit-work"
SUITE = "wrapcmp"
KUNITCONFIG = "CONFIG_KUNIT=y\nCONFIG_WRAPCMP_KUNIT_TEST=y\n"

KCONFIG_ENTRY = """\
config WRAPCMP_KUNIT_TEST
\ttristate "Test wrap-safe counter comparisons" if !KUNIT_ALL_TESTS
\tdepends on KUNIT
\tdefault KUNIT_ALL_TESTS
\thelp
\t  Builds unit tests for the U8_CMP_*(), U16_CMP_*(), U32_CMP_*(),
\t  U64_CMP_*(), UINT_CMP_*() and ULONG_CMP_*() helpers of
\t  <linux/wrapcmp.h>, which compare free-running counters that wrap.

\t  For more information on KUnit and unit tests in general please refer
\t  to the KUnit documentation in Documentation/dev-tools/kunit/.

\t  If unsure, say N.
"""
MAKEFILE_LINE = "obj-$(CONFIG_WRAPCMP_KUNIT_TEST) += wrapcmp_kunit.o"
# The line that starts the next Kconfig entry or block ends an entry.
KCONFIG_BLOCK_START = re.compile(r"^(config|menuconfig|menu|endmenu|if|endif|choice|endchoice|"
                                 r"comment|source|mainmenu)\b")


# ------------------------------------------------------------------ the tree's files

def _read(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return f.read()


def _write_if_changed(path, text):
    """Write text to path unless it already holds exactly that; True if written."""
    if os.path.exists(path) and _read(path) == text:
        return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)
    return True


def _entry_span(lines, name):
    """(first, end) line indexes of the Kconfig entry `config NAME`: from its `config`
    line to the line before the next entry or block, trailing blank lines excluded;
    None when there is no such entry."""
    start = next((i for i, l in enumerate(lines) if l.rstrip() == "config " + name), None)
    if start is None:
        return None
    end = start + 1
    while end < len(lines) and not KCONFIG_BLOCK_START.match(lines[end]):
        end += 1
    while end > start + 1 and lines[end - 1].strip() == "":
        end -= 1
    return start, end


def kconfig_with_entry(text):
    """lib/Kconfig.debug's text with the WRAPCMP_KUNIT_TEST entry (exactly KCONFIG_ENTRY)
    after the OVERFLOW_KUNIT_TEST entry, or after the last *_KUNIT_TEST entry of a tree
    that has none; an existing entry of that name is replaced where it is."""
    lines = text.split("\n")
    entry = KCONFIG_ENTRY.rstrip("\n").split("\n")
    own = _entry_span(lines, "WRAPCMP_KUNIT_TEST")
    if own is not None:
        lines[own[0]:own[1]] = entry
        return "\n".join(lines)
    anchor = _entry_span(lines, "OVERFLOW_KUNIT_TEST")
    if anchor is None:
        others = [m.group(1) for m in (re.match(r"config (\w+_KUNIT_TEST)\s*$", l)
                                       for l in lines) if m]
        if not others:
            raise Fatal("%s has neither an OVERFLOW_KUNIT_TEST entry nor any other "
                        "*_KUNIT_TEST entry to put WRAPCMP_KUNIT_TEST next to" % KCONFIG)
        anchor = _entry_span(lines, others[-1])
    lines[anchor[1]:anchor[1]] = [""] + entry
    return "\n".join(lines)


def makefile_with_line(text):
    """lib/Makefile's text with MAKEFILE_LINE after the overflow_kunit.o line, or after
    the last obj-$(CONFIG_..._KUNIT_TEST) line of a tree that has none."""
    lines = text.split("\n")
    if MAKEFILE_LINE in (l.rstrip() for l in lines):
        return text
    at = [i for i, l in enumerate(lines)
          if re.match(r"obj-\$\(CONFIG_OVERFLOW_KUNIT_TEST\)\s*\+=", l)]
    if not at:
        at = [i for i, l in enumerate(lines) if re.match(r"obj-\$\(CONFIG_\w+_KUNIT_TEST\)", l)]
    if not at:
        raise Fatal("%s has no obj-$(CONFIG_..._KUNIT_TEST) line to put %s next to"
                    % (MAKEFILE, MAKEFILE_LINE))
    lines.insert(at[-1] + 1, MAKEFILE_LINE)
    return "\n".join(lines)


def add_to_tree(kdir):
    """Add the KUnit suite of <linux/wrapcmp.h> to the kernel tree kdir: copy this
    repository's lib/wrapcmp_kunit.c into it, add the WRAPCMP_KUNIT_TEST entry to
    lib/Kconfig.debug and its line to lib/Makefile.  Idempotent: a file that already
    holds the text is not written.  Writes nothing outside kdir.  Returns the paths it
    changed, relative to kdir, in that order."""
    changed = []
    if _write_if_changed(os.path.join(kdir, TEST_SOURCE),
                         _read(os.path.join(ROOT, TEST_SOURCE))):
        changed.append(TEST_SOURCE)
    for rel, edit in ((KCONFIG, kconfig_with_entry), (MAKEFILE, makefile_with_line)):
        path = os.path.join(kdir, rel)
        if not os.path.exists(path):
            raise Fatal("%s has no %s" % (kdir, rel))
        if _write_if_changed(path, edit(_read(path))):
            changed.append(rel)
    return changed


def install_header(kdir, header):
    """kernel_header.install(kdir), then, when header is given, that file as the tree's
    <linux/wrapcmp.h> (prepared as install() prepares the repository's).  A header whose
    text ends up as it was keeps its time stamp, so make does not rebuild its users."""
    dest = os.path.join(kdir, kernel_header.HEADER)
    before = (_read(dest), os.stat(dest)) if os.path.exists(dest) else None
    done = kernel_header.install(kdir)
    if header is not None:
        text = _read(header)
        if os.path.exists(os.path.join(kdir, kernel_header.RCU)):
            text = kernel_header.UNDEF_BLOCK.sub("", text)
        _write_if_changed(dest, text)
        done = [d for d in done if not d.startswith(kernel_header.HEADER)]
    if before is not None and _read(dest) == before[0]:
        os.utime(dest, ns=(before[1].st_atime_ns, before[1].st_mtime_ns))
        done = [d for d in done if not d.startswith(kernel_header.HEADER)]
    elif header is not None:
        done.append("%s is %s" % (kernel_header.HEADER, header))
    return done


# ------------------------------------------------------------------ the scratch copy

def _manifest(tree):
    """{relative path: [size, mtime_ns] or ["->", link target]} of every file and
    symbolic link of tree, kunit.py's .kunit build folder left out."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(tree):
        rel_dir = os.path.relpath(dirpath, tree)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d != ".kunit"]
            rel_dir = ""
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = os.path.join(dirpath, name)
            rel = os.path.join(rel_dir, name)
            st = os.lstat(path)
            if os.path.islink(path):
                out[rel] = ["->", os.readlink(path)]
            else:
                out[rel] = [st.st_size, st.st_mtime_ns]
    return out


def _copy_entry(tree, copy, rel, what):
    src, dst = os.path.join(tree, rel), os.path.join(copy, rel)
    if os.path.lexists(dst) and (os.path.islink(dst) or not os.path.isdir(dst)):
        os.unlink(dst)
    elif os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if what[0] == "->":
        os.symlink(what[1], dst)
    else:
        shutil.copy2(src, dst)


def refresh_copy(tree, work):
    """WORK/tree as a copy of tree: made on first use, brought up to date with it on
    later uses (the files that changed in tree since the manifest).  Returns the copy's
    path and a line that says what was done."""
    copy = os.path.join(work, "tree")
    manifest_path = os.path.join(work, "manifest.json")
    now = _manifest(tree)
    old = None
    if os.path.isdir(copy) and os.path.exists(manifest_path):
        try:
            with open(manifest_path) as f:
                saved = json.load(f)
            if saved.get("tree") == os.path.realpath(tree):
                old = saved["files"]
        except (ValueError, KeyError, OSError):
            old = None
    if old is None:
        if os.path.lexists(copy):
            log("the copy in %s is not a known copy of %s: deleting it (this can take "
                "a minute)" % (copy, tree))
            shutil.rmtree(copy)
        tmp = tempfile.mkdtemp(prefix=".copy-", dir=work)
        log("copying %s to %s (first use; about 15 s for Linux 6.1)" % (tree, copy))
        started = time.time()
        try:
            p = subprocess.run(["cp", "-a", "--", tree.rstrip("/") + "/.", tmp],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0:
                raise Fatal("copying %s to %s failed: %s" % (tree, work, p.stdout[-2000:]))
            shutil.rmtree(os.path.join(tmp, ".kunit"), ignore_errors=True)
            os.rename(tmp, copy)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        what = "copied %s (%.0f s)" % (tree, time.time() - started)
    else:
        changed = [rel for rel, v in now.items() if old.get(rel) != v]
        gone = [rel for rel in old if rel not in now]
        for rel in changed:
            _copy_entry(tree, copy, rel, now[rel])
        for rel in gone:
            path = os.path.join(copy, rel)
            if os.path.lexists(path) and (os.path.islink(path) or not os.path.isdir(path)):
                os.unlink(path)
        what = ("reused the copy of %s (%d files changed in it since, %d gone)"
                % (tree, len(changed), len(gone)) if changed or gone
                else "reused the copy of %s" % tree)
    tmp_manifest = manifest_path + ".tmp"
    with open(tmp_manifest, "w") as f:
        json.dump({"tree": os.path.realpath(tree), "files": now}, f)
    os.replace(tmp_manifest, manifest_path)
    return copy, what


def lock_work(work):
    """An exclusive lock on WORK for this process's lifetime (the file stays open)."""
    f = open(os.path.join(work, "lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno in (errno.EAGAIN, errno.EACCES):
            raise Fatal("another wrapcmp-kunit run is using %s; wait for it, or give "
                        "another --work (KUNIT_WORK=...)" % work)
        raise
    return f


# ------------------------------------------------------------------ results

def _leaves(group):
    for case in group.get("test_cases", []):
        yield case
    for sub in group.get("sub_groups", []):
        yield from _leaves(sub)


def _find_suite(group, name):
    if group.get("name") == name:
        return group
    for sub in group.get("sub_groups", []):
        found = _find_suite(sub, name)
        if found is not None:
            return found
    return None


def count_results(results):
    """From kunit.py's JSON: (tests, cases, failures).  tests and cases are
    {"passed": n, "failed": n, "skipped": n}; failures lists (test, failed case names,
    number of cases) for each failing test, a non-parameterised test having no case
    names.  A test fails when one of its cases failed; a crashed case counts as failed.
    None when the suite is not in the results."""
    suite = _find_suite(results, SUITE)
    if suite is None:
        return None
    tests = {"passed": 0, "failed": 0, "skipped": 0}
    cases = dict(tests)
    failures = []

    def status_of(case):
        return {"PASS": "passed", "SKIP": "skipped"}.get(case.get("status"), "failed")

    # kunit.py's JSON keeps the parameterised tests apart from the others.
    for group in suite.get("sub_groups", []):
        leaves = list(_leaves(group))
        bad = []
        for c in leaves:
            s = status_of(c)
            cases[s] += 1
            if s == "failed":
                bad.append(c.get("name", "?"))
        if bad:
            tests["failed"] += 1
            failures.append((group.get("name", "?"), bad, len(leaves)))
        elif leaves and all(status_of(c) == "skipped" for c in leaves):
            tests["skipped"] += 1
        else:
            tests["passed"] += 1
    for case in suite.get("test_cases", []):
        s = status_of(case)
        tests[s] += 1
        cases[s] += 1
        if s == "failed":
            failures.append((case.get("name", "?"), [], 1))
    return tests, cases, failures


HELPER_NAME = re.compile(r"\b((?:U8|U16|U32|U64|UINT|ULONG)_CMP_(?:LT|LE|GT|GE)(?:_WIDE)?)"
                         r"(?=[(:])")


def failing_helpers(output):
    """The helpers named in kunit.py's failure messages, in first-seen order."""
    names = []
    lines = output.split("\n")
    for i, line in enumerate(lines):
        if "EXPECTATION FAILED" not in line:
            continue
        for follow in lines[i:i + 8]:
            for name in HELPER_NAME.findall(follow):
                if name not in names:
                    names.append(name)
    return names


def elapsed_times(output):
    m = re.search(r"Elapsed time: ([\d.]+)s total, ([\d.]+)s configuring, ([\d.]+)s "
                  r"building, ([\d.]+)s running", output)
    return tuple(float(x) for x in m.groups()) if m else None


def _fmt(counts):
    text = "%d passed, %d failed" % (counts["passed"], counts["failed"])
    if counts["skipped"]:
        text += ", %d skipped" % counts["skipped"]
    return text


# ------------------------------------------------------------------ running kunit.py

def run_kunit(copy, work, out, jobs, timeout):
    """kunit.py run in the copy, its output streamed into OUT/kunit.txt.  Returns
    (exit code, output text, seconds)."""
    kunitconfig = os.path.join(work, "kunitconfig")
    _write_if_changed(kunitconfig, KUNITCONFIG)
    json_path = os.path.join(out, "kunit.json")
    if os.path.exists(json_path):
        os.unlink(json_path)
    cmd = ["/usr/bin/python3", KUNIT_PY, "run", "--jobs", str(jobs),
           "--kunitconfig", kunitconfig, "--json=" + json_path]
    if timeout:
        cmd += ["--timeout", str(timeout)]
    cmd.append(SUITE + "*")
    log("running in %s: %s" % (copy, " ".join(cmd)))
    started = time.time()
    text_path = os.path.join(out, "kunit.txt")
    progress = re.compile(r"Configuring|Building KUnit|Starting KUnit|Elapsed time|"
                          r"Testing complete|Regenerating|Generating")
    with open(text_path, "w") as txt:
        proc = subprocess.Popen(cmd, cwd=copy, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace",
                                start_new_session=True)
        try:
            for line in proc.stdout:
                txt.write(line)
                txt.flush()
                if progress.search(line):
                    log("kunit.py: " + line.rstrip())
            proc.wait()
        except BaseException:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise
    return proc.returncode, _read(text_path), time.time() - started


def tail(text, n=40):
    return "\n".join(text.rstrip("\n").split("\n")[-n:])


def run(args):
    total_start = time.time()
    tree = os.path.abspath(args.tree)
    if os.path.realpath(tree) == os.path.realpath(DEFAULT_TREE):
        ensure_default_tree(tree)
    if not os.path.isdir(tree):
        raise Fatal("no kernel tree at %s: give TREE=/path/to/linux" % tree)
    if not os.path.isfile(os.path.join(tree, KUNIT_PY)):
        raise Fatal("%s has no %s: KUnit's kunit.py came with Linux 5.5" % (tree, KUNIT_PY))
    header = os.environ.get("WRAPCMP_HEADER") or None
    if header is not None:
        header = os.path.abspath(header)
        if not os.path.isfile(header):
            raise Fatal("WRAPCMP_HEADER=%s: no such file" % header)
    work = os.path.abspath(args.work or os.path.join(
        DEFAULT_WORK_PARENT, os.path.basename(tree.rstrip("/"))))
    out = os.path.abspath(args.out)
    if os.path.realpath(work).startswith(os.path.realpath(tree) + os.sep) or \
            os.path.realpath(work) == os.path.realpath(tree):
        raise Fatal("the work folder %s is inside the tree %s, which must not be written"
                    % (work, tree))
    try:
        os.makedirs(work, exist_ok=True)
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise Fatal("cannot create %s: %s" % (e.filename, e.strerror))
    lock = lock_work(work)
    try:
        copy, what = refresh_copy(tree, work)
        log(what)
        for line in install_header(copy, header):
            log(line)
        for rel in add_to_tree(copy):
            log("%s updated in the copy" % rel)
        if header is not None:
            log("testing the header %s" % header)
        code, output, seconds = run_kunit(copy, work, out, args.jobs, args.timeout)
    finally:
        lock.close()

    json_path = os.path.join(out, "kunit.json")
    text_path = os.path.join(out, "kunit.txt")
    results = None
    if os.path.exists(json_path):
        try:
            with open(json_path) as f:
                results = json.load(f)
        except ValueError:
            results = None
    if results is None:
        if "Starting KUnit Kernel" in output:
            what = "ran the kernel but gave no results"
        elif "Building KUnit Kernel" in output:
            what = "could not build the kernel"
        else:
            what = "could not configure the kernel"
        first = next((l for l in output.split("\n") if re.search(r"\berror\b", l)), None)
        raise Fatal("kunit.py (exit %d) %s%s; the end of its output (all of it in %s):\n%s"
                    % (code, what, "; first error: " + first.strip() if first else "",
                       text_path, tail(output)))
    counted = count_results(results)
    if counted is None or sum(counted[1].values()) == 0:
        raise Fatal("kunit.py (exit %d) reported no '%s' test cases; the end of its output "
                    "(all of it in %s):\n%s" % (code, SUITE, text_path, tail(output)))
    tests, cases, failed = counted
    ok = cases["failed"] == 0
    times = elapsed_times(output)
    when = "%.0f s in all" % (time.time() - total_start)
    if times:
        when += (" (kunit.py %.1f s: configuring %.1f s, building %.1f s, running %.1f s)"
                 % times)
    else:
        when += " (kunit.py %.0f s)" % seconds
    summary = "wrapcmp-kunit: %s: %d tests: %s; %d cases: %s; %s%s" % (
        "PASS" if ok else "FAIL", sum(tests.values()), _fmt(tests),
        sum(cases.values()), _fmt(cases), when,
        "; header %s" % header if header else "")
    lines = []
    if not ok:
        helpers = failing_helpers(output)
        if helpers:
            lines.append("failing helpers: " + ", ".join(helpers))
        for name, bad, total in failed:
            if not bad:
                lines.append("failed: %s" % name)
                continue
            shown = bad[:6]
            lines.append("failed: %s, %d of %d cases: %s%s" % (
                name, len(bad), total, "; ".join(shown),
                "; and %d more" % (len(bad) - len(shown)) if len(bad) > len(shown) else ""))
        lines.append("the failure messages are in %s" % text_path)
    elif code != 0:
        lines.append("note: kunit.py exited %d although every case passed; see %s"
                     % (code, text_path))
    lines.append(summary)
    with open(os.path.join(out, "kunit-summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)
    return 0 if ok else 1


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="wrapcmp-kunit",
                                 description=" ".join(__doc__.split("\n")[:2]),
                                 epilog=__doc__.split("\n", 3)[3],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=DEFAULT_TREE,
                    help="the kernel tree, never written (default %(default)s)")
    ap.add_argument("--out", default="out", help="output folder (default %(default)s)")
    ap.add_argument("--work", default=None,
                    help="work folder for the scratch copy (default %s/NAME-OF-TREE)"
                    % DEFAULT_WORK_PARENT)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2,
                    help="make jobs (default %(default)s)")
    ap.add_argument("--timeout", type=int, default=None,
                    help="kunit.py's limit in seconds for running the tests")
    return ap.parse_args(argv)


def main(argv=None):
    set_prog("wrapcmp-kunit")
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        return run(args)
    except Fatal as e:
        log("error: %s" % e)
        return 2
    except OSError as e:
        where = " (%s)" % e.filename if e.filename else ""
        log("error: %s%s" % (e.strerror or e, where))
        return 2
    except KeyboardInterrupt:
        log("interrupted")
        return 130
