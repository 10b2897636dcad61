/*
 * xqf_read.c: the benchmark driver for bench/xqf.sh.  It reads a list of
 * XQF files ROUNDS times, either only loading their bytes (the baseline:
 * open, read, close, as any reader must) or loading and decoding them
 * into a game (every move checked, comments decoded), and prints what it
 * read so the script can turn whole-process times into rates.
 *
 * Usage: xqf_read [-m load|read] [-n ROUNDS] [-l LISTFILE] [FILE...]
 *   -m   load: bytes only; read (default): bytes and decoding
 *   -n   rounds over all the files (default 1)
 *   -l   a file with one path per line (added to the FILE arguments)
 * Output (one line): files, rounds, games, move records, bytes.
 * Exit status: 0, 1 when a file did not read, 2 usage, 3 I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diagnostic.h"
#include "record.h"
#include "io.h"
#include "xqf.h"

static void ignore(const struct xq_diagnostic *d, void *payload)
{
	(void)d;
	(void)payload;
}

static int add_path(char ***paths, size_t *n, size_t *cap, const char *p, size_t len)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		char **q = realloc(*paths, c * sizeof(*q));
		if (!q)
			return -1;
		*paths = q;
		*cap = c;
	}
	(*paths)[*n] = malloc(len + 1);
	if (!(*paths)[*n])
		return -1;
	memcpy((*paths)[*n], p, len);
	(*paths)[*n][len] = '\0';
	(*n)++;
	return 0;
}

static int read_list(const char *list, char ***paths, size_t *n, size_t *cap)
{
	FILE *f = fopen(list, "r");
	char line[4096];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strcspn(line, "\r\n");
		if (len && add_path(paths, n, cap, line, len)) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	char **paths = NULL;
	size_t npaths = 0, cap = 0;
	long rounds = 1;
	int decode = 1, status = 0;
	unsigned long long games = 0, records = 0, bytes = 0;
	struct xq_buf data = XQ_BUF_INIT;
	struct xqi_record g;
	struct xqi_sink sink = {ignore, NULL};

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "load") && strcmp(argv[i], "read")) {
				fprintf(stderr, "xqf_read: -m takes load or read\n");
				return 2;
			}
			decode = !strcmp(argv[i], "read");
		} else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			char *end;
			rounds = strtol(argv[++i], &end, 10);
			if (*end || rounds < 1) {
				fprintf(stderr, "xqf_read: -n takes a positive number\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "-l") && i + 1 < argc) {
			if (read_list(argv[++i], &paths, &npaths, &cap)) {
				fprintf(stderr, "xqf_read: cannot read the list %s\n", argv[i]);
				return 3;
			}
		} else if (add_path(&paths, &npaths, &cap, argv[i], strlen(argv[i]))) {
			return 3;
		}
	}
	if (npaths == 0) {
		fprintf(stderr, "usage: xqf_read [-m load|read] [-n ROUNDS] [-l LIST] [FILE...]\n");
		return 2;
	}
	if (xqi_record_init(&g))
		return 3;
	for (long r = 0; r < rounds; r++) {
		for (size_t i = 0; i < npaths; i++) {
			struct xqi_input *in;
			struct xq_diagnostic d;
			struct xqi_xqf_stats st;
			xqi_diagnostic_init(&d);
			xq_buf_reset(&data);
			if (xqi_input_open(&in, paths[i], &d) ||
			    xqi_input_read_all(in, &data, (size_t)1 << 28, &d)) {
				fprintf(stderr, "xqf_read: %s: %s\n", paths[i], d.msg);
				return 3;
			}
			xqi_input_close(in);
			bytes += data.len;
			if (!decode)
				continue;
			if (xqi_xqf_read_mem(&g, (const unsigned char *)data.ptr, data.len, NULL, &sink,
					    paths[i], &st)) {
				status = 1;
				continue;
			}
			games++;
			records += st.records;
		}
	}
	printf("files %zu rounds %ld games %llu records %llu bytes %llu\n", npaths, rounds, games,
	       records, bytes);
	xqi_record_release(&g);
	xq_buf_release(&data);
	for (size_t i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	return status;
}
