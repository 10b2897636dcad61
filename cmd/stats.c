/*
 * stats.c: `xqkit stats`, what a collection holds, in one pass.
 *
 *   xqkit stats --by KEY INPUT...    a table: one row per value of KEY (an
 *                                    ECCO code, an opening, a player, an
 *                                    event, a year, any tag) with games,
 *                                    results, score, average length, dates
 *   xqkit stats --tree INPUT...      the moves played from a position, as
 *                                    deep as --depth, with counts and
 *                                    scores; --book writes them as a book
 *
 * Games are read on the pool's workers (-j), which work out what each game
 * adds (its keys, or the moves it played from the position); the output
 * thread adds it up in input order, so the figures never depend on -j.
 * Memory holds one row per distinct key (or one edge per distinct position
 * and move within the depth), never the games.
 *
 * A broken game (its reading stopped at an error) is counted: in its row,
 * in a `broken` column and in the totals, with the result its record gives;
 * only its plies, which stop at the error, are not averaged.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "ecco_tags.h"
#include "inputs.h"
#include "opt.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/ecco.h>
#include <xq/file.h>
#include <xq/memory.h>
#include <xq/position.h>
#include <xq/record.h>
#include <xq/utf8.h>

#define STATS_SCHEMA "xqkit.stats/1"
#define TREE_SCHEMA "xqkit.tree/1"
#define BOOK_MAGIC "# xqkit-book/1"
#define TREE_MAX_DEPTH 40
#define ECCO_PLIES XQ_ECCO_PLIES /* the plies that decide an opening */

static const char usage[] =
	"xqkit stats [--by ecco|opening|player|event|year|TAG] [--ecco CODES] [--top N]\n"
	"                   [--format text|tsv|ndjson] [-r] [-j THREADS] [INPUT...]\n"
	"       xqkit stats --tree [--fen FEN | --moves MOVES] [--depth N] [--ecco CODES] [--top N]\n"
	"                   [--book OUT [--force]] [--format text|ndjson] [INPUT...]";
static const char summary[] =
	"Count the games of the inputs (files, directories with -r, '-' for standard\n"
	"input) by ECCO code, opening, player, event, year or any tag: games, Red\n"
	"wins, draws, Black wins, score, average plies, first and last date, sorted\n"
	"by count.  With --tree, every move played from a position (the start, a\n"
	"--fen, or after --moves) with its count, score for the side to move,\n"
	"average date and ECCO code, as deep as --depth; --book writes that tree as\n"
	"an opening book.  Broken games are counted, as broken.";

enum { O_BY = 'b', O_TOP = 'n', O_FORMAT = 'F', O_TREE = 'T', O_FEN = 'f', O_MOVES = 'm',
       O_DEPTH = 'd', O_BOOK = 'B', O_FORCE = 'o', O_ECCO = 'E' };

static const struct opt_spec options[] = {
	OPT_VALUE(O_BY, 0, "by", "KEY", "ecco (the default), opening, player, event, year or a tag name (Red, ECCO, ...)"),
	OPT_VALUE(O_ECCO, 0, "ecco", "CODES", "only games of these openings: C45, C4 (C40-C49), C, C10-C19, A,B1"),
	OPT_VALUE(O_TOP, 0, "top", "N", "only the N most frequent rows (with --tree: moves of each position)"),
	OPT_VALUE(O_FORMAT, 0, "format", "FMT", "text (the default), tsv or ndjson (diagnostics too, on stdout)"),
	OPT_FLAG(O_TREE, 0, "tree", "the moves played from a position instead of a table"),
	OPT_VALUE(O_FEN, 0, "fen", "FEN", "--tree: from this position (default: the start)"),
	OPT_VALUE(O_MOVES, 0, "moves", "MOVES", "--tree: from the position after these moves ('h2e2 h9g7', any notation)"),
	OPT_VALUE(O_DEPTH, 0, "depth", "N", "--tree: plies deep (default 1, at most 40)"),
	OPT_VALUE(O_BOOK, 0, "book", "OUT", "--tree: also write the tree as an opening book (xqkit-book/1)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace an existing --book file"),
	OPT_INCLUDE(input_options),
	OPT_END,
};

enum by_key { BY_ECCO, BY_OPENING, BY_PLAYER, BY_EVENT, BY_YEAR, BY_TAG };
enum out_fmt { OUT_TEXT, OUT_TSV, OUT_NDJSON };

static const char *const by_names[] = {"ecco", "opening", "player", "event", "year"};

/* A game's result, as a job carries it. */
enum { RES_NONE = 0, RES_RED_WINS = 1, RES_BLACK_WINS = 2, RES_DRAW = 3 };

/* What a job carries from the worker to the output thread (xq_batch_job.flags). */
enum {
	J_RESULT = 7,      /* RES_* */
	J_BROKEN = 1 << 3,
	J_FOUND = 1 << 4,  /* --tree: the game reached the position */
	J_OUT = 1 << 5     /* --ecco: not one of the openings asked for */
};

/* One row of a table. */
struct row {
	char *key;          /* the value, NUL-terminated; BY_ECCO: "C45\x1fname" */
	size_t len;
	uint64_t hash;
	uint64_t games, broken, win, draw, loss, no_result; /* win/loss: Red's (a player's) */
	uint64_t plies, plied; /* plies of the games that are not broken, and how many */
	uint32_t first, last;  /* dates (date_value), 0: none */
};

/* One move played from one position (--tree). */
struct edge {
	uint64_t pos;          /* Zobrist key of the position */
	uint32_t games, red, draw, black, dated;
	double date_sum;       /* in years */
	xq_move_code move;
	int16_t ecco;          /* --fen: code index of the first game's line, -1: none */
	uint8_t side;          /* to move at pos: 0 red, 1 black */
	uint8_t shown;         /* lowest depth it was expanded at (0: never) */
};

struct tree_job {
	uint32_t n;
	uint32_t start_ply;    /* where the game reached the position */
	struct {
		uint64_t pos;
		xq_move_code move;
	} e[TREE_MAX_DEPTH];
};

struct sctx {
	struct input_opts in;
	struct reporter rep;
	enum by_key by;
	const char *tag;       /* BY_TAG */
	const char *by_text;
	enum out_fmt out;
	long top;              /* 0: all */
	int tree;
	int ecco;              /* --ecco given */
	xq_ecco_codes *codes;
	const char *fen, *moves;
	int depth;
	const char *book;
	int force;
	xq_position *root;     /* --tree */
	int root_pieces;       /* pieces on the root's board */
	xq_move_code root_line[ECCO_PLIES]; /* the first --moves (for ECCO) */
	size_t root_plies;
	char root_fen[XQ_FEN_SIZE];
	xq_position *scratch;  /* the output thread's (edge_ecco, line_ecco) */
	/* the table */
	struct row *rows;
	size_t nrows, rows_alloc;
	uint32_t *slots;       /* open addressing: row or edge index + 1, 0 empty */
	size_t nslots;
	/* the tree */
	struct edge *edges;
	size_t nedges, edges_alloc;
	uint64_t root_games, root_red, root_draw, root_black;
	/* totals */
	uint64_t games, broken, no_result, left_out;
	int nomem;
};

