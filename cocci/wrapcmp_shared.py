"""The code the wrapcmp rules share: the types and classes of a comparison's operands, the
evidence that a value wraps and the confidence it gives, where the helper include goes, and
how a site is written (the helper, a helper of the kernel, casts dropped).

Each rule of cocci/ imports it from its @initialize:python@ rule, from the folder of the
running semantic patch (cocci.cocci_file): `from wrapcmp_shared import *`.  So this file
must lie beside the rules: in cocci/, in KDIR/scripts/coccinelle/wrapcmp/ after `make
coccicheck-install`, and beside the runner's joined semantic patch (scripts/wrapcmp/rules.py).

The rules and their script:python rules reach the names below through that import, so they
share the objects, never the names: the state (wrapcmp_types, wrapcmp_include_mode, ...) is
a dict, set or list that is changed in place and never bound again, here or in a rule.  A
mode is a one-item list for that reason.  The runner keys its cache on this file too.

spatch 1.1.1 does not read this file, so its pitfalls for the text of a rule (an apostrophe
in a comment, a backslash in quotes, a line that starts with # spatch) do not apply here.
"""
import json
import os
import re

def wrapcmp_key(p):
	return (p[0].file, p[0].line, p[0].column, p[0].line_end, p[0].column_end)

# width class and signedness of the integer types an operand may have;
# "L" is the width of long, 32 or 64 bits depending on the architecture.
WRAPCMP_INT_TYPES = {}
for names, cls in (
	(("char", "signed char", "s8", "__s8", "int8_t"), ("8", True)),
	(("unsigned char", "u8", "__u8", "uint8_t", "u_char", "unchar", "bool", "_Bool"),
	 ("8", False)),
	(("short", "short int", "signed short", "signed short int", "s16", "__s16", "int16_t"),
	 ("16", True)),
	(("unsigned short", "unsigned short int", "u16", "__u16", "uint16_t", "ushort", "u_short"),
	 ("16", False)),
	(("int", "signed", "signed int", "s32", "__s32", "int32_t"), ("32", True)),
	(("unsigned", "unsigned int", "u32", "__u32", "uint32_t", "uint", "u_int"), ("32", False)),
	(("long", "long int", "signed long", "signed long int", "ssize_t", "ptrdiff_t",
	  "intptr_t"), ("L", True)),
	(("unsigned long", "unsigned long int", "size_t", "uintptr_t", "ulong", "u_long"),
	 ("L", False)),
	(("long long", "long long int", "signed long long", "signed long long int", "s64",
	  "__s64", "int64_t", "loff_t", "ktime_t", "time64_t"), ("64", True)),
	(("unsigned long long", "unsigned long long int", "u64", "__u64", "uint64_t", "sector_t",
	  "blkcnt_t"), ("64", False))):
	for name in names:
		WRAPCMP_INT_TYPES[name] = cls
del names, cls, name

# operands recognised by their text when the type is not declared in the file
WRAPCMP_TEXT_TYPES = (
	(r"jiffies", ("L", False)),
	(r"jiffies_64", ("64", False)),
	(r"get_jiffies_64\s*\(\s*\)", ("64", False)),
	(r"(__raw_)?readb(_relaxed)?\s*\(.*|ioread8\s*\(.*", ("8", False)),
	(r"(__raw_)?readw(_relaxed)?\s*\(.*|ioread16(be)?\s*\(.*", ("16", False)),
	(r"(__raw_)?readl(_relaxed)?\s*\(.*|ioread32(be)?\s*\(.*", ("32", False)),
	(r"(__raw_)?readq(_relaxed)?\s*\(.*|ioread64(be)?\s*\(.*", ("64", False)),
	(r"sizeof\b.*", ("L", False)),
	(r"'(\\.|[^\\'])+'", ("32", True)),
)

WRAPCMP_LITERAL_SUFFIXES = {"": ("32", True), "u": ("32", False), "l": ("L", True),
			    "ul": ("L", False), "lu": ("L", False), "ll": ("64", True),
			    "ull": ("64", False), "llu": ("64", False)}

wrapcmp_types = {}

def wrapcmp_note_type(p, t):
	words = [w for w in str(t).split() if w not in ("const", "volatile")]
	wrapcmp_types[wrapcmp_key(p)] = " ".join(words)

# In a #define body the operands are macro arguments and have no type, unless the
# body checks them with typecheck(type, x), as time_after() does: a build without
# warnings then passes exactly that type, so the site is decided, and rewritten,
# like code.  typecheck() stays in the macro.
WRAPCMP_TYPECHECK = re.compile(r"\btypecheck\s*\(([^,()]+),\s*([A-Za-z_]\w*)\s*\)")
wrapcmp_sources = {}
wrapcmp_typechecked = set()

def wrapcmp_source_path(f):
	"""The file whose text the evidence reads for file f: f itself, or the whole file
	of that name in the folder WRAPCMP_SOURCES when the runner gives spatch a copy with
	the bodies that hold no site blanked (scripts/wrapcmp/trim.py)."""
	folder = os.environ.get("WRAPCMP_SOURCES")
	whole = folder and os.path.join(folder, os.path.basename(f))
	return whole if whole and os.path.isfile(whole) else f

