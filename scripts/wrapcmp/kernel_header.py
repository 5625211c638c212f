"""<linux/wrapcmp.h> in a kernel tree, and <linux/rcupdate.h> made to include it.

Linux's rcupdate.h defines ULONG_CMP_GE() and ULONG_CMP_LT() as macros that subtract in
the arguments' own type.  The header defines checked helpers of the same names, so the
tree's rcupdate.h must include the header instead of defining its own: otherwise an
rcupdate.h read after the header redefines them (a build error with -Werror, a warning
without).  The series' first patch makes that change, and `make coccicheck-install`
makes it in the tree it installs into."""
import os
import re

from .includes import HAS_HELPER
from .util import ROOT, Fatal

HEADER = "include/linux/wrapcmp.h"
RCU = "include/linux/rcupdate.h"
RCU_DEFINE = re.compile(r"#define\s+(ULONG_CMP_GE|ULONG_CMP_LT)\(")
UNDEF_BLOCK = re.compile(r"/\*\n \* <linux/rcupdate\.h> had macros.*?\*/\n#undef ULONG_CMP_GE\n"
                         r"#undef ULONG_CMP_LT\n\n", re.S)


def header_text(rcupdate_includes_it):
    """The header as the tree gets it: without its #undef of rcupdate.h's old macros
    when the tree's rcupdate.h includes it instead of defining them."""
    with open(os.path.join(ROOT, HEADER)) as f:
        text = f.read()
    return UNDEF_BLOCK.sub("", text) if rcupdate_includes_it else text


def reconciled_rcupdate(text):
    """rcupdate.h's text with its two #defines replaced by #include <linux/wrapcmp.h>
    after its last <linux/...> include before them; None when it has neither define
    (nothing to do) or already includes the header."""
    if "#include <linux/wrapcmp.h>" in text:
        return None
    lines = text.split("\n")
    defs = [i for i, l in enumerate(lines) if RCU_DEFINE.match(l)]
    if not defs:
        return None
    incs = [i for i, l in enumerate(lines[:defs[0]]) if l.startswith("#include <linux/")]
    for i in reversed(defs):
        del lines[i]
        # the defines stood alone between blank lines: leave one blank line, not two
        if 0 < i < len(lines) and lines[i] == "" and lines[i - 1] == "":
            del lines[i]
    lines.insert(incs[-1] + 1 if incs else defs[0], "#include <linux/wrapcmp.h>")
    return "\n".join(lines)


def install(kdir):
    """Put the header into the kernel tree kdir and reconcile its rcupdate.h.
    Returns what was done, as lines."""
    done = []
    rcu = os.path.join(kdir, RCU)
    if os.path.exists(rcu):
        with open(rcu) as f:
            new = reconciled_rcupdate(f.read())
        if new is not None:
            with open(rcu, "w") as f:
                f.write(new)
            done.append("%s includes <linux/wrapcmp.h> instead of defining "
                        "ULONG_CMP_GE/ULONG_CMP_LT" % RCU)
    dest = os.path.join(kdir, HEADER)
    text = header_text(os.path.exists(rcu))
    old = open(dest).read() if os.path.exists(dest) else None
    if old != text:
        with open(dest, "w") as f:
            f.write(text)
        done.append("%s %s" % (HEADER, "updated" if old is not None else "added"))
    return done


def build_alone(tree, new, original, callers=None):
    """{path: bytes}: what wrapcmp.diff adds besides the rewrites so that it builds when
    applied alone to a tree without the header, as the series' first patch does: the
    header, rcupdate.h including it instead of defining ULONG_CMP_GE()/ULONG_CMP_LT(),
    and the callers of those macros that the header's checked versions would refuse
    (two ints) renamed to UINT_CMP_*().  new: {path: bytes} of the rewritten files (a
    caller among them is renamed in its rewritten text); original(path): the tree's
    bytes; callers(): rcu_callers() of the tree, when the caller has it under way.  {}
    when the tree has the header already or no rewrite uses it."""
    from . import series_header	# it imports this module
    if os.path.exists(os.path.join(tree, HEADER)) or \
            not any(HAS_HELPER.search(data) for data in new.values()):
        return {}

    def text_of(rel):
        return (new[rel] if rel in new else original(rel)).decode("utf-8", "surrogateescape")
    out = {}
    reconciled = None
    if os.path.isfile(os.path.join(tree, RCU)):
        reconciled = reconciled_rcupdate(text_of(RCU))
    if reconciled is not None:
        out[RCU] = reconciled
    out[HEADER] = header_text(reconciled is not None)
    if reconciled is not None:
        found = callers() if callers else series_header.rcu_callers(tree)
        for rel, cs in series_header.callers_to_change(found).items():
            old = original(rel).decode("utf-8", "surrogateescape")
            if rel not in new:
                out[rel] = series_header.renamed_calls(old, cs)
                continue
            text = text_of(rel)
            for c in cs:	# the rewrite moved the offsets: rename by the call's text
                call = old[c["offset"]:c["end"]]
                whole = series_header.renamed_calls(old, [c])
                renamed = whole[c["offset"]:c["end"] + len(whole) - len(old)]
                if text.count(call) != 1:
                    raise Fatal("%s:%d: %s() with two ints must become %s() for the header "
                                "to build, but the rewritten file holds that call %d times; "
                                "rename it by hand or leave the file out (PATHS=)"
                                % (rel, c["line"], c["name"], c["change"], text.count(call)))
                text = text.replace(call, renamed)
            out[rel] = text
    return {rel: t.encode("utf-8", "surrogateescape") for rel, t in out.items()}
