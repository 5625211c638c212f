"""wrapcmp-run: apply every cocci/*.cocci rule to a whole C tree (a Linux kernel by default).

Writes OUT/report.txt, OUT/report.json, OUT/report.sarif (SARIF 2.1.0), OUT/wrapcmp.diff
and OUT/summary.txt.

How it is fast and still complete:
  1. scripts/prefilter.c (compiled on first use into a cache folder) reads every .c/.h file
     and lets through only the files that hold a token-level candidate: a <, <=, > or >=
     next to a literal 0 whose other operand holds a '-' token, or a name assigned a
     difference and compared with 0 later.  Its header comment gives the argument why no
     file in which a rule can match is dropped; `make tree-exhaustive` (--no-prefilter)
     checks it on the whole tree.
  2. The files that pass are copied to a scratch folder under generated names: spatch
     never sees a name from the tree (spatch 1.1.1 hands names to a shell in patch mode),
     and every pass reads the same bytes.
  3. The rules are concatenated into one semantic patch (duplicate `virtual` lines removed,
     report calls tagged with the rule's name), so spatch parses each file once for every
     rule in report mode.
  4. The files are cut into shards by estimated work (size and rules; independent of
     JOBS, and no result depends on the cut), the largest first, and GNU parallel runs
     one spatch per shard, in that order: --joblog, --timeout,
     --retries 2 (one retry), --sshloginfile HOSTS.  A shard that still fails is rerun file
     by file; a file that still fails is listed in summary.txt and makes the run exit 1,
     unless --allow-parse-failures.
  5. Patch mode runs only on the files that have a finding it rewrites, each rule in
     file-name order on the result of the one before; lines spatch did not change keep
     their bytes (CRLF files too); the diff is made against the snapshot.
  6. scripts/macro-scan's scanner reports the idiom inside #define bodies (rule "macro").
  7. At the end, every finding the report calls rewritten must be in the diff and every
     hunk of the diff must belong to one, and no file of the snapshot may have changed in
     the tree; otherwise the run fails and says what differs.

Outputs are written to a temporary folder and renamed into place at the end: an error or
Ctrl-C leaves the previous OUT as it was and the tree untouched.  A lock beside OUT keeps
a second run out of it.  --apply applies the diff to the tree after a dry run, all or
nothing.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from . import outputs
from .apply import apply_diff, check_writable
from .cache import Cache, default_dir as default_cache_dir, stat_key, tree_digest
from .include_mirror import IncludeMirror
from .kernel_header import HEADER as KERNEL_HEADER_PATH, RCU as RCU_PATH, build_alone
from .includes import add_helper_include, place_kernel_includes, \
    shared_with_other_os, uses_more_helpers
from .layout import tidy as tidy_layout
from .macro_scan import sites as macro_sites
from .diffs import keep_line_ends, new_file_diff, unified_diff
from .prefilter import prefilter, prefilter_digest
from .project import ANY_HELPER_INCLUDE, KERNEL_INCLUDE, Hosted, default_header, \
    hosted_choice
from .report_pass import SPATCH_OPTS, report_pass, spatch_job
from .rules import read_rules
from .sarif import KERNEL_HEADER, write_sarif
from .series_header import rcu_callers
from .typedefs import write_table
from .sources import DEFAULT_TARBALL, DEFAULT_TREE, Snapshot, byte_order, \
    ensure_default_tree, list_sources
from .util import Beside, Fatal, ROOT, env_flag, log, set_prog
from .outputs import CONFIDENCES, confidence_of, confidence_rank, finding_key


# the rules leave #include <linux/wrapcmp.h> to the runner (includes.py), which can put it
# where spatch 1.1.1 cannot
INCLUDE_BY_RUNNER = ["-D", "noinclude"]
# how spatch should read the kernel's BPF_CALL_*() helper headers (kernel_macros.h)
KERNEL_MACROS = os.path.join(ROOT, "scripts", "wrapcmp", "kernel_macros.h")


def kernel_macro_options(hosted):
    """(spatch options, the same for the cache key) that give a kernel tree's files
    kernel_macros.h; none for a C project.  The key names the file by its content, not
    by the path of this checkout."""
    if hosted:
        return [], []
    with open(KERNEL_MACROS, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    return ["--macro-file", KERNEL_MACROS], ["--macro-file", "kernel_macros.h:" + digest]
# Folders of a kernel tree that are reported, never patched: tools/ and scripts/ are host
# programs built against tools/include or the host's headers, and the uapi headers and
# fs/xfs/libxfs/ (kept in sync with xfsprogs) are shared with userspace, and ACPICA
# (include/acpi/, drivers/acpi/acpica/) is imported from its own project, shared with other
# operating systems; none of them can include <linux/wrapcmp.h>.
KERNEL_REPORT_ONLY = ("tools scripts include/uapi arch/*/include/uapi fs/xfs/libxfs "
                      "include/acpi drivers/acpi/acpica")


def parse_args(argv):
    doc = __doc__
    ap = argparse.ArgumentParser(prog="wrapcmp-run", description=doc.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(doc.split("\n")[2:]))
    ap.add_argument("--tree", default=os.environ.get("TREE") or DEFAULT_TREE,
                    help="the C tree (default %s, unpacked from %s on first use)"
                    % (DEFAULT_TREE, DEFAULT_TARBALL))
    ap.add_argument("--out", default=os.environ.get("OUT") or "out", help="output folder")
    ap.add_argument("--paths", nargs="+", default=(os.environ.get("PATHS") or "").split() or None,
                    metavar="PATH", help="only these folders or files, relative to the tree "
                    "(make run PATHS=\"net/sctp drivers/net\"); outputs stay relative to it")
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("JOBS") or os.cpu_count()))
    ap.add_argument("--rules", default=os.path.join(ROOT, "cocci"), help="folder of .cocci")
    ap.add_argument("--apply", action="store_true", default=env_flag("APPLY"))
    ap.add_argument("--allow-parse-failures", action="store_true",
                    default=env_flag("ALLOW_PARSE_FAILURES"))
    ap.add_argument("--hosts", default=os.environ.get("HOSTS") or None,
                    help="GNU parallel --sshloginfile (the tree, this repository and the "
                    "work folder must be at the same paths on every host)")
    ap.add_argument("--confidence", default=os.environ.get("CONFIDENCE") or "low",
                    choices=CONFIDENCES,
                    help="patch only findings of at least this confidence (default low: all)")
    ap.add_argument("--report-only-dirs", default=os.environ.get("REPORT_ONLY_DIRS"),
                    help="space-separated folders that are reported, never patched, * one "
                         "name (default in a tree with a Kbuild file: '%s'; none "
                         "elsewhere)" % KERNEL_REPORT_ONLY)
    ap.add_argument("--existing", choices=("no", "yes"),
                    default=os.environ.get("EXISTING") or "no",
                    help="use the kernel's own helpers where they are exact: time_before() "
                    "and its kin on jiffies, tcp's before() (EXISTING=; make series: yes)")
    ap.add_argument("--types", choices=("off", "direct", "recursive"),
                    default=os.environ.get("TYPES") or "off",
                    help="read the types of headers for the files where the fast pass had "
                    "to leave them to the build (TYPES=): 'direct' reads the headers they "
                    "include, 'recursive' also the headers those include (default off)")
    ap.add_argument("--hosted", default=os.environ.get("HOSTED") or "",
                    choices=("", "yes", "no"),
                    help="the tree is a C project, not a kernel (HOSTED=; default: a kernel "
                    "tree is one whose top has Kbuild, Kconfig and include/linux/)")
    ap.add_argument("--header", default=os.environ.get("HEADER") or None,
                    help="in a project, where the helpers' header goes, a path in the tree "
                    "(HEADER=; default: wrapcmp.h in the -I folder most compile commands "
                    "share, else include/wrapcmp.h, else wrapcmp.h at the top)")
    ap.add_argument("--compile-commands", default=os.environ.get("COMPILE_COMMANDS") or None,
                    metavar="FILE", help="the tree's compile_commands.json (COMPILE_COMMANDS=; "
                    "default: compile_commands.json at the tree's top or in build/): in a "
                    "project, each file that has an entry is read again with its include "
                    "path, -include files and its headers' typedefs, so that operand types "
                    "from the project's headers are known")
    ap.add_argument("--cache", default=os.environ.get("CACHE") or default_cache_dir(),
                    help="the result cache (CACHE=; default %(default)s): a file whose bytes, "
                    "rules and options a run has seen is not parsed again")
    ap.add_argument("--no-cache", action="store_true", default=env_flag("NO_CACHE"),
                    help="neither read nor write the cache")
    ap.add_argument("--no-prefilter", action="store_true", help="send every file to spatch")
    ap.add_argument("--no-trim", action="store_true", default=env_flag("NO_TRIM"),
                    help="give spatch the whole files in the fast pass (NO_TRIM=1), not "
                    "copies with the function bodies that hold no site blanked")
    ap.add_argument("--shard-size", type=int, default=None,
                    help="at most this many files per spatch process (default 64, 40 "
                    "without prefilter); shards are cut by estimated work, the largest "
                    "first")
    ap.add_argument("--timeout", type=int, default=int(os.environ.get("SHARD_TIMEOUT") or 120),
                    help="seconds a shard may take, plus --timeout-per-file for each file")
    ap.add_argument("--timeout-per-file", type=int, default=60)
    ap.add_argument("--workdir", default=os.environ.get("WORKDIR") or None,
                    help="where the scratch folder goes (default: system temp)")
    ap.add_argument("--keep-work", action="store_true", help="keep the scratch folder")
    ap.add_argument("--evidence", action="store_true", default=env_flag("EVIDENCE"),
                    help="compile each file with a finding and a compile command with and "
                    "without -fwrapv, before and after the rewrite: report.json's "
                    "compiler_evidence (EVIDENCE=yes; evidence.py)")
    ap.add_argument("--evidence-commands", nargs="*", default=(os.environ.get(
        "EVIDENCE_COMMANDS") or "").split(), metavar="FILE",
                    help="more compile_commands.json for --evidence, e.g. a CC=clang build's")
    args = ap.parse_args(argv)
    if args.shard_size is None:
        args.shard_size = 40 if args.no_prefilter else 64
    if args.jobs < 1:
        ap.error("--jobs must be at least 1")
    return args


def report_only_dirs(args, tree):
    """The report-only folders, as patterns a path must start with (* is one name)."""
    if args.report_only_dirs is not None:
        dirs = args.report_only_dirs.split()
    else:
        dirs = KERNEL_REPORT_ONLY.split() if os.path.exists(os.path.join(tree, "Kbuild")) \
            else []
    return tuple(d.rstrip("/") + "/" for d in dirs)


def report_only(path, dirs):
    """The report-only folder that holds path, as the tree names it (tools/), or None."""
    for d in dirs:
        m = re.match(re.escape(d).replace(r"\*", "[^/]+"), path)
        if m:
            return m.group(0)
    return None


def left_alone(dirs, snap, kernel):
    """why(path): why the runner leaves a file's sites alone, or None: it lies in a
    report-only folder ("tools/ is reported, never patched"), or, in a kernel tree, it is
    code shared with another system (includes.shared_with_other_os)."""
    seen = {}

    def why(rel):
        if rel not in seen:
            d = report_only(rel, dirs)
            seen[rel] = "%s %s" % (d, outputs.REPORT_ONLY_NOTE) if d else \
                shared_with_other_os(snap.data(rel)) if kernel else None
        return seen[rel]
    return why


def note_report_only(findings, rules, why_left):
    """A site that its rule would rewrite but that the runner leaves alone says so in
    its message, as every other site left alone says why: "...; not rewritten: tools/ is
    reported, never patched (confidence: low)"."""
    rewriting = {r["name"] for r in rules if r["rewrites"]}
    for f in findings:
        why = why_left(f["file"]) if f["rule"] in rewriting else None
        if why and "not rewritten" not in f["message"]:
            m = outputs.CONFIDENCE_IN_MESSAGE.search(f["message"])
            at = m.start() if m else len(f["message"])
            f["message"] = "%s; not rewritten: %s%s" % (
                f["message"][:at].rstrip(), why, " " + m.group(0) if m else "")