/* ---- dates ------------------------------------------------------------------------- */

/* Up to `max` digits at *p: the number, or -1 when there is none. */
static int digits(const char **p, int max)
{
	int v = 0, n = 0;

	while (n < max && xq_is_digit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n ? v : -1;
}

/*
 * A Date tag as YYYYMMDD with 0 for the parts not known (2006.08.??:
 * 20060800), or 0 when even the year is not: YYYY, YYYY.MM, YYYY.MM.DD
 * with '.', '-' or '/', or 2006年8月19日.
 */
static uint32_t date_value(const char *s)
{
	const char *p = s;
	int y, m = 0, d = 0;

	if (!s)
		return 0;
	y = digits(&p, 4);
	if (y < 1000 || p - s != 4)
		return 0;
	if (*p == '.' || *p == '-' || *p == '/' || !strncmp(p, "\xE5\xB9\xB4", 3)) {
		p += *p == '\xE5' ? 3 : 1;
		if ((m = digits(&p, 2)) < 1 || m > 12)
			m = 0;
		else if (*p == '.' || *p == '-' || *p == '/' || !strncmp(p, "\xE6\x9C\x88", 3)) {
			p += *p == '\xE6' ? 3 : 1;
			if ((d = digits(&p, 2)) < 1 || d > 31)
				d = 0;
		}
	}
	return (uint32_t)(y * 10000 + m * 100 + d);
}

static void add_date(struct xq_buf *b, uint32_t v)
{
	if (!v) {
		xq_buf_addc(b, '-');
		return;
	}
	xq_buf_addf(b, "%04u", v / 10000);
	if (v / 100 % 100)
		xq_buf_addf(b, ".%02u", v / 100 % 100);
	if (v / 100 % 100 && v % 100)
		xq_buf_addf(b, ".%02u", v % 100);
}

/* A date as a year with its fraction (the middle of what is not known). */
static double date_years(uint32_t v)
{
	unsigned m = v / 100 % 100, d = v % 100;

	if (!m)
		return v / 10000 + 0.5;
	return v / 10000 + (m - 1) / 12.0 + (d ? (d - 0.5) / 372.0 : 1 / 24.0);
}

/* ---- the hash index ------------------------------------------------------------------ */

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h ^ (h >> 29);
}

static uint64_t hash_edge(uint64_t pos, xq_move_code m)
{
	uint64_t h = pos ^ ((uint64_t)m * 0x9E3779B97F4A7C15ull);

	return h ^ (h >> 31);
}

