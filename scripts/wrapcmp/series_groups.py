"""wrapcmp-series: the tree's MAINTAINERS, the grouping of files into patches, subject
prefixes, and the MAINTAINERS entry of the new files.

Grouping: every changed file goes to the MAINTAINERS section whose matching F: pattern is
longest (get_maintainer.pl's glob rules; a section's X: patterns exclude); areas with fewer
than merge_below sites are merged into their enclosing area (the best section among those
with a shorter matching pattern, never THE REST) when at least two such areas share it or
the enclosing area has files of its own; a patch with more than split_above files is split
by the next directory level; patches that touch only include/ come first, then by path.

Subject prefixes, from the files of the patch that hold its sites (not an includer that
only gets the include): from `git log` when the tree is a git repository (the most common
"prefix: " of the last 40 commits touching the files); otherwise from the table
subject_prefixes.tsv beside this file (a path pattern, the prefix the subsystem uses, and a
real subject that shows it, a row each), when it gives every file of the patch the same
prefix, or the components their prefixes share ("locking/rtmutex" and "locking/ww_mutex":
"locking"); otherwise from the path where the
path names the subsystem (drivers/net/ethernet/<vendor>/<name>/, fs/<name>/, net/<name>/,
include/net/<name>/, ...), else from the MAINTAINERS section ("SCTP PROTOCOL" -> "sctp"),
else from the path's folder and file name.  "treewide" only for a patch whose files share
neither a section nor a folder.
"""
import collections
import os
import re

from .util import Fatal

THE_REST = "THE REST"


class Section:
    def __init__(self, name, order):
        self.name, self.order = name, order
        self.fields = collections.defaultdict(list)
        self.files, self.excludes = [], []


def glob_to_regex(tree, value):
    """get_maintainer.pl's conversion of an F:/X: pattern."""
    isdir = os.path.isdir(os.path.join(tree, value))
    rx = value.replace(".", r"\.").replace("*", ".*").replace("?", ".")
    if isdir and not rx.endswith("/"):
        rx += "/"
    return rx


def file_match(path, rx):
    if rx.endswith("/"):
        return re.match(rx, path) is not None
    return re.match(rx, path) is not None and path.count("/") == rx.count("/")


def read_maintainers(tree):
    path = os.path.join(tree, "MAINTAINERS")
    if not os.path.exists(path):
        raise Fatal("%s has no MAINTAINERS file" % tree)
    sections, cur = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^([A-Z]):\s*(.*)$", line)
            if m and cur is not None:
                cur.fields[m.group(1)].append(m.group(2).strip())
                if m.group(1) == "F":
                    cur.files.append((m.group(2).strip(), glob_to_regex(tree, m.group(2).strip())))
                elif m.group(1) == "X":
                    cur.excludes.append(glob_to_regex(tree, m.group(2).strip()))
            elif line.strip() and not line.startswith((" ", "\t")) and not m:
                cur = Section(re.sub(r"\s+", " ", line.strip()), len(sections))
                sections.append(cur)
    return [s for s in sections if s.files]


def matches(sections, path):
    """[(score, section)] of sections whose F: matches path (and no X: excludes it), best
    first.  The score is the length of the longest matching pattern."""
    out = []
    for s in sections:
        if any(file_match(path, x) for x in s.excludes):
            continue
        best = max((len(rx) for _, rx in s.files if file_match(path, rx)), default=-1)
        if best >= 0:
            out.append((best, s))
    out.sort(key=lambda t: (-t[0], t[1].order))
    return out


# ---------------------------------------------------------------- the MAINTAINERS entry

def section_order_key(name):
    """scripts/parse-maintainers.pl's order: by upper-case name, THE REST last."""
    return name.upper().replace(THE_REST, "ZZZZZZ")


def maintainers_with_entry(text, entry):
    """MAINTAINERS text with entry (a section: title line, then its field lines) inserted
    where the kernel's order puts it: before the first section whose title sorts after
    it, THE REST last.  Sections are the blocks after the 'Maintainers List' heading whose
    first line is a title followed by field lines.  None when the title is there already."""
    lines = text.split("\n")
    title = entry.split("\n", 1)[0]
    if title in lines:
        return None
    start = next((i for i, l in enumerate(lines) if l.startswith("Maintainers List")), 0)
    at = None
    for i in range(start + 1, len(lines) - 1):
        if lines[i] and not lines[i].startswith((" ", "\t")) and \
                not re.match(r"^[A-Z]:", lines[i]) and re.match(r"^[A-Z]:\t", lines[i + 1]) \
                and (i == 0 or not lines[i - 1].strip()):
            if section_order_key(lines[i]) > section_order_key(title):
                at = i
                break
    block = entry.rstrip("\n").split("\n") + [""]
    if at is None:	# after the last section
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join(lines + [""] + block)
    lines[at:at] = block
    return "\n".join(lines)


