/*
 * annotate_game.c: analyse the positions of one game and write scores,
 * marks, best lines and tags into it (see annotate_game.h).
 *
 * Three passes over the tree, each a loop (xq_walk), never recursion:
 *   1. every position to annotate is analysed with its history (the moves
 *      from the start, so that the analyser sees repetitions): the start
 *      position, then each move's resulting position in pre-order;
 *   2. each move gets its score comment, its loss, its mark and (NDJSON)
 *      its record; moves that lost enough are noted for a best line;
 *   3. the best lines are added as variations (only now, so that the
 *      walks above never see them), then the tags.
 *
 * Failures.  An engine that fails on a position (crash, hang, lie,
 * garbage answer, rejected position) leaves that position unanalysed with
 * an error naming the game and ply; an engine that is no longer running
 * is restarted at once.  After ANNOTATE_MAX_FAILURES failures in one game
 * the rest of the game is left, so an engine that fails everywhere costs
 * a few time-outs per game, not one per ply.  A position the analyser
 * refuses before asking the engine (an impossible start position) is
 * reported once per game.  Whatever was analysed is still written, and
 * the game says it is incomplete (its marker, a warning).
 */
#include "annotate_game.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagplace.h"
#include "evalnote.h"
#include "movegen.h"
#include "notation.h"

/* ---- marks and marker ----------------------------------------------------- */

void annotate_default_marks(int32_t marks[MARK_COUNT])
{
	marks[MARK_INACCURACY] = XQ_EVALNOTE_INACCURACY;
	marks[MARK_MISTAKE] = XQ_EVALNOTE_MISTAKE;
	marks[MARK_BLUNDER] = XQ_EVALNOTE_BLUNDER;
}

int annotate_marker(struct xq_buf *out, const char *settings, uint64_t fingerprint,
		    int complete)
{
	return xq_buf_addf(out, "%s; input %016llx%s", settings, (unsigned long long)fingerprint,
			   complete ? "" : "; incomplete");
}

/* ---- diagnostics ------------------------------------------------------------ */

/*
 * The history of the position being analysed, kept as the walk goes so
 * that no position costs more than the plies its analyser looks at: in
 * pre-order a node's ancestors come before it, so the moves of its path
 * are those of the last node seen at each depth above it.
 *
 * Only the plies since the last capture can repeat, and the built-in
 * engine looks back at most SEARCH_LOOKBACK plies of them (HISTORY_PLIES
 * in lib/search.c); an external engine is sent the position after the
 * last capture and every move since (lib/engine.c).  So each position is
 * handed over as a board from a little before that (a board kept every
 * HISTORY_MARK plies of the path) and the moves from there: the analyser
 * sees what it would have seen of the whole history, and checking the
 * history costs at most that many plies (plus HISTORY_MARK), not the
 * whole line.  A start position the analyser refuses is always handed
 * over itself, so that it is refused with the same words.
 */
#define HISTORY_MARK 64
#define SEARCH_LOOKBACK 1024

struct history {
	xq_move *moves;           /* moves[i]: the move at depth i + 1 of the path */
	uint32_t *since;          /* since[d]: depth of the last capture on the path, up to d */
	struct xq_board *marks;   /* marks[k]: the board at depth k * HISTORY_MARK */
	int whole;                /* hand over the whole history (refused start) */
	int windowed;             /* the built-in engine: SEARCH_LOOKBACK applies */
};

struct run {
	struct annotator *a;
	const struct annotate_settings *s;
	struct xq_game *g;
	const char *file;
	struct diag_list *diags;
	struct annotate_result *res;
	int halt;                 /* analyse nothing more in this game */
	int oom;
	uint32_t refused;         /* positions the analyser refused before the engine */
	enum xq_diag_code first_code;
	/* per node */
	struct xq_analysis *an;
	uint8_t *state;           /* 0 not analysed, 1 analysed, 2 failed */
	uint8_t *main_line;
	uint32_t *line;           /* NDJSON line numbers */
	uint32_t *best_lines;     /* moves that get a best line */
	size_t nbest;
	uint32_t lines;
	struct history h;
};

