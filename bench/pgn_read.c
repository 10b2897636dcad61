/*
 * pgn_read.c: the benchmark driver for the PGN reader.  Reads every game
 * of a file (every move is checked legal as it is read, so a game read is
 * a game replayed), and prints one line of counts and rates plus the
 * peak resident memory of the process:
 *
 *   games 11250 plies 1013210 broken 0 errors 0 bytes 7969240 seconds 0.412
 *   games/s 27305 plies/s 2459247 MB/s 19.34 maxrss_kb 3520
 *
 * Usage: pgn_read FILE [ENCODING]   (FILE may be "-"; gzip is read too)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "diagnostic.h"
#include "record.h"
#include "io.h"
#include "pgn.h"
#include "text.h"

static unsigned long errors;

static void count(const struct xq_diagnostic *d, void *payload)
{
	(void)payload;
	if (d->severity == XQ_SEVERITY_ERROR) {
		if (errors++ < 5)
			fprintf(stderr, "%s:%llu:%llu: %s: %s\n", d->source ? d->source : "?",
				(unsigned long long)d->place.line, (unsigned long long)d->place.col,
				xqi_diagnostic_code_name(d->code), d->msg);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_sink sink = {count, NULL};
	struct xqi_input *in;
	struct xq_diagnostic d;
	struct xqi_record g;
	struct rusage ru;
	unsigned long games = 0, plies = 0, broken = 0;
	double t0, t;
	void *rd;
	int rc;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: pgn_read FILE [ENCODING]\n");
		return 2;
	}
	if (argc == 3 && xqi_encoding_parse(argv[2], &opts.encoding)) {
		fprintf(stderr, "pgn_read: unknown encoding '%s'\n", argv[2]);
		return 2;
	}
	xqi_diagnostic_init(&d);
	t0 = now();
	if (xqi_input_open(&in, argv[1], &d)) {
		fprintf(stderr, "pgn_read: %s\n", d.msg);
		return 3;
	}
	if (xqi_format_pgn.open_reader(&rd, in, &opts, &sink) || xqi_record_init(&g)) {
		fprintf(stderr, "pgn_read: out of memory\n");
		return 3;
	}
	while ((rc = xqi_format_pgn.read(rd, &g)) > 0) {
		games++;
		plies += g.nnodes - 1;
		broken += (g.flags & XQI_RECORD_BROKEN) != 0;
	}
	t = now() - t0;
	getrusage(RUSAGE_SELF, &ru);
	{
		/* Bytes of the file as stored (the compressed size for gzip). */
		double bytes = (double)xqi_input_stored_offset(in);
		printf("games %lu plies %lu broken %lu errors %lu bytes %.0f seconds %.3f "
		       "games/s %.0f plies/s %.0f MB/s %.2f maxrss_kb %ld\n",
		       games, plies, broken, errors, bytes, t, games / t, plies / t, bytes / t / 1e6,
		       ru.ru_maxrss);
	}
	xqi_format_pgn.close_reader(rd);
	xqi_input_close(in);
	xqi_record_release(&g);
	return rc < 0 ? 3 : errors ? 1 : 0;
}
