"""#include <linux/wrapcmp.h> where the runner's rewrites need it.

spatch 1.1.1 can add a line only after the last #include of a kind in a file, so the
rules alone leave sites unrewritten where that include comes after the first function
(include/net/tcp.h, arch/x86/kernel/hpet.c) or where a file has no #include at all
(kernel/sched/clock.c, which kernel/sched/build_utility.c includes).  The runner runs
the rules with -D noinclude and places the include itself, once per file:

  1. after the last #include <linux/...> of the file's top level (inside its include
     guard, outside any other #if) that comes before its first function (never after a
     trace header that follows #define CREATE_TRACE_POINTS: it defines tracepoints);
  2. else after the last such #include <...>;
  3. else before the first such #include "...", so that it stays with the system
     includes;
  4. else at the top: after the include guard's #define in a header, after the
     leading comment block in a .c file.

A file that already includes the header gets nothing, so a second run changes nothing.
The new line ends the way most lines of the file end (CRLF files stay CRLF), and is spelled
as the include next to it is ("# include" among "# include" lines).

In a project (project.py) the line is #include "..." with the spelling the file needs, and
it goes with the project's own includes: after the last top-level #include "..." before
the first function, else after the last #include <...>, else as in 4.
"""
import functools
import os
import re

from .macro_scan import blank

HELPER = b"#include <linux/wrapcmp.h>"
CALL = re.compile(rb"\b(?:U8|U16|U32|U64|UINT|ULONG)_CMP_(?:LT|LE|GT|GE)(?:_WIDE)?\s*\(")
HAS_HELPER = re.compile(rb"^[ \t]*#[ \t]*include[ \t]*<linux/wrapcmp\.h>", re.M)
DIRECTIVE = re.compile(r"[ \t]*#[ \t]*(\w*)(.*)")
INCLUDE = re.compile(r"[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"]*)[>\"]")
TRACE_HEADER = re.compile(r"(^|/)trace/|trace[^/]*\.h$")
SPELLING = re.compile(rb"([ \t]*#[ \t]*)include\b")


def logical_lines(text):
    """[(first line index, last line index, joined text)] with backslash-newlines joined."""
    raw = text.split("\n")
    out, i = [], 0
    while i < len(raw):
        j, parts = i, [raw[i]]
        while parts[-1].rstrip("\r").endswith("\\") and j + 1 < len(raw):
            j += 1
            parts.append(raw[j])
        out.append((i, j, " ".join(p.rstrip("\r")[:-1] if k < len(parts) - 1 else p
                                   for k, p in enumerate(parts))))
        i = j + 1
    return out


@functools.lru_cache(maxsize=512)
def top_level(data):
    """(include lines as (index, kind, name), index of the line holding the first
    function body's '{' or None, index of the include guard's #define or None): the
    includes are those at the file's top level, before the first function.  Kept for
    the bytes it was given: the runner asks again for each file that includes a header
    (4.3 s of Linux 6.12's run, for 494 calls, before)."""
    text = data.decode("latin-1")
    clean = blank(text)
    lines = logical_lines(clean)
    orig = text.split("\n")
    depth, base, guard_define, first_directives = 0, 0, None, []
    incs, brace, last_code, tracing = [], 0, "", False
    for first, last, line in lines:
        d = DIRECTIVE.match(line)
        if d:
            word, rest = d.group(1), d.group(2).split()
            if len(first_directives) < 2:
                first_directives.append((word, rest[0] if rest else "", first))
                if len(first_directives) == 2 and first_directives[0][0] == "ifndef" and \
                        first_directives[1][0] == "define" and \
                        first_directives[0][1] == first_directives[1][1]:
                    base, guard_define = 1, first
            if word == "define" and rest[:1] == ["CREATE_TRACE_POINTS"]:
                tracing = True
            if word in ("if", "ifdef", "ifndef"):
                depth += 1
            elif word == "endif":
                depth -= 1
            elif word == "include" and depth == base and brace == 0:
                m = INCLUDE.match(orig[first].rstrip("\r"))
                # a trace header after CREATE_TRACE_POINTS defines tracepoints: never
                # the place for the include
                if m and not (tracing and TRACE_HEADER.search(m.group(2))):
                    incs.append((first, m.group(1), m.group(2)))
            continue
        for k, ch in enumerate(line):
            if ch == "{":
                if brace == 0 and last_code.endswith(")"):
                    return tuple(incs), first + line[:k].count("\n"), guard_define
                brace += 1
            elif ch == "}":
                brace = max(0, brace - 1)
            if not ch.isspace():
                last_code = last_code[-200:] + ch
    return tuple(incs), None, guard_define


