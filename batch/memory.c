/*
 * memory.c: the run's one budget (lib/budget.h): a unit's turn at it,
 * what reading the unit may take reserved in unit order, and given back
 * once read but for what its jobs in flight hold.
 */
#include "batch_int.h"

/* Unit `u`'s turn at the budget: reserve `n` for it (its worker waits for
 * the units before it to leave room), or only pass when `n` is 0. */
void xqi_batch_unit_reserve(struct worker *w, struct unit *u, uint64_t n)
{
	struct pool *p = w->pool;
	int rc;

	if (u->ticketed)
		return;
	u->ticketed = 1;
	if (n > p->budget.total)
		n = p->budget.total; /* readers keep records within the budget */
	if (p->serial) {
		if (!n)
			xqi_budget_pass(&p->budget, u->seq);
		else if (xqi_budget_reserve(&p->budget, u->seq, n) == 0)
			u->reserved = n;
		return;
	}
	rc = xqi_budget_try_reserve(&p->budget, u->seq, n);
	if (rc == 1) {
		/* Jobs handed over and not yet shown to a sleeping output
		 * thread may be what frees the memory: show them first. */
		if (!p->share)
			xqi_batch_emit_ready(p);
		xqi_batch_wake_output(w);
		rc = xqi_budget_reserve(&p->budget, u->seq, n);
	}
	if (rc == 0)
		u->reserved = n;
	atomic_store(&w->unit_base, atomic_load(&w->pub_mem));
	atomic_store(&w->allow, u->reserved);
	atomic_store(&w->largest, 0);
}

/* `u` has been read: keep of its reservation only what its worker's jobs
 * in flight hold, before its last job is handed over. */
void xqi_batch_unit_read(struct worker *w, struct unit *u)
{
	struct pool *p = w->pool;
	uint64_t keep;

	if (p->serial)
		return;
	/* The output thread may emit some meanwhile: then a little more than
	 * needed is kept, until the unit is passed. */
	keep = xqi_batch_unit_inflight(w);
	if (keep > u->reserved)
		keep = u->reserved;
	if (keep < u->reserved)
		xqi_budget_give_back(&p->budget, u->reserved - keep);
	u->reserved = keep;
	/* Until the next unit's reservation, nothing is read: the jobs of
	 * this one are held to what it keeps, and waiting for them to be
	 * emitted before taking a slot for the next would cost a wake-up
	 * of each thread per unit. */
	atomic_store(&w->allow, UINT64_MAX);
}
