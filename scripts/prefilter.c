/*
 * prefilter: print the names of the files in which a wrapcmp rule could match.
 *
 * Usage: prefilter [-v|-k] [-0] [-t] < list-of-paths   (one path a line; output
 *        keeps input order)
 *        prefilter [-v|-k] [-t] FILE...
 * -0 reads NUL-terminated paths and ends each output field with a NUL instead of a
 *    tab or a newline, so that any file name passes through (scripts/wrapcmp-run).
 * -v also prints, for each passing file, the line of the first candidate site.
 * -k also prints, after a tab, the kinds of candidate the file holds: 'c' for a
 *    comparison of a difference with zero (items 1-4 below: the rules whose header
 *    says "// Prefilter: comparison"), 't' for a difference kept in a variable
 *    (item 5: "// Prefilter: temporary").  scripts/wrapcmp-run sends each file only
 *    to the rules of its kinds.
 * -t counts every operand as typable (item 6): the runner reads the headers of
 *    every file, from a C project's compile commands.
 *
 * Every wrapcmp rule but wrapcmp_temporary.cocci (items 5, 6) matches a comparison  X OP Z  or  Z OP X  where OP is one of
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
 *  5. wrapcmp_temporary.cocci matches  d = A - B;  or  T d = A - B;  followed
 *     later by  d OP 0  or  0 OP d,  d an identifier, in one function body; it
 *     drops sites where A or B is one constant (a number or a CAPITAL name).
 *     Its '=' has d's name right before it (not after . or -> or an opening
 *     '(': a statement starts there), and its value, once the parentheses
 *     around the whole of it are stripped (spatch's isomorphisms strip them),
 *     has a binary '-' (one that follows the end of an operand) at bracket
 *     depth 0 with no operator of lower or equal precedence after it at depth
 *     0 (a binary + & << >> < > <= >=: a - b + c is a sum, not A - B).  The
 *     value ends at the first  ; , ? : = op= && || == != | ^  at depth 0,
 *     none of which A - B holds at depth 0.  The comparison has d's name as
 *     the whole operand next to OP, perhaps in balanced parentheses, on the
 *     side away from the zero.  The rule also wants the comparison to come
 *     after the assignment in the text, with no use of d in between (the
 *     positions of all of d's uses that spatch sees).  A file passes when a
 *     name is assigned such a value and compared with zero later in the same
 *     top-level brace group (a function body), in the main code or in one
 *     #define body, and no token in between is surely such a use (the name
 *     after ( ; = return ... : see surely_used()).
 *  6. The temporary rule reports only when spatch knows the types of d, A and
 *     B, and the runner gives it no header (--no-includes) unless the file
 *     reaches the typed pass, which reads headers only for the files where the
 *     cast rule left operand types to the build: a file with no bracketed
 *     candidate (item 7), where the cast rules cannot match, never does.  In
 *     such a file an operand that is a field  x->f, s.f[i], x->g(y)  has a
 *     type only when the file declares a field of that name (the name occurs
 *     in the braces of a struct or union, not after '.' or '->'), and a call
 *     g(x)  only when the file declares g (after a name, '*' or ')', or as a
 *     #define) or the rule types it by its name (sizeof, get_jiffies_64(),
 *     readl() and the other accessors with "read" in their name).  A value
 *     whose A or B is such a field or call, declared nowhere in the file, is
 *     not counted there.  In a file with a bracketed candidate, and in
 *     #define bodies, every operand counts: the typed pass may find the types
 *     in headers.  (spatch does type  x->f - n  when n has a type, so only a
 *     whole operand that is such a field or call is left out.)
 *  7. Of the rules of items 1-4, only the cast rules (wrapcmp_cast.cocci and
 *     the unsigned casts of wrapcmp_bugs.cocci) match a difference in a cast,
 *     and their forms all have a bracket group holding the '-' next to OP (or,
 *     for 0 OP (T)(A - B), right after the group next to it): the bracketed
 *     candidates.  Every other form is the plain  A - B OP 0  or  (A - B) OP 0
 *     of wrapcmp_bugs.cocci and wrapcmp_signed.cocci, and both report only
 *     when they know the types of A and B (as the temporary rule, by the same
 *     code).  So a plain candidate counts only when the operand's top operator
 *     is a binary '-' (a - b + c  or  a - b << 2  is no difference, and
 *     0 < a - b & c  compares a - b), and, in a file with no bracketed
 *     candidate (item 6: no typed pass), when neither A nor B is a field or
 *     a call that the file does not declare.  Where the span does not show
 *     the split for sure (a '-' after a cast's ')'; a group that is not all
 *     of the operand, x - (a - b) < 0), the candidate counts.
 *
 * make tree-exhaustive runs the rules on every file without this filter and
 * compares the findings with the filtered run: that is the empirical proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

enum {
	T_OTHER, T_ZERO, T_MINUS, T_REL, T_STOP, T_OPEN, T_CLOSE, T_IDENT,
	T_ASSIGN,	/* '=' (a stop, like the compound assignments) */
	T_KEYWORD,	/* return case else do: an expression may follow */
	T_MEMBER,	/* . -> */
	T_AMP,		/* a single '&': address-of or bitwise and */
	T_NUMBER,	/* a number other than zero */
};

