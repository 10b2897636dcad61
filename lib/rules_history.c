/*
 * rules_history.c: the history of a line.  Playing the moves gives each
 * position its entry (key, the undo to step back, whether the move
 * checked, the natural-limit count and the plies since the last capture:
 * xqi_rules_history_step() in rules_int.h, which the search track shares)
 * and the move limits reached on the way; the entries then give the runs
 * of repeated positions.  Stands on no other part of the rules module but
 * the default options (rules_int.h).
 */
#include "rules_int.h"

#include <stdlib.h>

#include "alloc.h"

/* ---- playing the line ----------------------------------------------------- */

int xqi_rules_add_limit(struct xqi_rules_report *r, uint8_t kind, uint32_t ply, uint32_t since,
			uint32_t limit)
{
	struct xqi_rules_limit_event *ev;

	if (XQ_ALLOC_GROW(r->limits, r->nlimits + 1, r->limits_alloc))
		return XQ_ENOMEM;
	ev = &r->limits[r->nlimits++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->ply = ply;
	ev->since = since;
	ev->limit = limit;
	return 0;
}

/* clubxiangqi's counts of progress and of plies in all, as the line goes. */
struct cxq_counts {
	uint32_t progress_since; /* the ply of the last capture or pawn step across the river */
	uint32_t total;          /* plies from the start of the game */
};

/* The limits reached on ply k (uncounted plies keep the count where it
 * is); `progress` says the move captured or stepped a crossed pawn on.
 * 0 or XQ_ENOMEM. */
static int limits_at(struct xqi_rules_report *r, const struct xqi_rules_entry *e, size_t k,
		     int progress, const struct xqi_rules_options *o, struct cxq_counts *x)
{
	if (o->natural_limit && e[k].count == o->natural_limit &&
	    e[k - 1].count < o->natural_limit &&
	    xqi_rules_add_limit(r, XQI_LIMIT_NATURAL, (uint32_t)k, (uint32_t)(k - e[k].window),
				o->natural_limit))
		return XQ_ENOMEM;
	if (!o->cxq)
		return 0;
	if (progress)
		x->progress_since = (uint32_t)k;
	if (o->cxq_progress && k - x->progress_since == o->cxq_progress &&
	    xqi_rules_add_limit(r, XQI_LIMIT_CXQ_PROGRESS, (uint32_t)k, x->progress_since,
				o->cxq_progress))
		return XQ_ENOMEM;
	if (o->cxq_total && ++x->total == o->cxq_total &&
	    xqi_rules_add_limit(r, XQI_LIMIT_CXQ_TOTAL, (uint32_t)k, 0, o->cxq_total))
		return XQ_ENOMEM;
	return 0;
}

/* Ply k's entry, its move `m` just made on `b`, and its ply of the report. */
static void record_ply(struct xqi_rules_report *r, struct xqi_rules_entry *e, size_t k,
		       const struct xqi_position *b, xqi_move m, int mover,
		       const struct xqi_rules_options *o)
{
	struct xqi_rules_ply *p = &r->plies[k - 1];

	e[k].move = m;
	e[k].key = b->key;
	xqi_rules_history_step(o, &e[k - 1], &e[k], mover, xqi_position_in_check(b));
	memset(p, 0, sizeof(*p));
	p->move = m;
	p->side = (uint8_t)mover;
	p->count = e[k].count;
	if (e[k].undo.captured)
		p->flags |= XQI_RULES_F_CAPTURE;
	if (e[k].check)
		p->flags |= XQI_RULES_F_CHECK;
	r->nplies = k;
}

int xqi_rules_history_play(struct xqi_rules_report *r, struct xqi_rules_entry *e,
			   struct xqi_position *b, const xqi_move *moves, size_t n,
			   const struct xqi_rules_options *o, struct xq_diagnostic *d)
{
	struct cxq_counts x = {0, (uint32_t)(b->fullmove > 0 ? b->fullmove - 1 : 0) * 2 +
					  (b->side == XQI_BLACK)};

	for (size_t k = 1; k <= n; k++) {
		xqi_move m = moves[k - 1];
		int mover = b->side;
		xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
		int pawn_advance;
		char name[5];

		if (xqi_move_check(b, m, d)) {
			if (d) {
				d->ply = (uint32_t)k;
				xqi_move_name(m, name);
				xqi_diagnostic_set_move(d, name, strlen(name));
			}
			return XQ_EILLEGAL;
		}
		pawn_advance = XQI_RULES_TYPE_OF_ID(b->sq[from]) == XQI_PAWN &&
			       xqi_rules_pawn_crossed(b->sq[from], from) &&
			       XQI_SQ_FILE(from) == XQI_SQ_FILE(to);
		xqi_position_make(b, m, &e[k].undo);
		record_ply(r, e, k, b, m, mover, o);
		if (limits_at(r, e, k, e[k].undo.captured || pawn_advance, o, &x))
			return XQ_ENOMEM;
	}
	return 0;
}

/* ---- repetition runs ---------------------------------------------------------- */

/*
 * Repetitions.  Position j repeats position i when i is in its window
 * (j - e[j].window <= i, so after the last capture: earlier positions
 * cannot return), at least 4 plies back (a cycle takes 4: each side must
 * move a piece away and back), with the same side to move and the same
 * key.  The latest such i is the match; the occurrences are those i and
 * j itself.  Both are found from chains of equal positions, one link per
 * position, instead of a scan back over the window at every ply, which
 * made a long line without captures quadratic (issue 14, finding 5).
 */

/* For xqi_rules_analyze(): the occurrences of each position still in the
 * window, a chain per key and side to move. */
struct rep_chain {
	uint64_t key;
	uint32_t oldest, latest; /* the first and last occurrence still in the window */
	uint32_t count;          /* occurrences from oldest to latest */
	uint8_t parity, used;
};

struct rep_index {
	struct rep_chain *t;
	size_t mask;
	uint32_t *prev, *next; /* per position: the occurrence before and after it */
	uint32_t *slots;       /* the slots of t in use (at most one per position) */
	size_t nslots;
};

static int rep_index_init(struct rep_index *x, size_t npos)
{
	size_t cap = 16;

	while (cap < 2 * npos)
		cap *= 2;
	x->mask = cap - 1;
	x->t = calloc(cap, sizeof(*x->t));
	x->prev = malloc(npos * sizeof(*x->prev));
	x->next = malloc(npos * sizeof(*x->next));
	x->slots = malloc(npos * sizeof(*x->slots));
	x->nslots = 0;
	return x->t && x->prev && x->next && x->slots ? 0 : XQ_ENOMEM;
}

static void rep_index_release(struct rep_index *x)
{
	free(x->t);
	free(x->prev);
	free(x->next);
	free(x->slots);
}

/* After a capture no earlier position can return.  Only the slots in
 * use are emptied: clearing the whole table at every capture made a long
 * game cost its length times the captures. */
static void rep_index_clear(struct rep_index *x)
{
	for (size_t i = 0; i < x->nslots; i++)
		x->t[x->slots[i]].used = 0;
	x->nslots = 0;
}

static size_t rep_hash(uint64_t key, unsigned parity, size_t mask)
{
	return (size_t)((key ^ (key >> 32)) + parity) & mask;
}

static struct rep_chain *rep_chain_of(struct rep_index *x, uint64_t key, unsigned parity,
				      int create)
{
	for (size_t h = rep_hash(key, parity, x->mask);; h = (h + 1) & x->mask) {
		struct rep_chain *c = &x->t[h];
		if (!c->used) {
			if (!create)
				return NULL;
			memset(c, 0, sizeof(*c));
			c->used = 1;
			x->slots[x->nslots++] = (uint32_t)h;
			c->key = key;
			c->parity = (uint8_t)parity;
			return c;
		}
		if (c->key == key && c->parity == parity)
			return c;
	}
}

/*
 * The latest earlier occurrence of position `j` (its index in *match, or
 * -1) and how many times it has occurred in its window, counting itself.
 * Positions before j are in the index; j is not yet.
 */
static unsigned rep_find(struct rep_index *x, const struct xqi_rules_entry *e, size_t j,
			 long *match)
{
	struct rep_chain *c = rep_chain_of(x, e[j].key, (unsigned)(j & 1), 0);
	size_t low = j - e[j].window; /* grows with j until a capture clears the index */
	uint32_t latest, count;

	*match = -1;
	if (!c)
		return 1;
	while (c->count && c->oldest < low) {
		c->oldest = x->next[c->oldest];
		c->count--;
	}
	latest = c->latest;
	count = c->count;
	if (count && latest + 4 > j) {
		/* 2 plies back (only a key collision can do that): not a cycle. */
		latest = x->prev[latest];
		count--;
	}
	if (count)
		*match = (long)latest;
	return 1 + count;
}

static void rep_add(struct rep_index *x, const struct xqi_rules_entry *e, size_t j)
{
	struct rep_chain *c = rep_chain_of(x, e[j].key, (unsigned)(j & 1), 1);

	x->next[j] = XQI_RULES_NO_POS;
	if (c->count) {
		x->prev[j] = c->latest;
		x->next[c->latest] = (uint32_t)j;
	} else {
		x->prev[j] = XQI_RULES_NO_POS;
		c->oldest = (uint32_t)j;
	}
	c->latest = (uint32_t)j;
	c->count++;
}

static int add_cycle(struct xqi_rules_report *r, uint32_t first, uint32_t last, unsigned occ)
{
	struct xqi_rules_cycle *c;

	if (XQ_ALLOC_GROW(r->cycles, r->ncycles + 1, r->cycles_alloc))
		return XQ_ENOMEM;
	c = &r->cycles[r->ncycles++];
	memset(c, 0, sizeof(*c));
	c->first = first;
	c->last = last;
	c->period = last - first;
	c->repeats = occ;
	return 0;
}

int xqi_rules_history_cycles(struct xqi_rules_report *r, const struct xqi_rules_entry *e)
{
	struct rep_index rx;
	int rc = 0;

	if (rep_index_init(&rx, r->nplies + 1)) {
		rep_index_release(&rx);
		return XQ_ENOMEM;
	}
	rep_add(&rx, e, 0);
	for (size_t j = 1; j <= r->nplies && !rc; j++) {
		long match;
		unsigned occ;
		struct xqi_rules_cycle *c = r->ncycles ? &r->cycles[r->ncycles - 1] : NULL;

		if (e[j].window == 0)
			rep_index_clear(&rx); /* a capture */
		occ = rep_find(&rx, e, j, &match);
		rep_add(&rx, e, j);
		if (match < 0)
			continue;
		if (c && c->last == j - 1 && c->period == j - (size_t)match) {
			c->last = (uint32_t)j;
			if (occ > c->repeats)
				c->repeats = occ;
		} else {
			rc = add_cycle(r, (uint32_t)match, (uint32_t)j, occ);
		}
	}
	rep_index_release(&rx);
	return rc;
}
