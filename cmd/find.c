/*
 * find.c: `xqkit find`, the games of the inputs that meet every criterion
 * given: tags, players, result, a position reached (by Zobrist key, with
 * its mirror), material, an opening line, what validate would say, an
 * ECCO code.  The games found are written through the format writers as
 * convert writes them (cmd/output.h), counted (--count), or listed as
 * references to where they were read (--list, "xqkit.ref/1").
 *
 * Every criterion is parsed before anything is read, so a bad one is a
 * usage error naming its exact spot.  The tests run on the worker
 * threads (`process`); `emit` writes in input order.  A broken game is
 * reported as it was read and skipped, or searched up to its first error
 * with --keep-broken.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "diagplace.h"
#include "ecco_tags.h"
#include "inputs.h"
#include "opt.h"
#include "output.h"
#include "pattern.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include "tagmap.h"
#include "validate.h"
#include "walk.h"
#include <xq/buf.h>
#include <xq/ecco.h>
#include <xq/fix.h>
#include <xq/io.h>
#include <xq/position.h>
#include <xq/record.h>
#include <xq/utf8.h>

#define REF_SCHEMA "xqkit.ref/1"

static const char usage[] =
	"xqkit find [CRITERIA] (-t FORMAT [-o OUT|-o DIR/] | --count | --list)\n"
	"                  [-r] [-j THREADS] [INPUT...]";
static const char summary[] =
	"Select the games of the inputs that meet every criterion given (tags, players,\n"
	"result, a position reached, material, opening moves, ECCO codes, what validate\n"
	"would report) and write them as convert does (-t, -o, --notation, --name), count\n"
	"them (--count) or list where each one was read, as NDJSON (--list).  A criterion\n"
	"that cannot be read is a usage error; a broken game is reported and skipped.";

enum { O_TAG = 0x100, O_PLAYER, O_RESULT, O_FEN, O_VARIATIONS, O_MIRROR, O_MATERIAL,
       O_MOVES, O_ERRORS, O_WARNINGS, O_RULING, O_ECCO, O_COUNT, O_LIST };

static const struct opt_spec options[] = {
	OPT_VALUE(O_TAG, 0, "tag", "EXPR", "a tag test: Name, Name=V, Name!=V, Name~REGEX, Name!~REGEX, Name<V (<= > >=)"),
	OPT_VALUE(O_PLAYER, 0, "player", "NAME", "red or black is NAME (a part of the tag, any case)"),
	OPT_VALUE(O_RESULT, 0, "result", "R", "the result is R: 1-0, 0-1, 1/2-1/2 or *"),
	OPT_VALUE(O_FEN, 0, "fen", "FEN", "the position is reached at some ply (side to move too, when given)"),
	OPT_FLAG(O_VARIATIONS, 0, "variations", "--fen and --material look in variations too"),
	OPT_FLAG(O_MIRROR, 0, "mirror", "--fen and --moves also match the left-right mirror"),
	OPT_VALUE(O_MATERIAL, 0, "material", "SIG", "the material is reached at some ply: RED/BLACK, e.g. R2C+/rhp2 ('+': at least)"),
	OPT_VALUE(O_MOVES, 0, "moves", "MOVES", "the main line starts with these moves (any notation)"),
	OPT_FLAG(O_ERRORS, 0, "errors", "games validate reports an error in"),
	OPT_FLAG(O_WARNINGS, 0, "warnings", "games validate reports a warning or an error in"),
	OPT_VALUE(O_RULING, 0, "ruling", "WHAT", "the rules rule on the end: any, confirmed, contradicted, doubtful, not-shown"),
	OPT_VALUE(O_ECCO, 0, "ecco", "CODES", "the ECCO code is one of CODES (C1, C10-C19, A, ...)"),
	OPT_INCLUDE(rules_options),
	OPT_FLAG(O_COUNT, 0, "count", "print the number of games found"),
	OPT_FLAG(O_LIST, 0, "list", "one NDJSON reference per game found (" REF_SCHEMA ")"),
	OPT_INCLUDE(output_options),
	OPT_INCLUDE(input_options),
	OPT_END,
};

/* ---- criteria ------------------------------------------------------------------ */

enum tag_op { OP_EXISTS, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_RE, OP_NRE };

#define MAX_PARTS 6

struct tag_test {
	const char *text;       /* as given */
	char name[64];
	enum tag_op op;
	const char *value;
	struct pattern *re;     /* ~ and !~ (pattern.h: linear time, stopped by a signal) */
	int nparts;             /* > 0: an order test on numbers (1990, 1990.05) */
	long parts[MAX_PARTS];
};

/* A position to reach: each position that counts (the mirror, the other
 * side to move when the FEN gave none). */
struct pos_test {
	const char *text;
	xq_position *b[4];
	int nb;
};

/* Piece types, in the order of the FEN letters KABNRCP. */
#define PIECE_TYPES 7

/* Material: counts per side and piece type, min..max. */
struct mat_test {
	const char *text;
	uint8_t min[2][PIECE_TYPES], max[2][PIECE_TYPES];
};

