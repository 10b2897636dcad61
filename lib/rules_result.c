/*
 * rules_result.c: does a line's recorded result agree with the rules
 * (rules.h, xqi_rules_check_result())?  The report of the line (rules.c)
 * says whether it ends in a repetition or reaches a move limit, and
 * rules_text.c gives the deciding cycle in words.  Also the cheap walk
 * that tells when there is nothing to rule on (xqi_rules_could_apply()).
 */
#include "rules_int.h"

#include <stdio.h>
#include <stdlib.h>

#include "tables.h"

static enum xq_ruling result_verdict(enum xqi_result res)
{
	switch (res) {
	case XQI_RESULT_RED_WIN:
		return XQ_RULING_BLACK_LOSES;
	case XQI_RESULT_BLACK_WIN:
		return XQ_RULING_RED_LOSES;
	case XQI_RESULT_DRAW:
		return XQ_RULING_DRAW;
	default:
		return XQ_RULING_NONE;
	}
}

/* The moves of one period of the cycle, "h2e2 h9g7 e2h2 g7h9", in `s`. */
static void cycle_moves(const struct xqi_rules_report *r, const struct xqi_rules_cycle *c, char *s,
			size_t cap)
{
	size_t len = 0;

	s[0] = '\0';
	for (uint32_t k = c->first + 1; k <= c->first + c->period && k <= c->last; k++) {
		char name[5];
		if (len + 6 >= cap) {
			if (len + 4 < cap)
				memcpy(s + len, "...", 4);
			return;
		}
		xqi_move_name(r->plies[k - 1].move, name);
		if (len)
			s[len++] = ' ';
		memcpy(s + len, name, 5);
		len += 4;
	}
}

static void conduct_phrase(const struct xqi_rules_side *s, int side, char *buf, size_t cap)
{
	char sq[3];

	switch (s->conduct) {
	case XQI_CONDUCT_PERPETUAL_CHECK:
		snprintf(buf, cap, "%s checks every move", xqi_rules_side_name(side));
		break;
	case XQI_CONDUCT_PERPETUAL_CHASE:
		if (s->target_id && xqi_on_board(s->target_sq)) {
			xqi_sq_name(s->target_sq, sq);
			snprintf(buf, cap, "%s chases the %s on %s every move", xqi_rules_side_name(side),
				 xqi_rules_type_name(XQI_KIND_TYPE(s->target_kind)), sq);
		} else {
			snprintf(buf, cap, "%s chases every move", xqi_rules_side_name(side));
		}
		break;
	case XQI_CONDUCT_PERPETUAL_KILL:
		snprintf(buf, cap, "%s threatens mate every move", xqi_rules_side_name(side));
		break;
	case XQI_CONDUCT_FORBIDDEN_MIX:
		snprintf(buf, cap, "%s attacks every move", xqi_rules_side_name(side));
		break;
	default:
		snprintf(buf, cap, "%s's moves are allowed", xqi_rules_side_name(side));
		break;
	}
}

static void set_place(struct xq_diagnostic *d, const struct xqi_rules_report *r, uint32_t ply)
{
	char name[5];

	if (!d || ply < 1 || ply > r->nplies)
		return;
	d->ply = ply;
	xqi_move_name(r->plies[ply - 1].move, name);
	xqi_diagnostic_set_move(d, name, strlen(name));
}

/* Judge the cycle that ends the line against the recorded result. */
static enum xqi_rules_support check_cycle(const struct xqi_rules_report *r,
					 const struct xqi_rules_cycle *c, enum xqi_result res,
					 struct xq_diagnostic *d)
{
	enum xq_ruling want = result_verdict(res);
	enum xqi_rules_support st;
	enum xqi_diagnostic_code code = XQI_D_REPETITION;
	enum xq_severity_level sev;
	char moves[64], red[80], black[80];
	const char *tail;

