/*
 * search.h: analysing a position, and the built-in search engine.
 *
 * Two things live here.
 *
 * The analyser interface (struct xqi_analyser) is what `annotate` talks to.
 * Give it a start position, the moves played from it (the history, so that
 * repetitions are seen) and a limit (depth, nodes or time); get back a
 * struct xqi_analysis: the score of the position after the last move, the
 * depth reached, the best move and the principal variation as xqi_move
 * values.  The built-in engine below and an external UCI/UCCI engine
 * (engine.h) both implement it, so a caller drives either the same way.
 *
 * The built-in engine (struct xqi_search) needs nothing installed: an
 * iterative-deepening principal-variation search with a transposition
 * table, quiescence on captures and check evasions, move ordering (hash
 * move, MVV/LVA, killers, counter-moves, history), null-move, futility and
 * late-move pruning, late-move reductions, check extensions, an
 * evaluation tuned on real games (eval.h), and the repetition rules of
 * rules.h (a perpetual check or chase loses).  Limited by depth
 * or nodes it is deterministic: the same position, history and limit give
 * the same analysis on every run and every machine, because nothing in that
 * mode reads a clock and the hash table is emptied before each analysis.
 *
 * Scores.  A struct xqi_score is from one side's point of view (the side to
 * move in an analysis).  XQ_EVAL_CP is in centipawns: for the built-in
 * engine the material of a pawn is 100 (eval.h; the other values were
 * tuned against it on real games, and XQ_EVAL_SCALE_BUILTIN says what a
 * score means in expected score); an external engine's `cp` is
 * passed on as the engine gives it (Fairy-Stockfish and Pikafish scale
 * theirs differently, see engines.md), and a UCCI engine's bare score is
 * taken as centipawns too.  XQ_EVAL_MATE means the viewing side mates in
 * `value` of its own moves; XQ_EVAL_MATED means it is mated after `value`
 * of its own moves (0: it has no legal move now, which in xiangqi loses
 * whether or not it is in check).  Engines also report wins decided by the
 * repetition rules as mates.
 */
#ifndef XQI_LIB_SEARCH_H
#define XQI_LIB_SEARCH_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <xq/analyse.h>

#include "position.h"
#include "rules.h"

struct xq_diagnostic;

/* ---- scores ------------------------------------------------------------- */

/* Kinds of score: the public enum xq_eval_kind (<xq/analyse.h>). */

struct xqi_score {
	enum xq_eval_kind kind;
	int32_t value;
};

/* The same score from the other side's point of view. */
struct xqi_score xqi_score_negate(struct xqi_score s);

/*
 * The score `s`, which is from `side`'s point of view, from red's point of
 * view (negated when `side` is black).
 */
struct xqi_score xqi_score_for_red(struct xqi_score s, int side);

/*
 * A number that orders scores from worst to best for the viewing side, for
 * comparing two analyses (how much a move lost): centipawns are kept as they
 * are, clamped to +-(XQI_SCORE_ORDER_MATE - 1000); a mate in n moves is
 * XQI_SCORE_ORDER_MATE - n and being mated in n is its negation.  The
 * difference of two cp scores is a difference in centipawns.
 */
#define XQI_SCORE_ORDER_MATE 1000000
int32_t xqi_score_order(struct xqi_score s);

/*
 * Write `s` as annotations show it: pawns with a sign and two decimals
 * ("+0.35", "-1.20", "0.00") or a mate ("#3": the viewing side mates in 3;
 * "#-3": it is mated in 3; "#-0" after being mated, "#0" after mating).
 * NUL-terminated in `buf` of `cap` bytes (XQI_SCORE_TEXT_MAX is enough);
 * returns the length it needed.
 */
#define XQI_SCORE_TEXT_MAX 16
size_t xqi_score_format(struct xqi_score s, char *buf, size_t cap);

/* ---- limits and results ------------------------------------------------- */

/*
 * How long to think.  A zero field is "no limit of that kind"; at least
 * one must be set.  When several are set the search stops at the first
 * one reached.  depth and nodes are deterministic; movetime_ms reads the
 * clock and is not.
 */
struct xqi_limit {
	int depth;            /* plies, 1..XQ_ANALYSIS_MAX_DEPTH */
	uint64_t nodes;       /* nodes searched (engines count them their own way) */
	uint32_t movetime_ms; /* wall-clock milliseconds */
};

#define XQI_PV_MAX 64

/* struct xqi_analysis flags. */
enum {
	XQI_ANALYSIS_STOPPED = 1 << 0,  /* the stop flag ended it early: the result is
					  the best found so far (possibly depth 0) */
	XQI_ANALYSIS_NO_MOVES = 1 << 1, /* the side to move has no legal move: score is
					  XQ_EVAL_MATED 0, best is 0 */
	XQI_ANALYSIS_BOUND = 1 << 2     /* the engine only gave a bound (lower/upper)
					  for its last score */
};

struct xqi_analysis {
	struct xqi_score score; /* from the point of view of `side` */
	uint8_t side;          /* side to move in the analysed position */
	int depth;             /* depth of the last completed iteration */
	int seldepth;          /* deepest ply reached, when known (else 0) */
	uint64_t nodes;        /* nodes searched, when known */
	uint32_t time_ms;      /* time the engine took (as it says, or measured) */
	xqi_move best;          /* best move, 0 when there is no legal move */
	size_t pv_len;         /* moves in pv; pv[0] == best when pv_len > 0 */
	xqi_move pv[XQI_PV_MAX]; /* principal variation, every move legal in turn */
	unsigned flags;        /* XQ_ANALYSIS_* */
};