struct tok {
	unsigned char kind;
	char ch;	/* bracket character for T_OPEN / T_CLOSE, the character of a
			 * one-character T_STOP or T_OTHER */
	int line;
	const char *name;	/* T_IDENT: its text in the buffer, name_len long */
	size_t name_len;
};

static struct tok *toks;
static size_t ntoks, captoks;
/* the #define bodies: [start, end) pairs of token indexes after the main stream */
static size_t *dstreams;
static size_t ndstreams, capdstreams;

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
	toks[ntoks].name = NULL;
	toks[ntoks].name_len = 0;
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

static int plain_difference(size_t s, size_t e, int dir);

/* can the token at j, or the edge of the stream, stand right before (dir < 0) or
 * after (dir > 0) the whole operand of a relational operator */
static int operand_boundary(size_t j, int dir, size_t lo, size_t hi)
{
	unsigned char k;

	if (!(j >= lo && j < hi))
		return 1;
	k = toks[j].kind;
	if (k == T_STOP || k == T_ASSIGN || k == T_REL || k == T_AMP)
		return 1;
	return dir < 0 ? k == T_OPEN || k == T_KEYWORD : k == T_CLOSE;
}

/*
 * The group next to OP at i (going dir) holds a '-'.  2 when it may be a form
 * of the cast rules: a ')' before it ((T)(A - B) OP 0), a '(' after it
 * (0 OP (T)(A - B)), or a '(' first inside it (((T)(A - B)) OP 0).  When the
 * group is all of the operand, (A - B) OP 0, plain_difference() of its inside.
 * Else (x - (a - b) < 0 ...) 1: a plain candidate, always counted.
 */
static int paren_difference(size_t i, int dir, size_t lo, size_t hi)
{
	size_t past = skip_group(i, dir, lo, hi);
	size_t open = dir < 0 ? past + 1 : i, close = dir < 0 ? i : past - 1;

	if (toks[open + 1].kind == T_OPEN && toks[open + 1].ch == '(')
		return 2;
	if (dir < 0 ? past >= lo && past < hi && toks[past].kind == T_CLOSE &&
		      toks[past].ch == ')' : scan_open_paren(past, dir, lo, hi))
		return 2;
	if (!operand_boundary(past, dir, lo, hi))
		return 1;
	return plain_difference(open + 1, close, -1);
}

/*
 * Could the operand next to index i, going in direction dir, be a subtraction
 * A - B, (A - B), (T)(A - B), ((T)(A - B)) or (T)((A - B))?  2 when it may be
 * one of the bracketed forms, those of the cast rules (item 7):
 *  - going left (X OP 0): X ends in ')' and the group it closes holds a '-';
 *  - going right (0 OP X): X starts with '(' and that group, or the '(' group
 *    right after it (the cast's operand), holds a '-'.
 * 1 when it may be a plain A - B: plain_difference() of the operand's span,
 * which ends where the operand must end (see the header comment).  0 otherwise.
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
			return paren_difference(i, dir, lo, hi);
		if (dir > 0) {
			size_t next = skip_group(i, dir, lo, hi);

			if (next != (size_t)-1 && scan_open_paren(next, dir, lo, hi) &&
			    group_has_minus(next, dir, lo, hi))
				return 2;
		}
	}
	/* the span: from i away from OP to the first token that ends the operand */
	for (j = i; j >= lo && j < hi; j += dir) {
		unsigned char k = toks[j].kind;

		if (k == (dir > 0 ? T_OPEN : T_CLOSE)) {
			depth++;
		} else if (k == (dir > 0 ? T_CLOSE : T_OPEN)) {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && (k == T_STOP || k == T_ASSIGN || k == T_REL)) {
			break;
		}
	}
	if (dir > 0)
		return plain_difference(i, j < hi ? j : hi, dir);
	return plain_difference(j >= lo && j < hi ? j + 1 : lo, i + 1, dir);
}

