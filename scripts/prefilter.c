/*
 * prefilter: print the names of the files in which a wrapcmp rule could match.
 *
 * Usage: prefilter [-v] < list-of-paths     (one path a line; output keeps input order)
 *        prefilter [-v] FILE...
 * -v also prints, for each passing file, the line of the first candidate site.
 *
 * Every wrapcmp rule matches a comparison  X OP Z  or  Z OP X  where OP is one of
 * < <= > >=, Z is the literal 0 and X is a subtraction A - B, possibly in a cast
 * to a signed type and possibly in parentheses:  A - B,  (A - B),  (T)(A - B),
 * ((T)(A - B)),  (T)((A - B)),  (tf)(A - B) ...  (Coccinelle's "X < Y matches
 * Y > X" isomorphism only swaps the sides, which we check both of.)
 *
 * Why a file without a candidate below cannot hold a match (the lossless argument):
 *
 *  1. spatch matches the file's own tokens.  It does not match through macro
 *     expansions, and comments, whitespace and line splices are not tokens.  So
 *     the OP token, the 0 token and every token of X are tokens of the file once
 *     comments are removed and backslash-newlines joined.  We also accept the
 *     zero written as 00, 0x0, 0U, 0L ... and wrapped in parentheses "(0)", which
 *     spatch's "0" does not match: that only lets more files through.
 *  2. OP and Z are adjacent tokens: Z is a single token (or "( 0 )").
 *  3. X is the whole operand of OP on the other side.  In C's grammar the operand
 *     of a relational operator is a shift-expression, so at bracket depth 0 it
 *     cannot contain any of  ; , { } ? : = op= && || == != < > <= >= | ^  nor an
 *     unmatched bracket.  We scan from OP away from Z, skipping balanced bracket
 *     groups, until one of those tokens.  The scanned span holds all of X at its
 *     near end (it may hold more: we do not stop at &, *, casts, keywords ...).
 *     X is one of  A - B,  (A - B),  (T)(A - B),  ((T)(A - B)),  (T)((A - B)):
 *       - A - B: its '-' is at depth 0 of X, hence at depth 0 of the span, since
 *         depth is counted from OP in both;
 *       - the others end (X OP 0) or start (0 OP X) with a parenthesized group next
 *         to OP; the '-' is inside that group, or, for 0 OP (T)(A - B), inside the
 *         '(' group right after it.  Going left, a group that follows an identifier
 *         is a call's argument list, f(x - 1) < 0, and is none of these (a cast's
 *         type ends in ')'; return, case, else and do are not taken as identifiers).
 *     A candidate is an OP next to a zero with such a '-' token ('->', '--' and
 *     '-=' are other tokens; an unary '-' counts too, which only adds files).
 *  4. Preprocessor lines are not code: spatch keeps one branch of an #if and
 *     ignores the directives.  We drop every directive line from the main token
 *     stream (so tokens on either side of an #ifdef become adjacent: more
 *     candidates, not fewer), and scan each #define body as its own stream too,
 *     in case spatch parses a macro body as an expression.
 *
 * make tree-exhaustive runs the rules on every file without this filter and
 * compares the findings with the filtered run: that is the empirical proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

enum { T_OTHER, T_ZERO, T_MINUS, T_REL, T_STOP, T_OPEN, T_CLOSE, T_IDENT };

struct tok {
	unsigned char kind;
	char ch;	/* bracket character for T_OPEN / T_CLOSE */
	int line;
};

static struct tok *toks;
static size_t ntoks, captoks;

static void push(unsigned char kind, char ch, int line)
{
	if (ntoks == captoks) {
		captoks = captoks ? 2 * captoks : 4096;
		toks = realloc(toks, captoks * sizeof(*toks));
		if (!toks) {
			perror("prefilter: realloc");
			exit(2);
		}
	}
	toks[ntoks].kind = kind;
	toks[ntoks].ch = ch;
	toks[ntoks].line = line;
	ntoks++;
}

