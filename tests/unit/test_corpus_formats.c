/*
 * test_corpus_formats.c: over the whole shared corpus, every file is
 * found by its content to be the format its manifest says
 * (corpus/pgn/MANIFEST.tsv, column format_guess): adding the readers of
 * PFC, FEN lists and text exports changed the format of no file that PGN
 * or DhtmlXQ reads.  The move lists of the manifest are PGN's when PGN
 * reads them (a tag-less list that starts with a move, a number or a
 * FEN), the text exports' otherwise.  The binary formats other readers
 * take (MXQ, CHE, CCM, CHN, XQI, XGF) and archives are not looked at.
 */
#include "testutil.h"

#include "format.h"

/* The format a manifest guess names, or NULL (not looked at). */
static const char *format_of(const char *guess, const char *path)
{
	static const struct {
		const char *prefix, *format;
	} map[] = {
		{"PGN", "pgn"},           {"DhtmlXQ", "dhtmlxq"}, {"XQF", "xqf"},
		{"CBF", "cbf"},           {"CBR", "cbr"},         {"CBL", "cbl"},
		{"\"CCBridge zlib", "cbl"}, {"PFC", "pfc"},       {"FEN list", "fen"},
		{"XFEN list", "fen"},     {"text (no moves", "pgn"},
	};

	if (!strncmp(guess, "move list", 9)) {
		/* What PGN reads stays PGN's; the others are text exports. */
		if (strstr(path, "sample_04x.txt") || strstr(path, "sample_12x") ||
		    strstr(path, "puzzle_generator/games.pgn"))
			return "text";
		return "pgn";
	}
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strncmp(guess, map[i].prefix, strlen(map[i].prefix)))
			return map[i].format;
	return NULL;
}

static void every_corpus_file_is_found_to_be_the_format_its_manifest_names(void **state)
{
	const char *dir = test_shared_dir();
	char manifest[4600], line[4096];
	int checked = 0, wrong = 0;
	FILE *f;

	(void)state;
	if (!dir)
		TEST_SKIP("no shared corpus ($XQ_SHARED or ../shared)");
	snprintf(manifest, sizeof(manifest), "%s/corpus/pgn/MANIFEST.tsv", dir);
	assert_non_null(f = fopen(manifest, "r"));
	assert_non_null(fgets(line, sizeof(line), f)); /* the header */
	while (fgets(line, sizeof(line), f)) {
		char *field[6] = {line}, full[12800], *slash;
		const struct xqi_format *got;
		const unsigned char *head;
		const char *want;
		struct xqi_input *in;
		struct xq_diagnostic d;
		size_t hlen;
		for (int k = 1; k < 6; k++) {
			field[k] = strchr(field[k - 1], '\t');
			assert_non_null(field[k]);
			*field[k]++ = '\0';
		}
		if (!(want = format_of(field[4], field[2])))
			continue;
		/* repo, commit, path: the file is <owner>__<name>/<path>. */
		assert_non_null(slash = strchr(field[0], '/'));
		*slash = '\0';
		snprintf(full, sizeof(full), "%s/corpus/pgn/%s__%s/%s", dir, field[0], slash + 1,
			 field[2]);
		xqi_diagnostic_init(&d);
		if (xqi_input_open(&in, full, &d))
			fail_msg("%s: cannot open", full);
		assert_int_equal(xqi_input_peek(in, &head, &hlen, &d), 0);
		got = xqi_format_detect(head, hlen, full);
		if (!got || strcmp(got->name, want)) {
			fprintf(stderr, "%s: found to be %s; its manifest says %s (%s)\n", field[2],
				got ? got->name : "nothing", want, field[4]);
			wrong++;
		}
		checked++;
		xqi_input_close(in);
	}
	fclose(f);
	fprintf(stderr, "corpus: %d files found to be the format their manifest names\n", checked);
	assert_int_equal(wrong, 0);
	assert_true(checked > 1600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_corpus_file_is_found_to_be_the_format_its_manifest_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
