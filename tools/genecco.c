/*
 * genecco.c: writes the ECCO rule table (lib/ecco_rules.txt, whose top
 * says how a rule is written) as C data for lib/ecco.c.
 *
 * The build runs this program and ecco.c includes what it writes
 * (build/.../gen/ecco_rules.inc), so the rules stay a file a person reads
 * and edits, one rule per line, and become `const` tables that the
 * classifier walks with no parsing at run time; no generated file sits in
 * the repository where it could drift from its source.  It writes
 *
 *   enum label { L_NONE, L_<first rule>, ..., N_NODES };
 *   static const struct arm arms_<LABEL>[] = {...};   (at and scan rules)
 *   static const struct node rules[N_NODES] = {...};
 *
 * in the names ecco.c defines (struct node, struct arm, OP_*, ARM_*, GO,
 * CODE, NEXT, RED, BLACK), each rule under a #line of its line in the
 * rules file, so that a compiler's message about a rule (a code that
 * ecco_names.def does not name) points at that line.
 *
 * It checks what it must to write the table: the syntax of every line,
 * every label defined once and every label an answer leads to defined,
 * moves written as WXF, move numbers within the 20 plies read.  Whether
 * the table is well formed as a whole (marks only in scans, no loop,
 * every rule reached, ...) is xqi_ecco_check()'s to prove, on the table
 * as compiled.  An error names the file, line and column, and the program
 * exits 1 (2 for its usage, 3 when the file cannot be read).
 *
 * Usage: genecco lib/ecco_rules.txt > ecco_rules.inc
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define MAX_RULES 500   /* an answer is 16 bits, codes from 512 (ecco.c) */
#define MAX_LINE 4096
#define MAX_LABEL 40
#define SIDE_MOVES 10   /* a side's moves in the 20 plies read */

struct label {
	char name[MAX_LABEL + 1];
	int line;
};

static const char *path;
static struct label labels[MAX_RULES];
static int nlabels;

/* The line being read, and where in it. */
struct cursor {
	const char *start, *p;
	int line;
};

