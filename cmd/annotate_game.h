/*
 * annotate_game.h: analysing one game and writing the analysis into it,
 * for `xqkit annotate` (cmd/annotate.c drives the threads and the files).
 *
 * One struct annotator is one analyser (the built-in search, or one
 * external engine process) used by one thread at a time.  annotate_game()
 * analyses every position of a game's main line (and of its variations
 * when asked), then writes into the game: the score after each move as a
 * comment from red's point of view, a NAG for a move that lost enough,
 * the engine's best line as a variation where a move lost more than a
 * threshold, and the marker and summary tags.  With NDJSON output it also
 * renders one "xqkit.eval/1" record per ply and the game's
 * "xqkit.annotated/1" record (doc/ndjson.md).
 *
 * The loss of a move is measured from the side that made it: the value of
 * the position before it (the engine's best) minus the value after it,
 * both from the mover's point of view, never below 0, on the scale of
 * xq_eval_loss() (<xq/analyse.h>: centipawns clamped, mates above any
 * material score); its drop is the same in expected score
 * (xq_eval_drop()), which marks the move unless the settings say to mark
 * by the loss; xq_eval_note() writes the score comments.  The move the
 * engine itself found best loses 0, whatever the two searches (one ply
 * apart, so not quite comparable) say.
 */
#ifndef CMD_ANNOTATE_GAME_H
#define CMD_ANNOTATE_GAME_H

#include <stdint.h>

#include "movetext.h"
#include <xq/analyse.h>
#include <xq/buf.h>
#include <xq/batch.h>


/* Engine failures in one game after which the rest of it is left unanalysed. */
#define ANNOTATE_MAX_FAILURES 3
/* Games in a row whose engine could not be restarted before the run gives up. */
#define ANNOTATE_MAX_RESTART_FAILURES 3

/* The tag that marks an annotated game (and the member of the NDJSON record). */
#define ANNOTATE_MARKER_TAG "XqkitAnnotate"
#define ANNOTATE_EVAL_SCHEMA "xqkit.eval/1"
#define ANNOTATE_GAME_SCHEMA "xqkit.annotated/1"

enum { MARK_INACCURACY, MARK_MISTAKE, MARK_BLUNDER, MARK_COUNT };

/* The limit of each analysis: at least one of them set. */
struct annotate_limit {
	int depth;
	uint64_t nodes;
	uint32_t movetime_ms;
};

/* What every game of a run is annotated with (read-only during the run). */
struct annotate_settings {
	struct annotate_limit limit;
	int variations;           /* analyse the moves of variations too */
	int32_t marks[MARK_COUNT]; /* thresholds, ascending: drops in expected score
				      (hundredths of a percent), or with by_cp centipawn losses */
	int by_cp;                /* mark by the centipawn loss, not by the drop */
	int scale;                /* the engine's centipawns in the expected score
				      (xq_analyser_cp_scale(), or --cp-scale) */
	int32_t pv_threshold;     /* best line for a loss of this much or more; -1: never */
	int ndjson;               /* render xqkit.eval/1 and xqkit.annotated/1 lines */
	int eval_command;         /* scores in comments as "[%eval 0.35,12]", not "+0.35/12" */
	struct movetext mt;       /* notation of the "move" members */
	const char *engine;       /* "built-in" or the engine's name, for records */
	const char *settings;     /* the marker's first part: engine, limit, thresholds */
	const xq_cancel *stop;    /* raised by Ctrl-C; borrowed */
};

/*
 * One analyser (made with XQ_ANALYSER_MANUAL_RESTART, its warnings to
 * annotator_warning() with the annotator as their user) and where its
 * warnings go: the game being annotated, on one thread at a time.
 */
struct annotator {
	xq_analyser *an;
	int builtin;               /* the built-in engine: it looks back a bounded number of plies */
	int restart_failures;      /* games in a row whose restart failed */
	int lost;                  /* gave up: the engine cannot be restarted */
	int oom;                   /* a warning of the engine's could not be kept */
	xq_batch_job *cur_job;  /* the game being annotated, for the warnings */
	uint32_t cur_node, cur_ply;
};

/* The engine's warnings (xq_analyser_options.warn); `user` is the
 * struct annotator. */
void annotator_warning(const xq_diagnostic *d, void *user);

struct annotate_side {
	uint32_t moves;         /* main-line moves whose loss is known */
	uint64_t loss;          /* their losses added up, centipawns */
	uint32_t marks[MARK_COUNT];
};

struct annotate_result {
	uint32_t positions;   /* positions to analyse */
	uint32_t analysed;    /* analysed */
	uint32_t failures;    /* engine failures */
	int complete;         /* every position analysed */
	int interrupted;      /* the stop flag ended it: the game must not be written */
	struct annotate_side side[2];
};

/* The thresholds a move is marked from unless the user gives others:
 * <xq/analyse.h>'s XQ_EVAL_INACCURACY_DROP, _MISTAKE_DROP and
 * _BLUNDER_DROP (drops in expected score), or with `by_cp` XQ_EVAL_INACCURACY,
 * _MISTAKE and _BLUNDER (centipawns). */
void annotate_default_marks(int32_t marks[MARK_COUNT], int by_cp);

/* The marker of a game annotated with `settings`: "SETTINGS; input HEX",
 * plus "; incomplete" when not every position was analysed. */
int annotate_marker(struct xq_buf *out, const char *settings, uint64_t fingerprint,
		    int complete);

/*
 * Analyse the game of job `j` and annotate it in place (see the top of
 * this file).  Diagnostics (engine failures, positions not sent) go to the
 * job's.  With settings->ndjson the records go to `ndjson` (appended; a
 * record that could not be written whole is XQ_ENOMEM).  Returns 0, or
 * XQ_ENOMEM; a stop leaves res->interrupted set and the game half
 * annotated (it must not be written).
 */
int annotate_game(struct annotator *a, const struct annotate_settings *s, xq_batch_job *j,
		  uint64_t fingerprint, struct xq_buf *ndjson, struct annotate_result *res);

#endif