	if (c->verdict == XQ_RULING_RED_LOSES || c->verdict == XQ_RULING_BLACK_LOSES) {
		int loser = c->verdict == XQ_RULING_RED_LOSES ? XQI_RED : XQI_BLACK;
		code = c->side[loser].conduct == XQI_CONDUCT_PERPETUAL_CHECK ? XQI_D_PERPETUAL_CHECK
									     : XQI_D_PERPETUAL_CHASE;
	}
	if (c->verdict == want) {
		st = XQI_SUPPORT_CONFIRMED;
		sev = XQ_SEVERITY_NOTE;
		tail = "as recorded";
	} else if (want == XQ_RULING_NONE) {
		/* Nothing to contradict; say what the rules give. */
		st = XQI_SUPPORT_SILENT;
		sev = XQ_SEVERITY_NOTE;
		tail = "and the record gives no result";
	} else if (c->verdict == XQ_RULING_DRAW) {
		st = XQI_SUPPORT_DOUBTFUL;
		sev = XQ_SEVERITY_WARNING;
		tail = "but the result is";
	} else {
		st = XQI_SUPPORT_CONTRADICTED;
		sev = XQ_SEVERITY_ERROR;
		tail = "but the result is";
	}
	cycle_moves(r, c, moves, sizeof(moves));
	conduct_phrase(&c->side[XQI_RED], XQI_RED, red, sizeof(red));
	conduct_phrase(&c->side[XQI_BLACK], XQI_BLACK, black, sizeof(black));
	set_place(d, r, c->last);
	if (want != XQ_RULING_NONE && st != XQI_SUPPORT_CONFIRMED)
		xqi_diagnostic_set(d, 0, code, sev,
			    "plies %lu-%lu repeat (%s; %lu times): %s, %s: %s under %s rules, %s %s",
			    (unsigned long)c->first + 1, (unsigned long)c->last, moves,
			    (unsigned long)c->repeats, red, black,
			    xqi_rules_verdict_name((enum xq_ruling)c->verdict),
			    xqi_rules_set_name(r->rules), tail, xqi_result_string(res));
	else
		xqi_diagnostic_set(d, 0, code, sev,
			    "plies %lu-%lu repeat (%s; %lu times): %s, %s: %s under %s rules, %s",
			    (unsigned long)c->first + 1, (unsigned long)c->last, moves,
			    (unsigned long)c->repeats, red, black,
			    xqi_rules_verdict_name((enum xq_ruling)c->verdict),
			    xqi_rules_set_name(r->rules), tail);
	return st;
}

int xqi_rules_check_result(enum xqi_rules_support *out, const struct xqi_position *start,
			  const xqi_move *moves, size_t n, enum xqi_result result,
			  enum xqi_rules_claim claim, const struct xqi_rules_options *o,
			  struct xq_diagnostic *d, struct xq_buf *explain)
{
	struct xqi_rules_report r;
	const struct xqi_rules_cycle *c;
	const struct xqi_rules_limit_event *lim = NULL;
	enum xq_ruling want = result_verdict(result);
	int rc;

	if (!o)
		o = &xqi_rules_default_options;
	*out = XQI_SUPPORT_SILENT;
	xqi_rules_report_init(&r);
	rc = xqi_rules_analyze(&r, start, moves, n, o, d);
	if (rc)
		goto done;
	c = r.ncycles ? &r.cycles[r.ncycles - 1] : NULL;
	if (r.end != XQ_STATE_PLAYING)
		goto done; /* mate decides, not the rules of repetition */
	if (c && c->last == n && c->repeats >= (o->min_repeats ? o->min_repeats : 2)) {
		*out = check_cycle(&r, c, result, d);
		if (explain)
			rc = xqi_rules_describe_cycle(explain, &r, r.ncycles - 1);
		goto done;
	}
	for (size_t i = 0; i < r.nlimits; i++)
		if (!r.limits[i].mate && (!lim || r.limits[i].ply < lim->ply))
			lim = &r.limits[i];
	if (lim) {
		char what[96];
		snprintf(what, sizeof(what), "%s of %lu plies is reached at ply %lu",
			 xqi_rules_limit_name(lim->kind), (unsigned long)lim->limit, (unsigned long)lim->ply);
		set_place(d, &r, lim->ply);
		if (want == XQ_RULING_DRAW) {
			*out = XQI_SUPPORT_CONFIRMED;
			xqi_diagnostic_set(d, 0, XQI_D_MOVE_LIMIT, XQ_SEVERITY_NOTE, "the %s: draw, as recorded",
				    what);
		} else if (want != XQ_RULING_NONE) {
			*out = XQI_SUPPORT_DOUBTFUL;
			xqi_diagnostic_set(d, 0, XQI_D_MOVE_LIMIT, XQ_SEVERITY_WARNING,
				    "the %s, which draws, but the game goes on to ply %lu and the "
				    "result is %s",
				    what, (unsigned long)n, xqi_result_string(result));
		}
		if (explain)
			rc = xqi_rules_describe_limit(explain, &r, (size_t)(lim - r.limits));
		if (claim != XQI_CLAIM_REPETITION || rc)
			goto done;
	}
	if (claim == XQI_CLAIM_REPETITION || (claim == XQI_CLAIM_MOVE_LIMIT && !lim)) {
		*out = XQI_SUPPORT_NOT_SHOWN;
		set_place(d, &r, (uint32_t)n);
		if (claim == XQI_CLAIM_MOVE_LIMIT)
			xqi_diagnostic_set(d, 0, XQI_D_MOVE_LIMIT, XQ_SEVERITY_ERROR,
				    "the result is claimed by a move limit, but no limit is reached "
				    "(%lu plies without capture at the end, the limit is %lu)",
				    (unsigned long)(n ? r.plies[n - 1].count : start->halfmove),
				    (unsigned long)o->natural_limit);
		else if (c)
			xqi_diagnostic_set(d, 0, XQI_D_REPETITION, XQ_SEVERITY_ERROR,
				    "the result is claimed by repetition, but the final position "
				    "does not repeat (the last repetition is plies %lu-%lu)",
				    (unsigned long)c->first + 1, (unsigned long)c->last);
		else
			xqi_diagnostic_set(d, 0, XQI_D_REPETITION, XQ_SEVERITY_ERROR,
				    "the result is claimed by repetition, but no position repeats");
	}
done:
	xqi_rules_report_release(&r);
	return rc;
}