BUILD_CHECKED = "(operand types checked at build time)"
TCP_INCLUDE = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*<net/tcp\.h>", re.M)


def includes_tcp(data):
    """True when the file's text includes <net/tcp.h>, where tcp's before() is."""
    return TCP_INCLUDE.search(data) is not None


def typed_options(tree, work, files, depth, extra, mirror_dir="inc"):
    """spatch options that read the types of headers, per file: the tree's include
    folders and the file's own folder on the include path, under generated names in the
    scratch folder (work/mirror_dir), never the tree's names (include_mirror.py)."""
    mirror = IncludeMirror(tree, os.path.join(work, mirror_dir))
    common = []
    for d in ("include", "arch/x86/include", "include/uapi", "arch/x86/include/uapi"):
        if os.path.isdir(os.path.join(tree, d)):
            common += ["-I", mirror.folder(d)]
    out = {}
    for f in files:
        out[f] = ["--include-headers", "--include-headers-for-types",
                  "--recursive-includes" if depth == "recursive" else "--all-includes",
                  "-I", mirror.folder(os.path.dirname(f))] + common + INCLUDE_BY_RUNNER + extra
    return out


def load_commands(args, tree):
    """The tree's compile commands (compile_commands.py), or None: COMPILE_COMMANDS= must
    name a file; else compile_commands.json at the tree's top or in build/ if there."""
    path = args.compile_commands
    if path:
        path = os.path.abspath(path)
        if not os.path.isfile(path):
            raise Fatal("COMPILE_COMMANDS=%s: no such file" % args.compile_commands)
    elif not any(os.path.isfile(os.path.join(tree, d, "compile_commands.json"))
                 for d in ("", "build")):
        return None
    from .compile_commands import CompileCommands, find_default
    path = path or find_default(tree)
    cc = CompileCommands.load(path, tree)
    cc.path = path
    log("compile commands: %s: %d file(s) of the tree, %d entr%s outside it ignored"
        % (path, len(cc.files()), cc.outside, "y" if cc.outside == 1 else "ies"))
    return cc


