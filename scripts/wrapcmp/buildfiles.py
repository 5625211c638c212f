"""The files series-buildcheck reads (scripts/wrapcmp/buildcheck.py runs the builds):
the series and the files it touches, the two git copies of the tree (the one before with its
line numbers aligned to the series), which files a configuration's Makefiles build, the
compiler's and objtool's messages, and the object code of two builds of one file.

Object code (the end of this module):

  text_size(path)
      The bytes of executable code in an ELF file (relocatable object or linked image): the
      sum of the sizes of its sections flagged SHF_ALLOC and SHF_EXECINSTR (.text,
      .init.text, .exit.text, .text.unlikely, .noinstr.text, .altinstr_replacement ...),
      read from the section headers.  32- and 64-bit ELF, either byte order.  Data
      (.rodata, .data, .bss) is not counted.

  functions(path)
      `objdump -d -r -w --no-show-raw-insn PATH`, cut into functions: {(section, symbol):
      [normalised instruction, ...]}.  A symbol that occurs twice in one section gets '#2'.
      Each instruction line is normalised so that code that only moved compares equal:
        - the address column is dropped, blanks are collapsed;
        - a branch or call target 'ADDR <sym+0xOFF>' becomes '<.>' when sym is the function
          itself and '<sym>' otherwise (offsets into other functions move with them);
        - a '# ADDR <sym>' comment (RIP-relative operands) is replaced by '<sym>', and the
          displacement before '(%rip)' is dropped;
        - a relocation of the instruction (objdump -w shows it on the same line) is
          appended as 'reloc TYPE sym+addend'; the addend is dropped when sym is a section
          ('.rodata.str1.1+0x3c'), since it moves whenever anything before it in that
          section changes;
        - immediates that are kernel addresses (0xffffffff8xxxxxxx in a linked image)
          become 'ADDR'.
      Trailing padding (nop, nopw, nopl, xchg %ax,%ax and their prefixed forms after the
      last real instruction) is not part of a function, and objdump's '...' lines for zero
      runs are skipped.

  compare(before, after)
      {"text_before", "text_after", "insns_before", "insns_after", "insns_differ"}.
      insns_differ counts, function by function, the instruction lines of a line diff
      (difflib.SequenceMatcher, no junk heuristic) of the normalised lists: a block of k
      lines replaced by m lines counts max(k, m), an inserted or deleted block its length;
      a function present on one side only counts all its instructions.  So one instruction
      changed in place is 1, not 2, and 0 means the normalised code is identical.
"""
import collections
import difflib
import json
import os
import re
import shutil
import struct
import subprocess

from .util import Fatal, log

HEADER = "include/linux/wrapcmp.h"


