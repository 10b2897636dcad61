/*
 * <xq/rules.h>: results decided by rule rather than by mate: repetition
 * cycles (perpetual check, perpetual chase, ...) and move limits, judged
 * under the Asian (AXF) or Chinese (CXA) rules, and whether a record's
 * result agrees with them.
 *
 * Positions repeat by pieces and side to move, since the last capture.
 * A side that checks on every move of a cycle loses; under the Asian
 * rules one that chases one and the same piece on every move loses too,
 * under the Chinese rules one whose every move checks, threatens mate or
 * chases; otherwise a repetition is a draw.  120 plies without a capture
 * draw.  xqkit-validate(1) (--rules) and lib/rules.h in xqkit's sources
 * give the details and the rule numbers.
 *
 * The functions take a record (one thread at a time, as every record).
 */
#ifndef XQ_PUBLIC_RULES_H
#define XQ_PUBLIC_RULES_H

#include <stdint.h>

#include "error.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rule sets. */
enum xq_ruleset { XQ_RULESET_ASIAN = 0, XQ_RULESET_CHINESE = 1 };
/* "asian" (also "axf", "wxf") or "chinese" (also "cxa"), any case: the
 * rule set, or XQ_ENOTFOUND.  NULL `name`: XQ_EINVAL. */
XQ_API int xq_ruleset_from_name(const char *name);
/* The name of rule set `ruleset`: "asian" or "chinese", "none" for -1
 * (no repetition rules, as options that take -1 say), NULL for any other
 * value. */
XQ_API const char *xq_ruleset_name(int ruleset);

/* What the rules give at the end of a line. */
enum xq_ruling {
	XQ_RULING_NONE = 0,      /* nothing: no repetition or limit ends the line */
	XQ_RULING_DRAW = 1,      /* a repetition allowed to both, or a move limit */
	XQ_RULING_RED_LOSES = 2, /* red's perpetual check or chase (or CXA conduct) */
	XQ_RULING_BLACK_LOSES = 3
};

/*
 * The ruling on the line from the start to node `n` (XQ_RULING_*): a
 * repetition whose last position is the one at `n` (seen at least twice),
 * judged by each side's conduct over the cycle; else a move limit reached
 * on the way.  When `why` is not NULL, *why is set to a description (the
 * cycle's plies, the moves of one period, each side's conduct and the
 * rule that decides; or the limit), malloc'd, freed with xq_free(), or
 * NULL when the ruling is XQ_RULING_NONE.  Returns the ruling (>= 0), or
 * XQ_ENOTFOUND (no node `n`) or XQ_ENOMEM.  NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_ruling(xq_record *r, uint32_t n, int ruleset, char **why);

/*
 * The rules along the main line of a record, ply by ply: which moves
 * belong to a repetition cycle, each one's kind, each cycle's verdict and
 * description, and the move limits reached, as `xqkit replay` shows them.
 * Opaque; it does not refer to the record once made.
 */
typedef struct xq_rules_line xq_rules_line;

/* Analyse the main line of `r` under `ruleset` (XQ_RULESET_*): 0 with
 * *out set (free it with xq_rules_line_free()), or XQ_ENOMEM.
 * NULL `r` or `out`: XQ_EINVAL. */
XQ_API int xq_record_rules_line(xq_record *r, int ruleset, xq_rules_line **out);
/* Free it (NULL is fine). */
XQ_API void xq_rules_line_free(xq_rules_line *l);
/* The plies (moves) of the line analysed.  NULL `l`: 0. */
XQ_API uint32_t xq_rules_line_plies(const xq_rules_line *l);
/*
 * Ply `ply` (from 1) of the line: the number (from 1) of the first
 * repetition cycle whose moves hold it, or 0 when none does (or there is
 * no such ply).  For a ply of a cycle, *kind (may be NULL) is set to the
 * move's kind under the rules ("check", "kill", "chase", "idle",
 * "unclassified") and *verdict (may be NULL) to the cycle's verdict at
 * its last ply ("draw", "red loses", "black loses", "none"), NULL at its
 * other plies.  Static strings.  NULL `l`: 0.
 */
XQ_API int xq_rules_line_cycle(const xq_rules_line *l, uint32_t ply, const char **kind,
			       const char **verdict);
/*
 * Cycle `cycle` (from 1) described: its plies, the moves of one period,
 * each side's conduct and the rule that decides, in lines, into *text
 * (malloc'd, freed with xq_free()).  Returns 1; 0 when there is no such
 * cycle (*text NULL); or XQ_ENOMEM.  NULL `l` or `text`: XQ_EINVAL.
 */
