/*
 * rules_judge.c: judging a cycle.  The judge takes a cycle's classified
 * moves one by one, side by side, and gives each side's conduct
 * (perpetual check, chase, kill, a forbidden mix, or allowed) and the
 * verdict under the rule set (rules.h).  The report (rules.c) feeds it
 * counts it keeps for every cycle at once; the search track
 * (rules_track.c) a span of moves it classifies here.  Stands on the
 * classifier (rules_classify.c) alone.
 */
#include "rules_int.h"

void xqi_rules_judge_init(struct xqi_rules_judge *j, enum xq_ruleset rules)
{
	memset(j, 0, sizeof(*j));
	j->rules = rules;
	for (int i = 0; i < 2; i++) {
		j->s[i].common = UINT32_MAX;
		j->s[i].attacking = 1;
	}
}

void xqi_rules_judge_add(struct xqi_rules_judge *j, const struct xqi_rules_ply *p)
{
	struct xqi_rules_judge_side *s = &j->s[p->side];

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

enum xq_ruling xqi_rules_judge_finish(const struct xqi_rules_judge *j,
				      struct xqi_rules_side out[2])
{
	int pc[2], forbidden[2];

	for (int i = 0; i < 2; i++) {
		const struct xqi_rules_judge_side *s = &j->s[i];
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
				while (!(s->common & XQI_RULES_ID_BIT(id)))
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

enum xq_ruling xqi_rules_judge_span(struct xqi_position *w, const struct xqi_rules_entry *e,
				    size_t first, size_t last, enum xq_ruleset rules,
				    int want_kill, struct xqi_rules_ply *plies,
				    struct xqi_rules_side sides[2])
{
	struct xqi_rules_judge j;
	struct xqi_undo u;

	for (size_t k = last; k > first; k--)
		xqi_position_unmake(w, e[k].move, &e[k].undo);
	xqi_rules_judge_init(&j, rules);
	for (size_t k = first + 1; k <= last; k++) {
		struct xqi_rules_ply tmp, *p = plies ? &plies[k - 1] : &tmp;
		if (!plies) {
			memset(&tmp, 0, sizeof(tmp));
			tmp.move = e[k].move;
			tmp.side = w->side;
		}
		if (p->kind == XQI_RULES_UNCLASSIFIED)
			xqi_rules_classify_move(w, e[k].move, rules, want_kill, p);
		xqi_rules_judge_add(&j, p);
		xqi_position_make(w, e[k].move, &u);
	}
	return xqi_rules_judge_finish(&j, sides);
}
