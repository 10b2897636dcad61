/*
 * <xq/fix.h>: what a record can be proven to mean, to repair it the way
 * `xqkit convert --fix` does, without guessing:
 *
 * - a date as records write it (1999年3月5日, 1999-03-05, 19990305,
 *   3/25/1999, 81-1-14, ...): is its meaning certain, and what is it in
 *   PGN's form YYYY.MM.DD with ?? for unknown parts?  A form with two
 *   readings (4/7/1994: April or July?  26.5.01: which part is the year?)
 *   is ambiguous and never guessed at;
 * - what a result written in words says (红胜 is 1-0);
 * - the result a record's main line proves: checkmate or stalemate at its
 *   end (in xiangqi the side that cannot move loses, either way) or, under
 *   a rule set, a forbidden perpetual (check, chase) that the final
 *   position repeats, which the offender loses.
 *
 * Nothing here changes a record: the caller decides what to do with the
 * answer.  The functions use no global state.
 */
#ifndef XQ_PUBLIC_FIX_H
#define XQ_PUBLIC_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- dates --------------------------------------------------------------- */

/* What xq_date_normalize() found. */
enum xq_date_kind {
	XQ_DATE_CANONICAL = 0, /* already YYYY.MM.DD (?? for unknown parts): nothing to do */
	XQ_DATE_FIXED = 1,     /* a date whose meaning is certain: `date` is its PGN form */
	XQ_DATE_AMBIGUOUS = 2, /* a date that can be read two ways: `why` says which */
	XQ_DATE_UNKNOWN = 3    /* not a form of date read here, or no such day: `why` says;
				  an empty or blank text is "no date" */
};

#define XQ_DATE_MAX 11 /* "YYYY.MM.DD" and its NUL */
#define XQ_TIME_MAX 9  /* "HH:MM:SS" and its NUL */

/* A date read.  The caller owns it (on the stack); its layout is part of
 * the ABI of version 0. */
typedef struct xq_date {
	char date[XQ_DATE_MAX]; /* XQ_DATE_FIXED: the PGN form */
	char time[XQ_TIME_MAX]; /* a time of day written after the date (20091114-09：00),
				   as HH:MM:SS; "" when there was none */
	char why[96];           /* XQ_DATE_AMBIGUOUS, XQ_DATE_UNKNOWN: the reason */
} xq_date;

/*
 * Read the `len` bytes of `s` (UTF-8) as a date into *out; returns its
 * kind (XQ_DATE_*).  Space around the date (ASCII or U+3000) is ignored.
 * Forms read with certainty:
 *   YYYY年[M月[D日]]   (a blank month or day is unknown: ??)
 *   YYYY.M.D, YYYY.M, YYYY, with '.', '-', '/', ':', '、', '。' or '．'
 *     (one of them throughout), parts of one or two digits or '?'s
 *   YYYYMMDD, also followed by -HH:MM or -HH：MM (the time goes to `time`)
 *   A/B/YYYY when one of A, B is over 12 (that one is the day) or A = B
 *   YY-M-D when YY is 32 to 99 (it cannot be a day: 1932-1999)
 * Months and days are checked against the calendar (leap years too).
 * NULL `out`, or NULL `s` with len > 0: XQ_EINVAL.
 * NULL `out` or `s`: XQ_EINVAL.
 */
XQ_API int xq_date_normalize(xq_date *out, const char *s, size_t len);

/* ---- results -------------------------------------------------------------- */

/* The standard result `text` spells: "1-0", "0-1", "1/2-1/2" (also
 * written ½-½) or "*"; NULL when it is none of them (a result in words,
 * 红胜, is the record's own).  Static strings.  NULL `text`: NULL. */
XQ_API const char *xq_result_canonical(const char *text);
/* The standard result `text`, a result as records write it, says: what
 * xq_result_canonical() reads, and the results in words that the readers
 * read (红胜, 黑負, 紅先勝, 和棋, 先负, "Red wins", "draw", 未知: the
 * list is in xqkit(1), RESULTS).  A word that names the side that moves
 * first (先胜, 后负) is read for the start position of `r` (NULL: red
 * moves first).  "1-0", "0-1", "1/2-1/2" or "*" (static strings), or NULL
 * when `text` (NULL too) is none of them.  Thread-safe; `r` is only read. */
XQ_API const char *xq_result_read(const char *text, const xq_record *r);

/* What proves a result (xq_proof.why). */
enum xq_proof_kind {
	XQ_PROOF_NONE = 0, /* the main line proves no result */
	XQ_PROOF_CHECKMATE = 1,
	XQ_PROOF_STALEMATE = 2,
	XQ_PROOF_PERPETUAL = 3 /* a forbidden perpetual the final position repeats */
};

/* The result a main line proves.  The caller owns it; its layout is part
 * of the ABI of version 0. */
typedef struct xq_proof {
	int why;             /* XQ_PROOF_* */
	const char *result;  /* "1-0" or "0-1"; "*" when why is XQ_PROOF_NONE (static) */
	uint32_t ply;        /* plies in the main line: where the proof stands */
	uint32_t first;      /* XQ_PROOF_PERPETUAL: the cycle is plies first+1..ply */
	const char *conduct; /* XQ_PROOF_PERPETUAL: the offender's, "perpetual check",
				"perpetual chase" or "a forbidden perpetual attack"
				(static); else NULL */
	int ruleset;         /* XQ_PROOF_PERPETUAL: the rule set that judged (XQ_RULESET_*) */
} xq_proof;

/*
 * The result the main line of `r` proves, into *out.  `ruleset` -1: mate
 * and stalemate only; else (XQ_RULESET_* of <xq/rules.h>) also a
 * forbidden perpetual under those rules.  A broken record
 * (xq_record_is_broken()) proves nothing: its moves stop at an error.
 * Returns 0; XQ_ENOMEM; or XQ_EILLEGAL, with the reason in
 * xq_record_error() (the rules could not judge the line).
 * NULL `r` or `out`: XQ_EINVAL.
 */
XQ_API int xq_record_prove_result(xq_record *r, int ruleset, xq_proof *out);

#ifdef __cplusplus
}
#endif

#endif