/* first line in toks[lo..hi) of a candidate of the kind operand_has_minus() gives as
 * want (2: a bracketed form, 1: a plain one), or 0 */
static int scan_stream(size_t lo, size_t hi, int want)
{
	size_t i;

	for (i = lo; i < hi; i++) {
		if (toks[i].kind != T_REL)
			continue;
		if (i + 1 < hi && zero_at(i + 1, +1, lo, hi, NULL) && i > lo &&
		    operand_has_minus(i - 1, -1, lo, hi) == want)
			return toks[i].line;
		if (i > lo && zero_at(i - 1, -1, lo, hi, NULL) &&
		    operand_has_minus(i + 1, +1, lo, hi) == want)
			return toks[i].line;
	}
	return 0;
}

static int same_name(const struct tok *a, const struct tok *b)
{
	return a->name_len == b->name_len && !memcmp(a->name, b->name, a->name_len);
}

/* can the '-' at i be binary: does the token before it end an operand (a name, a literal, ')' ...) */
static int binary_minus(size_t i)
{
	unsigned char k = toks[i - 1].kind;

	return !(k == T_ASSIGN || k == T_STOP || k == T_REL || k == T_MINUS || k == T_OPEN);
}

/*
 * Is the name at i, followed by '=', not a variable assigned in a statement of
 * its own:  s->d = ...,  s.d = ...,  for (i = n - 1; ...),  while ((d = a - b) ...)?
 */
static int not_a_statement(size_t i, size_t lo)
{
	return i > lo && (toks[i - 1].kind == T_MEMBER ||
			 (toks[i - 1].kind == T_OPEN && toks[i - 1].ch == '('));
}

/*
 * Can the token at i come right before (dir < 0) or after (dir > 0) the whole
 * operand of a relational operator, so that the name next to it is all of it?
 * Not after  ->  .  *  !  ~  +  ++  <<  a cast's ')'  sizeof ... ; not before
 * ( [  ->  .  *  +  -  ++ ... .  '&' may be a bitwise and, of lower precedence:
 * accepted.  The edge of the stream is accepted too.
 */
static int operand_edge(size_t i, int dir, size_t lo, size_t hi)
{
	if (!(i >= lo && i < hi))
		return 1;
	switch (toks[i].kind) {
	case T_STOP: case T_ASSIGN: case T_REL: case T_AMP: case T_KEYWORD:
		return 1;
	case T_OPEN:
		return dir < 0 || toks[i].ch == '{';
	case T_CLOSE:
		return dir > 0 || toks[i].ch == '}';
	default:
		return 0;
	}
}

/*
 * The name that is the whole operand next to the relational operator at i,
 * going dir, perhaps in parentheses:  d < 0,  (d) < 0,  0 > d ...; or -1.
 */
static long compared_name(size_t i, int dir, size_t lo, size_t hi)
{
	size_t j = i + dir, name, parens = 0;

	while (j >= lo && j < hi && toks[j].kind == (dir > 0 ? T_OPEN : T_CLOSE) &&
	       toks[j].ch == (dir > 0 ? '(' : ')')) {
		parens++;
		j += dir;
	}
	if (!(j >= lo && j < hi) || toks[j].kind != T_IDENT)
		return -1;
	name = j;
	for (j += dir; parens; parens--, j += dir)
		if (!(j >= lo && j < hi) || toks[j].kind != (dir > 0 ? T_CLOSE : T_OPEN) ||
		    toks[j].ch != (dir > 0 ? ')' : '('))
			return -1;
	return operand_edge(j, dir, lo, hi) ? (long)name : -1;
}

/* is toks[a..b) one constant token: a number or a name in capitals (a macro) */
static int constant_run(size_t a, size_t b)
{
	size_t k;

	if (b != a + 1)
		return 0;
	if (toks[a].kind == T_NUMBER || toks[a].kind == T_ZERO)
		return 1;
	if (toks[a].kind != T_IDENT || !isupper((unsigned char)toks[a].name[0]))
		return 0;
	for (k = 1; k < toks[a].name_len; k++)
		if (!(isupper((unsigned char)toks[a].name[k]) ||
		      isdigit((unsigned char)toks[a].name[k]) || toks[a].name[k] == '_'))
			return 0;
	return 1;
}

/*
 * Items 6 and 7 of the header.  Set while the main stream of a file with no
 * bracketed comparison candidate is scanned for plain ones and for temporaries.
 */