/* words after which a '(' starts an expression, not a call's arguments */
static int is_expr_keyword(const char *s, size_t n)
{
	static const char *const kw[] = { "return", "case", "else", "do", NULL };
	int k;

	for (k = 0; kw[k]; k++)
		if (strlen(kw[k]) == n && !memcmp(s, kw[k], n))
			return 1;
	return 0;
}

static int is_zero_literal(const char *s, size_t n)
{
	size_t i = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		i = 2;
		if (i == n || s[i] != '0')
			return 0;
	}
	if (i == n || s[i] != '0')
		return 0;
	while (i < n && s[i] == '0')
		i++;
	while (i < n && strchr("uUlL", s[i]))
		i++;
	return i == n;
}

/* is the token run toks[a..b) a zero: "0" or "( 0 )", "((0))" ... */
static int zero_at(size_t i, int dir, size_t lo, size_t hi, size_t *after)
{
	/* dir = +1: zero starts at i; dir = -1: zero ends at i */
	size_t depth = 0;

	while (i >= lo && i < hi && toks[i].kind == (dir > 0 ? T_OPEN : T_CLOSE) &&
	       toks[i].ch == (dir > 0 ? '(' : ')')) {
		depth++;
		i += dir;
	}
	if (!(i >= lo && i < hi) || toks[i].kind != T_ZERO)
		return 0;
	i += dir;
	while (depth) {
		if (!(i >= lo && i < hi) || toks[i].kind != (dir > 0 ? T_CLOSE : T_OPEN))
			return 0;
		depth--;
		i += dir;
	}
	(void)after;
	return 1;
}

/* index just past the bracket group that starts at i going in direction dir, or hi */
static size_t skip_group(size_t i, int dir, size_t lo, size_t hi)
{
	long depth = 0;

	for (; i >= lo && i < hi; i += dir) {
		if (toks[i].kind == (dir > 0 ? T_OPEN : T_CLOSE))
			depth++;
		else if (toks[i].kind == (dir > 0 ? T_CLOSE : T_OPEN) && --depth == 0)
			return i + dir;
	}
	return (size_t)-1;
}

/* does the group starting at i (an opener going dir) hold a '-' token? */
static int group_has_minus(size_t i, int dir, size_t lo, size_t hi)
{
	size_t end = skip_group(i, dir, lo, hi), j;

	if (end == (size_t)-1)
		return 0;
	for (j = i; j != end; j += dir)
		if (toks[j].kind == T_MINUS)
			return 1;
	return 0;
}

/* is toks[i] a parenthesis that opens a group in scan direction dir: '(' going right, ')' going left */
static int scan_open_paren(size_t i, int dir, size_t lo, size_t hi)
{
	if (!(i >= lo && i < hi))
		return 0;
	if (dir > 0)
		return toks[i].kind == T_OPEN && toks[i].ch == '(';
	return toks[i].kind == T_CLOSE && toks[i].ch == ')';
}

/*
 * Could the operand next to index i, going in direction dir, be a subtraction
 * A - B, (A - B), (T)(A - B), ((T)(A - B)) or (T)((A - B))?
 *  - a '-' at bracket depth 0 of the operand's span (A - B itself), or
 *  - going left (X OP 0): X ends in ')' and the group it closes holds a '-';
 *  - going right (0 OP X): X starts with '(' and that group, or the '(' group
 *    right after it (the cast's operand), holds a '-'.
 * The span ends where the operand must end (see the header comment).
 */
