/*
 * pattern.c: regular expressions matched in linear time (see pattern.h).
 *
 * The pattern is parsed into a tree (nodes in one array, children as
 * lists, so that a long sequence is a loop, not a recursion; only groups
 * and repetitions nest, at most PATTERN_MAX_DEPTH deep), then compiled
 * into a program of steps: a character, any character, a set, a split
 * into two ways, a jump, the start or the end, the match.  Repetitions
 * are written out (e{2,4} is e e e? e?), and the compiler stops at
 * PATTERN_MAX_STEPS steps, so neither the program nor the work to make it
 * can grow past that, however the counts nest.
 *
 * Matching follows every way at once: the steps waiting for the next
 * character are a set (at most one entry per step), and each character
 * moves the whole set one step on.  A text of n characters costs at most
 * n times the program's size, and the memory is fixed by the program.
 */
#include "pattern.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xq/error.h>
#include <xq/memory.h>
#include <xq/utf8.h>

/* A byte that is not UTF-8, as a character: above every code point. */
#define NOT_UTF8 0x110000u
#define NONE UINT32_MAX
#define INF (-1)

/* ---- character sets --------------------------------------------------------------- */

struct cset {
	uint64_t ascii[2];     /* code points 0-127 */
	uint32_t (*ranges)[2]; /* above 127 */
	size_t n, alloc;
	int negate;
};

/* Is `c` (folded to lower case) in `s`? */
static int cset_has(const struct cset *s, uint32_t c)
{
	int in = 0;

	if (c < 128)
		in = (int)((s->ascii[c >> 6] >> (c & 63)) & 1);
	else
		for (size_t i = 0; i < s->n && !in; i++)
			in = c >= s->ranges[i][0] && c <= s->ranges[i][1];
	return in != s->negate;
}

/* Add lo..hi; an ASCII letter is added in lower case too (the text is
 * folded to lower case before it is looked up). */
static int cset_add(struct cset *s, uint32_t lo, uint32_t hi)
{
	for (uint32_t c = lo; c <= hi && c < 128; c++) {
		uint32_t l = (uint32_t)xq_to_lower((int)c);
		s->ascii[c >> 6] |= (uint64_t)1 << (c & 63);
		s->ascii[l >> 6] |= (uint64_t)1 << (l & 63);
	}
	if (hi < 128)
		return 0;
	if (XQ_ALLOC_GROW(s->ranges, s->n + 1, s->alloc))
		return XQ_ENOMEM;
	s->ranges[s->n][0] = lo < 128 ? 128 : lo;
	s->ranges[s->n][1] = hi;
	s->n++;
	return 0;
}

/* Is ASCII character `c` in the class named `n`?  -1: no such class. */
static int class_has(const char *n, int c)
{
	if (!strcmp(n, "alpha"))
		return xq_is_alpha(c);
	if (!strcmp(n, "digit"))
		return xq_is_digit(c);
	if (!strcmp(n, "alnum"))
		return xq_is_alpha(c) || xq_is_digit(c);
	if (!strcmp(n, "upper"))
		return c >= 'A' && c <= 'Z';
	if (!strcmp(n, "lower"))
		return c >= 'a' && c <= 'z';
	if (!strcmp(n, "space"))
		return xq_is_space(c);
	if (!strcmp(n, "blank"))
		return c == ' ' || c == '\t';
	if (!strcmp(n, "cntrl"))
		return c < 0x20 || c == 0x7f;
	if (!strcmp(n, "print"))
		return c >= 0x20 && c < 0x7f;
	if (!strcmp(n, "graph"))
		return c > 0x20 && c < 0x7f;
	if (!strcmp(n, "punct"))
		return c > 0x20 && c < 0x7f && !xq_is_alpha(c) && !xq_is_digit(c);
	if (!strcmp(n, "xdigit"))
		return xq_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	return -1;
}

/* The characters of a class, by its name (len bytes), into `s`: 0, 1 when
 * there is no such class, or XQ_ENOMEM. */
static int cset_add_class(struct cset *s, const char *name, size_t len)
{
	char n[8];

	if (len >= sizeof(n))
		return 1;
	memcpy(n, name, len);
	n[len] = '\0';
	if (class_has(n, 'a') < 0)
		return 1;
	for (int c = 0; c < 128; c++)
		if (class_has(n, c) && cset_add(s, (uint32_t)c, (uint32_t)c))
			return XQ_ENOMEM;
	return 0;
}

/* ---- the program ------------------------------------------------------------------ */