def wrapcmp_source_lines(f):
	if f not in wrapcmp_sources:
		with open(wrapcmp_source_path(f), encoding="latin-1") as fd:
			wrapcmp_sources[f] = fd.read().split("\n")
	return wrapcmp_sources[f]

def wrapcmp_typedef(f, t):
	"""t with the typedefs of file f (typedef u32 codel_time_t;) resolved."""
	text = "\n".join(wrapcmp_source_lines(f))
	for _ in range(4):
		m = re.search(r"\btypedef\s+([A-Za-z_][\w\s]*?)\s+%s\s*;" % re.escape(t), text)
		if not m:
			break
		t = " ".join(m.group(1).split())
	return t

# A C project (-D hosted, or the runner with the table of the typedefs in the headers
# each file includes, whose path is in WRAPCMP_TYPEDEFS) names its counter types with
# typedefs: typedef int32_t tick_t; makes tick_t an int32_t.  The kernel has its own
# fixed names (u32, s64) and keeps to them.
wrapcmp_typedefs_on = [bool(os.environ.get("WRAPCMP_TYPEDEFS"))]
wrapcmp_typedef_table = []

def wrapcmp_header_typedefs(f):
	"""The typedefs of the headers that f includes, from the runner (name: type)."""
	if not wrapcmp_typedef_table:
		path = os.environ.get("WRAPCMP_TYPEDEFS")
		table = {}
		if path:
			with open(path, encoding="utf-8") as fd:
				table = json.load(fd)
		wrapcmp_typedef_table.append(table)
	return wrapcmp_typedef_table[0].get(os.path.basename(f), {})

def wrapcmp_resolve_typedef(f, t):
	"""The integer type that the typedef name t stands for in file f, or None."""
	if not wrapcmp_typedefs_on[0]:
		return None
	for _ in range(4):
		if t in WRAPCMP_INT_TYPES:
			return t
		if not re.fullmatch(r"[A-Za-z_]\w*", t):
			return None
		r = wrapcmp_typedef(f, t)
		if r == t:
			r = wrapcmp_header_typedefs(f).get(t, t)
		if r == t:
			return None
		t = " ".join(w for w in r.split() if w not in ("const", "volatile"))
	return t if t in WRAPCMP_INT_TYPES else None

def wrapcmp_define_at(p):
	"""(body, parameters) of the function-like #define that holds p, or None.  A
	#define continues over lines ending in a backslash."""
	if p[0].current_element != "something_else":
		return None
	lines = wrapcmp_source_lines(p[0].file)
	first = last = int(p[0].line) - 1
	while first > 0 and lines[first - 1].rstrip().endswith("\\"):
		first -= 1
	while last + 1 < len(lines) and lines[last].rstrip().endswith("\\"):
		last += 1
	body = "\n".join(lines[first:last + 1])
	define = re.match(r"\s*#\s*define\s+\w+\(([^)]*)\)", body)
	if not define:
		return None
	return body, [a.strip() for a in define.group(1).split(",")]

def wrapcmp_macro_type(p, text):
	"""The type typecheck() gives the macro argument that is the operand at p, or None."""
	m = re.fullmatch(r"[\s(]*([A-Za-z_]\w*)[\s)]*", str(text))
	define = wrapcmp_define_at(p)
	if not m or not define or m.group(1) not in define[1]:
		return None
	for t, name in WRAPCMP_TYPECHECK.findall(define[0]):
		if name == m.group(1):
			return wrapcmp_typedef(p[0].file, " ".join(t.split()))
	return None

def wrapcmp_text_at(p):
	"""The source text at p, without comments."""
	lines = wrapcmp_source_lines(p[0].file)
	l0, c0 = int(p[0].line) - 1, int(p[0].column)
	l1, c1 = int(p[0].line_end) - 1, int(p[0].column_end)
	text = "\n".join(lines[l0:l1 + 1])
	text = text[c0:len(text) - (len(lines[l1]) - c1)]
	return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)

def wrapcmp_bare_argument(q, params):
	"""True when the operand at q holds a macro parameter outside every bracket of its
	own.  The argument of a caller is pasted in as tokens: (s32)(y - x) with x = a + 1 is
	y - a + 1, but U32_CMP_LT(y, x) is y - (a + 1).  Inside brackets, (x), f(x) or
	(u32)(x), the tokens stay grouped in both forms."""
	depth = 0
	for tok in re.findall(r"[A-Za-z_]\w*|[][()]|[^\sA-Za-z_\w]", wrapcmp_text_at(q)):
		if tok in "([":
			depth += 1
		elif tok in ")]":
			depth -= 1
		elif depth == 0 and tok in params:
			return True
	return False

