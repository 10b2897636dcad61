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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include <xq/buf.h>
#include <xq/position.h>

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
	uint8_t root;       /* index into the root move list */
	xq_move_code reply; /* 0: count below the root move itself */
	uint64_t count;
};

struct job {
	const xq_position *start;
	int depth;
	xq_move_code roots[XQ_MOVES_MAX];
	int nroots;
	struct item *items;
	int nitems;
	atomic_int next;
	atomic_int nomem; /* a copy of the position could not be made */
};

/* Each item on a copy of the start position: counting below it allocates
 * nothing. */
static void *worker(void *arg)
{
	struct job *j = arg;

	for (;;) {
		int i = atomic_fetch_add(&j->next, 1);
		struct item *it;
		xq_position *p;
		if (i >= j->nitems)
			break;
		it = &j->items[i];
		if (!(p = xq_position_dup(j->start))) {
			atomic_store(&j->nomem, 1);
			break;
		}
		xq_position_play(p, j->roots[it->root]);
		if (it->reply) {
			xq_position_play(p, it->reply);
			it->count = xq_position_perft(p, j->depth - 2);
		} else {
			it->count = xq_position_perft(p, j->depth - 1);
		}
		xq_position_free(p);
	}
	return NULL;
}

/*
 * Count `depth` plies from `start` on `threads` threads; per-root counts go
 * to `per_root` (indexed like `roots`, which receives the sorted root
 * moves) when not NULL.  Returns 0, or -1 when memory or threads fail.
 */
