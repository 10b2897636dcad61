/*
 * test_alloc.c: growing arrays (alloc.h), the buffer's sticky error
 * (buf.h) and the arena's string copies (arena.h).
 */
#include "testutil.h"

#include <stdalign.h>
#include <stdint.h>

#include "alloc.h"
#include "arena.h"
#include "buf.h"
#include "diagnostic.h"

static void grow_makes_room_and_keeps_the_elements(void **state)
{
	int *v = NULL;
	size_t n = 0, alloc = 0;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		assert_int_equal(XQ_ALLOC_GROW(v, n + 1, alloc), 0);
		assert_true(alloc >= n + 1);
		v[n++] = i;
	}
	for (int i = 0; i < 1000; i++)
		assert_int_equal(v[i], i);
	free(v);
}

static void grow_does_nothing_when_there_is_room(void **state)
{
	long *v = malloc(20 * sizeof(*v));
	long *before = v;
	size_t alloc = 20;

	(void)state;
	assert_non_null(v);
	assert_int_equal(XQ_ALLOC_GROW(v, 20, alloc), 0);
	assert_ptr_equal(v, before);
	assert_int_equal(alloc, 20);
	free(v);
}

static void grow_refuses_a_size_that_overflows_and_changes_nothing(void **state)
{
	double *v = malloc(4 * sizeof(*v));
	double *before = v;
	size_t alloc = 4;

	(void)state;
	assert_non_null(v);
	v[0] = 1.5;
	assert_int_equal(XQ_ALLOC_GROW(v, SIZE_MAX / 4, alloc), XQ_ENOMEM);
	assert_ptr_equal(v, before);
	assert_int_equal(alloc, 4);
	assert_true(v[0] == 1.5);
	free(v);
}

static void a_failed_append_makes_every_later_one_fail_until_reset(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;

	(void)state;
	assert_int_equal(xq_buf_adds(&b, "kept"), 0);
	assert_int_equal(xq_buf_error(&b), 0);
	/* A growth that cannot be had (the size overflows) fails... */
	assert_int_equal(xq_buf_grow(&b, SIZE_MAX - 2), XQ_ENOMEM);
	assert_int_equal(xq_buf_error(&b), XQ_ENOMEM);
	/* ... and so does everything after it, adding nothing: the content
	 * stays a whole prefix of what was appended. */
	assert_int_equal(xq_buf_adds(&b, " lost"), XQ_ENOMEM);
	assert_int_equal(xq_buf_addc(&b, '!'), XQ_ENOMEM);
	assert_int_equal(xq_buf_addf(&b, "%d", 42), XQ_ENOMEM);
	assert_int_equal(xq_buf_add_json_string(&b, "x", 1), XQ_ENOMEM);
	assert_string_equal(b.ptr, "kept");
	assert_int_equal(b.len, 4);
	/* A reset starts over. */
	xq_buf_reset(&b);
	assert_int_equal(xq_buf_error(&b), 0);
	assert_int_equal(xq_buf_adds(&b, "again"), 0);
	assert_string_equal(b.ptr, "again");
	xq_buf_release(&b);
	assert_int_equal(xq_buf_error(&b), 0);
}

static void arena_copies_short_and_long_strings_whole_and_keeps_allocations_aligned(void **state)
{
	struct xqi_arena a;
	const char *text = "h2e2 and a comment longer than any short string";
	char *c[200];
	void *p;

	(void)state;
	xqi_arena_init(&a);
	/* Enough copies to fill more than one block, of every short length
	 * (0 to 15 bytes) and long ones. */
	for (int i = 0; i < 200; i++) {
		size_t len = i % 2 ? (size_t)(i / 2 % 16) : strlen(text);
		c[i] = xqi_arena_strndup(&a, text, len);
		assert_non_null(c[i]);
		p = xqi_arena_alloc(&a, 100 + (size_t)i * 97);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % alignof(max_align_t), 0);
		memset(p, 0x5A, 100 + (size_t)i * 97);
	}
	for (int i = 0; i < 200; i++) {
		size_t len = i % 2 ? (size_t)(i / 2 % 16) : strlen(text);
		assert_int_equal(strlen(c[i]), len);
		assert_memory_equal(c[i], text, len);
	}
	assert_string_equal(xqi_arena_strndup(&a, text, 0), "");
	xqi_arena_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grow_makes_room_and_keeps_the_elements),
		cmocka_unit_test(grow_does_nothing_when_there_is_room),
		cmocka_unit_test(grow_refuses_a_size_that_overflows_and_changes_nothing),
		cmocka_unit_test(a_failed_append_makes_every_later_one_fail_until_reset),
		cmocka_unit_test(arena_copies_short_and_long_strings_whole_and_keeps_allocations_aligned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