static int strict_operands;
/*
 * -t: the runner reads headers for every file (a project's compile commands), so
 * item 6's test of operands typable without headers is not made.
 */
static int headers_read;
static size_t file_ntoks;	/* all tokens of the file: main stream, then #define bodies */

/* is toks[i] the first token of a #define body (the macro's name) */
static int starts_define(size_t i)
{
	size_t d;

	for (d = 0; d < ndstreams; d += 2)
		if (dstreams[d] == i)
			return 1;
	return 0;
}

/* the first token of the stream (main or #define body) that holds token j */
static size_t stream_start(size_t j)
{
	size_t d, lo = 0;

	for (d = 0; d < ndstreams; d += 2)
		if (dstreams[d] <= j && j < dstreams[d + 1])
			lo = dstreams[d];
	return lo;
}

static int is_name(size_t i, const char *s)
{
	return toks[i].kind == T_IDENT && toks[i].name_len == strlen(s) &&
	       !memcmp(toks[i].name, s, toks[i].name_len);
}

/*
 * Is the token at j inside the braces of a struct or union (or of a #define
 * body, which spatch does not expand: counted too)?  Going back from j, the
 * innermost '{' that encloses it (brackets of a declarator such as  (*f)(void)
 * are stepped out of) has  struct  or  union  before it, past names and
 * attribute groups:  struct __packed s {,  union {.
 */
static int in_record(size_t j)
{
	size_t lo = stream_start(j), k = j;
	long depth = 0;

	while (k > lo) {
		k--;
		if (toks[k].kind == T_CLOSE) {
			depth++;
		} else if (toks[k].kind == T_OPEN && depth > 0) {
			depth--;
		} else if (toks[k].kind == T_OPEN && toks[k].ch == '{') {
			int steps;

			for (steps = 0; k > lo && steps < 12; steps++) {
				k--;
				if (is_name(k, "struct") || is_name(k, "union"))
					return 1;
				if (toks[k].kind == T_CLOSE && toks[k].ch == ')') {
					k = skip_group(k, -1, lo, j);
					if (k == (size_t)-1)
						return 1;
					k++;
				} else if (toks[k].kind != T_IDENT) {
					return 0;
				}
			}
			return k <= lo;
		}
	}
	return lo > 0;		/* a #define body */
}

/*
 * Could a declaration in this file give the name at i a type?  member == 1, a
 * struct or union field: the name occurs in the braces of a struct or union
 * (not after '.' or '->').  member == 0, a function: the name occurs after a
 * name, '*' or ')' (declared or defined as  T *f(...)  or  T (*f)(...)), where
 * no call can stand (a call follows ( = , ; { return an operator ...).  Either
 * one: the name of a #define.
 */
static int declared_here(size_t i, int member)
{
	size_t j;

	for (j = 0; j < file_ntoks; j++) {
		unsigned char k;

		if (toks[j].kind != T_IDENT || !same_name(&toks[j], &toks[i]))
			continue;
		if (j == 0 || starts_define(j))
			return 1;
		k = toks[j - 1].kind;
		if (member ? k != T_MEMBER && in_record(j) :
		    k == T_IDENT || k == T_CLOSE || (k == T_OTHER && toks[j - 1].ch == '*'))
			return 1;
	}
	return 0;
}

/* is the name at i a call that the rules type by its name: sizeof, get_jiffies_64(),
 * readl() and ioread32() and their kin (WRAPCMP_TEXT_TYPES) */
static int typed_by_name(size_t i)
{
	const char *s = toks[i].name;
	size_t n = toks[i].name_len, k;

	if (is_name(i, "sizeof") || is_name(i, "get_jiffies_64"))
		return 1;
	for (k = 0; k + 4 <= n; k++)
		if (!memcmp(s + k, "read", 4))
			return 1;
	return 0;
}

/*
 * Item 6 of the header: can spatch, reading no header, know the type of the
 * operand toks[a..b)?  0 only for an operand that is a name followed by
 * member accesses, calls and subscripts (x->f, s.f[i], g(x), x->g(y)) whose
 * last name is a field or a function that nothing in this file declares.
 * Everything else (a plain name, a cast, a literal, arithmetic ...) gives 1.
 */
