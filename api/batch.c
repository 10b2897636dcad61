/*
 * batch.c: the public face of the batch (<xq/batch.h>): the configuration
 * checked, and its cancel flag found, before the engine runs it (batch/,
 * whose files batch/batch_int.h lists); a job's game swapped for a record.
 */
#include "internal.h"

#include "../batch/batch.h"

int xq_batch_run(const struct xq_batch_config *cfg)
{
	if (!cfg)
		return XQ_EINVAL;
	if (cfg->size != sizeof(*cfg) || !cfg->emit)
		return XQ_EUNSUPPORTED;
	return xqi_batch_run(cfg, cfg->read_options.cancel ? &cfg->read_options.cancel->flag : NULL);
}

void xq_batch_job_swap_record(struct xq_batch_job *j, xq_record *r)
{
	uint64_t number;
	struct xqi_record t;

	if (!j || !r)
		return;
	number = game_of(j)->number;
	t = *game_of(j);
	*game_of(j) = r->g;
	r->g = t;
	xqi_record_forget(j->record);
	xqi_record_forget(r);
	game_of(j)->number = number;
	game_of(j)->source = j->file->name;
}