/* Make room for one more entry (the load stays under a half). */
static int slots_grow(struct sctx *c, size_t n)
{
	size_t ns;
	uint32_t *s;

	if ((n + 1) * 2 <= c->nslots)
		return 0;
	ns = c->nslots ? c->nslots * 2 : 1024;
	if (n >= UINT32_MAX / 2 || !(s = calloc(ns, sizeof(*s))))
		return -1;
	for (size_t i = 0; i < n; i++) {
		uint64_t h = c->tree ? hash_edge(c->edges[i].pos, c->edges[i].move) : c->rows[i].hash;
		size_t k = (size_t)h & (ns - 1);
		while (s[k])
			k = (k + 1) & (ns - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(c->slots);
	c->slots = s;
	c->nslots = ns;
	return 0;
}

/* The row of `key`, made when new; NULL when memory ran out. */
static struct row *row_of(struct sctx *c, const char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	size_t k;
	struct row *r;

	if (slots_grow(c, c->nrows))
		return NULL;
	for (k = (size_t)h & (c->nslots - 1); c->slots[k]; k = (k + 1) & (c->nslots - 1)) {
		r = &c->rows[c->slots[k] - 1];
		if (r->hash == h && r->len == len && !memcmp(r->key, key, len))
			return r;
	}
	if (XQ_ALLOC_GROW(c->rows, c->nrows + 1, c->rows_alloc))
		return NULL;
	r = &c->rows[c->nrows];
	memset(r, 0, sizeof(*r));
	if (!(r->key = malloc(len + 1)))
		return NULL;
	memcpy(r->key, key, len);
	r->key[len] = '\0';
	r->len = len;
	r->hash = h;
	c->slots[k] = (uint32_t)++c->nrows;
	return r;
}

/* The edge of `move` from `pos`, made when new (*made set); NULL when
 * memory ran out. */
static struct edge *edge_of(struct sctx *c, uint64_t pos, xq_move_code move, int *made)
{
	uint64_t h = hash_edge(pos, move);
	size_t k;
	struct edge *e;

	*made = 0;
	if (slots_grow(c, c->nedges))
		return NULL;
	for (k = (size_t)h & (c->nslots - 1); c->slots[k]; k = (k + 1) & (c->nslots - 1)) {
		e = &c->edges[c->slots[k] - 1];
		if (e->pos == pos && e->move == move)
			return e;
	}
	if (XQ_ALLOC_GROW(c->edges, c->nedges + 1, c->edges_alloc))
		return NULL;
	e = &c->edges[c->nedges];
	memset(e, 0, sizeof(*e));
	e->pos = pos;
	e->move = move;
	e->ecco = -1;
	c->slots[k] = (uint32_t)++c->nedges;
	*made = 1;
	return e;
}

/* ---- on the workers ---------------------------------------------------------------- */

/* A key: the value, or "?" when there is none. */
static void add_key(struct xq_buf *b, const char *v)
{
	xq_buf_adds(b, v && *v ? v : "?");
	xq_buf_addc(b, '\0');
}

static void table_process(struct sctx *c, xq_batch_job *j)
{
	const xq_record *g = j->record;
	struct ecco_opening e;
	uint32_t date;

	switch (c->by) {
	case BY_ECCO:
		if (ecco_tags_classify(j, &e)) {
			xq_buf_addf(&j->text, "%s\x1f%s", e.code, e.opening);
			xq_buf_addc(&j->text, '\0');
		} else {
			add_key(&j->text, NULL);
		}
		break;
	case BY_OPENING:
		add_key(&j->text, ecco_tags_classify(j, &e) ? e.opening : NULL);
		break;
	case BY_PLAYER:
		add_key(&j->text, xq_record_tag(g, "Red"));
		add_key(&j->text, xq_record_tag(g, "Black"));
		break;
	case BY_EVENT: add_key(&j->text, xq_record_tag(g, "Event")); break;
	case BY_YEAR:
		if ((date = date_value(xq_record_tag(g, "Date"))))
			xq_buf_addf(&j->text, "%04u", date / 10000);
		else
			xq_buf_addc(&j->text, '?');
		xq_buf_addc(&j->text, '\0');
		break;
	case BY_TAG: add_key(&j->text, xq_record_tag(g, c->tag)); break;
	}
}

static int count_pieces(const xq_position *b)
{
	int counts[14], n = 0;

	xq_position_material(b, counts);
	for (int i = 0; i < 14; i++)
		n += counts[i];
	return n;
}

/* The moves the game's main line played from the first time it reached
 * the position, as deep as --depth, each (position, move) once.  `b` is
 * the worker's own position (cmd_position_worker_init()). */
static void tree_process(struct sctx *c, xq_batch_job *j, xq_position *b)
{
	xq_record *g = j->record;
	struct tree_job *t = j->data;
	uint32_t n = xq_record_node_child(g, XQ_ROOT_NODE), ply = 0;
	int pieces;

	if (xq_record_start_text(g))
		return; /* the start could not be read: the record's start is not the game's */
	xq_record_node_position(g, XQ_ROOT_NODE, b);
	pieces = count_pieces(b);
	for (; !xq_position_same(b, c->root); n = xq_record_node_child(g, n), ply++) {
		/* A capture is for good: with fewer pieces than the root has,
		 * the rest of the game cannot reach it. */
		if (n == XQ_NO_NODE || pieces < c->root_pieces)
			return;
		pieces -= xq_position_piece(b, XQ_MOVE_CODE_TO(xq_record_node_move(g, n))) != 0;
		xq_record_node_position(g, n, b); /* one move on from the last */
	}
	j->flags |= J_FOUND;
	t->start_ply = ply;
	for (; n != XQ_NO_NODE && t->n < (uint32_t)c->depth; n = xq_record_node_child(g, n)) {
		uint64_t pos = xq_position_key(b);
		xq_move_code m = xq_record_node_move(g, n);
		uint32_t k;
		xq_record_node_position(g, n, b);
		for (k = 0; k < t->n && !(t->e[k].pos == pos && t->e[k].move == m); k++)
			;
		if (k < t->n)
			continue; /* a repetition: this game counts once for it */
		t->e[t->n].pos = pos;
		t->e[t->n].move = m;
		t->n++;
	}
}

static unsigned result_of(const xq_record *g)
{
	const char *r = xq_record_result(g);

	return !strcmp(r, "1-0") ? RES_RED_WINS : !strcmp(r, "0-1") ? RES_BLACK_WINS :
	       !strcmp(r, "1/2-1/2") ? RES_DRAW : RES_NONE;
}

static void stats_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct sctx *c = ctx;
	const xq_record *g = j->record;

	/* What validate is for stays quiet here: only errors (what broke a
	 * game or an input) are said, unless -v. */
	if (!c->in.verbose)
		xq_diagnostics_keep(j->diags, XQ_SEVERITY_ERROR);
	j->flags = result_of(g) | (xq_record_is_broken(g) ? J_BROKEN : 0);
	j->counts[0] = xq_record_mainline_length(g);
	j->counts[1] = date_value(xq_record_tag(g, "Date"));
	if (c->ecco) {
		struct ecco_opening e;
		if (!ecco_tags_classify(j, &e) || !xq_ecco_codes_has(c->codes, e.code)) {
			j->flags |= J_OUT;
			return;
		}
	}
	if (c->tree)
		tree_process(c, j, worker);
	else
		table_process(c, j);
}

/* ---- on the output thread ---------------------------------------------------------- */

static void count_row(struct row *r, const xq_batch_job *j, int as_black)
{
	unsigned res = j->flags & J_RESULT;
	uint32_t date = (uint32_t)j->counts[1];

	r->games++;
	if (j->flags & J_BROKEN)
		r->broken++;
	else {
		r->plies += j->counts[0];
		r->plied++;
	}
	if (res == RES_DRAW)
		r->draw++;
	else if (res == RES_RED_WINS)
		*(as_black ? &r->loss : &r->win) += 1;
	else if (res == RES_BLACK_WINS)
		*(as_black ? &r->win : &r->loss) += 1;
	else
		r->no_result++;
	if (date) {
		if (!r->first || date < r->first)
			r->first = date;
		if (date > r->last)
			r->last = date;
	}
}

static void table_emit(struct sctx *c, const xq_batch_job *j)
{
	const char *k = j->text.ptr, *end = k + j->text.len;

	for (int side = 0; k < end; side++) {
		size_t len = strlen(k);
		struct row *r = row_of(c, k, len);
		if (!r) {
			c->nomem = 1;
			return;
		}
		count_row(r, j, c->by == BY_PLAYER && side == 1);
		k += len + 1;
	}
}

/* The ECCO code of the line moves[0..n) from `start`, as its index
 * (A00..E99: 0..499), or -1 when it has none. */
static int line_code(const xq_position *start, const xq_move_code *moves, size_t n)
{
	const char *code;

	if (xq_ecco_of_line(start, moves, n, &code, NULL, NULL))
		return -1;
	return (code[0] - 'A') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
}

/* The ECCO code (index, or -1) of the game's line up to ply `plies`. */
static int line_ecco(struct sctx *c, xq_record *g, uint32_t plies)
{
	xq_move_code moves[ECCO_PLIES];
	size_t n = 0;

	for (uint32_t i = xq_record_node_child(g, XQ_ROOT_NODE);
	     i != XQ_NO_NODE && n < plies && n < ECCO_PLIES; i = xq_record_node_child(g, i))
		moves[n++] = xq_record_node_move(g, i);
	xq_record_node_position(g, XQ_ROOT_NODE, c->scratch);
	return line_code(c->scratch, moves, n);
}

static void tree_emit(struct sctx *c, const xq_batch_job *j)
{
	const struct tree_job *t = j->data;
	unsigned res = j->flags & J_RESULT;
	uint32_t date = (uint32_t)j->counts[1];

	if (!(j->flags & J_FOUND))
		return;
	c->root_games++;
	c->root_red += res == RES_RED_WINS;
	c->root_draw += res == RES_DRAW;
	c->root_black += res == RES_BLACK_WINS;
	for (uint32_t i = 0; i < t->n; i++) {
		int made;
		struct edge *e = edge_of(c, t->e[i].pos, t->e[i].move, &made);
		if (!e) {
			c->nomem = 1;
			return;
		}
		if (made) {
			e->side = (uint8_t)((xq_position_side(c->root) + i) & 1);
			/* From a --fen, the line is the game's (the walk knows no
			 * other); from the start, the walk's own (edge_ecco). */
			if (c->fen)
				e->ecco = (int16_t)line_ecco(c, j->record, t->start_ply + i + 1);
		}
		e->games++;
		e->red += res == RES_RED_WINS;
		e->draw += res == RES_DRAW;
		e->black += res == RES_BLACK_WINS;
		if (date) {
			e->dated++;
			e->date_sum += date_years(date);
		}
	}
}

static int stats_emit(void *ctx, xq_batch_job *j)
{
	struct sctx *c = ctx;

	reporter_job(&c->rep, j, NULL);
	if (j->kind == XQ_BATCH_GAME && (j->flags & J_OUT)) {
		c->left_out++;
	} else if (j->kind == XQ_BATCH_GAME) {
		c->games++;
		c->broken += (j->flags & J_BROKEN) != 0;
		c->no_result += (j->flags & J_RESULT) == RES_NONE;
		if (c->tree)
			tree_emit(c, j);
		else
			table_emit(c, j);
	}
	reporter_flush(&c->rep);
	return cmd_signal || c->nomem ? 1 : 0;
}

/* ---- the table --------------------------------------------------------------------- */

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int d;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	if ((d = memcmp(x->key, y->key, n)))
		return d;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Columns on a terminal: East Asian wide characters take two. */
static size_t text_width(const char *s, size_t len)
{
	size_t w = 0, i = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = xq_utf8_decode(s + i, len - i, &cp);
		if (!n) {
			w += 4; /* written as \xNN */
			i++;
			continue;
		}
		i += n;
		w += (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
		     (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
		     (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
		     (cp >= 0xFFE0 && cp <= 0xFFE6) || cp >= 0x20000 ? 2 : 1;
	}
	return w;
}

static void pad(struct xq_buf *b, size_t n)
{
	while (n-- > 0)
		xq_buf_addc(b, ' ');
}

/* A cell of text, left-aligned in `width` columns (control characters and
 * bytes that are not UTF-8 written as \xNN). */
static void cell(struct xq_buf *b, const char *s, size_t len, size_t width)
{
	size_t before = b->len;

	report_add_safe(b, s, len);
	pad(b, width > text_width(b->ptr + before, b->len - before) ?
		       width - text_width(b->ptr + before, b->len - before) : 0);
}

/* The key's parts: BY_ECCO keys are "code\x1fname". */
static void key_parts(const struct row *r, size_t *klen, const char **name, size_t *nlen)
{
	const char *sep = memchr(r->key, '\x1f', r->len);

	*klen = sep ? (size_t)(sep - r->key) : r->len;
	*name = sep ? sep + 1 : "";
	*nlen = sep ? r->len - *klen - 1 : 0;
}

static double score(uint64_t win, uint64_t draw, uint64_t loss)
{
	return 100.0 * ((double)win + draw / 2.0) / (double)(win + draw + loss);
}

static const char *key_title(const struct sctx *c)
{
	static const char *const titles[] = {"ECCO", "Opening", "Player", "Event", "Year"};

	return c->by == BY_TAG ? c->tag : titles[c->by];
}

static void table_text(struct sctx *c, struct xq_buf *b, size_t shown)
{
	size_t kw = strlen(key_title(c)), nw = c->by == BY_ECCO ? strlen("Opening") : 0;
	int player = c->by == BY_PLAYER;
	struct row total;

	/* The total is of every row, shown or not: every game. */
	memset(&total, 0, sizeof(total));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];
		total.games += r->games;
		total.win += r->win;
		total.draw += r->draw;
		total.loss += r->loss;
		total.plies += r->plies;
		total.plied += r->plied;
		if (r->first && (!total.first || r->first < total.first))
			total.first = r->first;
		if (r->last > total.last)
			total.last = r->last;
	}
	for (size_t i = 0; i < shown; i++) {
		size_t klen, nlen;
		const char *name;
		struct xq_buf t = XQ_BUF_INIT;
		key_parts(&c->rows[i], &klen, &name, &nlen);
		report_add_safe(&t, c->rows[i].key, klen);
		if (text_width(t.ptr, t.len) > kw)
			kw = text_width(t.ptr, t.len);
		xq_buf_reset(&t);
		report_add_safe(&t, name, nlen);
		if (nlen && text_width(t.ptr, t.len) > nw)
			nw = text_width(t.ptr, t.len);
		xq_buf_release(&t);
	}
	if (kw > 40)
		kw = 40; /* longer keys push their row's figures right */
	if (!player && c->nrows > 1 && kw < 7)
		kw = 7; /* "(total)" */
	cell(b, key_title(c), strlen(key_title(c)), kw);
	if (nw) {
		xq_buf_adds(b, "  ");
		cell(b, "Opening", 7, nw);
	}
	xq_buf_addf(b, "  %7s %6s %6s %6s %6s %6s  %-10s  %s\n", "Games",
		    player ? "Wins" : "Red", "Draws", player ? "Losses" : "Black", "Score",
		    "Plies", "First", "Last");
	for (size_t i = 0; i <= shown; i++) {
		const struct row *r = i < shown ? &c->rows[i] : &total;
		size_t klen, nlen, before;
		const char *name;
		if (i == shown) {
			if (player || c->nrows < 2)
				break; /* players' rows count each game twice */
			cell(b, "(total)", 7, kw);
			if (nw) {
				xq_buf_adds(b, "  ");
				pad(b, nw);
			}
		} else {
			key_parts(r, &klen, &name, &nlen);
			cell(b, r->key, klen, kw);
			if (nw) {
				xq_buf_adds(b, "  ");
				cell(b, name, nlen, nw);
			}
		}
		xq_buf_addf(b, "  %7llu %6llu %6llu %6llu", (unsigned long long)r->games,
			    (unsigned long long)r->win, (unsigned long long)r->draw,
			    (unsigned long long)r->loss);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, " %5.1f%%", score(r->win, r->draw, r->loss));
		else
			xq_buf_addf(b, " %6s", "-");
		if (r->plied)
			xq_buf_addf(b, " %6.1f  ", (double)r->plies / (double)r->plied);
		else
			xq_buf_addf(b, " %6s  ", "-");
		before = b->len;
		add_date(b, r->first);
		pad(b, 12 - (b->len - before));
		add_date(b, r->last);
		xq_buf_addc(b, '\n');
	}
}

