/*
 * validate.h: validate's checks on one game, for the commands that select
 * games by what validate would say of them (find --errors, --warnings,
 * --ruling).
 */
#ifndef CMD_VALIDATE_H
#define CMD_VALIDATE_H

#include "inputs.h"
#include <xq/rules.h>
#include <xq/batch.h>


/*
 * What the repetition and move-limit rules say of the end of the main
 * line and its recorded result: the library's answers (XQ_RESULT_CHECK_*
 * of <xq/rules.h>, same values), and one of validate's own.
 */
enum validate_ruling {
	VALIDATE_RULING_SILENT = XQ_RESULT_CHECK_SILENT,
	VALIDATE_RULING_CONFIRMED = XQ_RESULT_CHECK_CONFIRMED,
	VALIDATE_RULING_CONTRADICTED = XQ_RESULT_CHECK_CONTRADICTED,
	VALIDATE_RULING_DOUBTFUL = XQ_RESULT_CHECK_DOUBTFUL,
	/* The record claims that a rule ended the game (a repetition, a
	 * move limit) and the moves do not show it.  No game gets it yet:
	 * validate reads no such claim from a record, so find --ruling
	 * not-shown selects none.  The library answers a record without a
	 * claim only, and so has no such value. */
	VALIDATE_RULING_NOT_SHOWN
};

/* "silent", "confirmed", "contradicted", "doubtful", "not-shown". */
const char *validate_ruling_name(enum validate_ruling r);

/*
 * Everything validate checks on top of what the reader said (the start
 * position, the FEN tag, the result against the final position and the
 * repetition rules of in->ruleset when in->rules_on, the Date tag, the
 * `required` tags), added to j->diags as validate reports them.  Returns
 * what the rules say of the recorded result (VALIDATE_RULING_SILENT when
 * they have nothing to say).  Thread-safe: call it from `process`.
 */
enum validate_ruling validate_checks(xq_batch_job *j, const struct input_opts *in,
				     const char *const *required, int nrequired);

#endif