enum { I_CHAR, I_ANY, I_SET, I_SPLIT, I_JMP, I_BOL, I_EOL, I_MATCH };

struct inst {
	uint32_t op;
	uint32_t x, y; /* I_CHAR: the character; I_SET: the set; I_SPLIT: both ways; I_JMP: x */
};

struct pattern {
	struct inst *prog;
	size_t n, alloc;
	struct cset *sets;
	size_t nsets, sets_alloc;
};

/* ---- parsing ---------------------------------------------------------------------- */

enum { N_CAT, N_ALT, N_CHAR, N_ANY, N_SET, N_BOL, N_EOL, N_REP };

struct node {
	uint32_t type;
	uint32_t value;       /* N_CHAR: the character; N_SET: the set */
	int min, max;         /* N_REP (max INF: no bound) */
	uint32_t first, last; /* children (N_CAT, N_ALT, N_REP) */
	uint32_t next;        /* the next sibling */
	size_t at;            /* N_REP: where its count is in the text */
};

struct parser {
	const char *s;
	size_t pos, len;
	struct node *nodes;
	size_t nn, nodes_alloc;
	struct pattern *p;
	int depth;
	int rc;           /* 0, -1 (refused) or XQ_ENOMEM */
	size_t at;        /* where it was refused */
	char *why;
	size_t why_size;
	size_t work;      /* compiling: nodes written out so far */
	size_t rep_at;    /* compiling: the place of the repetition being written out */
};

static uint32_t refuse(struct parser *ps, size_t at, const char *why)
{
	if (!ps->rc) {
		ps->rc = -1;
		ps->at = at;
		snprintf(ps->why, ps->why_size, "%s", why);
	}
	return NONE;
}

static uint32_t no_memory(struct parser *ps)
{
	if (!ps->rc) {
		ps->rc = XQ_ENOMEM;
		ps->at = ps->pos;
		snprintf(ps->why, ps->why_size, "out of memory");
	}
	return NONE;
}

static uint32_t new_node(struct parser *ps, uint32_t type)
{
	struct node *n;

	if (XQ_ALLOC_GROW(ps->nodes, ps->nn + 1, ps->nodes_alloc))
		return no_memory(ps);
	n = &ps->nodes[ps->nn];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->first = n->last = n->next = NONE;
	return (uint32_t)ps->nn++;
}

static void add_child(struct parser *ps, uint32_t parent, uint32_t child)
{
	struct node *p = &ps->nodes[parent];

	if (p->last == NONE)
		p->first = child;
	else
		ps->nodes[p->last].next = child;
	p->last = child;
}

static uint32_t new_set(struct parser *ps, struct cset **out)
{
	struct pattern *p = ps->p;

	if (XQ_ALLOC_GROW(p->sets, p->nsets + 1, p->sets_alloc))
		return no_memory(ps);
	*out = &p->sets[p->nsets];
	memset(*out, 0, sizeof(**out));
	return (uint32_t)p->nsets++;
}

/* A node for set `set` (NONE when it could not be made). */
static uint32_t set_node(struct parser *ps, uint32_t set)
{
	uint32_t n;

	if (set == NONE || (n = new_node(ps, N_SET)) == NONE)
		return NONE;
	ps->nodes[n].value = set;
	return n;
}

/* The UTF-8 character at ps->pos: its length (at least 1), or 0 when the
 * bytes there are not UTF-8 (refused). */
static size_t char_at(struct parser *ps, size_t pos, uint32_t *cp)
{
	unsigned char c = (unsigned char)ps->s[pos];
	size_t n = c < 0x80 ? 1 : xq_utf8_valid_prefix(ps->s + pos, ps->len - pos);

	if (n == 0) {
		refuse(ps, pos, "a byte that is not UTF-8");
		return 0;
	}
	*cp = c;
	if (n > 1)
		xq_utf8_decode(ps->s + pos, n, cp);
	return n;
}

