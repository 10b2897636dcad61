/*
 * convert: copy every game of the inputs into one output, in the format
 * its name says (.pgn, .xqf, .cbf, .dhtmlxq, .ndjson, .html; .gz to
 * compress), with Chinese move text where the format has text.  What the
 * target cannot hold is reported; broken games are skipped.
 *
 *   ./convert out.pgn game1.xqf game2.xqf
 */
#include <stdio.h>

#include <xq/xq.h>

static void show(const xq_diagnostic *d, void *user)
{
	char line[1024];

	(void)user;
	xq_diagnostic_format(d, line, sizeof(line));
	fprintf(stderr, "%s\n", line);
}

int main(int argc, char **argv)
{
	xq_write_options wo = XQ_WRITE_OPTIONS_INIT;
	xq_writer *w;
	int status = 0, written = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: convert OUTPUT INPUT...\n");
		return 2;
	}
	wo.dialect = XQ_DIALECT_CHINESE;
	if (xq_writer_open(&w, argv[1], &wo, show, NULL) != 0)
		return 1;
	for (int i = 2; i < argc; i++) {
		xq_reader *rd;
		xq_record *r;
		if (xq_reader_open(&rd, argv[i], NULL, show, NULL) != 0) {
			status = 1;
			continue;
		}
		while (xq_reader_next(rd, &r) == 1) {
			if (xq_record_is_broken(r))
				status = 1;
			else if (xq_writer_write(w, r) == 0)
				written++;
			else
				status = 1;
			xq_record_free(r);
		}
		xq_reader_close(rd);
	}
	if (xq_writer_close(w) != 0)
		return 1;
	fprintf(stderr, "%d games written to %s\n", written, argv[1]);
	return status;
}
