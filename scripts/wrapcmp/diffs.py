"""The patched files as a unified diff.

The report pass's spatch patches too (--out-place, beside the snapshot's copies); here
each patched file gets back the bytes of the lines spatch did not change, line ends
included (keep_line_ends), and its diff against the snapshot carries the tree's name
(diff_label)."""
import difflib
import os
import re
import subprocess

from .sources import diff_label
from .util import Fatal, write_bytes

LINE = re.compile(rb"(?<=\n)")


def split_lines(data):
    """Lines with their ends; only '\\n' ends a line (a lone '\\r' does not)."""
    return [l for l in LINE.split(data) if l]


def content(line):
    """A line without its end: '\\n', and a '\\r' before it."""
    if line.endswith(b"\n"):
        line = line[:-1]
    return line[:-1] if line.endswith(b"\r") else line


def keep_line_ends(orig, new):
    """new, with every line it shares with orig (compared without line ends) byte for
    byte as in orig, and each line of its own ended as most lines of orig are.
    spatch 1.1.1 moves the '\\r' of a CRLF file from an untouched line to the line it
    adds after it; this puts every '\\r' back where the file wants it."""
    if b"\r" not in orig and b"\r" not in new:
        return new
    old_lines, new_lines = split_lines(orig), split_lines(new)
    crlf = sum(1 for l in old_lines if l.endswith(b"\r\n"))
    eol = b"\r\n" if crlf * 2 > len(old_lines) else b"\n"
    sm = difflib.SequenceMatcher(None, [content(l) for l in old_lines],
                                 [content(l) for l in new_lines], autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out.extend(old_lines[i1:i2])
        else:
            for l in new_lines[j1:j2]:
                out.append(content(l) + (eol if l.endswith(b"\n") else b""))
    return b"".join(out)


def unified_diff(work, snap, rel, new):
    """`diff -u` of the snapshot's copy of rel against new, with the tree's name.  Calls
    for different files may run at once (each writes its own scratch file)."""
    path = os.path.join(work, "diff-new-" + snap.ids[rel])
    write_bytes(path, new)
    try:
        p = subprocess.run(["diff", "-u", "--label", diff_label("a/" + rel), "--label",
                            diff_label("b/" + rel), snap.path(rel), path], capture_output=True)
    finally:
        os.unlink(path)
    if p.returncode == 0:
        return b""
    if p.returncode != 1:
        raise Fatal("diff failed on %s: %s" % (rel, p.stderr.decode(errors="replace")))
    return p.stdout


def new_file_diff(work, rel, data):
    """The diff that adds the file rel with the bytes data (a project's header)."""
    path = os.path.join(work, "diff-new-file")
    write_bytes(path, data)
    try:
        p = subprocess.run(["diff", "-u", "--label", "/dev/null", "--label",
                            diff_label("b/" + rel), "/dev/null", path], capture_output=True)
    finally:
        os.unlink(path)
    if p.returncode != 1:
        raise Fatal("diff failed on the new file %s: %s" % (rel, p.stderr.decode(errors="replace")))
    return p.stdout
