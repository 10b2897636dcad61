/*
 * test_diagnostic.c: diagnostics (lib/diagnostic.c): code names, as written in
 * NDJSON reports and read back from the command line.
 */
#include "testutil.h"

#include "diagnostic.h"

static void every_code_name_reads_back_as_its_code(void **state)
{
	(void)state;
	for (int c = XQI_D_NONE + 1; c < XQI_D_CODE_COUNT; c++) {
		const char *name = xqi_diagnostic_code_name((enum xqi_diagnostic_code)c);
		assert_string_not_equal(name, "unknown");
		if (xqi_diagnostic_code_from_name(name) != c)
			fail_msg("'%s' reads back as %d, not %d", name, xqi_diagnostic_code_from_name(name), c);
	}
	assert_int_equal(xqi_diagnostic_code_from_name("illegal-move"), XQI_D_ILLEGAL_MOVE);
	assert_int_equal(xqi_diagnostic_code_from_name("no-such-code"), -1);
	assert_int_equal(xqi_diagnostic_code_from_name(""), -1);
	assert_int_equal(xqi_diagnostic_code_from_name("Illegal-Move"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_code_name_reads_back_as_its_code),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
