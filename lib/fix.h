/*
 * fix.h: what a game record can be proven to mean, for `convert --fix`.
 *
 * Two questions, answered without changing anything:
 *
 * - a date as records write it (1999年3月5日, 1999-03-05, 19990305,
 *   3/25/1999, 81-1-14, ...): is its meaning certain, and what is it in
 *   PGN's form YYYY.MM.DD with ?? for unknown parts?  A form with two
 *   readings (4/7/1994: April or July?  26.5.01: which part is the year?)
 *   is ambiguous and never guessed at;
 * - the result a game's main line proves: checkmate or stalemate at its
 *   end (in xiangqi the side that cannot move loses, either way) or, with
 *   repetition rules, a forbidden perpetual (check, chase) that the final
 *   position repeats, which the offender loses.
 *
 * Nothing here prints or allocates outside the caller's values.
 */
#ifndef XQ_FIX_H
#define XQ_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "game.h"
#include "rules.h"

/* ---- dates --------------------------------------------------------------- */

enum xq_date_kind {
	XQ_DATE_CANONICAL, /* already YYYY.MM.DD (?? for unknown parts): nothing to do */
	XQ_DATE_FIXED,     /* a date whose meaning is certain: `date` is its PGN form */
	XQ_DATE_AMBIGUOUS, /* a date that can be read two ways: `why` says which */
	XQ_DATE_UNKNOWN    /* not a form of date read here, or no such day: `why` says */
};

#define XQ_DATE_MAX 11 /* "YYYY.MM.DD" and its NUL */
#define XQ_TIME_MAX 9  /* "HH:MM:SS" and its NUL */

struct xq_date {
	char date[XQ_DATE_MAX]; /* XQ_DATE_FIXED: the PGN form */
	char time[XQ_TIME_MAX]; /* a time of day written after the date (20091114-09：00),
				   as HH:MM:SS; "" when there was none */
	char why[96];           /* XQ_DATE_AMBIGUOUS, XQ_DATE_UNKNOWN: the reason */
};

/*
 * Read the `len` bytes of `s` (UTF-8) as a date.  Space around the date
 * (ASCII or U+3000) is ignored.  Forms read with certainty:
 *   YYYY年[M月[D日]]   (a blank month or day is unknown: ??)
 *   YYYY.M.D, YYYY.M, YYYY, with '.', '-', '/', ':', '、', '。' or '．'
 *     (one of them throughout), parts of one or two digits or '?'s
 *   YYYYMMDD, also followed by -HH:MM or -HH：MM (the time goes to `time`)
 *   A/B/YYYY when one of A, B is over 12 (that one is the day) or A = B
 *   YY-M-D when YY is 32 to 99 (it cannot be a day: 1932-1999)
 * Months and days are checked against the calendar (leap years too).
 */
enum xq_date_kind xq_date_normalize(struct xq_date *out, const char *s, size_t len);

/* ---- results -------------------------------------------------------------- */

enum xq_proof {
	XQ_PROOF_NONE = 0,  /* the main line proves no result */
	XQ_PROOF_CHECKMATE,
	XQ_PROOF_STALEMATE,
	XQ_PROOF_PERPETUAL  /* a forbidden perpetual the final position repeats */
};

struct xq_result_proof {
	enum xq_proof why;
	enum xq_result result;  /* what it proves (XQ_RESULT_NONE when nothing) */
	uint32_t ply;           /* plies in the main line: where the proof stands */
	uint32_t first;         /* XQ_PROOF_PERPETUAL: the cycle's plies first+1..ply */
	enum xq_rules_conduct conduct; /* XQ_PROOF_PERPETUAL: the offender's conduct */
	enum xq_rules_set rules;       /* XQ_PROOF_PERPETUAL: the rule set that judged */
};

/*
 * The result the main line of `g` proves.  `o` NULL: mate and stalemate
 * only; else also the repetition rules of `o`.  A broken game proves
 * nothing (its moves stop at an error).  Returns 0 or XQ_ENOMEM (or
 * XQ_EILLEGAL from the rules analysis, with `d` saying why; `d` may be
 * NULL).
 */
int xq_result_prove(struct xq_result_proof *p, const struct xq_game *g,
		    const struct xq_rules_options *o, struct xq_diag *d);

#endif
