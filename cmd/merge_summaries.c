/*
 * merge_summaries.c: `xqkit merge-summaries`, the xqkit.summary/1 records
 * of several runs (the N shards of one job, --shard K/N) merged into the
 * record one run over all their inputs writes.
 *
 * The rule is one for every member, so that a member a command adds
 * later merges with no change here: counts (whole numbers) are added,
 * times (numbers with a fraction: `seconds`) give the largest, true wins
 * over false (`stopped`), objects merge member by member, and everything
 * else (the schema, the command, `to`, `engine`) must be the same in every
 * record.  Members keep the order of the first record that has them, but
 * `codes`, whose members are the diagnostic codes, are written in the order
 * of the code table, as a run writes them.  Lines that are not summaries
 * (diagnostics, checks, games) are skipped, so the whole NDJSON output of
 * each shard can be given.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "opt.h"
#include "report.h"
#include <xq/error.h>

/* A summary record is a few hundred bytes; a longer line is something
 * else (a game) and is skipped unread. */
#define LINE_MAX_BYTES (1u << 20)
/* Objects inside objects: a summary has two levels. */
#define DEPTH_MAX 8

enum jkind { J_COUNT, J_TIME, J_BOOL, J_OBJECT, J_OTHER };

struct jval {
	enum jkind kind;
	char *key;          /* the member's name as written, quotes included */
	uint64_t count;     /* J_COUNT */
	double time;        /* J_TIME */
	int truth;          /* J_BOOL */
	char *text;         /* J_OTHER: the value as written */
	struct jval *kids;  /* J_OBJECT: its members */
	size_t nkids, cap;
};

struct jparse {
	const char *s, *end;
	const char *why;
};

static void jval_release(struct jval *v)
{
	for (size_t i = 0; i < v->nkids; i++)
		jval_release(&v->kids[i]);
	free(v->kids);
	free(v->key);
	free(v->text);
	memset(v, 0, sizeof(*v));
}