static void report(struct run *r, uint32_t node, uint32_t ply, enum xq_severity sev,
		   enum xq_diag_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;
static void report(struct run *r, uint32_t node, uint32_t ply, enum xq_severity sev,
		   enum xq_diag_code code, const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	xq_game_place_diag(&d, r->g, r->file, node, ply);
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	if (diag_list_add(r->diags, &d))
		r->oom = 1;
}

void annotator_warning(const struct xq_diag *d, void *payload)
{
	struct annotator *a = payload;
	struct xq_diag c;

	if (!a->cur_diags || !a->cur_game)
		return;
	xq_diag_init(&c);
	xq_game_place_diag(&c, a->cur_game, a->cur_file, a->cur_node, d->ply);
	xq_diag_set(&c, 0, d->code, d->severity, "%s", d->msg);
	if (diag_list_add(a->cur_diags, &c))
		a->oom = 1;
}

static int stopped(const struct run *r)
{
	return r->s->stop && atomic_load(r->s->stop);
}

/* Restart the engine after a failure; 0 when it runs again. */
static int restart(struct run *r, uint32_t node, uint32_t ply)
{
	struct xq_diag d;

	xq_diag_init(&d);
	d.game = r->g->number;
	d.ply = ply;
	if (xq_analyser_restart(&r->a->an, &d) == 0) {
		r->a->restart_failures = 0;
		return 0;
	}
	if (stopped(r))
		return -1;
	r->a->restart_failures++;
	if (r->a->restart_failures >= ANNOTATE_MAX_RESTART_FAILURES)
		r->a->lost = 1;
	report(r, node, ply, XQ_SEV_ERROR, XQ_D_ENGINE,
	       "the engine could not be restarted, so the rest of this game is not analysed: %s",
	       d.msg);
	return -1;
}

/* The analysis of the position after `node` (ply `ply`) failed with `rc`
 * as `d` says: report it, restart the engine, give up on the game. */
static void failed(struct run *r, uint32_t node, uint32_t ply, int rc, const struct xq_diag *d)
{
	if (!r->first_code)
		r->first_code = d->code ? d->code : XQ_D_ENGINE;
	if (rc != XQ_EENGINE) {
		/* Refused before reaching the engine: the same reason will hold
		 * for the next positions, so say it once. */
		if (r->refused++ == 0)
			report(r, node, ply, XQ_SEV_ERROR, d->code ? d->code : XQ_D_ENGINE,
			       "%s not analysed: %s", ply ? "position" : "start position", d->msg);
		return;
	}
	r->res->failures++;
	report(r, node, ply, XQ_SEV_ERROR, XQ_D_ENGINE, "%s not analysed: %s",
	       ply ? "position" : "start position", d->msg);
	if (r->a->engine && xq_engine_pid(r->a->engine) < 0 && restart(r, node, ply)) {
		r->halt = 1;
		return;
	}
	if (r->res->failures >= ANNOTATE_MAX_FAILURES) {
		report(r, node, ply, XQ_SEV_ERROR, XQ_D_ENGINE,
		       "%d engine failures in this game: the rest of it is not analysed",
		       ANNOTATE_MAX_FAILURES);
		r->halt = 1;
	}
}

/* Note the move of the walk's node in the history. */
static void history_step(struct history *h, const struct xq_walk *w, xq_move m)
{
	size_t d = w->depth;

	h->moves[d - 1] = m;
	h->since[d] = w->before.sq[XQ_MOVE_TO(m)] ? (uint32_t)d : h->since[d - 1];
	if (d % HISTORY_MARK == 0)
		h->marks[d / HISTORY_MARK] = w->after;
}

/* Where to hand the history of the position at depth `d` over from: a
 * depth with a kept board, at or before the first ply the analyser uses. */
static size_t history_from(const struct history *h, size_t d)
{
	size_t from = h->since[d];

	if (h->whole)
		return 0;
	if (h->windowed && d - from > SEARCH_LOOKBACK)
		from = d - SEARCH_LOOKBACK;
	return from / HISTORY_MARK * HISTORY_MARK;
}

/* Analyse the position after `node`, at depth `n` of the walk. */
static void analyse(struct run *r, uint32_t node, size_t n)
{
	size_t from = n ? history_from(&r->h, n) : 0;
	struct xq_diag d;
	int rc;

	if (r->halt)
		return;
	if (stopped(r)) {
		r->res->interrupted = 1;
		r->halt = 1;
		return;
	}
	xq_diag_init(&d);
	d.game = r->g->number;
	d.ply = (uint32_t)n;
	r->a->cur_node = node;
	rc = xq_analyse(&r->a->an, &r->an[node], &r->h.marks[from / HISTORY_MARK],
			r->h.moves + from, n - from, &r->s->limit, &d);
	if (stopped(r)) {
		r->res->interrupted = 1;
		r->halt = 1;
		return;
	}
	if (rc == 0) {
		r->state[node] = 1;
		r->res->analysed++;
		return;
	}
	r->state[node] = 2;
	if (rc == XQ_ENOMEM) {
		r->oom = 1;
		r->halt = 1;
		return;
	}
	failed(r, node, (uint32_t)n, rc, &d);
}

/* ---- writing the annotation --------------------------------------------------- */

/* The score of the position `a` analysed (the score after the move that
 * led there). */
static size_t score_text(char *buf, size_t cap, const struct annotate_settings *s,
			 const struct xq_analysis *a)
{
	if (s->eval_command)
		return xq_evalnote_format_command(buf, cap, xq_analysis_red_score(a), a->depth);
	return xq_evalnote_format(buf, cap, xq_analysis_red_score(a), a->depth);
}

/* The score after the best move of the position `a` analysed: the same,
 * except that a mate is one move nearer for the side that mates. */
static size_t best_score_text(char *buf, size_t cap, const struct annotate_settings *set,
			      const struct xq_analysis *a)
{
	struct xq_score s = a->score; /* the mover's view */

	if (s.kind == XQ_SCORE_MATE && s.value > 0)
		s.value--;
	if (set->eval_command)
		return xq_evalnote_format_command(buf, cap, xq_score_for_red(s, a->side), a->depth);
	return xq_evalnote_format(buf, cap, xq_score_for_red(s, a->side), a->depth);
}

/* What the mover lost: `before` analyses the position it moved from (it
 * is the side to move there), `after` the position its move reached. */
static int32_t loss_of(const struct xq_analysis *before, const struct xq_analysis *after)
{
	/* Both scores from the mover's view, measured as if red were moving. */
	return xq_evalnote_loss(before->score, xq_score_negate(after->score), XQ_RED);
}

static const uint8_t mark_nag[MARK_COUNT] = {XQ_EVALNOTE_NAG_INACCURACY, XQ_EVALNOTE_NAG_MISTAKE,
						XQ_EVALNOTE_NAG_BLUNDER}; /* ?! ? ?? */
static const char *const mark_text[MARK_COUNT] = {"?!", "?", "??"};

static int mark_of(const struct annotate_settings *s, int32_t loss)
{
	for (int m = MARK_COUNT - 1; m >= 0; m--)
		if (loss >= s->marks[m])
			return m;
	return -1;
}

static void json_move_list(struct xq_buf *b, const xq_move *pv, size_t n)
{
	xq_buf_addc(b, '[');
	for (size_t i = 0; i < n; i++) {
		char iccs[5];
		xq_move_name(pv[i], iccs);
		xq_buf_addf(b, "%s\"%.4s\"", i ? "," : "", iccs);
	}
	xq_buf_addc(b, ']');
}

static void json_text(struct xq_buf *b, const char *key, const char *text)
{
	xq_buf_addf(b, ",\"%s\":", key);
	report_add_json_safe(b, text);
}

/* One xqkit.eval/1 record. */
static void eval_record(struct run *r, struct xq_buf *b, uint32_t node, uint32_t ply,
			uint32_t line, const struct xq_board *before, const struct xq_analysis *an,
			const uint8_t *state, int32_t loss, int mark, int with_pv)
{
	const struct xq_game *g = r->g;
	uint32_t p = g->nodes[node].parent;
	struct xq_board tmp = *before;
	char text[XQ_MOVE_TEXT_MAX], iccs[5];

	xq_buf_adds(b, "{\"schema\":\"" ANNOTATE_EVAL_SCHEMA "\",\"file\":");
	report_add_json_safe(b, r->file);
	xq_buf_addf(b, ",\"game\":%llu,\"ply\":%u", (unsigned long long)g->number, ply);
	if (r->s->variations)
		xq_buf_addf(b, ",\"line\":%u", line);
	xq_move_name(g->nodes[node].move, iccs);
	xq_buf_addf(b, ",\"move_number\":%u,\"side\":\"%s\",\"iccs\":\"%.4s\"", before->fullmove,
		    before->side == XQ_RED ? "red" : "black", iccs);
	if (xq_notation_write(text, sizeof(text), &tmp, g->nodes[node].move,
			      (enum xq_notation)r->s->mt.notation, r->s->mt.flags))
		json_text(b, "move", text);
	if (state[node] == 1) {
		const struct xq_analysis *a = &an[node];
		struct xq_score red = xq_analysis_red_score(a);
		char st[XQ_EVALNOTE_MAX];
		xq_score_format(red, st, sizeof(st));
		xq_buf_addf(b, ",\"score\":\"%s\"", st);
		if (red.kind == XQ_SCORE_CP)
			xq_buf_addf(b, ",\"cp\":%ld", (long)red.value);
		else
			xq_buf_addf(b, ",\"mate\":%ld,\"mating\":\"%s\"", (long)red.value,
				    red.kind == XQ_SCORE_MATE ? "red" : "black");
		if (!(a->flags & XQ_ANALYSIS_NO_MOVES))
			xq_buf_addf(b, ",\"depth\":%d", a->depth);
	} else {
		xq_buf_adds(b, ",\"analysed\":false");
	}
	if (loss >= 0)
		xq_buf_addf(b, ",\"loss\":%ld", (long)loss);
	if (mark >= 0)
		xq_buf_addf(b, ",\"nag\":\"%s\"", mark_text[mark]);
	if (state[p] == 1 && an[p].best) {
		xq_move_name(an[p].best, iccs);
		xq_buf_addf(b, ",\"best\":\"%.4s\"", iccs);
		tmp = *before;
		if (xq_notation_write(text, sizeof(text), &tmp, an[p].best,
				      (enum xq_notation)r->s->mt.notation, r->s->mt.flags))
			json_text(b, "best_move", text);
		if (with_pv) {
			xq_buf_adds(b, ",\"pv\":");
			json_move_list(b, an[p].pv, an[p].pv_len);
		}
	}
	xq_buf_adds(b, "}\n");
}

/* Add the best line of the position before `node` as its last alternative. */
static int add_best_line(struct xq_game *g, uint32_t node, const struct annotate_settings *s,
			 const struct xq_analysis *before)
{
	uint32_t parent = g->nodes[node].parent, prev = parent;
	struct xq_board b;
	char st[XQ_EVALNOTE_MAX];
	size_t n;
	int rc;

	xq_game_board_at(g, parent, &b);
	for (size_t i = 0; i < before->pv_len; i++) {
		struct xq_undo u;
		uint32_t idx;
		if (!xq_move_is_legal(&b, before->pv[i]))
			break; /* never happens with analysers that check their lines */
		if ((rc = xq_game_add_move(g, prev, before->pv[i], &idx)))
			return rc;
		if (i == 0) {
			n = best_score_text(st, sizeof(st), s, before);
			if ((rc = xq_game_set_comment(g, idx, st, n)))
				return rc;
		}
		xq_board_make(&b, before->pv[i], &u);
		prev = idx;
	}
	return 0;
}

static int set_tag_num(struct xq_game *g, const char *side, const char *what, uint64_t v)
{
	char name[40], value[24];

	snprintf(name, sizeof(name), "%s%s", side, what);
	snprintf(value, sizeof(value), "%llu", (unsigned long long)v);
	return xq_game_set_tag(g, name, value);
}

static uint64_t average(const struct annotate_side *s)
{
	return s->moves ? (s->loss + s->moves / 2) / s->moves : 0;
}

static int write_tags(struct xq_game *g, const struct annotate_result *res, const char *marker)
{
	static const char *const side_name[2] = {"Red", "Black"};
	static const char *const what[MARK_COUNT] = {"Inaccuracies", "Mistakes", "Blunders"};
	int rc = 0;

	for (int s = 0; s < 2 && !rc; s++) {
		char name[40];
		snprintf(name, sizeof(name), "%sAverageLoss", side_name[s]);
		if (res->side[s].moves)
			rc = set_tag_num(g, side_name[s], "AverageLoss", average(&res->side[s]));
		else
			xq_game_remove_tag(g, name);
		for (int m = 0; m < MARK_COUNT && !rc; m++)
			rc = set_tag_num(g, side_name[s], what[m], res->side[s].marks[m]);
	}
	return rc ? rc : xq_game_set_tag(g, ANNOTATE_MARKER_TAG, marker);
}

static void game_record(struct run *r, struct xq_buf *b, const char *marker)
{
	static const char *const side_key[2] = {"red", "black"};
	const struct annotate_result *res = r->res;

	xq_buf_adds(b, "{\"schema\":\"" ANNOTATE_GAME_SCHEMA "\",\"file\":");
	report_add_json_safe(b, r->file);
	xq_buf_addf(b, ",\"game\":%llu,\"marker\":", (unsigned long long)r->g->number);
	report_add_json_safe(b, marker);
	json_text(b, "engine", r->s->engine);
	xq_buf_addf(b, ",\"plies\":%u,\"positions\":%u,\"analysed\":%u,\"complete\":%s",
		    xq_game_mainline_length(r->g), res->positions, res->analysed,
		    res->complete ? "true" : "false");
	for (int s = 0; s < 2; s++) {
		const struct annotate_side *sd = &res->side[s];
		xq_buf_addf(b, ",\"%s\":{\"moves\":%u", side_key[s], sd->moves);
		if (sd->moves)
			xq_buf_addf(b, ",\"average_loss\":%llu", (unsigned long long)average(sd));
		xq_buf_addf(b, ",\"inaccuracies\":%u,\"mistakes\":%u,\"blunders\":%u}",
			    sd->marks[MARK_INACCURACY], sd->marks[MARK_MISTAKE],
			    sd->marks[MARK_BLUNDER]);
	}
	xq_buf_adds(b, "}\n");
}

/* ---- one game -------------------------------------------------------------------- */

/* The per-node arrays of `r` for its game; XQ_ENOMEM. */
static int run_alloc(struct run *r)
{
	const struct xq_game *g = r->g;
	size_t n0 = g->nnodes;

	r->an = calloc(n0, sizeof(*r->an));
	r->state = calloc(n0, 1);
	r->main_line = calloc(n0, 1);
	r->line = calloc(n0, sizeof(*r->line));
	r->best_lines = malloc(n0 * sizeof(*r->best_lines));
	r->h.moves = malloc(n0 * sizeof(*r->h.moves));
	r->h.since = calloc(n0 + 1, sizeof(*r->h.since));
	r->h.marks = malloc((n0 / HISTORY_MARK + 1) * sizeof(*r->h.marks));
	if (!r->an || !r->state || !r->main_line || !r->line || !r->best_lines || !r->h.moves ||
	    !r->h.since || !r->h.marks)
		return XQ_ENOMEM;
	for (uint32_t n = XQ_ROOT; n != XQ_NODE_NONE; n = g->nodes[n].child)
		r->main_line[n] = 1;
	r->h.marks[0] = g->start;
	r->h.whole = xq_board_validate(&g->start, XQ_FEN_LENIENT_PLACEMENT, NULL) != 0;
	r->h.windowed = r->a->search != NULL;
	return 0;
}

static void run_free(struct run *r)
{
	free(r->an);
	free(r->state);
	free(r->main_line);
	free(r->line);
	free(r->best_lines);
	free(r->h.moves);
	free(r->h.since);
	free(r->h.marks);
}

/* Pass 1: analyse every position to annotate.  0, or XQ_ENOMEM. */
static int pass_analyse(struct run *r)
{
	struct xq_game *g = r->g;
	struct xq_walk w;
	int rc;

	r->res->positions = 1;
	analyse(r, XQ_ROOT, 0);
	if ((rc = xq_walk_init(&w, g)))
		return rc;
	while ((rc = xq_walk_next(&w)) == 1) {
		history_step(&r->h, &w, g->nodes[w.node].move);
		if (!r->s->variations && !r->main_line[w.node])
			continue;
		r->res->positions++;
		analyse(r, w.node, w.depth);
		if (r->res->interrupted || r->oom)
			break;
	}
	xq_walk_release(&w);
	return rc < 0 || r->oom ? XQ_ENOMEM : 0;
}

/* Pass 2, one move: its score, loss, mark and record.  0 or XQ_ENOMEM. */
static int mark_move(struct run *r, const struct xq_walk *w, struct xq_buf *ndjson)
{
	struct xq_game *g = r->g;
	const struct annotate_settings *s = r->s;
	const struct xq_analysis *an = r->an;
	uint32_t node = w->node, p = g->nodes[node].parent;
	int32_t loss = -1;
	int mark = -1, with_pv = 0, rc;

	r->line[node] = g->nodes[p].child == node ? r->line[p] : ++r->lines;
	if (r->state[node] == 1) {
		char st[XQ_EVALNOTE_MAX];
		size_t n = score_text(st, sizeof(st), s, &an[node]);
		if ((rc = xq_game_append_comment(g, node, st, n)))
			return rc;
	}
	if (r->state[node] == 1 && r->state[p] == 1) {
		struct annotate_side *sd = &r->res->side[w->before.side];
		/* The engine's own choice loses nothing, whatever the two
		 * searches (one ply apart) say. */
		loss = an[p].best == g->nodes[node].move ? 0 : loss_of(&an[p], &an[node]);
		mark = mark_of(s, loss);
		if (mark >= 0 && (rc = xq_game_add_nag_once(g, node, mark_nag[mark])))
			return rc;
		if (r->main_line[node]) {
			sd->moves++;
			sd->loss += (uint64_t)loss;
			if (mark >= 0)
				sd->marks[mark]++;
		}
		if (s->pv_threshold >= 0 && loss >= s->pv_threshold && an[p].pv_len &&
		    an[p].best != g->nodes[node].move) {
			with_pv = 1;
			r->best_lines[r->nbest++] = node;
		}
	}
	if (ndjson)
		eval_record(r, ndjson, node, (uint32_t)w->depth, r->line[node], &w->before, an,
			    r->state, loss, mark, with_pv);
	return 0;
}

/* Pass 2: scores, losses, marks, records.  0 or XQ_ENOMEM. */
static int pass_mark(struct run *r, struct xq_buf *ndjson)
{
	struct xq_walk w;
	int rc;

	if ((rc = xq_walk_init(&w, r->g)))
		return rc;
	while ((rc = xq_walk_next(&w)) == 1) {
		if (!r->s->variations && !r->main_line[w.node])
			continue;
		if ((rc = mark_move(r, &w, ndjson)))
			break;
	}
	xq_walk_release(&w);
	return rc < 0 ? rc : 0;
}

/* Pass 3: best lines as variations, then the tags and the game's record.
 * 0 or XQ_ENOMEM. */
static int pass_finish(struct run *r, uint64_t fingerprint, struct xq_buf *ndjson)
{
	struct xq_game *g = r->g;
	struct annotate_result *res = r->res;
	struct xq_buf marker = XQ_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < r->nbest && !rc; i++)
		rc = add_best_line(g, r->best_lines[i], r->s, &r->an[g->nodes[r->best_lines[i]].parent]);
	if (rc)
		return rc;
	if (!res->complete)
		report(r, XQ_ROOT, 0, XQ_SEV_WARNING, r->first_code ? r->first_code : XQ_D_ENGINE,
		       "annotation incomplete: %u of %u positions analysed", res->analysed,
		       res->positions);
	if (annotate_marker(&marker, r->s->settings, fingerprint, res->complete) ||
	    write_tags(g, res, marker.ptr)) {
		xq_buf_release(&marker);
		return XQ_ENOMEM;
	}
	if (ndjson)
		game_record(r, ndjson, marker.ptr);
	xq_buf_release(&marker);
	return r->oom ? XQ_ENOMEM : 0;
}