static int type_knowable(size_t a, size_t b)
{
	size_t j, last = a;

	if (a >= b || toks[a].kind != T_IDENT)
		return 1;
	for (j = a + 1; j < b;) {
		if (toks[j].kind == T_MEMBER && j + 1 < b && toks[j + 1].kind == T_IDENT) {
			last = j + 1;
			j += 2;
		} else if (toks[j].kind == T_OPEN && toks[j].ch != '{') {
			j = skip_group(j, +1, a, b);
			if (j == (size_t)-1)
				return 1;
		} else {
			return 1;
		}
	}
	if (last + 1 < b && toks[last + 1].kind == T_OPEN && toks[last + 1].ch == '(') {
		if (last == a)		/* g(...): the type of a function */
			return typed_by_name(last) || declared_here(last, 0);
		return declared_here(last, 1);	/* x->g(...): a field */
	}
	return last == a || declared_here(last, 1);
}

/*
 * Is the '+', '-' or '&' at j surely a binary operator: the token before it,
 * inside the span that starts at s, surely ends an operand: a name, a number,
 * ']', or the ')' of a group right after a name (a call, sizeof(x)).  After
 * another ')' it may follow a cast, (int)&x, and after sizeof it is unary: not
 * counted, which keeps more candidates.
 */
static int surely_binary(size_t j, size_t s)
{
	unsigned char k;

	if (j <= s)
		return 0;
	k = toks[j - 1].kind;
	if (k == T_IDENT)
		return !is_name(j - 1, "sizeof") && !is_name(j - 1, "_Alignof") &&
		       !is_name(j - 1, "__alignof__") && !is_name(j - 1, "alignof");
	if (k == T_CLOSE && toks[j - 1].ch == ')') {
		size_t before = skip_group(j - 1, -1, s, j);

		return before != (size_t)-1 && before >= s && before < j &&
		       toks[before].kind == T_IDENT;
	}
	return k == T_NUMBER || k == T_ZERO || (k == T_CLOSE && toks[j - 1].ch == ']');
}

/*
 * Item 7 of the header: can the operand in the span toks[s..e), with no bracket
 * group next to OP, be the plain  A - B  of the rules bugs and signed?  Going
 * left (dir < 0, X OP 0) X is a suffix of the span; going right it is a prefix
 * that ends at the first binary '&' (0 < a - b & c  is  (0 < a - b) & c).  Its
 * top operator must be a binary '-': one is there at depth 0 and no binary +,
 * &, << or >> follows it at depth 0 (a - b + c  is a sum).  With
 * strict_operands, both sides must also be typable without headers
 * (type_knowable()); A is taken from the start of the span, which may hold more
 * than A going left: that only makes it look typable.  The split is trusted
 * only at a '-' that is surely binary (after a name, a number or ']').
 */
static int plain_difference(size_t s, size_t e, int dir)
{
	size_t j, last = (size_t)-1;
	long depth = 0;
	int sum = 0;

	for (j = s; j < e; j++) {
		unsigned char k = toks[j].kind;

		if (k == T_OPEN) {
			depth++;
		} else if (k == T_CLOSE) {
			depth--;
		} else if (depth != 0) {
			continue;
		} else if (k == T_AMP && surely_binary(j, s)) {
			if (dir > 0)
				break;
			if (last != (size_t)-1)
				sum = 1;
		} else if (k == T_MINUS && j > s && binary_minus(j)) {
			last = j;
			sum = 0;
		} else if (last != (size_t)-1 && k == T_OTHER &&
			   ((toks[j].ch == '+' && surely_binary(j, s)) ||
			    toks[j].ch == '<' || toks[j].ch == '>')) {
			sum = 1;
		}
	}
	if (last == (size_t)-1 || sum)
		return 0;
	if (!strict_operands || !surely_binary(last, s))
		return 1;
	return type_knowable(s, last) && type_knowable(last + 1, j);
}

/* does the token at i end an operand, so that a '+' or '&' after it is binary */
static int ends_operand(size_t i)
{
	unsigned char k = toks[i].kind;

	return k == T_NUMBER || k == T_ZERO || (k == T_IDENT && !is_name(i, "sizeof"));
}

/*
 * Is the token at j, at bracket depth 0 after a binary '-', an operator of no
 * higher precedence than '-' (a binary '+', << >> < > <= >=, a binary '&'), so
 * that the '-' is not the top operator:  a - b + c  is  (a - b) + c.
 */
static int ends_difference(size_t j)
{
	unsigned char k = toks[j].kind;

	if (k == T_REL)
		return 1;
	if (k == T_OTHER && (toks[j].ch == '<' || toks[j].ch == '>'))
		return 1;
	return (k == T_AMP || (k == T_OTHER && toks[j].ch == '+')) && ends_operand(j - 1);
}