def wrapcmp_operand(p, text):
	"""Class of the operand at p: (width, signed), "never" or None (unknown)."""
	t = wrapcmp_types.get(wrapcmp_key(p))
	if t is not None:
		if "*" in t or "[" in t or t.split()[0] in ("float", "double", "struct", "union"):
			return "never"
		if t in WRAPCMP_INT_TYPES:
			return WRAPCMP_INT_TYPES[t]
		r = wrapcmp_resolve_typedef(p[0].file, t)
		if r is not None:
			wrapcmp_note_type(p, r)
			return WRAPCMP_INT_TYPES[r]
	text = " ".join(str(text).split())
	m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|[0-9]+)([uUlL]*)", text)
	if m:
		cls = WRAPCMP_LITERAL_SUFFIXES.get(m.group(2).lower())
		if cls == ("32", True) and int(m.group(1), 0) > 0x7fffffff:
			return None
		return cls
	if re.fullmatch(r"[0-9]*\.[0-9]*([eE][-+]?[0-9]+)?[fFlL]?|[0-9]+[eE][-+]?[0-9]+[fFlL]?", text):
		return "never"
	for pattern, cls in WRAPCMP_TEXT_TYPES:
		if re.fullmatch(pattern, text):
			return cls
	m = re.match(r"\(\s*([A-Za-z_][\w ]*?)\s*\)\s*[\w(]", text)
	if m and " ".join(m.group(1).split()) in WRAPCMP_INT_TYPES:
		return WRAPCMP_INT_TYPES[" ".join(m.group(1).split())]
	t = wrapcmp_macro_type(p, text)
	if t in WRAPCMP_INT_TYPES:
		wrapcmp_note_type(p, t)
		wrapcmp_typechecked.add(wrapcmp_key(p))
		return WRAPCMP_INT_TYPES[t]
	return None

# the operator as written, with the operand on its left (False) or right (True) of it
WRAPCMP_OP_SUFFIX = {("<", False): "LT", ("<=", False): "LE", (">", False): "GT",
		     (">=", False): "GE", ("<", True): "GT", ("<=", True): "GE",
		     (">", True): "LT", (">=", True): "LE"}
WRAPCMP_RANK = {"8": 0, "16": 1, "32": 2, "L": 3, "64": 4}

def wrapcmp_zero_first(pz, pa):
	"""True when the constant 0 at pz stands before the operand a at pa."""
	return (int(pz[0].line), int(pz[0].column)) < (int(pa[0].line), int(pa[0].column))

def wrapcmp_from_macro(pc, *ps):
	"""True when a token at one of ps lies outside the comparison at pc: spatch took it
	from the body of a macro that the comparison uses (#define BEFORE < 0, then
	(int)(a - b) BEFORE).  Its order there says nothing of the comparison's, and spatch
	1.1.1 cannot delete it ("try to delete an expanded token")."""
	lo = (int(pc[0].line), int(pc[0].column))
	hi = (int(pc[0].line_end), int(pc[0].column_end))
	return any(not lo <= (int(p[0].line), int(p[0].column)) <= hi for p in ps)

def wrapcmp_difference(ca, cb):
	"""Kind and width of a - b: "narrow" (promoted to int, cannot overflow), "signed",
	"unsigned", or "arch" (signed on 64-bit, unsigned on 32-bit, or the reverse)."""
	if WRAPCMP_RANK[ca[0]] < 2 and WRAPCMP_RANK[cb[0]] < 2:
		return "narrow", "32"
	hi, lo = sorted((ca, cb), key=lambda c: (WRAPCMP_RANK[c[0]], not c[1]))[::-1]
	if not hi[1]:
		return "unsigned", hi[0]
	if lo[1] or WRAPCMP_RANK[lo[0]] < 2:
		return "signed", hi[0]
	if hi[0] == lo[0]:
		return "unsigned", hi[0]
	if (hi[0], lo[0]) in (("64", "L"), ("L", "32")):
		return "arch", hi[0]
	return "signed", hi[0]
WRAPCMP_CONFIDENCE = ("low", "moderate", "high")
# What says that a value wraps, as evidence for a moderate confidence (never a word in
# a name alone: "count - rest > 0" is a byte count): a source of wrapping values ...
WRAPCMP_WRAP_SOURCE = re.compile(
	r"\b(jiffies(?:_64)?|get_jiffies_64|ktime_\w+|local_clock|sched_clock|get_cycles\w*|"
	r"rdtsc\w*|read_c0_count|(?:__raw_)?read[bwlq](?:_relaxed)?|ioread(?:8|16|32|64)(?:be)?|"
	r"atomic(?:64|_long)?_(?:read|inc_return|add_return|fetch_add|fetch_inc))\b")
# ... a sequence-number field ...
WRAPCMP_SEQ_FIELD = re.compile(r"(?:->|\.)\s*(\w*(?:seq|tsn|ssn|serial)\w*)\s*$", re.I)
# ... or a name that is only ever incremented, or that the same file compares with the
# cast idiom or time_after() and its kin
WRAPCMP_CAST_IDIOM = re.compile(
	r"\(\s*(?:s8|s16|s32|s64|__s8|__s16|__s32|__s64|int8_t|int16_t|int32_t|int64_t|int|"
	r"signed(?: int| long)?|long(?: long)?)\s*\)\s*\(([^;{}]*?)\)\s*(?:<=?|>=?)\s*0\b|"
	r"\b(?:time_(?:after|before)(?:_eq)?(?:64)?|before|after)\s*\(([^;{}]*?)\)")
wrapcmp_evidence_cache = {}