def leading_comment_end(lines):
    """Index of the first line after a file's opening: its // lines and its SPDX line, one
    /* */ block (the file's description) and the blank lines after them.  A second
    comment block belongs to the code it precedes."""
    i, n = 0, len(lines)

    def text(k):
        return lines[k].decode("latin-1").strip()
    while i < n and (not text(i) or text(i).startswith("//") or
                     text(i).startswith("/*") and "SPDX-License-Identifier" in text(i) and
                     text(i).endswith("*/")):
        i += 1
    if i < n and text(i).startswith("/*"):
        while i < n and "*/" not in text(i)[2 if text(i).startswith("/*") else 0:]:
            i += 1
        if i < n and text(i)[text(i).rindex("*/") + 2:].strip():
            return i	# code after the comment on its line
        i += 1
        while i < n and not text(i):
            i += 1
    return i


def add_helper_include(data, line=HELPER, has=HAS_HELPER):
    """(new bytes, how the place was chosen), or (data, None) when the file already
    includes the header.  line: the #include to add; a local one ("...") goes with the
    file's own local includes; has: what says the file already includes the header."""
    if has.search(data):
        return data, None
    local_line = line.split(b"include", 1)[1].strip().startswith(b'"')
    lines = data.split(b"\n")
    crlf = sum(1 for l in lines if l.endswith(b"\r"))
    eol = b"\r\n" if crlf * 2 > len(lines) - 1 else b"\n"
    incs, func, guard = top_level(data)
    linux = [i for i, kind, name in incs if kind == "<" and name.startswith("linux/")]
    angle = [i for i, kind, name in incs if kind == "<"]
    local = [i for i, kind, name in incs if kind == '"']
    if local_line and local:
        at, how, blank_after = max(local) + 1, "after the last #include \"...\"", False
    elif local_line and angle:
        at, how, blank_after = max(angle) + 1, "after the last #include <...>", False
    elif linux:
        at, how, blank_after = max(linux) + 1, "after the last #include <linux/...>", False
    elif angle:
        at, how, blank_after = max(angle) + 1, "after the last #include <...>", False
    elif local:
        at, how, blank_after = min(local), "before the first #include \"...\"", True
    elif guard is not None:
        at, how, blank_after = guard + 1, "after the include guard", True
    else:
        at, how, blank_after = leading_comment_end(lines), "at the top", True
    # the file's own spelling of the directive ("# include" among "# include" lines)
    near = [i for i, _, _ in incs if i in (at - 1, at)]
    if near:
        m = SPELLING.match(lines[near[0]])
        if m and m.group(1) != b"#":
            line = m.group(1) + line[1:]
    cr = b"\r" if eol == b"\r\n" else b""
    if lines[-1] == b"":
        at = min(at, len(lines) - 1)	# not after the file's final newline
    elif at >= len(lines):
        lines[-1] += eol[:-1]		# the last line gets an end, as lines before it
        lines.append(b"")
        at = len(lines) - 1
    new = [line + cr]
    if blank_after and lines[at].strip(b"\r"):
        new.append(cr)
    return b"\n".join(lines[:at] + new + lines[at:]), how


def uses_more_helpers(old, new):
    """True when new calls the header's helpers more often than old: it needs the header."""
    return len(CALL.findall(new)) > len(CALL.findall(old))


# ---------------------------------------------------------------- where the kernel wants it

def local_headers(rel, data):
    """The tree paths of the headers data (the file rel) includes with "..." at its top
    level, resolved against its own folder."""
    d = os.path.dirname(rel)
    return [os.path.normpath(os.path.join(d, name)) for _, kind, name in top_level(data)[0]
            if kind == '"' and name.endswith(".h")]


