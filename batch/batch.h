/*
 * batch.h: the batch engine as api/ sees it: one run (api/batch.c, the
 * face of <xq/batch.h>, checks the configuration first), and a job's game.
 */
#ifndef XQI_BATCH_H
#define XQI_BATCH_H

#include <stdatomic.h>

#include "record.h"
#include <xq/batch.h>

/* Run the batch of `cfg` (not NULL, of its size, with an `emit`), reading
 * stopped by a signal when `cancel` (the flag of its read options' cancel,
 * or NULL) is set; the run's status, as xq_batch_run() returns it. */
int xqi_batch_run(const struct xq_batch_config *cfg, const atomic_int *cancel);

/* The game of job `j` as the library sees it (lib/record.h: the record's
 * own), or NULL for a job without one. */
static inline struct xqi_record *game_of(const struct xq_batch_job *j)
{
	return j->record ? &j->record->g : NULL;
}

#endif
