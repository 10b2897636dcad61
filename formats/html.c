/*
 * html.c: games as one self-contained web page (see html.h for what the
 * page holds and promises).
 *
 * The body of each game (board, tags, analysis, move text) is inside a
 * <noscript>.  Without JavaScript the browser shows it as it is.  With
 * it, the browser keeps it as one string, and the script turns it into
 * elements only for the games that come into view: a page of 10,000
 * games opens in about the time of its 10,000 headings, not of its
 * millions of elements.
 *
 * A page is written in three parts, so that a collection streams:
 *   - the head (doctype, policy, style, the shared board drawings), written
 *     with the first game, whose players name the page;
 *   - one <section> per game, written by html_write() as the game comes;
 *   - the index of the games (when there are two or more) and the script,
 *     written by html_close_writer().  The index is kept in memory up to
 *     INDEX_KEEP bytes, and beyond that in a scratch file (io.h), so that
 *     a page of millions of games holds a few of their lines, never all.
 * Writing a game takes one pass over its main line (positions, scores,
 * the marks and what each player lost) and one walk over its whole tree
 * in the order a reader reads it (the move text, with a stack: no
 * recursion, however deep the variations).
 */
#include "html.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diagram.h"
#include "evalnote.h"
#include "format.h"
#include "html_assets.h"
#include "io.h"
#include "notation.h"
#include "utf8.h"

/* ---- escaping ------------------------------------------------------------- */

/* Characters shown as "<U+XXXX>" rather than as themselves (see html.h). */
static int shown_as_code(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
	       cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE;
}

int xqi_html_escape(struct xq_buf *out, const char *s, size_t len)
{
	int rc = 0;

	for (size_t i = 0; i < len && !rc;) {
		unsigned char c = (unsigned char)s[i];
		uint32_t cp;
		size_t n;
		switch (c) {
		case '&': rc = xq_buf_adds(out, "&amp;"); i++; continue;
		case '<': rc = xq_buf_adds(out, "&lt;"); i++; continue;
		case '>': rc = xq_buf_adds(out, "&gt;"); i++; continue;
		case '"': rc = xq_buf_adds(out, "&quot;"); i++; continue;
		case '\'': rc = xq_buf_adds(out, "&#39;"); i++; continue;
		case '\t':
		case '\n': rc = xq_buf_addc(out, (char)c); i++; continue;
		case '\r':
			rc = xq_buf_addc(out, '\n');
			i += i + 1 < len && s[i + 1] == '\n' ? 2 : 1;
			continue;
		default: break;
		}
		n = xq_utf8_decode(s + i, len - i, &cp);
		if (!n) {
			rc = xq_buf_adds(out, "\xEF\xBF\xBD"); /* U+FFFD */
			i++;
		} else if (shown_as_code(cp)) {
			rc = xq_buf_addf(out, "&lt;U+%04X&gt;", (unsigned)cp);
			i += n;
		} else {
			rc = xq_buf_add(out, s + i, n);
			i += n;
		}
	}
	return rc;
}

static int esc(struct xq_buf *out, const char *s)
{
	return xqi_html_escape(out, s, strlen(s));
}

/* ---- the writer ------------------------------------------------------------- */

enum { MARK_NONE, MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER, MARK_BITS = 3,
       MAIN_LINE = 4 /* with the mark: the node is on the main line */ };

/* A move of the main line, for the graph and the summary. */
struct ply {
	uint32_t node;
	int side;                 /* who made it */
	unsigned fullmove;        /* its move number */
	int has_score;
	struct xqi_score score;    /* red's view, after the move */
	int32_t loss;             /* -1 when not known */
	char text[XQ_MOVE_TEXT_SIZE];
};

struct html_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	enum xq_dialect notation;
	unsigned nflags;
	struct xqi_svg_opts svg;
	uint64_t games;
	int head_done;
	struct xq_buf page, moves, data, index;
	FILE *spill;      /* the index beyond INDEX_KEEP bytes, or NULL */
	uint32_t *order;  /* node -> its number in the move text (0: the root) */
	uint8_t *mark;    /* node -> MARK_*, and MAIN_LINE */
	struct ply *plies;
	size_t cap_order, cap_mark, cap_plies;
};

