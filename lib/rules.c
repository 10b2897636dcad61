/*
 * rules.c: repetition cycles, the check/kill/chase/idle classification of
 * the moves in them, verdicts under the Asian and Chinese rule sets, move
 * limits, the check of a recorded result, and the incremental track a
 * search uses.  rules.h states the rules and where they come from.
 *
 * How a chase is found.  For a position and a side, the "attack map" lists
 * every enemy piece (not the king) that side could legally capture if it
 * were to move, each with the reason the attack counts as a chase or not
 * (protected, exchange offer, uncrossed pawn, ...).  A move chases the
 * pieces that count in the map after the move and did not count in the map
 * before it, with pieces followed by identity (position.h gives every piece
 * one), so a piece that runs away and is attacked again is the same piece.
 * This "whole map difference" is the approach Pikafish takes in chased();
 * Fairy-Stockfish instead looks only at attacks the move itself creates.
 * The difference catches discovered attacks, attacks made by pinning a
 * defender and attacks that exist only because the defender moved away.
 *
 * Protection is tested by playing the capture and asking whether the other
 * side has a legal capture back on that square, so pins, the flying
 * general and cannon screens that vanish with the capture all count.
 *
 * Both the batch analysis and the search track use one classifier
 * (classify_move) and one judge (struct judge), so a cycle gets the same
 * verdict wherever it is met.
 */
#include "rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "tables.h"
#include "utf8.h"

/* ---- names ---------------------------------------------------------------- */

const char *xqi_rules_set_name(enum xq_ruleset s)
{
	return s == XQ_RULESET_CHINESE ? "chinese" : "asian";
}

int xqi_rules_set_from_name(const char *name, enum xq_ruleset *out)
{
	static const struct {
		const char *name;
		enum xq_ruleset set;
	} names[] = {{"asian", XQ_RULESET_ASIAN},
		     {"axf", XQ_RULESET_ASIAN},
		     {"wxf", XQ_RULESET_ASIAN},
		     {"chinese", XQ_RULESET_CHINESE},
		     {"cxa", XQ_RULESET_CHINESE}};

	if (!name)
		return XQ_ENOTFOUND;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (xq_ascii_ieq(name, names[i].name)) {
			*out = names[i].set;
			return 0;
		}
	}
	return XQ_ENOTFOUND;
}

const char *xqi_rules_verdict_name(enum xq_ruling v)
{
	switch (v) {
	case XQ_RULING_DRAW:
		return "draw";
	case XQ_RULING_RED_LOSES:
		return "red loses";
	case XQ_RULING_BLACK_LOSES:
		return "black loses";
	default:
		return "none";
	}
}

enum xqi_result xqi_rules_verdict_result(enum xq_ruling v)
{
	switch (v) {
	case XQ_RULING_DRAW:
		return XQI_RESULT_DRAW;
	case XQ_RULING_RED_LOSES:
		return XQI_RESULT_BLACK_WIN;
	case XQ_RULING_BLACK_LOSES:
		return XQI_RESULT_RED_WIN;
	default:
		return XQI_RESULT_NONE;
	}
}

const char *xqi_rules_conduct_name(enum xqi_rules_conduct c)
{
	switch (c) {
	case XQI_CONDUCT_PERPETUAL_CHECK:
		return "perpetual check";
	case XQI_CONDUCT_PERPETUAL_CHASE:
		return "perpetual chase";
	case XQI_CONDUCT_PERPETUAL_KILL:
		return "perpetual mate threat";
	case XQI_CONDUCT_FORBIDDEN_MIX:
		return "attacks on every move";
	default:
		return "allowed";
	}
}

const char *xqi_rules_kind_name(enum xqi_rules_kind k)
{
	switch (k) {
	case XQI_RULES_IDLE:
		return "idle";
	case XQI_RULES_CHASE:
		return "chase";
	case XQI_RULES_KILL:
		return "kill";
	case XQI_RULES_CHECK:
		return "check";
	default:
		return "unclassified";
	}
}

const char *xqi_rules_why_text(enum xqi_rules_why w)
{
	switch (w) {
	case XQI_WHY_UNPROTECTED:
		return "it is unprotected";
	case XQI_WHY_ROOK_BY_MINOR:
		return "a horse or cannon chases a rook even when it is protected";
	case XQI_WHY_GAINS_MATERIAL:
		return "an advisor or elephant taking it gains material even when it is protected";
	case XQI_WHY_PROTECTED:
		return "it is protected, so this is not a chase";
	case XQI_WHY_EXCHANGE:
		return "it can take back: an exchange offer, not a chase";
	case XQI_WHY_UNCROSSED_PAWN:
		return "a pawn that has not crossed the river cannot be chased";
	case XQI_WHY_BY_KING:
		return "a king may attack for ever";
	case XQI_WHY_BY_PAWN:
		return "a pawn may attack for ever";
	case XQI_WHY_ALREADY:
		return "it was already chased before this move, so this is not a new chase";
	case XQI_WHY_CHECK:
		return "check";
	default:
		return "";
	}
}

const char *xqi_rules_support_name(enum xqi_rules_support s)
{
	switch (s) {
	case XQI_SUPPORT_CONFIRMED:
		return "confirmed";
	case XQI_SUPPORT_CONTRADICTED:
		return "contradicted";
	case XQI_SUPPORT_NOT_SHOWN:
		return "not-shown";
	case XQI_SUPPORT_DOUBTFUL:
		return "doubtful";
	default:
		return "silent";
	}
}

static const char *const type_names[XQI_PIECE_TYPES] = {"king",   "advisor", "elephant", "horse",
						       "rook",   "cannon",  "pawn"};

static const char *side_name(int side)
{
	return side == XQI_RED ? "red" : "black";
}

/* ---- the attack map ------------------------------------------------------- */

/* For each piece identity: the reason it is attacked (0 = it is not) and by
 * which piece.  Only the other side's pieces ever appear. */
struct amap {
	uint8_t why[48];
	uint8_t by[48];
};

#define TYPE_OF_ID(id) XQI_KIND_TYPE(xqi_kind_of_id[(id)])

/* Has the pawn `id` on `sq` crossed the river? */
static int pawn_crossed(int id, xqi_sq sq)
{
	return XQI_SQ_SIDE_HALF(sq) != XQI_ID_SIDE(id);
}

/* Can the side to move legally capture on `to` (optionally only from `from`)? */
static int can_capture_on(struct xqi_position *w, xqi_sq to, xqi_sq from)
{
	xqi_move caps[XQ_MOVES_MAX];
	int n = xqi_gen_pseudo_captures(w, caps);

	for (int i = 0; i < n; i++)
		if (XQI_MOVE_TO(caps[i]) == to && (!from || XQI_MOVE_FROM(caps[i]) == from) &&
		    xqi_move_keeps_king_safe(w, caps[i]))
			return 1;
	return 0;
}