/* `\` and what follows it, at ps->pos. */
static uint32_t parse_escape(struct parser *ps)
{
	size_t at = ps->pos;
	int c = ps->pos + 1 < ps->len ? (unsigned char)ps->s[ps->pos + 1] : -1;
	uint32_t n, set;
	struct cset *cs;

	if (c < 0)
		return refuse(ps, at, "a '\\' ends the pattern: write '\\\\' for a backslash");
	if (c >= '1' && c <= '9')
		return refuse(ps, at, "back-references (\\1 to \\9) are not supported: no matcher "
				      "can follow them in a time that grows only with the tag's length");
	ps->pos += 2;
	if (c == 'w' || c == 'W' || c == 's' || c == 'S') {
		if ((set = new_set(ps, &cs)) == NONE)
			return NONE;
		if (c == 'w' || c == 'W') {
			if (cset_add_class(cs, "alnum", 5) || cset_add(cs, '_', '_'))
				return no_memory(ps);
		} else if (cset_add_class(cs, "space", 5)) {
			return no_memory(ps);
		}
		cs->negate = c == 'W' || c == 'S';
		return set_node(ps, set);
	}
	if (c >= 0x80 || class_has("punct", c) <= 0)
		return refuse(ps, at, "not an escape this matcher knows: '\\' goes before punctuation "
				      "(\\. \\( \\\\), or \\w \\W \\s \\S; write [0-9] for a digit");
	if ((n = new_node(ps, N_CHAR)) == NONE)
		return NONE;
	ps->nodes[n].value = (uint32_t)c;
	return n;
}

/* One item of a bracket at ps->pos (not its closing ']'), added to `cs`. */
static void bracket_item(struct parser *ps, struct cset *cs)
{
	size_t at = ps->pos, n;
	uint32_t lo, hi;

	if (ps->s[at] == '[' && at + 1 < ps->len &&
	    (ps->s[at + 1] == '=' || ps->s[at + 1] == '.')) {
		refuse(ps, at, "[=x=] and [.x.] are not supported: write the character itself");
		return;
	}
	if (ps->s[at] == '[' && at + 1 < ps->len && ps->s[at + 1] == ':') {
		const char *end = strstr(ps->s + at + 2, ":]");
		int rc;
		if (!end) {
			refuse(ps, at, "a class such as [:alpha:] is not closed with ':]'");
			return;
		}
		rc = cset_add_class(cs, ps->s + at + 2, (size_t)(end - ps->s - at - 2));
		if (rc == 1)
			refuse(ps, at, "unknown class: alpha, digit, alnum, upper, lower, space, blank, "
				       "punct, print, graph, cntrl or xdigit");
		else if (rc)
			no_memory(ps);
		ps->pos = (size_t)(end - ps->s) + 2;
		return;
	}
	if (!(n = char_at(ps, at, &lo)))
		return;
	ps->pos += n;
	hi = lo;
	if (ps->pos + 1 < ps->len && ps->s[ps->pos] == '-' && ps->s[ps->pos + 1] != ']') {
		size_t hat = ps->pos + 1;
		if (!(n = char_at(ps, hat, &hi)))
			return;
		if (hi < lo) {
			refuse(ps, hat, "the range ends before it starts");
			return;
		}
		ps->pos = hat + n;
	}
	if (cset_add(cs, lo, hi))
		no_memory(ps);
}

/* A bracket expression, at its '['. */
static uint32_t parse_bracket(struct parser *ps)
{
	size_t at = ps->pos;
	struct cset *cs;
	uint32_t set = new_set(ps, &cs);

	if (set == NONE)
		return NONE;
	ps->pos++;
	if (ps->pos < ps->len && ps->s[ps->pos] == '^')
		cs->negate = 1, ps->pos++;
	for (int first = 1;; first = 0) {
		if (ps->pos >= ps->len)
			return refuse(ps, at, "'[' is not closed with ']'");
		if (ps->s[ps->pos] == ']' && !first)
			break;
		bracket_item(ps, ps->p->sets + set);
		if (ps->rc)
			return NONE;
	}
	ps->pos++;
	return set_node(ps, set);
}

static uint32_t parse_alt(struct parser *ps);

/* One atom at ps->pos. */
static uint32_t parse_atom(struct parser *ps)
{
	size_t at = ps->pos;
	int c = (unsigned char)ps->s[at];
	uint32_t n, cp;
	size_t len;

	switch (c) {
	case '(':
		if (++ps->depth > PATTERN_MAX_DEPTH)
			return refuse(ps, at, "groups and repetitions nest too deep");
		ps->pos++;
		n = parse_alt(ps);
		if (n == NONE)
			return NONE;
		if (ps->pos >= ps->len || ps->s[ps->pos] != ')')
			return refuse(ps, at, "'(' is not closed with ')'");
		ps->pos++;
		ps->depth--;
		return n;
	case '[': return parse_bracket(ps);
	case '\\': return parse_escape(ps);
	case '.': ps->pos++; return new_node(ps, N_ANY);
	case '^': ps->pos++; return new_node(ps, N_BOL);
	case '$': ps->pos++; return new_node(ps, N_EOL);
	case '*': case '+': case '?': case '{':
		return refuse(ps, at, "nothing to repeat before it");
	default:
		if (!(len = char_at(ps, at, &cp)))
			return NONE;
		if ((n = new_node(ps, N_CHAR)) == NONE)
			return NONE;
		ps->nodes[n].value = cp < 128 ? (uint32_t)xq_to_lower((int)cp) : cp;
		ps->pos += len;
		return n;
	}
}

