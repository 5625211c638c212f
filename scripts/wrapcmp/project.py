"""Kernel tree or C project, and what a project's patch needs.

A tree is a kernel tree when its root has Kbuild, Kconfig and include/linux/; any other
tree is a project: userland, embedded or RTOS C built without the kernel's
-fno-strict-overflow, where the hazard is live.  HOSTED=yes|no overrides the guess.

In a kernel tree a rewritten file includes <linux/wrapcmp.h> (includes.py).  A project has
no such header, so there:

  - the helpers go into the project as one file, HEADER (a path in the tree), a copy of
    this repository's include/wrapcmp.h (C99, <stdint.h> and <limits.h> only, no kernel
    names); the diff adds it when the tree does not have it yet;
  - each patched file includes it as "...", spelled so that it resolves on that file's
    include path: from its compile command where it has one (its own folder, then
    -iquote, then -I, GCC's order for "..."), otherwise relative to the file;
  - the include goes after the file's own top-level "..." includes (includes.py);
  - nothing is reported-only by folder, and the kernel's own helpers (EXISTING=yes) do
    not exist.

The default HEADER is wrapcmp.h in the in-tree -I folder that most compile commands
share, else include/wrapcmp.h when the tree has include/, else wrapcmp.h at its top.
"""
import os
import posixpath
import re

from .util import Fatal, ROOT, read_bytes

# the header a project gets (WRAPCMP_HOSTED_HEADER: another one, for tests)
HOSTED_HEADER = os.environ.get("WRAPCMP_HOSTED_HEADER") or \
    os.path.join(ROOT, "include", "wrapcmp.h")
KERNEL_INCLUDE = b"#include <linux/wrapcmp.h>"
# a file that already includes the helpers, by any spelling that ends in wrapcmp.h
ANY_HELPER_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*["<](?:[^">\n]*/)?wrapcmp\.h[">]',
                                re.M)


def is_kernel_tree(tree):
    return all(os.path.exists(os.path.join(tree, p)) for p in ("Kbuild", "Kconfig")) and \
        os.path.isdir(os.path.join(tree, "include", "linux"))


def hosted_choice(value, tree):
    """True for a project, from HOSTED=yes|no|"" (guess from the tree)."""
    if value in (None, "", "auto"):
        return not is_kernel_tree(tree)
    if value in ("yes", "1", "y"):
        return True
    if value in ("no", "0", "n"):
        return False
    raise Fatal("HOSTED=%s: use yes, no, or leave it empty to decide from the tree" % value)


def inside(path, folder):
    path, folder = os.path.normpath(path), os.path.normpath(folder)
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def default_header(tree, commands):
    """(HEADER, why) for a project: see the module's docstring."""
    counts = {}
    real_tree = os.path.realpath(tree)
    if commands is not None:
        for rel in commands.files():
            e = commands.entry(rel)
            own = os.path.dirname(os.path.join(tree, rel))
            seen = set()
            for d in e.quote_dirs + e.angle_dirs:
                rd = os.path.realpath(d)
                if rd in seen or os.path.normpath(d) == os.path.normpath(own) or \
                        not inside(rd, real_tree) or not os.path.isdir(rd):
                    continue
                seen.add(rd)
                counts[os.path.relpath(rd, real_tree)] = \
                    counts.get(os.path.relpath(rd, real_tree), 0) + 1
    if counts:
        best = min(counts, key=lambda d: (-counts[d], d.count("/"), d))
        where = "" if best == "." else best + "/"
        return where + "wrapcmp.h", "the -I folder that %d of %d compile commands share" % (
            counts[best], len(commands.files()))
    if os.path.isdir(os.path.join(tree, "include")):
        return "include/wrapcmp.h", "the tree has include/"
    return "wrapcmp.h", "the tree's top folder"


def check_header_path(header, tree):
    """HEADER as a clean path in the tree, or Fatal."""
    h = posixpath.normpath(header.replace(os.sep, "/"))
    if header.startswith("/") or h.startswith("../") or h == ".." or not h.endswith(".h"):
        raise Fatal("HEADER=%s: give a path in the tree ending in .h, such as "
                    "include/wrapcmp.h" % header)
    full = os.path.join(tree, h)
    if os.path.isdir(full):
        raise Fatal("HEADER=%s is a folder in the tree" % header)
    return h


class Hosted:
    """A project's header and the include line each patched file gets."""

    def __init__(self, tree, header, why, commands=None):
        self.tree, self.commands = tree, commands
        self.header = check_header_path(header, tree)
        self.why = why
        self.text = read_bytes(HOSTED_HEADER)
        full = os.path.join(tree, self.header)
        self.present = os.path.isfile(full)
        if self.present:
            have = read_bytes(full)
            if b"U32_CMP_LT" not in have:
                raise Fatal("HEADER=%s exists in the tree and is not wrapcmp's header (it "
                            "has no U32_CMP_LT): give another HEADER=" % self.header)

    def spelling(self, rel):
        """How rel spells the header in #include "...": the shortest name under one of
        the folders its compile command searches for "..." (its own folder first) that
        no folder searched before it would take instead; else the path relative to
        rel's folder."""
        own = os.path.dirname(rel)
        target = os.path.normpath(os.path.join(self.tree, self.header))
        e = self.commands.entry(rel) if self.commands is not None else None
        folders = [os.path.join(self.tree, own)] + (list(e.quote_dirs) if e else [])
        names = []
        for i, d in enumerate(folders):
            d = os.path.normpath(d)
            if not inside(target, d):
                continue
            name = os.path.relpath(target, d).replace(os.sep, "/")
            if any(os.path.isfile(os.path.join(f, name)) for f in folders[:i]):
                continue	# an earlier folder has a file of that name
            names.append((name.count("/"), len(name), name, i))
        if e is not None and names:
            return min(names)[2]
        return posixpath.relpath(self.header, own or ".")

    def include_line(self, rel):
        return b'#include "%s"' % self.spelling(rel).encode()
