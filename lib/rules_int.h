/*
 * rules_int.h: what the parts of the rules module share, private to them
 * (the rest of the library sees rules.h, which states the rules and where
 * they come from).  The module is split along its jobs; each part calls
 * only parts listed above it, so no two call into each other:
 *   rules_names.c     the words: rule sets, verdicts, conducts, kinds,
 *                     reasons, limits, sides and pieces; the default options;
 *   rules_text.c      a report in words (xqi_rules_describe_*);
 *   rules_classify.c  the attack map and the classification of one move
 *                     (check, kill, chase, idle), with how a chase is found;
 *   rules_judge.c     judging a cycle: a side's conduct and the verdict,
 *                     and a span of moves judged move by move;
 *   rules_history.c   the history of a line: the moves played with their
 *                     keys and counts, the move limits reached on the way,
 *                     and the runs of repeated positions;
 *   rules.c           the report: xqi_rules_analyze(), every cycle of a
 *                     line classified and judged in one pass;
 *   rules_result.c    checking a recorded result against the rules;
 *   rules_track.c     the incremental track a search uses (beside the
 *                     report: it stands on the history and the judge).
 * Both the report and the track judge with one classifier and one judge,
 * so a cycle gets the same verdict wherever it is met.
 */
#ifndef XQI_LIB_RULES_INT_H
#define XQI_LIB_RULES_INT_H

#include "rules.h"

#include <string.h>

/* An index into a line's entries or plies that names none. */
#define XQI_RULES_NO_POS UINT32_MAX

/* The type (XQI_KING ... XQI_PAWN) of piece identity `id`. */
#define XQI_RULES_TYPE_OF_ID(id) XQI_KIND_TYPE(xqi_kind_of_id[(id)])

/* Bit of piece `id` in xqi_rules_ply.chased. */
#define XQI_RULES_ID_BIT(id) (1u << ((id) - 16))

/* Has the pawn `id` on `sq` crossed the river? */
static inline int xqi_rules_pawn_crossed(int id, xqi_sq sq)
{
	return XQI_SQ_SIDE_HALF(sq) != XQI_ID_SIDE(id);
}

/* ---- the words (rules_names.c) ------------------------------------------- */

/* XQI_RULES_OPTIONS_INIT, for a caller that gives no options. */
extern const struct xqi_rules_options xqi_rules_default_options;

/* "red" or "black". */
const char *xqi_rules_side_name(int side);
/* "king", "advisor", ... for XQI_KING ... XQI_PAWN. */
const char *xqi_rules_type_name(int type);
/* "natural limit", "clubxiangqi progress limit", ... (enum xqi_rules_limit). */
const char *xqi_rules_limit_name(uint8_t kind);

/* ---- one move (rules_classify.c) ----------------------------------------- */

/*
 * Classify move `m`, legal in `before` (the mover is to move), into `p`
 * (whose move, side and count are kept).  `want_kill` asks for the mate
 * threat test, which only the Chinese verdict and explanations need.
 */
void xqi_rules_classify_move(const struct xqi_position *before, xqi_move m,
			     enum xq_ruleset rules, int want_kill, struct xqi_rules_ply *p);

/* ---- judging a cycle (rules_judge.c) ------------------------------------- */

/* What the judge accumulates over the moves of one side. */
struct xqi_rules_judge_side {
	uint16_t moves, checks, kills, chases, idles;
	uint32_t common; /* pieces newly chased by every move */
	int attacking;   /* every move so far is a check, kill or chase */
};

struct xqi_rules_judge {
	enum xq_ruleset rules;
	struct xqi_rules_judge_side s[2];
};

void xqi_rules_judge_init(struct xqi_rules_judge *j, enum xq_ruleset rules);
/* One more classified move. */
void xqi_rules_judge_add(struct xqi_rules_judge *j, const struct xqi_rules_ply *p);
/* Each side's conduct into out[], and the verdict. */
enum xq_ruling xqi_rules_judge_finish(const struct xqi_rules_judge *j,
				      struct xqi_rules_side out[2]);

/*
 * Judge the moves first+1..last, given `w` at position `last` and the
 * history entries (for stepping back).  `w` is left at position `first`
 * then moved forward again to `last`.  Plies are classified into `plies`
 * (indexed by ply - 1) when it is not NULL.
 */
enum xq_ruling xqi_rules_judge_span(struct xqi_position *w, const struct xqi_rules_entry *e,
				    size_t first, size_t last, enum xq_ruleset rules,
				    int want_kill, struct xqi_rules_ply *plies,
				    struct xqi_rules_side sides[2]);

/* ---- the history of a line (rules_history.c) ----------------------------- */

/* The entry of the start position. */
static inline void xqi_rules_history_start(struct xqi_rules_entry *e,
					   const struct xqi_position *start)
{
	memset(e, 0, sizeof(*e));
	e->key = start->key;
	e->count = start->halfmove;
}

/*
 * Fill entry `cur` for a move by `mover` after entry `prev` (key, move and
 * undo already set; `check` is whether the move gave check).  Inline: the
 * search track pushes an entry at every node.
 */
static inline void xqi_rules_history_step(const struct xqi_rules_options *o,
					  const struct xqi_rules_entry *prev,
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

/* A move limit reached at `ply`, into the report.  0 or XQ_ENOMEM. */
int xqi_rules_add_limit(struct xqi_rules_report *r, uint8_t kind, uint32_t ply, uint32_t since,
			uint32_t limit);

/*
 * Play the `n` moves from `b` (left at the last position played), filling
 * e[1..] (e[0] is the start's) and r->plies (move, side, count, capture
 * and check), r->nplies, and the limits reached on the way.  Returns 0,
 * XQ_EILLEGAL (a move that is not legal: `d` says which ply and why, and
 * the plies before it are kept) or XQ_ENOMEM.
 */
int xqi_rules_history_play(struct xqi_rules_report *r, struct xqi_rules_entry *e,
			   struct xqi_position *b, const xqi_move *moves, size_t n,
			   const struct xqi_rules_options *o, struct xq_diagnostic *d);

/* The runs of repeated positions among e[0..r->nplies], into r->cycles
 * (in the order they end).  0 or XQ_ENOMEM. */
int xqi_rules_history_cycles(struct xqi_rules_report *r, const struct xqi_rules_entry *e);

/* ---- the report (rules.c) ------------------------------------------------ */

/* The moves from the root of `g` to `node`, in order, in a new array.
 * 0 or XQ_ENOMEM. */
int xqi_rules_game_line(const struct xqi_record *g, uint32_t node, xqi_move **out, size_t *n);

#endif