static void fail(const struct cursor *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d:%d: error: ", path, c->line, (int)(c->p - c->start) + 1);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int is_upper(int ch)
{
	return ch >= 'A' && ch <= 'Z';
}

static int is_digit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static void skip_spaces(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
}

/* A word of letters, digits and '_' at the cursor, into w (at most `cap`
 * bytes with the NUL); its length, 0 when there is none. */
static size_t word(struct cursor *c, char *w, size_t cap)
{
	size_t n = 0;

	while (is_upper(c->p[n]) || is_digit(c->p[n]) || c->p[n] == '_' ||
	       (c->p[n] >= 'a' && c->p[n] <= 'z')) {
		if (n + 1 >= cap)
			fail(c, "a word longer than %d characters", (int)cap - 1);
		w[n] = c->p[n];
		n++;
	}
	w[n] = '\0';
	return n;
}

/* Does the cursor stand on `s`, followed by a space or the end?  Then
 * step over it. */
static int keyword(struct cursor *c, const char *s)
{
	size_t n = strlen(s);

	if (strncmp(c->p, s, n) || (c->p[n] && c->p[n] != ' ' && c->p[n] != '\t' &&
				    c->p[n] != ':' && c->p[n] != ';'))
		return 0;
	c->p += n;
	skip_spaces(c);
	return 1;
}

static void expect(struct cursor *c, const char *s, const char *what)
{
	size_t n = strlen(s);

	if (strncmp(c->p, s, n))
		fail(c, "expected %s", what);
	c->p += n;
	skip_spaces(c);
}

static int is_code(const char *w)
{
	return strlen(w) == 3 && w[0] >= 'A' && w[0] <= 'E' && is_digit(w[1]) && is_digit(w[2]);
}

static int is_label(const char *w)
{
	if (!is_upper(w[0]) || is_code(w))
		return 0;
	for (; *w; w++)
		if (!is_upper(*w) && !is_digit(*w) && *w != '_')
			return 0;
	return 1;
}

static int find_label(const char *w)
{
	for (int i = 0; i < nlabels; i++)
		if (!strcmp(labels[i].name, w))
			return i;
	return -1;
}

/* A move in WXF at the cursor ("C2.5"): 1 and stepped over, or 0. */
static int move_at(struct cursor *c)
{
	const char *s = c->p;

	if (!s[0] || !strchr("KABNRCP", s[0]) || s[1] < '1' || s[1] > '9' || !s[2] ||
	    !strchr("+-.", s[2]) || s[3] < '1' || s[3] > '9' ||
	    (s[4] && s[4] != ' ' && s[4] != '\t' && s[4] != ';'))
		return 0;
	c->p += 4;
	return 1;
}

/* Bytes read of the cursor's line: what a loop over the line makes grow. */
static size_t read_so_far(const struct cursor *c)
{
	return (size_t)(c->p - c->start);
}

/* MOVES at the cursor, written to `out` as the C string the engine reads
 * ("N8+7 R1.2": single spaces); at most `max` of them (0: any number). */
static void moves(struct cursor *c, char *out, size_t cap, int max, const char *what)
{
	size_t len = 0;
	int n = 0;

	for (size_t was = read_so_far(c);; XQI_ADVANCED(was, read_so_far(c))) {
		const char *m = c->p;
		if (!move_at(c)) {
			if (n)
				break;
			fail(c, "expected %s: a move in WXF (like C2.5 or N8+7)", what);
		}
		if (max && n == max) {
			c->p = m;
			fail(c, "expected one move only");
		}
		if (len + 6 >= cap)
			fail(c, "too many moves in one answer");
		if (n++)
			out[len++] = ' ';
		memcpy(out + len, m, 4);
		len += 4;
		skip_spaces(c);
	}
	out[len] = '\0';
}

/* Where an answer leads (TO), written as ecco.c's C into `out`. */
static void target(struct cursor *c, char *out, size_t cap)
{
	char w[MAX_LABEL + 1];

	if (!word(c, w, sizeof(w)))
		fail(c, "expected where the answer leads: a rule's label, a code or next");
	if (!strcmp(w, "next"))
		snprintf(out, cap, "NEXT");
	else if (is_code(w))
		snprintf(out, cap, "CODE(%s)", w);
	else if (find_label(w) >= 0)
		snprintf(out, cap, "GO(L_%s)", w);
	else
		fail(c, "no rule is labelled '%s' (a code is a letter A-E and two digits)", w);
	c->p += strlen(w);
	skip_spaces(c);
}

/* A number at the cursor, lo..hi. */
static int number(struct cursor *c, int lo, int hi, const char *what)
{
	int v = 0, n = 0;

	while (is_digit(c->p[n]) && n < 3)
		v = v * 10 + (c->p[n++] - '0');
	if (!n || is_digit(c->p[n]) || v < lo || v > hi)
		fail(c, "expected %s, %d to %d", what, lo, hi);
	c->p += n;
	return v;
}

/* ---- the questions --------------------------------------------------------- */

/* What a question says of the plies it looks at, as fields of a node. */
struct question {
	const char *op; /* OP_* */
	int has_arms;   /* at, scan: answers of their own; the tests: one */
	int has_end;    /* scan */
	char fields[128];
};

/* `red N` or `black N` (a ply, as `.ply`), or `here-K` / `here+K` (a
 * ply counted from the one the scan under way looks at). */
static void ply_of(struct cursor *c, struct question *q)
{
	int side = keyword(c, "red") ? 0 : keyword(c, "black") ? 1 : -1, sign, k;

	if (side >= 0) {
		int n = number(c, 1, SIDE_MOVES, "a move number");
		snprintf(q->fields, sizeof(q->fields), ".ply = %d", 2 * n - 2 + side);
		return;
	}
	if (strncmp(c->p, "here", 4) || (c->p[4] != '-' && c->p[4] != '+'))
		fail(c, "expected red N, black N, here-K or here+K");
	sign = c->p[4] == '-' ? -1 : 1;
	c->p += 5;
	k = number(c, 1, 2 * SIDE_MOVES - 1, "a number of plies");
	snprintf(q->fields, sizeof(q->fields), ".here = 1, .ply = %d", sign * k);
}

/* `red A-B` or `black A-B` (or `red N` for same). */
static void side_span(struct cursor *c, struct question *q, int span)
{
	int side = keyword(c, "red") ? 0 : keyword(c, "black") ? 1 : -1, a, b;

	if (side < 0)
		fail(c, "expected red or black");
	a = number(c, 1, SIDE_MOVES, "a move number");
	if (!span) {
		snprintf(q->fields, sizeof(q->fields), ".side = %s, .first = %d",
			 side ? "BLACK" : "RED", a);
		return;
	}
	expect(c, "-", "'-' and the last move number (like 2-10)");
	b = number(c, a, SIDE_MOVES, "the last move number, from the first");
	snprintf(q->fields, sizeof(q->fields), ".side = %s, .first = %d, .last = %d",
		 side ? "BLACK" : "RED", a, b);
}

/* The questions: their word, their node's op, what they look at, and
 * whether they have answers of their own (at, scan) and an end (scan). */
enum place { NOTHING, PLY, FROM_MOVE, MOVE_SPAN };
static const struct {
	const char *word, *op;
	enum place place;
	int has_arms, has_end;
} questions[] = {
	{"at", "OP_SWITCH", PLY, 1, 0},       {"seq", "OP_SEQ", PLY, 0, 0},
	{"same", "OP_SAME", FROM_MOVE, 0, 0}, {"all", "OP_ALL", MOVE_SPAN, 0, 0},
	{"seen", "OP_SEEN", NOTHING, 0, 0},   {"scan", "OP_SCAN", MOVE_SPAN, 1, 1},
};

static void question(struct cursor *c, struct question *q)
{
	size_t i = 0, n = sizeof(questions) / sizeof(questions[0]);

	memset(q, 0, sizeof(*q));
	while (i < n && !keyword(c, questions[i].word))
		i++;
	if (i == n)
		fail(c, "expected a question: at, seq, same, all, seen or scan");
	q->op = questions[i].op;
	q->has_arms = questions[i].has_arms;
	q->has_end = questions[i].has_end;
	if (questions[i].place == PLY)
		ply_of(c, q);
	else if (questions[i].place != NOTHING)
		side_span(c, q, questions[i].place == MOVE_SPAN);
	skip_spaces(c);
	expect(c, ":", "':' after the question");
}

/* ---- the answers ----------------------------------------------------------- */

/* One answer of an at or scan rule, written as an element of its arms. */
static void arm(struct cursor *c, FILE *out)
{
	char list[512], other[8] = "", to[64] = "NEXT";
	const char *kind = "ARM_ON";

	if (keyword(c, "pass")) {
		moves(c, list, sizeof(list), 0, "the moves the scan passes over");
	} else if (keyword(c, "mark")) {
		moves(c, list, sizeof(list), 1, "the move the scan remembers");
		kind = "ARM_MARK";
	} else {
		moves(c, list, sizeof(list), 0, "an answer: MOVES -> TO, pass, mark, else or end");
		if (keyword(c, "with")) {
			moves(c, other, sizeof(other), 1, "the move remembered with it");
			if (strchr(list, ' '))
				fail(c, "a move remembered with another is one move");
			kind = "ARM_BOTH";
		}
		expect(c, "->", "'->' and where the answer leads");
		target(c, to, sizeof(to));
	}
	fprintf(out, "\t{\"%s\", %s, %s, %s%s%s},\n", list, to, kind, other[0] ? "\"" : "",
		other[0] ? other : "NULL", other[0] ? "\"" : "");
}

static void answer_end(struct cursor *c)
{
	if (*c->p == ';') {
		c->p++;
		skip_spaces(c);
	} else if (*c->p) {
		fail(c, "expected ';' between answers");
	}
}

/* One rule's line after its label; writes its arms and keeps its node. */
static void rule(struct cursor *c, const char *label, FILE *out, char *node, size_t cap)
{
	struct question q;
	char els[64], end[64] = "", tail[640];
	int narms = 0;

	question(c, &q);
	if (q.has_arms)
		fprintf(out, "static const struct arm arms_%s[] = {\n", label);
	else {
		char list[512], yes[64];
		moves(c, list, sizeof(list), 0, "the moves the question asks about");
		expect(c, "->", "'->' and where a yes leads");
		target(c, yes, sizeof(yes));
		answer_end(c);
		snprintf(tail, sizeof(tail), ".moves = \"%s\", .yes = %s", list, yes);
	}
	for (size_t was = read_so_far(c); q.has_arms && !keyword(c, "else");
	     XQI_ADVANCED(was, read_so_far(c))) {
		arm(c, out);
		narms++;
		answer_end(c);
	}
	if (q.has_arms) {
		if (!narms)
			fail(c, "expected an answer before else");
		fprintf(out, "\t{NULL, 0, 0, NULL}};\n");
		snprintf(tail, sizeof(tail), ".arms = arms_%s", label);
	} else {
		expect(c, "else", "else and where a no leads");
	}
	target(c, els, sizeof(els));
	if (q.has_end) {
		answer_end(c);
		expect(c, "end", "end and where the scan goes when its moves run out");
		target(c, end, sizeof(end));
	}
	if (*c->p)
		fail(c, q.has_end ? "expected the end of the rule after end"
				  : "expected the end of the rule after else");
	if ((size_t)snprintf(node, cap, "\t[L_%s] = {.name = \"%s\", .op = %s%s%s, %s, .no = %s%s%s},\n",
			     label, label, q.op, q.fields[0] ? ", " : "", q.fields, tail, els,
			     end[0] ? ", .end = " : "", end) >= cap)
		fail(c, "the rule is too long to write");
}

/* ---- the file -------------------------------------------------------------- */

/* The next rule's line (not a comment or blank): 1, or 0 at the end. */
static int next_line(FILE *f, char *buf, size_t cap, struct cursor *c)
{
	while (fgets(buf, (int)cap, f)) {
		size_t len = strlen(buf);
		c->line++;
		c->start = c->p = buf;
		if (len + 1 == cap && buf[len - 1] != '\n')
			fail(c, "a line longer than %d bytes", (int)cap - 2);
		while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r' || buf[len - 1] == ' ' ||
			       buf[len - 1] == '\t'))
			buf[--len] = '\0';
		skip_spaces(c);
		if (*c->p && *c->p != '#')
			return 1;
	}
	if (ferror(f)) {
		fprintf(stderr, "%s: cannot read\n", path);
		exit(3);
	}
	return 0;
}