/*
 * Why the legal capture `cap` (side to move in `w` takes a piece that is
 * not the king) counts as a chase or not.  `w` is restored.
 */
static uint8_t attack_reason(struct xqi_position *w, xqi_move cap, enum xq_ruleset rules)
{
	xqi_sq from = XQI_MOVE_FROM(cap), to = XQI_MOVE_TO(cap);
	int a = TYPE_OF_ID(w->sq[from]), tid = w->sq[to], t = TYPE_OF_ID(tid);
	struct xqi_undo u;
	int protected_, back;

	if (a == XQI_KING)
		return XQI_WHY_BY_KING;
	if (a == XQI_PAWN)
		return XQI_WHY_BY_PAWN;
	if (t == XQI_PAWN && !pawn_crossed(tid, to))
		return XQI_WHY_UNCROSSED_PAWN;
	if ((a == XQI_HORSE || a == XQI_CANNON) && t == XQI_ROOK)
		return XQI_WHY_ROOK_BY_MINOR;
	if (rules == XQ_RULESET_CHINESE && (a == XQI_ADVISOR || a == XQI_ELEPHANT) &&
	    (t == XQI_HORSE || t == XQI_ROOK || t == XQI_CANNON))
		return XQI_WHY_GAINS_MATERIAL;

	xqi_position_make(w, cap, &u);
	protected_ = can_capture_on(w, to, 0);
	xqi_position_unmake(w, cap, &u);
	if (protected_)
		return XQI_WHY_PROTECTED;
	if (a == t) {
		/* The same kind of piece attacked back: an exchange offer, unless it
		 * cannot take back (a blocked horse leg, a pin). */
		xqi_position_make_null(w, &u);
		back = can_capture_on(w, from, to);
		xqi_position_unmake_null(w, &u);
		if (back)
			return XQI_WHY_EXCHANGE;
	}
	return XQI_WHY_UNPROTECTED;
}

/*
 * The attack map of `side` in `pos` (as if `side` were to move).  With
 * `pseudo`, captures count even when they would leave the king attacked:
 * that is how the attacks "before" a move are seen when the mover is in
 * check, because then every capture but the checker's is illegal, and an
 * evasion would otherwise seem to create every attack it merely restores.
 */
static void attack_map(const struct xqi_position *pos, int side, enum xq_ruleset rules, int pseudo,
		       struct amap *m)
{
	struct xqi_position w = *pos;
	struct xqi_undo u;
	xqi_move caps[XQ_MOVES_MAX];
	int n;

	memset(m, 0, sizeof(*m));
	if (w.side != side)
		xqi_position_make_null(&w, &u);
	n = xqi_gen_pseudo_captures(&w, caps);
	for (int i = 0; i < n; i++) {
		xqi_sq from = XQI_MOVE_FROM(caps[i]), to = XQI_MOVE_TO(caps[i]);
		uint8_t tid = w.sq[to], why;

		if (TYPE_OF_ID(tid) == XQI_KING || (!pseudo && !xqi_move_keeps_king_safe(&w, caps[i])))
			continue;
		if (XQI_RULES_WHY_COUNTS(m->why[tid]))
			continue; /* already known to count */
		why = attack_reason(&w, caps[i], rules);
		if (!m->why[tid] || XQI_RULES_WHY_COUNTS(why)) {
			m->why[tid] = why;
			m->by[tid] = w.sq[from];
		}
	}
}

/* Bit of piece `id` in xqi_rules_ply.chased. */
#define ID_BIT(id) (1u << ((id) - 16))

/*
 * A checkmating move for `side` in `pos` if it were to move, or 0.  Only
 * checking moves are tried to the end.
 */
static xqi_move mate_in_one(const struct xqi_position *pos, int side)
{
	struct xqi_position w = *pos;
	struct xqi_undo u, nu;
	xqi_move moves[XQ_MOVES_MAX], replies[XQ_MOVES_MAX];
	int n;

	if (w.side != side) {
		/* A pass is only sensible when the other side is not in check. */
		if (xqi_position_in_check(&w))
			return 0;
		xqi_position_make_null(&w, &nu);
	}
	n = xqi_gen_legal(&w, moves);
	for (int i = 0; i < n; i++) {
		int mate;
		xqi_position_make(&w, moves[i], &u);
		/* (the side now to move was not in check before: w is a legal
		 * position, or it passed only when not in check) */
		mate = xqi_position_check_after(&w, moves[i]) && xqi_gen_legal(&w, replies) == 0;
		xqi_position_unmake(&w, moves[i], &u);
		if (mate)
			return moves[i];
	}
	return 0;
}

/* ---- classifying one move ------------------------------------------------- */

static void add_threat(struct xqi_rules_ply *p, const struct xqi_position *after, uint8_t attacker_id,
		       uint8_t target_id, uint8_t why)
{
	struct xqi_rules_threat *t;

	if (p->nthreats >= XQI_RULES_MAX_THREATS) {
		if (p->more < UINT8_MAX)
			p->more++;
		return;
	}
	t = &p->threats[p->nthreats++];
	t->attacker = after->pc[attacker_id];
	t->target = after->pc[target_id];
	t->attacker_kind = xqi_kind_of_id[attacker_id];
	t->target_kind = xqi_kind_of_id[target_id];
	t->target_id = target_id;
	t->why = why;
}

/* The pieces of `side` attacking the other king in `pos` (pseudo-legally:
 * a pinned piece still gives check). */
static void add_checkers(struct xqi_rules_ply *p, const struct xqi_position *pos, int side)
{
	struct xqi_position w = *pos;
	struct xqi_undo u;
	xqi_move caps[XQ_MOVES_MAX];
	xqi_sq king = pos->pc[XQI_SIDE_TAG(side ^ 1)];
	int n;

	if (w.side != side)
		xqi_position_make_null(&w, &u);
	n = xqi_gen_pseudo_captures(&w, caps);
	for (int i = 0; i < n; i++)
		if (XQI_MOVE_TO(caps[i]) == king)
			add_threat(p, pos, w.sq[XQI_MOVE_FROM(caps[i])], w.sq[king], XQI_WHY_CHECK);
	/* Kings facing each other cannot arise from a legal move, and every
	 * other check is a capture move of the checking piece. */
}