/* "Red – Black", or the title, event or "Game N" when there are no players. */
static int add_players(struct xq_buf *b, const struct xqi_record *g, uint64_t n)
{
	const char *red = xqi_record_tag(g, "Red"), *black = xqi_record_tag(g, "Black");
	const char *alt = xqi_record_tag(g, "Title");
	int rc;

	if (red || black) {
		rc = xq_buf_adds(b, "<bdi>");
		if (!rc)
			rc = esc(b, red ? red : "?");
		if (!rc)
			rc = xq_buf_adds(b, "</bdi> &ndash; <bdi>");
		if (!rc)
			rc = esc(b, black ? black : "?");
		return rc ? rc : xq_buf_adds(b, "</bdi>");
	}
	if (!alt)
		alt = xqi_record_tag(g, "Event");
	if (alt) {
		rc = xq_buf_adds(b, "<bdi>");
		if (!rc)
			rc = esc(b, alt);
		return rc ? rc : xq_buf_adds(b, "</bdi>");
	}
	return xq_buf_addf(b, "Game %llu", (unsigned long long)n);
}

static int add_result(struct xq_buf *b, const struct xqi_record *g)
{
	if (g->result == XQI_RESULT_NONE)
		return 0;
	if (g->result == XQI_RESULT_UNKNOWN && g->result_text)
		return esc(b, g->result_text);
	return xq_buf_adds(b, xqi_result_string(g->result));
}

/* "Event · Site · Date · Round" for those the game has. */
static int add_meta(struct xq_buf *b, const struct xqi_record *g)
{
	static const char *const names[] = {"Event", "Site", "Date", "Round"};
	int rc = 0, any = 0;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]) && !rc; i++) {
		const char *v = xqi_record_tag(g, names[i]);
		if (!v || !*v)
			continue;
		if (any)
			rc = xq_buf_adds(b, " &middot; ");
		if (!rc)
			rc = xq_buf_adds(b, "<bdi>");
		if (!rc)
			rc = esc(b, v);
		if (!rc)
			rc = xq_buf_adds(b, "</bdi>");
		any = 1;
	}
	return rc;
}

static int write_head(struct html_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->page;
	int rc;

	rc = xq_buf_addf(b,
			 "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
			 "script-src '%s'; style-src '%s'; base-uri 'none'; form-action 'none'\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			 "<meta name=\"generator\" content=\"xqkit\">\n<title>",
			 xqi_html_script_hash, xqi_html_style_hash);
	if (!rc && g) {
		struct xq_buf t = XQ_BUF_INIT;
		/* The title is plain text: the players without markup. */
		const char *red = xqi_record_tag(g, "Red"), *black = xqi_record_tag(g, "Black");
		if (red || black)
			rc = xq_buf_addf(&t, "%s \xE2\x80\x93 %s", red ? red : "?", black ? black : "?");
		else if (xqi_record_tag(g, "Title") || xqi_record_tag(g, "Event"))
			rc = xq_buf_adds(&t, xqi_record_tag(g, "Title") ? xqi_record_tag(g, "Title")
								   : xqi_record_tag(g, "Event"));
		else
			rc = xq_buf_adds(&t, "Xiangqi game");
		if (!rc)
			rc = xqi_html_escape(b, t.ptr, t.len);
		xq_buf_release(&t);
	} else if (!rc) {
		rc = xq_buf_adds(b, "Xiangqi games");
	}
	if (!rc)
		rc = xq_buf_addf(b, "</title>\n<style>%s</style>\n</head>\n<body>\n", xqi_html_style);
	if (!rc)
		rc = xqi_diagram_svg_page_defs(b, &w->svg);
	if (!rc)
		rc = xq_buf_adds(b, "<main>\n");
	w->head_done = 1;
	return rc;
}

/* Room for a game of `nodes` nodes. */
static int reserve(struct html_writer *w, size_t nodes)
{
	if (XQ_ALLOC_GROW(w->order, nodes, w->cap_order) ||
	    XQ_ALLOC_GROW(w->mark, nodes, w->cap_mark) ||
	    XQ_ALLOC_GROW(w->plies, nodes, w->cap_plies))
		return XQ_ENOMEM;
	return 0;
}

static int nag_mark(uint8_t nag)
{
	switch (nag) {
	case XQ_NAG_INACCURACY: return MARK_INACCURACY;
	case XQ_NAG_MISTAKE: return MARK_MISTAKE;
	case XQ_NAG_BLUNDER: return MARK_BLUNDER;
	default: return MARK_NONE;
	}
}

/*
 * The main line: its moves (text, side, number), the scores in their
 * comments, what each move lost, and every node's mark.  Marks come from
 * the NAGs ?! ? ?? where the game has any (annotate writes them), else
 * from the losses and annotate's default thresholds.  Returns the number
 * of plies; *scored says whether any has a score.
 */
