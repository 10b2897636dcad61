/*
 * budget.h: a memory budget shared by the threads of one run, so that
 * reading on N threads can never hold more than the budget at once,
 * whatever the inputs are (man xqkit(1), LIMITS).
 *
 * Whoever reads a unit of work (a file, or a chunk of one) first reserves
 * the memory reading it may take, and gives it back when what it read has
 * been used.  Reservations are granted strictly in the order of their
 * tickets (0, 1, 2, ...: the order of the units), each when the memory is
 * free: so a unit waits only for units before it, which never wait for it,
 * and a run can always go on.  A reservation larger than the whole budget
 * is refused at once (XQ_ERANGE), so it does not depend on what else is
 * being read; the caller lowers what it asks for (reading less) or
 * refuses the record.
 *
 * The object is the caller's (no global state); it is thread-safe.
 */
#ifndef XQI_LIB_BUDGET_H
#define XQI_LIB_BUDGET_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* XQ_MEMORY_DEFAULT, XQ_MEMORY_MIN and xq_size_parse(), the sizes a
 * budget is given in, are public. */
#include <xq/memory.h>

struct xqi_budget {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t total, used;
	uint64_t next_ticket; /* the ticket whose turn it is */
	uint64_t peak;        /* the most reserved at once (for tests) */
	int cancelled;        /* the run stops: nobody waits any more */
	const atomic_int *cancel; /* a flag that stops every wait too, or NULL */
};

/* A budget of `total` bytes.  Returns 0 or XQ_ENOMEM. */
int xqi_budget_init(struct xqi_budget *b, uint64_t total);
void xqi_budget_release(struct xqi_budget *b);

/*
 * Reserve `n` bytes for ticket `ticket`: waits until every earlier ticket
 * has had its turn and `n` bytes are free.  Returns 0, or XQ_ERANGE
 * (without waiting for memory) when `n` is more than the whole budget;
 * either way the next ticket's turn comes.  Every ticket must be passed
 * once, by xqi_budget_reserve or xqi_budget_pass.
 */
int xqi_budget_reserve(struct xqi_budget *b, uint64_t ticket, uint64_t n);
/* As xqi_budget_reserve when that would not wait; else 1, and nothing
 * done (the caller can do what must be done before it might sleep, then
 * call xqi_budget_reserve). */
int xqi_budget_try_reserve(struct xqi_budget *b, uint64_t ticket, uint64_t n);
/* Let ticket `ticket` pass with nothing reserved (waits for its turn). */
void xqi_budget_pass(struct xqi_budget *b, uint64_t ticket);
/* Give back `n` bytes reserved earlier. */
void xqi_budget_give_back(struct xqi_budget *b, uint64_t n);
/* The run stops: every wait ends, and reservations return at once
 * (XQ_ERANGE, nothing reserved). */
void xqi_budget_cancel(struct xqi_budget *b);
/* A flag (a read's cancel flag, which a signal raises) that, once
 * non-zero, ends every wait as xqi_budget_cancel() does, within 100 ms,
 * even when nobody calls xqi_budget_cancel(): a wait for memory that a
 * stuck unit holds must not outlive a signal.  Set before any wait. */
void xqi_budget_set_cancel(struct xqi_budget *b, const atomic_int *cancel);

#endif