/*
 * Is toks[a..b), an assigned value, the A - B of the rule: its top operator a
 * binary '-', perhaps inside parentheses around the whole value, which spatch's
 * isomorphisms strip:  d = (a - b).  Neither side is one constant token (the
 * rule leaves  d = len - 4  alone), and in a file with no bracketed candidate
 * spatch could know both sides' types (item 6).
 */
static int difference(size_t a, size_t b)
{
	size_t j, last = 0;
	long depth = 0;
	int sum = 0;

	while (b - a >= 2 && toks[a].kind == T_OPEN && toks[a].ch == '(' &&
	       skip_group(a, +1, a, b) == b) {
		a++;
		b--;
	}
	for (j = a; j < b; j++) {
		unsigned char k = toks[j].kind;

		if (k == T_OPEN)
			depth++;
		else if (k == T_CLOSE)
			depth--;
		else if (depth == 0 && k == T_MINUS && j > a && binary_minus(j))
			last = j, sum = 0;
		else if (depth == 0 && last && ends_difference(j))
			sum = 1;
	}
	return last && !sum && !constant_run(a, last) && !constant_run(last + 1, b) &&
	       (!strict_operands || (type_knowable(a, last) && type_knowable(last + 1, b)));
}

/*
 * Can the value assigned by the '=' at i be the A - B of the rule?  The value
 * ends at the first  ; , ? : = op= && || == != | ^  at depth 0 or at an
 * unmatched closing bracket.
 */
static int assigned_difference(size_t i, size_t hi)
{
	size_t j;
	long depth = 0;

	for (j = i + 1; j < hi; j++) {
		unsigned char k = toks[j].kind;

		if (k == T_OPEN)
			depth++;
		else if (k == T_CLOSE && --depth < 0)
			break;
		else if (depth == 0 && (k == T_STOP || k == T_ASSIGN))
			break;
	}
	return difference(i + 1, j);
}

/*
 * The top-level brace group of each token of toks[lo..hi): the index of the
 * '{' that opens the function body (or initializer) holding it, or hi for the
 * tokens outside braces.  When the braces do not balance (#if branches that
 * both open a block ...), every token gets the same group: a function is then
 * never cut in two.
 */
static void brace_groups(size_t lo, size_t hi, size_t *group)
{
	long depth = 0;
	size_t i, open = hi;

	for (i = lo; i < hi; i++) {
		if (toks[i].kind == T_OPEN && toks[i].ch == '{' && depth++ == 0)
			open = i;
		group[i - lo] = depth > 0 ? open : hi;
		if (toks[i].kind == T_CLOSE && toks[i].ch == '}' && --depth < 0)
			break;
	}
	if (depth != 0)
		for (i = lo; i < hi; i++)
			group[i - lo] = lo;
}

/*
 * Is the name at i surely read or written as a variable here, so that spatch
 * sees a use of it: after ( [ { ; ? : = op= && || == != | ^ < > - & return ...,
 * and not a label (before ':').  Not after ',' or a type (a declarator may
 * follow those), '*', ')', '}', '.' or '->': those are not counted, which only
 * lets more files through.
 */
static int surely_used(size_t i, size_t lo, size_t hi)
{
	unsigned char k;

	if (i + 1 < hi && toks[i + 1].kind == T_STOP && toks[i + 1].ch == ':')
		return 0;
	if (i == lo)
		return 0;
	k = toks[i - 1].kind;
	if (k == T_STOP)
		return toks[i - 1].ch != ',';
	return k == T_OPEN || k == T_ASSIGN || k == T_REL || k == T_MINUS ||
	       k == T_KEYWORD || k == T_AMP;
}

/*
 * Item 5 of the header, in the stream toks[lo..hi): the line of a comparison
 * with zero of a name that is assigned a value with a binary '-' in it earlier
 * in the same function (the same top-level brace group) with no sure use of
 * the name in between, or 0.
 */
