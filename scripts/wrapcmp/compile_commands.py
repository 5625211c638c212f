"""A project's compile_commands.json, as CMake, Meson, bear and the kernel's
scripts/clang-tools/gen_compile_commands.py write it: for each file of the tree, the
folders its #include "..." and <...> search, its -include files and its -std.

The file is a JSON array of objects with "directory", "file" and either "arguments" (a
list) or "command" (one string, split as a POSIX shell would, never run).  A relative
"directory" is taken from the folder of compile_commands.json, a relative "file" and
relative paths in the flags from "directory".  An argument @FILE is a response file whose
contents are split the same way, up to RSP_DEPTH deep.

What spatch gets (spatch_options()):
- the "..." search list (the file's folder, -iquote, then -I, -isystem, -idirafter) as
  -I folders, with --all-includes, so that types in the project's headers are known;
- the -include files as --include.
What it does not get, measured with spatch 1.1.1:
- -D and -U: a compiler takes one #ifdef branch, spatch reads them all; --defined FOO
  would hide the sites of the #else branch.  A -D value in a --macro-file is expanded
  where it is used, and `(int)(a - OFF) < 0` with OFF from -DOFF=5u is then not found.
- -std: spatch 1.1.1 has no option for a C standard; it is kept in the entry only.
An entry whose file is outside the tree is counted (outside) and ignored.  An entry
for a file the tree names twice keeps the first; the others are counted (repeated).
"""
import json
import os
import shlex

from .util import Fatal

NAMES = ("compile_commands.json", "build/compile_commands.json")
RSP_DEPTH = 8
# options whose value is the next argument (or joined to them), and what they are
PATH_OPTIONS = {"-I": "angle", "-iquote": "quote", "-isystem": "system",
                "-idirafter": "after", "-include": "include"}
VALUE_OPTIONS = ("-D", "-U", "-o", "-x", "-MF", "-MT", "-MQ", "-imacros", "-iprefix",
                 "-iwithprefix", "-isysroot", "--sysroot", "-target", "-arch",
                 "-Xclang", "-Xpreprocessor", "-Xassembler", "-Xlinker", "-l", "-L")


def find_default(tree):
    """compile_commands.json at the tree's top, else in build/, else None."""
    for name in NAMES:
        path = os.path.join(tree, name)
        if os.path.isfile(path):
            return path
    return None


class Entry:
    """One file's flags: absolute folders and files, in the order the compiler uses."""

    def __init__(self, directory, file, arguments):
        self.directory, self.file, self.arguments = directory, file, arguments
        self.quote_only, self.angle_dirs, self.forced_includes = [], [], []
        self.defines, self.undefines, self.std = [], [], None
        system, after = [], []
        lists = {"angle": self.angle_dirs, "quote": self.quote_only, "system": system,
                 "after": after, "include": self.forced_includes}
        args = arguments[1:]
        i = 0
        while i < len(args):
            a = args[i]
            value, kind = None, None
            for opt in sorted(PATH_OPTIONS, key=len, reverse=True):
                if a == opt:
                    if i + 1 < len(args):
                        value, kind, i = args[i + 1], PATH_OPTIONS[opt], i + 1
                    break
                if a.startswith(opt) and opt != "-include":	# -Idir, -iquotedir
                    value, kind = a[len(opt):], PATH_OPTIONS[opt]
                    break
            if kind is not None:
                if value:
                    lists[kind].append(os.path.normpath(os.path.join(directory, value)))
            elif a in ("-D", "-U") and i + 1 < len(args):
                (self.defines if a == "-D" else self.undefines).append(args[i + 1])
                i += 1
            elif a.startswith("-D") or a.startswith("-U"):
                (self.defines if a[1] == "D" else self.undefines).append(a[2:])
            elif a.startswith("-std=") or a.startswith("--std="):
                self.std = a.split("=", 1)[1]
            elif a in VALUE_OPTIONS:
                i += 1
            i += 1
        # "..." searches the file's folder (added by the caller), -iquote, then the
        # <...> list: -I, -isystem, -idirafter
        self.angle_dirs += system + after
        self.quote_dirs = self.quote_only + self.angle_dirs

    def search_dirs(self):
        """The "..." search list after the file's own folder, each folder once."""
        seen, out = set(), []
        for d in self.quote_dirs:
            if d not in seen:
                seen.add(d)
                out.append(d)
        return out