XQ_API int xq_rules_line_describe_cycle(const xq_rules_line *l, int cycle, char **text);
/*
 * The `i`-th (from 0) move limit reached at ply `ply` described (which
 * limit, counted since which ply, and whether a mate there decides
 * instead) into *text (malloc'd, freed with xq_free()).  Returns 1; 0
 * when there is no such limit (*text NULL); or XQ_ENOMEM.
 * NULL `l` or `text`: XQ_EINVAL.
 */
XQ_API int xq_rules_line_limit(const xq_rules_line *l, uint32_t ply, size_t i, char **text);

/* How the rules stand to a record's result (xq_record_check_result()). */
enum {
	XQ_RESULT_CHECK_SILENT = 0,       /* no rule ends the main line: the result rests on mate,
					     resignation, agreement or time, not checked here */
	XQ_RESULT_CHECK_CONFIRMED = 1,    /* the rules give exactly the recorded result */
	XQ_RESULT_CHECK_CONTRADICTED = 2, /* they give another (a forbidden perpetual whose
					     offender does not lose) */
	XQ_RESULT_CHECK_DOUBTFUL = 3      /* the rules draw, the record decides: possible
					     (resignation, time) but worth a warning */
};

/*
 * Do the rules support the recorded result of the main line?  Looks at
 * the end of the main line only, as `xqkit validate` does.  Unless the
 * answer is XQ_RESULT_CHECK_SILENT with nothing to say, one diagnostic
 * goes to `fn` (may be NULL): code "repetition", "perpetual-check",
 * "perpetual-chase" or "move-limit"; severity note (confirmed), warning
 * (doubtful) or error (contradicted); the ply and move of the cycle's
 * last move, and where that move was written in the source.  Returns the
 * XQ_RESULT_CHECK_* value (>= 0), or XQ_ENOMEM.  A broken record is
 * checked up to where it stops.  NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_check_result(xq_record *r, int ruleset, xq_diagnostic_fn fn, void *user);

/* The options of xq_record_validate(): start from
 * XQ_VALIDATE_OPTIONS_INIT (`size` lets later versions add fields). */
typedef struct xq_validate_options {
	size_t size;                 /* sizeof(xq_validate_options) */
	int ruleset;                 /* XQ_RULESET_*, or -1: no repetition or move limit checked */
	const char *const *required; /* tags every record must have (NULL: none) */
	size_t nrequired;
} xq_validate_options;
#define XQ_VALIDATE_OPTIONS_INIT {sizeof(xq_validate_options), XQ_RULESET_ASIAN, NULL, 0}

/*
 * Check what only a whole record shows, as `xqkit validate` does (its
 * reader checked every move as it read it):
 *   - the start position (pieces where they can never stand: a warning;
 *     a position that cannot occur: an error) and the FEN tag against it;
 *   - the Result tag against the record's result;
 *   - the result against the final position (a mate or stalemate is won
 *     by the side that gave it; a decisive result with no mate is a note,
 *     "resignation"; no result is a note, "no-result") and, unless
 *     o->ruleset is -1, against the repetition and move-limit rules as
 *     xq_record_check_result() says;
 *   - the Date tag, the tags o->required names, a record with no moves.
 * Each problem goes to `fn` (may be NULL), at its move or tag when the
 * reader kept their places.  What the reader that read `r`
 * (xq_reader_next()) reported already (a rejected FEN, a missing result,
 * a Result tag against the result, no moves) is not said again.  `o` may
 * be NULL (the defaults).  Returns what the rules say of the recorded
 * result (XQ_RESULT_CHECK_*, >= 0; XQ_RESULT_CHECK_SILENT without rules),
 * or XQ_ENOMEM.  A broken record is checked up to where it stops.
 * NULL `r`: XQ_EINVAL.
 */
XQ_API int xq_record_validate(xq_record *r, const xq_validate_options *o, xq_diagnostic_fn fn,
			      void *user);
/*
 * After xq_record_validate(): does the reader's "bad-result" warning (its
 * Result tag against the record's result, said when `r` was read) stand
 * as an error?  1 when the tag names a result and it is not the record's,
 * as `xqkit validate` counts it; 0 otherwise (no such warning, or a tag
 * that says nothing).  NULL `r`: 0.
 */
XQ_API int xq_record_result_tag_stands(const xq_record *r);

#ifdef __cplusplus
}
#endif

#endif