/* Digits at ps->pos, as a count (capped above PATTERN_MAX_COUNT); -1
 * when there are none. */
static int parse_count(struct parser *ps)
{
	int v = -1;

	while (ps->pos < ps->len && xq_is_digit((unsigned char)ps->s[ps->pos])) {
		v = (v < 0 ? 0 : v) * 10 + (ps->s[ps->pos++] - '0');
		if (v > PATTERN_MAX_COUNT)
			v = PATTERN_MAX_COUNT + 1;
	}
	return v;
}

/* A repetition at ps->pos into *min, *max: 0, or -1 (refused). */
static int parse_quant(struct parser *ps, int *min, int *max)
{
	size_t at = ps->pos;
	int c = ps->s[ps->pos++];
	int lo, hi;

	if (c != '{') {
		*min = c == '+';
		*max = c == '?' ? 1 : INF;
		return 0;
	}
	lo = parse_count(ps);
	hi = lo;
	if (ps->pos < ps->len && ps->s[ps->pos] == ',') {
		ps->pos++;
		hi = parse_count(ps);
		hi = hi < 0 ? INF : hi;
		lo = lo < 0 ? 0 : lo;
	}
	if (lo < 0)
		return refuse(ps, at, "expected a count after '{' (write '\\{' for the character)"), -1;
	if (ps->pos >= ps->len || ps->s[ps->pos] != '}')
		return refuse(ps, at, "the count after '{' is not closed with '}'"), -1;
	ps->pos++;
	if (lo > PATTERN_MAX_COUNT || hi > PATTERN_MAX_COUNT)
		return refuse(ps, at, "a repetition count is at most 255"), -1;
	if (hi != INF && lo > hi)
		return refuse(ps, at, "the repetition's smallest count is above its largest"), -1;
	*min = lo;
	*max = hi;
	return 0;
}

/* An atom and the repetitions after it. */
static uint32_t parse_repeat(struct parser *ps)
{
	size_t at = ps->pos;
	uint32_t a = parse_atom(ps);
	int nested = 0;

	while (a != NONE && ps->pos < ps->len && strchr("*+?{", ps->s[ps->pos])) {
		uint32_t r;
		int min, max;
		uint32_t type = ps->nodes[a].type;
		size_t count_at = ps->pos;
		if (type == N_BOL || type == N_EOL)
			return refuse(ps, ps->pos, "nothing to repeat before it ('^' and '$' are places)");
		if (ps->depth + ++nested > PATTERN_MAX_DEPTH)
			return refuse(ps, at, "groups and repetitions nest too deep");
		if (parse_quant(ps, &min, &max) || (r = new_node(ps, N_REP)) == NONE)
			return NONE;
		ps->nodes[r].min = min;
		ps->nodes[r].max = max;
		ps->nodes[r].at = count_at;
		add_child(ps, r, a);
		a = r;
	}
	return a;
}

/* Atoms up to '|', ')' or the end. */
static uint32_t parse_cat(struct parser *ps)
{
	uint32_t cat = new_node(ps, N_CAT);

	while (cat != NONE && ps->pos < ps->len && ps->s[ps->pos] != '|' && ps->s[ps->pos] != ')') {
		uint32_t r = parse_repeat(ps);
		if (r == NONE)
			return NONE;
		add_child(ps, cat, r);
	}
	return cat;
}

static uint32_t parse_alt(struct parser *ps)
{
	uint32_t alt = new_node(ps, N_ALT), c;

	if (alt == NONE)
		return NONE;
	for (;;) {
		if ((c = parse_cat(ps)) == NONE)
			return NONE;
		add_child(ps, alt, c);
		if (ps->pos >= ps->len || ps->s[ps->pos] != '|')
			break;
		ps->pos++;
	}
	/* One way only: the sequence itself. */
	return ps->nodes[alt].first == ps->nodes[alt].last ? ps->nodes[alt].first : alt;
}

/* ---- compiling -------------------------------------------------------------------- */