def run(cmd, cwd=None, env=None, check=True, what=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    if check and p.returncode != 0:
        raise Fatal("%s failed (exit %d): %s\n%s" % (what or cmd[0], p.returncode,
                                                    " ".join(cmd), p.stdout[-3000:]))
    return p


def write_if_changed(path, text, mode=None):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    if mode:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


# ------------------------------------------------------------------ the series

def read_series(series):
    """(patch file names in order, {touched path: patch name})."""
    if not os.path.isdir(series):
        raise Fatal("no series folder %s: run `make series OUT=...` first" % series)
    if not os.path.exists(os.path.join(series, "0000-cover-letter.patch")):
        raise Fatal("%s has no 0000-cover-letter.patch: not a series made by `make series`"
                    % series)
    patches, owner = [], {}
    for name in sorted(os.listdir(series)):
        if not re.match(r"^\d{4}-.*\.patch$", name) or name.startswith("0000-"):
            continue
        patches.append(name)
        with open(os.path.join(series, name), errors="replace") as f:
            for line in f:
                m = re.match(r"^\+\+\+ b/(\S+)", line)
                if m:
                    owner.setdefault(m.group(1), name)
    if not patches:
        raise Fatal("%s holds a cover letter but no patches" % series)
    if not owner:
        raise Fatal("the patches in %s change no file" % series)
    return patches, owner


# ------------------------------------------------------------------ the two source trees

def clear_stale_git_locks(repo):
    """A git killed by Ctrl-C leaves its lock files; WORK/buildcheck is locked by this run,
    so no other git works in these copies."""
    for dirpath, _, files in os.walk(os.path.join(repo, ".git")):
        if "/objects" in dirpath:
            continue
        for f in files:
            if f.endswith(".lock"):
                try:
                    os.unlink(os.path.join(dirpath, f))
                except OSError:
                    pass


def check_git_copy(tree, gtree):
    if not os.path.isdir(os.path.join(gtree, ".git")) or run(
            ["git", "rev-parse", "-q", "--verify", "wrapcmp-pristine^{commit}"], cwd=gtree,
            check=False).returncode != 0:
        raise Fatal("no git copy of the tree in %s: run `make series` (with the same "
                    "SERIES_WORK) first" % gtree)
    subject = run(["git", "log", "-1", "--format=%s", "wrapcmp-pristine"], cwd=gtree).stdout
    m = re.match(r"^pristine (\S+) ", subject)
    if m and os.path.realpath(m.group(1)) != os.path.realpath(tree):
        raise Fatal("the git copy %s was made from %s, not from %s: give the SERIES_WORK "
                    "of this tree, or run `make series TREE=%s` first"
                    % (gtree, m.group(1), tree, tree))


def clone(gtree, dest):
    if os.path.isdir(os.path.join(dest, ".git")):
        clear_stale_git_locks(dest)
        return
    if os.path.lexists(dest):
        log("removing the incomplete copy %s" % dest)
        shutil.rmtree(dest)
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    log("cloning %s to %s" % (gtree, dest))
    run(["git", "clone", "-q", "--local", "--no-checkout", gtree, tmp])
    run(["git", "config", "gc.auto", "0"], cwd=tmp)
    os.rename(tmp, dest)


def checkout(src, commit):
    """Check commit out in src.  git rewrites only the files that differ, so make
    rebuilds only what they affect."""
    run(["git", "checkout", "-q", "-f", "--detach", commit], cwd=src)
    run(["git", "clean", "-q", "-f", "-d", "-x"], cwd=src)


def git_env(index):
    """A temporary index and a fixed identity and date, so that the same trees give the
    same commits in every copy and run."""
    return dict(os.environ, GIT_INDEX_FILE=index, GIT_AUTHOR_NAME="wrapcmp",
                GIT_AUTHOR_EMAIL="wrapcmp@localhost", GIT_COMMITTER_NAME="wrapcmp",
                GIT_COMMITTER_EMAIL="wrapcmp@localhost",
                GIT_AUTHOR_DATE="2000-01-01T00:00:00Z",
                GIT_COMMITTER_DATE="2000-01-01T00:00:00Z")


def series_commit(src, series, patches):
    """A commit of the pristine tree with every patch applied, made without touching the
    working tree (a temporary index)."""
    index = os.path.join(src, ".git", "wrapcmp-index")
    env = git_env(index)
    try:
        run(["git", "read-tree", "origin/pristine"], cwd=src, env=env)
        for name in patches:
            p = run(["git", "apply", "--cached", "-p1", os.path.join(series, name)], cwd=src,
                    env=env, check=False)
            if p.returncode != 0:
                raise Fatal("%s does not apply to the pristine tree of the git copy: %s; "
                            "make the series again (make series)" % (name, p.stdout.strip()))
        tree = run(["git", "write-tree"], cwd=src, env=env).stdout.strip()
    finally:
        if os.path.exists(index):
            os.unlink(index)
    commit = run(["git", "commit-tree", tree, "-p", "origin/pristine", "-m",
                  "wrapcmp series, %d patches" % len(patches)], cwd=src, env=env).stdout.strip()
    return commit


def parse_u0(diff):
    """{path: [(old start, old count, new start, new count)]} of `git diff -U0`."""
    out, path = {}, None
    for line in diff.split("\n"):
        if line.startswith("+++ "):
            path = line[6:] if line.startswith("+++ b/") else None
        elif line.startswith("@@ ") and path is not None:
            m = re.match(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
            a, b, c, d = m.groups()
            out.setdefault(path, []).append((int(a), 1 if b is None else int(b),
                                             int(c), 1 if d is None else int(d)))
    return out


def aligned_text(old, hunks):
    """old (bytes) with its line numbers made those of the patched file: after each change
    of `git diff -U0` hunks, blank lines where the patch added lines (a lone backslash
    inside a macro that continues), or `#line N` where it removed lines (after the end of a
    macro that continues).  The code is old's; only __LINE__ and the line numbers of
    messages change."""
    lines = old.split(b"\n")
    inserts = collections.defaultdict(list)
    shift = 0
    for a, b, c, d in hunks:
        old_next = a + b if b else a + 1
        new_next = c + d if d else c + 1
        k = new_next - old_next - shift
        if k == 0:
            continue
        at = old_next - 1                  # index of the line to insert before

        def continued(i):
            return i >= 1 and i - 1 < len(lines) and lines[i - 1].rstrip(b"\r").endswith(b"\\")
        if k > 0:
            inserts[at].extend([b"\\" if continued(at) else b""] * k)
            shift += k
        else:
            while continued(at) and at < len(lines):
                at += 1
            inserts[at].append(b"#line %d" % (at + 1 + new_next - old_next))
            shift = new_next - old_next
    out = []
    for i, line in enumerate(lines):
        out.extend(inserts.get(i, ()))
        out.append(line)
    for i in sorted(k for k in inserts if k >= len(lines)):
        out.extend(inserts[i])
    return b"\n".join(out)


def aligned_commit(src, series_c):
    """A commit of the pristine tree in which every file the series changes has the line
    numbers it has after the series (aligned_text); made with a temporary index."""
    diff = run(["git", "diff", "-U0", "--no-color", "--no-renames", "--no-ext-diff",
                "origin/pristine", series_c], cwd=src).stdout
    index = os.path.join(src, ".git", "wrapcmp-index")
    env = git_env(index)
    try:
        run(["git", "read-tree", "origin/pristine"], cwd=src, env=env)
        for path, hunks in sorted(parse_u0(diff).items()):
            p = subprocess.run(["git", "cat-file", "blob", "origin/pristine:" + path], cwd=src,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            if p.returncode != 0:
                continue                   # a new file: not in the tree before
            new = aligned_text(p.stdout, hunks)
            h = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=src, input=new,
                               stdout=subprocess.PIPE, check=True).stdout.decode().strip()
            mode = run(["git", "ls-files", "-s", "--", path], cwd=src, env=env).stdout.split()[0]
            run(["git", "update-index", "--cacheinfo", "%s,%s,%s" % (mode, h, path)], cwd=src,
                env=env)
        tree = run(["git", "write-tree"], cwd=src, env=env).stdout.strip()
    finally:
        if os.path.exists(index):
            os.unlink(index)
    return run(["git", "commit-tree", tree, "-p", "origin/pristine", "-m",
                "pristine, line numbers aligned to the wrapcmp series"], cwd=src,
               env=env).stdout.strip()


def prepare_sources(tree, work_root, bc, series, patches, before):
    """src-before at the pristine commit (before == "pristine") or at the aligned one;
    src-after at the series commit."""
    gtree = os.path.join(work_root, "tree")
    check_git_copy(tree, gtree)
    srcs = {}
    for side in ("before", "after"):
        src = os.path.join(bc, "src-" + side)
        clone(gtree, src)
        run(["git", "fetch", "-q", "origin", "+wrapcmp-pristine:refs/remotes/origin/pristine"],
            cwd=src)
        commit = series_commit(src, series, patches)
        if side == "before":
            commit = "origin/pristine" if before == "pristine" else aligned_commit(src, commit)
        checkout(src, commit)
        srcs[side] = src
    return srcs


# ------------------------------------------------------------------ configuration membership

def read_config(path):
    cfg = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"^(CONFIG_\w+)=(.*)$", line)
            if m:
                cfg[m.group(1)] = m.group(2)
    return cfg


def makefile_lines(d):
    for name in ("Kbuild", "Makefile"):
        p = os.path.join(d, name)
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                return f.read().replace("\\\n", " ").splitlines()
    return []


def cond_ok(var, cfg):
    """obj-y, obj-m, foo-y, foo-objs: on; obj-$(CONFIG_X): X is y or m."""
    m = re.search(r"-\$\((CONFIG_\w+)\)$", var)
    if m:
        return cfg.get(m.group(1)) in ("y", "m")
    return re.search(r"-(y|m|objs)$", var) is not None or var in ("obj-y", "obj-m")


def selected(src, rel, cfg, depth=0):
    """True, False or None (could not tell) for object or directory rel ('a/b/c.o', 'a/b/')
    in the configuration cfg, from the Makefiles (x86 is the only architecture here)."""
    if depth > 12:
        return None
    parts = rel.rstrip("/").split("/")
    if parts[0] == "arch" and len(parts) > 1 and parts[1] != "x86":
        return False
    if parts[0] in ("tools", "samples", "Documentation", "scripts"):
        return False                     # not built by Kbuild as kernel objects
    if len(parts) == 1:
        return True                      # top-level directory
    d, name = "/".join(parts[:-1]), parts[-1] + ("/" if rel.endswith("/") else "")
    lines = makefile_lines(os.path.join(src, d))
    if not lines:
        return None
    found = None
    for line in lines:
        m = re.match(r"^\s*([\w$()-]+)\s*[:+]?=\s*(.*)$", line)
        if not m or not re.search(r"(^|\s|/)%s(\s|$)" % re.escape(name), " " + m.group(2) + " "):
            continue
        var = m.group(1)
        if not re.match(r"^[\w-]+-(y|m|objs|\$\(CONFIG_\w+\))$", var):
            return found
        if not cond_ok(var, cfg):
            found = found or False
            continue
        base = re.sub(r"-(y|m|objs|\$\(CONFIG_\w+\))$", "", var)
        if base in ("obj", "subdir"):
            up = selected(src, d + "/", cfg, depth + 1)
            if up is not False:
                return True if up else None
            found = False
        elif base in ("lib", "core", "head", "extra", "always", "hostprogs", "userprogs",
                      "targets"):
            return selected(src, d + "/", cfg, depth + 1) if base != "hostprogs" else False
        else:
            r = selected(src, d + "/" + base + ".o", cfg, depth + 1)
            if r:
                return True
            found = found if r is False and found is not None else (r if found is None else found)
    return found


# ------------------------------------------------------------------ the files to build

def ere(text):
    return re.sub(r"([.\[\]()*+?{}|^$\\])", r"\\\1", text)


def include_index(src, paths):
    """{path: sorted .c files that #include <path>} for the paths under include/, in one
    pass of grep over the tree."""
    names = sorted({p[len("include/"):] for p in paths if p.startswith("include/")})
    index = {"include/" + n: set() for n in names}
    if not names:
        return {}
    pat = r"^[[:space:]]*#[[:space:]]*include[[:space:]]*<(%s)>" % "|".join(map(ere, names))
    p = subprocess.run(["grep", "-rHoE", "--include=*.c", pat, "."], cwd=src,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                       errors="surrogateescape")
    for line in p.stdout.splitlines():
        m = re.match(r"^\./(.+\.c):.*<(.+)>$", line)
        if m and "include/" + m.group(2) in index:
            index["include/" + m.group(2)].add(m.group(1))
    return {k: sorted(v) for k, v in index.items()}


# Folders whose Makefile is included by another folder's, which names their objects
# relative to itself: amdgpu's Makefile builds ../display/amdgpu_dm/amdgpu_dm.o with its own
# include paths.  `make FOLDER/x.o` there would compile without them.
FOREIGN_OBJECTS = [("drivers/gpu/drm/amd/%s/" % d, "drivers/gpu/drm/amd/amdgpu/../%s/" % d)
                   for d in ("display", "pm", "amdkfd", "acp")]


def obj_of(cfile):
    """The make target of a .c file's object."""
    for prefix, target in FOREIGN_OBJECTS:
        if cfile.startswith(prefix):
            return target + cfile[len(prefix):-2] + ".o"
    return cfile[:-2] + ".o"


def includers(src, path, limit=3, index=None):
    """Up to `limit` .c files that #include path, from its own folder first for a local
    include; never files of other architectures or tools/."""
    if path.startswith("include/"):
        if index is None or path not in index:
            index = include_index(src, [path])
        cands = index[path]
    else:
        d = os.path.dirname(path)
        # every spelling: kernel/sched/build_policy.c has # include "ext.c"
        inc = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"%s"' % re.escape(os.path.basename(path)),
                         re.M)
        cands = []
        for f in sorted(os.listdir(os.path.join(src, d))):
            full = os.path.join(src, d, f)
            # a tree is input: no symbolic link is followed, nothing but files read
            if f.endswith(".c") and os.path.join(d, f) != path and \
                    not os.path.islink(full) and os.path.isfile(full):
                with open(full, errors="replace") as fh:
                    if inc.search(fh.read()):
                        cands.append(os.path.join(d, f))
    out = []
    for c in cands:
        if not c.startswith(("arch/", "tools/", "samples/", "Documentation/")) or \
                c.startswith("arch/x86/"):
            out.append(c)
        if len(out) >= limit:
            break
    return out