def commands_summary(commands, cand, used):
    """summary.txt's lines on the compile commands."""
    lines = ["%s" % commands.path,
             "%d file(s) of the tree have one; %d of the %d files passed to spatch, read "
             "with their flags" % (len(commands.files()), len(used), len(cand)),
             "entries outside the tree, ignored: %d" % commands.outside,
             "entries for a file named before, ignored: %d" % commands.repeated]
    for f, why in commands.skipped:
        lines.append("ignored: %s: %s" % (f, why))
    return lines


def project_setup(args, tree, commands):
    """Hosted() for a project, None for a kernel tree (project.py)."""
    if not hosted_choice(args.hosted, tree):
        if args.header:
            raise Fatal("HEADER= is for a project; %s is a kernel tree (HOSTED=yes if it "
                        "is not)" % args.tree)
        return None
    if args.existing == "yes":
        raise Fatal("EXISTING=yes uses the kernel's own helpers (time_before(), before()), "
                    "which a project does not have")
    if args.header:
        header, why = args.header, "HEADER="
    else:
        header, why = default_header(tree, commands)
    hosted = Hosted(tree, header, why, commands)
    log("a C project, not a kernel tree: the helpers go to %s (%s; HEADER= to change), "
        "%s" % (hosted.header, why, "already in the tree" if hosted.present else
                "added by the patch"))
    return hosted