int xqi_rules_could_apply(const struct xqi_record *g, const struct xqi_rules_options *o,
			 struct xqi_position *final)
{
	uint8_t sq[256];
	uint64_t key = g->start.key, keys[512];
	size_t nkeys = 0;
	unsigned run = g->start.halfmove, longest = run, black_moves = 0;
	int side = g->start.side, full = 0;

	/* The pieces on the squares and the key, move after move: what
	 * xqi_position_make() keeps beside them is set up once at the end. */
	memcpy(sq, g->start.sq, sizeof(sq));
	keys[nkeys++] = key;
	for (uint32_t n = g->nodes[XQI_ROOT].child; n != XQ_NO_NODE; n = g->nodes[n].child) {
		xqi_sq from = XQI_MOVE_FROM(g->nodes[n].move), to = XQI_MOVE_TO(g->nodes[n].move);
		uint8_t id = sq[from], cap = sq[to], kind = xqi_kind_of_id[id];
		key ^= xqi_zobrist[kind][from] ^ xqi_zobrist[kind][to] ^ xqi_zobrist_side;
		sq[from] = 0;
		sq[to] = id;
		if (cap) {
			key ^= xqi_zobrist[xqi_kind_of_id[cap]][to];
			run = 0;
			nkeys = 0; /* no position before a capture can come back */
		} else if (++run > longest) {
			longest = run;
		}
		black_moves += side == XQI_BLACK;
		side ^= 1;
		if (nkeys == sizeof(keys) / sizeof(keys[0]))
			full = 1; /* a long quiet stretch: let the rules look */
		else
			keys[nkeys++] = key;
	}
	xqi_position_clear(final);
	for (int row = 3; row <= 12; row++)
		for (int col = 3; col <= 11; col++) {
			xqi_sq s = (xqi_sq)(row << 4 | col);
			if (!sq[s])
				continue;
			final->sq[s] = sq[s];
			final->pc[sq[s]] = s;
			final->rank_bits[row] ^= (uint16_t)(1u << (col - 3));
			final->file_bits[col] ^= (uint16_t)(1u << (row - 3));
		}
	final->key = key;
	final->side = (uint8_t)side;
	final->halfmove = (uint16_t)run;
	final->fullmove = (uint16_t)(g->start.fullmove + black_moves);

	if (o->cxq || full)
		return 1;
	if (o->natural_limit && longest >= o->natural_limit)
		return 1;
	for (size_t i = 0; i + 1 < nkeys; i++)
		if (keys[i] == key)
			return 1;
	return 0;
}

int xqi_rules_check_game(enum xqi_rules_support *out, const struct xqi_record *g,
			enum xqi_rules_claim claim, const struct xqi_rules_options *o,
			struct xq_diagnostic *d, struct xq_buf *explain)
{
	xqi_move *moves;
	size_t n;
	int rc;

	*out = XQI_SUPPORT_SILENT;
	if (xqi_rules_game_line(g, xqi_record_mainline_end(g), &moves, &n))
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	rc = xqi_rules_check_result(out, &g->start, moves, n, g->result, claim, o, d, explain);
	free(moves);
	return rc;
}