static int operand_has_minus(size_t i, int dir, size_t lo, size_t hi)
{
	long depth = 0;
	size_t j;

	if (scan_open_paren(i, dir, lo, hi)) {
		/*
		 * The group adjacent to OP.  Going left, a group right after an
		 * identifier is a call's argument list, f(x - 1) >= 0, not a
		 * subtraction or a cast (a cast's type ends in ')').  Keywords that
		 * can come before an expression (return, case, else, do) are not
		 * identifiers here.
		 */
		size_t before = dir < 0 ? skip_group(i, dir, lo, hi) : (size_t)-1;
		int call = before != (size_t)-1 && before >= lo && before < hi &&
			   toks[before].kind == T_IDENT;

		if (!call && group_has_minus(i, dir, lo, hi))
			return 1;
		if (dir > 0) {
			size_t next = skip_group(i, dir, lo, hi);

			if (next != (size_t)-1 && scan_open_paren(next, dir, lo, hi) &&
			    group_has_minus(next, dir, lo, hi))
				return 1;
		}
	}
	for (j = i; j >= lo && j < hi; j += dir) {
		unsigned char k = toks[j].kind;

		if (k == (dir > 0 ? T_OPEN : T_CLOSE)) {
			depth++;
		} else if (k == (dir > 0 ? T_CLOSE : T_OPEN)) {
			if (depth == 0)
				return 0;
			depth--;
		} else if (depth == 0 && k == T_MINUS) {
			return 1;
		} else if (depth == 0 && (k == T_STOP || k == T_REL)) {
			return 0;
		}
	}
	return 0;
}

/* first candidate line in toks[lo..hi), or 0 */
static int scan_stream(size_t lo, size_t hi)
{
	size_t i;

	for (i = lo; i < hi; i++) {
		if (toks[i].kind != T_REL)
			continue;
		if (i + 1 < hi && zero_at(i + 1, +1, lo, hi, NULL) && i > lo &&
		    operand_has_minus(i - 1, -1, lo, hi))
			return toks[i].line;
		if (i > lo && zero_at(i - 1, -1, lo, hi, NULL) &&
		    operand_has_minus(i + 1, +1, lo, hi))
			return toks[i].line;
	}
	return 0;
}

static const char *const stops3[] = { "<<=", ">>=", "...", NULL };
static const char *const ops2[] = {
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", NULL
};

/*
 * Tokenize buf[0..n) (comments and splices already removed, strings blanked).
 * Directive lines go to the define streams, recorded as [start,end) pairs.
 */
static size_t *dstreams;
static size_t ndstreams, capdstreams;

static void add_dstream(size_t a, size_t b)
{
	if (ndstreams + 2 > capdstreams) {
		capdstreams = capdstreams ? 2 * capdstreams : 64;
		dstreams = realloc(dstreams, capdstreams * sizeof(*dstreams));
		if (!dstreams) {
			perror("prefilter: realloc");
			exit(2);
		}
	}
	dstreams[ndstreams++] = a;
	dstreams[ndstreams++] = b;
}

static void classify_punct(const char *p, size_t len, int line)
{
	if (len == 1) {
		switch (*p) {
		case '-': push(T_MINUS, 0, line); return;
		case '<': case '>': push(T_REL, 0, line); return;
		case '(': case '[': case '{': push(T_OPEN, *p, line); return;
		case ')': case ']': case '}': push(T_CLOSE, *p, line); return;
		case ';': case ',': case '?': case ':': case '=': case '|': case '^':
			push(T_STOP, 0, line); return;
		default: push(T_OTHER, 0, line); return;
		}
	}
	if (len == 2) {
		if (!memcmp(p, "<=", 2) || !memcmp(p, ">=", 2)) {
			push(T_REL, 0, line);
			return;
		}
		if (!memcmp(p, "->", 2) || !memcmp(p, "++", 2) || !memcmp(p, "--", 2) ||
		    !memcmp(p, "<<", 2) || !memcmp(p, ">>", 2) || !memcmp(p, "##", 2)) {
			push(T_OTHER, 0, line);
			return;
		}
		push(T_STOP, 0, line);	/* == != && || op= */
		return;
	}
	/* <<= >>= are assignments; ... only appears in declarations and case ranges */
	push(T_STOP, 0, line);
}