def wrapcmp_entry(ident, files):
    return "\n".join(["WRAPCMP (WRAP-SAFE COUNTER COMPARISONS)",
                      "M:\t%s <%s>" % ident, "S:\tMaintained"] +
                     ["F:\t%s" % f for f in sorted(files)]) + "\n"


# ---------------------------------------------------------------- subject prefixes

GENERIC_DIRS = {"drivers", "common", "core", "src", "lib", "hw", "util", "libxfs"}

# net/<name>/ folders whose patches carry another prefix than <name>
NET_PREFIX = {"core": "net", "mac80211": "wifi: mac80211", "wireless": "wifi: cfg80211",
              "bluetooth": "Bluetooth", "sched": "net/sched", "ethernet": "net",
              "ipv4": "ipv4", "ipv6": "ipv6"}

# Path rules that name the subsystem; first match wins.
SPECIAL_PREFIX = [
    (r"drivers/gpu/drm/([^/]+)/", lambda m: "drm/" + m.group(1)),
    (r"drivers/gpu/drm/", lambda m: "drm"),
    (r"drivers/gpu/host1x/", lambda m: "gpu: host1x"),
    (r"drivers/net/ethernet/[^/]+/([^/]+)/", lambda m: "net: " + m.group(1)),
    (r"drivers/net/ethernet/([^/]+)/", lambda m: "net: " + m.group(1)),
    (r"drivers/net/wireless/(?:[^/]+/)*?([^/]+)/(?:rtl\w+/)?[^/]+$",
     lambda m: "wifi: " + m.group(1)),
    (r"drivers/infiniband/hw/([^/]+)/", lambda m: "RDMA/" + m.group(1)),
    (r"drivers/infiniband/ulp/([^/]+)/", lambda m: "IB/" + m.group(1)),
    (r"drivers/(?:staging/)?media/(?:[^/]+/)*([^/]+)/[^/]+$", lambda m: "media: " + m.group(1)),
    (r"drivers/scsi/([^/]+)/", lambda m: "scsi: " + m.group(1)),
    (r"drivers/([^/]+)/([^/]+)/", lambda m: m.group(1) + ": " + m.group(2)),
    (r"drivers/([^/]+)/([^/]+)\.[ch]$", lambda m: m.group(1) + ("" if m.group(2) == m.group(1)
                                                                 else ": " + m.group(2))),
    (r"fs/([^/]+)/", lambda m: m.group(1)),
    (r"net/ipv[46]/tcp\w*\.[ch]$", lambda m: "tcp"),
    (r"net/([^/]+)/", lambda m: NET_PREFIX.get(m.group(1), m.group(1))),
    (r"include/net/([^/]+)/", lambda m: NET_PREFIX.get(m.group(1), m.group(1))),
    (r"include/net/([^/]+)\.h$", lambda m: m.group(1)),
    (r"arch/([^/]+)/kernel/([^/]+)\.[chS]$", lambda m: m.group(1) + "/" + m.group(2)),
    (r"arch/([^/]+)/([^/]+)/", lambda m: m.group(1) + "/" + m.group(2)),
    (r"kernel/([^/]+)/", lambda m: m.group(1)),
    (r"include/linux/([^/]+/)?([^/]+)\.h$", lambda m: (m.group(1) or "") + m.group(2)),
    (r"include/([^/]+)/([^/]+)\.h$", lambda m: m.group(1) + ": " + m.group(2)),
    (r"sound/soc/", lambda m: "ASoC"),
    (r"sound/", lambda m: "ALSA"),
    (r"tools/testing/selftests/([^/]+)/", lambda m: "selftests/" + m.group(1)),
    (r"tools/testing/([^/]+)/", lambda m: m.group(1)),
    (r"tools/([^/]+)/", lambda m: "tools/" + m.group(1)),
]
# The last resort: the folder and the file's stem.
GENERIC_PREFIX = [
    (r"([^/]+)/([^/]+)\.[ch]$", lambda m: m.group(1) + "/" + m.group(2)),
    (r"([^/]+)\.[ch]$", lambda m: m.group(1)),
]