#define MAX_TESTS 16
#define MAX_LINE 256

struct fctx {
	struct output out;
	struct input_opts in;
	struct reporter rep;
	/* criteria */
	struct tag_test tags[MAX_TESTS];
	int ntags;
	const char *players[MAX_TESTS];
	int nplayers;
	const char *result;        /* --result: "1-0", "0-1", "1/2-1/2" or "*" */
	struct pos_test pos[MAX_TESTS];
	int npos;
	struct mat_test mat[MAX_TESTS];
	int nmat;
	xq_move_code line[2][MAX_LINE]; /* --moves, and its mirror */
	int nline, has_line;
	int variations, mirror, errors, warnings;
	int ruling;                /* -1: none; 0: any; else an enum validate_ruling */
	xq_ecco_codes *ecco;       /* --ecco */
	xq_position *start;        /* the standard start (--moves) */
	int count, list;
	/* totals, on the output thread */
	uint64_t matched, skipped;
	int nomem;                 /* a test ran out of memory: the run stops */
	struct xq_buf refs;        /* --list records to flush */
};

/* Job flags and counts of a game (set by process): J_NOMEM, a test
 * could not be made for want of memory. */
enum { J_MATCH = 1, J_SKIP = 2, J_NOMEM = 4 };

static int usage_at(struct opt_parser *p, const char *opt, const char *text, size_t at,
		    const char *what)
{
	return opt_error(p, "%s '%.80s': at character %zu: %.120s", opt, text, at + 1,
			 what);
}

static int is_name_char(int c)
{
	return xq_is_alpha(c) || xq_is_digit(c) || c == '_';
}

/* "1990", "1990.05.03", "2006-08-19": numbers separated by '.', '-' or
 * '/'.  Returns the number of parts, 0 when `s` is not such a text. */
static int numeric_parts(const char *s, long *parts)
{
	int n = 0;

	while (*s) {
		long v = 0;
		int digits = 0;
		while (xq_is_digit((unsigned char)*s) && digits < 12)
			v = v * 10 + (*s++ - '0'), digits++;
		if (!digits || n == MAX_PARTS)
			return 0;
		parts[n++] = v;
		if (!*s)
			break;
		if (*s != '.' && *s != '-' && *s != '/')
			return 0;
		s++;
		if (!*s)
			return 0;
	}
	return n;
}

static int parse_tag(struct fctx *c, struct opt_parser *p, const char *text)
{
	struct tag_test *t;
	size_t i = 0, n;

	if (c->ntags == MAX_TESTS)
		return opt_error(p, "--tag is taken at most %d times", MAX_TESTS);
	t = &c->tags[c->ntags];
	memset(t, 0, sizeof(*t));
	t->text = text;
	while (is_name_char((unsigned char)text[i]))
		i++;
	if (i == 0)
		return usage_at(p, "--tag", text, 0,
				"expected a tag name (letters, digits, '_') before the test");
	if (i >= sizeof(t->name))
		return usage_at(p, "--tag", text, i, "the tag name is too long");
	memcpy(t->name, text, i);
	t->name[i] = '\0';
	n = i;
	switch (text[i]) {
	case '\0': t->op = OP_EXISTS; break;
	case '=':
		t->op = OP_EQ, n++;
		if (text[n] == '=')
			n++;
		else if (text[n] == '~')
			t->op = OP_RE, n++;
		break;
	case '!':
		if (text[i + 1] == '=')
			t->op = OP_NE, n += 2;
		else if (text[i + 1] == '~')
			t->op = OP_NRE, n += 2;
		else
			return usage_at(p, "--tag", text, i,
					"unknown operator (=, !=, <, <=, >, >=, ~ or !~)");
		break;
	case '<': t->op = OP_LT, n++; if (text[n] == '=') t->op = OP_LE, n++; break;
	case '>': t->op = OP_GT, n++; if (text[n] == '=') t->op = OP_GE, n++; break;
	case '~': t->op = OP_RE, n++; break;
	default:
		return usage_at(p, "--tag", text, i,
				"unknown operator (=, !=, <, <=, >, >=, ~ or !~) after the tag name");
	}
	/* `Date=>1990`, `Date<>1990`, `PlyCount=<40`: an operator mistyped,
	 * not a value that starts with one. */
	if (t->op != OP_EXISTS && (text[n] == '<' || text[n] == '>' || text[n] == '=' ||
				   (text[n] == '!' && (text[n + 1] == '=' || text[n + 1] == '~'))))
		return usage_at(p, "--tag", text, i, "unknown operator (=, !=, <, <=, >, >=, ~ or !~)");
	t->value = text + n;
	if (t->op == OP_RE || t->op == OP_NRE) {
		char why[200];
		size_t at;
		int rc = pattern_compile(&t->re, t->value, &at, why, sizeof(why));
		if (rc == XQ_ENOMEM)
			p->status = CMD_EXIT_IO;
		if (rc)
			return usage_at(p, "--tag", text, n + at, why);
	} else if (t->op >= OP_LT && t->op <= OP_GE) {
		if (!*t->value)
			return usage_at(p, "--tag", text, n, "expected a value to compare with");
		t->nparts = numeric_parts(t->value, t->parts);
	}
	c->ntags++;
	return 0;
}

