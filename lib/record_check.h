/*
 * record_check.h: what only a whole game shows, checked on top of what its
 * reader checked as it read (a game in memory holds only legal moves, and
 * a bad one comes back broken with its diagnostics):
 *   - the start position (pieces where they can never stand, a position
 *     that cannot occur) and the FEN tag against it;
 *   - the Result tag against the record's result;
 *   - the result against the final position (a mate or stalemate must be
 *     won by the side that delivered it; a decisive result with no mate is
 *     noted as a resignation or a loss on time) and against the
 *     repetition and move-limit rules;
 *   - the Date tag, the tags that must be there, a game with no moves.
 * `xqkit validate` (and find, which selects by what validate says) and the
 * public xq_record_validate() check games this one way.
 */
#ifndef XQI_LIB_GAMECHECK_H
#define XQI_LIB_GAMECHECK_H

#include <stddef.h>

#include "diagnostic.h"
#include "record.h"
#include "rules.h"

/* What the reader said already: XQI_SAID_* and xqi_check_said_of(), in record.h. */

struct xqi_check_opts {
	const struct xqi_rules_options *rules; /* NULL: the rules are not checked */
	const char *const *required;          /* tags every game must have */
	size_t nrequired;
};

/*
 * Check game `g` (its source, number and places as read) as above.  Each
 * problem goes to `sink`, pointed at its move or tag
 * (xqi_record_place_diag()).  *said holds what the reader reported (XQI_SAID_*)
 * and may gain XQI_SAID_BAD_RESULT_STANDS.  *support is set to what the
 * rules say of the recorded result (XQI_SUPPORT_SILENT when they have
 * nothing to say).  Returns 0, or XQ_ENOMEM when the rules' analysis
 * could not be made (the other checks are made all the same).
 * Thread-safe.
 */
int xqi_record_check(const struct xqi_record *g, const struct xqi_check_opts *o, unsigned *said,
		  const struct xqi_sink *sink, enum xqi_rules_support *support);

#endif