/* A rule's label at the start of its line. */
static void label_of(struct cursor *c, char *w)
{
	if (c->p != c->start)
		fail(c, "a rule starts with its label, at the start of the line");
	if (!word(c, w, MAX_LABEL + 1) || !is_label(w))
		fail(c, "expected a label: capitals, digits and '_', not the shape of a code");
	c->p += strlen(w);
	if (*c->p != ' ' && *c->p != '\t')
		fail(c, "expected a space after the label");
	skip_spaces(c);
}

/* First pass: every label, so that an answer may lead to a later rule. */
static void read_labels(FILE *f)
{
	char buf[MAX_LINE];
	struct cursor c = {buf, buf, 0};

	while (next_line(f, buf, sizeof(buf), &c)) {
		char w[MAX_LABEL + 1];
		int i;
		label_of(&c, w);
		if ((i = find_label(w)) >= 0) {
			c.p = c.start;
			fail(&c, "the label %s is already the rule of line %d", w, labels[i].line);
		}
		if (nlabels == MAX_RULES)
			fail(&c, "more than %d rules", MAX_RULES);
		memcpy(labels[nlabels].name, w, sizeof(w));
		labels[nlabels++].line = c.line;
	}
	if (!nlabels) {
		fprintf(stderr, "%s: no rules\n", path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	char buf[MAX_LINE], (*nodes)[2048];
	struct cursor c = {buf, buf, 0};
	FILE *f;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: genecco RULES > out.inc\n");
		return 2;
	}
	path = argv[1];
	if (!(f = fopen(path, "r")) || !(nodes = malloc(MAX_RULES * sizeof(*nodes)))) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 3;
	}
	read_labels(f);
	rewind(f);
	printf("/* Generated by tools/genecco.c from %s: edit that file, not this one. */\n\n",
	       path);
	printf("enum label {\n\tL_NONE, /* 0 is NEXT */\n");
	for (int i = 0; i < nlabels; i++)
		printf("\tL_%s,\n", labels[i].name);
	printf("\tN_NODES\n};\n_Static_assert(N_NODES <= TO_CODE, \"too many rules\");\n\n");
	while (next_line(f, buf, sizeof(buf), &c)) {
		char w[MAX_LABEL + 1];
		label_of(&c, w);
		printf("#line %d \"%s\"\n", c.line, path);
		rule(&c, w, stdout, nodes[n++], sizeof(nodes[0]));
	}
	fclose(f);
	printf("\nstatic const struct node rules[N_NODES] = {\n");
	for (int i = 0; i < n; i++)
		printf("#line %d \"%s\"\n%s", labels[i].line, path, nodes[i]);
	printf("};\n");
	free(nodes);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "genecco: cannot write\n");
		return 3;
	}
	return 0;
}
