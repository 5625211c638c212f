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


def tidy(orig, new):
    """new (bytes, the rewritten file) with each changed block laid out by tidy_block."""
    a = orig.decode("latin-1").split("\n")
    b = new.decode("latin-1").split("\n")
    cr = [x.endswith("\r") for x in b]
    a = [x.rstrip("\r") for x in a]
    b = [x.rstrip("\r") for x in b]
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace":
            in_define = j1 > 0 and b[j1 - 1].endswith("\\")
            block = b[j1:j2] if in_define else tidy_block(a[i1:i2], b[j1:j2])
            eol = "\r" if any(cr[j1:j2]) else ""
            out += [x + eol for x in block]
        else:
            out += [x + ("\r" if cr[j] else "") for j, x in zip(range(j1, j2), b[j1:j2])]
    return "\n".join(out).encode("latin-1")
