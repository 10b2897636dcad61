/*
 * testutil.h: what every cmocka test file includes, in the order older
 * cmocka releases need, plus helpers for fixtures.
 */
#ifndef XQ_TESTS_TESTUTIL_H
#define XQ_TESTS_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/*
 * Where the shared reference material is: $XQ_SHARED, else ../shared (the
 * layout CI uses).  Returns NULL when it is absent (a user's clone); tests
 * that need it then skip with a message.
 */
static inline const char *test_shared_dir(void)
{
	static char path[4096];
	const char *env = getenv("XQ_SHARED");
	FILE *f;

	snprintf(path, sizeof(path), "%s", env && *env ? env : "../shared");
	{
		char probe[4200];
		snprintf(probe, sizeof(probe), "%s/README.md", path);
		f = fopen(probe, "r");
	}
	if (!f)
		return NULL;
	fclose(f);
	return path;
}

#define SKIP_WITHOUT_SHARED(dir)                                                          \
	do {                                                                              \
		if (!(dir)) {                                                             \
			fprintf(stderr, "skipped: ../shared not found (set XQ_SHARED to " \
					"the shared reference folder to run this test)\n"); \
			skip();                                                           \
		}                                                                         \
	} while (0)

#endif
