"""The typedefs a project's file sees through its includes, for the rules.

A project names its counter types in its headers (typedef int32_t tick_t;), and the
rules know only the fixed names (int32_t, u32).  spatch binds an operand's type as it is
written, tick_t, even with the headers read for types.  So for each file with a compile
command the runner follows its #include lines through the folders its command searches,
within the tree, and gathers the headers' typedefs of a plain type; the rules read the
table (WRAPCMP_TYPEDEFS, a JSON file: {spatch's name of the file: {name: type}}) and
resolve a name there after their own file's typedefs.  A name that two headers define
differently (say in two #ifdef branches) is left out: its type is then not known, and
the rules leave such a site alone.
"""
import json
import os
import re

from .util import read_bytes

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\n]+)[">]', re.M)
TYPEDEF = re.compile(rb"\btypedef\s+((?:[A-Za-z_]\w*\s+)+?)([A-Za-z_]\w*)\s*;")
COMMENT = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
MAX_FILES = 2000	# headers followed per file


def inside(path, top):
    return path == top or path.startswith(top.rstrip("/") + "/")


class HeaderTypedefs:
    def __init__(self, tree, commands):
        self.tree, self.commands = os.path.realpath(tree), commands
        self.parsed = {}	# header path: (includes, {name: type})

    def _parse(self, path):
        if path not in self.parsed:
            try:
                data = COMMENT.sub(b" ", read_bytes(path))
            except OSError:
                data = b""
            incs = [(m.group(1) == b'"', m.group(2).strip().decode("utf-8", "replace"))
                    for m in INCLUDE.finditer(data)]
            defs = {}
            for m in TYPEDEF.finditer(data):
                name = m.group(2).decode("ascii")
                t = " ".join(m.group(1).decode("ascii").split())
                defs[name] = t if defs.get(name, t) == t else None
            self.parsed[path] = (incs, defs)
        return self.parsed[path]

    def _find(self, name, quote, here, entry):
        """The tree's file that #include "name" (quote) or <name> in the folder here
        reads, or None (not found, or outside the tree)."""
        dirs = ([here] if quote else []) + \
            (entry.search_dirs() if quote else entry.angle_dirs)
        for d in dirs:
            full = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(full):
                real = os.path.realpath(full)
                return real if inside(real, self.tree) else None
        return None

    def of(self, rel):
        """{name: type} of the headers rel includes, directly or not."""
        entry = self.commands.entry(rel)
        start = os.path.realpath(os.path.join(self.tree, rel))
        todo = [start] + [os.path.realpath(f) for f in entry.forced_includes
                          if os.path.isfile(f) and inside(os.path.realpath(f), self.tree)]
        seen, out = set(todo), {}
        while todo and len(seen) <= MAX_FILES:
            path = todo.pop(0)
            incs, defs = self._parse(path)
            if path != start:
                for name, t in defs.items():
                    out[name] = t if out.get(name, t) == t else None
            for quote, name in incs:
                found = self._find(name, quote, os.path.dirname(path), entry)
                if found and found not in seen:
                    seen.add(found)
                    todo.append(found)
        return {n: t for n, t in sorted(out.items()) if t is not None}


def write_table(path, tree, commands, files, spatch_name):
    """Write the table of files (tree paths) for the rules, each under spatch_name(rel)."""
    finder = HeaderTypedefs(tree, commands)
    table = {spatch_name(rel): finder.of(rel) for rel in files}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(table, f, sort_keys=True)
    return table