static uint32_t main_line(struct html_writer *w, const struct xqi_record *g, struct xqi_position *end,
			  xqi_move *last, int *scored)
{
	struct xqi_position b = g->start;
	uint32_t n = 0;
	int nag_marks = xqi_record_tag(g, "XqkitAnnotate") != NULL;

	*scored = 0;
	*last = 0;
	for (uint32_t i = 0; i < g->nnodes; i++) {
		const struct xqi_node *x = &g->nodes[i];
		w->mark[i] = MARK_NONE;
		for (unsigned k = 0; k < x->nnags; k++) {
			int m = nag_mark(x->nags[k]);
			if (m > w->mark[i])
				w->mark[i] = (uint8_t)m;
		}
		nag_marks |= w->mark[i] != MARK_NONE;
	}
	for (uint32_t i = g->nodes[XQI_ROOT].child; i != XQ_NO_NODE; i = g->nodes[i].child) {
		struct ply *p = &w->plies[n++];
		struct xqi_evalnote note;
		struct xqi_undo u;
		const char *c = g->nodes[i].comment;
		w->mark[i] |= MAIN_LINE;
		p->node = i;
		p->side = b.side;
		p->fullmove = b.fullmove;
		p->has_score = c && xqi_evalnote_find(&note, c, strlen(c));
		if (p->has_score)
			p->score = note.score;
		*scored |= p->has_score;
		p->loss = -1;
		if (n > 1 && p->has_score && p[-1].has_score)
			p->loss = xqi_evalnote_loss(p[-1].score, p->score, p->side);
		if (!nag_marks && p->loss >= 0)
			w->mark[i] |= p->loss >= XQ_EVAL_BLUNDER	 ? MARK_BLUNDER
				      : p->loss >= XQ_EVAL_MISTAKE	 ? MARK_MISTAKE
				      : p->loss >= XQ_EVAL_INACCURACY ? MARK_INACCURACY
									  : MARK_NONE;
		if (!xqi_notation_write(p->text, sizeof(p->text), &b, g->nodes[i].move, w->notation,
				       w->nflags | XQI_DIALECT_KNOWN_LEGAL))
			xqi_move_name(g->nodes[i].move, p->text);
		xqi_position_make(&b, g->nodes[i].move, &u);
		*last = g->nodes[i].move;
	}
	*end = b;
	return n;
}

/* "12." or "12..." and the move, as a link to move `k` of game `gn`. */
static int add_move_link(struct xq_buf *b, uint64_t gn, uint32_t k, const struct ply *p)
{
	return xq_buf_addf(b, "<a href=\"#g%llu-m%u\">%u%s&nbsp;%s</a>", (unsigned long long)gn,
			   (unsigned)k, p->fullmove, p->side == XQI_BLACK ? "..." : ".", p->text);
}

/* The vertical position of a score in a graph `h` high: red's advantage up. */
static double graph_y(struct xqi_score s, double h)
{
	double v, f;

	if (s.kind == XQ_EVAL_MATE)
		f = 1;
	else if (s.kind == XQ_EVAL_MATED)
		f = -1;
	else {
		v = s.value;
		f = v / ((v < 0 ? -v : v) + 400.0);
	}
	return h / 2 - (h / 2 - 3) * f;
}

enum { GRAPH_W = 600, GRAPH_H = 120 };

/*
 * The evaluation graph: one point per ply of the main line (x from ply 0
 * to the last), red's advantage up, marks on the moves that lost, each
 * mark a link to its move.  A line with gaps where scores are missing.
 */
static int add_graph(struct html_writer *w, struct xq_buf *b, uint32_t n, uint64_t gn)
{
	double step = (double)GRAPH_W / (n ? n : 1);
	int rc = xq_buf_addf(b,
			     "<svg class=\"graph\" viewBox=\"0 0 %d %d\" data-plies=\"%u\" role=\"img\" "
			     "aria-label=\"evaluation after each move, red's advantage up\">"
			     "<rect class=\"bg\" width=\"%d\" height=\"%d\"/>"
			     "<line class=\"zero\" x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
			     GRAPH_W, GRAPH_H, (unsigned)n, GRAPH_W, GRAPH_H, GRAPH_H / 2, GRAPH_W,
			     GRAPH_H / 2);
	struct xq_buf line = XQ_BUF_INIT;

	/* The area between the line and zero, and the line, in runs of known scores. */
	for (uint32_t i = 0; i < n && !rc;) {
		uint32_t j = i;
		if (!w->plies[i].has_score) {
			i++;
			continue;
		}
		while (j < n && w->plies[j].has_score)
			j++;
		rc = xq_buf_addf(b, "<path class=\"area\" d=\"M%.1f %d", (i + 1) * step, GRAPH_H / 2);
		if (!rc)
			rc = xq_buf_adds(&line, "<path class=\"line\" d=\"");
		for (uint32_t k = i; k < j && !rc; k++) {
			double x = (k + 1) * step, y = graph_y(w->plies[k].score, GRAPH_H);
			rc = xq_buf_addf(b, "L%.1f %.1f", x, y);
			if (!rc)
				rc = xq_buf_addf(&line, "%c%.1f %.1f", k == i ? 'M' : 'L', x, y);
		}
		if (!rc)
			rc = xq_buf_addf(b, "L%.1f %dZ\"/>", j * step, GRAPH_H / 2);
		if (!rc)
			rc = xq_buf_adds(&line, "\"/>");
		i = j;
	}
	if (!rc)
		rc = xq_buf_add(b, line.ptr, line.len);
	xq_buf_release(&line);
	for (uint32_t k = 0; k < n && !rc; k++) {
		const struct ply *p = &w->plies[k];
		int m = w->mark[p->node] & MARK_BITS;
		double y = p->has_score ? graph_y(p->score, GRAPH_H) : GRAPH_H / 2;
		if (m == MARK_NONE)
			continue;
		rc = xq_buf_addf(b,
				 "<a href=\"#g%llu-m%u\"><circle class=\"k%d\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>",
				 (unsigned long long)gn, (unsigned)w->order[p->node], m, (k + 1) * step, y);
		if (!rc)
			rc = xq_buf_addf(b, "%u%s %s</title></circle></a>", p->fullmove,
					 p->side == XQI_BLACK ? "..." : ".", p->text);
	}
	if (!rc)
		rc = xq_buf_addf(b, "<line class=\"now\" x1=\"%.1f\" y1=\"0\" x2=\"%.1f\" y2=\"%d\"/></svg>\n",
				 n * step, n * step, GRAPH_H);
	return rc;
}