# Applied to the directory of the F: pattern that a merged group shares.
DIR_PREFIX = [
    (r"drivers/gpu(/drm)?$", "drm"), (r"drivers/infiniband$", "RDMA"),
    (r"drivers/net/wireless$", "wifi"), (r"drivers/net(/ethernet)?$", "net"),
    (r"drivers/media$", "media"), (r"drivers/video/fbdev$", "fbdev"),
    (r"(drivers/)?block$", "block"), (r"net$", "net"), (r"fs$", "fs"),
    (r"arch/(arm|arm64|mips|powerpc|riscv|s390|x86|sparc|parisc|loongarch)$", None),
]

# Words of a MAINTAINERS title that do not name the subsystem.
SECTION_NOISE = {"PROTOCOL", "PROTOCOLS", "DRIVER", "DRIVERS", "SUBSYSTEM", "SUPPORT", "CORE",
                 "LAYER", "FRAMEWORK", "INFRASTRUCTURE", "STACK", "GENERAL", "ENGINE",
                 "ETHERNET", "FILESYSTEM", "FILE", "SYSTEM", "THE", "AND", "FOR", "OF", "API",
                 "KERNEL", "LINUX", "GENERIC", "COMMON"}
SECTION_NAMES = {"NETWORKING": "net", "NETWORKING DRIVERS": "net", "SCHEDULER": "sched",
                 "MEMORY MANAGEMENT": "mm", "BLOCK LAYER": "block", "FILESYSTEMS": "fs"}


def path_prefix(path, generic=True):
    """The prefix the path gives, or None when no rule names the subsystem (with
    generic, the folder/stem rule then answers)."""
    comps = path.split("/")
    # drivers/<sub>/<generic dir>/file.c: the file's stem says more than "drivers".
    if len(comps) >= 4 and comps[0] == "drivers" and comps[2] in GENERIC_DIRS:
        path = "/".join(comps[:2] + (comps[3:] if len(comps) > 4 else comps[-1:]))
    for rx, f in SPECIAL_PREFIX + (GENERIC_PREFIX if generic else []):
        m = re.match(rx, path)
        if m:
            return f(m)
    return None


def section_prefix(name):
    """A prefix from a MAINTAINERS title: 'SCTP PROTOCOL' -> 'sctp', 'FOO DRIVER' ->
    'foo', 'NETWORKING [GENERAL]' -> 'net'; None for THE REST or a title with no
    usable word."""
    if not name or name.startswith(THE_REST):
        return None
    short = re.findall(r"\(([A-Za-z][\w/-]*)\)", name)
    if short:	# "CONTROL GROUP - MEMORY RESOURCE CONTROLLER (MEMCG)": its short name
        return short[-1].lower()
    t = re.sub(r"\[[^]]*\]|\([^)]*\)", " ", name.upper())
    t = " ".join(t.replace(",", " ").split())
    if t in SECTION_NAMES:
        return SECTION_NAMES[t]
    words = [w for w in re.findall(r"[A-Z0-9][A-Z0-9_.+-]*", t) if w not in SECTION_NOISE]
    if not words:
        return None
    w = words[0]
    if w in SECTION_NAMES:
        return SECTION_NAMES[w]
    return w.lower()


def dir_prefix(d):
    d = d.rstrip("/")
    for rx, p in DIR_PREFIX:
        m = re.match(rx, d)
        if m:
            return p or m.group(1)
    p = path_prefix(d + "/", generic=False)
    if p:
        return p
    comps = d.split("/")
    if comps[0] == "drivers" and len(comps) >= 2:
        return comps[1] if len(comps) == 2 else "%s: %s" % (comps[1], comps[2])
    return path_prefix(d + "/", generic=False) or d or None


def common_dir(paths):
    parts = [p.split("/")[:-1] for p in paths]
    out = []
    for comps in zip(*parts):
        if len(set(comps)) != 1:
            break
        out.append(comps[0])
    return "/".join(out)


def git_log_prefix(tree, files, run):
    p = run(["git", "log", "--no-merges", "-n", "40", "--format=%s", "--"] + files,
            cwd=tree, check=False)
    c = collections.Counter()
    for s in p.stdout.splitlines():
        m = re.match(r"^((?:[\w./,+-]+: )+)", s)
        if m and not s.lower().startswith(("revert", "merge")):
            c[m.group(1)[:-2]] += 1
    if c:
        best, n = c.most_common(1)[0]
        if n >= 2 or len(p.stdout.splitlines()) == 1:
            return best
    return None