class CompileCommands:
    def __init__(self, path, tree):
        self.path, self.tree = path, tree
        self.entries, self.outside, self.repeated, self.skipped = {}, 0, 0, []

    @classmethod
    def load(cls, path, tree):
        """Read and check path; Fatal naming the file (and the entry) on bad input."""
        self = cls(path, tree)
        try:
            with open(path, "rb") as f:
                data = json.loads(f.read().decode("utf-8"))
        except OSError as e:
            raise Fatal("%s: cannot read: %s" % (path, e.strerror))
        except (UnicodeDecodeError, ValueError) as e:
            raise Fatal("%s: not a JSON compilation database: %s" % (path, e))
        if not isinstance(data, list):
            raise Fatal("%s: not a JSON compilation database: the top level is not an "
                        "array of entries" % path)
        base = os.path.dirname(os.path.abspath(path))
        real_tree = os.path.realpath(tree)
        for n, e in enumerate(data, 1):
            directory, file, arguments = self._fields(n, e, base)
            full = os.path.normpath(os.path.join(directory, file))
            real = os.path.realpath(full)
            if not (real == real_tree or real.startswith(real_tree.rstrip("/") + "/")):
                self.outside += 1
                continue
            rel = os.path.relpath(real, real_tree)
            if not os.path.isfile(real):
                self.skipped.append((rel, "entry %d: no such file in the tree" % n))
                continue
            if rel in self.entries:
                self.repeated += 1
                continue
            self.entries[rel] = Entry(directory, file, arguments)
        return self

    def _fields(self, n, e, base):
        where = "%s: entry %d" % (self.path, n)
        if not isinstance(e, dict):
            raise Fatal("%s: not an object" % where)
        for key in ("directory", "file"):
            if not isinstance(e.get(key), str) or not e.get(key):
                raise Fatal("%s: no \"%s\" string" % (where, key))
        where += " (%s)" % e["file"]
        directory = os.path.normpath(os.path.join(base, e["directory"]))
        if "arguments" in e:
            arguments = e["arguments"]
            if not isinstance(arguments, list) or not arguments or \
                    not all(isinstance(a, str) for a in arguments):
                raise Fatal("%s: \"arguments\" is not a list of strings" % where)
        elif isinstance(e.get("command"), str):
            try:
                arguments = shlex.split(e["command"])
            except ValueError as err:
                raise Fatal("%s: \"command\" cannot be split as a shell would: %s"
                            % (where, err))
            if not arguments:
                raise Fatal("%s: \"command\" is empty" % where)
        else:
            raise Fatal("%s: neither an \"arguments\" list nor a \"command\" string"
                        % where)
        return directory, e["file"], self._expand(arguments, directory, where, 0)

    def _expand(self, arguments, directory, where, depth):
        """arguments with each @FILE replaced by the arguments it holds."""
        out = []
        for a in arguments:
            if not a.startswith("@") or len(a) == 1:
                out.append(a)
                continue
            if depth >= RSP_DEPTH:
                raise Fatal("%s: response files nest deeper than %d at %s"
                            % (where, RSP_DEPTH, a))
            rsp = os.path.join(directory, a[1:])
            try:
                with open(rsp, encoding="utf-8", errors="surrogateescape") as f:
                    words = shlex.split(f.read())
            except OSError as e:
                raise Fatal("%s: response file %s: %s" % (where, a, e.strerror))
            except ValueError as e:
                raise Fatal("%s: response file %s cannot be split: %s" % (where, a, e))
            out += self._expand(words, directory, where, depth + 1)
        return out

    def files(self):
        """The tree's files that have an entry, as the tree names them, sorted."""
        return sorted(self.entries)

    def entry(self, rel):
        return self.entries.get(os.path.normpath(rel))

    def spatch_options(self, rel, folder_of):
        """spatch options for rel: its "..." search list as -I folders and its -include
        files as --include, each as folder_of() names it (never the tree's names)."""
        e = self.entry(rel)
        opts = ["--include-headers-for-types", "--all-includes",
                "-I", folder_of(os.path.join(self.tree, os.path.dirname(rel)))]
        for d in e.search_dirs():
            if os.path.isdir(d):
                opts += ["-I", folder_of(d)]
        for f in e.forced_includes:
            if os.path.isfile(f):
                opts += ["--include", folder_of(f)]
        return opts