static const char *const type_names[PIECE_TYPES] = {"kings", "advisors", "elephants",
						    "horses", "rooks", "cannons", "pawns"};
static const uint8_t type_max[PIECE_TYPES] = {1, 2, 2, 2, 2, 2, 5};

/* The type of a piece letter of a FEN, either case (E and H are elephant
 * and horse too), or -1. */
static int piece_type(int letter)
{
	static const char letters[] = "KABNRCP";
	const char *at;

	letter = xq_to_upper(letter);
	letter = letter == 'E' ? 'B' : letter == 'H' ? 'N' : letter;
	at = letter ? strchr(letters, letter) : NULL;
	return at ? (int)(at - letters) : -1;
}

/*
 * RED/BLACK: each side a run of pieces (K A B|E N|H R C P, either case),
 * each letter followed by an optional count (C2, P3; a letter written
 * twice counts twice), then an optional '+': this side has at least
 * these pieces (else exactly these, kings aside).
 */
static int parse_material(struct fctx *c, struct opt_parser *p, const char *text)
{
	struct mat_test *m;
	int side = 0, at_least = 0;
	uint8_t cnt[2][PIECE_TYPES];
	size_t i = 0;

	if (c->nmat == MAX_TESTS)
		return opt_error(p, "--material is taken at most %d times", MAX_TESTS);
	m = &c->mat[c->nmat];
	memset(cnt, 0, sizeof(cnt));
	m->text = text;
	for (;; i++) {
		int ch = (unsigned char)text[i], type;
		if (ch == '/' || ch == '\0') {
			for (int t = 0; t < PIECE_TYPES; t++) {
				m->min[side][t] = t == 0 ? 1 : cnt[side][t]; /* one king, always */
				m->max[side][t] = at_least ? type_max[t] : m->min[side][t];
			}
			if (ch == '\0') {
				if (side == 0)
					return usage_at(p, "--material", text, i,
							"expected '/' between red's pieces and black's");
				break;
			}
			if (side == 1)
				return usage_at(p, "--material", text, i,
						"a second '/': the signature is RED/BLACK");
			side = 1;
			at_least = 0;
			continue;
		}
		if (at_least)
			return usage_at(p, "--material", text, i,
					"'+' (at least) ends a side's pieces");
		if (ch == '+') {
			at_least = 1;
			continue;
		}
		if ((type = piece_type(ch)) < 0)
			return usage_at(p, "--material", text, i,
					"expected a piece (K A B/E N/H R C P), a count after one, '+' or '/'");
		{
			unsigned n = 1;
			size_t at = i;
			if (xq_is_digit((unsigned char)text[i + 1])) {
				n = (unsigned)(text[++i] - '0');
				if (xq_is_digit((unsigned char)text[i + 1]))
					return usage_at(p, "--material", text, i + 1,
							"a count is one digit");
			}
			if (n == 0)
				return usage_at(p, "--material", text, i, "a count of 0: leave the piece out");
			if (cnt[side][type] + n > type_max[type]) {
				char why[96];
				snprintf(why, sizeof(why), "%s has at most %u %s",
					 side ? "black" : "red", (unsigned)type_max[type],
					 type_names[type]);
				return usage_at(p, "--material", text, at, why);
			}
			cnt[side][type] += (uint8_t)n;
		}
	}
	c->nmat++;
	return 0;
}

static int add_board(struct pos_test *t, const char *fen)
{
	if (!(t->b[t->nb] = xq_position_new()))
		return -1;
	if (xq_position_set_fen_lenient(t->b[t->nb], fen)) {
		xq_position_free(t->b[t->nb]);
		return -1;
	}
	t->nb++;
	return 0;
}

static int parse_fen(struct fctx *c, struct opt_parser *p, const char *text)
{
	struct pos_test *t;
	xq_position *check;
	const char *sp;
	char buf[2][XQ_FEN_SIZE + 8];
	int nfen = 0;
	size_t len = strlen(text);

	if (c->npos == MAX_TESTS)
		return opt_error(p, "--fen is taken at most %d times", MAX_TESTS);
	/* The FEN as given first, so that a mistake is named where it is. */
	if (!(check = xq_position_new()))
		return opt_out_of_memory(p, "--fen");
	if (xq_position_set_fen_lenient(check, text)) {
		const xq_diagnostic *d = xq_position_error(check);
		size_t col = xq_diagnostic_column(d) ? (size_t)xq_diagnostic_column(d) - 1 : 0;
		int rc = usage_at(p, "--fen", text, col, xq_diagnostic_message(d));
		xq_position_free(check);
		return rc;
	}
	xq_position_free(check);
	if (len > XQ_FEN_SIZE)
		return opt_error(p, "--fen: the FEN is longer than %d characters",
				 XQ_FEN_SIZE);
	t = &c->pos[c->npos];
	memset(t, 0, sizeof(*t));
	t->text = text;
	c->npos++; /* its positions are freed with the others */
	/* Without a side to move, either side's turn matches. */
	sp = strchr(text, ' ');
	while (sp && *sp == ' ')
		sp++;
	if (!sp || !*sp) {
		size_t plen = strcspn(text, " ");
		snprintf(buf[nfen++], sizeof(buf[0]), "%.*s w", (int)plen, text);
		snprintf(buf[nfen++], sizeof(buf[0]), "%.*s b", (int)plen, text);
	} else {
		snprintf(buf[nfen++], sizeof(buf[0]), "%s", text);
	}
	for (int k = 0; k < nfen; k++) {
		if (add_board(t, buf[k]))
			return opt_error(p, "--fen '%.80s': cannot be read", text);
		if (c->mirror) {
			if (!(t->b[t->nb] = xq_position_dup(t->b[t->nb - 1])))
				return opt_out_of_memory(p, "--fen");
			xq_position_mirror(t->b[t->nb++]);
		}
	}
	return 0;
}