def wrapcmp_file_text(f):
	"""The text of file f without its comments (cached)."""
	if ("text", f) not in wrapcmp_evidence_cache:
		text = "\n".join(wrapcmp_source_lines(f))
		wrapcmp_evidence_cache[("text", f)] = re.sub(r"/\*.*?\*/|//[^\n]*", " ", text,
							  flags=re.S)
	return wrapcmp_evidence_cache[("text", f)]

def wrapcmp_only_incremented(f, name):
	"""True when every change of name in file f adds to it (++, +=, atomic_inc) or sets
	it to a constant, and at least one adds."""
	text = wrapcmp_file_text(f)
	n = re.escape(name)
	# a loop index (set in a for, or bounded by a constant other than 0) counts, but
	# never wraps
	if re.search(r"\bfor\s*\([^;]*\b%s\b\s*=(?!=)" % n, text) or re.search(
			r"\b%s\b\s*(?:<=?|(?<!-)>=?)(?![<>])\s*(?:[1-9]|[A-Z][A-Z0-9_]*\b)|"
			r"(?:\b[1-9]\w*|\b[A-Z][A-Z0-9_]*)\s*(?:<=?|>=?)(?![<>])\s*(?:[\w\]\[]*(?:->|\.))*\b%s\b"
			% (n, n), text):
		return False
	adds = len(re.findall(r"(?:\+\+\s*(?:[\w\]\[]*(?:->|\.))*|\batomic\w*_inc\w*\(\s*&\s*(?:[\w\]\[]*(?:->|\.))*)\b%s\b|\b%s\b\s*(?:\+\+|\+=)" % (n, n), text))
	others = 0
	for m in re.finditer(r"--\s*(?:[\w\]\[]*(?:->|\.))*\b%s\b(?!\s*\()|\b%s\b\s*(--|[-*/%%&|^]=|<<=|>>=|=(?!=))\s*([^;,)]*)" % (n, n), text):
		if m.group(1) == "=" and re.fullmatch(r"\s*(?:0[xX]?[0-9a-fA-F]*|[A-Z][A-Z0-9_]*|\d+)[uUlL]*\s*", m.group(2) or ""):
			continue
		others += 1
	return adds > 0 and others == 0

def wrapcmp_compared_as_counter(f, name):
	"""True when file f compares name with the cast idiom or time_after() and its kin."""
	key = ("counters", f)
	if key not in wrapcmp_evidence_cache:
		names = set()
		for m in WRAPCMP_CAST_IDIOM.finditer(wrapcmp_file_text(f)):
			inside = m.group(1) if m.group(1) is not None else m.group(2)
			if m.group(1) is None or "-" in inside:
				names.update(re.findall(r"[A-Za-z_]\w*", inside))
		wrapcmp_evidence_cache[key] = names
	return name in wrapcmp_evidence_cache[key]

def wrapcmp_evidence(p, text):
	"""Why the operand at p (written text) is a wrapping value, or None."""
	t = re.sub(r"\s*(->|\.)\s*", r"\1", " ".join(str(text).split()))
	while True:	# ((long) x): x
		u = wrapcmp_strip_parens(re.sub(r"^\(\s*[A-Za-z_][\w ]*\)\s*", "", t))
		if u == t:
			break
		t = u
	m = WRAPCMP_WRAP_SOURCE.search(t)
	if m:
		return "%s reads %s" % (t, m.group(1)) if t != m.group(1) else "%s wraps" % t
	m = WRAPCMP_SEQ_FIELD.search(t)
	if m:
		return "%s is a sequence number" % t
	# a field: its name means the same member all over the file (a local does not)
	m = re.fullmatch(r"(?:[\w\]\[]+\s*(?:->|\.)\s*)+([A-Za-z_]\w*)", t)
	if m:
		f = p[0].file
		if wrapcmp_only_incremented(f, m.group(1)):
			return "%s is only ever incremented" % m.group(1)
		if wrapcmp_compared_as_counter(f, m.group(1)):
			return "%s is also compared with the cast idiom or time_after()" % m.group(1)
	return None

def wrapcmp_confidence(pa, pb, a, b, unsigned, idiom=False):
	"""(confidence, note): high when the operands are unsigned, so the writer meant
	wrapping; moderate when the difference is cast to a signed type (the idiom itself,
	idiom=True) or an operand is known to wrap (the note says why); low otherwise, where
	a > b may be what was meant."""
	if unsigned:
		return "high", ""
	if idiom:
		return "moderate", ""
	why = wrapcmp_evidence(pa, a) or wrapcmp_evidence(pb, b)
	return ("moderate", " (wrapping: %s)" % why) if why else ("low", "")

# Words that name a size, a length or an amount, not a free-running counter: in
# len - n > 0 or old - i < 0 (refcount's underflow check) a > b is what is meant, and
# a maintainer would want that or nothing.  A word is a part of a name between
# underscores (payload_len, bits_to_set), a name of one letter (i, n), or num and a
# capital (numSGE).  prod_index and iv32_n are not such names: they are counters.
WRAPCMP_SIZE_WORDS = frozenset(("len", "length", "size", "sz", "bytes", "bits", "count",
				"cnt", "num", "nr", "rem", "remain", "remainder", "space", "pad",
				"ofs", "off", "offset", "bound", "dbm", "indbm"))