static int scan_temporaries(size_t lo, size_t hi)
{
	size_t i, j, k, nassigned = 0, ncompared = 0;
	size_t *assigned = malloc((hi - lo + 1) * sizeof(*assigned));
	size_t *compared = malloc((hi - lo + 1) * sizeof(*compared));
	size_t *group = malloc((hi - lo + 1) * sizeof(*group));
	char *is_compared = calloc(hi - lo + 1, 1);
	int line = 0;

	if (!assigned || !compared || !group || !is_compared) {
		perror("prefilter: malloc");
		exit(2);
	}
	brace_groups(lo, hi, group);
	for (i = lo + 1; i < hi; i++) {
		if (toks[i].kind == T_ASSIGN && toks[i - 1].kind == T_IDENT &&
		    !not_a_statement(i - 1, lo)) {
			if (assigned_difference(i, hi))
				assigned[nassigned++] = i - 1;
		} else if (toks[i].kind == T_REL) {
			long n = -1;

			if (zero_at(i + 1, +1, lo, hi, NULL))
				n = compared_name(i, -1, lo, hi);
			if (n < 0 && zero_at(i - 1, -1, lo, hi, NULL))
				n = compared_name(i, +1, lo, hi);
			if (n >= 0)
				compared[ncompared++] = (size_t)n;
		}
	}
	for (k = 0; k < ncompared; k++)
		is_compared[compared[k] - lo] = 1;
	for (k = 0; k < nassigned && !line; k++) {
		size_t a = assigned[k];

		for (j = a + 1; j < hi && group[j - lo] == group[a - lo]; j++) {
			if (toks[j].kind != T_IDENT || !same_name(&toks[j], &toks[a]))
				continue;
			if (is_compared[j - lo]) {
				line = toks[j].line;
				break;
			}
			if (surely_used(j, lo, hi))
				break;
		}
	}
	free(assigned);
	free(compared);
	free(group);
	free(is_compared);
	return line;
}

/*
 * The length of the punctuator at p, left bytes before the end: 3 for <<= >>= ...,
 * 2 for -> ++ -- << >> <= >= == != && || += -= *= /= %= &= |= ^= ##, else 1.
 */
static size_t punct_len(const char *p, size_t left)
{
	char a = p[0], b = left >= 2 ? p[1] : 0;

	if (left >= 3 && p[2] == (a == '.' ? '.' : '=') && b == a &&
	    (a == '<' || a == '>' || a == '.'))
		return 3;
	switch (a) {
	case '-':
		return b == '>' || b == '-' || b == '=' ? 2 : 1;
	case '+': case '<': case '>': case '&': case '|':
		return b == a || b == '=' ? 2 : 1;
	case '=': case '!': case '*': case '/': case '%': case '^':
		return b == '=' ? 2 : 1;
	case '#':
		return b == '#' ? 2 : 1;
	}
	return 1;
}

/*
 * Tokenize buf[0..n) (comments and splices already removed, strings blanked).
 * Directive lines go to the define streams, recorded as [start,end) pairs.
 */

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
		case '=': push(T_ASSIGN, 0, line); return;
		case '.': push(T_MEMBER, 0, line); return;
		case '&': push(T_AMP, 0, line); return;
		case ';': case ',': case '?': case ':': case '|': case '^':
			push(T_STOP, *p, line); return;
		default: push(T_OTHER, *p, line); return;	/* '*' is told apart */
		}
	}
	if (len == 2) {
		if (!memcmp(p, "<=", 2) || !memcmp(p, ">=", 2)) {
			push(T_REL, 0, line);
			return;
		}
		if (!memcmp(p, "->", 2)) {
			push(T_MEMBER, 0, line);
			return;
		}
		if (!memcmp(p, "<<", 2) || !memcmp(p, ">>", 2)) {
			push(T_OTHER, *p, line);	/* a shift: '<' or '>' */
			return;
		}
		if (!memcmp(p, "++", 2) || !memcmp(p, "--", 2) || !memcmp(p, "##", 2)) {
			push(T_OTHER, 0, line);
			return;
		}
		push(T_STOP, 0, line);	/* == != && || op= */
		return;
	}
	/* <<= >>= are assignments; ... only appears in declarations and case ranges */
	push(T_STOP, 0, line);
}

enum { K_COMPARISON = 1, K_TEMPORARY = 2 };