/* A move number ("1.", "12...", "3"), which --moves steps over. */
static int is_move_number(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && xq_is_digit((unsigned char)s[i]))
		i++;
	if (i == 0)
		return 0;
	while (i < len && s[i] == '.')
		i++;
	return i == len;
}

static int parse_moves(struct fctx *c, struct opt_parser *p, const char *text)
{
	xq_position *b = xq_position_new();
	size_t i = 0;

	c->nline = 0;
	c->has_line = 1;
	if (!b)
		return opt_out_of_memory(p, "--moves");
	while (text[i]) {
		size_t start, len;
		xq_move_code m;
		char *move;
		int rc;
		while (text[i] == ' ' || text[i] == ',' || text[i] == '\t')
			i++;
		if (!text[i])
			break;
		start = i;
		while (text[i] && text[i] != ' ' && text[i] != ',' && text[i] != '\t')
			i++;
		len = i - start;
		if (is_move_number(text + start, len))
			continue;
		if (c->nline == MAX_LINE) {
			xq_position_free(b);
			return opt_error(p, "--moves takes at most %d moves", MAX_LINE);
		}
		if (!(move = strndup(text + start, len))) {
			xq_position_free(b);
			return opt_out_of_memory(p, "--moves");
		}
		/* check marks and annotations after a move are not part of it */
		rc = xq_position_read_move(b, move, XQ_DIALECT_AUTO, &m);
		free(move);
		if (rc) {
			char why[200];
			snprintf(why, sizeof(why), "move %d '%.*s': %.120s", c->nline + 1, (int)len,
				 text + start, xq_diagnostic_message(xq_position_error(b)));
			xq_position_free(b);
			return usage_at(p, "--moves", text, start, why);
		}
		c->line[0][c->nline] = m;
		c->line[1][c->nline] = xq_move_code_mirror(m);
		c->nline++;
		xq_position_play(b, m);
	}
	xq_position_free(b);
	if (c->nline == 0)
		return opt_error(p, "--moves '%.80s': no move in it", text);
	return 0;
}

static int parse_ruling(struct fctx *c, struct opt_parser *p, const char *value)
{
	if (!strcmp(value, "any")) {
		c->ruling = 0;
		return 0;
	}
	for (int s = VALIDATE_RULING_CONFIRMED; s <= VALIDATE_RULING_NOT_SHOWN; s++)
		if (!strcmp(value, validate_ruling_name((enum validate_ruling)s))) {
			c->ruling = s;
			return 0;
		}
	return opt_error(p, "--ruling must be any, confirmed, contradicted, doubtful or not-shown, not '%.60s'",
			 value);
}

static int parse_result(struct fctx *c, struct opt_parser *p, const char *value)
{
	if (!(c->result = xq_result_canonical(value)))
		return opt_error(p, "--result must be 1-0, 0-1, 1/2-1/2 or *, not '%.60s'", value);
	return 0;
}

/* ---- tests on one game ------------------------------------------------------------ */

/* The first tag named `name` in any case, or NULL. */
static const char *tag_any_case(const xq_record *g, const char *name)
{
	for (size_t i = 0; i < xq_record_tag_count(g); i++)
		if (xq_ascii_ieq(xq_record_tag_name(g, i), name))
			return xq_record_tag_value(g, i);
	return NULL;
}

/* Does `hay` hold `needle`, ASCII letters in any case? */
static int contains_any_case(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++) {
		size_t k = 0;
		while (k < n && hay[k] && xq_to_lower((unsigned char)hay[k]) ==
						  xq_to_lower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return 1;
	}
	return n == 0;
}

/* The numbers of a tag value for an order test: runs of digits (1993.4.27,
 * 1993年4月27日), up to the first '?' or other text. */
static int value_parts(const char *s, long *parts)
{
	int n = 0;

	while (*s && n < MAX_PARTS) {
		long v = 0;
		int digits = 0;
		while (xq_is_digit((unsigned char)*s) && digits < 12)
			v = v * 10 + (*s++ - '0'), digits++;
		if (!digits)
			break;
		parts[n++] = v;
		if (!*s)
			break;
		/* one separator: '.', '-', '/', or a character such as 年 */
		if (*s == '.' || *s == '-' || *s == '/' || *s == ' ')
			s++;
		else if ((unsigned char)*s >= 0x80) {
			s++;
			while (((unsigned char)*s & 0xC0) == 0x80)
				s++;
		} else {
			break;
		}
	}
	return n;
}