static int scan_buffer(char *buf, size_t n, int *first_line)
{
	size_t i = 0, main_start;
	int line = 1, at_line_start = 1, in_directive = 0;
	size_t dstart = 0;
	/* main stream tokens are collected first in toks; define tokens after a marker */
	struct tok *mtoks;
	size_t nm;

	ntoks = 0;
	ndstreams = 0;
	main_start = 0;
	/* pass 1: main stream (non-directive lines) */
	/* We tokenize once, tagging directive tokens, then split. */
	{
		/* tag array parallel to toks: 0 main, >0 define stream id, -1 other directive */
		static int *tag;
		static size_t captag;
		int cur = 0, ndef = 0;

		while (i < n) {
			char c = buf[i];

			if (c == '\n') {
				line++;
				at_line_start = 1;
				if (in_directive) {
					in_directive = 0;
					cur = 0;
				}
				i++;
				continue;
			}
			if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
				i++;
				continue;
			}
			if (at_line_start && c == '#') {
				size_t j = i + 1;

				while (j < n && (buf[j] == ' ' || buf[j] == '\t'))
					j++;
				in_directive = 1;
				at_line_start = 0;
				if (n - j >= 6 && !memcmp(buf + j, "define", 6) &&
				    (j + 6 == n || !(isalnum((unsigned char)buf[j + 6]) || buf[j + 6] == '_'))) {
					cur = ++ndef;
					i = j + 6;
				} else {
					cur = -1;
					/* skip the rest of the directive line */
					while (i < n && buf[i] != '\n')
						i++;
				}
				continue;
			}
			at_line_start = 0;
			if (ntoks + 1 > captag) {
				captag = captag ? 2 * captag : 4096;
				while (captag < ntoks + 1)
					captag *= 2;
				tag = realloc(tag, captag * sizeof(*tag));
				if (!tag) {
					perror("prefilter: realloc");
					exit(2);
				}
			}
			if (isalpha((unsigned char)c) || c == '_' || c == '$') {
				size_t s0 = i;

				while (i < n && (isalnum((unsigned char)buf[i]) || buf[i] == '_' || buf[i] == '$'))
					i++;
				tag[ntoks] = cur;
				push(is_expr_keyword(buf + s0, i - s0) ? T_OTHER : T_IDENT, 0, line);
				continue;
			}
			if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)buf[i + 1]))) {
				size_t s = i;

				i++;
				while (i < n) {
					char d = buf[i];

					if ((d == '+' || d == '-') && strchr("eEpP", buf[i - 1]))
						i++;
					else if (isalnum((unsigned char)d) || d == '_' || d == '.')
						i++;
					else
						break;
				}
				tag[ntoks] = cur;
				push(is_zero_literal(buf + s, i - s) ? T_ZERO : T_OTHER, 0, line);
				continue;
			}
			if (c == '"' || c == '\'') {
				/* blanked literal: the quotes remain, contents are spaces */
				char q = c;

				i++;
				while (i < n && buf[i] != q && buf[i] != '\n')
					i++;
				if (i < n && buf[i] == q)
					i++;
				tag[ntoks] = cur;
				push(T_OTHER, 0, line);
				continue;
			}
			{
				size_t len = 1;
				int k;

				for (k = 0; stops3[k]; k++)
					if (n - i >= 3 && !memcmp(buf + i, stops3[k], 3))
						len = 3;
				if (len == 1)
					for (k = 0; ops2[k]; k++)
						if (n - i >= 2 && !memcmp(buf + i, ops2[k], 2))
							len = 2;
				tag[ntoks] = cur;
				classify_punct(buf + i, len, line);
				i += len;
			}
		}
		/* split: copy main tokens to the front (stable), define streams after */
		mtoks = malloc((ntoks + 1) * sizeof(*mtoks));
		if (!mtoks) {
			perror("prefilter: malloc");
			exit(2);
		}
		nm = 0;
		for (size_t t = 0; t < ntoks; t++)
			if (tag[t] == 0)
				mtoks[nm++] = toks[t];
		{
			size_t total = nm;
			int d;

			/* define streams: consecutive tokens with the same tag */
			for (size_t t = 0; t < ntoks;) {
				if (tag[t] <= 0) {
					t++;
					continue;
				}
				d = tag[t];
				dstart = total;
				while (t < ntoks && tag[t] == d)
					mtoks[total++] = toks[t++];
				add_dstream(dstart, total);
			}
			memcpy(toks, mtoks, total * sizeof(*toks));
			ntoks = total;
		}
		free(mtoks);
	}
	*first_line = scan_stream(main_start, nm);
	if (*first_line)
		return 1;
	for (size_t d = 0; d < ndstreams; d += 2) {
		*first_line = scan_stream(dstreams[d], dstreams[d + 1]);
		if (*first_line)
			return 1;
	}
	return 0;
}

