/*
 * rules_text.c: a report of the rules in words (rules.h,
 * xqi_rules_describe_*): a ply with what it attacks and why, a cycle with
 * each side's conduct and the rule that decides it, a limit reached.
 * Stands on the words of rules_names.c alone (rules_int.h).
 */
#include "rules_int.h"

/* "the red rook on h2" ("the red rook" when the square is not known). */
static int add_piece(struct xq_buf *out, uint8_t kind, xqi_sq sq)
{
	char name[3];

	if (!xqi_on_board(sq))
		return xq_buf_addf(out, "the %s %s", xqi_rules_side_name(XQI_KIND_SIDE(kind)),
				   xqi_rules_type_name(XQI_KIND_TYPE(kind)));
	xqi_sq_name(sq, name);
	return xq_buf_addf(out, "the %s %s on %s", xqi_rules_side_name(XQI_KIND_SIDE(kind)),
			   xqi_rules_type_name(XQI_KIND_TYPE(kind)), name);
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
	rc = xq_buf_addf(out, "%lu. %s %s: %s", (unsigned long)ply, xqi_rules_side_name(p->side), name,
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
				  xqi_rules_side_name(loser), xqi_rules_side_name(loser ^ 1));
		break;
	case XQI_CONDUCT_PERPETUAL_CHASE:
		if (rules == XQ_RULESET_ASIAN) {
			rc |= xq_buf_addf(out, "%s chases ", xqi_rules_side_name(loser));
			rc |= add_piece(out, s->target_kind, s->target_sq);
			rc |= xq_buf_addf(out, " on every move and %s does not (%s)",
					  xqi_rules_side_name(loser ^ 1),
					  s->target_why == XQI_WHY_ROOK_BY_MINOR
						  ? "a horse or cannon may not chase a rook for ever, "
						    "protected or not: AXF 15"
						  : "one piece may not be chased for ever: AXF 18 and "
						    "the Asian forbidden perpetuals");
		} else {
			rc |= xq_buf_addf(out, "%s chases on every move and %s's moves are allowed "
					       "(CXA 28.12, 26.4)",
					  xqi_rules_side_name(loser), xqi_rules_side_name(loser ^ 1));
		}
		break;
	case XQI_CONDUCT_PERPETUAL_KILL:
		rc |= xq_buf_addf(out, "%s threatens mate on every move and %s's moves are "
				       "allowed (CXA 28.11, 26.4)",
				  xqi_rules_side_name(loser), xqi_rules_side_name(loser ^ 1));
		break;
	default:
		rc |= xq_buf_addf(out, "%s checks, threatens mate or chases on every move and "
				       "%s's moves are allowed (CXA 25.2, 26.4)",
				  xqi_rules_side_name(loser), xqi_rules_side_name(loser ^ 1));
		break;
	}
	return rc ? XQ_ENOMEM : 0;
}

static int add_conduct(struct xq_buf *out, const struct xqi_rules_side *s, int side)
{
	int rc = xq_buf_addf(out, "%s: %s (%u moves: %u check, %u kill, %u chase, %u idle)",
			     xqi_rules_side_name(side),
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

int xqi_rules_describe_limit(struct xq_buf *out, const struct xqi_rules_report *r, size_t i)
{
	const struct xqi_rules_limit_event *ev;
	int rc;

	if (i >= r->nlimits)
		return XQ_ERANGE;
	ev = &r->limits[i];
	rc = xq_buf_addf(out, "%s: %lu plies reached at ply %lu", xqi_rules_limit_name(ev->kind),
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