/* Stop a long match: the signal that stops the run has come. */
static int match_stopped(void *arg)
{
	(void)arg;
	return cmd_stop && xq_cancel_is_set(cmd_stop);
}

/* Does the pattern of `t` match `v`?  1 or 0; after a signal, 0; when
 * memory ran out, 0 with J_NOMEM in *flags. */
static int re_matches(const struct tag_test *t, const char *v, unsigned *flags)
{
	int rc = pattern_match(t->re, v, strlen(v), match_stopped, NULL);

	if (rc == XQ_ENOMEM)
		*flags |= J_NOMEM;
	return rc == 1;
}

static int tag_matches(const struct tag_test *t, const xq_record *g, unsigned *flags)
{
	const char *v = tag_any_case(g, t->name);
	int cmp;

	if (t->op == OP_NE || t->op == OP_NRE) {
		if (!v)
			return 1;
	} else if (!v) {
		return 0;
	}
	switch (t->op) {
	case OP_EXISTS: return *v != '\0';
	case OP_EQ: return xq_ascii_ieq(v, t->value);
	case OP_NE: return !xq_ascii_ieq(v, t->value);
	case OP_RE: return re_matches(t, v, flags);
	case OP_NRE: return !re_matches(t, v, flags) && !(*flags & J_NOMEM) && !match_stopped(NULL);
	default: break;
	}
	if (t->nparts) {
		long parts[MAX_PARTS];
		int n = value_parts(v, parts);
		if (n < t->nparts)
			return 0; /* 19??, no date: neither before nor after */
		cmp = 0;
		for (int i = 0; i < t->nparts && !cmp; i++)
			cmp = parts[i] < t->parts[i] ? -1 : parts[i] > t->parts[i];
	} else {
		cmp = strcmp(v, t->value);
	}
	switch (t->op) {
	case OP_LT: return cmp < 0;
	case OP_LE: return cmp <= 0;
	case OP_GT: return cmp > 0;
	case OP_GE: return cmp >= 0;
	default: return 0;
	}
}

static int pos_matches(const struct pos_test *t, const xq_position *b)
{
	for (int i = 0; i < t->nb; i++)
		if (xq_position_same(b, t->b[i]))
			return 1;
	return 0;
}

static int mat_matches(const struct mat_test *t, const int cnt[2 * PIECE_TYPES])
{
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < PIECE_TYPES; k++)
			if (cnt[s * PIECE_TYPES + k] < t->min[s][k] || cnt[s * PIECE_TYPES + k] > t->max[s][k])
				return 0;
	return 1;
}

/* Where the first position test (--fen, else --material) was met. */
struct found {
	uint32_t ply, node;
	int in_variation;
};

/* What the positions of the game meet: a bit per test, --fen's from 0,
 * --material's from MAX_TESTS; `at` is filled for the first test met of
 * the first kind given. */
struct pos_state {
	uint64_t want, have;
	struct found at;
	int at_set;
};

static void look(const struct fctx *c, struct pos_state *s, const xq_position *b, int captured,
		 uint32_t ply, uint32_t node, int in_var)
{
	for (int i = 0; i < c->npos; i++)
		if (!(s->have >> i & 1) && pos_matches(&c->pos[i], b)) {
			s->have |= 1ull << i;
			if (!s->at_set)
				s->at = (struct found){ply, node, in_var}, s->at_set = 1;
		}
	if (c->nmat && captured) {
		int cnt[2 * PIECE_TYPES];
		xq_position_material(b, cnt);
		for (int i = 0; i < c->nmat; i++)
			if (!(s->have >> (MAX_TESTS + i) & 1) && mat_matches(&c->mat[i], cnt)) {
				s->have |= 1ull << (MAX_TESTS + i);
				if (!s->at_set && !c->npos)
					s->at = (struct found){ply, node, in_var}, s->at_set = 1;
			}
	}
}

/* The move of node `n` captures in position `b` (the one before it). */
static int captures(const xq_position *b, xq_record *g, uint32_t n)
{
	return xq_position_piece(b, XQ_MOVE_CODE_TO(xq_record_node_move(g, n))) != 0;
}

/* --fen and --material over the main line (and the variations): 1 when
 * every one is met, with where the first was in `at`.  `b` is the
 * worker's position; the record's own cache makes each step from a node
 * to its child one move. */