/*
 * Each player's average loss (annotate's own figure from its tags when the
 * game has them, else from the scores) and marked moves, linked.
 */
static int add_coach(struct html_writer *w, struct xq_buf *b, const struct xqi_record *g, uint32_t n,
		     uint64_t gn)
{
	static const char *const side_name[2] = {"Red", "Black"};
	static const char *const mark_name[4] = {"", "Inaccuracies ?!", "Mistakes ?", "Blunders ??"};
	int rc = xq_buf_adds(b, "<table class=\"coach\"><tr><th>Player</th><th>Average loss</th>");

	for (int m = MARK_INACCURACY; m <= MARK_BLUNDER && !rc; m++)
		rc = xq_buf_addf(b, "<th>%s</th>", mark_name[m]);
	if (!rc)
		rc = xq_buf_adds(b, "</tr>\n");
	for (int s = 0; s < 2 && !rc; s++) {
		char tag[32];
		const char *player = xqi_record_tag(g, side_name[s]), *avg;
		uint64_t sum = 0, moves = 0;
		for (uint32_t k = 0; k < n; k++)
			if (w->plies[k].side == s && w->plies[k].loss >= 0)
				sum += (uint64_t)w->plies[k].loss, moves++;
		snprintf(tag, sizeof(tag), "%sAverageLoss", side_name[s]);
		avg = xqi_record_tag(g, tag);
		rc = xq_buf_addf(b, "<tr class=\"%s\"><th>%s", s ? "black" : "red", side_name[s]);
		if (!rc && player && *player) {
			rc = xq_buf_adds(b, " <bdi>");
			if (!rc)
				rc = esc(b, player);
			if (!rc)
				rc = xq_buf_adds(b, "</bdi>");
		}
		if (!rc)
			rc = xq_buf_adds(b, "</th><td>");
		if (!rc && avg) {
			rc = esc(b, avg);
			if (!rc)
				rc = xq_buf_adds(b, " cp");
		} else if (!rc && moves) {
			rc = xq_buf_addf(b, "%llu cp", (unsigned long long)((sum + moves / 2) / moves));
		} else if (!rc) {
			rc = xq_buf_adds(b, "&ndash;");
		}
		for (int m = MARK_INACCURACY; m <= MARK_BLUNDER && !rc; m++) {
			unsigned count = 0;
			for (uint32_t k = 0; k < n; k++)
				count += w->plies[k].side == s && (w->mark[w->plies[k].node] & MARK_BITS) == m;
			rc = xq_buf_addf(b, "</td><td class=\"k%d\">%u", m, count);
			for (uint32_t k = 0; k < n && !rc; k++) {
				if (w->plies[k].side != s || (w->mark[w->plies[k].node] & MARK_BITS) != m)
					continue;
				rc = xq_buf_addc(b, ' ');
				if (!rc)
					rc = add_move_link(b, gn, w->order[w->plies[k].node], &w->plies[k]);
			}
		}
		if (!rc)
			rc = xq_buf_adds(b, "</td></tr>\n");
	}
	return rc ? rc : xq_buf_adds(b, "</table>\n");
}