static int count_tree(const xq_position *start, int depth, int threads, uint64_t *total,
		      xq_move_code *roots, uint64_t *per_root, int *nroots)
{
	struct job j;
	pthread_t tid[64];
	int started = 0, rc = 0;

	memset(&j, 0, sizeof(j));
	j.start = start;
	j.depth = depth;
	j.nroots = xq_position_legal_moves(start, j.roots);
	/* Sort root moves by their ICCS text so --divide output is stable. */
	for (int a = 1; a < j.nroots; a++) {
		xq_move_code m = j.roots[a];
		char ma[5], mb[5];
		int c = a;
		xq_move_code_iccs(m, ma);
		while (c > 0) {
			xq_move_code_iccs(j.roots[c - 1], mb);
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
	j.items = calloc((size_t)j.nroots * XQ_MOVES_MAX + 1, sizeof(*j.items));
	if (!j.items)
		return -1;
	for (int r = 0; r < j.nroots; r++) {
		xq_move_code replies[XQ_MOVES_MAX];
		xq_position *p;
		int n;
		if (depth == 2) {
			j.items[j.nitems++] = (struct item){(uint8_t)r, 0, 0};
			continue;
		}
		if (!(p = xq_position_dup(start))) {
			free(j.items);
			return -1;
		}
		xq_position_play(p, j.roots[r]);
		n = xq_position_legal_moves(p, replies);
		xq_position_free(p);
		for (int i = 0; i < n; i++)
			j.items[j.nitems++] = (struct item){(uint8_t)r, replies[i], 0};
	}
	atomic_init(&j.next, 0);
	atomic_init(&j.nomem, 0);
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
	if (atomic_load(&j.nomem))
		rc = -1;
	for (int i = 0; i < j.nitems; i++) {
		*total += j.items[i].count;
		if (per_root)
			per_root[j.items[i].root] += j.items[i].count;
	}
	free(j.items);
	return rc;
}

/* `s` as a JSON string on stdout, as xqkit writes every string
 * (xq_buf_add_json_string(): valid UTF-8 whatever `s` holds). */
static void print_json_string(const char *s)
{
	struct xq_buf b = XQ_BUF_INIT;

	if (xq_buf_add_json_string(&b, s, strlen(s)) == 0)
		fwrite(b.ptr, 1, b.len, stdout);
	xq_buf_release(&b);
}

static void print_json_result(int depth, uint64_t nodes, double secs, int threads, const char *fen,
			      const xq_move_code *roots, const uint64_t *per_root, int nroots)
{
	printf("{\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f,\"nps\":%.0f,\"threads\":%d,\"fen\":",
	       depth, (unsigned long long)nodes, secs, secs > 0 ? (double)nodes / secs : 0.0, threads);
	print_json_string(fen);
	if (per_root) {
		printf(",\"divide\":{");
		for (int i = 0; i < nroots; i++) {
			char name[5];
			xq_move_code_iccs(roots[i], name);
			printf("%s\"%s\":%llu", i ? "," : "", name, (unsigned long long)per_root[i]);
		}
		putchar('}');
	}
	printf("}\n");
}

static int run_one(const xq_position *p, int depth, int threads, int divide, int json)
{
	xq_move_code roots[XQ_MOVES_MAX];
	uint64_t per_root[XQ_MOVES_MAX], total;
	int nroots = 0;
	double t0 = cmd_now(), secs;
	char fen[XQ_FEN_SIZE];

	if (count_tree(p, depth, threads, &total, roots, divide ? per_root : NULL, &nroots)) {
		cmd_error("out of memory counting the move tree");
		return CMD_EXIT_IO;
	}
	secs = cmd_now() - t0;
	xq_position_fen(p, fen, sizeof(fen));
	if (json) {
		print_json_result(depth, total, secs, threads, fen, roots, divide ? per_root : NULL,
				  nroots);
		return CMD_EXIT_OK;
	}
	if (divide) {
		for (int i = 0; i < nroots; i++) {
			char name[5];
			xq_move_code_iccs(roots[i], name);
			printf("%s: %llu\n", name, (unsigned long long)per_root[i]);
		}
		printf("\n");
	}
	printf("perft %d: %llu leaves in %.3f s (%.2f M leaves/s, %d thread%s)\n", depth,
	       (unsigned long long)total, secs, secs > 0 ? (double)total / secs / 1e6 : 0.0,
	       threads, threads == 1 ? "" : "s");
	return CMD_EXIT_OK;
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

/* A suite being checked: where it is read, how, and the counts so far. */
struct suite {
	const char *path;
	int max_depth, threads, json;
	unsigned long lineno;
	int rows, skipped, mismatches, bad;
	uint64_t leaves;
	xq_position *pos;
};

/* One line of the suite (its end of line cut off): 0, or CMD_EXIT_IO when
 * memory ran out counting. */
static int suite_line(struct suite *s, char *line)
{
	char *fields[8];
	int nf, depth;
	uint64_t expect, total, dv;
	double r0;

	if (line[0] == '\0' || line[0] == '#')
		return 0;
	nf = split_tabs(line, fields, 8);
	if (nf >= 1 && !strcmp(fields[0], "id"))
		return 0; /* header */
	if (nf < 4 || parse_u64(fields[3], &expect)) {
		fprintf(stderr, "%s:%lu: error: expected the columns id, fen, depth, nodes\n",
			s->path, s->lineno);
		s->bad++;
		return 0;
	}
	depth = parse_u64(fields[2], &dv) || dv > MAX_DEPTH ? -1 : (int)dv;
	if (depth < 0) {
		fprintf(stderr, "%s:%lu: error: depth '%s' out of range\n", s->path, s->lineno,
			fields[2]);
		s->bad++;
		return 0;
	}
	if (xq_position_set_fen(s->pos, fields[1])) {
		const xq_diagnostic *d = xq_position_error(s->pos);
		fprintf(stderr, "%s:%lu: error: %s: bad FEN at column %llu: %s\n", s->path, s->lineno,
			fields[0], (unsigned long long)xq_diagnostic_column(d), xq_diagnostic_message(d));
		s->bad++;
		return 0;
	}
	if (s->max_depth >= 0 && depth > s->max_depth) {
		s->skipped++;
		return 0;
	}
	r0 = cmd_now();
	if (count_tree(s->pos, depth, s->threads, &total, NULL, NULL, NULL)) {
		cmd_error("out of memory counting the move tree");
		return CMD_EXIT_IO;
	}
	s->rows++;
	s->leaves += total;
	if (total != expect) {
		s->mismatches++;
		fprintf(stderr, "%s:%lu: error: %s depth %d: expected %llu leaves, counted %llu\n",
			s->path, s->lineno, fields[0], depth, (unsigned long long)expect,
			(unsigned long long)total);
	}
	if (suite_verbose && !s->json)
		printf("%s depth %d: %llu leaves%s\n", fields[0], depth,
		       (unsigned long long)total, total == expect ? "" : " (differs)");
	if (s->json) {
		printf("{\"id\":");
		print_json_string(fields[0]);
		printf(",\"depth\":%d,\"expected\":%llu,\"nodes\":%llu,\"ok\":%s,\"seconds\":%.6f}\n",
		       depth, (unsigned long long)expect, (unsigned long long)total,
		       total == expect ? "true" : "false", cmd_now() - r0);
	}
	return 0;
}

/* Every line of `f`: 0, or CMD_EXIT_IO (said). */
static int suite_lines(struct suite *s, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int rc = 0;

	while (!rc && (got = getline(&line, &cap, f)) > 0) {
		s->lineno++;
		while (got > 0 && (line[got - 1] == '\n' || line[got - 1] == '\r'))
			line[--got] = '\0';
		rc = suite_line(s, line);
	}
	free(line);
	if (!rc && ferror(f)) {
		cmd_error("cannot read '%s': %s", s->path, strerror(errno));
		rc = CMD_EXIT_IO;
	}
	return rc;
}

static void suite_summary(const struct suite *s, double secs)
{
	if (s->json)
		printf("{\"suite\":\"summary\",\"rows\":%d,\"skipped\":%d,\"mismatches\":%d,\"bad_rows\":%d,\"nodes\":%llu,\"seconds\":%.6f}\n",
		       s->rows, s->skipped, s->mismatches, s->bad, (unsigned long long)s->leaves, secs);
	else if (!suite_quiet)
		fprintf(stderr, "suite %s: %d rows counted, %d skipped (deeper than --max-depth), %d mismatch%s, %d bad row%s; %llu leaves in %.2f s\n",
			s->path, s->rows, s->skipped, s->mismatches,
			s->mismatches == 1 ? "" : "es", s->bad, s->bad == 1 ? "" : "s",
			(unsigned long long)s->leaves, secs);
}

static int run_suite(const char *path, int max_depth, int threads, int json)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct suite s = {.path = path, .max_depth = max_depth, .threads = threads, .json = json};
	double t0 = cmd_now();
	int rc;

	if (!f) {
		cmd_error("cannot open '%s': %s", path, strerror(errno));
		return CMD_EXIT_IO;
	}
	if (!(s.pos = xq_position_new())) {
		cmd_error("out of memory making the position");
		rc = CMD_EXIT_IO;
	} else {
		rc = suite_lines(&s, f);
		xq_position_free(s.pos);
	}
	if (f != stdin)
		fclose(f);
	if (rc)
		return rc;
	suite_summary(&s, cmd_now() - t0);
	return s.mismatches || s.bad ? CMD_EXIT_INVALID : CMD_EXIT_OK;
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
		if (strcmp(value, "text") && strcmp(value, "ndjson") && strcmp(value, "json"))
			return opt_error(p, "--format must be text or ndjson, not '%s'", value);
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
static int parse_args(void *ctx, struct opt_parser *p)
{
	struct perft_args *a = ctx;
	const char *value;
	int id, rc;

	while ((rc = opt_next(p, options, &id, &value)) > 0)
		if ((rc = take_option(a, p, id, value)) != 0)
			return rc;
	if (rc < 0)
		return -1;
	if (a->suite) {
		if (p->noperands || a->fen || a->divide)
			return opt_error(p, "--suite takes no DEPTH, --fen or --divide");
		return 0;
	}
	if (a->max_depth >= 0)
		return opt_error(p, "--max-depth needs --suite");
	if (p->noperands != 1)
		return opt_error(p, p->noperands ? "too many arguments" : "missing DEPTH");
	return (a->depth = opt_int(p, "DEPTH", p->operands[0], 0, MAX_DEPTH)) < 0 ? -1 : 0;
}

int cmd_perft(int argc, char **argv)
{
	struct opt_parser p;
	struct perft_args a = {NULL, NULL, 0, 0, 1, -1, -1};
	xq_position *pos;
	int rc;

	if ((rc = opt_command(&p, argc, argv, "perft", parse_args, &a)) != OPT_RUN)
		return rc;
	opt_release(&p);
	if (a.suite)
		return run_suite(a.suite, a.max_depth, a.threads, a.json);
	if (!(pos = xq_position_new())) {
		cmd_error("out of memory making the position");
		return CMD_EXIT_IO;
	}
	if (a.fen && xq_position_set_fen(pos, a.fen)) {
		const xq_diagnostic *d = xq_position_error(pos);
		cmd_error("bad FEN at column %llu: %s", (unsigned long long)xq_diagnostic_column(d),
			  xq_diagnostic_message(d));
		xq_position_free(pos);
		return CMD_EXIT_INVALID;
	}
	rc = run_one(pos, (int)a.depth, a.threads, a.divide, a.json);
	xq_position_free(pos);
	return rc;
}
