/*
 * stats_tree.c: `xqkit stats --tree` (stats.h): on the workers, the moves
 * a game's main line played from the position, as deep as --depth; on the
 * output thread, the edges they count in; at the end, the tree walked
 * from the position and written as text or NDJSON (and as a book,
 * stats_book.c).  Stands on the index (stats_index.c), the writers'
 * helpers (stats_text.c) and the book.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "report.h"
#include "stats.h"
#include <xq/record.h>

#define TREE_SCHEMA "xqkit.tree/1"

/* ---- on the workers ---------------------------------------------------------------- */

int stats_count_pieces(const xq_position *b)
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
void stats_tree_process(struct sctx *c, xq_batch_job *j, xq_position *b)
{
	xq_record *g = j->record;
	struct tree_job *t = j->data;
	uint32_t n = xq_record_node_child(g, XQ_ROOT_NODE), ply = 0;
	int pieces;

	if (xq_record_start_text(g))
		return; /* the start could not be read: the record's start is not the game's */
	xq_record_node_position(g, XQ_ROOT_NODE, b);
	pieces = stats_count_pieces(b);
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

/* ---- on the output thread ---------------------------------------------------------- */

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

void stats_tree_emit(struct sctx *c, const xq_batch_job *j)
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
		struct edge *e = stats_edge_of(c, t->e[i].pos, t->e[i].move, &made);
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
			e->date_sum += stats_date_years(date);
		}
	}
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
		xq_buf_addf(b, json ? "%.1f" : " %5.1f%%", stats_score(win, e->draw, loss));
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

/* Edge `e` as a line of the text view, `d` plies below the root, from
 * `pos` (its move `iccs`). */
static void edge_text(const struct sctx *c, struct xq_buf *b, const struct edge *e, int d,
		      const xq_position *pos, const char *iccs, const struct frame *st)
{
	char text[XQ_MOVE_TEXT_SIZE];
	size_t before = b->len, width = 2 * (size_t)(c->depth - 1) + 14;

	stats_pad(b, 2 * (size_t)d);
	xq_position_move_text(pos, e->move, XQ_DIALECT_CHINESE, 0, text, sizeof(text));
	xq_buf_addf(b, "%s %s", iccs, text);
	stats_pad(b, width > stats_text_width(b->ptr + before, b->len - before) ?
			     width - stats_text_width(b->ptr + before, b->len - before) : 0);
	xq_buf_addf(b, " %7u", e->games);
	edge_score(b, e, 0);
	xq_buf_addf(b, " %6u %6u %6u  ", e->red, e->draw, e->black);
	before = b->len;
	edge_date(b, e);
	stats_pad(b, 9 - (b->len - before));
	add_code(b, edge_ecco(c, e, d, st), 0);
	xq_buf_addc(b, '\n');
}

/* Edge `e` as an NDJSON record, `d` plies below the root, from position
 * at[d] (`fen`, its move `iccs`), reached by the moves of the frames
 * st[0..d) from the positions at[0..d). */
static void edge_ndjson(const struct sctx *c, struct xq_buf *b, const struct edge *e, int d,
			xq_position *const *at, const struct frame *st, const char *fen,
			const char *iccs)
{
	char text[XQ_MOVE_TEXT_SIZE];

	xq_position_move_text(at[d], e->move, XQ_DIALECT_CHINESE, 0, text, sizeof(text));
	xq_buf_addf(b, "{\"schema\":\"" TREE_SCHEMA "\",\"depth\":%d,\"line\":\"", d + 1);
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

/* One edge written as the format asks (and into the book), `d` plies
 * below the root, from position at[d], reached by the moves of the
 * frames st[0..d) from the positions at[0..d). */
static void write_edge(struct sctx *c, struct xq_buf *b, struct xq_buf *book, struct edge *e,
		       int d, xq_position *const *at, const struct frame *st)
{
	char iccs[XQ_MOVE_TEXT_SIZE], fen[XQ_FEN_SIZE];

	xq_position_move_text(at[d], e->move, XQ_DIALECT_ICCS, 0, iccs, sizeof(iccs));
	if (c->out == OUT_TEXT)
		edge_text(c, b, e, d, at[d], iccs, st);
	if (c->out != OUT_NDJSON && !book)
		return;
	xq_position_fen(at[d], fen, sizeof(fen));
	if (c->out == OUT_NDJSON)
		edge_ndjson(c, b, e, d, at, st, fen, iccs);
	if (book)
		stats_book_line(book, e, fen, iccs);
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

int stats_write_tree(struct sctx *c)
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
			stats_cell(&out, "Move", 4, w);
			xq_buf_addf(&out, " %7s %6s %6s %6s %6s  %-8s %s\n", "Games", "Score", "Red",
				    "Draws", "Black", "Date", "ECCO");
		}
	}
	switch (walk_tree(c, &out, c->book ? &book : NULL)) {
	case 0:
		if (c->book)
			rc = stats_write_book(c, &book);
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