/*
 * Classify move `m`, legal in `before` (the mover is to move), into `p`
 * (whose move, side and count are kept).  `want_kill` asks for the mate
 * threat test, which only the Chinese verdict and explanations need.
 */
static void classify_move(const struct xqi_position *before, xqi_move m, enum xq_ruleset rules,
			  int want_kill, struct xqi_rules_ply *p)
{
	struct xqi_position after = *before;
	struct xqi_undo u;
	struct amap mb, ma;
	int mover = before->side, tag = XQI_SIDE_TAG(mover ^ 1);
	int evasion = xqi_position_in_check(before);

	p->kind = XQI_RULES_IDLE;
	p->flags &= XQI_RULES_F_CAPTURE;
	p->nthreats = 0;
	p->more = 0;
	p->chased = 0;
	p->mate = 0;

	attack_map(before, mover, rules, evasion, &mb);
	xqi_position_make(&after, m, &u);
	attack_map(&after, mover, rules, 0, &ma);

	if (xqi_position_in_check(&after)) {
		p->flags |= XQI_RULES_F_CHECK;
		add_checkers(p, &after, mover);
	}
	for (int id = tag; id < tag + 16; id++)
		if (XQI_RULES_WHY_COUNTS(ma.why[id]) && !XQI_RULES_WHY_COUNTS(mb.why[id])) {
			p->chased |= ID_BIT(id);
			add_threat(p, &after, ma.by[id], (uint8_t)id, ma.why[id]);
		}
	for (int id = tag; id < tag + 16; id++)
		if (XQI_RULES_WHY_COUNTS(ma.why[id]) && XQI_RULES_WHY_COUNTS(mb.why[id]))
			add_threat(p, &after, ma.by[id], (uint8_t)id, XQI_WHY_ALREADY);
	for (int id = tag; id < tag + 16; id++)
		if (ma.why[id] && !XQI_RULES_WHY_COUNTS(ma.why[id]) && !mb.why[id])
			add_threat(p, &after, ma.by[id], (uint8_t)id, ma.why[id]);
	if (p->chased)
		p->flags |= XQI_RULES_F_CHASE;

	/* An evasion is not a kill: the mate it threatens could not be seen
	 * before only because of the check (the same reason as `pseudo`). */
	if (want_kill && !evasion && !(p->flags & XQI_RULES_F_CHECK)) {
		xqi_move mate = mate_in_one(&after, mover);
		if (mate && !mate_in_one(before, mover)) {
			p->mate = mate;
			p->flags |= XQI_RULES_F_KILL;
		}
	}

	if (p->flags & XQI_RULES_F_CHECK)
		p->kind = XQI_RULES_CHECK;
	else if (p->flags & XQI_RULES_F_KILL)
		p->kind = XQI_RULES_KILL;
	else if (p->flags & XQI_RULES_F_CHASE)
		p->kind = XQI_RULES_CHASE;
}

/* ---- judging a cycle ---------------------------------------------------------- */

/* What the judge accumulates over the moves of one side. */
struct judge_side {
	uint16_t moves, checks, kills, chases, idles;
	uint32_t common; /* pieces newly chased by every move */
	int attacking;   /* every move so far is a check, kill or chase */
};

struct judge {
	enum xq_ruleset rules;
	struct judge_side s[2];
};

static void judge_init(struct judge *j, enum xq_ruleset rules)
{
	memset(j, 0, sizeof(*j));
	j->rules = rules;
	for (int i = 0; i < 2; i++) {
		j->s[i].common = UINT32_MAX;
		j->s[i].attacking = 1;
	}
}

static void judge_add(struct judge *j, const struct xqi_rules_ply *p)
{
	struct judge_side *s = &j->s[p->side];

	s->moves++;
	switch (p->kind) {
	case XQI_RULES_CHECK:
		s->checks++;
		break;
	case XQI_RULES_KILL:
		s->kills++;
		break;
	case XQI_RULES_CHASE:
		s->chases++;
		break;
	default:
		s->idles++;
		s->attacking = 0;
		break;
	}
	s->common &= p->chased;
}

/* Each side's conduct, and the verdict. */
static enum xq_ruling judge_finish(const struct judge *j, struct xqi_rules_side out[2])
{
	int pc[2], forbidden[2];

	for (int i = 0; i < 2; i++) {
		const struct judge_side *s = &j->s[i];
		struct xqi_rules_side *o = &out[i];

		memset(o, 0, sizeof(*o));
		o->moves = s->moves;
		o->checks = s->checks;
		o->kills = s->kills;
		o->chases = s->chases;
		o->idles = s->idles;
		if (s->moves && s->checks == s->moves)
			o->conduct = XQI_CONDUCT_PERPETUAL_CHECK;
		else if (!s->moves)
			o->conduct = XQI_CONDUCT_ALLOWED;
		else if (j->rules == XQ_RULESET_ASIAN) {
			if (s->common) {
				int id = 16;
				while (!(s->common & ID_BIT(id)))
					id++;
				o->conduct = XQI_CONDUCT_PERPETUAL_CHASE;
				o->target_id = (uint8_t)id;
				o->target_kind = xqi_kind_of_id[id];
			}
		} else if (s->attacking) {
			if (s->chases == s->moves)
				o->conduct = XQI_CONDUCT_PERPETUAL_CHASE;
			else if (s->kills == s->moves)
				o->conduct = XQI_CONDUCT_PERPETUAL_KILL;
			else
				o->conduct = XQI_CONDUCT_FORBIDDEN_MIX;
		}
		pc[i] = o->conduct == XQI_CONDUCT_PERPETUAL_CHECK;
		forbidden[i] = XQI_CONDUCT_FORBIDDEN(o->conduct);
	}
	if (pc[XQI_RED] != pc[XQI_BLACK])
		return pc[XQI_RED] ? XQ_RULING_RED_LOSES : XQ_RULING_BLACK_LOSES;
	if (!pc[XQI_RED] && forbidden[XQI_RED] != forbidden[XQI_BLACK])
		return forbidden[XQI_RED] ? XQ_RULING_RED_LOSES : XQ_RULING_BLACK_LOSES;
	return XQ_RULING_DRAW;
}

/* ---- the history of a line -------------------------------------------------- */

static const struct xqi_rules_options default_options = XQI_RULES_OPTIONS_INIT;

/* Fill entry `cur` for a move by `mover` after entry `prev` (key, move and
 * undo already set; `check` is whether the move gave check). */