/* What a NAG looks like after a move: "?!", "+-", or "$N" for the rest. */
static const char *nag_text(uint8_t nag)
{
	static const char *const t[20] = {NULL, "!", "?", "!!", "??", "!?", "?!", NULL, NULL, NULL,
					  "=", NULL, NULL, "&infin;", "+=", "=+", "&plusmn;",
					  "&#8723;", "+&minus;", "&minus;+"};
	return nag < 20 ? t[nag] : NULL;
}

/* A comment, the score in it set apart. */
static int add_comment(struct xq_buf *b, const char *c)
{
	struct xqi_evalnote note;
	size_t len = strlen(c);
	int rc = xq_buf_adds(b, "<span class=\"c\">");

	if (!rc && xqi_evalnote_find(&note, c, len)) {
		rc = xqi_html_escape(b, c, note.start);
		if (!rc)
			rc = xq_buf_adds(b, "<b class=\"ev\">");
		if (!rc)
			rc = xqi_html_escape(b, c + note.start, note.end - note.start);
		if (!rc)
			rc = xq_buf_adds(b, "</b>");
		if (!rc)
			rc = xqi_html_escape(b, c + note.end, len - note.end);
	} else if (!rc) {
		rc = xqi_html_escape(b, c, len);
	}
	return rc ? rc : xq_buf_adds(b, "</span> ");
}

/* One move of the text: its pre-comment, number, link, NAGs and comment;
 * and its entry in data-moves. */
static int write_move(struct html_writer *w, const struct xqi_record *g, uint32_t node,
		      struct xqi_position *before, uint32_t *count, int *need_number, uint64_t gn)
{
	const struct xqi_node *x = &g->nodes[node];
	struct xq_buf *b = &w->moves;
	char mv[XQ_MOVE_TEXT_SIZE], iccs[5];
	uint32_t k = ++*count, pk = w->order[x->parent];
	int black = before->side == XQI_BLACK, rc = 0, mark = w->mark[node] & MARK_BITS;

	w->order[node] = k;
	xqi_move_name(x->move, iccs);
	if (k > 1)
		rc = xq_buf_addc(&w->data, ' ');
	if (!rc && pk != k - 1)
		rc = xq_buf_addf(&w->data, "%u:", (unsigned)pk);
	if (!rc)
		rc = xq_buf_adds(&w->data, iccs);
	if (!rc && x->pre_comment && *x->pre_comment) {
		rc = add_comment(b, x->pre_comment);
		*need_number = 1;
	}
	/* The number and its move never part at a line's end: U+00A0 joins them. */
	if (!rc && (!black || *need_number))
		rc = xq_buf_addf(b, black ? "%u...\xC2\xA0" : "%u.\xC2\xA0", (unsigned)before->fullmove);
	if (!xqi_notation_write(mv, sizeof(mv), before, x->move, w->notation,
			       w->nflags | XQI_DIALECT_KNOWN_LEGAL))
		memcpy(mv, iccs, sizeof(iccs));
	if (!rc)
		rc = xq_buf_adds(b, "<a");
	/* An id for the moves the graph and the summary link to. */
	if (!rc && mark && (w->mark[node] & MAIN_LINE))
		rc = xq_buf_addf(b, " id=\"g%llu-m%u\"", (unsigned long long)gn, (unsigned)k);
	if (!rc && mark)
		rc = xq_buf_addf(b, " class=\"k%d\"", mark);
	if (!rc)
		rc = xq_buf_addf(b, ">%s", mv);
	for (unsigned i = 0; i < x->nnags && !rc; i++) {
		const char *t = nag_text(x->nags[i]);
		rc = t ? xq_buf_adds(b, t) : xq_buf_addf(b, " $%u", x->nags[i]);
	}
	if (!rc)
		rc = xq_buf_adds(b, "</a> ");
	*need_number = 0;
	if (!rc && x->comment && *x->comment) {
		rc = add_comment(b, x->comment);
		*need_number = 1;
	}
	return rc;
}

/* The whole move text, variations in the order a reader meets them. */
static int write_moves(struct html_writer *w, const struct xqi_record *g, uint64_t gn)
{
	const struct xqi_node *root = &g->nodes[XQI_ROOT];
	struct xqi_textwalk t;
	uint32_t count = 0;
	int need_number = 1, rc = 0, step = 0;

	w->order[XQI_ROOT] = 0;
	if (root->pre_comment && *root->pre_comment)
		rc = add_comment(&w->moves, root->pre_comment);
	if (!rc && root->comment && *root->comment)
		rc = add_comment(&w->moves, root->comment);
	if (!rc)
		rc = xqi_textwalk_init(&t, g);
	if (rc)
		return rc;
	while (!rc && (step = xqi_textwalk_next(&t)) > 0) {
		if (step == XQI_TEXT_MOVE) {
			rc = write_move(w, g, t.node, &t.before, &count, &need_number, gn);
			continue;
		}
		if (step == XQI_TEXT_OPEN) {
			rc = xq_buf_adds(&w->moves, "<span class=\"v\">(");
		} else {
			if (w->moves.len && w->moves.ptr[w->moves.len - 1] == ' ')
				xq_buf_truncate(&w->moves, w->moves.len - 1);
			rc = xq_buf_adds(&w->moves, ")</span> ");
		}
		need_number = 1;
	}
	xqi_textwalk_release(&t);
	if (!rc && step < 0)
		rc = step;
	if (!rc && g->result != XQI_RESULT_NONE) {
		rc = xq_buf_adds(&w->moves, "<b class=\"res\">");
		if (!rc)
			rc = add_result(&w->moves, g);
		if (!rc)
			rc = xq_buf_adds(&w->moves, "</b>");
	}
	return rc;
}

