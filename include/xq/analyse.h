/*
 * <xq/analyse.h>: analysing positions with the built-in engine or with an
 * external UCI/UCCI engine (Pikafish, Fairy-Stockfish, ...), through one
 * interface: give a record and a node, get the score of the position after
 * that node, the depth, the best move and the principal variation.  The
 * moves from the start to the node are the history, so repetitions count
 * (a perpetual check or chase loses, scored as a mate).
 *
 * The built-in engine (an iterative-deepening principal-variation search
 * with an evaluation tuned on real games) needs nothing
 * installed, and under a depth or node limit gives the same answer on
 * every run and every machine.  An external engine is spawned as a child
 * process (the protocol is found from its handshake, Fairy-Stockfish's
 * xiangqi variant set); a crash or hang is an XQ_EENGINE error, after
 * which the next call starts it again.
 *
 * An analyser is owned by the caller; one thread at a time each (an
 * external engine is one process; use one analyser per thread).
 */
#ifndef XQ_PUBLIC_ANALYSE_H
#define XQ_PUBLIC_ANALYSE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "io.h"
#include "record.h"
#include "rules.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct xq_analyser xq_analyser;

/* Score kinds: centipawns, or mate in `score` of the mover's own moves
 * (XQ_EVAL_MATE: the side to move mates; XQ_EVAL_MATED: it is mated, 0 =
 * it has no legal move now, which loses). */
enum xq_eval_kind { XQ_EVAL_CP = 0, XQ_EVAL_MATE = 1, XQ_EVAL_MATED = 2 };

#define XQ_PV_SIZE 64
/* The largest depth limit an analysis takes (a larger one is XQ_ERANGE). */
#define XQ_ANALYSIS_MAX_DEPTH 64

/* What an analysis found.  Set `size` (XQ_ANALYSIS_RESULT_INIT) so that
 * later versions can add fields. */
typedef struct xq_analysis_result {
	size_t size;         /* sizeof(xq_analysis_result) */
	int kind;            /* XQ_EVAL_*, from the side to move's point of view */
	int score;           /* centipawns (a pawn is 100), or moves to mate */
	int depth;           /* depth of the last completed iteration */
	uint64_t nodes;      /* nodes searched, when known */
	uint32_t time_ms;    /* time taken */
	xq_move_code best;   /* best move; 0 when there is no legal move */
	size_t pv_len;       /* moves in pv (pv[0] == best) */
	xq_move_code pv[XQ_PV_SIZE]; /* the principal variation, legal in turn */
	int stopped;         /* the limit cut an iteration short (a time limit),
				or the cancel flag stopped it (the best so far) */
	int no_moves;        /* the side to move had no legal move: XQ_EVAL_MATED
				0, no best move, nothing searched (no depth) */
} xq_analysis_result;
#define XQ_ANALYSIS_RESULT_INIT {sizeof(xq_analysis_result), 0, 0, 0, 0, 0, 0, 0, {0}, 0, 0}

/* The built-in engine with a hash table of `hash_mb` MiB (0: 16).  0 with
 * *out set, XQ_ERANGE (hash_mb over 65536) or XQ_ENOMEM.
 * NULL `out`: XQ_EINVAL. */
XQ_API int xq_analyser_new_builtin(xq_analyser **out, size_t hash_mb);
/*
 * An external engine: `path` (a path, or a name looked up in PATH) with
 * the arguments `args` (NULL-terminated, or NULL).  The engine is started
 * and its handshake read.  Returns 0 with *out set; XQ_EENGINE (cannot
 * start it, no handshake) or XQ_ENOMEM, the reason in `fn`.
 * NULL `out` or `path`: XQ_EINVAL.
 */
XQ_API int xq_analyser_new_program(xq_analyser **out, const char *path, char *const *args,
				   xq_diagnostic_fn fn, void *user);
/*
 * Every setting of an analyser, for xq_analyser_open().  Set `size`
 * (XQ_ANALYSER_OPTIONS_INIT) so that later versions can add fields.
 */
typedef struct xq_analyser_options {
	size_t size;                /* sizeof(xq_analyser_options) */
	/* The external engine: a path, or a name looked up in PATH; NULL for
	 * the built-in engine.  `args`: its arguments, NULL-terminated, or
	 * NULL.  Both borrowed for the call. */
	const char *program;
	char *const *args;
	/* External engine: "uci", "ucci", or NULL / "auto" to find it from
	 * the handshake. */
	const char *protocol;
	/* External engine: "NAME=VALUE" settings sent after the handshake, in
	 * order (split at the first '='; the value may be empty),
	 * NULL-terminated, or NULL.  Copied. */
	const char *const *settings;
	/* External engine: the longest a depth- or node-limited search may
	 * take before the engine is deemed hung (a movetime search: its
	 * movetime plus this), and the handshake and every other wait at most
	 * the smaller of this and 10 s.  0: 300 s and 10 s. */
	uint32_t timeout_ms;
	/* Built-in engine: hash table MiB (0: 16), and the repetition rules
	 * its search judges by: XQ_RULESET_* (<xq/rules.h>), or -1 for none
	 * (a repetition is a draw, no move limit). */
	size_t hash_mb;
	int ruleset;
	/* Polled during a search and while waiting for an engine: once set,
	 * a search returns at once with its best so far (`stopped`), a wait
	 * ends.  Borrowed; NULL for none. */
	const xq_cancel *cancel;
	/* Warnings of an external engine while it analyses (a garbage line,
	 * a setting it does not list), each as it comes; NULL to drop them. */
	xq_diagnostic_fn warn;
	void *warn_user;
	unsigned flags;             /* XQ_ANALYSER_* */
} xq_analyser_options;
/* xq_analyser_options.flags: after an XQ_EENGINE failure the caller
 * restarts the engine itself (xq_analyser_restart()); by default the next
 * run does. */