static void table_tsv(struct sctx *c, struct xq_buf *b, size_t shown)
{
	int player = c->by == BY_PLAYER;

	report_add_safe(b, c->by_text, strlen(c->by_text));
	if (c->by == BY_ECCO)
		xq_buf_adds(b, "\topening");
	xq_buf_addf(b, "\tgames\tbroken\t%s\tdraws\t%s\tno_result\tscore\tavg_plies\tfirst_date\tlast_date\n",
		    player ? "wins" : "red_wins", player ? "losses" : "black_wins");
	for (size_t i = 0; i < shown; i++) {
		const struct row *r = &c->rows[i];
		size_t klen, nlen;
		const char *name;
		key_parts(r, &klen, &name, &nlen);
		report_add_safe(b, r->key, klen);
		if (c->by == BY_ECCO) {
			xq_buf_addc(b, '\t');
			report_add_safe(b, name, nlen);
		}
		xq_buf_addf(b, "\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t", (unsigned long long)r->games,
			    (unsigned long long)r->broken, (unsigned long long)r->win,
			    (unsigned long long)r->draw, (unsigned long long)r->loss,
			    (unsigned long long)r->no_result);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, "%.1f", score(r->win, r->draw, r->loss));
		xq_buf_addc(b, '\t');
		if (r->plied)
			xq_buf_addf(b, "%.1f", (double)r->plies / (double)r->plied);
		xq_buf_addc(b, '\t');
		if (r->first)
			add_date(b, r->first);
		xq_buf_addc(b, '\t');
		if (r->last)
			add_date(b, r->last);
		xq_buf_addc(b, '\n');
	}
}