static int positions_match(const struct fctx *c, xq_record *g, xq_position *b, struct found *at)
{
	struct pos_state s;
	uint32_t ply = 0;

	memset(&s, 0, sizeof(s));
	s.want = (c->npos ? (1ull << c->npos) - 1 : 0) |
		 (c->nmat ? ((1ull << c->nmat) - 1) << MAX_TESTS : 0);
	xq_record_node_position(g, XQ_ROOT_NODE, b);
	look(c, &s, b, 1, 0, XQ_ROOT_NODE, 0);
	for (uint32_t n = xq_record_node_child(g, XQ_ROOT_NODE); n != XQ_NO_NODE && s.have != s.want;
	     n = xq_record_node_child(g, n)) {
		int captured = captures(b, g, n);
		xq_record_node_position(g, n, b);
		look(c, &s, b, captured, ++ply, n, 0);
	}
	if (s.have != s.want && c->variations) {
		/* Every node in pre-order: the first `ply` are the main line,
		 * looked at already. */
		struct record_walk w;
		uint32_t skip = ply;
		record_walk_init(&w, g);
		while (s.have != s.want && record_walk_next(&w)) {
			int captured;
			if (skip) {
				skip--;
				continue;
			}
			xq_record_node_position(g, xq_record_node_parent(g, w.node), b);
			captured = captures(b, g, w.node);
			xq_record_node_position(g, w.node, b);
			look(c, &s, b, captured, (uint32_t)w.depth, w.node, 1);
		}
	}
	*at = s.at;
	return s.have == s.want;
}

static int line_matches(const struct fctx *c, xq_record *g, xq_position *b)
{
	int ok[2] = {1, c->mirror};
	uint32_t n = xq_record_node_child(g, XQ_ROOT_NODE);

	xq_record_node_position(g, XQ_ROOT_NODE, b);
	if (!xq_position_same(b, c->start))
		return 0;
	for (int i = 0; i < c->nline; i++, n = xq_record_node_child(g, n)) {
		xq_move_code m;
		if (n == XQ_NO_NODE)
			return 0;
		m = xq_record_node_move(g, n);
		ok[0] = ok[0] && m == c->line[0][i];
		ok[1] = ok[1] && m == c->line[1][i];
		if (!ok[0] && !ok[1])
			return 0;
	}
	return 1;
}

static int ecco_matches(const struct fctx *c, const xq_batch_job *j)
{
	struct ecco_opening e;

	return ecco_tags_classify(j, &e) && xq_ecco_codes_has(c->ecco, e.code);
}

/* What validate would say: --errors, --warnings, --ruling.  Its
 * diagnostics only decide; they are not reported. */
static int problems_match(const struct fctx *c, xq_batch_job *j)
{
	size_t before = xq_diagnostics_count(j->diags);
	uint64_t sev[3] = {0, 0, 0};
	enum validate_ruling ruling = validate_checks(j, &c->in, NULL, 0);
	int ok = 1;

	diag_severities(j->diags, 0, sev); /* the reader's too */
	xq_diagnostics_truncate(j->diags, before);
	if (c->errors && !sev[XQ_SEVERITY_ERROR])
		ok = 0;
	if (c->warnings && !sev[XQ_SEVERITY_ERROR] && !sev[XQ_SEVERITY_WARNING])
		ok = 0;
	if (c->ruling == 0 && ruling == VALIDATE_RULING_SILENT)
		ok = 0;
	if (c->ruling > 0 && (int)ruling != c->ruling)
		ok = 0;
	return ok;
}

static int game_matches(const struct fctx *c, xq_batch_job *j, xq_position *b, struct found *at)
{
	xq_record *g = j->record;

	if (c->result && strcmp(xq_record_result(g), c->result))
		return 0;
	for (int i = 0; i < c->nplayers; i++) {
		const char *red = tag_any_case(g, "Red"), *black = tag_any_case(g, "Black");
		if (!(red && contains_any_case(red, c->players[i])) &&
		    !(black && contains_any_case(black, c->players[i])))
			return 0;
	}
	for (int i = 0; i < c->ntags; i++)
		if (!tag_matches(&c->tags[i], g, &j->flags))
			return 0;
	if (c->has_line && !line_matches(c, g, b))
		return 0;
	if (c->ecco && !ecco_matches(c, j))
		return 0;
	if ((c->npos || c->nmat) && !positions_match(c, g, b, at))
		return 0;
	if ((c->errors || c->warnings || c->ruling >= 0) && !problems_match(c, j))
		return 0;
	return 1;
}

/* ---- the run -------------------------------------------------------------------- */

