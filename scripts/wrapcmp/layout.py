"""The layout of the lines a rewrite changes, as a kernel maintainer would write them.

spatch 1.1.1 prints a rewritten expression again, with its own line breaks and
indentation: in fs/nfs/inode.c it turned

	return (long)(fattr->gencount - attr_gencount) > 0 ||
	       (long)(attr_gencount - nfs_read_attr_generation_counter()) > 0;

into three lines, the second indented with two tabs and the third with a tab and 21
spaces.  tidy() mends each block of changed lines, and nothing else:

  1. where the block got more lines than it had, a line that ends with "," "(" "&&" or
     "||" is joined with the next while the result fits in 80 columns;
  2. where it then has as many lines as before, each line gets the indentation of the
     line it replaces (the original's alignment, tabs or spaces);
  3. a line still over 80 columns, and longer than every line it replaces, that holds a
     helper call is broken after the call's comma, the second argument aligned under
     the first, when both lines then fit;
  4. an indentation of a tab and then 8 or more spaces becomes tabs and at most 7 spaces.

Only white space changes: a block whose text without white space would differ, or that
holds a comment, a string, a character constant or a preprocessor line, or that follows
a line ending with a backslash (a #define body), is left as spatch wrote it.
"""
import bisect
import collections
import difflib
import re

from .series_sites import columns, indent_to, leading, rewrap

WIDTH = 80
JOIN_AFTER = re.compile(r"(,|\(|&&|\|\|)$")
UNSAFE = re.compile(r"/\*|\*/|//|\"|'|\\$|^\s*#")


def squeezed(lines):
    return re.sub(r"\s+", "", "".join(lines))


def join_lines(new, want):
    """Step 1: join continuation lines of new until it has want lines or none fits."""
    new = list(new)
    while len(new) > want:
        for i in range(1, len(new)):
            head = new[i - 1].rstrip()
            if not JOIN_AFTER.search(head):
                continue
            joined = head + ("" if head.endswith("(") else " ") + new[i].strip()
            if columns(joined) <= WIDTH:
                new[i - 1:i + 1] = [joined]
                break
        else:
            break
    return new


def tidy_block(old, new):
    """The lines new with which a rewrite replaces old, laid out (see above)."""
    if any(UNSAFE.search(x) for x in old + new):
        return new
    out = join_lines(new, len(old)) if len(new) > len(old) else list(new)
    if len(out) == len(old):
        out = [leading(o) + n.lstrip(" \t") if n.strip() else n for o, n in zip(old, out)]
    longest = max([WIDTH] + [columns(o) for o in old])
    split = []
    for n in out:
        split += rewrap(n, longest, WIDTH) or [n]
    out = [indent_to(columns(leading(n))) + n.lstrip(" \t")
           if re.match(r"[ \t]*\t {8,}", n) else n for n in split]
    return out if squeezed(out) == squeezed(new) else new


def opcodes(a, b):
    """difflib's opcodes of the lines a -> b, made on the part between the lines both
    start and end with, cut at the lines that occur once in each (in order): a rewritten
    file differs in a few places, and SequenceMatcher without its junk heuristic is
    quadratic in a whole file (8 s of a profiled run on Linux 6.1's 114 files)."""
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    ea, eb = len(a) - tail, len(b) - tail
    count_a = collections.Counter(a[head:ea])
    count_b = collections.Counter(b[head:eb])
    at_b = {x: j for j, x in enumerate(b[head:eb], head) if count_b[x] == 1}
    pairs = [(i, at_b[x]) for i, x in enumerate(a[head:ea], head)
             if count_a[x] == 1 and x in at_b]
    anchors = increasing_run(pairs)
    out = [("equal", 0, head, 0, head)] if head else []
    i0, j0 = head, head
    for i, j in anchors + [(ea, eb)]:
        if (i0, j0) != (i, j):
            for op, i1, i2, j1, j2 in difflib.SequenceMatcher(
                    None, a[i0:i], b[j0:j], autojunk=False).get_opcodes():
                out.append((op, i0 + i1, i0 + i2, j0 + j1, j0 + j2))
        if (i, j) != (ea, eb):
            out.append(("equal", i, i + 1, j, j + 1))
        i0, j0 = i + 1, j + 1
    if tail:
        out.append(("equal", ea, len(a), eb, len(b)))
    merged = []
    for o in out:
        if merged and merged[-1][0] == o[0] == "equal":
            merged[-1] = ("equal", merged[-1][1], o[2], merged[-1][3], o[4])
        elif o[1] != o[2] or o[3] != o[4]:
            merged.append(o)
    return merged


def increasing_run(pairs):
    """The longest subsequence of pairs (in order of their first item) whose second
    items increase too."""
    tails, ends, links, best = [], [], [None] * len(pairs), []
    for k, (_, j) in enumerate(pairs):
        lo = bisect.bisect_left(ends, j)
        links[k] = tails[lo - 1] if lo else None
        if lo == len(tails):
            tails.append(k)
            ends.append(j)
        else:
            tails[lo], ends[lo] = k, j
    k = tails[-1] if tails else None
    while k is not None:
        best.append(pairs[k])
        k = links[k]
    return best[::-1]


def tidy(orig, new):
    """new (bytes, the rewritten file) with each changed block laid out by tidy_block."""
    a = orig.decode("latin-1").split("\n")
    b = new.decode("latin-1").split("\n")
    cr = [x.endswith("\r") for x in b]
    a = [x.rstrip("\r") for x in a]
    b = [x.rstrip("\r") for x in b]
    out = []
    for op, i1, i2, j1, j2 in opcodes(a, b):
        if op == "replace":
            in_define = j1 > 0 and b[j1 - 1].endswith("\\")
            block = b[j1:j2] if in_define else tidy_block(a[i1:i2], b[j1:j2])
            eol = "\r" if any(cr[j1:j2]) else ""
            out += [x + eol for x in block]
        else:
            out += [x + ("\r" if cr[j] else "") for j, x in zip(range(j1, j2), b[j1:j2])]
    return "\n".join(out).encode("latin-1")