def rcu_users(src):
    p = subprocess.run(["grep", "-rlE", "--include=*.c", "--include=*.h", r"ULONG_CMP_(GE|LT)",
                        "kernel", "include", "mm", "drivers", "fs", "net"], cwd=src,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    hits = sorted(p.stdout.split())
    out = set(h for h in hits if h.endswith(".c"))
    for h in hits:
        if h.endswith(".h") and h.startswith("kernel/rcu/"):
            out |= set(includers(src, h, limit=2))
    return sorted(out)


def plan_files(src, owner, only, max_files):
    """(why: {.c file to build: reason}, via: {touched file: [.c files it counts through]}),
    filtered by --only and --max-files."""
    touched = sorted(f for f in owner if f != HEADER and f.endswith((".c", ".h")))
    cfiles = [f for f in touched if f.endswith(".c")]
    index = include_index(src, [h for h in touched if h.endswith(".h")])
    why = collections.OrderedDict((f, "touched") for f in cfiles)
    via = {f: [f] for f in cfiles}
    for f in rcu_users(src):
        why.setdefault(f, "uses ULONG_CMP_GE/LT (RCU)")
    for c in cfiles:
        # A .c file that another .c file #includes (kernel/sched/clock.c, i915 selftests)
        # is built through that one.
        for f in includers(src, c, limit=1):
            why.setdefault(f, "includes " + c)
            via[c].append(f)
    for h in touched:
        if h.endswith(".h"):
            via[h] = []
            if h == "include/linux/rcupdate.h":
                via[h] = [f for f, w in why.items() if w.startswith("uses ULONG_CMP")]
                continue
            for f in includers(src, h, index=index):
                why.setdefault(f, "includes " + h)
                via[h].append(f)
    keep = [f for f in why if not only or re.search(only, f)]
    if max_files:
        keep = keep[:max_files]
    why = collections.OrderedDict((f, why[f]) for f in keep)
    # A touched file whose objects were all filtered out is left out too; one that has no
    # object at all (a header nothing includes) stays, unless --only leaves it out.
    via = {t: ([f for f in fs if f in why], fs) for t, fs in via.items()}
    via = {t: kept for t, (kept, fs) in via.items()
           if kept or (not fs and (not only or re.search(only, t)))}
    return why, via


# ------------------------------------------------------------------ diagnostics

CC_DIAG = re.compile(r"^(?P<file>[^\s:][^:]*?):(?:(?P<line>\d+):(?:(?P<col>\d+):)?)? "
                     r"(?P<kind>warning|error|fatal error|Warning|Error): (?P<msg>.*)$")
OBJTOOL = re.compile(r"^(?P<obj>\S+\.o): (?P<kind>warning|error): objtool: (?P<msg>.*)$")
MODPOST = re.compile(r"^(?P<kind>WARNING|ERROR): modpost: (?P<msg>.*)$")
LINKER = re.compile(r"^(?:\S*-)?ld(?:\.bfd)?: (?P<msg>.*)$")


def norm_file(path, roots):
    path = os.path.normpath(path)
    for r in roots:
        if path.startswith(r + "/"):
            return path[len(r) + 1:]
    if re.match(r"^/tmp/cc\w+\.s$", path):
        return "(assembler)"
    return path


def parse_cc(text, roots):
    """[(file, kind, message)] of a compiler's output."""
    out = []
    for line in text.splitlines():
        m = CC_DIAG.match(line)
        if m:
            kind = "error" if m.group("kind").lower() in ("error", "fatal error") else "warning"
            out.append((norm_file(m.group("file"), roots), kind, m.group("msg").strip()))
    return out


def read_diag(path, roots):
    try:
        with open(path, errors="replace") as f:
            return parse_cc(f.read(), roots)
    except FileNotFoundError:
        return None


def parse_log(logfile, bld, roots):
    """{product: [(file, kind, message)]} of the objtool, modpost and linker messages of a
    make log; product is the object objtool names, Module.symvers or vmlinux."""
    out = collections.defaultdict(list)
    with open(logfile, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = OBJTOOL.match(line)
            if m:
                obj = norm_file(m.group("obj"), roots + [bld])
                msg = re.sub(r"\+0x[0-9a-f]+", "", m.group("msg"))
                out[obj].append((obj, m.group("kind"), "objtool: " + msg))
                continue
            m = MODPOST.match(line)
            if m:
                out["Module.symvers"].append(("modpost", m.group("kind").lower(), m.group("msg")))
                continue
            m = LINKER.match(line)
            if m:
                msg = m.group("msg")
                kind = "warning" if msg.startswith("warning:") or ": warning:" in msg else "error"
                if kind == "error" and "in function" in msg and msg.endswith(":"):
                    continue        # the context line before an undefined reference
                out["vmlinux"].append(("ld", kind, re.sub(r"\+0x[0-9a-f]+", "", msg)))
    return out


def update_log_store(bld, logfile, roots, started):
    """The objtool/modpost/linker messages of bld: those of this run's log replace the kept
    ones of every product made again in this run (or gone)."""
    store_path = os.path.join(bld, ".wrapcmp-logdiag.json")
    try:
        with open(store_path) as f:
            store = {k: [tuple(x) for x in v] for k, v in json.load(f).items()}
    except (OSError, ValueError):
        store = {}
    fresh = parse_log(logfile, bld, roots)
    for product in list(store):
        p = os.path.join(bld, product)
        if product in fresh or not os.path.exists(p) or os.path.getmtime(p) >= started - 1:
            del store[product]
    store.update(fresh)
    write_if_changed(store_path, json.dumps(store, sort_keys=True, indent=0) + "\n")
    return store


def diag_path(bld, obj):
    d, n = os.path.split(obj)
    return os.path.join(bld, d, "." + n + ".wrapcmp")


def all_diag_files(bld):
    for dirpath, dirnames, files in os.walk(bld):
        for f in files:
            if f.endswith(".wrapcmp") and f.startswith("."):
                yield os.path.join(dirpath, f)



def counts(counter):
    e = sum(v for (f, k, m), v in counter.items() if k == "error")
    w = sum(v for (f, k, m), v in counter.items() if k == "warning")
    return e, w


def as_list(counter):
    return [{"file": f, "kind": k, "message": m, "count": v}
            for (f, k, m), v in sorted(counter.items())]


# ------------------------------------------------------------------ object code
SHF_ALLOC, SHF_EXECINSTR, SHT_NOBITS = 0x2, 0x4, 8


def text_size(path):
    """Bytes of the SHF_ALLOC|SHF_EXECINSTR sections of the ELF file at path."""
    with open(path, "rb") as f:
        ident = f.read(16)
        if ident[:4] != b"\x7fELF":
            raise ValueError("%s is not an ELF file" % path)
        wide, order = ident[4] == 2, "<" if ident[5] == 1 else ">"
        head = f.read(48 if wide else 36)
        if wide:
            shoff = struct.unpack_from(order + "Q", head, 0x28 - 16)[0]
            shentsize, shnum = struct.unpack_from(order + "HH", head, 0x3A - 16)
        else:
            shoff = struct.unpack_from(order + "I", head, 0x20 - 16)[0]
            shentsize, shnum = struct.unpack_from(order + "HH", head, 0x2E - 16)
        if shnum == 0 and shoff:            # more than 0xff00 sections: count in section 0
            f.seek(shoff)
            first = f.read(shentsize)
            shnum = struct.unpack_from(order + ("Q" if wide else "I"), first,
                                       0x20 if wide else 0x14)[0]
        f.seek(shoff)
        table = f.read(shentsize * shnum)
    total = 0
    for i in range(shnum):
        base = i * shentsize
        if wide:
            sh_type, sh_flags = struct.unpack_from(order + "IQ", table, base + 4)
            sh_size = struct.unpack_from(order + "Q", table, base + 0x20)[0]
        else:
            sh_type, sh_flags = struct.unpack_from(order + "II", table, base + 4)
            sh_size = struct.unpack_from(order + "I", table, base + 0x14)[0]
        if sh_type != SHT_NOBITS and sh_flags & (SHF_ALLOC | SHF_EXECINSTR) == \
                SHF_ALLOC | SHF_EXECINSTR:
            total += sh_size
    return total


SECTION = re.compile(r"^Disassembly of section (\S+):$")
SYMBOL = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*[0-9a-f]+:\t(.*)$")
RELOC = re.compile(r"^\s*[0-9a-f]+: (R_\w+)\s+(.*)$")
RELOC_INLINE = re.compile(r"\t[0-9a-f]+: (R_\w+)\t(\S+)")
TARGET = re.compile(r"\b[0-9a-f]+ <([^>+]+)(?:\+0x[0-9a-f]+)?>")
COMMENT = re.compile(r"\s*#\s*(?:[0-9a-f]+ )?<([^>+]+)(?:\+0x[0-9a-f]+)?>.*$|\s*#.*$")
RIPDISP = re.compile(r"-?0x[0-9a-f]+\(%rip\)")
KADDR = re.compile(r"\$?0xffffffff[89a-f][0-9a-f]{7}\b")
PADDING = re.compile(r"^(?:(?:data16|cs|ds|es|ss)\s+)*(?:nop[wl]?\b.*|xchg\s+%ax,%ax)$")


def _normalise(raw, func):
    relocs = RELOC_INLINE.findall(raw)
    text = " ".join(RELOC_INLINE.sub("", raw).split())
    m = COMMENT.search(text)
    note = ""
    if m:
        # In an object file the comment names the next instruction and the relocation
        # names the operand; in a linked image the comment names the operand.
        if m.group(1) and m.group(1) != func and not relocs:
            note = " <%s>" % m.group(1)
        text = text[:m.start()]
    text = TARGET.sub(lambda t: "<.>" if t.group(1) == func else "<%s>" % t.group(1), text)
    text = RIPDISP.sub("(%rip)", text)
    text = KADDR.sub("ADDR", text)
    return text + note + "".join(_reloc(k, t) for k, t in relocs)


def _reloc(kind, target):
    target = target.strip()
    m = re.match(r"^(\.[^+-]*)[+-]0x[0-9a-f]+$", target)
    if m:
        target = m.group(1)
    return " reloc %s %s" % (kind, target)


def functions(path, objdump="objdump"):
    """{(section, symbol): [normalised instruction, ...]} of the ELF file at path."""
    proc = subprocess.Popen([objdump, "-d", "-r", "-w", "--no-show-raw-insn", path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            errors="replace", env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    out, seen, interned = {}, {}, {}
    section, key, func, insns = None, None, None, None

    def close():
        if key is not None:
            while insns and PADDING.match(insns[-1]):
                insns.pop()
            out[key] = insns

    for line in proc.stdout:
        line = line.rstrip("\n")
        if not line:
            continue
        m = SECTION.match(line)
        if m:
            close()
            section, key, func, insns = m.group(1), None, None, None
            continue
        m = SYMBOL.match(line)
        if m:
            close()
            func = m.group(1)
            n = seen.get((section, func), 0) + 1
            seen[(section, func)] = n
            key = (section, func if n == 1 else "%s#%d" % (func, n))
            insns = []
            continue
        if insns is None:
            continue
        m = RELOC.match(line)
        if m:
            if insns:
                text = insns[-1] + _reloc(*m.groups())
                insns[-1] = interned.setdefault(text, text)
            continue
        m = INSN.match(line)
        if m:
            text = _normalise(m.group(1), func)
            if text and text != "...":
                insns.append(interned.setdefault(text, text))
    close()
    err = proc.stderr.read()
    if proc.wait() != 0:
        raise RuntimeError("%s -d %s failed: %s" % (objdump, path, err.strip()[-500:]))
    return out


def count_differ(a, b):
    """Instruction lines that differ between the lists a and b (see the module's text)."""
    if a == b:
        return 0
    n = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            n += max(i2 - i1, j2 - j1)
    return n


def compare(before, after, objdump="objdump"):
    fb, fa = functions(before, objdump), functions(after, objdump)
    differ = 0
    for key in set(fb) | set(fa):
        differ += count_differ(fb.get(key, []), fa.get(key, []))
    return {"text_before": text_size(before), "text_after": text_size(after),
            "insns_before": sum(len(v) for v in fb.values()),
            "insns_after": sum(len(v) for v in fa.values()),
            "insns_differ": differ}