PREFIX_TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "subject_prefixes.tsv")
_table = None


def prefix_table(path=PREFIX_TABLE):
    """[(compiled pattern, prefix template)] of subject_prefixes.tsv, in its order; a
    malformed row is an error that names the file and line."""
    global _table
    if _table is not None and path == PREFIX_TABLE:
        return _table
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise Fatal("cannot read the subject prefix table %s: %s" % (path, e.strerror or e))
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        try:
            if len(cols) != 3 or not all(c.strip() for c in cols):
                raise ValueError("want 3 tab-separated columns: pattern, prefix, source")
            rx = re.compile(cols[0])
            for k in re.findall(r"\{(\d+)\}", cols[1]):
                if not 1 <= int(k) <= rx.groups:
                    raise ValueError("{%s} but the pattern has %d group(s)" % (k, rx.groups))
        except (ValueError, re.error) as e:
            raise Fatal("%s:%d: %s" % (path, n, e))
        rows.append((rx, cols[1]))
    if path == PREFIX_TABLE:
        _table = rows
    return rows


def table_prefix(path, rows=None):
    """The prefix the table gives a file, or None."""
    for rx, template in prefix_table() if rows is None else rows:
        m = rx.match(path)
        if m:
            return re.sub(r"\{(\d+)\}", lambda k: m.group(int(k.group(1))) or "", template)
    return None


def common_table_prefix(prefixes):
    """The leading components that table prefixes share, cut at "/" or ": "
    ("locking/rtmutex" and "locking/ww_mutex" -> "locking"), or None."""
    split = [re.split(r"(/|: )", p) for p in prefixes]
    out = []
    for comps in zip(*split):
        if len(set(comps)) != 1:
            break
        out.append(comps[0])
    while out and out[-1] in ("/", ": "):
        out.pop()
    return "".join(out) or None


PREFIX_SOURCES = ("git log", "the table", "the path", "the MAINTAINERS section")


def prefix_for(g, tree, is_git, run, sited=None):
    """The subject prefix of group g (see the module's text).  sited: the files that
    hold sites; a file the patch touches only for the include (kernel/sched/
    build_policy.c, which #includes ext.c) does not name the patch."""
    return prefix_and_source(g, tree, is_git, run, sited)[0]


def prefix_and_source(g, tree, is_git, run, sited=None):
    """(prefix, where it came from: one of PREFIX_SOURCES) of group g."""
    files = [f for f in g.files if sited is None or f in sited] or g.files
    if is_git:
        p = git_log_prefix(tree, files, run)
        if p:
            return p, "git log"
    code = [f for f in files if not BUILD_FILES.search(f)] or files
    tab = collections.Counter(table_prefix(f) for f in code)
    if len(tab) == 1 and None not in tab:
        return next(iter(tab)), "the table"
    if None not in tab:
        p = common_table_prefix(tab)
        if p:
            return p, "the table"
    prefs = collections.Counter(path_prefix(f, generic=False) for f in files)
    if len(prefs) == 1 and None not in prefs:
        return next(iter(prefs)), "the path"
    if len(g.members) > 1 and g.pattern:
        # Areas merged into their enclosing area: name them after that area's F: directory.
        p = dir_prefix(re.sub(r"[*?].*$", "", g.pattern))
        if p:
            return p, "the path"
    if not g.area.startswith(THE_REST):
        p = section_prefix(g.area)
        if p:
            return p, "the MAINTAINERS section"
    generic = collections.Counter(path_prefix(f) for f in files)
    if len(generic) == 1:
        return next(iter(generic)), "the path"
    d = common_dir(files)
    if d:
        return (dir_prefix(d) if d.count("/") < 2 else path_prefix(d + "/")) or d, "the path"
    return section_prefix(g.area) or "treewide", "the MAINTAINERS section"


# ---------------------------------------------------------------- grouping

class Group:
    def __init__(self, area):
        self.area = area          # MAINTAINERS section name
        self.files = []
        self.members = []         # areas merged in
        self.label = ""
        self.pattern = ""         # F: pattern of the enclosing area, when merged


