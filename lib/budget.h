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
#ifndef XQ_LIB_BUDGET_H
#define XQ_LIB_BUDGET_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

/* XQ_MEMORY_DEFAULT, XQ_MEMORY_MIN and xq_size_parse(), the sizes a
 * budget is given in, are public. */
#include "../include/xq/memory.h"

struct xq_budget {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	uint64_t total, used;
	uint64_t next_ticket; /* the ticket whose turn it is */
	uint64_t peak;        /* the most reserved at once (for tests) */
	int cancelled;        /* the run stops: nobody waits any more */
};

/* A budget of `total` bytes.  Returns 0 or XQ_ENOMEM. */
int xq_budget_init(struct xq_budget *b, uint64_t total);
void xq_budget_release(struct xq_budget *b);

/*
 * Reserve `n` bytes for ticket `ticket`: waits until every earlier ticket
 * has had its turn and `n` bytes are free.  Returns 0, or XQ_ERANGE
 * (without waiting for memory) when `n` is more than the whole budget;
 * either way the next ticket's turn comes.  Every ticket must be passed
 * once, by xq_budget_reserve or xq_budget_pass.
 */
int xq_budget_reserve(struct xq_budget *b, uint64_t ticket, uint64_t n);
/* As xq_budget_reserve when that would not wait; else 1, and nothing
 * done (the caller can do what must be done before it might sleep, then
 * call xq_budget_reserve). */
int xq_budget_try_reserve(struct xq_budget *b, uint64_t ticket, uint64_t n);
/* Let ticket `ticket` pass with nothing reserved (waits for its turn). */
void xq_budget_pass(struct xq_budget *b, uint64_t ticket);
/* Give back `n` bytes reserved earlier. */
void xq_budget_give_back(struct xq_budget *b, uint64_t n);
/* The run stops: every wait ends, and reservations return at once
 * (XQ_ERANGE, nothing reserved). */
void xq_budget_cancel(struct xq_budget *b);

#endif