def command_options(commands, work, tree, files, extra):
    """spatch options of the files that have a compile command: their include folders
    and -include files under generated names (include_mirror.py), with the headers read
    for types as TYPES=direct reads them (compile_commands.py says what is left out)."""
    mirror = IncludeMirror(tree, os.path.join(work, "cc-inc"))
    return {rel: ["--include-headers"] + commands.spatch_options(rel, mirror.path) +
            INCLUDE_BY_RUNNER + extra for rel in files}


def cached_prefilter(args, tree, files, cache, headers_read=False):
    """The prefilter's verdicts, taken from the cache for the files whose size, times and
    inode are those the last run of this tree saw (cache.py)."""
    salt = prefilter_digest() + ("-t" if headers_read else "")
    old = cache.tree_stats(tree, salt)
    known, todo, stats = {}, [], {}
    for rel in files:
        try:
            stats[rel] = stat_key(os.path.join(tree, rel))
        except OSError:
            todo.append(rel)
            continue
        e = old.get(rel)
        if e and e[:4] == stats[rel]:
            known[rel] = e[4]
        else:
            todo.append(rel)
    new = prefilter(tree, todo, args.jobs, headers_read) if todo else {}
    kinds = {rel: known[rel] for rel in files if known.get(rel)}
    kinds.update(new)
    cache.put_tree_stats(tree, salt, {rel: st + [kinds.get(rel, "")]
                                      for rel, st in stats.items()})
    return {rel: kinds[rel] for rel in files if rel in kinds}


MACRO_SCAN_CODE = os.path.join(ROOT, "scripts", "wrapcmp", "macro_scan.py")


