/*
 * rules_track.c: the rules inside a search (rules.h, struct
 * xqi_rules_track): a stack of the positions of the current line, pushed
 * and popped at every node, that a probe asks whether the position is a
 * repetition the rules decide or at the natural limit.  Stands on the
 * history's entries (rules_int.h: one step, inline, for push) and on the
 * judge (rules_judge.c), so its verdicts are the report's.  This is on
 * the built-in engine's hot path: push, pop and the usual probe are a few
 * stores and one table lookup.
 */
#include "rules_int.h"

#include <stdlib.h>

#define FILTER_INDEX(key) ((size_t)((key) & (XQI_RULES_FILTER_SIZE - 1)))

int xqi_rules_track_init(struct xqi_rules_track *t, const struct xqi_position *start, size_t capacity,
			const struct xqi_rules_options *o)
{
	memset(t, 0, sizeof(*t));
	t->opt = o ? *o : xqi_rules_default_options;
	t->e = malloc((capacity + 1) * sizeof(*t->e));
	if (!t->e)
		return XQ_ENOMEM;
	t->cap = capacity + 1;
	xqi_rules_track_reset(t, start);
	return 0;
}

void xqi_rules_track_release(struct xqi_rules_track *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}

/* Entry j (key set) becomes the latest of its bucket. */
static void track_link(struct xqi_rules_track *t, size_t j)
{
	uint32_t *last = &t->last_in_bucket[FILTER_INDEX(t->e[j].key)];

	t->e[j].prev_in_bucket = *last;
	*last = (uint32_t)j;
}

void xqi_rules_track_reset(struct xqi_rules_track *t, const struct xqi_position *start)
{
	memset(t->last_in_bucket, 0xFF, sizeof(t->last_in_bucket));
	xqi_rules_history_start(&t->e[0], start);
	track_link(t, 0);
	t->n = 1;
	t->root = 0;
}

int xqi_rules_track_push_check(struct xqi_rules_track *t, const struct xqi_position *after, xqi_move m,
			      const struct xqi_undo *u, int check)
{
	struct xqi_rules_entry *cur;

	if (t->n >= t->cap)
		return XQ_ERANGE;
	cur = &t->e[t->n];
	cur->key = after->key;
	cur->undo = *u;
	cur->move = m;
	xqi_rules_history_step(&t->opt, &t->e[t->n - 1], cur, after->side ^ 1, check != 0);
	track_link(t, t->n);
	t->n++;
	return 0;
}

int xqi_rules_track_push(struct xqi_rules_track *t, const struct xqi_position *after, xqi_move m,
			const struct xqi_undo *u)
{
	return xqi_rules_track_push_check(t, after, m, u, xqi_position_in_check(after));
}

void xqi_rules_track_pop(struct xqi_rules_track *t)
{
	if (t->n <= 1)
		return;
	t->n--;
	t->last_in_bucket[FILTER_INDEX(t->e[t->n].key)] = t->e[t->n].prev_in_bucket;
	if (t->root >= t->n)
		t->root = t->n - 1;
}

void xqi_rules_track_set_root(struct xqi_rules_track *t)
{
	t->root = t->n - 1;
}

/* Did `side` check with every one of its moves in first+1..last? */
static int checked_throughout(const struct xqi_rules_entry *e, size_t first, size_t last, int side,
			      int first_mover)
{
	for (size_t k = first + 1; k <= last; k++)
		if (((int)((k - first - 1) & 1) ^ first_mover) == side && !e[k].check)
			return 0;
	return 1;
}

int xqi_rules_track_probe(const struct xqi_rules_track *t, const struct xqi_position *b,
			 struct xqi_rules_probe *out)
{
	size_t j = t->n - 1;
	const struct xqi_rules_entry *e = t->e;
	long match = -1;

	memset(out, 0, sizeof(*out));
	if (b->key != e[j].key)
		return XQ_EINTERNAL;
	if (e[j].window >= 4) {
		/* The latest earlier occurrence in the window at least 4 plies
		 * back; at or before the root, it counts only if the position
		 * occurred `need` times in the window (counting stops there).
		 * Only the keys of its bucket can be equal. */
		unsigned need = t->opt.search_repeats ? t->opt.search_repeats : 3, occ = 1;
		size_t low = j - e[j].window;
		for (uint32_t i = e[j].prev_in_bucket; i != XQI_RULES_NO_POS && i >= low;
		     i = e[i].prev_in_bucket) {
			if (e[i].key != e[j].key || j - i < 4 || ((j - i) & 1))
				continue;
			if (match < 0) {
				match = (long)i;
				if ((size_t)match > t->root)
					break; /* after the root: once is enough */
			}
			if (++occ >= need)
				break;
		}
		if (match >= 0 && (size_t)match <= t->root && occ < need)
			match = -1;
	}
	if (match >= 0) {
		size_t first = (size_t)match;
		int first_mover = b->side; /* the side to move at `first` moves first */
		int pc[2];
		out->first = (uint32_t)first;
		out->last = (uint32_t)j;
		for (int s = 0; s < 2; s++)
			pc[s] = checked_throughout(e, first, j, s, first_mover);
		if (pc[0] || pc[1]) {
			/* Perpetual check decides without looking at chases. */
			for (int s = 0; s < 2; s++)
				out->conduct[s] = pc[s] ? XQI_CONDUCT_PERPETUAL_CHECK
							: XQI_CONDUCT_ALLOWED;
			out->verdict = pc[0] && pc[1]  ? XQ_RULING_DRAW
				       : pc[XQI_RED] ? XQ_RULING_RED_LOSES
						    : XQ_RULING_BLACK_LOSES;
		} else {
			struct xqi_position w = *b;
			struct xqi_rules_side sides[2];
			out->verdict = (uint8_t)xqi_rules_judge_span(
				&w, e, first, j, t->opt.rules, t->opt.rules == XQ_RULESET_CHINESE, NULL,
				sides);
			for (int s = 0; s < 2; s++)
				out->conduct[s] = sides[s].conduct;
		}
		return 1;
	}
	if (t->opt.natural_limit && e[j].count >= t->opt.natural_limit) {
		out->verdict = XQ_RULING_DRAW;
		out->limit = 1;
		out->first = (uint32_t)(j - e[j].window);
		out->last = (uint32_t)j;
		return 1;
	}
	return 0;
}