/*
 * Remove comments and backslash-newlines, blank string and character literal
 * contents, keep newlines (so line numbers stay right).  In place; returns new length.
 */
static size_t clean(char *b, size_t n)
{
	size_t r = 0, w = 0;
	int pending_nl = 0;	/* newlines swallowed by splices, re-emitted at the next newline */

	while (r < n) {
		char c = b[r];

		if (c == '\\' && r + 1 < n && (b[r + 1] == '\n' || (b[r + 1] == '\r' && r + 2 < n && b[r + 2] == '\n'))) {
			r += b[r + 1] == '\n' ? 2 : 3;
			pending_nl++;
			continue;
		}
		if (c == '/' && r + 1 < n && b[r + 1] == '*') {
			r += 2;
			b[w++] = ' ';
			while (r < n && !(b[r] == '*' && r + 1 < n && b[r + 1] == '/')) {
				if (b[r] == '\n')
					pending_nl++;
				r++;
			}
			r = r + 2 <= n ? r + 2 : n;
			continue;
		}
		if (c == '/' && r + 1 < n && b[r + 1] == '/') {
			while (r < n && b[r] != '\n') {
				if (b[r] == '\\' && r + 1 < n && b[r + 1] == '\n') {
					pending_nl++;
					r++;
				}
				r++;
			}
			continue;
		}
		if (c == '"' || c == '\'') {
			char q = c;

			b[w++] = b[r++];
			while (r < n && b[r] != q && b[r] != '\n') {
				if (b[r] == '\\' && r + 1 < n) {
					if (b[r + 1] == '\n')
						pending_nl++;
					r += 2;
					continue;
				}
				r++;
			}
			if (r < n && b[r] == q)
				b[w++] = b[r++];
			continue;
		}
		if (c == '\n') {
			b[w++] = '\n';
			r++;
			/*
			 * Spliced lines were one logical line; keep later line numbers
			 * right by emitting the swallowed newlines as blank lines here.
			 * A '#' directive's logical line has already ended.
			 */
			while (pending_nl) {
				b[w++] = '\n';
				pending_nl--;
			}
			continue;
		}
		b[w++] = b[r++];
	}
	return w;
}

static char *buf;
static size_t capbuf;

static int check_file(const char *path, int verbose)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, got;
	int line;

	if (!f) {
		fprintf(stderr, "prefilter: %s: cannot open\n", path);
		/* let spatch see it and fail loudly rather than drop it silently */
		return 1;
	}
	for (;;) {
		if (capbuf - n < 65536) {
			capbuf = capbuf ? 2 * capbuf : 1 << 20;
			buf = realloc(buf, capbuf);
			if (!buf) {
				perror("prefilter: realloc");
				exit(2);
			}
		}
		got = fread(buf + n, 1, capbuf - n, f);
		if (got == 0)
			break;
		n += got;
	}
	fclose(f);
	n = clean(buf, n);
	if (scan_buffer(buf, n, &line)) {
		if (verbose)
			printf("%s:%d\n", path, line);
		else
			printf("%s\n", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int verbose = 0, i = 1;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = 1;
		i = 2;
	}
	if (i < argc) {
		for (; i < argc; i++)
			check_file(argv[i], verbose);
		return 0;
	}
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = 0;
		if (len)
			check_file(line, verbose);
	}
	free(line);
	return 0;
}