enum { XQ_ANALYSER_MANUAL_RESTART = 1 << 0 };
#define XQ_ANALYSER_OPTIONS_INIT                                                          \
	{sizeof(xq_analyser_options), NULL, NULL, NULL, NULL, 0, 0, XQ_RULESET_ASIAN, NULL, \
	 NULL, NULL, 0}

/*
 * An analyser with every setting (NULL `o`: the built-in engine's
 * defaults).  Returns 0 with *out set; XQ_ERANGE (a setting that cannot
 * be used: a bad protocol or ruleset, a setting without '=' or with a
 * control character, hash_mb over 65536), XQ_EENGINE (the engine cannot
 * be started, or no handshake) or XQ_ENOMEM, with *out NULL and the
 * reason in `fn`.  NULL `out`: XQ_EINVAL.
 */
XQ_API int xq_analyser_open(xq_analyser **out, const xq_analyser_options *o, xq_diagnostic_fn fn,
			    void *user);
/* Is `text` a setting xq_analyser_open() takes ("NAME=VALUE")?  0, or
 * XQ_ERANGE with the reason in `fn`: to check a command line before any
 * engine starts.  NULL `text`: XQ_EINVAL. */
XQ_API int xq_analyser_check_setting(const char *text, xq_diagnostic_fn fn, void *user);
/* A short description ("built-in", "Pikafish 2024-06-11").  Valid while
 * the analyser is.  NULL `a`: NULL. */
XQ_API const char *xq_analyser_description(const xq_analyser *a);
/* The protocol spoken: "uci" or "ucci" for an external engine (as found
 * from the handshake), "built-in" for the built-in engine.  NULL `a`: NULL. */
XQ_API const char *xq_analyser_protocol(const xq_analyser *a);
/* Is the analyser ready to run?  0 when its external engine has stopped
 * (crashed, killed after a hang, or could not be restarted); always 1
 * for the built-in engine.  NULL `a`: 0. */
XQ_API int xq_analyser_is_running(const xq_analyser *a);
/* Stop the external engine if it runs and start it again with the same
 * settings.  0; XQ_EENGINE with the reason in `fn`.  Nothing to do (0)
 * for the built-in engine.  NULL `a`: XQ_EINVAL. */
XQ_API int xq_analyser_restart(xq_analyser *a, xq_diagnostic_fn fn, void *user);
/*
 * Analyse the position after node `n` of `r` under a limit (a zero limit
 * is none; at least one is needed; depth and nodes are deterministic,
 * movetime_ms is not).  Returns 0 with *out filled; XQ_ERANGE (no limit),
 * XQ_ENOTFOUND (no node `n`), XQ_EILLEGAL (a start position that cannot
 * occur), XQ_EENGINE (the external engine failed: it is restarted on the
 * next call), with the reason in `fn`.  NULL `a`, `r` or `out`: XQ_EINVAL.
 */
XQ_API int xq_analyser_run(xq_analyser *a, xq_record *r, uint32_t n, int depth, uint64_t nodes,
			   uint32_t movetime_ms, xq_analysis_result *out, xq_diagnostic_fn fn,
			   void *user);
/*
 * The same for the position that moves[0..n) reach from `from`: the moves
 * are the history the analyser sees (repetitions count over them), so a
 * caller that walks a long game may hand each position over from a
 * position kept on the way, with only the moves since (an analyser looks
 * back no further than the last capture).  XQ_EILLEGAL, with the reason
 * in `fn`, when a move is not legal in turn.
 * NULL `a`, `from` or `out`, or NULL `moves` with n > 0: XQ_EINVAL.
 * NULL `a`, `from`, `moves` or `out`: XQ_EINVAL.
 */
XQ_API int xq_analyser_run_line(xq_analyser *a, const xq_position *from, const xq_move_code *moves,
				size_t n, int depth, uint64_t nodes, uint32_t movetime_ms,
				xq_analysis_result *out, xq_diagnostic_fn fn, void *user);
/* Stop and free (an external engine is told to quit, then killed, and
 * reaped).  NULL is allowed. */