/* `[Game "Chinese Chess"]` says a PGN file holds xiangqi, which a page
 * of xiangqi games need not say (so that a game and its PGN copy read
 * back make the same page). */
static int shown_tag(const struct xqi_tag *t)
{
	return strcmp(t->name, "Game") || strcmp(t->value, "Chinese Chess");
}

/* The tags as the record orders them; a FEN tag shows the start position
 * the game really has (lib/record.h: `start` is authoritative). */
static int write_tags(struct xq_buf *b, const struct xqi_record *g)
{
	char fen[XQ_FEN_SIZE];
	size_t shown = 0;
	int rc;

	for (size_t i = 0; i < g->ntags; i++)
		shown += (size_t)shown_tag(&g->tags[i]);
	if (!shown)
		return 0;
	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	rc = xq_buf_addf(b, "<details class=\"tags\"><summary>Tags (%zu)</summary>\n<table>\n",
			 shown);
	for (size_t i = 0; i < g->ntags && !rc; i++) {
		if (!shown_tag(&g->tags[i]))
			continue;
		rc = xq_buf_adds(b, "<tr><th>");
		if (!rc)
			rc = esc(b, g->tags[i].name);
		if (!rc)
			rc = xq_buf_adds(b, "</th><td>");
		if (!rc)
			rc = esc(b, strcmp(g->tags[i].name, "FEN") ? g->tags[i].value : fen);
		if (!rc)
			rc = xq_buf_adds(b, "</td></tr>\n");
	}
	return rc ? rc : xq_buf_adds(b, "</table></details>\n");
}

/* The index lines kept in memory at most; the rest wait in a scratch
 * file (a line is about 150 bytes: 780 MB for 4.7 million games). */
#define INDEX_KEEP ((size_t)1 << 20)

/* The index lines in memory go to the scratch file when they are many. */
static int spill_index(struct html_writer *w)
{
	if (w->index.len < INDEX_KEEP)
		return 0;
	if (!w->spill && !(w->spill = xqi_scratch_open()))
		return xqi_write_report(w->sink, w->o, w->games + 1, 0, XQ_EIO, XQ_SEVERITY_ERROR, XQI_D_IO,
				       "cannot keep the page's index in a scratch file: %s",
				       strerror(errno));
	if (fwrite(w->index.ptr, 1, w->index.len, w->spill) != w->index.len)
		return xqi_write_report(w->sink, w->o, w->games + 1, 0, XQ_EIO, XQ_SEVERITY_ERROR,
				       errno == ENOSPC ? XQI_D_RESOURCE : XQI_D_IO,
				       "cannot keep the page's index in a scratch file: %s",
				       strerror(errno));
	xq_buf_reset(&w->index);
	return 0;
}

/* The index lines, from the scratch file then memory, into the page. */
static int write_index(struct html_writer *w)
{
	char chunk[1 << 16];
	size_t n;
	int rc = 0;

	if (w->spill) {
		if (fflush(w->spill) != 0 || fseek(w->spill, 0, SEEK_SET) != 0)
			rc = XQ_EIO;
		while (!rc && (n = fread(chunk, 1, sizeof(chunk), w->spill)) > 0)
			rc = xqi_file_write(w->o, chunk, n);
		if (!rc && ferror(w->spill))
			rc = XQ_EIO;
	}
	if (!rc)
		rc = xqi_file_write(w->o, w->index.ptr, w->index.len);
	return rc;
}

/* The game's line in the index. */
static int add_index_entry(struct html_writer *w, const struct xqi_record *g, uint64_t gn)
{
	struct xq_buf *b = &w->index;
	int rc = xq_buf_addf(b, "<li><a href=\"#g%llu\">", (unsigned long long)gn);

	if (!rc)
		rc = add_players(b, g, gn);
	if (!rc)
		rc = xq_buf_adds(b, "</a> ");
	if (!rc && g->result != XQI_RESULT_NONE) {
		rc = xq_buf_adds(b, "<b>");
		if (!rc)
			rc = add_result(b, g);
		if (!rc)
			rc = xq_buf_adds(b, "</b> ");
	}
	if (!rc)
		rc = add_meta(b, g);
	return rc ? rc : xq_buf_adds(b, "</li>\n");
}

