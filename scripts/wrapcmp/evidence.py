"""Compiler evidence per finding (issue 19): does gcc or clang already use the site's
signed overflow?  `wrapcmp-run --evidence` (make run EVIDENCE=yes).

For each file with a finding and a compile command (compile_commands.json; for a kernel,
the one scripts/clang-tools/gen_compile_commands.py writes in a configured build folder),
and each compiler (the command's own, and gcc or clang in its place where installed; a
second database, --evidence-commands, can give a compiler its own commands, as a CC=clang
kernel build folder does):

  1. compile the file with its own command twice: as it is, and with the flag that
     changes what signed overflow means (-fwrapv added; where the command already has
     -fwrapv or -fno-strict-overflow, as the kernel's does, -fstrict-overflow added after
     it), into scratch objects (-o, -MD, -MF ... of the command replaced; nothing is
     written into the tree or the build folder);
  2. compare the code of every function: `objdump -d -r --no-show-raw-insn`, per symbol,
     addresses dropped, branch targets as instruction numbers, padding (nop, int3) left
     out, each call or jump through a relocation named by its symbol; so addresses,
     padding and symbol order change nothing;
  3. where a function that can hold the site differs, compile the rewritten file (the
     run's patch applied, in a scratch view of the tree: symbolic links to the tree, the
     patched files and the header as real files) the same two ways.

Which functions can hold a site ("reach"): the function that encloses it (or, in a
#define body, every function that uses the macro), and every function of the file that
names one of those, transitively, since a compiler can inline any function of a file
into its callers.  Symbols are matched by name before the first dot, so that the clones
name.part.N, name.isra.N, name.constprop.N and name.cold count as name.

Verdicts, per compiler and command:
  not exploited  no function of the reach differs (or the object does not differ at all)
  exploited      a function of the reach differs, and after the rewrite none does; when
                 another site's reach meets it, the file is compiled once more with every
                 site rewritten but this one, and this one must make the difference alone
  unclear        a function of the reach still differs after the rewrite (something else
                 there relies on overflow), the reach has no symbol while the object
                 differs, or the attribution is shared and cannot be split
  not compiled   no compile command (a header), or the file did not build
Per finding: "exploited" if any compiler says so, else "unclear" if any does, else "not
exploited" if any does, else "not compiled".  A file with two different compile commands
is judged with each; commands that disagree give "unclear".  A site in a header gets "not
compiled": it has no command of its own, and the .c files that include it see it only
as one of their own functions' callees (which is what makes their sites "unclear" when
the header's code is what differs).
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from .util import Fatal, log

EXPLOITED, NOT_EXPLOITED, UNCLEAR, NOT_COMPILED = (
    "exploited", "not exploited", "unclear", "not compiled")
VERDICTS = (EXPLOITED, NOT_EXPLOITED, UNCLEAR, NOT_COMPILED)
WRAP_FLAGS = ("-fwrapv", "-fno-strict-overflow")
NOWRAP_FLAGS = ("-fno-wrapv", "-fstrict-overflow")
# options of a compile command that write files besides the object, or name it
DROP_WITH_VALUE = ("-o", "-MF", "-MT", "-MQ")
DROP = ("-MD", "-MMD", "-MP", "-M", "-MM")
PADDING = re.compile(r"^(?:(?:data16|cs|ds|rex\.?\w*)\s+)*(?:nop\w*|xchg\s+%ax,%ax|int3)\b")
SYMBOL = re.compile(r"^[0-9a-f]+ <(.+)>:$")
INSN = re.compile(r"^\s*([0-9a-f]+):\s*(.*)$")
RELOC = re.compile(r"^\s*([0-9a-f]+):\s+(R_\S+)\s+(.*)$")
TARGET = re.compile(r"\b[0-9a-f]+ <([^>+]+)(?:\+0x([0-9a-f]+))?>")
IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"if", "while", "for", "switch", "return", "sizeof", "do", "else"}


# ---------------------------------------------------------------- the source's functions

def blank_comments(text):
    """text with comments, string and character literals replaced by spaces (newlines
    kept), so that braces and names in them count for nothing."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c if j - i >= 2
                       else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def source_map(text):
    """(functions, macros) of a C file: functions [(name, first line, last line, names in
    its body)], macros [(name, first line, last line)], from the text alone (comments
    and literals ignored; a #define's logical line is the macro)."""
    text = blank_comments(text)
    lines = text.split("\n")
    macros, code = [], []
    k = 0
    while k < len(lines):
        line = lines[k]
        if re.match(r"\s*#", line):
            lo = k
            while lines[k].rstrip().endswith("\\") and k + 1 < len(lines):
                k += 1
            m = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)", line)
            if m:
                macros.append((m.group(1), lo + 1, k + 1,
                               set(IDENT.findall(" ".join(lines[lo:k + 1])))))
            code.extend([""] * (k - lo + 1))
        else:
            code.append(line)
        k += 1
    funcs = []
    depth, start, head = 0, None, []
    for ln, line in enumerate(code, 1):
        for pos, c in enumerate(line):
            if depth == 0 and c not in "{}":
                head.append((c, ln))
            if c == "{":
                if depth == 0:
                    start = (ln, pos, "".join(h for h, _ in head))
                depth += 1
            elif c == "}" and depth > 0:
                depth -= 1
                if depth == 0 and start:
                    name = declarator_name(start[2])
                    if name:
                        body = "\n".join(code[start[0] - 1:ln])
                        funcs.append((name, first_line(head, start[0]), ln,
                                      set(IDENT.findall(body)) - {name}))
                    head, start = [], None
            elif depth == 0 and c == ";":
                head = []
    return funcs, macros