def wrapcmp_size_names(*operands):
	"""The names in the operands' text that name sizes or amounts (see above)."""
	found = []
	for text in operands:
		for name in re.findall(r"[A-Za-z_]\w*", re.sub(r"/\*.*?\*/", " ", str(text), flags=re.S)):
			words = [w.lower() for w in name.split("_") if w]
			if (name in ("i", "n") or re.match(r"num[A-Z]", name) or
			    any(w in WRAPCMP_SIZE_WORDS for w in words)) and name not in found:
				found.append(name)
	return found

def wrapcmp_not_counters(confidence, a, b):
	"""Why a low site is reported, not rewritten, when its operands name sizes, or ""."""
	names = wrapcmp_size_names(a, b)[:3] if confidence == "low" else []
	if not names:
		return ""
	return ("; not rewritten: %s, so a > b may be what is meant" %
		(names[0] + " names a size or an amount, not a free-running counter"
		 if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1] +
		 " name sizes or amounts, not free-running counters"))

def wrapcmp_below(confidence, threshold):
	"""True when a finding of this confidence is left out of the patch (-D confidence=)."""
	if threshold not in WRAPCMP_CONFIDENCE:
		raise ValueError("-D confidence=%s: use low, moderate or high" % threshold)
	return WRAPCMP_CONFIDENCE.index(confidence) < WRAPCMP_CONFIDENCE.index(threshold)

# (long)(a - b) OP 0 on unsigned long operands, as the macro of <linux/jiffies.h> that
# computes exactly the same; GT and LE have none (time_after() differs at the half-way point)
WRAPCMP_JIFFIES = {"LT": "time_before(a, b)", "GE": "time_after_eq(a, b)"}

def wrapcmp_jiffies_hint(ca, cb, a, b, suffix):
	if ca != ("L", False) or cb != ("L", False) or suffix not in WRAPCMP_JIFFIES:
		return ""
	if "jiffies" not in (" ".join(str(a).split()), " ".join(str(b).split())):
		return ""
	return " or " + WRAPCMP_JIFFIES[suffix]
# what OP 0 says of a value that can never be negative
WRAPCMP_UNSIGNED_MEANING = {"LT": "is always false", "GE": "is always true",
			    "GT": "means a != b", "LE": "means a == b"}
# where <linux/wrapcmp.h> goes: after the last <linux/...> include (else the last include).
# Coccinelle 1.1.1 adds code only after the last include of a kind, so when that one comes
# after the first function (or in a later #ifdef) there is no right place: report only.
wrapcmp_first_function = {}
wrapcmp_includes = {}
wrapcmp_has_header = set()
# -D noinclude: add no #include and never refuse a site for want of a place for it; the
# caller places it (scripts/wrapcmp-run does, also where spatch 1.1.1 cannot)
wrapcmp_include_mode = ["yes"]

def wrapcmp_set_include_mode(mode):
	if mode not in ("yes", "no", "hosted"):
		raise ValueError("-D include=%s: use yes or no" % mode)
	if wrapcmp_include_mode[0] != "no":
		wrapcmp_include_mode[0] = mode
	if mode == "hosted":
		wrapcmp_typedefs_on[0] = True

def wrapcmp_include_line():
	"""The #include a patched file gets: -D hosted, for a C project that is not the
	kernel, "wrapcmp.h" (include/wrapcmp.h of the wrapcmp project, on its -I path)."""
	return '#include "wrapcmp.h"' if wrapcmp_include_mode[0] == "hosted" else \
		"#include <linux/wrapcmp.h>"

def wrapcmp_note_function(p):
	f = p[0].file
	wrapcmp_first_function[f] = min(int(p[0].line), wrapcmp_first_function.get(f, 1 << 30))

def wrapcmp_note_include(p, linux):
	wrapcmp_includes.setdefault(p[0].file, set()).add((int(p[0].line), linux))

def wrapcmp_include_anchor(f, placing=False):
	"""Line after which the helper include goes, or None when there is no place for it
	(or when the caller places it; placing: or when no site of f needs it)."""
	if wrapcmp_include_mode[0] == "no" or placing and f not in wrapcmp_needs_header:
		return None
	incs = wrapcmp_includes.get(f, set())
	lines = [l for l, linux in incs if linux and wrapcmp_include_mode[0] != "hosted"] or \
		[l for l, linux in incs]
	if not lines or max(lines) > wrapcmp_first_function.get(f, 1 << 30):
		return None
	return max(lines)

def wrapcmp_cannot_patch(p, *operands, macro_ok=False):
	"""Why a site is reported only: the rewrite needs a function, or a macro body whose
	rewrite the helpers check at build time (macro_ok: the cast rule's) and whose macro
	parameters are bracketed in the operands (the positions given); and a place for the
	include.  A signed a - b in a body is never rewritten, typecheck() or not: a caller
	that passes a u32 to typecheck(int, a) gets a warning and an unsigned a - b, which
	UINT_CMP_LT() would compare as signed.  Empty when it can be rewritten."""
	f = p[0].file
	if p[0].current_element == "something_else":
		if not macro_ok and operands and \
		   all(wrapcmp_key(q) in wrapcmp_typechecked for q in operands):
			return ("; not rewritten: typecheck() only warns, and a caller that passes "
				"another type gets a - b in that type from the macro, not from the helper")
		if not macro_ok:
			return "; not rewritten outside a function (macro body)"
		define = wrapcmp_define_at(p)
		if define and any(wrapcmp_bare_argument(q, define[1]) for q in operands):
			return ("; not rewritten: a macro parameter stands in a - b without "
				"parentheses, so the expression of a caller would group differently in the helper")
	if wrapcmp_include_mode[0] != "no" and f not in wrapcmp_has_header and \
	   wrapcmp_include_anchor(f) is None:
		return "; not rewritten: no place for %s before the code" % wrapcmp_include_line()
	return ""