/*
 * A game's section opened (its moves as data, its start when not the
 * standard one), its heading (number, players, result) and the line of
 * what else is known of it, then the view for a browser without script.
 */
static int add_section_head(struct html_writer *w, struct xq_buf *b, const struct xqi_record *g,
			    uint64_t gn)
{
	char fen[XQ_FEN_SIZE];
	int rc;

	rc = xq_buf_addf(b, "<section class=\"game\" id=\"g%llu\" data-moves=\"%s\"",
			 (unsigned long long)gn, w->data.ptr);
	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	if (!rc && strcmp(fen, XQI_START_FEN))
		rc = xq_buf_addf(b, " data-start=\"%s\"", fen);
	if (!rc)
		rc = xq_buf_addf(b, ">\n<h2><a class=\"no\" href=\"#g%llu\">%llu</a> ",
				 (unsigned long long)gn, (unsigned long long)gn);
	if (!rc)
		rc = add_players(b, g, gn);
	if (!rc && g->result != XQI_RESULT_NONE) {
		rc = xq_buf_adds(b, " <span class=\"res\">");
		if (!rc)
			rc = add_result(b, g);
		if (!rc)
			rc = xq_buf_adds(b, "</span>");
	}
	if (!rc)
		rc = xq_buf_adds(b, "</h2>\n<p class=\"meta\">");
	if (!rc)
		rc = add_meta(b, g);
	if (!rc)
		rc = xq_buf_adds(b, "</p>\n<noscript>\n<div class=\"view\">\n<div class=\"side\">\n");
	return rc;
}

/*
 * The side of that view: the final position `end` (the last move `last`
 * marked; `plies` in the main line), where it is, its FEN, and the
 * record's error when it has one.
 */
static int add_board_side(struct html_writer *w, struct xq_buf *b, const struct xqi_record *g,
			  const struct xqi_position *end, xqi_move last, uint32_t plies)
{
	char fen[XQ_FEN_SIZE];
	int rc = xqi_diagram_svg_page_board(b, end, last, &w->svg);

	xqi_position_to_fen(end, fen, sizeof(fen));
	if (!rc && plies)
		rc = xq_buf_addf(b, "<p class=\"where\">Final position, after %u%s %s</p>\n",
				 w->plies[plies - 1].fullmove,
				 w->plies[plies - 1].side == XQI_BLACK ? "..." : ".",
				 w->plies[plies - 1].text);
	else if (!rc)
		rc = xq_buf_adds(b, "<p class=\"where\">Start position</p>\n");
	if (!rc)
		rc = xq_buf_addf(b, "<p class=\"fen\"><label>FEN <input readonly value=\"%s\" "
				    "spellcheck=\"false\"></label></p>\n</div>\n<div class=\"record\">\n",
				 fen);
	if (!rc && (g->flags & XQI_RECORD_BROKEN)) {
		rc = xq_buf_adds(b, "<p class=\"error\" role=\"alert\"><strong>This record has an "
				    "error.</strong> Its moves are shown up to it");
		if (!rc && g->error && *g->error) {
			rc = xq_buf_adds(b, ": <span class=\"why\">");
			if (!rc)
				rc = esc(b, g->error);
			if (!rc)
				rc = xq_buf_adds(b, "</span>");
		}
		if (!rc)
			rc = xq_buf_adds(b, "</p>\n");
	}
	return rc;
}