/* The --list record of a game found, into j->text. */
static void list_record(const struct fctx *c, xq_batch_job *j, const struct found *at,
			int has_at)
{
	xq_record *g = j->record;
	struct xq_buf *b = &j->text;
	const char *file;
	uint64_t number, line;
	int64_t offset;
	struct tagmap firsts;
	int first = 1;

	xq_buf_reset(b);
	xq_buf_adds(b, "{\"schema\":\"" REF_SCHEMA "\",");
	xq_record_origin(g, &file, &number, &line, &offset);
	xq_buf_add_ndjson_source(b, file, number, line, offset);
	xq_buf_addf(b, ",\"format\":\"%s\",\"tags\":{", j->file->format);
	tagmap_init(&firsts, g);
	for (size_t i = 0; i < xq_record_tag_count(g); i++) {
		const char *name = xq_record_tag_name(g, i);
		if (tagmap_first(&firsts, name) != i)
			continue; /* a name given twice: the first one */
		if (!first)
			xq_buf_addc(b, ',');
		first = 0;
		report_add_json_safe(b, name);
		xq_buf_addc(b, ':');
		report_add_json_safe(b, xq_record_tag_value(g, i));
	}
	tagmap_release(&firsts);
	xq_buf_addf(b, "},\"plies\":%u,\"result\":\"%s\"", xq_record_mainline_length(g),
		    xq_record_result(g));
	if (has_at) {
		xq_buf_addf(b, ",\"ply\":%u", (unsigned)at->ply);
		if (at->node != XQ_ROOT_NODE) {
			char text[XQ_MOVE_TEXT_SIZE];
			/* The dialect and flags of --notation are the public ones. */
			int dialect = c->out.wopts.dialect ? c->out.wopts.dialect : XQ_DIALECT_ICCS;
			unsigned flags = c->out.wopts.dialect ? c->out.wopts.dialect_flags : 0;
			if (xq_record_node_move_text(g, at->node, dialect, flags, text, sizeof(text))) {
				xq_buf_adds(b, ",\"move\":");
				report_add_json_safe(b, text);
			}
		}
		if (at->in_variation)
			xq_buf_adds(b, ",\"variation\":true");
	}
	xq_buf_adds(b, "}\n");
}

static void find_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct fctx *c = ctx;
	struct found at = {0, XQ_ROOT_NODE, 0};

	if (xq_record_is_broken(j->record) && !c->out.keep_broken && !c->errors && !c->warnings) {
		j->flags = J_SKIP;
		return;
	}
	if (!game_matches(c, j, worker, &at))
		return;
	j->flags = J_MATCH;
	if (c->list)
		list_record(c, j, &at, c->npos || c->nmat);
}

static void skip_note(xq_batch_job *j)
{
	diag_job_tag(j, NULL, XQ_SEVERITY_NOTE, "none",
		     "skipped: the game has an error (--keep-broken searches it up to the error)");
}

static int find_emit(void *ctx, xq_batch_job *j)
{
	struct fctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME && (j->flags & J_NOMEM) && !c->nomem) {
		/* The game cannot be said to match or not: the run stops. */
		cmd_error("out of memory matching a --tag pattern in game %llu of '%s'",
			  (unsigned long long)xq_record_number(j->record), j->file->name);
		c->nomem = 1;
		c->rep.io_error = 1;
		c->out.io_error = 1;
		c->out.stop = 1;
	} else if (j->kind == XQ_BATCH_GAME) {
		if (j->flags & J_SKIP) {
			skip_note(j);
			c->skipped++;
		} else if (j->flags & J_MATCH) {
			c->matched++;
			if (c->out.to)
				output_game(&c->out, j, NULL);
			else if (c->list)
				xq_buf_add(&c->refs, j->text.ptr, j->text.len);
		}
	}
	reporter_job(&c->rep, j, NULL);
	reporter_flush(&c->rep);
	if (c->refs.len) {
		report_flush_out(&c->refs);
		xq_buf_reset(&c->refs);
	}
	return output_emit_status(&c->out);
}

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct fctx *c = ctx;

	xq_buf_addf(b, ",\"found\":%llu,\"skipped\":%llu",
		    (unsigned long long)c->matched, (unsigned long long)c->skipped);
	if (c->out.to)
		xq_buf_addf(b, ",\"to\":\"%s\",\"written\":%llu,\"stopped\":%s",
			    c->out.to, (unsigned long long)c->out.written,
			    c->out.stop ? "true" : "false");
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct fctx *c = ctx;
	struct reporter *r = &c->rep;

	xq_buf_addf(b, "find: %llu of %llu game%s found in %llu file%s",
		    (unsigned long long)c->matched, (unsigned long long)r->games,
		    r->games == 1 ? "" : "s", (unsigned long long)r->files, r->files == 1 ? "" : "s");
	if (c->out.to)
		xq_buf_addf(b, ", %llu written as %s", (unsigned long long)c->out.written,
			    c->out.to);
	if (c->skipped)
		xq_buf_addf(b, ", %llu broken skipped", (unsigned long long)c->skipped);
	if (c->out.to && c->out.skipped)
		xq_buf_addf(b, ", %llu not written", (unsigned long long)c->out.skipped);
	reporter_unread_text(r, b);
	xq_buf_addf(b, " (%.2f s)\n", secs);
}

static const struct report_summary summary_parts = {.json = summary_json, .text = summary_text};

static void print_summary(void *ctx, double secs)
{
	struct fctx *c = ctx;

	reporter_summary(&c->rep, secs, c->rep.games, &summary_parts, c);
}

