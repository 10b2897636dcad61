/*
 * validate.h: validate's checks on one game, for the commands that select
 * games by what validate would say of them (find --errors, --warnings,
 * --ruling).
 */
#ifndef XQ_CMD_VALIDATE_H
#define XQ_CMD_VALIDATE_H

#include "inputs.h"
#include "rules.h"

struct pool_job;

/*
 * Everything validate checks on top of what the reader said (the start
 * position, the FEN tag, the result against the final position and the
 * repetition rules of in->rules when in->rules_on, the Date tag, the
 * `required` tags), added to j->diags as validate reports them.  Returns
 * what the rules say of the recorded result (XQ_SUPPORT_SILENT when they
 * have nothing to say).  Thread-safe: call it from `process`.
 */
enum xq_rules_support validate_checks(struct pool_job *j, const struct input_opts *in,
				      const char *const *required, int nrequired);

#endif
