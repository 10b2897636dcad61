/* The test of done: a 20-line program that prints the moves of
 * every game of its inputs (an XQF, a Big5 PGN, anything), in Chinese. */
#include <stdio.h>
#include <xq/xq.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		xq_reader *rd;
		xq_record *r;
		if (xq_reader_open(&rd, argv[i], NULL, NULL, NULL) != 0)
			return 1;
		while (xq_reader_next(rd, &r) == 1) {
			char *moves = xq_record_mainline_text(r, XQ_DIALECT_CHINESE, 0);
			printf("%s %s: %s\n", xq_record_tag(r, "Red") ? xq_record_tag(r, "Red") : "?", xq_record_result(r), moves);
			xq_free(moves);
			xq_record_free(r);
		}
		xq_reader_close(rd);
	}
	return 0;
}