#define TOO_BIG "the pattern is too big: more than 1000 steps once its repetitions are written out"

static uint32_t emit(struct parser *ps, uint32_t op, uint32_t x, uint32_t y)
{
	struct pattern *p = ps->p;

	if (p->n >= PATTERN_MAX_STEPS)
		return refuse(ps, ps->rep_at, TOO_BIG);
	if (XQ_ALLOC_GROW(p->prog, p->n + 1, p->alloc))
		return no_memory(ps);
	p->prog[p->n] = (struct inst){op, x, y};
	return (uint32_t)p->n++;
}

static int gen(struct parser *ps, uint32_t node);

/* e{min,max} */
static int gen_rep(struct parser *ps, const struct node *n)
{
	struct pattern *p = ps->p;
	uint32_t chain = NONE, s;
	size_t outer = ps->rep_at;

	ps->rep_at = n->at;
	for (int i = 0; i < n->min; i++)
		if (gen(ps, n->first))
			return -1;
	if (n->max == INF) {
		/* L: split M, end; M: e; jmp L; end: */
		if ((s = emit(ps, I_SPLIT, (uint32_t)p->n + 1, NONE)) == NONE || gen(ps, n->first) ||
		    emit(ps, I_JMP, s, 0) == NONE)
			return -1;
		p->prog[s].y = (uint32_t)p->n;
		ps->rep_at = outer;
		return 0;
	}
	/* split M1, end; M1: e; split M2, end; M2: e; ... end: (the splits
	 * are chained through y until their end is known) */
	for (int i = n->min; i < n->max; i++) {
		if ((s = emit(ps, I_SPLIT, (uint32_t)p->n + 1, chain)) == NONE || gen(ps, n->first))
			return -1;
		chain = s;
	}
	while (chain != NONE) {
		uint32_t before = p->prog[chain].y;
		p->prog[chain].y = (uint32_t)p->n;
		chain = before;
	}
	ps->rep_at = outer;
	return 0;
}

/* e|f|g: split e', split f', g; each way jumps to the end. */
static int gen_alt(struct parser *ps, const struct node *n)
{
	struct pattern *p = ps->p;
	uint32_t jumps = NONE;

	for (uint32_t c = n->first; c != NONE; c = ps->nodes[c].next) {
		uint32_t s = NONE, j;
		if (ps->nodes[c].next != NONE && (s = emit(ps, I_SPLIT, (uint32_t)p->n + 1, NONE)) == NONE)
			return -1;
		if (gen(ps, c))
			return -1;
		if (s == NONE)
			break;
		if ((j = emit(ps, I_JMP, jumps, 0)) == NONE)
			return -1;
		jumps = j;
		p->prog[s].y = (uint32_t)p->n;
	}
	while (jumps != NONE) {
		uint32_t before = p->prog[jumps].x;
		p->prog[jumps].x = (uint32_t)p->n;
		jumps = before;
	}
	return 0;
}

static int gen(struct parser *ps, uint32_t node)
{
	const struct node *n = &ps->nodes[node];

	/* Repetitions of what writes no step ("(){255}{255}") are work too. */
	if (++ps->work > 8 * PATTERN_MAX_STEPS) {
		refuse(ps, ps->rep_at, TOO_BIG);
		return -1;
	}
	switch (n->type) {
	case N_CAT:
		for (uint32_t c = n->first; c != NONE; c = ps->nodes[c].next)
			if (gen(ps, c))
				return -1;
		return 0;
	case N_ALT: return gen_alt(ps, n);
	case N_REP: return gen_rep(ps, n);
	case N_CHAR: return emit(ps, I_CHAR, n->value, 0) == NONE ? -1 : 0;
	case N_ANY: return emit(ps, I_ANY, 0, 0) == NONE ? -1 : 0;
	case N_SET: return emit(ps, I_SET, n->value, 0) == NONE ? -1 : 0;
	case N_BOL: return emit(ps, I_BOL, 0, 0) == NONE ? -1 : 0;
	default: return emit(ps, I_EOL, 0, 0) == NONE ? -1 : 0;
	}
}

void pattern_free(struct pattern *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nsets; i++)
		free(p->sets[i].ranges);
	free(p->sets);
	free(p->prog);
	free(p);
}