def make_groups(files, sections, per_file, merge_below, split_above):
    best, parent, ppat = {}, {}, {}
    for f in files:
        ms = matches(sections, f)
        best[f] = ms[0][1].name if ms else THE_REST
        rest = [s for score, s in ms[1:] if s.name != THE_REST and score < ms[0][0]]
        parent[f] = rest[0].name if rest else None
        if rest:
            ppat[f] = max((pat for pat, rx in rest[0].files if file_match(f, rx)), key=len)
    areas = collections.OrderedDict()
    for f in files:
        if best[f] == THE_REST:	# not one subsystem: a group per prefix the path gives
            best[f] = "%s (%s)" % (THE_REST, path_prefix(f) or f)
        areas.setdefault(best[f], []).append(f)
    # Merge small areas into a shared enclosing area.
    small = {a: fs for a, fs in areas.items()
             if sum(per_file[f] for f in fs) < merge_below
             and len({parent[f] for f in fs}) == 1 and parent[fs[0]]}
    by_parent = collections.defaultdict(list)
    for a, fs in small.items():
        by_parent[parent[fs[0]]].append(a)
    groups = collections.OrderedDict()
    for a, fs in areas.items():
        p = parent[fs[0]] if a in small else None
        key = p if (p and (len(by_parent[p]) >= 2 or p in areas)) else a
        g = groups.setdefault(key, Group(key))
        if key != a and not g.pattern:
            g.pattern = ppat[fs[0]]
        g.files.extend(fs)
        g.members.append(a)
    # One driver or protocol a patch: a group whose files the prefix table gives two
    # subsystems (ipv4 and ipv6 under NETWORKING [IPv4/IPv6], radeon and amdgpu under
    # one DRM entry) becomes a group per subsystem; build files go with the first.
    split = []
    for g in groups.values():
        code = [f for f in g.files if not BUILD_FILES.search(f)]
        subsys = collections.OrderedDict()
        for f in code:
            subsys.setdefault(table_prefix(f), []).append(f)
        if len(subsys) < 2 or None in subsys:
            split.append(g)
            continue
        for n, (p, fs) in enumerate(subsys.items()):
            h = Group(g.area)
            h.files = fs + ([f for f in g.files if f not in code] if n == 0 else [])
            h.members, h.pattern = g.members, g.pattern
            h.label = "%s (%s)" % (g.area, p)
            split.append(h)
    # Split huge groups by directory.
    out = []
    for g in split:
        if len(g.files) <= split_above:
            out.append(g)
            continue
        base = common_dir(g.files)
        depth = len(base.split("/")) if base else 0
        sub = collections.OrderedDict()
        for f in g.files:
            comps = f.split("/")
            key = "/".join(comps[:depth + 1]) if len(comps) > depth + 1 else base
            sub.setdefault(key, []).append(f)
        for k, fs in sub.items():
            h = Group(g.area)
            h.files, h.members, h.pattern = fs, g.members, g.pattern
            h.label = "%s (%s/)" % (g.area, k)
            out.append(h)
    for g in out:
        g.files.sort()
        if not g.label:
            g.label = g.area if len(g.members) == 1 else "%s: %s" % (g.area, ", ".join(g.members))
    out.sort(key=lambda g: (0 if all(f.startswith("include/") for f in g.files) else 1,
                            g.files[0]))
    return out, best


# ---------------------------------------------------------------- recipients

# Files that only wire a patch's other files into the build: they add no maintainer of
# their own (lib/Makefile has no entry but THE REST, and a stem match would be noise).
BUILD_FILES = re.compile(r"(^|/)(Makefile|Kbuild|Kconfig[^/]*)$")


def _literal(pattern):
    return re.sub(r"[*?].*$", "", pattern)