static void json_date(struct xq_buf *b, const char *name, uint32_t v)
{
	xq_buf_addf(b, ",\"%s\":", name);
	if (!v) {
		xq_buf_adds(b, "null");
		return;
	}
	xq_buf_addc(b, '"');
	add_date(b, v);
	xq_buf_addc(b, '"');
}

/* A JSON string of `len` bytes that may not be UTF-8. */
static void json_text(struct xq_buf *b, const char *s, size_t len)
{
	struct xq_buf t = XQ_BUF_INIT;

	xq_buf_add(&t, s, len);
	xq_buf_addc(&t, '\0');
	if (xq_buf_error(&t))
		b->err = xq_buf_error(&t);
	else
		report_add_json_safe(b, t.ptr);
	xq_buf_release(&t);
}

static void table_ndjson(struct sctx *c, struct xq_buf *b, size_t shown)
{
	int player = c->by == BY_PLAYER;

	for (size_t i = 0; i < shown; i++) {
		const struct row *r = &c->rows[i];
		size_t klen, nlen;
		const char *name;
		key_parts(r, &klen, &name, &nlen);
		xq_buf_adds(b, "{\"schema\":\"" STATS_SCHEMA "\",\"by\":");
		report_add_json_safe(b, c->by_text);
		xq_buf_adds(b, ",\"key\":");
		json_text(b, r->key, klen);
		if (c->by == BY_ECCO) {
			xq_buf_adds(b, ",\"opening\":");
			json_text(b, name, nlen);
		}
		xq_buf_addf(b, ",\"games\":%llu,\"broken\":%llu,\"%s\":%llu,\"draws\":%llu,\"%s\":%llu,\"no_result\":%llu,\"score\":",
			    (unsigned long long)r->games, (unsigned long long)r->broken,
			    player ? "wins" : "red_wins", (unsigned long long)r->win,
			    (unsigned long long)r->draw, player ? "losses" : "black_wins",
			    (unsigned long long)r->loss, (unsigned long long)r->no_result);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, "%.1f", score(r->win, r->draw, r->loss));
		else
			xq_buf_adds(b, "null");
		xq_buf_adds(b, ",\"avg_plies\":");
		if (r->plied)
			xq_buf_addf(b, "%.1f", (double)r->plies / (double)r->plied);
		else
			xq_buf_adds(b, "null");
		json_date(b, "first_date", r->first);
		json_date(b, "last_date", r->last);
		xq_buf_adds(b, "}\n");
		if (b->len > 65536)
			report_flush_out(b);
	}
}

/* The table, sorted by count; returns the rows shown. */
static size_t write_table(struct sctx *c)
{
	struct xq_buf b = XQ_BUF_INIT;
	size_t shown = c->nrows;

	if (c->nrows) /* (qsort wants an array, even of nothing) */
		qsort(c->rows, c->nrows, sizeof(*c->rows), row_cmp);
	if (c->top && (size_t)c->top < shown)
		shown = (size_t)c->top;
	if (c->out == OUT_TEXT)
		table_text(c, &b, shown);
	else if (c->out == OUT_TSV)
		table_tsv(c, &b, shown);
	else
		table_ndjson(c, &b, shown);
	report_flush_out(&b);
	xq_buf_release(&b);
	return shown;
}

/* ---- the tree ---------------------------------------------------------------------- */

/* Moves in the order the tree lists those played as often: by the square
 * they go to, then the one they leave, each from black's back rank down
 * and from file a on. */
static unsigned move_order(xq_move_code m)
{
	unsigned from = XQ_MOVE_CODE_FROM(m), to = XQ_MOVE_CODE_TO(m);

	return ((9 - to / 9) * 9 + to % 9) * 90 + (9 - from / 9) * 9 + from % 9;
}

/* Edges by position, then count (most first), then move. */
static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	unsigned mx, my;

	if (x->pos != y->pos)
		return x->pos < y->pos ? -1 : 1;
	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	mx = move_order(x->move);
	my = move_order(y->move);
	return (mx > my) - (mx < my);
}

/* The edges from `pos`: [*lo, *hi) of the sorted array. */
static void edges_from(const struct sctx *c, uint64_t pos, size_t *lo, size_t *hi)
{
	size_t a = 0, z = c->nedges;

	while (a < z) {
		size_t m = a + (z - a) / 2;
		if (c->edges[m].pos < pos)
			a = m + 1;
		else
			z = m;
	}
	*lo = a;
	while (a < c->nedges && c->edges[a].pos == pos)
		a++;
	*hi = a;
	if (c->top && *hi - *lo > (size_t)c->top)
		*hi = *lo + (size_t)c->top;
}

static void edge_score(struct xq_buf *b, const struct edge *e, int json)
{
	uint32_t win = e->side == 0 ? e->red : e->black;
	uint32_t loss = e->side == 0 ? e->black : e->red;

	if (win + e->draw + loss)
		xq_buf_addf(b, json ? "%.1f" : " %5.1f%%", score(win, e->draw, loss));
	else
		xq_buf_addf(b, json ? "null" : " %6s", "-");
}

static void edge_date(struct xq_buf *b, const struct edge *e)
{
	double y;
	unsigned year, month;

	if (!e->dated) {
		xq_buf_addc(b, '-');
		return;
	}
	y = e->date_sum / e->dated;
	year = (unsigned)y;
	month = (unsigned)((y - year) * 12) + 1;
	xq_buf_addf(b, "%04u.%02u", year, month > 12 ? 12 : month);
}

/* One step of the walk over the tree: a position's edges and the one
 * looked at (the walk keeps a position for each step). */
struct frame {
	size_t at, hi;
};

/*
 * The ECCO code of the line that ends with edge `e`, `d` plies below the
 * root: the --moves and the walk's moves to it (so a position reached by
 * two move orders is classified by the order shown); from a --fen, that
 * of the first game that played it.
 */
static int edge_ecco(const struct sctx *c, const struct edge *e, int d, const struct frame *st)
{
	xq_move_code line[ECCO_PLIES];
	size_t n = c->root_plies;
	int index = e->ecco;

	if (!c->fen) {
		memcpy(line, c->root_line, n * sizeof(line[0]));
		for (int i = 0; i <= d && n < ECCO_PLIES; i++)
			line[n++] = i < d ? c->edges[st[i].at].move : e->move;
		xq_position_set_start(c->scratch);
		index = line_code(c->scratch, line, n);
	}
	return index;
}