def cached_macro_sites(cache, data):
    """macro_scan.sites() of a file's bytes, through the cache (keyed by the scanner's
    own code too)."""
    if not cache.dir:
        return macro_sites(data.decode("latin-1"))
    if not hasattr(cached_macro_sites, "code"):
        with open(MACRO_SCAN_CODE, "rb") as f:
            cached_macro_sites.code = f.read().decode("latin-1")
    key = cache.key(data, False, "macro-scan\0" + cached_macro_sites.code, [])
    hit = cache.get(key)
    if hit is not None:
        return [tuple(x) for x in hit]
    sites = macro_sites(data.decode("latin-1"))
    cache.put(key, [list(x) for x in sites])
    return sites


def macro_scan(cache_dir, snap, cand):
    """{file: cached_macro_sites()} of every snapshot file in cand, with a cache object of
    its own (run in a thread of its own, so that the report pass's counts stay its own)."""
    cache = Cache(cache_dir)
    return {rel: cached_macro_sites(cache, snap.data(rel)) for rel in cand if rel in snap.ids}


def rewritten_findings(args, findings, rules, why_left, failed):
    """The findings the patch pass must rewrite: a rule that rewrites, a message that does
    not say "not rewritten" (every rule says so in the others), the patch confidence,
    in a file that the runner does not leave alone (left_alone) and that did not fail."""
    rewriting = {r["name"] for r in rules if r["rewrites"]}
    conf = {r["name"]: r["confidence"] for r in rules}
    return [f for f in findings
            if f["rule"] in rewriting and "not rewritten" not in f["message"] and
            confidence_rank(confidence_of(f, conf)) >= confidence_rank(args.confidence) and
            not why_left(f["file"]) and f["file"] not in failed]


def run(args):
    t0 = time.time()
    for tool in ("spatch", "parallel", "diff", "patch"):
        if shutil.which(tool) is None:
            raise Fatal("%s not found: run 'make install-deps'" % tool)
    tree_label = args.tree
    if os.path.abspath(args.tree) == DEFAULT_TREE:
        ensure_default_tree(DEFAULT_TREE)
        tree_label = "linux-source-6.1 (default)"
    tree = os.path.abspath(args.tree)
    if not os.path.exists(tree):
        raise Fatal("tree %s does not exist" % args.tree)
    if not os.path.isdir(tree):
        raise Fatal("tree %s is not a folder" % args.tree)
    if args.apply:
        check_writable(tree)
    out = os.path.abspath(args.out)
    if args.workdir is not None and not os.path.isdir(args.workdir):
        raise Fatal("the scratch folder %s (--workdir or WORKDIR=) is not a folder"
                    % args.workdir)
    rules = read_rules(args.rules)
    commands = load_commands(args, tree)
    hosted = project_setup(args, tree, commands)
    files = list_sources(tree, args.paths)
    if not files:
        raise Fatal("%s has no .c or .h files: not a C tree" % (
            "PATHS=%s in %s" % (" ".join(args.paths), args.tree) if args.paths else
            "tree %s" % args.tree))
    log("%d .c/.h files in %s; rules: %s" % (len(files), args.tree,
                                              " ".join(r["name"] for r in rules)))
    try:
        os.makedirs(os.path.dirname(out), exist_ok=True)
    except OSError as e:
        raise Fatal("cannot create the folder of OUT=%s: %s" % (args.out, e.strerror or e))
    with outputs.OutLock(out):
        work = tempfile.mkdtemp(prefix="wrapcmp-work-", dir=args.workdir)
        stage = None
        try:
            stage = tempfile.mkdtemp(prefix=".%s.tmp-" % os.path.basename(out),
                                     dir=os.path.dirname(out))
            run_in(args, tree, tree_label, files, rules, work, stage, out, t0,
                   hosted, commands)
            stage = None
        finally:
            if stage:
                shutil.rmtree(stage, ignore_errors=True)
            if args.keep_work:
                log("scratch folder kept: %s" % work)
            else:
                shutil.rmtree(work, ignore_errors=True)