def closest_entry(sections, path):
    """The entry a file with no entry of its own (only THE REST matches) goes to: the
    entry that lists a file of the same stem (include/linux/jiffies.h ->
    kernel/time/jiffies.c's entry), the one sharing most leading folders first; else an
    entry with a pattern in the nearest parent folder, the longest shared name first;
    None when there is neither."""
    stem = os.path.splitext(os.path.basename(path))[0]
    comps = path.split("/")[:-1]

    def shared(p):
        n = 0
        for a, b in zip(p.split("/")[:-1], comps):
            if a != b:
                break
            n += 1
        return n
    cands = []
    for s in sections:
        if s.name.startswith(THE_REST):
            continue
        for pat, _ in s.files:
            lit = _literal(pat)
            if lit == pat and os.path.splitext(os.path.basename(pat))[0] == stem:
                cands.append((-shared(pat), s.order, s))
    if cands:
        return min(cands, key=lambda t: t[:2])[2]
    for depth in range(len(comps), 0, -1):
        d = "/".join(comps[:depth]) + "/"
        best = None
        for s in sections:
            if s.name.startswith(THE_REST):
                continue
            for pat, _ in s.files:
                lit = _literal(pat)
                if lit.startswith(d) and "/" not in lit[len(d):].rstrip("/"):
                    name = lit[len(d):]
                    k = len(os.path.commonprefix([name, os.path.basename(path)]))
                    if best is None or (-k, s.order) < best[:2]:
                        best = (-k, s.order, s)
        if best:
            return best[2]
    return None


def entry_of(sections, path):
    """(section, fallback): the most specific entry of path, fallback True when the file
    has no entry and the closest parent entry stands in (None: not even that)."""
    ms = [s for _, s in matches(sections, path) if not s.name.startswith(THE_REST)]
    if ms:
        return ms[0], False
    return closest_entry(sections, path), True


def orphan_stand_in(sections, path, s):
    """The entry whose M: takes the patch when path's entry s lists no M: (S: Orphan, as
    HSR or DCCP): the next most specific entry that matches path and has one (NETWORKING
    [GENERAL] for net/hsr/); None when only THE REST is left."""
    for _, t in matches(sections, path):
        if t is not s and not t.name.startswith(THE_REST) and t.fields.get("M"):
            return t
    return None


def recipients(sections, files):
    """(to, cc) of a patch touching files: To: the M: of each file's most specific entry,
    Cc: its R: and L:; a file with no entry: the closest parent entry's, with THE REST's
    lists (linux-kernel) in Cc too; an entry without M: (orphaned): To: the M: of the
    next matching entry that has one, its lists in Cc, else THE REST's M:.  Each address
    once, To: first."""
    rest = next((s for s in sections if s.name.startswith(THE_REST)), None)
    to, cc = [], []
    for f in files:
        if BUILD_FILES.search(f) and len(files) > 1:
            continue
        s, fallback = entry_of(sections, f)
        if s is not None:
            to += [a for a in s.fields.get("M", []) if a not in to]
            cc += [a for a in s.fields.get("R", []) + s.fields.get("L", []) if a not in cc]
            if not s.fields.get("M"):
                t = orphan_stand_in(sections, f, s)
                if t is not None:
                    to += [a for a in t.fields["M"] if a not in to]
                    cc += [a for a in t.fields.get("L", []) if a not in cc]
                elif rest is not None:
                    to += [a for a in rest.fields.get("M", []) if a not in to]
        if (fallback or s is None) and rest is not None:
            if s is None:
                to += [a for a in rest.fields.get("M", []) if a not in to]
            cc += [a for a in rest.fields.get("L", []) if a not in cc]
    # every patch goes to a list: where no entry has one, THE REST's (linux-kernel)
    if rest is not None and not any(is_list(a) for a in cc):
        cc += [a for a in rest.fields.get("L", []) if a not in cc]
    cc = [a for a in cc if a not in to]
    return to, cc


def is_list(addr):
    return "<" not in addr


def unique_prefixes(groups, prefixes):
    """prefixes made unique among groups: a prefix two groups share gets the folder or
    file that tells them apart ('net: bnx2', 'net: ionic'); the last resort numbers
    them.  A patch's subject starts with its prefix, so equal prefixes are the only way
    to equal subjects of the same helpers."""
    out = list(prefixes)
    for _ in range(3):
        count = collections.Counter(out)
        if max(count.values(), default=0) < 2:
            break
        for i, g in enumerate(groups):
            if count[out[i]] < 2:
                continue
            d = common_dir(g.files)
            stems = {os.path.splitext(os.path.basename(f))[0] for f in g.files}
            words = out[i].replace("/", ": ").split(": ")
            for cand in ([d.split("/")[-1]] if d else []) + \
                    ([next(iter(stems))] if len(stems) == 1 else []):
                if cand and cand not in words:
                    out[i] = "%s: %s" % (out[i], cand)
                    break
    seen = collections.Counter()
    count = collections.Counter(out)
    for i, p in enumerate(out):
        if count[p] > 1:
            seen[p] += 1
            out[i] = "%s (%d/%d)" % (p, seen[p], count[p])
    return out