def wrapcmp_half_converted(pc, a, b):
	"""Why a site is reported only when its statement uses the same a - b again outside
	the comparison (88pm860x: data - info->resistor > 0 && data - info->resistor < x):
	the rewrite would leave one of the two as it was.  "" otherwise.  The statement is the
	text around the site up to a ; { or } outside brackets, comments and strings blanked.
	A #define body has no statements: it is not looked at."""
	if pc[0].current_element == "something_else":
		return ""
	lines = wrapcmp_source_lines(pc[0].file)
	l0, c0 = int(pc[0].line) - 1, int(pc[0].column)
	l1, c1 = int(pc[0].line_end) - 1, int(pc[0].column_end)
	lo, hi = max(0, l0 - 20), min(len(lines), l1 + 21)
	text = "\n".join(lines[lo:hi])
	start = sum(len(x) + 1 for x in lines[lo:l0]) + c0
	end = sum(len(x) + 1 for x in lines[lo:l1]) + c1
	clean = re.sub(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\\\"\n])*\"|'(\\.|[^\\'\n])*'",
		       lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
	clean = clean[:start] + re.sub(r"[^\n]", " ", clean[start:end]) + clean[end:]
	depth, i, inner = 0, start - 1, None
	while i >= 0 and not (clean[i] in ";{}" and depth <= 0):
		depth += {")": 1, "]": 1, "(": -1, "[": -1}.get(clean[i], 0)
		if depth < 0 and clean[i] == "(" and \
		   re.search(r"\b(if|while|for|switch)\s*$", clean[:i]):
			inner = depth		# the condition of an if: its body is another statement
			break
		i -= 1
	depth, j = 0, end
	while j < len(clean) and not (clean[j] in ";{}" and depth <= 0):
		depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(clean[j], 0)
		if inner is not None and depth == inner:
			break
		j += 1
	def spelled(x):
		return r"\s*".join(re.escape(t) for t in re.findall(r"\w+|\S", str(x)))
	again = re.search(r"(?<![\w.>])\(?%s\)?\s*-\s*\(?%s\)?(?![\w(\[])" % (spelled(a), spelled(b)),
			  clean[i + 1:j])
	if not again:
		return ""
	def shown(x):
		x = re.sub(r"\s*(->|\.)\s*", r"\1", " ".join(str(x).split()))
		return re.sub(r"^([*&!~-]) ", r"\1", x)
	return ("; not rewritten: the statement uses %s - %s again, which the rewrite would "
		"leave as it is" % (shown(a), shown(b)))

def wrapcmp_op(op):
	"""The operator of a binary operator metavariable, without comments or spaces."""
	return re.sub(r"/\*.*?\*/|//[^\n]*|\s", "", str(op), flags=re.S)
# a literal, or a name in capitals (a constant macro)
WRAPCMP_CONSTANT = re.compile(r"[0-9][0-9a-fA-FxXuUlL]*|'(\\.|[^\\'])+'|[A-Z][A-Z0-9_]*")
# -D existing=yes: where the kernel has a helper that computes exactly what the site does,
# use it (tests/prove_conversions.py proves each mapping from the text of the kernel):
# time_before() and its kin of <linux/jiffies.h> on jiffies, whose typecheck() wants
# unsigned long (u64 for the 64-bit forms), and before() of tcp where the file includes
# <net/tcp.h>: for LT and GE only.  GT and LE have none there: time_after(a, b) and tcp's
# after(a, b) are LT(b, a), which differs from GT(a, b) at the half-way point.  rxrpc's
# before(), before_eq(), after() and after_eq() of net/rxrpc/ar-internal.h take u32 and
# compute (s32)(seq1 - seq2) OP 0, so they are exactly U32_CMP_LT, _LE, _GT and _GE (and
# UINT_CMP_*): all four, in a file that includes "ar-internal.h" and is not that header.
# Never in a #define body (time_after() is one).
wrapcmp_existing_mode = ["no"]
WRAPCMP_JIFFIES_TYPES = ("unsigned long", "unsigned long int")
WRAPCMP_U64_TYPES = ("u64", "__u64", "unsigned long long", "unsigned long long int", "uint64_t")
WRAPCMP_JIFFIES64 = ("jiffies_64", "get_jiffies_64()")

def wrapcmp_set_existing_mode(mode):
	if mode not in ("yes", "no"):
		raise ValueError("-D existing=%s: use yes or no" % mode)
	wrapcmp_existing_mode[0] = mode

def wrapcmp_includes_tcp(f):
	text = wrapcmp_file_text(f)
	return re.search(r"^\s*#\s*include\s*<net/tcp\.h>", text, re.M) is not None and \
		re.search(r"\bbool\s+before\s*\(", text) is None

# rxrpc's helpers by the suffix they equal, and their bodies as ar-internal.h of Linux 6.1
# writes them (whitespace aside)
WRAPCMP_RXRPC = {"LT": "before", "LE": "before_eq", "GT": "after", "GE": "after_eq"}
WRAPCMP_RXRPC_OP = {"LT": "<", "LE": "<=", "GT": ">", "GE": ">="}
WRAPCMP_RXRPC_HEADER = "ar-internal.h"

def wrapcmp_rxrpc_header_ok(f):
	"""False when the ar-internal.h beside file f (the one its #include "ar-internal.h"
	finds first) is there and does not define the four helpers as Linux 6.1 does; True
	when it does, or when it is not there to read (a copy of the file alone)."""
	h = os.path.join(os.path.dirname(f), WRAPCMP_RXRPC_HEADER)
	if not os.path.isfile(h):
		return True
	flat = " ".join(wrapcmp_file_text(h).split())
	for suffix, name in WRAPCMP_RXRPC.items():
		if ("static inline bool %s(u32 seq1, u32 seq2) { return (s32)(seq1 - seq2) %s 0; }"
		    % (name, WRAPCMP_RXRPC_OP[suffix])) not in flat:
			return False
	return True

def wrapcmp_includes_rxrpc(f):
	"""True when file f has rxrpc's before() and kin: it includes "ar-internal.h" (a
	local include), it is not that header itself, it does not include <net/tcp.h> (whose
	before() and after() would clash), and it neither defines nor declares any of the four
	names, nor uses one other than as a call (a variable of that name would hide the
	function)."""
	if os.path.basename(f) == WRAPCMP_RXRPC_HEADER:
		return False
	text = wrapcmp_file_text(f)
	if re.search(r'^\s*#\s*include\s*"ar-internal\.h"', text, re.M) is None or \
	   re.search(r"^\s*#\s*include\s*<net/tcp\.h>", text, re.M) is not None:
		return False
	names = r"(?:before|before_eq|after|after_eq)\b"
	code = re.sub(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)+\'', " 0 ", text)
	if re.search(r"^\s*#\s*(?:define|undef)\s+" + names, code, re.M) or \
	   re.search(r"\b(?!return\b|else\b|case\b|do\b|sizeof\b)[A-Za-z_]\w*[\s*]+" + names +
		     r"\s*\(", code) or \
	   re.search(r"(?<![\w.])(?<!->)" + names + r"(?!\s*\()", code):
		return False
	return wrapcmp_rxrpc_header_ok(f)