def provider_header(rel, data, text_of):
    """A header that the file includes with "..." whose text (text_of(path): bytes after
    the run, None when no such file) includes <linux/wrapcmp.h> at its top level: the
    file needs no include of its own (net/rxrpc/peer_event.c and ar-internal.h).  None
    when there is none."""
    for h in local_headers(rel, data):
        text = text_of(h)
        if text is not None and any(kind == "<" and name == "linux/wrapcmp.h"
                                    for _, kind, name in top_level(text)[0]):
            return h
    return None


SPDX = re.compile(rb"SPDX-License-Identifier:[ \t]*([^\r\n*]*)")


def shared_with_other_os(data):
    """Why a kernel file is reported, not rewritten, when it is code shared with another
    system: it is dual-licensed (its SPDX line has OR) and includes only its own headers
    with "...", its <...> ones coming through an OS header such as irdma's osdep.h.
    <linux/wrapcmp.h> does not exist on the other system, so a maintainer would add the
    helper to that OS header, not here.  None for any other file."""
    m = SPDX.search(data[:4096])
    licence = m.group(1).decode("latin-1").strip() if m else ""
    if not re.search(r"\sOR\s", licence, re.I):
        return None
    incs = top_level(data)[0]
    if not incs or any(kind != '"' for _, kind, _ in incs):
        return None
    return ("the file is dual-licensed (%s) and includes only its own headers (%s first), "
            "so it is shared with another system, which has no <linux/wrapcmp.h>"
            % (" ".join(licence.split()), incs[0][2]))


def built_alone(tree, rel):
    """True when the folder's Makefile names rel's object: the .c file is compiled on its
    own, whatever else #includes it."""
    stem = os.path.splitext(os.path.basename(rel))[0]
    for mk in ("Makefile", "Kbuild"):
        try:
            with open(os.path.join(tree, os.path.dirname(rel), mk), errors="replace") as f:
                if re.search(r"(^|[\s=+/])%s\.o\b" % re.escape(stem), f.read(), re.M):
                    return True
        except OSError:
            pass
    return False


def includer_of(tree, rel):
    """The one .c file of rel's folder that #includes the .c file rel (by any spelling:
    kernel/sched/build_utility.c has #include "clock.c"), when rel is built only through
    it; else None (also when several do: host1x01.c to host1x07.c all include
    hw/cdma_hw.c, which then keeps the include itself)."""
    if not rel.endswith(".c") or built_alone(tree, rel):
        return None
    from .buildfiles import includers
    found = includers(tree, rel, limit=2)
    return found[0] if len(found) == 1 else None


def includes_line(data, rel_name):
    """The index of the line of data that #includes "rel_name", or None."""
    inc = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"%s"' % re.escape(rel_name.encode()))
    for i, line in enumerate(data.split(b"\n")):
        if inc.match(line):
            return i
    return None


def place_kernel_includes(tree, new, needs, original):
    """Give the files of needs (of new: {path: bytes after the run}) the include the
    kernel way: headers first; none in a file whose own "..." header has it; a .c file
    built only through the .c file that #includes it gets it in that file, before that
    #include.  original(path): the tree's bytes of a file the run did not change.
    Changes new in place."""
    def text_of(path):
        if path in new:
            return new[path]
        full = os.path.join(tree, path)
        if path.startswith(("../", "/")) or os.path.islink(full) or not os.path.isfile(full):
            return None
        return original(path)
    for rel in sorted(needs, key=lambda r: (not r.endswith(".h"), r)):
        if provider_header(rel, new[rel], text_of):
            continue
        inc = includer_of(tree, rel)
        data = text_of(inc) if inc else None
        if data is not None:
            res, how = add_helper_include(data)
            at = includes_line(res, os.path.basename(rel))
            added = next((i for i, l in enumerate(res.split(b"\n")) if HAS_HELPER.match(l)),
                         None)
            if at is not None and added is not None and added < at:
                if how is not None:
                    new[inc] = res
                continue
        new[rel] = add_helper_include(new[rel])[0]
