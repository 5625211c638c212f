"""The tree's sources, and the snapshot the spatch passes read.

A tree is input, not code: no name of a file in it ever reaches a shell, and
spatch never sees one.  spatch 1.1.1 runs `diff` through a shell with the file
name unquoted in patch mode, so a file named `$(cmd).c` would run cmd, and names
with spaces or quotes would lose their patch.  The runner therefore copies each
file it sends to spatch into a scratch folder under a generated name
(`000123.c`), reads every result there, and maps the names back.  The copies
are also a snapshot: every pass reads the same bytes, and a file that changes
in the tree while the run reads it is caught at the end (`changed()`).
"""
import hashlib
import os
import shutil
import subprocess
import tempfile

from .util import Fatal, log, read_bytes

DEFAULT_TREE = "/var/cache/wrapcmp/linux-source-6.1"
DEFAULT_TARBALL = "/usr/src/linux-source-6.1.tar.xz"


def ensure_default_tree(tree=DEFAULT_TREE):
    """Unpack Debian's linux-source-6.1 tarball into the cache folder on first use."""
    if os.path.isdir(tree):
        return
    if not os.path.exists(DEFAULT_TARBALL):
        raise Fatal("default tree %s is missing and %s is not installed: run "
                    "'apt-get install linux-source-6.1' (or 'make install-deps' as root), "
                    "or give TREE=/path/to/linux" % (tree, DEFAULT_TARBALL))
    parent = os.path.dirname(tree)
    try:
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".unpack-", dir=parent)
    except OSError as e:
        raise Fatal("cannot create the cache folder %s (%s): create it writable for this "
                    "user, or run once as root, or give TREE=/path/to/linux" % (parent, e))
    log("unpacking %s into %s (first use)" % (DEFAULT_TARBALL, parent))
    try:
        subprocess.run(["tar", "-xJf", DEFAULT_TARBALL, "-C", tmp], check=True)
        os.rename(os.path.join(tmp, os.path.basename(tree)), tree)
    except (subprocess.CalledProcessError, OSError) as e:
        raise Fatal("unpacking %s failed: %s" % (DEFAULT_TARBALL, e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def is_source(name):
    return name.endswith((".c", ".h"))


def byte_order(rel):
    return os.fsencode(rel)


def list_sources(tree, paths=None):
    """Every regular .c and .h file under tree (or under the given paths, relative to
    it), relative, sorted in byte order.  Symbolic links are not followed, neither to
    files nor to folders (a loop is harmless), and a folder named x.c is a folder."""
    tops = []
    for p in paths or [""]:
        full = os.path.normpath(os.path.join(tree, p))
        if full != tree and not full.startswith(tree.rstrip("/") + "/"):
            raise Fatal("PATHS: %s is not inside the tree %s" % (p, tree))
        if os.path.islink(full) or not os.path.exists(full):
            raise Fatal("PATHS: %s does not exist in %s" % (p, tree))
        tops.append(full)
    files = set()
    for top in tops:
        if os.path.isfile(top):
            if not is_source(top):
                raise Fatal("PATHS: %s is not a .c or .h file" % os.path.relpath(top, tree))
            files.add(os.path.relpath(top, tree))
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = [d for d in dirnames if not d.startswith(".git")]
            for f in filenames:
                if is_source(f):
                    full = os.path.join(dirpath, f)
                    if not os.path.islink(full) and os.path.isfile(full):
                        files.add(os.path.relpath(full, tree))
    return sorted(files, key=byte_order)


def digest(data):
    return hashlib.sha256(data).hexdigest()


class Snapshot:
    """Copies of some files of the tree under generated names in one folder.

    ids[rel] is the copy's name ("000123.c"), rel_of[id] the tree path; spatch runs in
    self.dir on the ids only.  A file that cannot be read goes to self.unreadable."""

    def __init__(self, tree, folder, files):
        self.tree, self.dir = tree, folder
        os.makedirs(folder, exist_ok=True)
        self.ids, self.rel_of, self.sums, self.unreadable = {}, {}, {}, {}
        for rel in files:
            self.add(rel)

    def add(self, rel):
        """Copy the tree's file rel in (once); False when it cannot be read."""
        if rel in self.ids:
            return True
        sid = "%06d%s" % (len(self.ids), ".h" if rel.endswith(".h") else ".c")
        try:
            data = read_bytes(os.path.join(self.tree, rel))
        except OSError as e:
            self.unreadable[rel] = "cannot read: %s" % (e.strerror or e)
            return False
        with open(os.path.join(self.dir, sid), "wb") as f:
            f.write(data)
        self.ids[rel] = sid
        self.rel_of[sid] = rel
        self.sums[rel] = digest(data)
        return True

    def path(self, rel):
        return os.path.join(self.dir, self.ids[rel])

    def size(self, sid):
        """The size in bytes of the copy named sid."""
        return os.path.getsize(os.path.join(self.dir, sid))

    def data(self, rel):
        return read_bytes(self.path(rel))

    def rel(self, name):
        """The tree path of a name spatch printed: an id, perhaps with ./ or the
        snapshot folder before it.  None for any other name."""
        if os.path.dirname(name) not in ("", ".", self.dir):
            return None
        return self.rel_of.get(os.path.basename(name))

    def changed(self):
        """Files whose bytes in the tree are no longer those of the snapshot."""
        out = []
        for rel, s in self.sums.items():
            try:
                same = digest(read_bytes(os.path.join(self.tree, rel))) == s
            except OSError:
                same = False
            if not same:
                out.append(rel)
        return sorted(out, key=byte_order)


def git_quote(raw):
    """C-style quoting of a name's bytes, as git writes names it has to quote."""
    out = ['"']
    for b in raw:
        if b in b'"\\':
            out.append("\\" + chr(b))
        elif b == 9:
            out.append("\\t")
        elif b == 10:
            out.append("\\n")
        elif b < 32 or b > 126:
            out.append("\\%03o" % b)
        else:
            out.append(chr(b))
    return "".join(out) + '"'


def report_name(path):
    """A file name as report.txt and summary.txt show it: as it is, unless it holds a
    control character, a quote or a backslash, or is not UTF-8; then quoted as git
    quotes names, so that every finding stays on one line."""
    raw = os.fsencode(path)
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return git_quote(raw)
    if any(b in b'"\\' or b < 32 or b == 127 for b in raw):
        return git_quote(raw)
    return path


def diff_label(path):
    """A file name as `diff` headers must carry it for both `git apply` and GNU patch:
    git's quoting ("a/q\\"uote.c", octal escapes for control and non-ASCII bytes) when
    the name needs it, and a tab after a name with a space, as git writes it."""
    raw = os.fsencode(path)
    if not any(b in b'"\\' or b < 32 or b > 126 for b in raw):
        return path + ("\t" if " " in path else "")
    return git_quote(raw)


if __name__ == "__main__":	# make kernel-tree: cd scripts && python3 -m wrapcmp.sources
    import sys
    try:
        ensure_default_tree()
    except Fatal as e:
        sys.exit("kernel-tree: %s" % e)