XQ_API void xq_analyser_free(xq_analyser *a);

/*
 * Scores in comments.  `xqkit annotate` writes the score after each move
 * into its comment, from red's point of view (red moves first, as white
 * does in chess): pawns with a sign, two decimals, "/" and the depth
 * ("+0.35/12", "-1.20/8", "0.00/4"), or a mate ("#3": red mates in 3 of
 * its moves; "#-3": red is mated in 3); or, as chess tools write it, a
 * command "[%eval 0.35,12]" / "[%eval #-3]".  A score here is a kind
 * (XQ_EVAL_*) and a value, from red's point of view.
 */

/* Bytes that always hold a note xq_eval_note() writes. */
#define XQ_EVAL_NOTE_SIZE 32
/* xq_eval_note() flags: the chess tools' "[%eval ...]" form; or the score
 * alone, without its depth ("+0.35", "#-3"), as NDJSON records give it. */
enum { XQ_EVAL_NOTE_COMMAND = 1 << 0, XQ_EVAL_NOTE_NO_DEPTH = 1 << 1 };

/* The score (`kind`, `score`: red's view) and `depth` as a note into `buf`
 * (`cap` bytes, NUL-terminated, cut when too small); returns its length.
 * A mate has no depth.  NULL `buf`: 0. */
XQ_API size_t xq_eval_note(char *buf, size_t cap, int kind, int score, int depth, unsigned flags);
/*
 * The score the comment `comment` (UTF-8) holds, in either form (the
 * annotate form, its last word, when it has both): 1 with *kind, *score
 * (red's view) and *depth (0 when not said) set (any may be NULL); 0 when
 * it holds none.  Only the exact forms count: "score 1.5" or "+0.3/12"
 * (one decimal) is no score.  NULL `comment`: 0.
 */
XQ_API int xq_eval_note_find(const char *comment, int *kind, int *score, int *depth);
/*
 * What a move lost, in centipawns, for the side that made it (`side`: 0
 * red, 1 black): the score before it minus the score after it, both red's
 * view as comments hold them, never below 0.  Centipawns count up to
 * 2000; a mate outranks any of them, a nearer mate a farther one, so
 * throwing a mate away is a large loss.
 */
XQ_API int32_t xq_eval_loss(int kind_before, int score_before, int kind_after, int score_after,
			    int side);

/*
 * Winning chances.  A centipawn score `cp` for one side means an expected
 * score (a win 1, a draw 1/2) of E = 1 / (1 + exp(-cp / scale)) for that
 * side, where `scale` is the engine's (xq_analyser_cp_scale()); a mate for
 * it is 1, being mated 0.  xq_eval_expected() gives E for a score (`kind`,
 * `score`, the side's own view) in hundredths of a percent, 0..10000,
 * computed the same on every machine.  xq_eval_drop() is what a move lost
 * in it for the side that made it (`side`: 0 red, 1 black; both scores
 * red's view, as comments hold them), never below 0: a move that loses
 * material in a position already decided loses little.  A `scale` below
 * 1 counts as 1.
 */
XQ_API int32_t xq_eval_expected(int kind, int score, int scale);
XQ_API int32_t xq_eval_drop(int kind_before, int score_before, int kind_after, int score_after,
			    int side, int scale);
/*
 * The scale of the analyser's centipawns in that formula: the built-in
 * engine's XQ_EVAL_SCALE_BUILTIN; for an external engine, by the name it
 * gives in its handshake, XQ_EVAL_SCALE_FAIRY_STOCKFISH for
 * Fairy-Stockfish, XQ_EVAL_SCALE_PIKAFISH for Pikafish, and the built-in
 * engine's for any other.  NULL `a`: XQ_EINVAL.
 */
XQ_API int xq_analyser_cp_scale(const xq_analyser *a);
#define XQ_EVAL_SCALE_BUILTIN 195
#define XQ_EVAL_SCALE_FAIRY_STOCKFISH 230
#define XQ_EVAL_SCALE_PIKAFISH 110

/* The drops in expected score (hundredths of a percent) from which xqkit
 * annotate marks a move, unless told otherwise; the centipawn losses it
 * marks by when asked to (--inaccuracy, --mistake, --blunder); and the
 * NAGs it marks them with. */
#define XQ_EVAL_INACCURACY_DROP 500 /* ?! ($6): 5 points */
#define XQ_EVAL_MISTAKE_DROP 1000   /* ?  ($2): 10 points */
#define XQ_EVAL_BLUNDER_DROP 1500   /* ?? ($4): 15 points */
#define XQ_EVAL_INACCURACY 50 /* ?! ($6) */
#define XQ_EVAL_MISTAKE 100   /* ?  ($2) */
#define XQ_EVAL_BLUNDER 300   /* ?? ($4) */
#define XQ_NAG_INACCURACY 6
#define XQ_NAG_MISTAKE 2
#define XQ_NAG_BLUNDER 4

#ifdef __cplusplus
}
#endif

#endif