/* A code index as text, quoted for JSON; "-" (null) when there is none. */
static void add_code(struct xq_buf *b, int code, int json)
{
	if (code < 0)
		xq_buf_adds(b, json ? "null" : "-");
	else
		xq_buf_addf(b, json ? "\"%c%02d\"" : "%c%02d", 'A' + code / 100, code % 100);
}

/* One edge written as the format asks, `d` plies below the root, from
 * position at[d], reached by the moves of the frames st[0..d) from the
 * positions at[0..d). */
static void write_edge(struct sctx *c, struct xq_buf *b, struct xq_buf *book, struct edge *e,
		       int d, xq_position *const *at, const struct frame *st)
{
	char iccs[XQ_MOVE_TEXT_SIZE], text[XQ_MOVE_TEXT_SIZE], fen[XQ_FEN_SIZE];
	const xq_position *pos = at[d];
	int depth = d + 1;

	xq_position_move_text(pos, e->move, XQ_DIALECT_ICCS, 0, iccs, sizeof(iccs));
	if (c->out == OUT_TEXT) {
		size_t before = b->len;
		pad(b, 2 * (size_t)(depth - 1));
		xq_position_move_text(pos, e->move, XQ_DIALECT_CHINESE, 0, text, sizeof(text));
		xq_buf_addf(b, "%s %s", iccs, text);
		pad(b, 2 * (size_t)(c->depth - 1) + 14 > text_width(b->ptr + before, b->len - before) ?
			       2 * (size_t)(c->depth - 1) + 14 - text_width(b->ptr + before, b->len - before) : 0);
		xq_buf_addf(b, " %7u", e->games);
		edge_score(b, e, 0);
		xq_buf_addf(b, " %6u %6u %6u  ", e->red, e->draw, e->black);
		before = b->len;
		edge_date(b, e);
		pad(b, 9 - (b->len - before));
		add_code(b, edge_ecco(c, e, d, st), 0);
		xq_buf_addc(b, '\n');
	}
	if (c->out != OUT_NDJSON && !book)
		return;
	xq_position_fen(pos, fen, sizeof(fen));
	if (c->out == OUT_NDJSON) {
		xq_position_move_text(pos, e->move, XQ_DIALECT_CHINESE, 0, text, sizeof(text));
		xq_buf_addf(b, "{\"schema\":\"" TREE_SCHEMA "\",\"depth\":%d,\"line\":\"", depth);
		for (int i = 0; i < d; i++) {
			char m[XQ_MOVE_TEXT_SIZE];
			xq_position_move_text(at[i], c->edges[st[i].at].move, XQ_DIALECT_ICCS, 0, m, sizeof(m));
			xq_buf_addf(b, "%s%s", i ? " " : "", m);
		}
		xq_buf_addf(b, "\",\"fen\":\"%s\",\"move\":\"%s\",\"chinese\":\"%s\",\"games\":%u,\"red_wins\":%u,\"draws\":%u,\"black_wins\":%u,\"score\":",
			    fen, iccs, text, e->games, e->red, e->draw, e->black);
		edge_score(b, e, 1);
		xq_buf_adds(b, ",\"avg_date\":");
		if (e->dated) {
			xq_buf_addc(b, '"');
			edge_date(b, e);
			xq_buf_addc(b, '"');
		} else {
			xq_buf_adds(b, "null");
		}
		xq_buf_adds(b, ",\"ecco\":");
		add_code(b, edge_ecco(c, e, d, st), 1);
		xq_buf_adds(b, "}\n");
	}
	if (book) {
		/* The board and the side: the position, not how it was reached. */
		char *sp = strchr(fen, ' ');
		uint32_t win = e->side == 0 ? e->red : e->black;
		uint32_t loss = e->side == 0 ? e->black : e->red;
		if (sp && (sp = strchr(sp + 1, ' ')))
			*sp = '\0';
		xq_buf_addf(book, "%s\t%s\t%llu\t%u\t%u\t%u\t%u\n", fen, iccs,
			    2ull * win + e->draw, e->games, win, e->draw, loss);
	}
}

/*
 * Walk the tree from the root to --depth, children by count.  The text
 * view shows every path (a position reached by two move orders appears
 * under both); NDJSON and the book give each edge once, the first time
 * the walk meets it, and look below an edge again only when they meet it
 * nearer the root than before (so nothing within the depth is missed).
 * A loop with a stack of --depth frames, never recursion.
 */
static int walk_tree(struct sctx *c, struct xq_buf *out, struct xq_buf *book)
{
	struct frame st[TREE_MAX_DEPTH + 1];
	xq_position *at[TREE_MAX_DEPTH + 1]; /* the position of each step */
	int d = 0, every_path = c->out == OUT_TEXT, rc = 0;

	for (int i = 0; i <= c->depth; i++)
		if (!(at[i] = xq_position_new())) {
			while (i-- > 0)
				xq_position_free(at[i]);
			return XQ_ENOMEM;
		}
	xq_position_copy(at[0], c->root);
	edges_from(c, xq_position_key(at[0]), &st[0].at, &st[0].hi);
	while (d >= 0) {
		struct frame *f = &st[d];
		struct edge *e;
		if (cmd_signal) {
			rc = -1;
			break;
		}
		if (f->at >= f->hi) {
			if (--d >= 0)
				st[d].at++;
			continue;
		}
		e = &c->edges[f->at];
		if (every_path || !e->shown)
			write_edge(c, out, book, e, d, at, st);
		if (out->len > 65536)
			report_flush_out(out);
		if (d + 1 >= c->depth || (!every_path && e->shown && e->shown <= d + 1)) {
			if (!e->shown)
				e->shown = (uint8_t)(d + 1);
			f->at++;
			continue;
		}
		e->shown = (uint8_t)(d + 1);
		xq_position_copy(at[d + 1], at[d]);
		/* A move games played here is legal here, unless two positions
		 * share a key: then there is nothing below it to show. */
		if (xq_position_play(at[d + 1], e->move)) {
			f->at++;
			continue;
		}
		d++;
		edges_from(c, xq_position_key(at[d]), &st[d].at, &st[d].hi);
	}
	for (int i = 0; i <= c->depth; i++)
		xq_position_free(at[i]);
	return rc;
}