/* the kinds of candidate in buf[0..n), and the first candidate line */
static int scan_buffer(char *buf, size_t n, int *first_line)
{
	int kinds = 0, line_t, line_cast;
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
				push(is_expr_keyword(buf + s0, i - s0) ? T_KEYWORD : T_IDENT, 0, line);
				toks[ntoks - 1].name = buf + s0;
				toks[ntoks - 1].name_len = i - s0;
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
				push(is_zero_literal(buf + s, i - s) ? T_ZERO : T_NUMBER, 0, line);
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
				size_t len = punct_len(buf + i, n - i);

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
	file_ntoks = ntoks;
	/* items 1-4 and 7: the bracketed forms first, which decide item 6 */
	line_cast = scan_stream(main_start, nm, 2);
	for (size_t d = 0; d < ndstreams && !line_cast; d += 2)
		line_cast = scan_stream(dstreams[d], dstreams[d + 1], 2);
	strict_operands = !line_cast && !headers_read;
	*first_line = scan_stream(main_start, nm, 1);
	strict_operands = 0;
	for (size_t d = 0; d < ndstreams && !*first_line; d += 2)
		*first_line = scan_stream(dstreams[d], dstreams[d + 1], 1);
	if (line_cast && (!*first_line || line_cast < *first_line))
		*first_line = line_cast;
	if (*first_line)
		kinds |= K_COMPARISON;
	strict_operands = !line_cast && !headers_read;
	line_t = scan_temporaries(main_start, nm);
	strict_operands = 0;
	for (size_t d = 0; d < ndstreams && !line_t; d += 2)
		line_t = scan_temporaries(dstreams[d], dstreams[d + 1]);
	if (line_t) {
		kinds |= K_TEMPORARY;
		if (!*first_line || line_t < *first_line)
			*first_line = line_t;
	}
	return kinds;
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

static int is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/*
 * A quick look at the raw bytes: can the file hold a '<' or '>' token next to a
 * zero?  Every candidate of both kinds has one (items 2 and 5), so a file where no
 * '<' or '>' has a zero beside it is dropped without being tokenized: most files.
 * Going from the '<' or '>' (and an '=' right after it) over blanks and brackets
 * '(' forward or ')' backward, the next byte must start a zero (a '0' going
 * forward; going backward, the number that ends there begins with '0').  Whatever
 * could hide or join tokens there counts as a zero: a line end (a splice, a
 * directive line or a comment may lie beyond it), a '/' (a comment), a '\\' or a
 * '#', and the start or end of the file.  This only lets more files through.
 */
static int may_hold_candidate(const char *b, size_t n)
{
	const char *p = b, *end = b + n;

	while (p < end) {
		const char *lt = memchr(p, '<', end - p), *gt = memchr(p, '>', end - p);
		const char *q, *op = !lt ? gt : !gt ? lt : lt < gt ? lt : gt;

		if (!op)
			return 0;
		p = op + 1;
		q = op + 1;
		if (q < end && *q == '=')
			q++;
		while (q < end && strchr(" \t\r\f\v(", *q))
			q++;
		if (q == end || strchr("\n/\\#0", *q))
			return 1;
		q = op;
		while (q > b && strchr(" \t\r\f\v)", q[-1]))
			q--;
		if (q == b || strchr("\n/\\#", q[-1]))
			return 1;
		if (is_name_char(q[-1])) {
			while (q > b && is_name_char(q[-1]))
				q--;
			if (*q == '0')
				return 1;
		}
	}
	return 0;
}

enum { OUT_NAME, OUT_LINE, OUT_KINDS };

/* the field separators: tab and newline, or NUL and NUL with -0 */
static char sep = '\t', eol = '\n';

static void print_kinds(const char *path, int kinds)
{
	printf("%s%c%s%s%c", path, sep, kinds & K_COMPARISON ? "c" : "",
	       kinds & K_TEMPORARY ? "t" : "", eol);
}

static int check_file(const char *path, int mode)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0, got;
	int line, kinds;

	if (!f) {
		fprintf(stderr, "prefilter: %s: cannot open\n", path);
		/* let spatch see it and fail loudly rather than drop it silently */
		if (mode == OUT_KINDS)
			print_kinds(path, K_COMPARISON | K_TEMPORARY);
		else
			printf("%s%c", path, eol);
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
	if (!may_hold_candidate(buf, n))
		return 0;
	n = clean(buf, n);
	kinds = scan_buffer(buf, n, &line);
	if (!kinds)
		return 0;
	if (mode == OUT_LINE)
		printf("%s:%d%c", path, line, eol);
	else if (mode == OUT_KINDS)
		print_kinds(path, kinds);
	else
		printf("%s%c", path, eol);
	return 1;
}

int main(int argc, char **argv)
{
	int mode = OUT_NAME, i = 1, delim = '\n';
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] && !argv[i][2]; i++) {
		if (argv[i][1] == 'v')
			mode = OUT_LINE;
		else if (argv[i][1] == 'k')
			mode = OUT_KINDS;
		else if (argv[i][1] == '0')
			delim = sep = eol = 0;
		else if (argv[i][1] == 't')
			headers_read = 1;
		else
			break;
	}
	if (i < argc) {
		for (; i < argc; i++)
			check_file(argv[i], mode);
		return 0;
	}
	while ((len = getdelim(&line, &cap, delim, stdin)) > 0) {
		if (line[len - 1] == delim)
			line[--len] = 0;
		if (len)
			check_file(line, mode);
	}
	free(line);
	return 0;
}
