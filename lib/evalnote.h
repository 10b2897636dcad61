/*
 * evalnote.h: engine scores written into game comments, and read back out
 * of them, and the scale on which a move's loss is measured.
 *
 * `xqkit annotate` writes the score after each move into its comment;
 * the HTML writer reads those scores back to draw an evaluation graph and
 * sum up each player's losses.  Both sides of that contract live here.
 *
 * Two written forms are recognised, both from red's point of view (red
 * moves first, as white does in chess):
 *
 *   annotate's    the comment's last word: pawns with a sign and two
 *                 decimals, "/" and the search depth ("+0.35/12",
 *                 "-1.20/8", "0.00/4": zero has no sign), or a mate,
 *                 "#3" (red mates in 3 of its moves), "#-3" (red is mated
 *                 in 3), "#0" / "#-0" once the mate is on the board.
 *   chess tools'  a "[%eval VALUE]" command anywhere in the comment, as
 *                 Lichess and other chess programs write it: VALUE is
 *                 pawns with any number of decimals and an optional sign
 *                 ("0.35", "-1.2", "+3"), or "#N" / "#-N" for a mate, and
 *                 may be followed by ",DEPTH" ("[%eval 0.35,18]").
 *
 * When a comment holds both, the annotate form (the last word) is taken:
 * it is the newer, since annotate appends its score to what was there.
 */
#ifndef XQI_LIB_EVALNOTE_H
#define XQI_LIB_EVALNOTE_H

#include <stddef.h>
#include <stdint.h>

#include <xq/analyse.h>

#include "search.h"

/* Longest text xqi_evalnote_format() writes, with the NUL. */
#define XQI_EVALNOTE_MAX (XQI_SCORE_TEXT_MAX + 12)

/* A score found in a comment. */
struct xqi_evalnote {
	struct xqi_score score; /* red's point of view */
	int depth;             /* the search depth, 0 when the comment does not say */
	size_t start, end;     /* the bytes [start, end) of the comment that hold it */
};

/*
 * Write `red` (a score from red's point of view) as annotate writes it in
 * a comment: "+0.35/12" with the depth for centipawns, "#-3" for mates.
 * NUL-terminated in `buf` of `cap` bytes (XQI_EVALNOTE_MAX is enough);
 * returns the length written.
 */
size_t xqi_evalnote_format(char *buf, size_t cap, struct xqi_score red, int depth);

/*
 * Write `red` as chess tools' "[%eval VALUE]" command: pawns with two
 * decimals and a sign only when negative, and ",DEPTH" after it
 * ("[%eval 0.35,12]"), or a mate ("[%eval #-3]").  NUL-terminated in
 * `buf` of `cap` bytes (XQI_EVALNOTE_MAX is enough); returns the length
 * written.  xqi_evalnote_find() reads it back.
 */
size_t xqi_evalnote_format_command(char *buf, size_t cap, struct xqi_score red, int depth);

/*
 * Find the score in the first `len` bytes of `comment` (UTF-8, need not
 * be NUL-terminated), in either form above.  Returns 1 with *out filled,
 * or 0 when the comment holds none (then *out is untouched).  Only the
 * exact forms count: "score 1.5" or "+0.3/12" (one decimal) is not a
 * score, so ordinary comments are never mistaken for one.
 */
int xqi_evalnote_find(struct xqi_evalnote *out, const char *comment, size_t len);

/*
 * The scale losses are measured on.  Centipawns are clamped to
 * +-XQI_EVALNOTE_CP_CAP; a mate in n for the viewing side is
 * XQI_EVALNOTE_MATE - n (n capped at 100) and being mated in n its
 * negation, so a forced mate outranks any material score, a shorter mate
 * a longer one, and throwing a mate away is a large loss.
 */
#define XQI_EVALNOTE_CP_CAP 2000
#define XQI_EVALNOTE_MATE 3000
int32_t xqi_evalnote_value(struct xqi_score s);

/*
 * What a move lost for the side that made it (`mover`: XQI_RED or
 * XQI_BLACK): the value of the score before it minus the value of the
 * score after it, both from red's point of view as comments hold them and
 * turned to the mover's, never below 0.
 */
int32_t xqi_evalnote_loss(struct xqi_score red_before, struct xqi_score red_after, int mover);

/*
 * Winning chances.  A centipawn score means an expected score (a win 1, a
 * draw 1/2) of
 *
 *     E(cp) = 1 / (1 + exp(-cp / scale))
 *
 * for the side it is from, where `scale` belongs to the engine that gave
 * it (the built-in engine's is XQI_EVAL_SCALE, fitted with its evaluation
 * on real games' results; see xq_analyser_cp_scale()); a mate for that
 * side is 1, being mated 0.  xqi_evalnote_expected() gives E in
 * hundredths of a percent (0..10000), rounded, computed with the basic
 * floating-point operations only (no libm), so that every machine gets the
 * same number and the same marks.
 */
#define XQI_EVALNOTE_CHANCE_MAX 10000
int32_t xqi_evalnote_expected(struct xqi_score s, int32_t scale);

/*
 * What a move lost in expected score for the side that made it, in
 * hundredths of a percent: E of the score before it minus E of the score
 * after it, both from red's point of view as comments hold them and turned
 * to the mover's, never below 0.  So a move that loses a rook in a
 * position already lost, or already won, loses little: the chances were
 * decided before it.
 */
int32_t xqi_evalnote_drop(struct xqi_score red_before, struct xqi_score red_after, int mover,
			  int32_t scale);

/* The thresholds from which annotate marks a move ?! ? ?? unless told
 * otherwise, and the NAGs it marks them with, are the public
 * XQ_EVAL_INACCURACY_DROP ... (drops in expected score),
 * XQ_EVAL_INACCURACY ... (centipawn losses, when asked for) and
 * XQ_NAG_INACCURACY ... (<xq/analyse.h>). */

#endif