def wrapcmp_existing(pc, helper, pa, pb, a, b, ca, cb):
	"""(name, swap, negate) of the helper of the kernel that computes exactly helper(a, b):
	name(b, a) when swap, !name(a, b) when negate; or None."""
	if wrapcmp_existing_mode[0] != "yes" or pc[0].current_element == "something_else" or \
	   ca in (None, "never") or cb in (None, "never"):
		return None
	prefix, suffix = helper.split("_CMP_")
	if prefix in ("U32", "UINT") and suffix in WRAPCMP_RXRPC and \
	   wrapcmp_includes_rxrpc(pc[0].file):
		return (WRAPCMP_RXRPC[suffix], False, False)
	# jiffies and tcp: LT and GE only
	if suffix not in ("LT", "GE"):
		return None
	A, B = re.sub(r"\s+", "", str(a)), re.sub(r"\s+", "", str(b))
	ta, tb = wrapcmp_types.get(wrapcmp_key(pa)), wrapcmp_types.get(wrapcmp_key(pb))
	if prefix == "ULONG" and "jiffies" in (A, B) and \
	   (A == "jiffies" or ta in WRAPCMP_JIFFIES_TYPES) and \
	   (B == "jiffies" or tb in WRAPCMP_JIFFIES_TYPES):
		if suffix == "LT":
			return ("time_after", True, False) if B == "jiffies" else ("time_before", False, False)
		return ("time_before_eq", True, False) if B == "jiffies" else ("time_after_eq", False, False)
	if prefix == "U64" and (A in WRAPCMP_JIFFIES64 or B in WRAPCMP_JIFFIES64) and \
	   (A in WRAPCMP_JIFFIES64 or ta in WRAPCMP_U64_TYPES) and \
	   (B in WRAPCMP_JIFFIES64 or tb in WRAPCMP_U64_TYPES):
		j = B in WRAPCMP_JIFFIES64
		if suffix == "LT":
			return ("time_after64", True, False) if j else ("time_before64", False, False)
		return ("time_before_eq64", True, False) if j else ("time_after_eq64", False, False)
	if prefix in ("U32", "UINT") and wrapcmp_includes_tcp(pc[0].file):
		return ("before", False, suffix == "GE")
	return None

