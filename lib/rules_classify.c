/*
 * rules_classify.c: the attack map and the classification of one move as
 * check, kill, chase or idle, with the attacker, the target and the
 * reason of each attack (rules.h states the rules).  Calls no other part
 * of the rules module (rules_int.h).
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
 */
#include "rules_int.h"

/* ---- the attack map ------------------------------------------------------- */

/* For each piece identity: the reason it is attacked (0 = it is not) and by
 * which piece.  Only the other side's pieces ever appear. */
struct amap {
	uint8_t why[48];
	uint8_t by[48];
};

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
	int a = XQI_RULES_TYPE_OF_ID(w->sq[from]), tid = w->sq[to], t = XQI_RULES_TYPE_OF_ID(tid);
	struct xqi_undo u;
	int protected_, back;

	if (a == XQI_KING)
		return XQI_WHY_BY_KING;
	if (a == XQI_PAWN)
		return XQI_WHY_BY_PAWN;
	if (t == XQI_PAWN && !xqi_rules_pawn_crossed(tid, to))
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

		if (XQI_RULES_TYPE_OF_ID(tid) == XQI_KING || (!pseudo && !xqi_move_keeps_king_safe(&w, caps[i])))
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

void xqi_rules_classify_move(const struct xqi_position *before, xqi_move m,
			     enum xq_ruleset rules, int want_kill, struct xqi_rules_ply *p)
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
			p->chased |= XQI_RULES_ID_BIT(id);
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
