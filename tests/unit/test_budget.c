/*
 * test_budget.c: the memory budget of a run (lib/budget.h): sizes as
 * people write them, reservations granted in ticket order and only when
 * the memory is free, a reservation larger than the budget refused at
 * once, and a cancelled run that no thread waits on.
 */
#include "testutil.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "budget.h"
#include "diagnostic.h"

static void sizes_take_k_m_g_suffixes_and_refuse_anything_else(void **state)
{
	static const struct {
		const char *text;
		uint64_t value;
	} ok[] = {
		{"0", 0},
		{"4096", 4096},
		{"512K", (uint64_t)512 << 10},
		{"256M", (uint64_t)256 << 20},
		{"256m", (uint64_t)256 << 20},
		{"256MB", (uint64_t)256 << 20},
		{"256MiB", (uint64_t)256 << 20},
		{"2G", (uint64_t)2 << 30},
		{"100B", 100},
	};
	static const char *const bad[] = {"", "M", "-1", "1.5G", "12Q", "256 M", "8MM",
					  "99999999999999999999", "17179869184G", "100b"};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		v = 1;
		assert_int_equal(xq_size_parse(ok[i].text, &v), 0);
		assert_true(v == ok[i].value);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(xq_size_parse(bad[i], &v), -1);
}

static void a_try_reserves_only_what_it_would_get_without_waiting(void **state)
{
	struct xqi_budget b;

	(void)state;
	assert_int_equal(xqi_budget_init(&b, 1000), 0);
	/* Not ticket 1's turn yet: nothing done. */
	assert_int_equal(xqi_budget_try_reserve(&b, 1, 10), 1);
	assert_true(b.used == 0 && b.next_ticket == 0);
	assert_int_equal(xqi_budget_try_reserve(&b, 0, 700), 0);
	assert_true(b.used == 700 && b.next_ticket == 1);
	/* Its turn, but the memory is not free: nothing done. */
	assert_int_equal(xqi_budget_try_reserve(&b, 1, 400), 1);
	assert_true(b.used == 700 && b.next_ticket == 1);
	/* More than the whole budget is refused at once, as by reserve. */
	assert_int_equal(xqi_budget_try_reserve(&b, 1, 1001), XQ_ERANGE);
	assert_true(b.used == 700 && b.next_ticket == 2);
	xqi_budget_give_back(&b, 700);
	assert_int_equal(xqi_budget_try_reserve(&b, 2, 400), 0);
	assert_true(b.used == 400 && b.next_ticket == 3);
	xqi_budget_release(&b);
}

static void a_reservation_larger_than_the_budget_is_refused_at_once(void **state)
{
	struct xqi_budget b;

	(void)state;
	assert_int_equal(xqi_budget_init(&b, 1000), 0);
	assert_int_equal(xqi_budget_reserve(&b, 0, 600), 0);
	/* More than the whole budget: refused without waiting for the 600. */
	assert_int_equal(xqi_budget_reserve(&b, 1, 1001), XQ_ERANGE);
	/* And the next ticket's turn has come. */
	assert_int_equal(xqi_budget_reserve(&b, 2, 400), 0);
	assert_true(b.used == 1000);
	assert_true(b.peak == 1000);
	xqi_budget_release(&b);
}

struct waiter {
	struct xqi_budget *b;
	uint64_t ticket, n;
	atomic_int done;
	int rc;
};

static void *reserve_thread(void *arg)
{
	struct waiter *w = arg;

	w->rc = xqi_budget_reserve(w->b, w->ticket, w->n);
	atomic_store(&w->done, 1);
	return NULL;
}

static void pause_a_little(void)
{
	struct timespec ts = {0, 20 * 1000 * 1000};

	nanosleep(&ts, NULL);
}

static void a_reservation_waits_until_memory_is_given_back(void **state)
{
	struct xqi_budget b;
	struct waiter w;
	pthread_t t;

	(void)state;
	assert_int_equal(xqi_budget_init(&b, 1000), 0);
	assert_int_equal(xqi_budget_reserve(&b, 0, 700), 0);
	w = (struct waiter){&b, 1, 500, 0, -1};
	assert_int_equal(pthread_create(&t, NULL, reserve_thread, &w), 0);
	pause_a_little();
	assert_int_equal(atomic_load(&w.done), 0); /* 700 + 500 > 1000: it waits */
	xqi_budget_give_back(&b, 700);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(w.rc, 0);
	assert_true(b.used == 500);
	assert_true(b.peak <= 1000);
	xqi_budget_release(&b);
}