def run_in(args, tree, tree_label, files, rules, work, stage, out, t0, hosted=None,
           commands=None):
    phases = []
    t = time.time()
    cache = Cache(None if args.no_cache else args.cache)
    if args.no_prefilter:
        kinds = {f: None for f in files}
    else:
        # a project's compile commands give the headers of its files to the rules
        kinds = cached_prefilter(args, tree, files, cache,
                                 hosted is not None and commands is not None)
        log("prefilter: %d of %d files may hold a site (%.1f s)"
            % (len(kinds), len(files), time.time() - t))
    cand = list(kinds)
    snap = Snapshot(tree, os.path.join(work, "src"), cand)
    phases.append(("prefilter", time.time() - t))
    # the #define scan reads only the snapshot: it runs beside spatch, on the CPU that
    # the last shards leave idle, and the run waits for what is left of it at the end
    macro = Beside(lambda: macro_scan(None if args.no_cache else args.cache, snap, cand))
    # so does the grep of the tree for rcupdate.h's callers, which build_alone() needs
    # when the diff is to build alone (about 2 s after spatch, now at nice 19 beside it)
    rcu = Beside(lambda: rcu_callers(tree, idle=True)) \
        if not hosted and os.path.isfile(os.path.join(tree, RCU_PATH)) and \
        not os.path.exists(os.path.join(tree, KERNEL_HEADER_PATH)) else None
    t = time.time()
    me = os.path.join(ROOT, "scripts", "wrapcmp-run")
    # one parse a file reports and patches; the rules patch only at the patch confidence
    patch = ["-D", "confidence=" + args.confidence]
    # -D hosted: the rules resolve a project's typedef names (the include is the runner's)
    rule_flags = (["-D", "existing=yes"] if args.existing == "yes" else []) + \
        (["-D", "hosted"] if hosted else [])
    macros, macros_key = kernel_macro_options(hosted)
    fast = SPATCH_OPTS + INCLUDE_BY_RUNNER + rule_flags
    findings, parse_errors, failures, _, results = report_pass(
        args, work, snap, kinds, rules, me, lambda f: fast + macros, patch=patch,
        cache=cache if cache.dir else None, key_of=lambda f: fast + macros_key,
        trim=not args.no_trim)
    if cache.dir:
        log("cache: %d file(s) known, %d parsed%s" % (
            cache.hits, cache.misses, " (%d corrupt or foreign entries ignored)" % cache.bad
            if cache.bad else ""))
    failures.update(snap.unreadable)
    phases.append(("spatch", time.time() - t))

    def again(files, opts, name, what, cache=None, key_of=None):
        """Run files again with opts[file]; a file that fails keeps the fast pass's
        findings.  The findings, patched texts and parse errors of the others replace
        the fast pass's."""
        nonlocal findings, results, parse_errors
        tf, tpe, tfail, _, tres = report_pass(
            args, work, snap, {f: kinds[f] for f in files}, rules, me, lambda f: opts[f],
            name=name, patch=patch, cache=cache, key_of=key_of)
        for f in sorted(tfail, key=byte_order):		# keep the fast pass's findings there
            log("%s failed on %s (%s): its findings are the fast pass's" % (what, f, tfail[f]))
            del opts[f]
        findings = [f for f in findings if f["file"] not in opts] + \
            [f for f in tf if f["file"] in opts]
        results = {f: r for f, r in results.items() if f not in opts}
        results.update({f: r for f, r in tres.items() if f in opts})
        parse_errors = (parse_errors - set(opts)) | {f for f in tpe if f in opts}
    # a project's files with a compile command: read again with its flags, so that the
    # types of the project's headers are known (the kernel: only in the typed pass)
    with_commands = [f for f in cand if commands is not None and hosted is not None and
                     f in snap.ids and f not in failures and commands.entry(f)]
    if with_commands:
        t = time.time()
        # the typedefs of the headers each file includes, for the rules (typedefs.py)
        table = os.path.join(work, "typedefs.json")
        write_table(table, tree, commands, with_commands, lambda rel: snap.ids[rel])
        os.environ["WRAPCMP_TYPEDEFS"] = table
        try:
            again(with_commands, command_options(commands, work, tree, with_commands,
                                                 rule_flags),
                  "commands", "the compile-command pass")
        finally:
            del os.environ["WRAPCMP_TYPEDEFS"]
        phases.append(("compile-command pass (%d files)" % len(with_commands),
                       time.time() - t))
    if args.types != "off":
        t = time.time()
        unknown = sorted({f["file"] for f in findings if BUILD_CHECKED in f["message"]} -
                         set(failures) - set(with_commands), key=byte_order)
        opts = typed_options(tree, work, unknown, args.types, rule_flags + macros)
        if commands is not None:
            opts.update(command_options(commands, work, tree,
                                        [f for f in unknown if commands.entry(f)], rule_flags))
        # cached as the fast pass is, with the state of every .c and .h file of the tree
        # for the headers it reads, and words for the scratch paths of its options
        # (not for files with a compile command, whose flags would have to be in it)
        typed_cache, key_of = None, None
        if cache.dir and unknown and not (commands is not None and
                                          any(commands.entry(f) for f in unknown)):
            state = tree_digest(tree, list_sources(tree))
            typed_cache = cache
            hits = cache.hits

            def key_of(rel, depth=args.types):
                return ["typed", depth, os.path.dirname(rel), state] + rule_flags + \
                    macros_key
        again(unknown, opts, "typed", "typed pass", typed_cache, key_of)
        if typed_cache:
            log("typed pass: %d of %d file(s) known to the cache"
                % (cache.hits - hits, len(unknown)))
        phases.append(("typed pass (%s, %d files)" % (args.types, len(unknown)), time.time() - t))
        # tcp's before() is exact only for operands of known type; the fields it compares
        # (tp->rx_opt.rcv_tsval) are declared in <linux/tcp.h>, which <net/tcp.h> includes:
        # such files read the headers' own includes too, so that before() can be used in
        # every file that has it (10 to 13 s for tcp_input.c and tcp_minisocks.c on 2 cores)
        deeper = []
        if args.types == "direct" and args.existing == "yes":
            deeper = sorted({f["file"] for f in findings if BUILD_CHECKED in f["message"] and
                             f["file"] in opts and includes_tcp(snap.data(f["file"]))},
                            key=byte_order)
        if deeper:
            t = time.time()
            deep_opts = typed_options(tree, work, deeper, "recursive", rule_flags + macros,
                                      "inc-tcp")
            again(deeper, deep_opts, "typed-tcp", "typed pass (recursive, for tcp's before())",
                  typed_cache, key_of and (lambda rel: key_of(rel, "recursive")))
            phases.append(("typed pass (recursive, %d files with <net/tcp.h>)" % len(deeper),
                           time.time() - t))
    t = time.time()
    never = report_only_dirs(args, tree)
    why_left = left_alone(never, snap, not hosted)
    rewritten = rewritten_findings(args, findings, rules, why_left, failures)
    note_report_only(findings, rules, why_left)
    new = {}

    def include_of(rel):
        return hosted.include_line(rel) if hosted else KERNEL_INCLUDE
    needs = []
    for rel in sorted({f["file"] for f in rewritten}, key=byte_order):
        orig = snap.data(rel)
        res = tidy_layout(orig, keep_line_ends(orig, results.get(rel, orig)))
        if uses_more_helpers(orig, res):
            needs.append(rel)
            if hosted:
                res = add_helper_include(res, include_of(rel), ANY_HELPER_INCLUDE)[0]
        if res != orig:
            new[rel] = res

    def original(rel):
        if not snap.add(rel):
            raise Fatal("cannot read %s: %s" % (rel, snap.unreadable[rel]))
        return snap.data(rel)
    if not hosted:
        place_kernel_includes(tree, new, needs, original)
    header_diff = {}
    if hosted and new and not hosted.present:
        header_diff[hosted.header] = new_file_diff(work, hosted.header, hosted.text)
    support = {}
    if not hosted and new:
        # the diff builds applied alone: the header, rcupdate.h and its int callers
        support = build_alone(tree, new, original, rcu and rcu.result)
        for rel, data in support.items():
            if rel == KERNEL_HEADER_PATH:
                header_diff[rel] = new_file_diff(work, rel, data)
            else:
                new[rel] = data
    order = sorted(new, key=byte_order)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:	# one diff process each
        diffs = dict(zip(order, pool.map(lambda rel: unified_diff(work, snap, rel, new[rel]),
                                         order)))
    diffs.update(header_diff)
    header_diff.update((rel, diffs[rel]) for rel in support if rel in diffs)
    order = sorted(diffs, key=byte_order)
    diff = b"".join(diffs[rel] for rel in order)
    phases.append(("diff", time.time() - t))
    t = time.time()
    # spatch also matches #define bodies that are expressions: keep its finding there
    seen = {(f["file"], f["line"]) for f in findings}
    sites = macro.result()
    for rel in cand:
        for line, col, message in sites.get(rel, ()):
            if (rel, line) not in seen:
                if hosted:
                    message = message.replace("<linux/wrapcmp.h>", '"%s"' % hosted.header)
                findings.append({"rule": "macro", "file": rel, "line": line, "col": col,
                                 "line_end": None, "col_end": None, "message": message})
    phases.append(("macro scan (left after spatch)", time.time() - t))
    changed = snap.changed()
    if changed:
        raise Fatal("%d file(s) changed in the tree while the run read them, so the results "
                    "would not match the tree: %s%s. No output was written; run again when "
                    "the tree is still" % (len(changed), ", ".join(changed[:5]),
                                           " ..." if len(changed) > 5 else ""))
    problems = outputs.consistency(rewritten, diffs, include_of, header_diff)
    if problems:
        raise Fatal("the report and wrapcmp.diff disagree (no output was written):\n  %s"
                    % "\n  ".join(problems[:20]))
    texts = {}

    def text_of(rel):
        if rel not in texts:
            texts[rel] = snap.data(rel).decode("utf-8", "replace").split("\n") \
                if rel in snap.ids else []
        return texts[rel]
    stats = {"tree_label": tree_label, "scanned": len(files), "to_spatch": len(cand),
             "failures": failures, "parse_errors": parse_errors, "t0": t0,
             "patched": len(diffs) - len(header_diff), "phases": phases, "report_only": never,
             "no_prefilter": args.no_prefilter, "confidence": args.confidence,
             "paths": args.paths, "existing": args.existing,
             "hosted": hosted and "%s (%s), %s" % (
                 hosted.header, hosted.why, "already in the tree" if hosted.present else
                 "added by wrapcmp.diff" if header_diff else "not needed: nothing patched"),
             "commands": commands and commands_summary(commands, cand, with_commands),
             "jobs": ("hosts file " + args.hosts) if args.hosts else args.jobs}
    evidence = None
    if args.evidence:		# issue 19: evidence.py
        from .evidence import run_evidence
        evidence = run_evidence(args, tree, work, commands, findings, rewritten, snap, new,
                                hosted, phases)
    outputs.write_outputs(stage, findings, rules, diff, stats, text_of,
                          {finding_key(f) for f in rewritten}, evidence)
    with open(os.path.join(stage, "report.json"), encoding="utf-8",
              errors="surrogateescape") as fh:
        write_sarif(os.path.join(stage, "report.sarif"), json.load(fh), rules,
                    {rel: d for rel, d in diffs.items() if rel not in header_diff},
                    tree_label, source=lambda rel: snap.data(rel) if rel in snap.ids else b"",
                    header=hosted.header if hosted else KERNEL_HEADER)
    if failures and not args.allow_parse_failures:
        # keep the outputs, but make the failure loud
        outputs.install_outputs(stage, out)
        raise Fatal("%d file(s) failed in spatch even alone; they are listed in %s. "
                    "ALLOW_PARSE_FAILURES=1 accepts this"
                    % (len(failures), os.path.join(args.out, "summary.txt")))
    if args.apply and diff:
        apply_diff(tree, os.path.join(stage, "wrapcmp.diff"), sorted(diffs, key=byte_order))
        log("applied the patch to %d file(s) of %s" % (len(diffs), args.tree))
    outputs.install_outputs(stage, out)
    log("%d findings, %d files patched%s; outputs in %s (%.1f s)"
        % (len({finding_key(f) for f in findings}), len(diffs) - len(header_diff),
           "".join(", %s %s" % (h, "changed" if h in support and h != KERNEL_HEADER_PATH
                                else "added") for h in header_diff), args.out, time.time() - t0))


def on_signal(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    set_prog("wrapcmp-run")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--spatch-job"]:
        return spatch_job(argv[1:])
    signal.signal(signal.SIGTERM, on_signal)
    try:
        run(parse_args(argv))
    except Fatal as e:
        log("error: %s" % e)
        return 2
    except OSError as e:
        where = " (%s)" % e.filename if e.filename else ""
        log("error: %s%s; no new output was written and the tree was not changed"
            % (e.strerror or e, where))
        return 2
    except KeyboardInterrupt:
        log("interrupted: no new output was written and the tree was not changed")
        return 130
    return 0
