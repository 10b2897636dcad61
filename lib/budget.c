/*
 * budget.c: a memory budget whose reservations are granted in ticket
 * order (see budget.h).
 */
#include "budget.h"

#include <time.h>

#include "diagnostic.h"
#include "utf8.h"

int xqi_budget_init(struct xqi_budget *b, uint64_t total)
{
	b->total = total;
	b->used = 0;
	b->next_ticket = 0;
	b->peak = 0;
	b->cancelled = 0;
	b->cancel = NULL;
	if (pthread_mutex_init(&b->mu, NULL))
		return XQ_ENOMEM;
	if (pthread_cond_init(&b->cond, NULL)) {
		pthread_mutex_destroy(&b->mu);
		return XQ_ENOMEM;
	}
	return 0;
}

void xqi_budget_release(struct xqi_budget *b)
{
	pthread_cond_destroy(&b->cond);
	pthread_mutex_destroy(&b->mu);
}

void xqi_budget_set_cancel(struct xqi_budget *b, const atomic_int *cancel)
{
	b->cancel = cancel;
}

/* Has the run stopped (with b->mu held)?  The cancel flag counts as
 * xqi_budget_cancel() once seen. */
static int stopped(struct xqi_budget *b)
{
	if (!b->cancelled && b->cancel && atomic_load(b->cancel)) {
		b->cancelled = 1;
		pthread_cond_broadcast(&b->cond);
	}
	return b->cancelled;
}

/* Wait on b->cond (with b->mu held); with a cancel flag, at most 100 ms,
 * so that the caller looks at it again. */
static void wait_a_while(struct xqi_budget *b)
{
	struct timespec until;

	if (!b->cancel) {
		pthread_cond_wait(&b->cond, &b->mu);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += 100 * 1000000L;
	if (until.tv_nsec >= 1000000000L)
		until.tv_sec++, until.tv_nsec -= 1000000000L;
	pthread_cond_timedwait(&b->cond, &b->mu, &until);
}

/* Wait for `ticket`'s turn (with b->mu held). */
static void wait_turn(struct xqi_budget *b, uint64_t ticket)
{
	while (b->next_ticket != ticket && !stopped(b))
		wait_a_while(b);
}

/* The next ticket's turn (with b->mu held). */
static void next_turn(struct xqi_budget *b)
{
	b->next_ticket++;
	pthread_cond_broadcast(&b->cond);
}

/* Reserve `n` for the ticket whose turn it is, memory free (b->mu held). */
static int take(struct xqi_budget *b, uint64_t n)
{
	int rc = 0;

	if (n > b->total || b->cancelled) {
		rc = XQ_ERANGE;
	} else {
		b->used += n;
		if (b->used > b->peak)
			b->peak = b->used;
	}
	next_turn(b);
	return rc;
}

int xqi_budget_reserve(struct xqi_budget *b, uint64_t ticket, uint64_t n)
{
	int rc;

	pthread_mutex_lock(&b->mu);
	wait_turn(b, ticket);
	while (!stopped(b) && n <= b->total && b->total - b->used < n)
		wait_a_while(b);
	rc = take(b, n);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

int xqi_budget_try_reserve(struct xqi_budget *b, uint64_t ticket, uint64_t n)
{
	int rc = 1;

	pthread_mutex_lock(&b->mu);
	if (stopped(b) || (b->next_ticket == ticket && (n > b->total || b->total - b->used >= n)))
		rc = take(b, n);
	pthread_mutex_unlock(&b->mu);
	return rc;
}

void xqi_budget_pass(struct xqi_budget *b, uint64_t ticket)
{
	pthread_mutex_lock(&b->mu);
	wait_turn(b, ticket);
	next_turn(b);
	pthread_mutex_unlock(&b->mu);
}

void xqi_budget_give_back(struct xqi_budget *b, uint64_t n)
{
	pthread_mutex_lock(&b->mu);
	b->used = n < b->used ? b->used - n : 0;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->mu);
}

void xqi_budget_cancel(struct xqi_budget *b)
{
	pthread_mutex_lock(&b->mu);
	b->cancelled = 1;
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->mu);
}

int xq_size_parse(const char *s, uint64_t *out)
{
	uint64_t v = 0, mul = 1;
	const char *p = s;

	if (!s || !out)
		return XQ_EINVAL;
	if (!xq_is_digit((unsigned char)*p))
		return -1;
	for (; xq_is_digit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	switch (*p) {
	case 'k': case 'K': mul = (uint64_t)1 << 10; p++; break;
	case 'm': case 'M': mul = (uint64_t)1 << 20; p++; break;
	case 'g': case 'G': mul = (uint64_t)1 << 30; p++; break;
	default: break;
	}
	if (mul > 1 && *p == 'i')
		p++;
	if (*p == 'B' || (*p == 'b' && mul > 1))
		p++;
	if (*p || (v && mul > UINT64_MAX / v))
		return -1;
	*out = v * mul;
	return 0;
}