def wrapcmp_unary(text):
	"""True when text is one unary or postfix expression: no binary operator outside its
	brackets, so that a cast in front of it applies to all of it."""
	toks = re.findall(r"->|\+\+|--|[A-Za-z_]\w*|\d[\w.]*|\S", text)
	i, n = 0, len(toks)
	while i < n and toks[i] in ("++", "--", "-", "+", "~", "!", "*", "&"):
		i += 1

	def group(i):
		depth = 0
		for j in range(i, n):
			depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(toks[j], 0)
			if depth == 0:
				return j + 1
		return None
	if i >= n:
		return False
	if toks[i] == "(":
		i = group(i)
	elif re.match(r"[A-Za-z_\d]", toks[i]):
		i += 1
	else:
		return False
	while i is not None and i < n:
		if toks[i] in ("->", ".") and i + 1 < n and re.match(r"[A-Za-z_]", toks[i + 1]):
			i += 2
		elif toks[i] in ("(", "["):
			i = group(i)
		elif toks[i] in ("++", "--"):
			i += 1
		else:
			return False
	return i == n

def wrapcmp_strip_parens(text):
	t = text.strip()
	while t.startswith("(") and t.endswith(")"):
		depth = 0
		for k, ch in enumerate(t):
			depth += {"(": 1, ")": -1}.get(ch, 0)
			if depth == 0 and k < len(t) - 1:
				return t
		t = t[1:-1].strip()
	return t

WRAPCMP_HELPER_WIDTH = {"U8": "8", "U16": "16", "U32": "32", "UINT": "32", "ULONG": "L", "U64": "64"}

def wrapcmp_uncast(text, helper, in_macro):
	"""The operand without a cast that the conversion done by the helper makes redundant, or
	None: (uN)((T)x) == (uN)x for every integer x when T has at least N bits
	(tests/prove_conversions.py; a pointer or floating x is then a build error).  Never for
	ULONG_CMP_LT() and ULONG_CMP_GE(): they are the names of rcupdate.h's old macros, and
	<linux/wrapcmp.h> checks at build time that a - b of their arguments is as wide as
	unsigned long, which a dropped cast can change (a long and a (long)s64 on 32-bit)."""
	if helper in ("ULONG_CMP_LT", "ULONG_CMP_GE"):
		return None
	t = wrapcmp_strip_parens(" ".join(str(text).split()))
	m = re.match(r"\(\s*([A-Za-z_][\w ]*?)\s*\)\s*(\S.*)$", t)
	if not m:
		return None
	cast = " ".join(m.group(1).split())
	cls = WRAPCMP_INT_TYPES.get(cast)
	width = WRAPCMP_HELPER_WIDTH[helper.split("_CMP_")[0]]
	if cls is None or cast in ("bool", "_Bool") or WRAPCMP_RANK[cls[0]] < WRAPCMP_RANK[width]:
		return None
	rest = m.group(2).strip()
	if not wrapcmp_unary(rest):
		return None
	inner = wrapcmp_strip_parens(rest)
	depth, comma = 0, False
	for ch in inner:
		depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
		comma |= ch == "," and depth == 0
	return rest if in_macro or comma else inner

def wrapcmp_form(pc, helper, pa, pb, a, b, ca, cb):
	"""How the site is written: ("existing", name, swap, negate), ("texts", helper,
	a text, b text) when a cast is dropped, or ("plain", helper)."""
	e = wrapcmp_existing(pc, helper, pa, pb, a, b, ca, cb)
	if e:
		return ("existing",) + e + (" ".join(str(a).split()), " ".join(str(b).split()))
	in_macro = pc[0].current_element == "something_else"
	ua, ub = wrapcmp_uncast(a, helper, in_macro), wrapcmp_uncast(b, helper, in_macro)
	if ua or ub:
		return ("texts", helper, ua or " ".join(str(a).split()), ub or " ".join(str(b).split()))
	return ("plain", helper)

WRAPCMP_WHOLE = "__WRAPCMP_WHOLE"
wrapcmp_needs_header = set()	# files where a site got a helper of <linux/wrapcmp.h>

def wrapcmp_replacement(form):
	"""(h, text) for the fix rules: the name of the helper for h(A, B), or WRAPCMP_WHOLE and the
	text of the whole replacement."""
	if form[0] == "plain":
		return form[1], "0"
	if form[0] == "texts":
		return WRAPCMP_WHOLE, "%s(%s, %s)" % form[1:]
	name, swap, negate, a, b = form[1:]
	return WRAPCMP_WHOLE, "%s%s(%s, %s)" % ("!" if negate else "", name,
						b if swap else a, a if swap else b)

def wrapcmp_use(form):
	"""What the report says to use, for a form."""
	if form[0] != "existing":
		return "%s()" % form[1]
	name, swap, negate = form[1:4]
	return ("!%s()" % name if negate else
		"%s() with a and b swapped" % name if swap else "%s()" % name)

# A rule that inherits a position is run once for each site the earlier rule found,
# each time over the whole file: for the rules that bind the whole comparison that
# cost more than the search itself.  So each *_find rule notes its sites here, and
# the rule after it runs once per file, its positions constrained to the sites noted.
wrapcmp_found = {}

def wrapcmp_note_found(rule, pa, pz):
	wrapcmp_found.setdefault(rule + " a", set()).add(wrapcmp_key(pa))
	wrapcmp_found.setdefault(rule + " z", set()).add(wrapcmp_key(pz))

def wrapcmp_was_found(rule, side, p):
	return wrapcmp_key(p) in wrapcmp_found.get(rule + " " + side, ())
