/*
 * test_extsort.c: sorting more records than memory holds
 * (cmd/extsort.c, compiled into this test: unit tests link only libxq).
 */
#include "testutil.h"

#include "extsort.c"

struct rec {
	uint64_t key;
	uint32_t seq;
	uint32_t pad;
};

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort `n` records of a few distinct keys in `mem` bytes and check that
 * every one comes back once, in order. */
static void sorted_in(size_t n, size_t mem, size_t *runs)
{
	struct extsort s;
	struct rec r, prev = {0, 0, 0};
	uint64_t x = 42;
	unsigned char *seen = calloc(n, 1);

	assert_non_null(seen);
	assert_int_equal(extsort_init(&s, sizeof(r), by_key, mem), 0);
	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		r = (struct rec){x >> 54, (uint32_t)i, 0}; /* 1024 keys: many equal */
		assert_int_equal(extsort_add(&s, &r), 0);
	}
	assert_int_equal(extsort_finish(&s), 0);
	*runs = s.nruns;
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(extsort_next(&s, &r), 1);
		assert_true(r.seq < n);
		assert_false(seen[r.seq]);
		seen[r.seq] = 1;
		if (i)
			assert_true(by_key(&prev, &r) < 0);
		prev = r;
	}
	assert_int_equal(extsort_next(&s, &r), 0);
	extsort_release(&s);
	free(seen);
}

static void records_that_fit_in_memory_are_sorted_there(void **state)
{
	size_t runs;

	(void)state;
	sorted_in(1000, 1 << 20, &runs);
	assert_int_equal(runs, 0);
	sorted_in(0, 1 << 20, &runs);
}

static void more_records_than_memory_are_merged_from_runs_on_disk(void **state)
{
	char dir[256];
	size_t runs;

	(void)state;
	assert_int_equal(test_tmpdir(dir, sizeof(dir), "extsort"), 0);
	test_set_tmpdir(dir);
	/* 100 runs of 1,000: fewer than one merge reads */
	sorted_in(100000, 1000 * sizeof(struct rec), &runs);
	assert_true(runs >= 2 && runs <= EXTSORT_FANIN);
	/* 64 records of memory: 3,125 runs, merged a level at a time */
	sorted_in(200000, 64 * sizeof(struct rec), &runs);
	assert_true(runs >= 2 && runs <= 4);
	/* nothing is left in the scratch folder */
	assert_int_equal(test_count_named(dir, "xqkit"), 0);
	test_set_tmpdir(NULL);
	assert_int_equal(test_rmtree(dir), 0);
}

/* The buffer grows as records come (XQ_ALLOC_GROW's way, by half or more)
 * yet never holds more than the bound it was given, whatever the bound. */
static void the_buffer_grows_to_the_memory_bound_and_never_past_it(void **state)
{
	static const size_t bounds[] = {64, 100, 1000, 4097, 6000, 50000, 123457};
	struct rec r = {0, 0, 0};

	(void)state;
	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		struct extsort s;
		size_t last = 0;
		assert_int_equal(extsort_init(&s, sizeof(r), by_key, bounds[b] * sizeof(r)), 0);
		for (size_t i = 0; i < s.cap; i++) {
			r.seq = (uint32_t)i;
			assert_int_equal(extsort_add(&s, &r), 0);
			assert_true(s.alloc <= s.cap);
			assert_true(s.alloc * sizeof(r) <= s.mem);
			if (s.alloc != last)
				assert_true(last == 0 || s.alloc >= last + last / 2);
			last = s.alloc;
		}
		assert_int_equal(s.alloc, s.cap); /* filled to the bound, not spilled */
		assert_int_equal(s.nruns, 0);
		extsort_release(&s);
	}
}

static void a_scratch_folder_that_cannot_be_written_is_an_io_error(void **state)
{
	struct extsort s;
	struct rec r = {1, 1, 0};
	int rc = 0;

	(void)state;
	test_set_tmpdir("/nonexistent/xqkit-test");
	assert_int_equal(extsort_init(&s, sizeof(r), by_key, 64 * sizeof(r)), 0);
	for (int i = 0; i < 1000 && !rc; i++)
		rc = extsort_add(&s, &r);
	assert_int_equal(rc, XQ_EIO);
	assert_int_equal(s.err, ENOENT);
	extsort_release(&s);
	test_set_tmpdir(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_that_fit_in_memory_are_sorted_there),
		cmocka_unit_test(more_records_than_memory_are_merged_from_runs_on_disk),
		cmocka_unit_test(the_buffer_grows_to_the_memory_bound_and_never_past_it),
		cmocka_unit_test(a_scratch_folder_that_cannot_be_written_is_an_io_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