static void reservations_are_granted_in_ticket_order(void **state)
{
	struct xqi_budget b;
	struct waiter later, first;
	pthread_t t1, t2;

	(void)state;
	assert_int_equal(xqi_budget_init(&b, 1000), 0);
	/* Ticket 1 asks first, for memory that is free, but waits for ticket 0. */
	later = (struct waiter){&b, 1, 10, 0, -1};
	assert_int_equal(pthread_create(&t1, NULL, reserve_thread, &later), 0);
	pause_a_little();
	assert_int_equal(atomic_load(&later.done), 0);
	first = (struct waiter){&b, 0, 995, 0, -1};
	assert_int_equal(pthread_create(&t2, NULL, reserve_thread, &first), 0);
	assert_int_equal(pthread_join(t2, NULL), 0);
	assert_int_equal(first.rc, 0);
	/* Now ticket 1's turn, and 995 + 10 does not fit: it waits on. */
	pause_a_little();
	assert_int_equal(atomic_load(&later.done), 0);
	xqi_budget_give_back(&b, 995);
	assert_int_equal(pthread_join(t1, NULL), 0);
	assert_int_equal(later.rc, 0);
	assert_true(b.used == 10);
	xqi_budget_release(&b);
}

static void cancelling_ends_every_wait(void **state)
{
	struct xqi_budget b;
	struct waiter w[2];
	pthread_t t[2];

	(void)state;
	assert_int_equal(xqi_budget_init(&b, 100), 0);
	assert_int_equal(xqi_budget_reserve(&b, 0, 100), 0);
	w[0] = (struct waiter){&b, 1, 50, 0, -1};  /* waits for memory */
	w[1] = (struct waiter){&b, 7, 1, 0, -1};   /* waits for its turn */
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reserve_thread, &w[i]), 0);
	pause_a_little();
	xqi_budget_cancel(&b);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(w[i].rc, XQ_ERANGE);
	}
	assert_true(b.used == 100);
	xqi_budget_release(&b);
}

/* The waits end on the cancel flag alone (a signal), with nobody calling
 * xqi_budget_cancel(): a run whose memory a stuck unit holds, as an input
 * that never passed its turn did (b888561), still ends on SIGTERM. */
static void a_raised_cancel_flag_ends_every_wait_within_a_moment(void **state)
{
	struct xqi_budget b;
	struct waiter w[2];
	pthread_t t[2];
	atomic_int flag;

	(void)state;
	atomic_init(&flag, 0);
	assert_int_equal(xqi_budget_init(&b, 100), 0);
	xqi_budget_set_cancel(&b, &flag);
	assert_int_equal(xqi_budget_reserve(&b, 0, 100), 0);
	w[0] = (struct waiter){&b, 1, 50, 0, -1};  /* waits for memory */
	w[1] = (struct waiter){&b, 7, 1, 0, -1};   /* waits for its turn */
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, reserve_thread, &w[i]), 0);
	pause_a_little();
	assert_int_equal(atomic_load(&w[0].done) + atomic_load(&w[1].done), 0);
	atomic_store(&flag, 1);
	/* Within 100 ms or so; 2 s allowed for a loaded machine. */
	for (int k = 0; k < 100 && atomic_load(&w[0].done) + atomic_load(&w[1].done) < 2; k++)
		pause_a_little();
	if (atomic_load(&w[0].done) + atomic_load(&w[1].done) < 2) {
		xqi_budget_cancel(&b); /* free them before failing */
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		fail_msg("the waits went on after the cancel flag was raised");
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(w[i].rc, XQ_ERANGE);
	}
	assert_int_equal(xqi_budget_try_reserve(&b, 8, 1), XQ_ERANGE);
	xqi_budget_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_take_k_m_g_suffixes_and_refuse_anything_else),
		cmocka_unit_test(a_reservation_larger_than_the_budget_is_refused_at_once),
		cmocka_unit_test(a_try_reserves_only_what_it_would_get_without_waiting),
		cmocka_unit_test(a_reservation_waits_until_memory_is_given_back),
		cmocka_unit_test(reservations_are_granted_in_ticket_order),
		cmocka_unit_test(cancelling_ends_every_wait),
		cmocka_unit_test(a_raised_cancel_flag_ends_every_wait_within_a_moment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
