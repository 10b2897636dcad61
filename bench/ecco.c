/*
 * ecco.c: the benchmark driver for bench/ecco.sh.  Reads every game of the
 * record files given (directories are read recursively, the format found
 * from the content as xqkit does; every move is checked legal as it is
 * read, so a game read is a game replayed) and keeps each game's start
 * position and first 20 plies; then classifies all the games' openings,
 * ROUNDS times over.  It prints the processor time of the reading, the
 * median processor time of one round of classification, and how the codes
 * compare with the ECCO tags the records carry:
 *
 *   files 1885 games 4607 read_s 0.312 classify_s 0.0031 ns_per_game 673
 *   of_read 0.99% tags 1017 agree 1001 differ 16
 *
 * Processor time (of this thread), not wall time, so that other work on a
 * shared machine weighs less on the figures; bench/ecco.sh sets them
 * against the processor time of `xqkit validate` on the same files.
 *
 * Usage: ecco [-n ROUNDS] PATH...   (ROUNDS: default 11)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "diagnostic.h"
#include "ecco.h"
#include "format.h"
#include "record.h"
#include "io.h"

/* What classification needs of a game, and the ECCO tag it came with. */
struct opening {
	struct xqi_position start;
	xqi_move moves[XQ_ECCO_PLIES];
	uint8_t n;
	char tag[4]; /* "" when the record has no ECCO tag of three characters */
};

struct totals {
	unsigned long files, skipped;
	struct opening *games;
	size_t ngames, cap;
	double read_s;
};

static void ignore(const struct xq_diagnostic *d, void *payload)
{
	(void)d;
	(void)payload;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int read_file(const char *path, struct xqi_record *g, struct totals *t)
{
	struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
	struct xqi_sink sink = {ignore, NULL};
	const struct xqi_format *fmt;
	const unsigned char *head;
	struct xqi_input *in;
	struct xq_diagnostic d;
	size_t hlen, len = strlen(path);
	char name[4096];
	void *rd;
	int rc;
	double t0 = now();

	xqi_diagnostic_init(&d);
	if (xqi_input_open(&in, path, &d) || xqi_input_peek(in, &head, &hlen, &d)) {
		fprintf(stderr, "ecco: %s: %s\n", path, d.msg);
		return 3;
	}
	/* As xqkit does: ".gz" does not hide the extension that breaks ties. */
	if (len > 3 && !strcmp(path + len - 3, ".gz"))
		len -= 3;
	snprintf(name, sizeof(name), "%.*s", (int)len, path);
	fmt = xqi_format_detect(head, hlen, name);
	if (!fmt || !(fmt->caps & XQ_FORMAT_READS) || fmt->open_reader(&rd, in, &opts, &sink)) {
		t->skipped++;
		xqi_input_close(in);
		return 0;
	}
	t->files++;
	while ((rc = fmt->read(rd, g)) > 0) {
		struct opening *o;
		const char *tag = xqi_record_tag(g, "ECCO");
		uint32_t i;

		if (t->ngames == t->cap) {
			size_t cap = t->cap ? 2 * t->cap : 4096;
			struct opening *p = realloc(t->games, cap * sizeof(*p));
			if (!p) {
				fprintf(stderr, "ecco: out of memory\n");
				return 3;
			}
			t->games = p;
			t->cap = cap;
		}
		o = &t->games[t->ngames++];
		o->start = g->start;
		o->n = 0;
		for (i = g->nodes[XQI_ROOT].child; i != XQ_NO_NODE && o->n < XQ_ECCO_PLIES;
		     i = g->nodes[i].child)
			o->moves[o->n++] = g->nodes[i].move;
		o->tag[0] = '\0';
		if (tag && strlen(tag) == 3)
			memcpy(o->tag, tag, 4);
	}
	t->read_s += now() - t0;
	fmt->close_reader(rd);
	xqi_input_close(in);
	return rc < 0 ? 1 : 0;
}

static int read_path(const char *path, struct xqi_record *g, struct totals *t)
{
	struct stat st;
	DIR *dir;
	struct dirent *de;
	int status = 0;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "ecco: cannot read %s\n", path);
		return 3;
	}
	if (!S_ISDIR(st.st_mode))
		return read_file(path, g, t);
	if (!(dir = opendir(path)))
		return 3;
	while ((de = readdir(dir)) != NULL) {
		char sub[4096];
		int rc;
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if ((rc = read_path(sub, g, t)) > status)
			status = rc;
	}
	closedir(dir);
	return status;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	struct totals t;
	struct xqi_record g;
	struct xq_diagnostic d;
	unsigned long tagged = 0, agree = 0;
	double times[101], classify_s;
	long rounds = 11;
	int status = 0, first = 1;

	memset(&t, 0, sizeof(t));
	if (argc > 2 && !strcmp(argv[1], "-n")) {
		char *end;
		rounds = strtol(argv[2], &end, 10);
		if (*end || rounds < 1 || rounds > 101) {
			fprintf(stderr, "ecco: -n takes a number from 1 to 101\n");
			return 2;
		}
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: ecco [-n ROUNDS] PATH...\n");
		return 2;
	}
	if (xqi_record_init(&g))
		return 3;
	for (int i = first; i < argc; i++) {
		int rc = read_path(argv[i], &g, &t);
		if (rc > status)
			status = rc;
	}
	xqi_record_release(&g);
	xqi_diagnostic_init(&d);
	for (long r = 0; r < rounds; r++) {
		double t0 = now();
		for (size_t i = 0; i < t.ngames; i++) {
			const struct opening *o = &t.games[i];
			const struct xqi_ecco *e;
			if (xqi_ecco_classify(&e, &o->start, o->moves, o->n, &d) != 0) {
				fprintf(stderr, "ecco: game %zu: %s\n", i + 1, d.msg);
				return 1;
			}
			if (r == 0 && o->tag[0]) {
				tagged++;
				agree += strcmp(o->tag, e->code) == 0;
			}
		}
		times[r] = now() - t0;
	}
	qsort(times, (size_t)rounds, sizeof(times[0]), cmp_double);
	classify_s = times[rounds / 2];
	printf("files %lu games %zu read_s %.3f classify_s %.4f ns_per_game %.0f of_read %.2f%% "
	       "tags %lu agree %lu differ %lu\n",
	       t.files, t.ngames, t.read_s, classify_s,
	       t.ngames ? classify_s / (double)t.ngames * 1e9 : 0.0,
	       t.read_s > 0 ? 100.0 * classify_s / t.read_s : 0.0, tagged, agree, tagged - agree);
	free(t.games);
	return status;
}
