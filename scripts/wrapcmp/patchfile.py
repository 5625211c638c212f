"""Reading a patch: git format-patch output (an mbox of one or more patches) or plain
`git diff` / `diff -u` output, into files, hunks and the lines each patch adds.  File
names are data: git's C quoting is undone, and none ever reaches a shell."""
import os
import re

from .sources import report_name

MBOX_FROM = re.compile(rb"From [0-9a-f]{40} ")
HUNK = re.compile(rb"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
GIT_HEADER = (b"old mode ", b"new mode ", b"deleted file mode ", b"new file mode ",
              b"copy from ", b"copy to ", b"rename from ", b"rename to ",
              b"similarity index ", b"dissimilarity index ", b"index ")


class PatchError(Exception):
    """The patch cannot be read or does not apply: exit 2."""


# ------------------------------------------------------------------ reading the patch

def split_lines(data):
    """Lines with their '\\n' ends."""
    return data.splitlines(keepends=True) if b"\r" not in data else \
        [l for l in re.split(rb"(?<=\n)", data) if l]


def line_end_stripped(line):
    return line[:-1] if line.endswith(b"\n") else line


def c_unquote(s, what):
    """A git-quoted name ("a/q\\"uote.c") as bytes; s starts with the opening quote.
    Returns (name, the rest of s after the closing quote)."""
    out, i = bytearray(), 1
    esc = {ord("a"): 7, ord("b"): 8, ord("t"): 9, ord("n"): 10, ord("v"): 11, ord("f"): 12,
           ord("r"): 13, ord('"'): 34, ord("\\"): 92}
    while i < len(s):
        c = s[i]
        if c == 34:
            return bytes(out), s[i + 1:]
        if c == 92 and i + 1 < len(s):
            d = s[i + 1]
            if d in esc:
                out.append(esc[d])
                i += 2
                continue
            m = re.match(rb"[0-3][0-7][0-7]", s[i + 1:i + 4])
            if m:
                out.append(int(m.group(0), 8))
                i += 4
                continue
            raise PatchError("%s: bad escape in a quoted file name" % what)
        out.append(c)
        i += 1
    raise PatchError("%s: a quoted file name has no closing quote" % what)


def strip_components(name, p, what):
    if name is None:
        return None
    parts = name.split(b"/")
    if len(parts) <= p:
        raise PatchError("%s: the file name %s has fewer than %d leading folder(s) to strip "
                         "(-p%d)" % (what, name.decode("utf-8", "replace"), p, p))
    return b"/".join(parts[p:])


def header_name(field, p, what):
    """The name in a ---/+++ line's field (after '--- '), -p stripped; None for /dev/null."""
    field = line_end_stripped(field)
    if field.startswith(b'"'):
        name = c_unquote(field, what)[0]
    else:
        name = field.split(b"\t", 1)[0] if b"\t" in field else field.rstrip(b"\r")
    if name == b"/dev/null":
        return None
    return strip_components(name, p, what)


def git_line_names(rest, p, what):
    """The two names of a 'diff --git A B' line, -p stripped, when they can be told apart."""
    rest = line_end_stripped(rest).rstrip(b"\r")
    if rest.startswith(b'"'):
        a, tail = c_unquote(rest, what)
        tail = tail.lstrip(b" ")
        b = c_unquote(tail, what)[0] if tail.startswith(b'"') else tail
        return strip_components(a, p, what), strip_components(b, p, what)
    if rest.endswith(b'"'):
        k = rest.index(b' "')
        return strip_components(rest[:k], p, what), \
            strip_components(c_unquote(rest[k + 1:], what)[0], p, what)
    h = (len(rest) - 1) // 2
    if len(rest) % 2 == 1 and rest[h:h + 1] == b" ":
        a, b = strip_components(rest[:h], p, what), strip_components(rest[h + 1:], p, what)
        if a == b:
            return a, b
    return None, None


class Hunk:
    def __init__(self, header, old_start, old_len, new_start, new_len):
        self.header = header
        self.old_start, self.old_len = old_start, old_len
        self.new_start, self.new_len = new_start, new_len
        self.body = []		# [(' ' | '-' | '+', line bytes with its end, if any)]


class FileDiff:
    def __init__(self, start):
        self.start = start		# index of its first line in the patch's lines
        self.hunks_at = None		# index of its first hunk line (or where hunks would go)
        self.end = None			# index after its last line
        self.old = self.new = None	# tree paths (str), None for /dev/null
        self.copy = False
        self.binary = False
        self.index_line = None		# index of its 'index ' line
        self.hunks = []

    def label(self):
        return report_name(self.new or self.old or "?")


class Patch:
    def __init__(self, number, data):
        self.number, self.data = number, data
        self.lines = split_lines(data)
        self.files = []
        self.subject = None


def read_hunks(lines, i, fd, what):
    """Read the hunks starting at lines[i]; return the index after them."""
    while i < len(lines) and lines[i].startswith(b"@@ "):
        m = HUNK.match(lines[i])
        if not m:
            raise PatchError("%s: line %d: a hunk header that cannot be read: %s"
                             % (what, i + 1, lines[i].decode("utf-8", "replace").rstrip()))
        ol = 1 if m.group(2) is None else int(m.group(2))
        nl = 1 if m.group(4) is None else int(m.group(4))
        h = Hunk(m.group(0).decode(), int(m.group(1)), ol, int(m.group(3)), nl)
        hw = "%s: %s: hunk %d (%s)" % (what, fd.label(), len(fd.hunks) + 1, h.header)
        fd.hunks.append(h)
        i += 1
        o, n = ol, nl
        while o > 0 or n > 0:
            if i >= len(lines):
                raise PatchError("%s is cut short: the patch ends with %d old and %d new "
                                 "line(s) of it missing" % (hw, o, n))
            line = lines[i]
            tag = line[:1]
            if tag == b"\\":
                if not h.body:
                    raise PatchError("%s: line %d: '\\' before any line" % (hw, i + 1))
                t, c = h.body[-1]
                h.body[-1] = (t, c[:-1] if c.endswith(b"\n") else c)
            elif tag in (b" ", b"\n") or line == b"\r\n":
                h.body.append((" ", line[1:] if tag == b" " else line))
                o, n = o - 1, n - 1
            elif tag == b"-":
                h.body.append(("-", line[1:]))
                o -= 1
            elif tag == b"+":
                h.body.append(("+", line[1:]))
                n -= 1
            else:
                raise PatchError("%s: line %d does not belong to a hunk (%d old and %d new "
                                 "line(s) still expected): %s" % (
                                     hw, i + 1, o, n,
                                     line.decode("utf-8", "replace").rstrip()[:80]))
            if o < 0 or n < 0:
                raise PatchError("%s: line %d: more lines than the hunk header says"
                                 % (hw, i + 1))
            i += 1
        if i < len(lines) and lines[i].startswith(b"\\"):
            t, c = h.body[-1]
            h.body[-1] = (t, c[:-1] if c.endswith(b"\n") else c)
            i += 1
    return i


def parse_patch(patch, p, what):
    """Find the file diffs of one patch (git or traditional)."""
    lines = patch.lines
    i = 0
    while i < len(lines):
        line = lines[i]
        if patch.subject is None and line.startswith(b"Subject: ") and not patch.files:
            patch.subject = line_end_stripped(line)[9:].decode("utf-8", "replace").strip()
        if line.startswith(b"diff --git "):
            fd = FileDiff(i)
            a, b = git_line_names(line[len(b"diff --git "):], p, what)
            fd.old = fd.new = None
            names = {"a": a, "b": b}
            i += 1
            renamed = {}
            while i < len(lines) and lines[i].startswith(GIT_HEADER):
                h = line_end_stripped(lines[i]).rstrip(b"\r")
                for key in (b"rename from ", b"rename to ", b"copy from ", b"copy to "):
                    if h.startswith(key):
                        v = h[len(key):]
                        renamed[key] = c_unquote(v, what)[0] if v.startswith(b'"') else v
                if h.startswith(b"copy "):
                    fd.copy = True
                if h.startswith(b"index "):
                    fd.index_line = i
                if h.startswith(b"new file mode "):
                    names["a"] = None
                if h.startswith(b"deleted file mode "):
                    names["b"] = None
                i += 1
            old = renamed.get(b"rename from ", renamed.get(b"copy from ", names["a"]))
            new = renamed.get(b"rename to ", renamed.get(b"copy to ", names["b"]))
            if i < len(lines) and (lines[i].startswith(b"Binary files ") or
                                   lines[i].startswith(b"GIT binary patch")):
                fd.binary = True
                i += 1
                while i < len(lines) and not lines[i].startswith(b"diff --git ") and \
                        not MBOX_FROM.match(lines[i]) and lines[i] != b"-- \n":
                    i += 1
            elif i + 1 < len(lines) and lines[i].startswith(b"--- ") and \
                    lines[i + 1].startswith(b"+++ "):
                old = header_name(lines[i][4:], p, what)
                new = header_name(lines[i + 1][4:], p, what)
                i += 2
            fd.old = os.fsdecode(old) if old is not None else None
            fd.new = os.fsdecode(new) if new is not None else None
            if fd.old is None and fd.new is None:
                raise PatchError("%s: line %d: cannot read the file names of '%s'" % (
                    what, fd.start + 1,
                    line_end_stripped(line).decode("utf-8", "replace")))
            fd.hunks_at = i
            i = read_hunks(lines, i, fd, what)
            fd.end = i
            patch.files.append(fd)
            continue
        if line.startswith(b"--- ") and i + 2 < len(lines) and \
                lines[i + 1].startswith(b"+++ ") and lines[i + 2].startswith(b"@@ "):
            fd = FileDiff(i)
            old = header_name(line[4:], p, what)
            new = header_name(lines[i + 1][4:], p, what)
            fd.old = os.fsdecode(old) if old is not None else None
            fd.new = os.fsdecode(new) if new is not None else None
            i += 2
            fd.hunks_at = i
            i = read_hunks(lines, i, fd, what)
            fd.end = i
            patch.files.append(fd)
            continue
        i += 1


def split_patches(data):
    """mbox: a patch begins at each 'From <sha1> ' line; else the whole input is one."""
    lines = split_lines(data)
    starts = [0]
    pos = 0
    for line in lines:
        if MBOX_FROM.match(line) and pos:
            starts.append(pos)
        pos += len(line)
    starts.append(len(data))
    return [data[a:b] for a, b in zip(starts, starts[1:]) if a < b]


def read_patches(data, p, name):
    if not data.strip():
        raise PatchError("%s is empty: no patch to check" % name)
    patches = []
    for k, chunk in enumerate(split_patches(data)):
        patch = Patch(k + 1, chunk)
        parse_patch(patch, p, name if k == 0 and len(chunk) == len(data)
                    else "%s (patch %d)" % (name, k + 1))
        if patch.files:
            patches.append(patch)
    if not patches:
        raise PatchError("%s is not a patch: it holds no diff ('diff --git' or '--- / +++ / "
                         "@@' lines)" % name)
    for k, patch in enumerate(patches):
        patch.number = k + 1
    return patches


def check_name(name, what):
    """A path from the patch must stay inside the tree (and out of .git)."""
    parts = name.split("/")
    if not name or name.startswith("/") or any(c in ("", ".", "..", ".git") for c in parts):
        raise PatchError("%s: the file name %s is not a plain path inside the tree "
                         "(absolute, empty, or with '.', '..' or '.git' in it)"
                         % (what, report_name(name)))


# ------------------------------------------------------------------ applying it in scratch