static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct fctx *c = ctx;
	int rc = output_take(&c->out, &c->in, p, id, value);

	if (rc)
		return rc < 0 ? -1 : 0;
	switch (id) {
	case O_TAG: return parse_tag(c, p, value);
	case O_PLAYER:
		if (c->nplayers == MAX_TESTS)
			return opt_error(p, "--player is taken at most %d times", MAX_TESTS);
		if (!*value)
			return opt_error(p, "--player needs a name");
		c->players[c->nplayers++] = value;
		break;
	case O_RESULT: return parse_result(c, p, value);
	case O_FEN:
		/* read after every option: --mirror may come later */
		if (c->npos == MAX_TESTS)
			return opt_error(p, "--fen is taken at most %d times", MAX_TESTS);
		c->pos[c->npos++].text = value;
		break;
	case O_VARIATIONS: c->variations = 1; break;
	case O_MIRROR: c->mirror = 1; break;
	case O_MATERIAL: return parse_material(c, p, value);
	case O_MOVES:
		if (c->has_line)
			return opt_error(p, "--moves is given once");
		return parse_moves(c, p, value);
	case O_ERRORS: c->errors = 1; break;
	case O_WARNINGS: c->warnings = 1; break;
	case O_RULING: return parse_ruling(c, p, value);
	case O_ECCO: {
		char why[160];
		size_t col;
		xq_ecco_codes_free(c->ecco); /* the last --ecco counts */
		if (xq_ecco_codes_parse(&c->ecco, value, &col, why, sizeof(why))) {
			if (!why[0])
				p->status = CMD_EXIT_IO;
			return usage_at(p, "--ecco", value, col ? col - 1 : 0, why[0] ? why : "out of memory");
		}
		break;
	}
	case O_COUNT: c->count = 1; break;
	case O_LIST: c->list = 1; break;
	}
	return 0;
}

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct fctx *c = ctx;
	int n = c->npos;
	const char *texts[MAX_TESTS];

	if (!c->start)
		return opt_out_of_memory(p, "the options");
	for (int i = 0; i < n; i++)
		texts[i] = c->pos[i].text;
	c->npos = 0;
	for (int i = 0; i < n; i++)
		if (parse_fen(c, p, texts[i]))
			return -1;
	if (c->count + c->list + !!c->out.to_name != 1)
		return opt_error(p, "%s",
				 (c->count + c->list + !!c->out.to_name) > 1
				 ? "-t, --count and --list do not go together: choose one"
				 : "what to do with the games found: -t FORMAT, --count or --list");
	if (c->out.to_name)
		return output_check(&c->out, &c->in, p);
	if (c->out.out_path)
		return opt_error(p, "-o writes games: give -t FORMAT");
	return input_opts_check(&c->in, p);
}

static const struct input_command command = {"find", options, usage, summary, take_option,
					     check_args};

static int run(struct fctx *c, struct opt_parser *p)
{
	struct inputs inputs;
	xq_batch_config cfg = {.process = find_process, .emit = find_emit, .ctx = c,
				  .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini};
	int rc;
	double t0;

	if ((rc = input_opts_begin(&c->in, &c->rep, &inputs, p)) != 0)
		return rc;
	c->out.inputs = &inputs;
	t0 = cmd_now();
	if (c->out.to) {
		if ((rc = output_prepare(&c->out, &inputs, &c->rep)) == 0) {
			if (input_opts_run(&c->in, &inputs, &cfg) == XQ_ENOMEM)
				c->out.io_error = 1;
			rc = output_finish(&c->out, &inputs, &c->rep, print_summary, c, t0);
			rc = output_grep_status(&c->out, &c->rep, rc, c->matched > 0);
		} else {
			progress_stop();
		}
		inputs_release(&inputs);
		return rc;
	}
	rc = input_opts_run(&c->in, &inputs, &cfg);
	inputs_release(&inputs);
	if (rc == XQ_ENOMEM)
		c->rep.io_error = 1;
	if (cmd_signal) {
		cmd_error("interrupted: what was found before the signal is %s",
			  c->count ? "not counted" : "listed");
		print_summary(c, cmd_now() - t0);
		return cmd_signal_status();
	}
	if (c->count && c->rep.fmt != REPORT_NDJSON) {
		struct xq_buf b = XQ_BUF_INIT;
		xq_buf_addf(&b, "%llu\n", (unsigned long long)c->matched);
		report_flush_out(&b);
		xq_buf_release(&b);
	}
	print_summary(c, cmd_now() - t0);
	return output_grep_status(&c->out, &c->rep, 0, c->matched > 0);
}

int cmd_find(int argc, char **argv)
{
	struct opt_parser p;
	struct fctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c) {
		cmd_error("out of memory reading the options");
		return CMD_EXIT_IO;
	}
	output_init(&c->out, "find");
	input_opts_init(&c->in);
	c->ruling = -1;
	c->start = xq_position_new(); /* checked by check_args() */
	xq_buf_init(&c->refs);
	if ((rc = input_opts_command(&c->in, &p, argc, argv, &command, c)) == OPT_RUN)
		rc = run(c, &p);
	for (int i = 0; i < c->ntags; i++)
		pattern_free(c->tags[i].re);
	for (int i = 0; i < c->npos; i++)
		for (int k = 0; k < c->pos[i].nb; k++)
			xq_position_free(c->pos[i].b[k]);
	xq_ecco_codes_free(c->ecco);
	xq_position_free(c->start);
	opt_release(&p);
	output_release(&c->out);
	reporter_release(&c->rep);
	xq_buf_release(&c->refs);
	free(c);
	return rc;
}