/* Empty the analysis (score 0 cp, no move). */
void xqi_analysis_clear(struct xqi_analysis *a);

/* The analysis score from red's point of view. */
static inline struct xqi_score xqi_analysis_red_score(const struct xqi_analysis *a)
{
	return xqi_score_for_red(a->score, a->side);
}

/* ---- the analyser interface --------------------------------------------- */

/*
 * What every analyser implements.  `analyse` receives a start position that
 * xqi_analyse() has validated and a history whose moves it has checked to
 * be legal in turn, and the board reached after them; it fills `out` for
 * the position after the last move.  `restart` brings the analyser back to
 * a fresh state (an external engine: a new process).  `name` is a short
 * description for messages ("built-in", "Fairy-Stockfish 11.1 LB 64").
 */
struct xqi_analyser_ops {
	int (*analyse)(void *impl, struct xqi_analysis *out, const struct xqi_position *start,
		       const xqi_move *moves, size_t nmoves, const struct xqi_position *now,
		       const struct xqi_limit *limit, struct xq_diagnostic *d);
	int (*restart)(void *impl, struct xq_diagnostic *d);
	const char *(*name)(const void *impl);
};

/* An analyser: an implementation and the object it works on (borrowed). */
struct xqi_analyser {
	const struct xqi_analyser_ops *ops;
	void *impl;
};

/*
 * Analyse the position reached from `start` after `moves[0..nmoves)`.
 *
 * Checks first, for every analyser: `limit` has a field set (else
 * XQ_ERANGE); `start` is a possible position (kings in their palaces,
 * counts within a set, not facing, the side not to move not in check;
 * placement of advisors, elephants and pawns is not checked here; XQ_EILLEGAL
 * with an XQI_D_BAD_FEN message); every move is legal in turn (XQ_EILLEGAL,
 * XQI_D_ILLEGAL_MOVE, the message names the move's index and text).
 *
 * Then the analyser runs.  The built-in search fails only on those checks;
 * an external engine returns XQ_EENGINE (XQI_D_ENGINE) when it fails to
 * start, crashes, hangs, lies or rejects the position, and the caller may
 * then call xqi_analyser_start_over() and go on.
 *
 * `d` may be NULL.  The caller sets d->game and d->ply before the call;
 * they are kept, so the message says where in the collection it happened.
 * `out` is always filled (cleared on error).
 */
int xqi_analyse(struct xqi_analyser *a, struct xqi_analysis *out, const struct xqi_position *start,
	       const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
	       struct xq_diagnostic *d);

/* Restart the analyser (see the ops).  Returns 0 or a negative XQ_E* code. */
int xqi_analyser_start_over(struct xqi_analyser *a, struct xq_diagnostic *d);

/* Short description of the analyser, never NULL. */
const char *xqi_analyser_name(const struct xqi_analyser *a);

/* ---- the built-in engine ------------------------------------------------ */

struct xqi_search; /* opaque: hash table, histories, the search stack */

struct xqi_search_opts {
	size_t hash_mb; /* transposition table size in MiB; 0 means 16 */
	/*
	 * Polled during the search (every few thousand nodes); when it holds a
	 * nonzero value the search returns at once with the best result so far
	 * and XQI_ANALYSIS_STOPPED.  A signal handler may set it: atomic_int is
	 * lock-free on every platform this builds on (search.c checks).  NULL
	 * for none.  Borrowed.
	 */
	const atomic_int *stop;
	/*
	 * Keep the hash table from one analysis to the next (faster when
	 * analysing consecutive positions of a game, but then a result depends
	 * on what was analysed before).  Off by default: each analysis starts
	 * from an empty table, so results do not depend on order.
	 */
	int keep_hash;
	/*
	 * How repetitions and the move limit are judged inside the search
	 * (rules.h): NULL for XQI_RULES_OPTIONS_INIT (Asian rules, 120 plies
	 * without a capture draw).  Copied.
	 */
	const struct xqi_rules_options *rules;
	/*
	 * Judge nothing by the rules: a position that repeats is a draw
	 * whoever caused it (no perpetual check or chase loses), as chess
	 * engines count repetitions, and there is no move limit.  For
	 * `--rules none`.
	 */
	int plain_repetitions;
};

/*
 * Create a search context (it allocates the hash table).  `o` may be NULL
 * for the defaults.  Returns 0, or XQ_ENOMEM / XQ_ERANGE (hash_mb above
 * 65536) with `d` filled.  One context serves one thread at a time; use one
 * per thread.
 */
int xqi_search_new(struct xqi_search **out, const struct xqi_search_opts *o, struct xq_diagnostic *d);

/* Free the context; NULL is allowed. */
void xqi_search_free(struct xqi_search *s);

/*
 * Search the position after `moves` from `start` (see xqi_analyse() for the
 * checks and `out`).  The history counts for the repetition rules: a
 * perpetual check or chase loses (scored as a mate), other repetitions and
 * the move limit draw; see search.c.
 */
int xqi_search_run(struct xqi_search *s, struct xqi_analysis *out, const struct xqi_position *start,
		  const xqi_move *moves, size_t nmoves, const struct xqi_limit *limit,
		  struct xq_diagnostic *d);

/* An analyser backed by `s` (borrowed; it must outlive the analyser). */
void xqi_search_analyser(struct xqi_analyser *a, struct xqi_search *s);

#endif
