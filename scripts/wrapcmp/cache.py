"""The per-file result cache (CACHE=, --no-cache), so that a run after `git pull` costs
what changed.

Two caches, under CACHE (default $XDG_CACHE_HOME/wrapcmp, else ~/.cache/wrapcmp):

results/ab/KEY.json   what spatch said of one file in the one parse a file gets (its
                      findings, whether it parsed only in part, the patched copy) and
                      the #define scanner's findings.  KEY is the SHA-256 of everything
                      that decides them: the file's bytes; whether it is a .c or a .h
                      (spatch treats them differently); the text of the rules it is sent
                      to, joined as the runner joins them, and of the python modules they
                      import (cocci/wrapcmp_shared.py); spatch's version and the
                      python it runs the rules in (--python); the spatch options (patch
                      confidence, -D noinclude, -D existing, the fast pass's include
                      options); and this format's version.  Nothing
                      else is read: the rules run with --no-includes, so no other file
                      of the tree counts, and where #include <linux/wrapcmp.h> goes
                      depends on the file's own bytes only (includes.py).  The file's
                      path is not in the key: the same bytes give the same findings
                      anywhere (the runner fills in the path).  The typed pass
                      (TYPES=) reads headers, so its files are never cached.
trees/HASH.json       the prefilter's verdict per file of one tree (HASH: of its path),
                      reused while the file's size, modification and change times and
                      inode are those it had: the way git's index skips unchanged files.

An entry holds its own key and a checksum of its payload; one that does not parse, is
for another key, or fails its checksum is ignored and replaced, never trusted.  A failed
file is never cached.  Writes go to a temporary file renamed into place, so a run that
is killed leaves whole entries only, and two runs can share a cache.
"""
import functools
import hashlib
import json
import os
import subprocess
import tempfile

from .report_pass import SPATCH_PYTHON

FORMAT = "wrapcmp-cache-1"


def default_dir():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                        "wrapcmp")


@functools.lru_cache(maxsize=None)
def spatch_version():
    p = subprocess.run(["spatch", "--version"], capture_output=True, text=True)
    return " ".join(p.stdout.split("\n")[0].split())


def _sum(key, payload):
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((key + "\0" + text).encode("utf-8", "surrogateescape")).hexdigest()


def _write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as f:
            json.dump(obj, f, sort_keys=True, separators=(",", ":"))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Cache:
    """Results by content key; None as the folder turns the cache off."""

    def __init__(self, folder):
        self.dir = folder
        self.hits = self.misses = self.bad = 0
        self.spatch = spatch_version() if folder else ""

    def key(self, data, is_header, rules_text, options):
        h = hashlib.sha256()
        for part in (FORMAT, self.spatch, " ".join(SPATCH_PYTHON), "h" if is_header else "c",
                     rules_text, "\0".join(options)):
            h.update(part.encode("utf-8", "surrogateescape"))
            h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def _path(self, key):
        return os.path.join(self.dir, "results", key[:2], key + ".json")

    def get(self, key):
        """The payload stored under key, or None (absent, corrupt or foreign)."""
        if not self.dir:
            return None
        try:
            with open(self._path(key), encoding="utf-8", errors="surrogateescape") as f:
                entry = json.load(f)
            if entry.get("key") == key and entry.get("sum") == _sum(key, entry["payload"]):
                self.hits += 1
                return entry["payload"]
            self.bad += 1
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            self.bad += 1
        self.misses += 1
        return None

    def put(self, key, payload):
        if not self.dir:
            return
        try:
            _write_json(self._path(key), {"key": key, "payload": payload,
                                          "sum": _sum(key, payload)})
        except OSError:
            pass	# a cache that cannot be written is no cache, not an error

    # ------------------------------------------------------------ prefilter verdicts

    def _tree_path(self, tree):
        return os.path.join(self.dir, "trees",
                            hashlib.sha256(os.fsencode(tree)).hexdigest() + ".json")

    def tree_stats(self, tree, salt):
        """{file: [size, mtime_ns, ctime_ns, inode, kinds]} of the tree's last run with the
        prefilter of digest salt."""
        if not self.dir:
            return {}
        try:
            with open(self._tree_path(tree), encoding="utf-8", errors="surrogateescape") as f:
                entry = json.load(f)
            if entry.get("tree") == tree and entry.get("format") == FORMAT + salt and \
                    entry.get("sum") == _sum(tree, entry["files"]):
                return entry["files"]
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass
        return {}

    def put_tree_stats(self, tree, salt, files):
        if not self.dir:
            return
        try:
            _write_json(self._tree_path(tree), {"tree": tree, "format": FORMAT + salt,
                                                "files": files, "sum": _sum(tree, files)})
        except OSError:
            pass


def stat_key(path):
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def tree_digest(tree, files):
    """One digest of the size, times and inode of every file given (the tree's .c and .h
    files): a typed pass reads headers the file names, so its cache key holds the state
    of all of them; any change to any of them is a new key."""
    h = hashlib.sha256()
    for rel in files:
        try:
            st = stat_key(os.path.join(tree, rel))
        except OSError:
            st = None
        h.update(("%s\0%r\0" % (rel, st)).encode("utf-8", "surrogateescape"))
    return h.hexdigest()