def first_line(head, fallback):
    for c, ln in head:
        if not c.isspace():
            return ln
    return fallback


def declarator_name(head):
    """The function a definition's head names (`static inline int foo(int a)` -> foo), or
    None for a struct, an initializer or anything else with braces."""
    head = head.strip()
    if not head.endswith(")") and not re.search(r"\)\s*(?:__\w+(?:\(\([^)]*\)\))?\s*)*$",
                                                head):
        return None
    if "=" in re.sub(r"\([^()]*\)", "", head):
        return None
    depth = 0
    for m in re.finditer(r"[()]|[A-Za-z_]\w*", head):
        t = m.group(0)
        if t == "(":
            if depth == 0:
                before = IDENT.findall(head[:m.start()])
                return before[-1] if before and before[-1] not in KEYWORDS else None
            depth += 1
        elif t == ")":
            depth -= 1
    return None


def reach_of(line, funcs, macros):
    """(functions that can hold the code of a site at line, how the site's home was
    found), or (None, why) when no function holds it."""
    home = {f[0] for f in funcs if f[1] <= line <= f[2]}
    why = "in %s()" % ", ".join(sorted(home)) if home else None
    if not home:
        names = {m[0] for m in macros if m[1] <= line <= m[2]}
        if not names:
            return None, "outside any function"
        users = set(names)
        while True:	# macros that use the macro
            more = {m[0] for m in macros if m[3] & users} - users
            if not more:
                break
            users |= more
        home = {f[0] for f in funcs if f[3] & users}
        if not home:
            return None, "in macro %s, which no function of the file uses" % \
                ", ".join(sorted(names))
        why = "in macro %s, used by %s" % (", ".join(sorted(names)),
                                            ", ".join("%s()" % f for f in sorted(home)))
    reach = set(home)
    while True:		# callers, which may inline it
        more = {f[0] for f in funcs if f[3] & reach} - reach
        if not more:
            return reach, why
        reach |= more


# ---------------------------------------------------------------- object code

def base_name(symbol):
    """foo.part.0, foo.isra.0, foo.constprop.0, foo.cold -> foo."""
    return symbol.split(".", 1)[0]