int annotate_game(struct annotator *a, const struct annotate_settings *s, struct xq_game *g,
		  uint64_t fingerprint, const char *file, struct diag_list *diags,
		  struct xq_buf *ndjson, struct annotate_result *res)
{
	struct run r;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	r.a = a;
	r.s = s;
	r.g = g;
	r.file = file;
	r.diags = diags;
	r.res = res;
	if ((rc = run_alloc(&r)))
		goto out;
	a->cur_diags = diags;
	a->cur_game = g;
	a->cur_file = file;
	a->cur_node = XQ_ROOT;
	a->oom = 0;
	/* An engine that could not be restarted after the last game gets
	 * another chance now. */
	if (a->engine && xq_engine_pid(a->engine) < 0 && !a->lost && restart(&r, XQ_ROOT, 0))
		r.halt = 1;
	if (a->lost)
		r.halt = 1;
	if ((rc = pass_analyse(&r)) || res->interrupted)
		goto out;
	res->complete = res->analysed == res->positions;
	if (!(rc = pass_mark(&r, ndjson)))
		rc = pass_finish(&r, fingerprint, ndjson);
	/* The records are appended without a check each: once here. */
	if (!rc && ((ndjson && xq_buf_error(ndjson)) || a->oom))
		rc = XQ_ENOMEM;
out:
	a->cur_diags = NULL;
	a->cur_game = NULL;
	run_free(&r);
	return rc;
}
