/*
 * moves: print the moves of every game of any record file in ICCS, one
 * game a line ("game 1 (1-0): h2e2 h9g7 ...").
 *
 *   cc $(pkg-config --cflags xq) moves.c $(pkg-config --libs xq) -o moves
 *   ./moves game.xqf games.pgn.gz -
 */
#include <stdio.h>

#include <xq/xq.h>

static void show(const xq_diagnostic *d, void *user)
{
	char line[512];

	(void)user;
	xq_diagnostic_format(d, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
}

int main(int argc, char **argv)
{
	int status = 0;

	for (int i = 1; i < argc; i++) {
		xq_reader *rd;
		xq_record *r;
		int rc;

		if (xq_reader_open(&rd, argv[i], NULL, show, NULL) != 0) {
			status = 1;
			continue;
		}
		while ((rc = xq_reader_next(rd, &r)) == 1) {
			char *moves = xq_record_mainline_text(r, XQ_DIALECT_ICCS, 0);
			printf("%s: game %llu (%s): %s\n", argv[i],
			       (unsigned long long)xq_record_number(r), xq_record_result(r),
			       moves ? moves : "?");
			xq_free(moves);
			xq_record_free(r);
		}
		if (rc < 0 || xq_reader_count(rd, XQ_SEVERITY_ERROR) > 0)
			status = 1;
		xq_reader_close(rd);
	}
	return status;
}