int pattern_compile(struct pattern **out, const char *text, size_t *at, char *why,
		    size_t why_size)
{
	struct parser ps = {.s = text, .len = strlen(text), .why = why, .why_size = why_size};
	uint32_t root;

	*out = NULL;
	*at = 0;
	if (!(ps.p = calloc(1, sizeof(*ps.p)))) {
		snprintf(why, why_size, "out of memory");
		return XQ_ENOMEM;
	}
	root = parse_alt(&ps);
	if (root != NONE && ps.pos < ps.len) /* a ')' with no '(' */
		refuse(&ps, ps.pos, "')' without a '(' before it (write '\\)' for the character)");
	if (!ps.rc && !gen(&ps, root))
		emit(&ps, I_MATCH, 0, 0);
	free(ps.nodes);
	if (ps.rc) {
		*at = ps.at;
		pattern_free(ps.p);
		return ps.rc;
	}
	*out = ps.p;
	return 0;
}

/* ---- matching ----------------------------------------------------------------------- */

/* The steps waiting for the next character: a sparse set (each step at
 * most once). */
struct threads {
	uint32_t *dense, *sparse;
	uint32_t n;
};

static int has(const struct threads *t, uint32_t pc)
{
	return t->sparse[pc] < t->n && t->dense[t->sparse[pc]] == pc;
}

/*
 * Add step `pc` and every step it leads to without reading a character,
 * at a place that is the text's start (bol) or end (eol), to `t`; `stack`
 * has room for every step.  Returns 1 when the match is among them.
 */
static int add(const struct pattern *p, struct threads *t, uint32_t *stack, uint32_t pc, int bol,
	       int eol)
{
	uint32_t top = 0;
	int matched = 0;

	if (has(t, pc))
		return 0;
	t->sparse[pc] = t->n;
	t->dense[t->n++] = pc;
	stack[top++] = pc;
	while (top) {
		const struct inst *in = &p->prog[stack[--top]];
		uint32_t to[2];
		int nto = 0;
		switch (in->op) {
		case I_MATCH: matched = 1; break;
		case I_JMP: to[nto++] = in->x; break;
		case I_SPLIT: to[nto++] = in->x, to[nto++] = in->y; break;
		case I_BOL: if (bol) to[nto++] = (uint32_t)(in - p->prog) + 1; break;
		case I_EOL: if (eol) to[nto++] = (uint32_t)(in - p->prog) + 1; break;
		default: break;
		}
		for (int k = 0; k < nto; k++)
			if (!has(t, to[k])) {
				t->sparse[to[k]] = t->n;
				t->dense[t->n++] = to[k];
				stack[top++] = to[k];
			}
	}
	return matched;
}

/* Does step `in` take character `c` (folded)? */
static int takes(const struct pattern *p, const struct inst *in, uint32_t c)
{
	switch (in->op) {
	case I_CHAR: return in->x == c;
	case I_ANY: return 1;
	case I_SET: return cset_has(&p->sets[in->x], c);
	default: return 0;
	}
}

int pattern_match(const struct pattern *p, const char *s, size_t len, int (*stop)(void *arg),
		  void *arg)
{
	size_t m = p->n;
	uint32_t *mem = calloc(5 * m, sizeof(*mem));
	struct threads cur, next, tmp;
	uint32_t *stack;
	int matched;
	size_t pos = 0;

	if (!mem)
		return XQ_ENOMEM;
	cur = (struct threads){mem, mem + m, 0};
	next = (struct threads){mem + 2 * m, mem + 3 * m, 0};
	stack = mem + 4 * m;
	matched = add(p, &cur, stack, 0, 1, len == 0);
	for (size_t count = 1; !matched && pos < len; count++) {
		unsigned char b = (unsigned char)s[pos];
		size_t n = b < 0x80 ? 1 : xq_utf8_valid_prefix(s + pos, len - pos);
		uint32_t c = b < 0x80 ? (uint32_t)xq_to_lower(b) : NOT_UTF8 + b;
		if (n > 1)
			xq_utf8_decode(s + pos, n, &c);
		pos += n ? n : 1;
		if (stop && count % 4096 == 0 && stop(arg)) {
			free(mem);
			return -1;
		}
		next.n = 0;
		for (uint32_t i = 0; i < cur.n && !matched; i++) {
			const struct inst *in = &p->prog[cur.dense[i]];
			if (takes(p, in, c))
				matched = add(p, &next, stack, cur.dense[i] + 1, 0, pos == len);
		}
		/* The match may start at any character. */
		if (!matched)
			matched = add(p, &next, stack, 0, 0, pos == len);
		tmp = cur, cur = next, next = tmp;
	}
	free(mem);
	return matched;
}