static void history_step(const struct xqi_rules_options *o, const struct xqi_rules_entry *prev,
			 struct xqi_rules_entry *cur, int mover, int check)
{
	cur->check = (uint8_t)check;
	cur->uncounted = 0;
	if (cur->undo.captured) {
		cur->count = 0;
		cur->window = 0;
		cur->checks[0] = cur->checks[1] = 0;
		return;
	}
	cur->window = (uint16_t)(prev->window < UINT16_MAX ? prev->window + 1 : UINT16_MAX);
	cur->checks[0] = prev->checks[0];
	cur->checks[1] = prev->checks[1];
	if (check && cur->checks[mover] < UINT8_MAX)
		cur->checks[mover]++;
	if (o->counted_checks) {
		/* AXF: a side's checks beyond its allowance, and the replies to
		 * them, do not bring the natural limit nearer. */
		if (check && cur->checks[mover] > o->counted_checks)
			cur->uncounted = 1;
		else if (prev->check && prev->uncounted)
			cur->uncounted = 1;
	}
	cur->count = (uint16_t)(prev->count + !cur->uncounted < UINT16_MAX
					? prev->count + !cur->uncounted
					: UINT16_MAX);
}

static void history_start(struct xqi_rules_entry *e, const struct xqi_position *start)
{
	memset(e, 0, sizeof(*e));
	e->key = start->key;
	e->count = start->halfmove;
}

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
#define NO_POS UINT32_MAX

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

	x->next[j] = NO_POS;
	if (c->count) {
		x->prev[j] = c->latest;
		x->next[c->latest] = (uint32_t)j;
	} else {
		x->prev[j] = NO_POS;
		c->oldest = (uint32_t)j;
	}
	c->latest = (uint32_t)j;
	c->count++;
}

/*
 * Judge the moves first+1..last, given `w` at position `last` and the
 * history entries (for stepping back).  `w` is left at position `first`
 * then moved forward again to `last`.  Plies are classified into `plies`
 * (indexed by ply - 1) when it is not NULL.
 */
static enum xq_ruling judge_span(struct xqi_position *w, const struct xqi_rules_entry *e,
					size_t first, size_t last, enum xq_ruleset rules,
					int want_kill, struct xqi_rules_ply *plies,
					struct xqi_rules_side sides[2])
{
	struct judge j;
	struct xqi_undo u;

	for (size_t k = last; k > first; k--)
		xqi_position_unmake(w, e[k].move, &e[k].undo);
	judge_init(&j, rules);
	for (size_t k = first + 1; k <= last; k++) {
		struct xqi_rules_ply tmp, *p = plies ? &plies[k - 1] : &tmp;
		if (!plies) {
			memset(&tmp, 0, sizeof(tmp));
			tmp.move = e[k].move;
			tmp.side = w->side;
		}
		if (p->kind == XQI_RULES_UNCLASSIFIED)
			classify_move(w, e[k].move, rules, want_kill, p);
		judge_add(&j, p);
		xqi_position_make(w, e[k].move, &u);
	}
	return judge_finish(&j, sides);
}

/* ---- the report ------------------------------------------------------------ */

void xqi_rules_report_init(struct xqi_rules_report *r)
{
	memset(r, 0, sizeof(*r));
}

void xqi_rules_report_release(struct xqi_rules_report *r)
{
	free(r->plies);
	free(r->cycles);
	free(r->limits);
	xqi_rules_report_init(r);
}