def disassemble(obj):
    """{symbol: tuple of normalised instructions} of obj's executable sections."""
    p = subprocess.run(["objdump", "-d", "-r", "-w", "--no-show-raw-insn", obj],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise OSError("objdump failed on %s: %s" % (obj, p.stderr.decode()[-200:]))
    syms, cur = {}, None
    for line in p.stdout.decode("utf-8", "replace").split("\n"):
        m = SYMBOL.match(line)
        if m:
            cur = syms.setdefault(m.group(1), [])
            continue
        if cur is None:
            continue
        m = RELOC.match(line)
        if m and cur:
            cur[-1][2] = "%s %s" % (m.group(2), m.group(3))
            continue
        m = INSN.match(line)
        if m:
            text = re.sub(r"\s+", " ", m.group(2).split("#")[0]).strip()
            if text and text != "(bad)":
                cur.append([int(m.group(1), 16), text, None])
    return {s: normalise(s, insns) for s, insns in syms.items()}


def normalise(sym, insns):
    """Instructions without padding; a branch inside the function as the number of its
    target, one through a relocation as the relocation, other targets by name."""
    kept = [i for i in insns if not PADDING.match(i[1])]
    index = {}
    for n, (off, _, _) in enumerate(kept):
        index[off] = n
    out = []
    for off, text, reloc in kept:
        def target(m):
            if reloc:
                return "<reloc>"
            if m.group(1) == sym:
                o = int(m.group(2) or "0", 16)
                return "<L%s>" % index.get(o, "?%x" % o)
            return "<%s>" % m.group(1)
        text = TARGET.sub(target, text)
        out.append(text + (" {%s}" % reloc if reloc else ""))
    return tuple(out)


def differing(a, b):
    """Symbols whose code differs between two disassemblies (or that only one has)."""
    return {s for s in set(a) | set(b) if a.get(s) != b.get(s)}


# ---------------------------------------------------------------- compile commands

def family(cc, cache={}):
    """'gcc', 'clang' or None for a compiler command word."""
    if cc not in cache:
        try:
            p = subprocess.run([cc, "-dM", "-E", "-x", "c", "/dev/null"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               stdin=subprocess.DEVNULL, timeout=60)
            out = p.stdout.decode("utf-8", "replace")
            cache[cc] = None if p.returncode else "clang" if "__clang__" in out else \
                "gcc" if "__GNUC__" in out else None
        except (OSError, subprocess.TimeoutExpired):
            cache[cc] = None
    return cache[cc]


def version(cc, cache={}):
    if cc not in cache:
        p = subprocess.run([cc, "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        first = p.stdout.decode("utf-8", "replace").split("\n")[0]
        m = re.search(r"(\d+\.\d+\.\d+)", first)
        cache[cc] = "%s %s" % (family(cc), m.group(1) if m else "?")
    return cache[cc]


def read_entries(path, tree):
    """{file of the tree: [(directory, arguments)]}: every entry, a file's second
    command with other arguments kept (compile_commands.py keeps the first only)."""
    from .compile_commands import CompileCommands
    cc = CompileCommands(path, tree)
    with open(path, "rb") as f:
        data = json.loads(f.read().decode("utf-8"))
    base = os.path.dirname(os.path.abspath(path))
    real_tree = os.path.realpath(tree)
    out = {}
    for n, e in enumerate(data, 1):
        directory, file, arguments = cc._fields(n, e, base)
        real = os.path.realpath(os.path.join(directory, file))
        if not real.startswith(real_tree.rstrip("/") + "/"):
            continue
        rel = os.path.relpath(real, real_tree)
        seen = out.setdefault(rel, [])
        if (directory, arguments) not in seen:
            seen.append((directory, arguments))
    return out


def object_args(arguments, obj):
    """The command's arguments writing obj only: -o replaced, dependency files dropped."""
    out, i = [], 1
    args = arguments
    while i < len(args):
        a = args[i]
        if a in DROP_WITH_VALUE:
            i += 2
            continue
        if a in DROP or (a.startswith("-o") and len(a) > 2) or \
                re.match(r"-Wp,-M", a) or (a[:3] in ("-MF", "-MT", "-MQ") and len(a) > 3):
            i += 1
            continue
        out.append(a)
        i += 1
    if "-c" not in out:
        out.append("-c")
    return out + ["-o", obj]


def wraps(arguments):
    """Does the command as it is define signed overflow (its last such flag)?"""
    last = None
    for a in arguments:
        if a in WRAP_FLAGS:
            last = True
        elif a in NOWRAP_FLAGS:
            last = False
    return bool(last)


class Scratch:
    """A view of the tree with some files replaced: every entry a symbolic link to the
    tree's, except the folders on the way to a replaced file, which are real."""

    def __init__(self, tree, root, files):
        self.tree, self.root = tree, root
        os.makedirs(root)
        folders = {""}
        for rel in files:
            parts = rel.split("/")[:-1]
            folders.update("/".join(parts[:k]) for k in range(1, len(parts) + 1))
        for d in sorted(folders, key=lambda d: (d.count("/"), d)):	# parents first
            self._expand(d)
        for rel, data in files.items():
            path = os.path.join(root, rel)
            if os.path.lexists(path):
                os.unlink(path)
            with open(path, "wb") as f:
                f.write(data)

    def _expand(self, d):
        """Make folder d real, each of its entries a link to the tree's."""
        here = os.path.join(self.root, d) if d else self.root
        if os.path.islink(here):
            os.unlink(here)
        os.makedirs(here, exist_ok=True)
        src = os.path.join(self.tree, d) if d else self.tree
        if not os.path.isdir(src):
            return
        for name in os.listdir(src):
            dst = os.path.join(here, name)
            if not os.path.lexists(dst):
                os.symlink(os.path.join(src, name), dst)


def relocate(value, prefixes, root):
    for p in prefixes:
        if value == p:
            return root
        value = value.replace(p + "/", root + "/")
    return value


# ---------------------------------------------------------------- the evidence

class Evidence:
    """Evidence for the findings of a run.  tree: the tree; texts: {file: bytes as
    written}; new: {file: bytes rewritten} (the run's patch, the header it adds too);
    databases: compile_commands.json paths, the first the tree's own."""

    def __init__(self, tree, databases, work, jobs=2, compilers=("gcc", "clang")):
        self.tree, self.work, self.jobs = os.path.abspath(tree), work, max(1, jobs)
        self.prefixes = sorted({self.tree, os.path.realpath(self.tree)}, key=len,
                               reverse=True)
        self.entries = {}	# file -> [(label, compiler word, directory, arguments)]
        self.compilers = [c for c in compilers if shutil.which(c) and family(c) == c]
        have = {}
        for db in databases:
            for rel, cmds in read_entries(db, self.tree).items():
                for directory, arguments in cmds:
                    fam = family(arguments[0])
                    self.entries.setdefault(rel, []).append(
                        (db, fam, arguments[0], directory, arguments))
                    have.setdefault(rel, set()).add(fam)
        # a compiler no database has for a file: the commands of the first database that
        # has the file, with it in their compiler's place (each: a file built twice is
        # built twice with it too)
        for rel, cmds in self.entries.items():
            first = [e for e in cmds if e[0] == cmds[0][0]]
            for c in self.compilers:
                if c not in have[rel]:
                    cmds.extend((e[0] + " (%s in place of %s)" % (c, e[2]), c, c, e[3],
                                 [c] + e[4][1:]) for e in first)
        self.count = 0
        self.seconds = 0.0
        self.rewritten_headers = set()	# headers with sites that the patch rewrites

    def compile(self, tag, entry, view, variant):
        """Disassembly of entry compiled in view (None: the tree) with variant
        ("as is" or the flag added), or None when it did not build."""
        db, fam, cc, directory, arguments = entry
        obj = os.path.join(self.work, "%s.o" % tag)
        args = object_args(arguments, obj)
        if variant:
            args = args[:-3] + [variant] + args[-3:]
        cwd = directory
        if view is not None:
            args = [relocate(a, self.prefixes, view.root) for a in args[:-1]] + [obj]
            cwd = relocate(directory, self.prefixes, view.root)
        t = time.time()
        p = subprocess.run([cc] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.seconds += time.time() - t
        self.count += 1
        if p.returncode != 0 or not os.path.isfile(obj):
            return None, p.stderr.decode("utf-8", "replace").strip().split("\n")[-1][:300]
        try:
            return disassemble(obj), None
        finally:
            os.unlink(obj)

    def pair(self, tag, entry, view):
        """(symbols that differ between the two meanings of overflow, flags, error)."""
        arguments = entry[4]
        if wraps(arguments):
            flags = {"wraps": "as it is", "overflow undefined": "-fstrict-overflow added"}
            variants = (None, "-fstrict-overflow")
        else:
            flags = {"wraps": "-fwrapv added", "overflow undefined": "as it is"}
            variants = ("-fwrapv", None)
        a, err = self.compile(tag + "-w", entry, view, variants[0])
        b, err2 = (None, None) if a is None else self.compile(tag + "-u", entry, view,
                                                              variants[1])
        if a is None or b is None:
            return None, flags, err or err2
        return differing(a, b), flags, None

    def run(self, findings, texts, new, rewritten):
        """{index of finding: {"compiler_evidence": verdict, "details": [...]}} for the
        findings (report.json's dicts: file, line, line_end); rewritten: the indexes of
        the findings the patch rewrites."""
        by_file = {}
        for i, f in enumerate(findings):
            by_file.setdefault(f["file"], []).append(i)
        result = {}
        jobs = []
        for rel in sorted(by_file):
            cmds = self.entries.get(rel)
            if not cmds:
                for i in by_file[rel]:
                    result[i] = {"compiler_evidence": NOT_COMPILED, "details": [
                        {"note": "a header: no compile command of its own"
                         if rel.endswith(".h") else "no compile command"}]}
                continue
            for k, entry in enumerate(cmds):
                jobs.append((rel, k, entry))
        t0 = time.time()
        per = {}

        def one(job):
            rel, k, entry = job
            return job, self.judge(rel, k, entry, findings, by_file[rel], texts, new,
                                   rewritten)
        last = time.time()
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for n, ((rel, k, entry), verdicts) in enumerate(pool.map(one, jobs), 1):
                for i, d in verdicts.items():
                    per.setdefault(i, []).append(d)
                if time.time() - last >= 15 and n < len(jobs):	# a kernel's take minutes
                    last = time.time()
                    el = last - t0
                    log("evidence: %d/%d commands done, %d compiles, %d s elapsed, ETA %d s"
                        % (n, len(jobs), self.count, el, el * (len(jobs) - n) / n))
        for i, details in per.items():
            result[i] = {"compiler_evidence": combine(details), "details": details}
        self.wall = time.time() - t0
        return result

    def judge(self, rel, k, entry, findings, mine, texts, new, rewritten):
        """{finding index: detail} for one file, one command."""
        tag = "%s-%d-%d" % (re.sub(r"[^\w]", "_", rel)[-60:], k, os.getpid())
        db, fam, cc, directory, arguments = entry
        label = version(cc) if family(cc) else cc
        base = {"compiler": label, "command": os.path.basename(db) if "(" not in db
                else os.path.basename(db.split(" ", 1)[0]) + " " + db.split(" ", 1)[1]}
        same = [e for e in self.entries[rel] if e[0] == db]
        if len(same) > 1:	# a file built twice: which of its commands this is
            base["command"] += ", command %d of %d for the file" % (same.index(entry) + 1,
                                                                    len(same))
        text = texts[rel].decode("utf-8", "replace")
        funcs, macros = source_map(text)
        reach, home = {}, {}
        for i in mine:
            reach[i], home[i] = reach_of(findings[i]["line"], funcs, macros)
        d0, flags, err = self.pair(tag + "-o", entry, None)
        base["flags"] = flags
        if d0 is None:
            return {i: dict(base, verdict=NOT_COMPILED, note="did not build: %s" % err)
                    for i in mine}
        out = {}
        todo = []
        for i in mine:
            r = reach[i]
            if not d0:
                out[i] = dict(base, verdict=NOT_EXPLOITED, where=home[i],
                              note="the object code is the same both ways")
                continue
            if r is None:
                out[i] = dict(base, verdict=UNCLEAR, where=home[i],
                              note="the object differs in %s and the site is in no function"
                              % ", ".join(sorted(d0)))
                continue
            hit = sorted(s for s in d0 if base_name(s) in r)
            if not hit:
                note = "no function that can hold the site differs"
                out[i] = dict(base, verdict=NOT_EXPLOITED, where=home[i], note=note)
                continue
            if i not in rewritten:
                out[i] = dict(base, verdict=UNCLEAR, where=home[i], differs=hit,
                              note="not rewritten, so the difference cannot be tied to it")
                continue
            todo.append((i, hit))
        if not todo:
            return out
        view = self.view(tag + "-r", new)
        d1, _, err = self.pair(tag + "-r", entry, view)
        for i, hit in todo:
            d = dict(base, where=home[i], differs=hit)
            if d1 is None:
                out[i] = dict(d, verdict=UNCLEAR, note="the rewritten file did not build: %s"
                              % err)
                continue
            left = sorted(s for s in d1 if base_name(s) in reach[i])
            d["after_rewrite"] = left
            if left:
                out[i] = dict(d, verdict=UNCLEAR, note="still differs after the rewrite: "
                              "something else there relies on overflow")
                continue
            others = [j for j in mine if j != i and (
                reach[j] is None or any(base_name(s) in reach[j] for s in hit))]
            # a rewritten header may be inlined here too: then the Q test below as well
            headers = [h for h in new if h != rel and h.endswith(".h") and
                       h in self.rewritten_headers]
            if not others and not headers:
                out[i] = dict(d, verdict=EXPLOITED)
                continue
            # this site alone as written, every other site rewritten
            alone = revert_site(texts[rel], new.get(rel, texts[rel]), findings[i],
                                [findings[j] for j in mine if j != i])
            if alone is None:
                out[i] = dict(d, verdict=UNCLEAR, note="shares its lines of the patch with "
                              "another site")
                continue
            v2 = self.view(tag + "-q%d" % i, dict(new, **{rel: alone}))
            dq, _, err = self.pair(tag + "-q%d" % i, entry, v2)
            shutil.rmtree(v2.root, ignore_errors=True)
            if dq is None:
                out[i] = dict(d, verdict=UNCLEAR, note="with only this site as written, "
                              "the file did not build: %s" % err)
            elif any(base_name(s) in reach[i] for s in dq):
                out[i] = dict(d, verdict=EXPLOITED, note="the only site as written, the "
                              "others rewritten: it alone makes the difference")
            else:
                out[i] = dict(d, verdict=NOT_EXPLOITED, note="the only site as written, "
                              "the others rewritten: no difference")
        shutil.rmtree(view.root, ignore_errors=True)
        return out

    def view(self, tag, new):
        return Scratch(self.tree, os.path.join(self.work, tag), new)


def revert_site(orig, new, site, others):
    """new with the change blocks of site (those that meet its lines, and those that meet
    no site and come before it, as the temporary rule's removed declaration does) put
    back as written; None when a block of it also holds another site."""
    a = orig.split(b"\n")
    b = new.split(b"\n")
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    blocks = [op for op in ops if op[0] != "equal"]

    def meets(op, f):
        lo, hi = f["line"], f["line_end"] or f["line"]
        return op[1] < hi and lo <= op[2] if op[2] > op[1] else False
    mine = [op for op in blocks if meets(op, site)]
    if not mine or any(meets(op, o) for op in mine for o in others):
        return None
    first = min(op[1] for op in mine)
    # a removal before the site that no other site's lines meet, nearest to the site
    for op in blocks:
        if op not in mine and op[2] > op[1] and op[2] <= first and \
                not any(meets(op, o) for o in others) and op[4] == op[3] and \
                not any(o["line"] > op[2] and o["line"] <= first for o in others):
            mine.append(op)
    out = []
    for op in ops:
        tag, i1, i2, j1, j2 = op
        out.extend(a[i1:i2] if tag == "equal" or op in mine else b[j1:j2])
    return b"\n".join(out)


def combine(details):
    """The finding's verdict from those of each compiler and command."""
    vs = [d["verdict"] for d in details]
    by_compiler = {}
    for d in details:
        by_compiler.setdefault(d.get("compiler"), set()).add(d["verdict"])
    if any(len(v - {NOT_COMPILED}) > 1 for v in by_compiler.values()):
        return UNCLEAR		# one compiler, two commands, two answers
    for v in (EXPLOITED, UNCLEAR, NOT_EXPLOITED):
        if v in vs:
            return v
    return NOT_COMPILED


def built_without_wrap(details):
    """True when a finding's evidence built its file "as it is" for undefined overflow:
    the file's own command has neither -fno-strict-overflow nor -fwrapv (the x86 EFI
    stub), so there the overflow is undefined today."""
    return any((d.get("flags") or {}).get("overflow undefined") == "as it is"
               for d in details or [])


def per_compiler(details):
    """{compiler (its name and version): verdict} of a finding's evidence details: each
    compiler's commands combined."""
    by = {}
    for d in details or []:
        if d.get("compiler"):
            by.setdefault(d["compiler"], []).append(d)
    return {c: combine(ds) for c, ds in by.items()}


def short(ev):
    """report.txt's and SARIF's words: "exploited (gcc 12.2.0: exploited, clang ...)"."""
    per = {}
    for d in ev["details"]:
        if d.get("compiler"):
            per.setdefault(d["compiler"], []).append(d["verdict"])
    parts = ["%s %s" % (c.split(" ")[0], "/".join(dict.fromkeys(v)))
             for c, v in sorted(per.items())]
    return "compiler: %s%s" % (ev["compiler_evidence"],
                               " (%s)" % ", ".join(parts) if parts else "")


def run_evidence(args, tree, work, commands, findings, rewritten, snap, new, hosted, phases):
    """run.py's one call: {finding_key(): evidence} for every finding of the run.  The
    compile commands are the run's (COMPILE_COMMANDS= or the tree's default) and
    --evidence-commands; the rewritten files are the run's patch, with the header it
    adds (a project's HEADER, or include/linux/wrapcmp.h of this repository)."""
    from .outputs import finding_key, unique_findings
    from .util import ROOT, read_bytes
    t = time.time()
    dbs = ([commands.path] if commands is not None else []) + \
        [os.path.abspath(p) for p in args.evidence_commands]
    for p in dbs:
        if not os.path.isfile(p):
            raise Fatal("--evidence-commands %s: no such file" % p)
    if not dbs:
        log("evidence: no compile commands (COMPILE_COMMANDS=): every finding is "
            "'not compiled'")
    files = dict(new)
    if hosted is not None:
        if not hosted.present:
            files[hosted.header] = hosted.text
    else:
        files["include/linux/wrapcmp.h"] = read_bytes(
            os.path.join(ROOT, "include", "linux", "wrapcmp.h"))
    uniq = unique_findings(findings)
    keys = {finding_key(f) for f in rewritten}
    texts = {f["file"]: snap.data(f["file"]) for f in uniq if f["file"] in snap.ids}
    uniq = [f for f in uniq if f["file"] in texts]
    scratch = os.path.join(work, "evidence")
    os.makedirs(scratch, exist_ok=True)
    ev = Evidence(tree, dbs, scratch, args.jobs)
    ev.rewritten_headers = {f["file"] for f in rewritten if f["file"].endswith(".h")}
    res = ev.run(uniq, texts, files, {i for i, f in enumerate(uniq) if finding_key(f) in keys})
    out = {finding_key(f): res[i] for i, f in enumerate(uniq) if i in res}
    counts = {}
    for k in keys:
        v = out.get(k, {"compiler_evidence": NOT_COMPILED})["compiler_evidence"]
        counts[v] = counts.get(v, 0) + 1
    log("evidence: %d compiles (%.1f s of compiler time, %.1f s wall) with %s; rewritten "
        "sites: %s" % (ev.count, ev.seconds, time.time() - t, ", ".join(ev.compilers) or
                       "no compiler", ", ".join("%s %d" % (v, counts[v]) for v in VERDICTS
                                                if v in counts) or "none"))
    phases.append(("evidence (%d compiles)" % ev.count, time.time() - t))
    return out
