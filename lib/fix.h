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
#ifndef XQI_FIX_H
#define XQI_FIX_H

#include <stddef.h>
#include <stdint.h>

#include "diagnostic.h"
#include "record.h"
#include "rules.h"

#include <xq/fix.h>

/* Dates: xq_date_normalize(), struct xq_date and enum xq_date_kind are
 * public, in <xq/fix.h>, as are the XQ_PROOF_* kinds of `why` below. */

/* ---- results -------------------------------------------------------------- */

struct xqi_result_proof {
	int why;                /* XQ_PROOF_* (<xq/fix.h>) */
	enum xqi_result result;  /* what it proves (XQI_RESULT_NONE when nothing) */
	uint32_t ply;           /* plies in the main line: where the proof stands */
	uint32_t first;         /* XQ_PROOF_PERPETUAL: the cycle's plies first+1..ply */
	enum xqi_rules_conduct conduct; /* XQ_PROOF_PERPETUAL: the offender's conduct */
	enum xq_ruleset rules;       /* XQ_PROOF_PERPETUAL: the rule set that judged */
};

/*
 * The result the main line of `g` proves.  `o` NULL: mate and stalemate
 * only; else also the repetition rules of `o`.  A broken game proves
 * nothing (its moves stop at an error).  Returns 0 or XQ_ENOMEM (or
 * XQ_EILLEGAL from the rules analysis, with `d` saying why; `d` may be
 * NULL).
 */
int xqi_result_prove(struct xqi_result_proof *p, const struct xqi_record *g,
		    const struct xqi_rules_options *o, struct xq_diagnostic *d);

#endif