static int html_write(void *writer, const struct xqi_record *g)
{
	struct html_writer *w = writer;
	struct xq_buf *b = &w->page;
	uint64_t gn = w->games + 1;
	struct xqi_position end;
	xqi_move last;
	uint32_t plies;
	int scored, rc;

	if ((rc = xqi_write_start_check(w->sink, w->o, g, "an HTML page", 0)))
		return rc;
	xq_buf_reset(b);
	xq_buf_reset(&w->moves);
	xq_buf_reset(&w->data);
	if ((rc = reserve(w, g->nnodes)))
		return rc;
	if (!w->head_done && (rc = write_head(w, g)))
		return rc;
	plies = main_line(w, g, &end, &last, &scored);
	if ((rc = write_moves(w, g, gn)))
		return rc;
	rc = add_section_head(w, b, g, gn);
	if (!rc)
		rc = add_board_side(w, b, g, &end, last, plies);
	/* The graph, the moves beside the board, each player's summary, then
	 * every tag (the players, event and date are in the heading). */
	if (!rc && scored)
		rc = add_graph(w, b, plies, gn);
	if (!rc)
		rc = xq_buf_addf(b, "<div class=\"moves\" lang=\"%s\">",
				 w->notation == XQ_DIALECT_CHINESE
					 ? (w->nflags & XQ_DIALECT_TRADITIONAL ? "zh-Hant" : "zh-Hans")
					 : "en");
	if (!rc)
		rc = xq_buf_add(b, w->moves.ptr, w->moves.len);
	if (!rc)
		rc = xq_buf_adds(b, "</div>\n");
	if (!rc && scored)
		rc = add_coach(w, b, g, plies, gn);
	if (!rc)
		rc = write_tags(b, g);
	if (!rc)
		rc = xq_buf_adds(b, "</div>\n</div>\n</noscript>\n</section>\n");
	if (!rc)
		rc = add_index_entry(w, g, gn);
	if (rc)
		return rc;
	if ((rc = xqi_file_write(w->o, b->ptr, b->len)))
		return xqi_write_report(w->sink, w->o, g->number, 0, rc, XQ_SEVERITY_ERROR, XQI_D_IO,
				       "cannot write the page");
	w->games++;
	return spill_index(w);
}

static int html_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			    const struct xqi_sink *sink)
{
	static const struct xqi_write_opts def = XQI_WRITE_OPTS_INIT;
	struct html_writer *w;
	enum xq_dialect n;

	if (!opts)
		opts = &def;
	n = opts->notation == XQ_DIALECT_AUTO ? XQ_DIALECT_CHINESE : (enum xq_dialect)opts->notation;
	if (n == XQ_DIALECT_SAN)
		return xqi_write_refuse(sink, o,
				       "HTML pages show moves in chinese, wxf, iccs, uci or uci1 notation, not %s",
				       xqi_notation_name(n));
	if (opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF8)
		return xqi_write_refuse(sink, o, "HTML pages are written in utf-8, not %s",
				       xqi_encoding_name(opts->encoding));
	if (!(w = calloc(1, sizeof(*w))))
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->notation = n;
	w->nflags = opts->notation_flags;
	w->svg = (struct xqi_svg_opts)XQI_SVG_OPTS_INIT;
	/* Files as the notation counts them: ICCS letters, or each side's numbers. */
	w->svg.coordinates = n == XQ_DIALECT_CHINESE || n == XQ_DIALECT_WXF ? XQ_DIAGRAM_LABELS_CHINESE
									      : XQ_DIAGRAM_LABELS_ICCS;
	xq_buf_init(&w->page);
	xq_buf_init(&w->moves);
	xq_buf_init(&w->data);
	xq_buf_init(&w->index);
	*out = w;
	return 0;
}

static void free_writer(struct html_writer *w)
{
	xq_buf_release(&w->page);
	xq_buf_release(&w->moves);
	xq_buf_release(&w->data);
	xq_buf_release(&w->index);
	if (w->spill)
		fclose(w->spill);
	free(w->order);
	free(w->mark);
	free(w->plies);
	free(w);
}

static int html_close_writer(void *writer)
{
	struct html_writer *w = writer;
	struct xq_buf *b;
	int rc = 0;

	if (!w)
		return 0;
	b = &w->page;
	xq_buf_reset(b);
	if (!w->head_done)
		rc = write_head(w, NULL);
	if (!rc && w->games == 0)
		rc = xq_buf_adds(b, "<p class=\"none\">No game.</p>\n");
	if (!rc && w->games > 1) {
		/* The page so far, then the index (from its scratch file), then
		 * its end. */
		rc = xq_buf_addf(b, "<nav id=\"index\"><h2>%llu games</h2>\n<ol>\n",
				 (unsigned long long)w->games);
		if (!rc && !(rc = xqi_file_write(w->o, b->ptr, b->len)))
			rc = write_index(w);
		xq_buf_reset(b);
		if (!rc)
			rc = xq_buf_adds(b, "</ol></nav>\n");
	}
	if (!rc)
		rc = xq_buf_addf(b, "</main>\n<script>%s</script>\n</body>\n</html>\n", xqi_html_script);
	if (!rc && (rc = xqi_file_write(w->o, b->ptr, b->len)))
		xqi_write_report(w->sink, w->o, 0, 0, rc, XQ_SEVERITY_ERROR, XQI_D_IO, "cannot write the page");
	free_writer(w);
	return rc;
}

const struct xqi_format xqi_format_html = {
	.name = "html",
	.description = "a web page that shows the games: board, moves, navigation (write only)",
	.extensions = ".html .htm",
	.caps = XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS | XQ_FORMAT_NAGS |
		XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS,
	.open_writer = html_open_writer,
	.write = html_write,
	.close_writer = html_close_writer,
};
