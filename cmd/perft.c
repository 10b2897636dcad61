/*
 * perft.c: `xqkit perft`, count the leaves of the legal move tree.
 *
 * With -j N the work is split into (root move, reply) pairs handed out to
 * N threads from an atomic counter, so threads stay busy even when one
 * root move has a much larger subtree than another.  Each thread works on
 * its own copy of the position; counting allocates nothing per node.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "movegen.h"
#include "opt.h"

static const char usage[] =
	"xqkit perft [--fen FEN] [--divide] [-j THREADS] [--format text|ndjson] DEPTH\n"
	"   or: xqkit perft --suite FILE [--max-depth D] [-j THREADS] [--format text|ndjson] [-q|-v]";
static const char summary[] =
	"Count the leaves of the legal move tree DEPTH plies deep from a position (the\n"
	"start position unless --fen is given), print the count, the time and the\n"
	"leaves per second.  The last ply is counted from the move list (bulk counting).\n"
	"With --suite, check every row of a TSV file (columns id, fen, depth, nodes)\n"
	"and exit 1 if any count differs.";

enum { O_FEN = 'f', O_DIVIDE = 'd', O_JOBS = 'j', O_JSON = 'J', O_FORMAT = 'F', O_SUITE = 's',
       O_MAXDEPTH = 'm', O_QUIET = 'q', O_VERBOSE = 'v', O_HELP = 'h' };

static const struct opt_spec options[] = {
	OPT_VALUE(O_FEN, 0, "fen", "FEN", "count from this position instead of the start"),
	OPT_FLAG(O_DIVIDE, 0, "divide", "print the count below each root move (ICCS)"),
	OPT_VALUE(O_JOBS, 'j', "jobs", "THREADS", "count on this many threads (default 1)"),
	OPT_VALUE(O_FORMAT, 0, "format", "FMT", "text (default) or ndjson: one JSON object (or one per suite row)"),
	OPT_FLAG(O_JSON, 0, "json", NULL),
	OPT_VALUE(O_SUITE, 0, "suite", "FILE", "check every row of a perft suite TSV file"),
	OPT_VALUE(O_MAXDEPTH, 0, "max-depth", "D", "with --suite, skip rows deeper than D"),
	OPT_FLAG(O_QUIET, 'q', "quiet", "with --suite, no summary (only the rows that differ)"),
	OPT_FLAG(O_VERBOSE, 'v', "verbose", "with --suite, a line for every row counted"),
	OPT_FLAG(O_HELP, 'h', "help", "show this help"),
	OPT_END,
};

#define MAX_DEPTH 20

struct item {
	uint8_t root;  /* index into the root move list */
	xq_move reply; /* 0: count below the root move itself */
	uint64_t count;
};

struct job {
	struct xq_board board;
	int depth;
	xq_move roots[XQ_MAX_MOVES];
	int nroots;
	struct item *items;
	int nitems;
	atomic_int next;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	struct xq_board b = j->board;

	for (;;) {
		int i = atomic_fetch_add(&j->next, 1);
		struct item *it;
		struct xq_undo u1, u2;
		if (i >= j->nitems)
			break;
		it = &j->items[i];
		xq_board_make(&b, j->roots[it->root], &u1);
		if (it->reply) {
			xq_board_make(&b, it->reply, &u2);
			it->count = xq_perft(&b, j->depth - 2);
			xq_board_unmake(&b, it->reply, &u2);
		} else {
			it->count = xq_perft(&b, j->depth - 1);
		}
		xq_board_unmake(&b, j->roots[it->root], &u1);
	}
	return NULL;
}

/*
 * Count `depth` plies from `b` on `threads` threads; per-root counts go to
 * `per_root` (indexed like `roots`, which receives the sorted root moves)
 * when not NULL.  Returns 0, or -1 when memory or threads fail.
 */