static char *dup_span(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

static void skip_space(struct jparse *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\r' || *p->s == '\n'))
		p->s++;
}

/* A string, from its opening quote: its end, or NULL. */
static const char *string_end(const char *s, const char *end)
{
	for (s++; s < end; s++) {
		if (*s == '\\') {
			if (++s == end)
				return NULL;
		} else if (*s == '"') {
			return s + 1;
		} else if ((unsigned char)*s < 0x20) {
			return NULL;
		}
	}
	return NULL;
}

static int parse_value(struct jparse *p, struct jval *v, int depth);

static int parse_object(struct jparse *p, struct jval *v, int depth)
{
	v->kind = J_OBJECT;
	if (depth > DEPTH_MAX) {
		p->why = "objects nested too deep";
		return -1;
	}
	p->s++;
	skip_space(p);
	if (p->s < p->end && *p->s == '}') {
		p->s++;
		return 0;
	}
	for (;;) {
		const char *k, *kend;
		struct jval *m;
		skip_space(p);
		if (p->s == p->end || *p->s != '"' || !(kend = string_end(p->s, p->end))) {
			p->why = "a member name was expected";
			return -1;
		}
		k = p->s;
		p->s = kend;
		skip_space(p);
		if (p->s == p->end || *p->s++ != ':') {
			p->why = "':' was expected";
			return -1;
		}
		if (v->nkids == v->cap) {
			size_t cap = v->cap ? 2 * v->cap : 16;
			struct jval *kids = realloc(v->kids, cap * sizeof(*kids));
			if (!kids)
				goto nomem;
			v->kids = kids;
			v->cap = cap;
		}
		m = &v->kids[v->nkids++];
		memset(m, 0, sizeof(*m));
		if (!(m->key = dup_span(k, (size_t)(kend - k))))
			goto nomem;
		if (parse_value(p, m, depth + 1))
			return -1;
		skip_space(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == '}') {
			p->s++;
			return 0;
		}
		p->why = "',' or '}' was expected";
		return -1;
	}
nomem:
	p->why = "out of memory";
	return -1;
}

/* Any value but an object, as written: up to the ',', '}' or ']' that
 * ends it at its own level. */
static const char *other_end(const char *s, const char *end)
{
	int level = 0;

	for (; s < end; s++) {
		if (*s == '"') {
			if (!(s = string_end(s, end)))
				return NULL;
			s--;
		} else if (*s == '[' || *s == '{') {
			level++;
		} else if (*s == ']' || *s == '}' || *s == ',') {
			if (level == 0)
				return s;
			if (*s != ',')
				level--;
		}
	}
	return level == 0 ? s : NULL;
}

static int parse_value(struct jparse *p, struct jval *v, int depth)
{
	const char *s, *e;

	skip_space(p);
	if (p->s == p->end) {
		p->why = "a value was expected";
		return -1;
	}
	if (*p->s == '{')
		return parse_object(p, v, depth);
	s = p->s;
	if (!(e = other_end(s, p->end)) || e == s) {
		p->why = "a value was expected";
		return -1;
	}
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	p->s = e;
	if (*s >= '0' && *s <= '9') {
		int frac = 0;
		for (const char *c = s; c < e; c++) {
			if (*c == '.' || *c == 'e' || *c == 'E' || *c == '-' || *c == '+')
				frac = 1;
			else if (*c < '0' || *c > '9') {
				p->why = "a number was expected";
				return -1;
			}
		}
		if (!frac) {
			uint64_t n = 0;
			for (const char *c = s; c < e; c++) {
				if (n > (UINT64_MAX - (uint64_t)(*c - '0')) / 10) {
					p->why = "a count too large";
					return -1;
				}
				n = n * 10 + (uint64_t)(*c - '0');
			}
			v->kind = J_COUNT;
			v->count = n;
			return 0;
		}
		char *num = dup_span(s, (size_t)(e - s)), *stop;
		if (!num) {
			p->why = "out of memory";
			return -1;
		}
		errno = 0;
		v->time = strtod(num, &stop);
		frac = errno || *stop;
		free(num);
		if (frac) {
			p->why = "a number was expected";
			return -1;
		}
		v->kind = J_TIME;
		return 0;
	}
	if ((size_t)(e - s) == 4 && !memcmp(s, "true", 4)) {
		v->kind = J_BOOL;
		v->truth = 1;
		return 0;
	}
	if ((size_t)(e - s) == 5 && !memcmp(s, "false", 5)) {
		v->kind = J_BOOL;
		return 0;
	}
	v->kind = J_OTHER;
	if (!(v->text = dup_span(s, (size_t)(e - s)))) {
		p->why = "out of memory";
		return -1;
	}
	return 0;
}

/* Merge `from` into `into` (members of `from` are taken, not copied).
 * 0, or -1 with the reason in *why (naming the member in `where`). */
static int merge(struct jval *into, struct jval *from, const char **why, const char **where)
{
	for (size_t i = 0; i < from->nkids; i++) {
		struct jval *m = &from->kids[i], *t = NULL;
		for (size_t k = 0; k < into->nkids && !t; k++)
			if (!strcmp(into->kids[k].key, m->key))
				t = &into->kids[k];
		if (!t) {
			if (into->nkids == into->cap) {
				size_t cap = into->cap ? 2 * into->cap : 16;
				struct jval *kids = realloc(into->kids, cap * sizeof(*kids));
				if (!kids) {
					*why = "out of memory";
					return -1;
				}
				into->kids = kids;
				into->cap = cap;
			}
			into->kids[into->nkids++] = *m;
			memset(m, 0, sizeof(*m));
			continue;
		}
		*where = t->key;
		if (t->kind != m->kind) {
			*why = "is of a different kind in another record";
			return -1;
		}
		switch (t->kind) {
		case J_COUNT:
			if (t->count > UINT64_MAX - m->count) {
				*why = "adds up past the largest count";
				return -1;
			}
			t->count += m->count;
			break;
		case J_TIME:
			if (m->time > t->time)
				t->time = m->time;
			break;
		case J_BOOL:
			t->truth |= m->truth;
			break;
		case J_OBJECT:
			if (merge(t, m, why, where))
				return -1;
			break;
		case J_OTHER:
			if (strcmp(t->text, m->text)) {
				*why = "differs between the records (summaries of different commands or options?)";
				return -1;
			}
			break;
		}
	}
	return 0;
}

/* The place of diagnostic code `key` ("\"illegal-move\"") in the code
 * table; codes this build does not know go after, as they came. */
static int code_rank(const char *key)
{
	size_t n = strlen(key);
	const char *name;
	int i;

	for (i = 0; (name = xq_diagnostic_code_name(i)) != NULL; i++)
		if (n == strlen(name) + 2 && !memcmp(key + 1, name, n - 2))
			return i;
	return i;
}

static int by_code(const void *a, const void *b)
{
	int ra = code_rank(((const struct jval *)a)->key), rb = code_rank(((const struct jval *)b)->key);
	return (ra > rb) - (ra < rb);
}

static void write_value(FILE *out, struct jval *v)
{
	switch (v->kind) {
	case J_COUNT: fprintf(out, "%llu", (unsigned long long)v->count); break;
	case J_TIME: fprintf(out, "%.3f", v->time); break;
	case J_BOOL: fputs(v->truth ? "true" : "false", out); break;
	case J_OTHER: fputs(v->text, out); break;
	case J_OBJECT:
		putc('{', out);
		for (size_t i = 0; i < v->nkids; i++) {
			struct jval *m = &v->kids[i];
			if (m->kind == J_OBJECT && !strcmp(m->key, "\"codes\""))
				qsort(m->kids, m->nkids, sizeof(*m->kids), by_code);
			fprintf(out, "%s%s:", i ? "," : "", m->key);
			write_value(out, m);
		}
		putc('}', out);
		break;
	}
}

/* Does s[0..n) hold the `m` bytes of `w`? */
static int holds(const char *s, size_t n, const char *w, size_t m)
{
	for (size_t i = 0; i + m <= n; i++)
		if (s[i] == w[0] && !memcmp(s + i, w, m))
			return 1;
	return 0;
}

struct merger {
	struct jval all;
	uint64_t records;
	int status;
};

/* One line of input `name`: merged when it is a summary. */
static void take_line(struct merger *mg, const char *name, uint64_t lineno, const char *s, size_t n)
{
	static const char schema[] = "\"schema\":\"" REPORT_SUMMARY_SCHEMA "\"";
	struct jparse p = {s, s + n, NULL};
	struct jval rec;
	const char *why = NULL, *where = NULL;
	int is_summary = 0;

	/* Only records that name the schema are looked at closely. */
	if (!holds(s, n, schema, sizeof(schema) - 1))
		return;
	memset(&rec, 0, sizeof(rec));
	skip_space(&p);
	if (p.s == p.end || *p.s != '{') {
		jval_release(&rec);
		return;
	}
	if (parse_object(&p, &rec, 0) == 0) {
		skip_space(&p);
		if (p.s != p.end)
			p.why = "text after the record";
	}
	for (size_t i = 0; !p.why && i < rec.nkids; i++)
		if (!strcmp(rec.kids[i].key, "\"schema\"") && rec.kids[i].kind == J_OTHER &&
		    !strcmp(rec.kids[i].text, "\"" REPORT_SUMMARY_SCHEMA "\""))
			is_summary = 1;
	if (p.why) {
		cmd_error("%s:%llu: not a summary record: %s", name, (unsigned long long)lineno, p.why);
		mg->status = CMD_EXIT_INVALID;
	} else if (is_summary) {
		if (merge(&mg->all, &rec, &why, &where)) {
			cmd_error("%s:%llu: member %s %s", name, (unsigned long long)lineno,
				  where ? where : "", why);
			mg->status = CMD_EXIT_INVALID;
		}
		mg->records++;
	}
	jval_release(&rec);
}

/* The line being read: its bytes, not NUL-terminated. */
struct line {
	char *ptr;
	size_t len, cap;
};

static int line_add(struct line *l, char c)
{
	if (l->len == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 256;
		char *p = realloc(l->ptr, cap);
		if (!p)
			return -1;
		l->ptr = p;
		l->cap = cap;
	}
	l->ptr[l->len++] = c;
	return 0;
}

/* Every line of `name` (`-`: standard input).  0, or -1 after saying why. */
static int take_file(struct merger *mg, const char *name)
{
	int is_stdin = !strcmp(name, "-");
	FILE *f = is_stdin ? stdin : fopen(name, "rb");
	struct line line = {NULL, 0, 0};
	uint64_t lineno = 0;
	int c, too_long = 0, rc = 0;

	if (!f) {
		cmd_error("cannot open '%s': %s", name, strerror(errno));
		return -1;
	}
	if (is_stdin)
		name = "<stdin>";
	while ((c = getc(f)) != EOF || line.len || too_long) {
		if (c == EOF || c == '\n') {
			lineno++;
			if (!too_long)
				take_line(mg, name, lineno, line.ptr ? line.ptr : "", line.len);
			line.len = 0;
			too_long = 0;
			if (c == EOF)
				break;
			continue;
		}
		if (too_long)
			continue;
		if (line.len >= LINE_MAX_BYTES) {
			too_long = 1; /* not a summary: skipped to its end */
			line.len = 0;
			continue;
		}
		if (line_add(&line, (char)c)) {
			cmd_error("out of memory");
			rc = -1;
			break;
		}
	}
	if (!rc && ferror(f)) {
		cmd_error("cannot read '%s': %s", name, strerror(errno));
		rc = -1;
	}
	free(line.ptr);
	if (!is_stdin)
		fclose(f);
	return rc;
}

static const char usage[] = "usage: xqkit merge-summaries [options] [FILE...]";
static const char summary[] =
	"Merge the xqkit.summary/1 records of several runs (the shards of one job, --shard K/N)\n"
	"into the summary of one run: counts added, the longest time, objects member by member.\n"
	"Other lines are skipped, so whole NDJSON outputs can be given.  FILE '-' or none:\n"
	"standard input.";

enum { O_HELP = 'h' };

static const struct opt_spec options[] = {
	OPT_FLAG(O_HELP, 'h', "help", "show this help"),
	OPT_END,
};

int cmd_merge_summaries(int argc, char **argv)
{
	struct opt_parser p;
	struct merger mg;
	const char *value;
	int id, rc;

	if (opt_init(&p, argc, argv, "merge-summaries")) {
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	while ((rc = opt_next(&p, options, &id, &value)) > 0) {
		if (id == O_HELP) {
			opt_print_help(stdout, usage, summary, options);
			opt_release(&p);
			return CMD_EXIT_OK;
		}
	}
	if (rc < 0) {
		rc = cmd_usage_error("merge-summaries", "%s", p.err);
		opt_release(&p);
		return rc;
	}
	/* A directory is not a summary: a usage error before anything is
	 * read, as for every command (exit status 2, not 3). */
	for (int i = 0; i < p.noperands; i++) {
		struct stat st;
		if (strcmp(p.operands[i], "-") && stat(p.operands[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			rc = cmd_usage_error("merge-summaries", "'%s' is a directory: give the summary files",
					     p.operands[i]);
			opt_release(&p);
			return rc;
		}
	}
	memset(&mg, 0, sizeof(mg));
	mg.all.kind = J_OBJECT;
	for (int i = 0; i < (p.noperands ? p.noperands : 1); i++)
		if (take_file(&mg, p.noperands ? p.operands[i] : "-")) {
			jval_release(&mg.all);
			opt_release(&p);
			return CMD_EXIT_IO;
		}
	opt_release(&p);
	if (mg.records == 0 && mg.status == CMD_EXIT_OK) {
		cmd_error("no " REPORT_SUMMARY_SCHEMA " record in the input");
		mg.status = CMD_EXIT_INVALID;
	}
	if (mg.status == CMD_EXIT_OK) {
		write_value(stdout, &mg.all);
		putchar('\n');
		/* A whole record reaches a pipe at once, as report_flush_out()
		 * writes them. */
		if (report_stdout_is_pipe())
			fflush(stdout);
	}
	jval_release(&mg.all);
	return mg.status;
}
