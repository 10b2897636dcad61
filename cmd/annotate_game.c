/*
 * annotate_game.c: analyse the positions of one game and write scores,
 * marks, best lines and tags into it (see annotate_game.h).
 *
 * Three passes over the tree, each a loop in pre-order, never recursion:
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
#include "walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagplace.h"
#include <xq/batch.h>
#include "report.h"
#include <xq/position.h>
#include <xq/record.h>

/* ---- marks and marker ----------------------------------------------------- */

void annotate_default_marks(int32_t marks[MARK_COUNT], int by_cp)
{
	marks[MARK_INACCURACY] = by_cp ? XQ_EVAL_INACCURACY : XQ_EVAL_INACCURACY_DROP;
	marks[MARK_MISTAKE] = by_cp ? XQ_EVAL_MISTAKE : XQ_EVAL_MISTAKE_DROP;
	marks[MARK_BLUNDER] = by_cp ? XQ_EVAL_BLUNDER : XQ_EVAL_BLUNDER_DROP;
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
 * handed over (xq_analyser_run_line()) as a position from a little before
 * that (one kept every HISTORY_MARK plies of the path) and the moves from
 * there: the analyser sees what it would have seen of the whole history,
 * and checking the history costs at most that many plies (plus
 * HISTORY_MARK), not the whole line.  A start position the analyser
 * refuses is always handed over itself, so that it is refused with the
 * same words.
 */
#define HISTORY_MARK 64
#define SEARCH_LOOKBACK 1024

struct history {
	xq_move_code *moves;      /* moves[i]: the move at depth i + 1 of the path */
	uint32_t *since;          /* since[d]: depth of the last capture on the path, up to d */
	xq_position **marks;      /* marks[k]: the position at depth k * HISTORY_MARK */
	size_t nmarks;
	int whole;                /* hand over the whole history (refused start) */
	int windowed;             /* the built-in engine: SEARCH_LOOKBACK applies */
};

/* What the analyser said of its last failure. */
struct failure {
	const char *code;         /* its code's name, or NULL */
	char msg[256];
};

struct run {
	struct annotator *a;
	const struct annotate_settings *s;
	xq_batch_job *j;
	xq_record *g;
	const char *file;
	struct annotate_result *res;
	int halt;                 /* analyse nothing more in this game */
	int oom;
	uint32_t refused;         /* positions the analyser refused before the engine */
	const char *first_code;   /* the code of the first failure */
	/* per node */
	xq_analysis_result *an;
	uint8_t *side;            /* the side to move in the position analysed */
	uint8_t *state;           /* 0 not analysed, 1 analysed, 2 failed */
	uint8_t *main_line;
	uint32_t *line;           /* NDJSON line numbers */
	uint32_t *best_lines;     /* moves that get a best line */
	size_t nbest;
	uint32_t lines;
	struct history h;
	xq_position *before, *after; /* the walk's positions */
};

static void report(struct run *r, uint32_t node, uint32_t ply, int sev, const char *code,
		   const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;
static void report(struct run *r, uint32_t node, uint32_t ply, int sev, const char *code,
		   const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (diag_job_node(r->j, node, ply, sev, code, "%s", msg))
		r->oom = 1;
}

void annotator_warning(const xq_diagnostic *d, void *user)
{
	struct annotator *a = user;

	if (!a->cur_job)
		return;
	if (diag_job_node(a->cur_job, a->cur_node, a->cur_ply, xq_diagnostic_severity(d),
			  xq_diagnostic_code(d), "%s", xq_diagnostic_message(d)))
		a->oom = 1;
}

/* The analyser's reason for a failure (a diagnostic callback). */
static void note_failure(const xq_diagnostic *d, void *user)
{
	struct failure *f = user;
	const char *code = xq_diagnostic_code(d);

	f->code = code && strcmp(code, "none") ? code : NULL;
	snprintf(f->msg, sizeof(f->msg), "%s", xq_diagnostic_message(d));
}

static int stopped(const struct run *r)
{
	return r->s->stop && xq_cancel_is_set(r->s->stop);
}

/* Restart the engine after a failure; 0 when it runs again. */
static int restart(struct run *r, uint32_t node, uint32_t ply)
{
	struct failure f = {NULL, ""};

	if (xq_analyser_restart(r->a->an, note_failure, &f) == 0) {
		r->a->restart_failures = 0;
		return 0;
	}
	if (stopped(r))
		return -1;
	r->a->restart_failures++;
	if (r->a->restart_failures >= ANNOTATE_MAX_RESTART_FAILURES)
		r->a->lost = 1;
	report(r, node, ply, XQ_SEVERITY_ERROR, "engine",
	       "the engine could not be restarted, so the rest of this game is not analysed: %s",
	       f.msg);
	return -1;
}

/* The analysis of the position after `node` (ply `ply`) failed with `rc`
 * as `f` says: report it, restart the engine, give up on the game. */
static void failed(struct run *r, uint32_t node, uint32_t ply, int rc, const struct failure *f)
{
	const char *code = f->code ? f->code : "engine";

	if (!r->first_code)
		r->first_code = code;
	if (rc != XQ_EENGINE) {
		/* Refused before reaching the engine: the same reason will hold
		 * for the next positions, so say it once. */
		if (r->refused++ == 0)
			report(r, node, ply, XQ_SEVERITY_ERROR, code, "%s not analysed: %s",
			       ply ? "position" : "start position", f->msg);
		return;
	}
	r->res->failures++;
	report(r, node, ply, XQ_SEVERITY_ERROR, "engine", "%s not analysed: %s",
	       ply ? "position" : "start position", f->msg);
	if (!xq_analyser_is_running(r->a->an) && restart(r, node, ply)) {
		r->halt = 1;
		return;
	}
	if (r->res->failures >= ANNOTATE_MAX_FAILURES) {
		report(r, node, ply, XQ_SEVERITY_ERROR, "engine",
		       "%d engine failures in this game: the rest of it is not analysed",
		       ANNOTATE_MAX_FAILURES);
		r->halt = 1;
	}
}

/* Note the move `m` at depth `d` of the walk (from `before` to `after`) in
 * the history.  0, or XQ_ENOMEM. */
static int history_step(struct history *h, size_t d, xq_move_code m, const xq_position *before,
			const xq_position *after)
{
	h->moves[d - 1] = m;
	h->since[d] = xq_position_piece(before, XQ_MOVE_CODE_TO(m)) ? (uint32_t)d : h->since[d - 1];
	if (d % HISTORY_MARK == 0) {
		size_t k = d / HISTORY_MARK;
		if (!h->marks[k] && !(h->marks[k] = xq_position_new()))
			return XQ_ENOMEM;
		xq_position_copy(h->marks[k], after);
	}
	return 0;
}

/* Where to hand the history of the position at depth `d` over from: a
 * depth with a kept position, at or before the first ply the analyser uses. */
static size_t history_from(const struct history *h, size_t d)
{
	size_t from = h->since[d];

	if (h->whole)
		return 0;
	if (h->windowed && d - from > SEARCH_LOOKBACK)
		from = d - SEARCH_LOOKBACK;
	return from / HISTORY_MARK * HISTORY_MARK;
}

/* Analyse the position after `node`, at depth `n` of the walk, `side` to move. */
static void analyse(struct run *r, uint32_t node, size_t n, int side)
{
	size_t from = n ? history_from(&r->h, n) : 0;
	const struct annotate_limit *l = &r->s->limit;
	struct failure f = {NULL, ""};
	int rc;

	if (r->halt)
		return;
	if (stopped(r)) {
		r->res->interrupted = 1;
		r->halt = 1;
		return;
	}
	r->a->cur_node = node;
	r->a->cur_ply = (uint32_t)n;
	r->side[node] = (uint8_t)side;
	r->an[node].size = sizeof(r->an[node]);
	rc = xq_analyser_run_line(r->a->an, r->h.marks[from / HISTORY_MARK], r->h.moves + from,
				  n - from, l->depth, l->nodes, l->movetime_ms, &r->an[node],
				  note_failure, &f);
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
	failed(r, node, (uint32_t)n, rc, &f);
}

/* ---- writing the annotation --------------------------------------------------- */

/* A score (kind XQ_EVAL_*, value) seen from the other side. */
static void negate(int *kind, int *score)
{
	if (*kind == XQ_EVAL_MATE)
		*kind = XQ_EVAL_MATED;
	else if (*kind == XQ_EVAL_MATED)
		*kind = XQ_EVAL_MATE;
	else
		*score = -*score;
}

/* The score of analysis `node` from red's point of view. */
static void red_score(const struct run *r, uint32_t node, int *kind, int *score)
{
	*kind = r->an[node].kind;
	*score = r->an[node].score;
	if (r->side[node])
		negate(kind, score);
}

static unsigned note_flags(const struct annotate_settings *s)
{
	return s->eval_command ? XQ_EVAL_NOTE_COMMAND : 0;
}

/* The score of the position `node` analysed (the score after the move
 * that led there). */
static size_t score_text(char *buf, size_t cap, const struct run *r, uint32_t node)
{
	int kind, score;

	red_score(r, node, &kind, &score);
	return xq_eval_note(buf, cap, kind, score, r->an[node].depth, note_flags(r->s));
}

/* The score after the best move of the position `node` analysed: the
 * same, except that a mate is one move nearer for the side that mates. */
static size_t best_score_text(char *buf, size_t cap, const struct run *r, uint32_t node)
{
	const xq_analysis_result *a = &r->an[node];
	int kind = a->kind, score = a->score; /* the mover's view */

	if (kind == XQ_EVAL_MATE && score > 0)
		score--;
	if (r->side[node])
		negate(&kind, &score);
	return xq_eval_note(buf, cap, kind, score, a->depth, note_flags(r->s));
}

/* What the mover lost: `before` analyses the position it moved from (it
 * is the side to move there), `after` the position its move reached. */
static int32_t loss_of(const xq_analysis_result *before, const xq_analysis_result *after)
{
	/* Both scores from the mover's view, measured as if red were moving. */
	int kind = after->kind, score = after->score;

	negate(&kind, &score);
	return xq_eval_loss(before->kind, before->score, kind, score, 0);
}

/* What the mover lost in expected score (hundredths of a percent). */
static int32_t drop_of(const xq_analysis_result *before, const xq_analysis_result *after, int scale)
{
	int kind = after->kind, score = after->score;

	negate(&kind, &score);
	return xq_eval_drop(before->kind, before->score, kind, score, 0, scale);
}

static const uint8_t mark_nag[MARK_COUNT] = {XQ_NAG_INACCURACY, XQ_NAG_MISTAKE,
						XQ_NAG_BLUNDER}; /* ?! ? ?? */
static const char *const mark_text[MARK_COUNT] = {"?!", "?", "??"};

static int mark_of(const struct annotate_settings *s, int32_t loss)
{
	for (int m = MARK_COUNT - 1; m >= 0; m--)
		if (loss >= s->marks[m])
			return m;
	return -1;
}

static void json_move_list(struct xq_buf *b, const xq_move_code *pv, size_t n)
{
	xq_buf_addc(b, '[');
	for (size_t i = 0; i < n; i++) {
		char iccs[5];
		xq_move_code_iccs(pv[i], iccs);
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
			uint32_t line, const xq_position *before, const int32_t loss[2], int mark,
			int with_pv)
{
	xq_record *g = r->g;
	uint32_t p = xq_record_node_parent(g, node);
	xq_move_code move = xq_record_node_move(g, node);
	const xq_analysis_result *an = r->an;
	char text[XQ_MOVE_TEXT_SIZE], iccs[5];

	xq_buf_adds(b, "{\"schema\":\"" ANNOTATE_EVAL_SCHEMA "\",\"file\":");
	report_add_json_safe(b, r->file);
	xq_buf_addf(b, ",\"game\":%llu,\"ply\":%u", (unsigned long long)xq_record_number(g), ply);
	if (r->s->variations)
		xq_buf_addf(b, ",\"line\":%u", line);
	xq_move_code_iccs(move, iccs);
	xq_buf_addf(b, ",\"move_number\":%d,\"side\":\"%s\",\"iccs\":\"%.4s\"",
		    xq_position_move_number(before), xq_position_side(before) ? "black" : "red", iccs);
	if (xq_position_move_text(before, move, r->s->mt.notation, r->s->mt.flags, text, sizeof(text)))
		json_text(b, "move", text);
	if (r->state[node] == 1) {
		char st[XQ_EVAL_NOTE_SIZE];
		int kind, score;
		red_score(r, node, &kind, &score);
		xq_eval_note(st, sizeof(st), kind, score, 0, XQ_EVAL_NOTE_NO_DEPTH);
		xq_buf_addf(b, ",\"score\":\"%s\"", st);
		if (kind == XQ_EVAL_CP)
			xq_buf_addf(b, ",\"cp\":%ld", (long)score);
		else
			xq_buf_addf(b, ",\"mate\":%ld,\"mating\":\"%s\"", (long)score,
				    kind == XQ_EVAL_MATE ? "red" : "black");
		if (!an[node].no_moves)
			xq_buf_addf(b, ",\"depth\":%d", an[node].depth);
	} else {
		xq_buf_adds(b, ",\"analysed\":false");
	}
	if (loss[0] >= 0)
		xq_buf_addf(b, ",\"loss\":%ld,\"drop\":%ld", (long)loss[0], (long)loss[1]);
	if (mark >= 0)
		xq_buf_addf(b, ",\"nag\":\"%s\"", mark_text[mark]);
	if (r->state[p] == 1 && an[p].best) {
		xq_move_code_iccs(an[p].best, iccs);
		xq_buf_addf(b, ",\"best\":\"%.4s\"", iccs);
		if (xq_position_move_text(before, an[p].best, r->s->mt.notation, r->s->mt.flags, text,
					  sizeof(text)))
			json_text(b, "best_move", text);
		if (with_pv) {
			xq_buf_adds(b, ",\"pv\":");
			json_move_list(b, an[p].pv, an[p].pv_len);
		}
	}
	xq_buf_adds(b, "}\n");
}

/* Add the best line of the position before `node` as its last alternative. */
static int add_best_line(struct run *r, uint32_t node)
{
	xq_record *g = r->g;
	uint32_t parent = xq_record_node_parent(g, node), prev = parent;
	const xq_analysis_result *before = &r->an[parent];
	char st[XQ_EVAL_NOTE_SIZE];
	int rc;

	for (size_t i = 0; i < before->pv_len; i++) {
		uint32_t idx;
		rc = xq_record_add_move(g, prev, before->pv[i], &idx);
		if (rc == XQ_EILLEGAL)
			break; /* never happens with analysers that check their lines */
		if (rc)
			return rc;
		if (i == 0) {
			best_score_text(st, sizeof(st), r, parent);
			if ((rc = xq_record_set_comment(g, idx, st)))
				return rc;
		}
		prev = idx;
	}
	return 0;
}

static int set_tag_num(xq_record *g, const char *side, const char *what, uint64_t v)
{
	char name[40], value[24];

	snprintf(name, sizeof(name), "%s%s", side, what);
	snprintf(value, sizeof(value), "%llu", (unsigned long long)v);
	return xq_record_set_tag(g, name, value);
}

static uint64_t average(const struct annotate_side *s)
{
	return s->moves ? (s->loss + s->moves / 2) / s->moves : 0;
}

static int write_tags(xq_record *g, const struct annotate_result *res, const char *marker)
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
			xq_record_remove_tags(g, name, 0);
		for (int m = 0; m < MARK_COUNT && !rc; m++)
			rc = set_tag_num(g, side_name[s], what[m], res->side[s].marks[m]);
	}
	return rc ? rc : xq_record_set_tag(g, ANNOTATE_MARKER_TAG, marker);
}

static void game_record(struct run *r, struct xq_buf *b, const char *marker)
{
	static const char *const side_key[2] = {"red", "black"};
	const struct annotate_result *res = r->res;

	xq_buf_adds(b, "{\"schema\":\"" ANNOTATE_GAME_SCHEMA "\",\"file\":");
	report_add_json_safe(b, r->file);
	xq_buf_addf(b, ",\"game\":%llu,\"marker\":", (unsigned long long)xq_record_number(r->g));
	report_add_json_safe(b, marker);
	json_text(b, "engine", r->s->engine);
	xq_buf_addf(b, ",\"plies\":%u,\"positions\":%u,\"analysed\":%u,\"complete\":%s",
		    xq_record_mainline_length(r->g), res->positions, res->analysed,
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
	xq_record *g = r->g;
	size_t n0 = xq_record_node_count(g);
	char fen[XQ_FEN_SIZE];
	xq_position *probe;

	r->an = calloc(n0, sizeof(*r->an));
	r->side = calloc(n0, 1);
	r->state = calloc(n0, 1);
	r->main_line = calloc(n0, 1);
	r->line = calloc(n0, sizeof(*r->line));
	r->best_lines = malloc(n0 * sizeof(*r->best_lines));
	r->h.moves = malloc(n0 * sizeof(*r->h.moves));
	r->h.since = calloc(n0 + 1, sizeof(*r->h.since));
	r->h.nmarks = n0 / HISTORY_MARK + 1;
	r->h.marks = calloc(r->h.nmarks, sizeof(*r->h.marks));
	r->before = xq_position_new();
	r->after = xq_position_new();
	if (!r->an || !r->side || !r->state || !r->main_line || !r->line || !r->best_lines ||
	    !r->h.moves || !r->h.since || !r->h.marks || !r->before || !r->after ||
	    !(r->h.marks[0] = xq_position_new()))
		return XQ_ENOMEM;
	for (uint32_t n = XQ_ROOT_NODE; n != XQ_NO_NODE; n = xq_record_node_child(g, n))
		r->main_line[n] = 1;
	xq_record_node_position(g, XQ_ROOT_NODE, r->h.marks[0]);
	/* A start the analyser refuses (checked as it checks one). */
	if (!(probe = xq_position_new()))
		return XQ_ENOMEM;
	r->h.whole = !xq_record_start_fen(g, fen, sizeof(fen)) ||
		     xq_position_set_fen_lenient(probe, fen) != 0;
	xq_position_free(probe);
	r->h.windowed = r->a->builtin;
	return 0;
}

static void run_free(struct run *r)
{
	free(r->an);
	free(r->side);
	free(r->state);
	free(r->main_line);
	free(r->line);
	free(r->best_lines);
	free(r->h.moves);
	free(r->h.since);
	for (size_t k = 0; r->h.marks && k < r->h.nmarks; k++)
		xq_position_free(r->h.marks[k]);
	free(r->h.marks);
	xq_position_free(r->before);
	xq_position_free(r->after);
}

/* The positions before and after the walk's node, into r->before and
 * r->after. */
static void walk_positions(struct run *r, const struct record_walk *w)
{
	xq_record_node_position(r->g, xq_record_node_parent(r->g, w->node), r->before);
	xq_record_node_position(r->g, w->node, r->after);
}

/* Pass 1: analyse every position to annotate.  0, or XQ_ENOMEM. */
static int pass_analyse(struct run *r)
{
	struct record_walk w;

	r->res->positions = 1;
	analyse(r, XQ_ROOT_NODE, 0, xq_position_side(r->h.marks[0]));
	record_walk_init(&w, r->g);
	while (record_walk_next(&w)) {
		walk_positions(r, &w);
		if (history_step(&r->h, w.depth, xq_record_node_move(r->g, w.node), r->before,
				 r->after))
			return XQ_ENOMEM;
		if (!r->s->variations && !r->main_line[w.node])
			continue;
		r->res->positions++;
		analyse(r, w.node, w.depth, xq_position_side(r->after));
		if (r->res->interrupted || r->oom)
			break;
	}
	return r->oom ? XQ_ENOMEM : 0;
}

/* Pass 2, one move: its score, loss, mark and record.  0 or XQ_ENOMEM. */
static int mark_move(struct run *r, const struct record_walk *w, struct xq_buf *ndjson)
{
	xq_record *g = r->g;
	const struct annotate_settings *s = r->s;
	const xq_analysis_result *an = r->an;
	uint32_t node = w->node, p = xq_record_node_parent(g, node);
	xq_move_code move = xq_record_node_move(g, node);
	int32_t loss[2] = {-1, -1}; /* centipawns, expected score */
	int mark = -1, with_pv = 0, rc;

	r->line[node] = xq_record_node_child(g, p) == node ? r->line[p] : ++r->lines;
	if (r->state[node] == 1) {
		char st[XQ_EVAL_NOTE_SIZE];
		const char *old = xq_record_node_comment(g, node);
		score_text(st, sizeof(st), r, node);
		if (old) {
			struct xq_buf both = XQ_BUF_INIT;
			xq_buf_addf(&both, "%s %s", old, st);
			rc = xq_buf_error(&both) ? XQ_ENOMEM : xq_record_set_comment(g, node, both.ptr);
			xq_buf_release(&both);
		} else {
			rc = xq_record_set_comment(g, node, st);
		}
		if (rc)
			return rc;
	}
	if (r->state[node] == 1 && r->state[p] == 1) {
		struct annotate_side *sd = &r->res->side[xq_position_side(r->before)];
		/* The engine's own choice loses nothing, whatever the two
		 * searches (one ply apart) say. */
		loss[0] = an[p].best == move ? 0 : loss_of(&an[p], &an[node]);
		loss[1] = an[p].best == move ? 0 : drop_of(&an[p], &an[node], s->scale);
		mark = mark_of(s, loss[s->by_cp ? 0 : 1]);
		if (mark >= 0 && (rc = xq_record_add_nag(g, node, mark_nag[mark])))
			return rc;
		if (r->main_line[node]) {
			sd->moves++;
			sd->loss += (uint64_t)loss[0];
			if (mark >= 0)
				sd->marks[mark]++;
		}
		if (s->pv_threshold >= 0 && loss[0] >= s->pv_threshold && an[p].pv_len &&
		    an[p].best != move) {
			with_pv = 1;
			r->best_lines[r->nbest++] = node;
		}
	}
	if (ndjson)
		eval_record(r, ndjson, node, (uint32_t)w->depth, r->line[node], r->before, loss, mark,
			    with_pv);
	return 0;
}

/* Pass 2: scores, losses, marks, records.  0 or XQ_ENOMEM. */
static int pass_mark(struct run *r, struct xq_buf *ndjson)
{
	struct record_walk w;
	int rc;

	record_walk_init(&w, r->g);
	while (record_walk_next(&w)) {
		if (!r->s->variations && !r->main_line[w.node])
			continue;
		walk_positions(r, &w);
		if ((rc = mark_move(r, &w, ndjson)))
			return rc;
	}
	return 0;
}

/* Pass 3: best lines as variations, then the tags and the game's record.
 * 0 or XQ_ENOMEM. */
static int pass_finish(struct run *r, uint64_t fingerprint, struct xq_buf *ndjson)
{
	xq_record *g = r->g;
	struct annotate_result *res = r->res;
	struct xq_buf marker = XQ_BUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < r->nbest && !rc; i++)
		rc = add_best_line(r, r->best_lines[i]);
	if (rc)
		return rc;
	if (!res->complete)
		report(r, XQ_ROOT_NODE, 0, XQ_SEVERITY_WARNING,
		       r->first_code ? r->first_code : "engine",
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

int annotate_game(struct annotator *a, const struct annotate_settings *s, xq_batch_job *j,
		  uint64_t fingerprint, struct xq_buf *ndjson, struct annotate_result *res)
{
	struct run r;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&r, 0, sizeof(r));
	r.a = a;
	r.s = s;
	r.j = j;
	r.g = j->record;
	r.file = j->file->name;
	r.res = res;
	if ((rc = run_alloc(&r)))
		goto out;
	a->cur_job = j;
	a->cur_node = XQ_ROOT_NODE;
	a->cur_ply = 0;
	a->oom = 0;
	/* An engine that could not be restarted after the last game gets
	 * another chance now. */
	if (!xq_analyser_is_running(a->an) && !a->lost && restart(&r, XQ_ROOT_NODE, 0))
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
	a->cur_job = NULL;
	run_free(&r);
	return rc;
}