static int add_limit(struct xqi_rules_report *r, uint8_t kind, uint32_t ply, uint32_t since,
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

/*
 * Judging every cycle of a line in one pass.  The plies inside some cycle
 * (all of them with XQI_RULES_CLASSIFY_ALL) are classified once, in order,
 * on one board moving forward; running counts per side then give each
 * cycle's counts as the difference between its last ply and its first,
 * and the latest ply of each side that did not newly chase a piece tells
 * whether every move in between did.  Judging each cycle by replaying it
 * from the end of the line cost the line's length per cycle, and the
 * cycle's length again: quadratic with many cycles, or long ones
 * (issue 14, finding 5).  The verdicts are those judge_add() and
 * judge_finish() give move by move, counts kept to 16 bits as there.
 */
struct tally {
	uint32_t moves, checks, kills, chases, idles;
};

struct sweep_side {
	struct tally t;      /* over plies 1..k */
	uint32_t unset[32];  /* the latest ply of this side whose move does not have chased bit b */
	uint32_t threat[48]; /* the latest ply of this side with a threat that counts on piece id */
};

static void sweep_add(struct sweep_side s[2], const struct xqi_rules_ply *p, uint32_t k)
{
	struct sweep_side *sd = &s[p->side];

	sd->t.moves++;
	switch (p->kind) {
	case XQI_RULES_CHECK:
		sd->t.checks++;
		break;
	case XQI_RULES_KILL:
		sd->t.kills++;
		break;
	case XQI_RULES_CHASE:
		sd->t.chases++;
		break;
	default:
		sd->t.idles++;
		break;
	}
	for (int b = 0; b < 32; b++)
		if (!(p->chased & (1u << b)))
			sd->unset[b] = k;
	for (int t = 0; t < p->nthreats; t++)
		if (XQI_RULES_WHY_COUNTS(p->threats[t].why))
			sd->threat[p->threats[t].target_id] = k;
}

/* Judge cycle `c`, which ends at the sweep's ply, from the counts at its
 * first ply (`at_first`). */
static void sweep_judge(const struct xqi_rules_report *r, struct xqi_rules_cycle *c,
			const struct sweep_side s[2], const struct tally at_first[2])
{
	struct judge j;

	judge_init(&j, r->rules);
	for (int i = 0; i < 2; i++) {
		struct judge_side *js = &j.s[i];
		js->moves = (uint16_t)(s[i].t.moves - at_first[i].moves);
		js->checks = (uint16_t)(s[i].t.checks - at_first[i].checks);
		js->kills = (uint16_t)(s[i].t.kills - at_first[i].kills);
		js->chases = (uint16_t)(s[i].t.chases - at_first[i].chases);
		js->idles = (uint16_t)(s[i].t.idles - at_first[i].idles);
		js->attacking = s[i].t.idles == at_first[i].idles;
		if (s[i].t.moves != at_first[i].moves) {
			js->common = 0;
			for (int b = 0; b < 32; b++)
				if (s[i].unset[b] <= c->first)
					js->common |= 1u << b;
		}
	}
	c->verdict = (uint8_t)judge_finish(&j, c->side);
	/* Where each side's perpetually chased piece stood when last chased. */
	for (int i = 0; i < 2; i++) {
		struct xqi_rules_side *sd = &c->side[i];
		uint32_t k = sd->target_id ? s[i].threat[sd->target_id] : 0;
		const struct xqi_rules_ply *p;
		if (k <= c->first)
			continue;
		p = &r->plies[k - 1];
		for (int t = 0; t < p->nthreats; t++)
			if (p->threats[t].target_id == sd->target_id &&
			    XQI_RULES_WHY_COUNTS(p->threats[t].why)) {
				sd->target_sq = p->threats[t].target;
				sd->target_why = p->threats[t].why;
			}
	}
}

/*
 * Give each ply the first cycle whose moves contain it (plies[].cycle):
 * cycles in order, each taking the plies of its range that no earlier
 * cycle took, found by skipping taken plies through `skip` (a union-find
 * of taken runs), so each ply is taken once.  Asking every cycle at every
 * ply was quadratic in a line of many cycles.  Returns 0 or XQ_ENOMEM.
 */
static uint32_t skip_to(uint32_t *skip, uint32_t k)
{
	uint32_t root = k;

	while (skip[root] != root)
		root = skip[root];
	while (skip[k] != root) {
		uint32_t next = skip[k];
		skip[k] = root;
		k = next;
	}
	return root;
}

static int map_cycles(struct xqi_rules_report *r)
{
	size_t n = r->nplies;
	uint32_t *skip = malloc((n + 2) * sizeof(*skip));

	if (!skip)
		return XQ_ENOMEM;
	for (size_t k = 0; k <= n + 1; k++)
		skip[k] = (uint32_t)k;
	for (size_t i = 0; i < r->ncycles; i++) {
		const struct xqi_rules_cycle *c = &r->cycles[i];
		for (uint32_t k = skip_to(skip, c->first + 1); k <= c->last;
		     k = skip_to(skip, k + 1)) {
			r->plies[k - 1].cycle = (uint32_t)i + 1;
			skip[k] = k + 1;
		}
	}
	free(skip);
	return 0;
}

/*
 * Classifications already made in this line, by position and move: the
 * plies of a long cycle play the same few moves from the same few
 * positions, and each is classified once.  A classification depends on
 * nothing but the pieces, their identities (which the key does not tell
 * apart: the chased pieces are named by identity) and the side to move,
 * so an entry is used only for the very same board.
 */
#define CLASS_MEMO 1024 /* slots at most; fewer for fewer plies to classify */

struct class_memo {
	uint64_t key;
	uint32_t ply; /* the ply whose classification it is, 1-based; 0 if empty */
	xqi_move move;
	uint8_t side;
	uint8_t sq[256];
};

static struct class_memo *memo_slot(struct class_memo *memo, size_t mask,
				    const struct xqi_position *b, xqi_move m)
{
	return &memo[(size_t)((b->key >> 7) ^ b->key ^ (uint64_t)m * 0x9E3779B1u) & mask];
}

/* Slots for `need` plies to classify: a power of two, twice as many, 16
 * to CLASS_MEMO (a game with one short cycle needs no 280 KB table). */
static size_t memo_slots(size_t need)
{
	size_t slots = 16;

	while (slots < CLASS_MEMO && slots < 2 * need)
		slots *= 2;
	return slots;
}

/* Classify ply k (its move played from `w`), or copy the classification
 * of an earlier ply with the same board and move. */
static void classify_ply(struct xqi_rules_report *r, struct class_memo *memo, size_t mask,
			 const struct xqi_position *w, xqi_move m, size_t k)
{
	struct xqi_rules_ply *p = &r->plies[k - 1];
	struct class_memo *c = memo_slot(memo, mask, w, m);

	if (c->ply && c->key == w->key && c->move == m && c->side == w->side &&
	    !memcmp(c->sq, w->sq, sizeof(c->sq))) {
		const struct xqi_rules_ply *q = &r->plies[c->ply - 1];
		p->kind = q->kind;
		p->flags = (uint8_t)((p->flags & XQI_RULES_F_CAPTURE) | (q->flags & ~XQI_RULES_F_CAPTURE));
		p->nthreats = q->nthreats;
		p->more = q->more;
		p->chased = q->chased;
		p->mate = q->mate;
		memcpy(p->threats, q->threats, sizeof(p->threats));
		return;
	}
	classify_move(w, m, r->rules, 1, p);
	c->key = w->key;
	c->ply = (uint32_t)k;
	c->move = m;
	c->side = w->side;
	memcpy(c->sq, w->sq, sizeof(c->sq));
}

/*
 * Classify the plies inside cycles (all with `all`) and judge every cycle,
 * in one pass from `start` over the moves in e[1..].  Returns 0 or
 * XQ_ENOMEM.
 */
static int judge_cycles(struct xqi_rules_report *r, const struct xqi_position *start,
			const struct xqi_rules_entry *e, int all)
{
	size_t n = r->nplies, m = r->ncycles, ci = 0;
	int32_t *cover = calloc(n + 2, sizeof(*cover));
	uint32_t *by_first = malloc((n + 1) * sizeof(*by_first));
	uint32_t *next = malloc((m ? m : 1) * sizeof(*next));
	struct tally *at_first = malloc((m ? m : 1) * 2 * sizeof(*at_first));
	struct class_memo *memo = NULL;
	size_t mask = 0;
	struct sweep_side s[2];
	struct xqi_position w = *start;
	int32_t covered = all;
	int rc = 0;

	if (!cover || !by_first || !next || !at_first) {
		rc = XQ_ENOMEM;
		goto out;
	}
	memset(s, 0, sizeof(s));
	for (size_t k = 0; k <= n; k++)
		by_first[k] = NO_POS;
	for (size_t i = m; i-- > 0;) {
		const struct xqi_rules_cycle *c = &r->cycles[i];
		cover[c->first + 1]++;
		cover[c->last + 1]--;
		next[i] = by_first[c->first];
		by_first[c->first] = (uint32_t)i;
	}
	if (m || all) {
		/* The plies to classify: all, or those inside a cycle. */
		size_t need = all ? n : 0;
		int64_t inside = 0;
		for (size_t k = 1; !all && k <= n; k++) {
			inside += cover[k];
			need += inside > 0;
		}
		mask = memo_slots(need) - 1;
		if (!(memo = calloc(mask + 1, sizeof(*memo)))) {
			rc = XQ_ENOMEM;
			goto out;
		}
	}
	for (size_t k = 0; k <= n; k++) {
		if (k > 0) {
			struct xqi_rules_ply *p = &r->plies[k - 1];
			struct xqi_undo u;
			covered += cover[k];
			if (covered > 0 && p->kind == XQI_RULES_UNCLASSIFIED)
				classify_ply(r, memo, mask, &w, e[k].move, k);
			xqi_position_make(&w, e[k].move, &u);
			sweep_add(s, p, (uint32_t)k);
		}
		for (uint32_t i = by_first[k]; i != NO_POS; i = next[i]) {
			at_first[2 * i] = s[0].t;
			at_first[2 * i + 1] = s[1].t;
		}
		/* Cycles end in order, each at its own ply. */
		for (; ci < m && r->cycles[ci].last == k; ci++)
			sweep_judge(r, &r->cycles[ci], s, &at_first[2 * ci]);
	}
out:
	free(cover);
	free(by_first);
	free(next);
	free(at_first);
	free(memo);
	return rc;
}

/* Count clubxiangqi's effective plies once every ply is classified. */
static int cxq_effective_events(struct xqi_rules_report *r, const struct xqi_rules_options *o)
{
	uint32_t effective = 0;
	int prev_forcing = 0;

	if (!o->cxq_effective)
		return 0;
	for (size_t k = 0; k < r->nplies; k++) {
		const struct xqi_rules_ply *p = &r->plies[k];
		int forcing = (p->flags & (XQI_RULES_F_CHECK | XQI_RULES_F_CHASE)) != 0;
		if (!forcing && !prev_forcing && ++effective == o->cxq_effective &&
		    add_limit(r, XQI_LIMIT_CXQ_EFFECTIVE, (uint32_t)k + 1, 0, o->cxq_effective))
			return XQ_ENOMEM;
		prev_forcing = forcing;
	}
	return 0;
}

static int cmp_limit(const void *a, const void *b)
{
	const struct xqi_rules_limit_event *x = a, *y = b;
	if (x->ply != y->ply)
		return x->ply < y->ply ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

int xqi_rules_analyze(struct xqi_rules_report *r, const struct xqi_position *start,
		     const xqi_move *moves, size_t n, const struct xqi_rules_options *o,
		     struct xq_diagnostic *d)
{
	struct xqi_rules_entry *e;
	struct xqi_position b = *start;
	struct rep_index rx = {NULL, 0, NULL, NULL, NULL, 0};
	uint32_t progress_since = 0;
	uint32_t total = (uint32_t)(start->fullmove > 0 ? start->fullmove - 1 : 0) * 2 +
			 (start->side == XQI_BLACK);
	int rc = 0;

	if (!o)
		o = &default_options;
	r->nplies = 0;
	r->ncycles = 0;
	r->nlimits = 0;
	r->rules = o->rules;
	r->end = XQ_STATE_PLAYING;
	if (XQ_ALLOC_GROW(r->plies, n ? n : 1, r->plies_alloc))
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	e = malloc((n + 1) * sizeof(*e));
	if (!e)
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	history_start(&e[0], start);

	/* Pass 1: play the moves, record keys, checks and counts; limits. */
	for (size_t k = 1; k <= n; k++) {
		xqi_move m = moves[k - 1];
		struct xqi_rules_ply *p = &r->plies[k - 1];
		int mover = b.side;
		xqi_sq from = XQI_MOVE_FROM(m), to = XQI_MOVE_TO(m);
		int pawn_advance;
		char name[5];

		if (xqi_move_check(&b, m, d)) {
			if (d) {
				d->ply = (uint32_t)k;
				xqi_move_name(m, name);
				xqi_diagnostic_set_move(d, name, strlen(name));
			}
			rc = XQ_EILLEGAL;
			break;
		}
		pawn_advance = TYPE_OF_ID(b.sq[from]) == XQI_PAWN && pawn_crossed(b.sq[from], from) &&
			       XQI_SQ_FILE(from) == XQI_SQ_FILE(to);
		xqi_position_make(&b, m, &e[k].undo);
		e[k].move = m;
		e[k].key = b.key;
		history_step(o, &e[k - 1], &e[k], mover, xqi_position_in_check(&b));

		memset(p, 0, sizeof(*p));
		p->move = m;
		p->side = (uint8_t)mover;
		p->count = e[k].count;
		if (e[k].undo.captured)
			p->flags |= XQI_RULES_F_CAPTURE;
		if (e[k].check)
			p->flags |= XQI_RULES_F_CHECK;
		r->nplies = k;

		/* Reached on this ply (uncounted plies keep the count where it is). */
		if (o->natural_limit && e[k].count == o->natural_limit &&
		    e[k - 1].count < o->natural_limit &&
		    add_limit(r, XQI_LIMIT_NATURAL, (uint32_t)k, (uint32_t)(k - e[k].window),
			      o->natural_limit))
			goto nomem;
		if (o->cxq) {
			if (e[k].undo.captured || pawn_advance)
				progress_since = (uint32_t)k;
			if (o->cxq_progress && k - progress_since == o->cxq_progress &&
			    add_limit(r, XQI_LIMIT_CXQ_PROGRESS, (uint32_t)k, progress_since,
				      o->cxq_progress))
				goto nomem;
			if (o->cxq_total && ++total == o->cxq_total &&
			    add_limit(r, XQI_LIMIT_CXQ_TOTAL, (uint32_t)k, 0, o->cxq_total))
				goto nomem;
		}
	}

	/* Repetition runs. */
	if (rep_index_init(&rx, r->nplies + 1))
		goto nomem;
	rep_add(&rx, e, 0);
	for (size_t j = 1; j <= r->nplies; j++) {
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
		} else if (add_cycle(r, (uint32_t)match, (uint32_t)j, occ)) {
			goto nomem;
		}
	}

	rep_index_release(&rx);
	rx.t = NULL;
	rx.prev = rx.next = rx.slots = NULL;

	/* Pass 2: classify and judge, in one pass forward. */
	if (map_cycles(r) ||
	    judge_cycles(r, start, e, (o->flags & XQI_RULES_CLASSIFY_ALL) || o->cxq))
		goto nomem;
	if (o->cxq && cxq_effective_events(r, o))
		goto nomem;
	if (r->nlimits) {
		/* A limit reached before the end: was that position mate? */
		struct xqi_position w = b;
		size_t li = r->nlimits;
		qsort(r->limits, r->nlimits, sizeof(*r->limits), cmp_limit);
		for (size_t k = r->nplies; k > 0 && li > 0; k--) {
			while (li > 0 && r->limits[li - 1].ply == k) {
				r->limits[li - 1].mate = xqi_position_status(&w) != XQ_STATE_PLAYING;
				li--;
			}
			xqi_position_unmake(&w, e[k].move, &e[k].undo);
		}
	}
	r->end = xqi_position_status(&b);
	free(e);
	return rc;
nomem:
	rep_index_release(&rx);
	free(e);
	return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
}

/* The moves from the root to `node`, in order, in a new array. */
static int game_line(const struct xqi_record *g, uint32_t node, xqi_move **out, size_t *n)
{
	size_t len = 0;
	xqi_move *m;

	for (uint32_t k = node; k != XQI_ROOT && k != XQ_NO_NODE; k = g->nodes[k].parent)
		len++;
	m = malloc((len ? len : 1) * sizeof(*m));
	if (!m)
		return XQ_ENOMEM;
	*n = len;
	for (uint32_t k = node; k != XQI_ROOT && k != XQ_NO_NODE; k = g->nodes[k].parent)
		m[--len] = g->nodes[k].move;
	*out = m;
	return 0;
}

int xqi_rules_analyze_game(struct xqi_rules_report *r, const struct xqi_record *g, uint32_t node,
			  const struct xqi_rules_options *o, struct xq_diagnostic *d)
{
	xqi_move *moves;
	size_t n;
	int rc;

	if (node >= g->nnodes)
		return xqi_diagnostic_set(d, XQ_ERANGE, XQI_D_INTERNAL, XQ_SEVERITY_ERROR,
				   "node %lu is not in the game", (unsigned long)node);
	if (game_line(g, node, &moves, &n))
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	rc = xqi_rules_analyze(r, &g->start, moves, n, o, d);
	free(moves);
	return rc;
}

long xqi_rules_cycle_at(const struct xqi_rules_report *r, uint32_t ply)
{
	if (ply < 1 || ply > r->nplies)
		return -1;
	return (long)r->plies[ply - 1].cycle - 1;
}

/* ---- text ------------------------------------------------------------------- */

/* "the red rook on h2" ("the red rook" when the square is not known). */
static int add_piece(struct xq_buf *out, uint8_t kind, xqi_sq sq)
{
	char name[3];

	if (!xqi_on_board(sq))
		return xq_buf_addf(out, "the %s %s", side_name(XQI_KIND_SIDE(kind)),
				   type_names[XQI_KIND_TYPE(kind)]);
	xqi_sq_name(sq, name);
	return xq_buf_addf(out, "the %s %s on %s", side_name(XQI_KIND_SIDE(kind)),
			   type_names[XQI_KIND_TYPE(kind)], name);
}

static int add_threat_text(struct xq_buf *out, const struct xqi_rules_threat *t)
{
	int rc = add_piece(out, t->attacker_kind, t->attacker);

	rc |= xq_buf_adds(out, t->why == XQI_WHY_CHECK ? " checks " : " attacks ");
	rc |= add_piece(out, t->target_kind, t->target);
	if (t->why != XQI_WHY_CHECK)
		rc |= xq_buf_addf(out, ": %s", xqi_rules_why_text((enum xqi_rules_why)t->why));
	return rc ? XQ_ENOMEM : 0;
}

int xqi_rules_describe_ply(struct xq_buf *out, const struct xqi_rules_report *r, size_t ply)
{
	const struct xqi_rules_ply *p;
	char name[5];
	int rc;

	if (ply < 1 || ply > r->nplies)
		return XQ_ERANGE;
	p = &r->plies[ply - 1];
	xqi_move_name(p->move, name);
	rc = xq_buf_addf(out, "%lu. %s %s: %s", (unsigned long)ply, side_name(p->side), name,
			 xqi_rules_kind_name((enum xqi_rules_kind)p->kind));
	if (p->kind != XQI_RULES_UNCLASSIFIED) {
		const char *sep = ": ";
		if (p->flags & XQI_RULES_F_KILL) {
			char mate[5];
			xqi_move_name(p->mate, mate);
			rc |= xq_buf_addf(out, ": threatens mate by %s", mate);
			sep = "; ";
		}
		for (int t = 0; t < p->nthreats; t++) {
			rc |= xq_buf_adds(out, sep);
			rc |= add_threat_text(out, &p->threats[t]);
			sep = "; ";
		}
		if (p->more)
			rc |= xq_buf_addf(out, "; and %u more", (unsigned)p->more);
	}
	return rc ? XQ_ENOMEM : 0;
}

/* The rule that decides, in words, for a cycle's verdict. */
static int add_ruling(struct xq_buf *out, const struct xqi_rules_cycle *c, enum xq_ruleset rules)
{
	int pc[2], loser;
	const struct xqi_rules_side *s;
	int rc = 0;

	for (int i = 0; i < 2; i++)
		pc[i] = c->side[i].conduct == XQI_CONDUCT_PERPETUAL_CHECK;
	rc |= xq_buf_addf(out, "verdict under %s rules: %s: ", xqi_rules_set_name(rules),
			  xqi_rules_verdict_name((enum xq_ruling)c->verdict));
	if (c->verdict == XQ_RULING_DRAW) {
		if (pc[0] && pc[1])
			rc |= xq_buf_adds(out, "both sides check on every move (AXF 7, CXA 26.3)");
		else if (XQI_CONDUCT_FORBIDDEN(c->side[0].conduct) &&
			 XQI_CONDUCT_FORBIDDEN(c->side[1].conduct))
			rc |= xq_buf_adds(out, "both sides use forbidden perpetual attacks "
					       "(CXA 26.3)");
		else
			rc |= xq_buf_adds(out, "neither side uses a forbidden perpetual attack "
					       "(AXF 5, CXA 26.2)");
		return rc ? XQ_ENOMEM : 0;
	}
	loser = c->verdict == XQ_RULING_RED_LOSES ? XQI_RED : XQI_BLACK;
	s = &c->side[loser];
	switch (s->conduct) {
	case XQI_CONDUCT_PERPETUAL_CHECK:
		rc |= xq_buf_addf(out, "%s checks on every move of the cycle and %s does not "
				       "(AXF 6, CXA 26.1)",
				  side_name(loser), side_name(loser ^ 1));
		break;
	case XQI_CONDUCT_PERPETUAL_CHASE:
		if (rules == XQ_RULESET_ASIAN) {
			rc |= xq_buf_addf(out, "%s chases ", side_name(loser));
			rc |= add_piece(out, s->target_kind, s->target_sq);
			rc |= xq_buf_addf(out, " on every move and %s does not (%s)",
					  side_name(loser ^ 1),
					  s->target_why == XQI_WHY_ROOK_BY_MINOR
						  ? "a horse or cannon may not chase a rook for ever, "
						    "protected or not: AXF 15"
						  : "one piece may not be chased for ever: AXF 18 and "
						    "the Asian forbidden perpetuals");
		} else {
			rc |= xq_buf_addf(out, "%s chases on every move and %s's moves are allowed "
					       "(CXA 28.12, 26.4)",
					  side_name(loser), side_name(loser ^ 1));
		}
		break;
	case XQI_CONDUCT_PERPETUAL_KILL:
		rc |= xq_buf_addf(out, "%s threatens mate on every move and %s's moves are "
				       "allowed (CXA 28.11, 26.4)",
				  side_name(loser), side_name(loser ^ 1));
		break;
	default:
		rc |= xq_buf_addf(out, "%s checks, threatens mate or chases on every move and "
				       "%s's moves are allowed (CXA 25.2, 26.4)",
				  side_name(loser), side_name(loser ^ 1));
		break;
	}
	return rc ? XQ_ENOMEM : 0;
}

static int add_conduct(struct xq_buf *out, const struct xqi_rules_side *s, int side)
{
	int rc = xq_buf_addf(out, "%s: %s (%u moves: %u check, %u kill, %u chase, %u idle)",
			     side_name(side),
			     xqi_rules_conduct_name((enum xqi_rules_conduct)s->conduct),
			     (unsigned)s->moves, (unsigned)s->checks, (unsigned)s->kills,
			     (unsigned)s->chases, (unsigned)s->idles);
	if (s->target_id) {
		rc |= xq_buf_adds(out, ", chasing ");
		rc |= add_piece(out, s->target_kind, s->target_sq);
		rc |= xq_buf_adds(out, " every move");
	}
	return rc ? XQ_ENOMEM : 0;
}

int xqi_rules_describe_cycle(struct xq_buf *out, const struct xqi_rules_report *r, size_t i)
{
	const struct xqi_rules_cycle *c;
	int rc;

	if (i >= r->ncycles)
		return XQ_ERANGE;
	c = &r->cycles[i];
	rc = xq_buf_addf(out,
			 "repetition: plies %lu-%lu, period %lu plies, a position occurs %lu "
			 "times\n",
			 (unsigned long)c->first + 1, (unsigned long)c->last,
			 (unsigned long)c->period, (unsigned long)c->repeats);
	/* One period is enough to show: the moves after it repeat it. */
	for (uint32_t k = c->first + 1; k <= c->last && k <= c->first + c->period; k++) {
		rc |= xq_buf_adds(out, "  ");
		rc |= xqi_rules_describe_ply(out, r, k);
		rc |= xq_buf_addc(out, '\n');
	}
	for (int s = 0; s < 2; s++) {
		rc |= xq_buf_adds(out, "  ");
		rc |= add_conduct(out, &c->side[s], s);
		rc |= xq_buf_addc(out, '\n');
	}
	rc |= xq_buf_adds(out, "  ");
	rc |= add_ruling(out, c, r->rules);
	rc |= xq_buf_addc(out, '\n');
	return rc ? XQ_ENOMEM : 0;
}

static const char *limit_name(uint8_t kind)
{
	switch (kind) {
	case XQI_LIMIT_CXQ_EFFECTIVE:
		return "clubxiangqi effective-move limit";
	case XQI_LIMIT_CXQ_PROGRESS:
		return "clubxiangqi progress limit";
	case XQI_LIMIT_CXQ_TOTAL:
		return "clubxiangqi total-move limit";
	default:
		return "natural limit";
	}
}

int xqi_rules_describe_limit(struct xq_buf *out, const struct xqi_rules_report *r, size_t i)
{
	const struct xqi_rules_limit_event *ev;
	int rc;

	if (i >= r->nlimits)
		return XQ_ERANGE;
	ev = &r->limits[i];
	rc = xq_buf_addf(out, "%s: %lu plies reached at ply %lu", limit_name(ev->kind),
			 (unsigned long)ev->limit, (unsigned long)ev->ply);
	if (ev->kind == XQI_LIMIT_NATURAL || ev->kind == XQI_LIMIT_CXQ_PROGRESS)
		rc |= xq_buf_addf(out, " (counted from ply %lu)", (unsigned long)ev->since);
	rc |= xq_buf_adds(out, ev->mate ? ": the position is mate, which decides instead\n"
					: ": draw\n");
	return rc ? XQ_ENOMEM : 0;
}

int xqi_rules_describe(struct xq_buf *out, const struct xqi_rules_report *r)
{
	int rc = 0;

	for (size_t i = 0; i < r->ncycles && !rc; i++)
		rc = xqi_rules_describe_cycle(out, r, i);
	for (size_t i = 0; i < r->nlimits && !rc; i++)
		rc = xqi_rules_describe_limit(out, r, i);
	return rc;
}

/* ---- checking a recorded result ----------------------------------------- */

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
		snprintf(buf, cap, "%s checks every move", side_name(side));
		break;
	case XQI_CONDUCT_PERPETUAL_CHASE:
		if (s->target_id && xqi_on_board(s->target_sq)) {
			xqi_sq_name(s->target_sq, sq);
			snprintf(buf, cap, "%s chases the %s on %s every move", side_name(side),
				 type_names[XQI_KIND_TYPE(s->target_kind)], sq);
		} else {
			snprintf(buf, cap, "%s chases every move", side_name(side));
		}
		break;
	case XQI_CONDUCT_PERPETUAL_KILL:
		snprintf(buf, cap, "%s threatens mate every move", side_name(side));
		break;
	case XQI_CONDUCT_FORBIDDEN_MIX:
		snprintf(buf, cap, "%s attacks every move", side_name(side));
		break;
	default:
		snprintf(buf, cap, "%s's moves are allowed", side_name(side));
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
		o = &default_options;
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
			 limit_name(lim->kind), (unsigned long)lim->limit, (unsigned long)lim->ply);
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
	if (game_line(g, xqi_record_mainline_end(g), &moves, &n))
		return xqi_diagnostic_set(d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	rc = xqi_rules_check_result(out, &g->start, moves, n, g->result, claim, o, d, explain);
	free(moves);
	return rc;
}

/* ---- the search track -------------------------------------------------------- */

#define FILTER_INDEX(key) ((size_t)((key) & (XQI_RULES_FILTER_SIZE - 1)))

int xqi_rules_track_init(struct xqi_rules_track *t, const struct xqi_position *start, size_t capacity,
			const struct xqi_rules_options *o)
{
	memset(t, 0, sizeof(*t));
	t->opt = o ? *o : default_options;
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
	history_start(&t->e[0], start);
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
	history_step(&t->opt, &t->e[t->n - 1], cur, after->side ^ 1, check != 0);
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
		for (uint32_t i = e[j].prev_in_bucket; i != NO_POS && i >= low;
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
			out->verdict = (uint8_t)judge_span(&w, e, first, j, t->opt.rules,
							   t->opt.rules == XQ_RULESET_CHINESE, NULL,
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