static int write_book(struct sctx *c, const struct xq_buf *book)
{
	xq_file *o;
	struct report_message m = {""};
	struct xq_buf head = XQ_BUF_INIT;

	if (xq_file_open(&o, c->book, c->force ? XQ_WRITE_FORCE : 0, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	xq_buf_addf(&head, BOOK_MAGIC "\n# from %s, %d plies deep: %llu games\n"
			   "# position\tmove\tweight\tgames\twins\tdraws\tlosses\n",
		    c->root_fen, c->depth, (unsigned long long)c->root_games);
	if (xq_buf_error(&head) || xq_buf_error(book) ||
	    xq_file_write(o, head.ptr, head.len) || xq_file_write(o, book->ptr, book->len)) {
		xq_file_abort(o);
		xq_buf_release(&head);
		cmd_error("cannot write '%s'", c->book);
		return CMD_EXIT_IO;
	}
	xq_buf_release(&head);
	if (xq_file_commit(o, report_keep_message, &m)) {
		cmd_error("%s", m.msg);
		return CMD_EXIT_IO;
	}
	return 0;
}

static int write_tree(struct sctx *c)
{
	struct xq_buf out = XQ_BUF_INIT, book = XQ_BUF_INIT;
	int rc = 0;

	if (c->nedges)
		qsort(c->edges, c->nedges, sizeof(*c->edges), edge_cmp);
	if (c->out == OUT_TEXT) {
		xq_buf_addf(&out, "%s: ", c->root_fen);
		report_plural(&out, c->root_games, "game", "games");
		xq_buf_addf(&out, " (Red wins %llu, draws %llu, Black wins %llu)\n",
			    (unsigned long long)c->root_red, (unsigned long long)c->root_draw,
			    (unsigned long long)c->root_black);
		if (c->nedges) {
			size_t w = 2 * (size_t)(c->depth - 1) + 14;
			cell(&out, "Move", 4, w);
			xq_buf_addf(&out, " %7s %6s %6s %6s %6s  %-8s %s\n", "Games", "Score", "Red",
				    "Draws", "Black", "Date", "ECCO");
		}
	}
	switch (walk_tree(c, &out, c->book ? &book : NULL)) {
	case 0:
		if (c->book)
			rc = write_book(c, &book);
		break;
	case XQ_ENOMEM:
		cmd_error("out of memory: the tree is not written whole");
		rc = CMD_EXIT_IO;
		break;
	}
	report_flush_out(&out);
	xq_buf_release(&out);
	xq_buf_release(&book);
	return rc;
}

/* ---- options ----------------------------------------------------------------------- */

/* A tag name: a capital letter, then letters, digits and '_'. */
static int tag_name(const char *s)
{
	if (!(*s >= 'A' && *s <= 'Z'))
		return 0;
	for (s++; *s; s++)
		if (!xq_is_alpha((unsigned char)*s) && !xq_is_digit((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int take_by(struct sctx *c, struct opt_parser *p, const char *v)
{
	c->by_text = v;
	for (size_t i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++) {
		if (!strcmp(v, by_names[i])) {
			c->by = (enum by_key)i;
			return 0;
		}
	}
	if (tag_name(v) && strlen(v) <= 64) {
		c->by = BY_TAG;
		c->tag = v;
		return 0;
	}
	snprintf(p->err, sizeof(p->err),
		 "unknown --by key '%.64s': give ecco, opening, player, event, year or a tag name (Red, Event, ECCO, ...)",
		 v);
	return -1;
}

static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct sctx *c = ctx;
	long v;

	switch (id) {
	case O_BY: return take_by(c, p, value);
	case O_TOP:
		if ((v = opt_int(p, "--top", value, 1, 1000000000)) < 0)
			return -1;
		c->top = v;
		break;
	case O_FORMAT:
		if (!strcmp(value, "text"))
			c->out = OUT_TEXT;
		else if (!strcmp(value, "tsv"))
			c->out = OUT_TSV;
		else if (!strcmp(value, "ndjson"))
			c->out = OUT_NDJSON;
		else {
			snprintf(p->err, sizeof(p->err), "--format must be text, tsv or ndjson, not '%.64s'",
				 value);
			return -1;
		}
		/* Diagnostics go where the records go with ndjson, as text else. */
		c->in.fmt = c->out == OUT_NDJSON ? REPORT_NDJSON : REPORT_TEXT;
		break;
	case O_ECCO: {
		char why[200];
		size_t col;
		xq_ecco_codes_free(c->codes); /* the last --ecco counts */
		if (xq_ecco_codes_parse(&c->codes, value, &col, why, sizeof(why))) {
			if (!why[0])
				snprintf(p->err, sizeof(p->err), "--ecco: out of memory");
			else
				snprintf(p->err, sizeof(p->err), "--ecco '%.40s', column %zu: %.160s",
					 value, col, why);
			return -1;
		}
		c->ecco = 1;
		break;
	}
	case O_TREE: c->tree = 1; break;
	case O_FEN: c->fen = value; break;
	case O_MOVES: c->moves = value; break;
	case O_DEPTH:
		if ((v = opt_int(p, "--depth", value, 1, TREE_MAX_DEPTH)) < 0)
			return -1;
		c->depth = (int)v;
		break;
	case O_BOOK: c->book = value; break;
	case O_FORCE: c->force = 1; break;
	}
	return 0;
}

/* --moves played from the root: 0, or -1 naming the move that fails. */
static int play_moves(struct sctx *c, struct opt_parser *p)
{
	const char *s = c->moves;
	int n = 0;

	for (;;) {
		const char *t;
		size_t len;
		xq_move_code m;
		char *text;
		while (*s == ' ' || *s == '\t' || *s == ',')
			s++;
		if (!*s)
			return 0;
		for (t = s; *t && *t != ' ' && *t != '\t' && *t != ','; t++)
			;
		len = (size_t)(t - s);
		n++;
		if (!(text = strndup(s, len))) {
			snprintf(p->err, sizeof(p->err), "--moves: out of memory");
			return -1;
		}
		if (xq_position_read_move(c->root, text, XQ_DIALECT_AUTO, &m)) {
			snprintf(p->err, sizeof(p->err), "--moves: move %d '%.*s' (column %d): %.160s", n,
				 (int)(len > 32 ? 32 : len), s, (int)xq_utf8_count(c->moves, (size_t)(s - c->moves)) + 1,
				 xq_diagnostic_message(xq_position_error(c->root)));
			free(text);
			return -1;
		}
		free(text);
		if (c->root_plies < ECCO_PLIES)
			c->root_line[c->root_plies++] = m;
		xq_position_play(c->root, m);
		s = t;
	}
}

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(struct sctx *c, struct opt_parser *p)
{
	if (!c->tree && (c->fen || c->moves || c->depth || c->book || c->force)) {
		snprintf(p->err, sizeof(p->err), "%s needs --tree",
			 c->fen ? "--fen" : c->moves ? "--moves" : c->depth ? "--depth" : c->book ? "--book" : "--force");
		return -1;
	}
	if (c->tree && c->by_text) {
		snprintf(p->err, sizeof(p->err), "--by and --tree are two different reports: give one");
		return -1;
	}
	if (c->tree && c->out == OUT_TSV) {
		snprintf(p->err, sizeof(p->err), "--tree writes text or ndjson, not tsv");
		return -1;
	}
	if (c->force && !c->book) {
		snprintf(p->err, sizeof(p->err), "--force replaces a --book file: give --book");
		return -1;
	}
	if (!c->by_text)
		c->by_text = "ecco";
	if (!c->depth)
		c->depth = 1;
	if (!(c->root = xq_position_new()) || !(c->scratch = xq_position_new())) {
		snprintf(p->err, sizeof(p->err), "out of memory");
		return -1;
	}
	if (c->fen && xq_position_set_fen_lenient(c->root, c->fen)) {
		const xq_diagnostic *d = xq_position_error(c->root);
		snprintf(p->err, sizeof(p->err), "--fen, column %llu: %.200s",
			 (unsigned long long)xq_diagnostic_column(d), xq_diagnostic_message(d));
		return -1;
	}
	if (c->moves && play_moves(c, p))
		return -1;
	xq_position_fen(c->root, c->root_fen, sizeof(c->root_fen));
	c->root_pieces = count_pieces(c->root);
	return input_opts_check(&c->in, p);
}

/* ---- the run ----------------------------------------------------------------------- */

static void print_summary(struct sctx *c, double secs, size_t shown, int stopped)
{
	struct reporter *r = &c->rep;
	struct xq_buf *b;

	if (r->fmt == REPORT_NDJSON) {
		b = reporter_summary_open(r);
		reporter_summary_inputs(r, b, c->games);
		xq_buf_addf(b, ",\"broken_games\":%llu,\"no_result\":%llu",
			    (unsigned long long)c->broken, (unsigned long long)c->no_result);
		if (c->ecco)
			xq_buf_addf(b, ",\"left_out\":%llu", (unsigned long long)c->left_out);
		if (c->tree)
			xq_buf_addf(b, ",\"fen\":\"%s\",\"position_games\":%llu,\"moves\":%llu",
				    c->root_fen, (unsigned long long)c->root_games,
				    (unsigned long long)c->nedges);
		else
			xq_buf_addf(b, ",\"rows\":%llu,\"rows_shown\":%llu",
				    (unsigned long long)c->nrows, (unsigned long long)shown);
		reporter_summary_close(r, secs);
		return;
	}
	if (!(b = reporter_summary_head(r, c->games)))
		return;
	xq_buf_addf(b, " (%llu broken, %llu without a result)", (unsigned long long)c->broken,
		    (unsigned long long)c->no_result);
	if (c->ecco)
		xq_buf_addf(b, ", %llu of other openings left out", (unsigned long long)c->left_out);
	if (c->tree) {
		xq_buf_adds(b, "; ");
		report_plural(b, c->root_games, "game reaches", "games reach");
		xq_buf_adds(b, " the position, ");
		report_plural(b, c->nedges, "move", "moves");
		xq_buf_addf(b, " within %d %s", c->depth, c->depth == 1 ? "ply" : "plies");
	} else {
		xq_buf_adds(b, "; ");
		report_plural(b, c->nrows, "row", "rows");
		if (shown < c->nrows)
			xq_buf_addf(b, ", the top %llu shown", (unsigned long long)shown);
	}
	xq_buf_addf(b, " (%.2f s)\n", secs);
	if (r->skipped_files) {
		report_plural(b, r->skipped_files, "file", "files");
		xq_buf_adds(b, " skipped (not game records)\n");
	}
	reporter_counts_text(r, b);
	if (stopped)
		xq_buf_adds(b, "stopped early: not every game was counted\n");
	reporter_flush(r);
}

/* What the options made (parse_args, check_args). */
static void free_options(struct sctx *c)
{
	xq_ecco_codes_free(c->codes);
	xq_position_free(c->root);
	xq_position_free(c->scratch);
	c->codes = NULL;
	c->root = c->scratch = NULL;
}

static void sctx_release(struct sctx *c)
{
	for (size_t i = 0; i < c->nrows; i++)
		free(c->rows[i].key);
	free(c->rows);
	free(c->edges);
	free(c->slots);
	free_options(c);
	reporter_release(&c->rep);
}

/* The book file, before anything is read: never an input, never an
 * existing file without --force.  0, or an exit status. */
static int plan_book(struct sctx *c, struct inputs *inputs)
{
	struct report_message m = {""};

	if (c->book && (inputs_guard(inputs, c->book, report_keep_message, &m) ||
			xq_file_check(c->book, c->force ? XQ_WRITE_FORCE : 0, report_keep_message,
				      &m) < 0))
		return cmd_usage_error("stats", "%s", m.msg);
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	struct opt_parser p;
	struct sctx c;
	struct inputs inputs;
	/* Numbers and lines reach the output only through the games and
	 * their diagnostics, which the pool puts right (<xq/batch.h>). */
	xq_batch_config cfg = {.process = stats_process, .emit = stats_emit, .ctx = &c,
				  .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini,
				  .late_numbers = 1};
	size_t shown = 0;
	int rc;
	double t0;

	memset(&c, 0, sizeof(c));
	input_opts_init(&c.in);
	if (opt_init(&p, argc, argv, "stats")) {
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	rc = input_opts_parse(&c.in, &p, options, usage, summary, take_option, &c);
	if (rc == 0 && check_args(&c, &p))
		rc = -1;
	if (rc) {
		rc = rc > 0 ? CMD_EXIT_OK : cmd_usage_error("stats", "%s", p.err);
		free_options(&c);
		opt_release(&p);
		return rc;
	}
	if (c.tree)
		cfg.job_data = sizeof(struct tree_job);
	reporter_init(&c.rep, "stats", &c.in);
	t0 = cmd_now();
	cmd_catch_signals();
	if ((rc = input_opts_start(&c.in, &inputs, &p, "stats")) == 0) {
		if ((rc = plan_book(&c, &inputs)) == 0) {
			if (input_opts_run(&c.in, &inputs, &cfg) == XQ_ENOMEM)
				c.rep.io_error = 1;
			if (c.nomem) {
				cmd_error("out of memory: the tables are not written");
				c.rep.io_error = 1;
			} else if (!cmd_signal && c.tree) {
				rc = write_tree(&c);
			} else if (!cmd_signal) {
				shown = write_table(&c);
			}
		} else {
			progress_stop();
		}
		inputs_release(&inputs);
		if (cmd_signal)
			cmd_error("interrupted: nothing is written%s", c.book ? " (no book either)" : "");
		if (rc != CMD_EXIT_USAGE)
			print_summary(&c, cmd_now() - t0, shown, c.nomem || cmd_signal);
		if (cmd_signal)
			rc = cmd_signal_status();
		else if (!rc)
			rc = c.rep.io_error ? CMD_EXIT_IO :
			     c.rep.failed_files || c.rep.damaged_files ||
					     c.rep.counts.by_sev[XQ_SEVERITY_ERROR] ? CMD_EXIT_INVALID : CMD_EXIT_OK;
	}
	sctx_release(&c);
	opt_release(&p);
	return rc;
}