static int count_tree(const struct xq_board *b, int depth, int threads, uint64_t *total,
		      xq_move *roots, uint64_t *per_root, int *nroots)
{
	struct job j;
	pthread_t tid[64];
	int started = 0, rc = 0;

	memset(&j, 0, sizeof(j));
	j.board = *b;
	j.depth = depth;
	j.nroots = xq_gen_legal(&j.board, j.roots);
	/* Sort root moves by their ICCS text so --divide output is stable. */
	for (int a = 1; a < j.nroots; a++) {
		xq_move m = j.roots[a];
		char ma[5], mb[5];
		int c = a;
		xq_move_name(m, ma);
		while (c > 0) {
			xq_move_name(j.roots[c - 1], mb);
			if (strcmp(mb, ma) <= 0)
				break;
			j.roots[c] = j.roots[c - 1];
			c--;
		}
		j.roots[c] = m;
	}
	if (roots)
		memcpy(roots, j.roots, sizeof(j.roots[0]) * (size_t)j.nroots);
	if (nroots)
		*nroots = j.nroots;
	*total = 0;
	if (per_root)
		for (int i = 0; i < j.nroots; i++)
			per_root[i] = depth <= 1 ? 1 : 0;
	if (depth <= 1) {
		*total = depth == 1 ? (uint64_t)j.nroots : 1;
		return 0;
	}

	/* Work items: (root, reply) pairs from depth 3, root moves at depth 2. */
	j.items = calloc((size_t)j.nroots * XQ_MAX_MOVES + 1, sizeof(*j.items));
	if (!j.items)
		return -1;
	for (int r = 0; r < j.nroots; r++) {
		struct xq_undo u;
		xq_move replies[XQ_MAX_MOVES];
		int n;
		if (depth == 2) {
			j.items[j.nitems++] = (struct item){(uint8_t)r, 0, 0};
			continue;
		}
		xq_board_make(&j.board, j.roots[r], &u);
		n = xq_gen_legal(&j.board, replies);
		xq_board_unmake(&j.board, j.roots[r], &u);
		for (int i = 0; i < n; i++)
			j.items[j.nitems++] = (struct item){(uint8_t)r, replies[i], 0};
	}
	atomic_init(&j.next, 0);
	if (threads > 64)
		threads = 64;
	for (int t = 1; t < threads; t++) {
		if (pthread_create(&tid[t], NULL, worker, &j) != 0)
			break; /* run with the threads we have */
		started++;
	}
	worker(&j);
	for (int t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	for (int i = 0; i < j.nitems; i++) {
		*total += j.items[i].count;
		if (per_root)
			per_root[j.items[i].root] += j.items[i].count;
	}
	free(j.items);
	return rc;
}

static void print_json_result(int depth, uint64_t nodes, double secs, int threads, const char *fen,
			      const xq_move *roots, const uint64_t *per_root, int nroots)
{
	struct xq_buf b = XQ_BUF_INIT;

	xq_buf_addf(&b, "{\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f,\"nps\":%.0f,\"threads\":%d,\"fen\":",
		    depth, (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs : 0.0,
		    threads);
	xq_buf_add_json_string(&b, fen, strlen(fen));
	if (per_root) {
		xq_buf_adds(&b, ",\"divide\":{");
		for (int i = 0; i < nroots; i++) {
			char name[5];
			xq_move_name(roots[i], name);
			xq_buf_addf(&b, "%s\"%s\":%llu", i ? "," : "", name,
				    (unsigned long long)per_root[i]);
		}
		xq_buf_addc(&b, '}');
	}
	xq_buf_adds(&b, "}\n");
	if (xq_buf_error(&b))
		cmd_error("out of memory");
	else
		fwrite(b.ptr, 1, b.len, stdout);
	xq_buf_release(&b);
}

static int run_one(const struct xq_board *b, int depth, int threads, int divide, int json)
{
	xq_move roots[XQ_MAX_MOVES];
	uint64_t per_root[XQ_MAX_MOVES], total;
	int nroots = 0;
	double t0 = cmd_now(), secs;
	char fen[XQ_FEN_MAX];

	if (count_tree(b, depth, threads, &total, roots, divide ? per_root : NULL, &nroots)) {
		cmd_error("out of memory");
		return XQ_EXIT_IO;
	}
	secs = cmd_now() - t0;
	xq_board_to_fen(b, fen, sizeof(fen));
	if (json) {
		print_json_result(depth, total, secs, threads, fen, roots, divide ? per_root : NULL,
				  nroots);
		return XQ_EXIT_OK;
	}
	if (divide) {
		for (int i = 0; i < nroots; i++) {
			char name[5];
			xq_move_name(roots[i], name);
			printf("%s: %llu\n", name, (unsigned long long)per_root[i]);
		}
		printf("\n");
	}
	printf("perft %d: %llu leaves in %.3f s (%.2f M leaves/s, %d thread%s)\n", depth,
	       (unsigned long long)total, secs, secs > 0 ? (double)total / secs / 1e6 : 0.0,
	       threads, threads == 1 ? "" : "s");
	return XQ_EXIT_OK;
}

/* Split a line at tabs into at most `max` fields; returns the count. */
static int split_tabs(char *line, char **fields, int max)
{
	int n = 0;

	fields[n++] = line;
	for (char *p = line; *p && n < max; p++) {
		if (*p == '\t') {
			*p = '\0';
			fields[n++] = p + 1;
		}
	}
	return n;
}

static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* quiet: no summary; verbose: a line for each row (text). */
static int suite_quiet, suite_verbose;

static int run_suite(const char *path, int max_depth, int threads, int json)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	unsigned long lineno = 0;
	int rows = 0, skipped = 0, mismatches = 0, bad = 0;
	uint64_t leaves = 0;
	double t0 = cmd_now();

	if (!f) {
		cmd_error("cannot open '%s': %s", path, strerror(errno));
		return XQ_EXIT_IO;
	}
	while ((got = getline(&line, &cap, f)) > 0) {
		char *fields[8];
		int nf, depth;
		uint64_t expect, total;
		struct xq_board b;
		struct xq_diag d;
		double r0;

		lineno++;
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		if (got == 0 || line[0] == '#')
			continue;
		nf = split_tabs(line, fields, 8);
		if (nf >= 1 && !strcmp(fields[0], "id"))
			continue; /* header */
		if (nf < 4 || parse_u64(fields[3], &expect)) {
			fprintf(stderr, "%s:%lu: error: expected the columns id, fen, depth, nodes\n",
				path, lineno);
			bad++;
			continue;
		}
		{
			uint64_t dv;
			depth = parse_u64(fields[2], &dv) || dv > MAX_DEPTH ? -1 : (int)dv;
		}
		if (depth < 0) {
			fprintf(stderr, "%s:%lu: error: depth '%s' out of range\n", path, lineno,
				fields[2]);
			bad++;
			continue;
		}
		xq_diag_init(&d);
		if (xq_board_from_fen(&b, fields[1], strlen(fields[1]), 0, &d)) {
			fprintf(stderr, "%s:%lu: error: %s: bad FEN at column %llu: %s\n", path, lineno,
				fields[0], (unsigned long long)d.place.col, d.msg);
			bad++;
			continue;
		}
		if (max_depth >= 0 && depth > max_depth) {
			skipped++;
			continue;
		}
		r0 = cmd_now();
		if (count_tree(&b, depth, threads, &total, NULL, NULL, NULL)) {
			cmd_error("out of memory");
			free(line);
			return XQ_EXIT_IO;
		}
		rows++;
		leaves += total;
		if (total != expect) {
			mismatches++;
			fprintf(stderr, "%s:%lu: error: %s depth %d: expected %llu leaves, counted %llu\n",
				path, lineno, fields[0], depth, (unsigned long long)expect,
				(unsigned long long)total);
		}
		if (suite_verbose && !json)
			printf("%s depth %d: %llu leaves%s\n", fields[0], depth,
			       (unsigned long long)total, total == expect ? "" : " (differs)");
		if (json) {
			struct xq_buf o = XQ_BUF_INIT;
			xq_buf_adds(&o, "{\"id\":");
			xq_buf_add_json_string(&o, fields[0], strlen(fields[0]));
			xq_buf_addf(&o, ",\"depth\":%d,\"expected\":%llu,\"nodes\":%llu,\"ok\":%s,\"seconds\":%.6f}\n",
				    depth, (unsigned long long)expect, (unsigned long long)total,
				    total == expect ? "true" : "false", cmd_now() - r0);
			if (!xq_buf_error(&o))
				fwrite(o.ptr, 1, o.len, stdout);
			xq_buf_release(&o);
		}
	}
	free(line);
	if (ferror(f)) {
		cmd_error("cannot read '%s': %s", path, strerror(errno));
		if (f != stdin)
			fclose(f);
		return XQ_EXIT_IO;
	}
	if (f != stdin)
		fclose(f);
	{
		double secs = cmd_now() - t0;
		if (json)
			printf("{\"suite\":\"summary\",\"rows\":%d,\"skipped\":%d,\"mismatches\":%d,\"bad_rows\":%d,\"nodes\":%llu,\"seconds\":%.6f}\n",
			       rows, skipped, mismatches, bad, (unsigned long long)leaves, secs);
		else if (!suite_quiet)
			fprintf(stderr, "suite %s: %d rows counted, %d skipped (deeper than --max-depth), %d mismatch%s, %d bad row%s; %llu leaves in %.2f s\n",
			       path, rows, skipped, mismatches,
			       mismatches == 1 ? "" : "es", bad, bad == 1 ? "" : "s",
			       (unsigned long long)leaves, secs);
	}
	return mismatches || bad ? XQ_EXIT_INVALID : XQ_EXIT_OK;
}

struct perft_args {
	const char *fen, *suite;
	int divide, json, threads, max_depth;
	long depth;
};

/* One option: 0, 1 when --help was shown, -1 with the message in p->err. */
static int take_option(struct perft_args *a, struct opt_parser *p, int id, const char *value)
{
	long v;

	switch (id) {
	case O_FEN: a->fen = value; break;
	case O_DIVIDE: a->divide = 1; break;
	case O_JSON:
		if (!a->json)
			cmd_warning("--json is an old spelling of --format ndjson, which it means here");
		a->json = 1;
		break;
	case O_FORMAT:
		if (strcmp(value, "text") && strcmp(value, "ndjson") && strcmp(value, "json")) {
			snprintf(p->err, sizeof(p->err), "--format must be text or ndjson, not '%s'", value);
			return -1;
		}
		a->json = strcmp(value, "text") != 0;
		break;
	case O_QUIET: suite_quiet = 1; break;
	case O_VERBOSE: suite_verbose = 1; break;
	case O_SUITE: a->suite = value; break;
	case O_JOBS:
		if ((v = opt_int(p, "--jobs", value, 1, 64)) < 0)
			return -1;
		a->threads = (int)v;
		break;
	case O_MAXDEPTH:
		if ((v = opt_int(p, "--max-depth", value, 0, MAX_DEPTH)) < 0)
			return -1;
		a->max_depth = (int)v;
		break;
	case O_HELP:
		opt_print_help(stdout, usage, summary, options);
		return 1;
	}
	return 0;
}

/* The options and what they say together: 0, 1 after --help, -1. */
static int parse_args(struct perft_args *a, struct opt_parser *p)
{
	const char *value;
	int id, rc;

	while ((rc = opt_next(p, options, &id, &value)) > 0)
		if ((rc = take_option(a, p, id, value)) != 0)
			return rc;
	if (rc < 0)
		return -1;
	if (a->suite) {
		if (p->noperands || a->fen || a->divide) {
			snprintf(p->err, sizeof(p->err), "--suite takes no DEPTH, --fen or --divide");
			return -1;
		}
		return 0;
	}
	if (a->max_depth >= 0) {
		snprintf(p->err, sizeof(p->err), "--max-depth needs --suite");
		return -1;
	}
	if (p->noperands != 1) {
		snprintf(p->err, sizeof(p->err), p->noperands ? "too many arguments" : "missing DEPTH");
		return -1;
	}
	return (a->depth = opt_int(p, "DEPTH", p->operands[0], 0, MAX_DEPTH)) < 0 ? -1 : 0;
}

int cmd_perft(int argc, char **argv)
{
	struct opt_parser p;
	struct perft_args a = {NULL, NULL, 0, 0, 1, -1, -1};
	struct xq_board b;
	struct xq_diag d;
	int rc;

	if (opt_init(&p, argc, argv, "perft")) {
		cmd_error("out of memory");
		return XQ_EXIT_IO;
	}
	if ((rc = parse_args(&a, &p)) != 0) {
		rc = rc > 0 ? XQ_EXIT_OK : cmd_usage_error("perft", "%s", p.err);
		opt_release(&p);
		return rc;
	}
	opt_release(&p);
	if (a.suite)
		return run_suite(a.suite, a.max_depth, a.threads, a.json);
	xq_diag_init(&d);
	if (!a.fen) {
		xq_board_start(&b);
	} else if (xq_board_from_fen(&b, a.fen, strlen(a.fen), 0, &d)) {
		cmd_error("bad FEN at column %llu: %s", (unsigned long long)d.place.col, d.msg);
		return XQ_EXIT_INVALID;
	}
	return run_one(&b, (int)a.depth, a.threads, a.divide, a.json);
}
