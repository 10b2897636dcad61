/*
 * merge_summaries.c: `xqkit merge-summaries`, the xqkit.summary/1 records
 * of the N shards of one job (--shard K/N) checked and merged into the
 * record one run over all their inputs writes.
 *
 * Reading: the input is NDJSON, read with the library's one JSON reader
 * (<xq/json.h>): any spacing, escapes, numbers as JSON writes them.
 * Records whose "schema" is another (diagnostics, checks, games) are
 * skipped, so the whole NDJSON output of each shard can be given; a line
 * that is not a JSON record, or is longer than any xqkit writes, is a
 * warning, since a summary may be what it holds.
 *
 * Checking: every summary names its shard ("shard": "K/N") and its job
 * ("run", which xqkit derives from the command line: opt_job_id()), and
 * merging checks that shards 1 to N each appear once, all of one run.  A
 * summary's members are checked for what they are: counts are whole
 * numbers, times numbers, the members every summary has are there, the
 * diagnostics by code add up to the diagnostics by severity, and a part
 * never exceeds its whole (broken games, games found, written, ... are
 * games).  A summary that fails is refused with a warning; then, as when
 * a shard is missing or repeated, nothing is written and the exit status
 * is 1.
 *
 * Merging is one rule for every member, so that a member a command adds
 * later merges with no change here: counts are added, times (`seconds`,
 * and any member whose name ends in `_seconds`) give the largest, true
 * wins over false (`stopped`), objects merge member by member, and
 * everything else (the schema, the command, `to`, `engine`, the run) must
 * be the same in every record.  Members keep the order of the first
 * record that has them, but `codes`, whose members are the diagnostic
 * codes, are written in the order of the code table, as a run writes
 * them; the merged record's shard is 1/1, as one run's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "opt.h"
#include "report.h"
#include <xq/memory.h>
#include <xq/buf.h>
#include <xq/error.h>
#include <xq/json.h>
#include <xq/utf8.h>

/* The longest line read: a summary is a few hundred bytes, and the
 * longest NDJSON record xqkit reads is 12 MiB (a game). */
#define LINE_MAX_BYTES ((size_t)16 << 20)
/* Objects inside objects: a summary has two levels. */
#define DEPTH_MAX 8
/* As --shard takes. */
#define SHARD_MAX 1000000

enum jkind { J_COUNT, J_TIME, J_BOOL, J_OBJECT, J_OTHER };

struct jval {
	enum jkind kind;
	char *key;          /* the member's name as JSON, quotes included */
	uint64_t count;     /* J_COUNT */
	double time;        /* J_TIME */
	int truth;          /* J_BOOL */
	char *text;         /* J_OTHER: the value as JSON, without white space */
	struct jval *kids;  /* J_OBJECT: its members */
	size_t nkids, cap;
};

/* Where a record came from, for messages. */
struct where {
	const char *file;
	uint64_t line;
};

struct merger {
	struct jval all;
	xq_json *json;
	uint64_t records;   /* summaries merged */
	uint64_t refused;   /* summaries and lines skipped or refused */
	int no_shard_check; /* --no-shard-check */
	/* The shards met: N, and where each of 1..N was (file NULL: not yet). */
	uint64_t n;
	struct where *shard_at;
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

/* A new member at the end of object `obj`, or NULL (no memory). */
static struct jval *jval_add(struct jval *obj)
{
	if (XQ_ALLOC_GROW(obj->kids, obj->nkids + 1, obj->cap))
		return NULL;
	memset(&obj->kids[obj->nkids], 0, sizeof(obj->kids[0]));
	return &obj->kids[obj->nkids++];
}

/* The member of `obj` called `key` (as JSON, quotes included), or NULL. */
static struct jval *jval_find(const struct jval *obj, const char *key)
{
	for (size_t i = 0; i < obj->nkids; i++)
		if (!strcmp(obj->kids[i].key, key))
			return &obj->kids[i];
	return NULL;
}

/* `len` bytes of `s` as a JSON string (malloc'd), or NULL. */
static char *json_text(const char *s, size_t len)
{
	struct xq_buf b = XQ_BUF_INIT;

	xq_buf_add_json_string(&b, s, len);
	return xq_buf_error(&b) ? NULL : xq_buf_detach(&b, NULL);
}

/* Say why a record (or a line) is skipped or refused, and count it. */
static void refuse(struct merger *mg, const struct where *at, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void refuse(struct merger *mg, const struct where *at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cmd_warning("%s:%" PRIu64 ": %s", at->file, at->line, msg);
	mg->refused++;
}

/* ---- a record into values ------------------------------------------------------ */

/* Array token `t` of `text` as written, less the white space outside its
 * strings (an array has no merge rule of its own: it must be the same in
 * every record). */
static char *compact_array(const char *text, const xq_json *j, size_t t)
{
	struct xq_buf b = XQ_BUF_INIT;
	size_t depth = 0;
	int in_string = 0;

	/* The text is JSON (it was parsed): the array ends at its bracket. */
	for (size_t i = xq_json_offset(j, t);; i++) {
		char c = text[i];
		if (in_string) {
			xq_buf_addc(&b, c);
			if (c == '\\')
				xq_buf_addc(&b, text[++i]);
			else if (c == '"')
				in_string = 0;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		xq_buf_addc(&b, c);
		in_string = c == '"';
		if (c == '[' || c == '{')
			depth++;
		else if ((c == ']' || c == '}') && --depth == 0)
			break;
	}
	return xq_buf_error(&b) ? NULL : xq_buf_detach(&b, NULL);
}

/* Is member `key` ("\"seconds\"", quotes included) a time? */
static int is_time(const char *key)
{
	size_t n = strlen(key);

	return !strcmp(key, "\"seconds\"") || (n > 10 && !strcmp(key + n - 10, "_seconds\""));
}

/* What reading a record into values needs. */
struct taker {
	const char *text; /* the line */
	const xq_json *j;
	char why[256];    /* why it was refused */
};

static int take_value(struct taker *tk, size_t t, struct jval *v, int depth);

/* Object token `obj` into `v`.  0, or -1 with tk->why. */
static int take_object(struct taker *tk, size_t obj, struct jval *v, int depth)
{
	struct xq_buf name = XQ_BUF_INIT;
	int rc = 0;

	v->kind = J_OBJECT;
	if (depth > DEPTH_MAX) {
		snprintf(tk->why, sizeof(tk->why), "objects nested more than %d deep", DEPTH_MAX);
		return -1;
	}
	for (size_t k = obj + 1; !rc && k < xq_json_next(tk->j, obj); k = xq_json_next(tk->j, k + 1)) {
		struct jval *m;
		char *key;
		xq_buf_reset(&name);
		if (xq_json_string(tk->j, k, &name) || !(key = json_text(name.ptr, name.len))) {
			snprintf(tk->why, sizeof(tk->why), "out of memory");
			rc = -1;
		} else if (jval_find(v, key)) {
			snprintf(tk->why, sizeof(tk->why), "member %.60s appears twice", key);
			free(key);
			rc = -1;
		} else if (!(m = jval_add(v))) {
			snprintf(tk->why, sizeof(tk->why), "out of memory");
			free(key);
			rc = -1;
		} else {
			m->key = key;
			rc = take_value(tk, k + 1, m, depth + 1);
		}
	}
	xq_buf_release(&name);
	return rc;
}

/* A number token as member v->key holds it: a time, or a count. */
static int take_number(struct taker *tk, size_t t, struct jval *v)
{
	size_t len;
	const char *as = xq_json_text(tk->j, t, &len);

	if (is_time(v->key)) {
		v->kind = J_TIME;
		if (xq_json_number(tk->j, t, &v->time) == 0 && v->time >= 0)
			return 0;
		snprintf(tk->why, sizeof(tk->why), "%.60s must be a time in seconds, not %.*s", v->key,
			 (int)(len > 40 ? 40 : len), as);
		return -1;
	}
	v->kind = J_COUNT;
	if (xq_json_uint(tk->j, t, &v->count) == 0)
		return 0;
	snprintf(tk->why, sizeof(tk->why), "%.60s must be a count (a whole number), not %.*s", v->key,
		 (int)(len > 40 ? 40 : len), as);
	return -1;
}

static int take_value(struct taker *tk, size_t t, struct jval *v, int depth)
{
	struct xq_buf s = XQ_BUF_INIT;

	switch (xq_json_type(tk->j, t)) {
	case XQ_JSON_OBJECT:
		return take_object(tk, t, v, depth);
	case XQ_JSON_NUMBER:
		return take_number(tk, t, v);
	case XQ_JSON_TRUE:
	case XQ_JSON_FALSE:
		v->kind = J_BOOL;
		v->truth = xq_json_type(tk->j, t) == XQ_JSON_TRUE;
		return 0;
	case XQ_JSON_STRING:
		/* Compared as the text it decodes to, written back as ours. */
		v->kind = J_OTHER;
		if (!xq_json_string(tk->j, t, &s))
			v->text = json_text(s.ptr, s.len);
		xq_buf_release(&s);
		break;
	case XQ_JSON_ARRAY:
		v->kind = J_OTHER;
		v->text = compact_array(tk->text, tk->j, t);
		break;
	default: /* null */
		v->kind = J_OTHER;
		v->text = strdup("null");
		break;
	}
	if (v->text)
		return 0;
	snprintf(tk->why, sizeof(tk->why), "out of memory");
	return -1;
}

/* ---- what a summary must be ------------------------------------------------- */

/* The members every summary has, and what kind each is. */
static const struct {
	const char *key;
	enum jkind kind;
} required[] = {
	{"\"schema\"", J_OTHER},       {"\"command\"", J_OTHER},      {"\"shard\"", J_OTHER},
	{"\"run\"", J_OTHER},          {"\"files\"", J_COUNT},        {"\"skipped_files\"", J_COUNT},
	{"\"failed_files\"", J_COUNT}, {"\"games\"", J_COUNT},        {"\"errors\"", J_COUNT},
	{"\"warnings\"", J_COUNT},     {"\"notes\"", J_COUNT},        {"\"codes\"", J_OBJECT},
	{"\"seconds\"", J_TIME},
};

/* Counts that are a part of another, where a summary has both. */
static const struct {
	const char *part, *whole;
} parts[] = {
	{"\"broken_games\"", "\"games\""}, {"\"no_result\"", "\"games\""},
	{"\"left_out\"", "\"games\""},     {"\"found\"", "\"games\""},
	{"\"compared\"", "\"games\""},     {"\"duplicates\"", "\"games\""},
	{"\"written\"", "\"games\""},      {"\"annotated\"", "\"games\""},
};

static const char *const kind_names[] = {"a count", "a time", "true or false", "an object",
					 "a string"};

/* The counts a summary says are consistent.  0, or -1 with `why`. */
static int check_counts(const struct jval *rec, char *why, size_t cap)
{
	const struct jval *codes = jval_find(rec, "\"codes\"");
	uint64_t by_code = 0, by_sev = 0;

	for (size_t i = 0; i < codes->nkids; i++) {
		if (codes->kids[i].kind != J_COUNT) {
			snprintf(why, cap, "codes: %.60s must be a count, not %s", codes->kids[i].key,
				 kind_names[codes->kids[i].kind]);
			return -1;
		}
		by_code += codes->kids[i].count;
	}
	by_sev = jval_find(rec, "\"errors\"")->count + jval_find(rec, "\"warnings\"")->count +
		 jval_find(rec, "\"notes\"")->count;
	if (by_code != by_sev) {
		snprintf(why, cap,
			 "its codes count %" PRIu64 " diagnostics, its errors, warnings and notes %" PRIu64,
			 by_code, by_sev);
		return -1;
	}
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct jval *p = jval_find(rec, parts[i].part), *w = jval_find(rec, parts[i].whole);
		if (p && w && p->kind == J_COUNT && w->kind == J_COUNT && p->count > w->count) {
			snprintf(why, cap, "%s %" PRIu64 " is more than %s %" PRIu64, parts[i].part,
				 p->count, parts[i].whole, w->count);
			return -1;
		}
	}
	return 0;
}

/* "K/N" with 1 <= K <= N <= SHARD_MAX (the text of a J_OTHER, quoted). */
static int parse_shard(const char *text, uint64_t *k, uint64_t *n)
{
	char *end;
	unsigned long long a, b;

	if (text[0] != '"' || !xq_is_digit((unsigned char)text[1]))
		return -1;
	errno = 0;
	a = strtoull(text + 1, &end, 10);
	if (*end != '/' || !xq_is_digit((unsigned char)end[1]))
		return -1;
	b = strtoull(end + 1, &end, 10);
	if (errno || strcmp(end, "\"") || a < 1 || a > b || b > SHARD_MAX)
		return -1;
	*k = a;
	*n = b;
	return 0;
}

/* A summary's members are what a summary holds.  0, or -1 with `why`. */
static int check_summary(const struct jval *rec, char *why, size_t cap)
{
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		const struct jval *m = jval_find(rec, required[i].key);
		if (!m) {
			snprintf(why, cap, "no %s member: not a whole summary", required[i].key);
			return -1;
		}
		if (m->kind != required[i].kind || (m->kind == J_OTHER && m->text[0] != '"')) {
			snprintf(why, cap, "%s must be %s", required[i].key, kind_names[required[i].kind]);
			return -1;
		}
	}
	return check_counts(rec, why, cap);
}

/* ---- merging ---------------------------------------------------------------- */

/*
 * Merge `from` into `into` (members of `from` are taken, not copied); with
 * `dry` only say whether they would merge, changing nothing.  0, or -1
 * with the reason in *why (naming the member in *where).
 */
static int merge(struct jval *into, struct jval *from, int dry, const char **why,
		 const char **where)
{
	for (size_t i = 0; i < from->nkids; i++) {
		struct jval *m = &from->kids[i], *t = jval_find(into, m->key);
		if (!t) {
			if (dry)
				continue;
			if (!(t = jval_add(into))) {
				*why = "out of memory";
				return -1;
			}
			*t = *m;
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
			if (!dry)
				t->count += m->count;
			break;
		case J_TIME:
			if (!dry && m->time > t->time)
				t->time = m->time;
			break;
		case J_BOOL:
			if (!dry)
				t->truth |= m->truth;
			break;
		case J_OBJECT:
			if (merge(t, m, dry, why, where))
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

/* Shard K of N, from `at`: 0 when it is new, else -1 after saying why. */
static int take_shard(struct merger *mg, const struct where *at, uint64_t k, uint64_t n)
{
	struct where *was;

	if (!mg->shard_at) {
		if (!(mg->shard_at = calloc((size_t)n + 1, sizeof(*mg->shard_at)))) {
			refuse(mg, at, "out of memory");
			return -1;
		}
		mg->n = n;
	}
	if (n != mg->n) {
		refuse(mg, at, "shard %" PRIu64 "/%" PRIu64 " is not a shard of %" PRIu64
			       " like the summaries before it: a summary of another job",
		       k, n, mg->n);
		return -1;
	}
	was = &mg->shard_at[k];
	if (was->file) {
		refuse(mg, at, "shard %" PRIu64 "/%" PRIu64 " again (it was at %s:%" PRIu64 ")", k, n,
		       was->file, was->line);
		return -1;
	}
	*was = *at;
	return 0;
}

/* One summary record, read into `rec`: checked, then merged. */
static void take_summary(struct merger *mg, const struct where *at, struct jval *rec)
{
	const char *why = NULL, *where = NULL;
	char reason[256];
	struct jval *shard;
	uint64_t k = 1, n = 1;

	if (check_summary(rec, reason, sizeof(reason))) {
		refuse(mg, at, "summary refused: %s", reason);
		return;
	}
	shard = jval_find(rec, "\"shard\"");
	if (parse_shard(shard->text, &k, &n)) {
		refuse(mg, at, "summary refused: \"shard\" must be \"K/N\" with 1 <= K <= N <= %d, not %.40s",
		       SHARD_MAX, shard->text);
		return;
	}
	/* The merged record is one run's: shard 1/1. */
	free(shard->text);
	if (!(shard->text = strdup("\"1/1\""))) {
		refuse(mg, at, "out of memory");
		return;
	}
	if (merge(&mg->all, rec, 1, &why, &where)) {
		refuse(mg, at, "summary refused: member %s %s", where ? where : "", why);
		return;
	}
	if (!mg->no_shard_check && take_shard(mg, at, k, n))
		return;
	if (merge(&mg->all, rec, 0, &why, &where)) {
		refuse(mg, at, "summary refused: member %s %s", where ? where : "", why);
		return;
	}
	mg->records++;
}

/* One line: skipped unless it is a summary (the reading's rules, at the
 * top of the file). */
static void take_line(struct merger *mg, const struct where *at, const char *s, size_t n)
{
	struct taker tk = {s, mg->json, ""};
	struct xq_buf schema = XQ_BUF_INIT;
	struct jval rec;
	size_t sm;
	int rc;

	for (sm = 0; sm < n && (s[sm] == ' ' || s[sm] == '\t' || s[sm] == '\r'); sm++)
		;
	if (sm == n)
		return; /* a blank line */
	if ((rc = xq_json_parse(mg->json, s, n))) {
		refuse(mg, at, "not a JSON record (byte %zu of the line: %s); skipped",
		       xq_json_error_offset(mg->json) + 1, xq_json_error_message(mg->json));
		return;
	}
	if (xq_json_type(mg->json, 0) != XQ_JSON_OBJECT) {
		refuse(mg, at, "a record must be a JSON object, not %s; skipped",
		       xq_json_type_name(xq_json_type(mg->json, 0)));
		return;
	}
	sm = xq_json_member(mg->json, 0, "schema");
	if (!sm || xq_json_string(mg->json, sm, &schema)) {
		refuse(mg, at, "a record with no \"schema\" string: not one of xqkit's; skipped");
		xq_buf_release(&schema);
		return;
	}
	rc = strcmp(schema.ptr, REPORT_SUMMARY_SCHEMA);
	xq_buf_release(&schema);
	if (rc)
		return; /* another record of xqkit's */
	memset(&rec, 0, sizeof(rec));
	if (take_object(&tk, 0, &rec, 0))
		refuse(mg, at, "summary refused: %s", tk.why);
	else
		take_summary(mg, at, &rec);
	jval_release(&rec);
}

/* ---- writing ---------------------------------------------------------------- */

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

static void write_value(struct xq_buf *out, struct jval *v)
{
	switch (v->kind) {
	case J_COUNT: xq_buf_addf(out, "%" PRIu64, v->count); break;
	case J_TIME: xq_buf_addf(out, "%.3f", v->time); break;
	case J_BOOL: xq_buf_adds(out, v->truth ? "true" : "false"); break;
	case J_OTHER: xq_buf_adds(out, v->text); break;
	case J_OBJECT:
		xq_buf_addc(out, '{');
		for (size_t i = 0; i < v->nkids; i++) {
			struct jval *m = &v->kids[i];
			if (m->kind == J_OBJECT && m->nkids > 1 && !strcmp(m->key, "\"codes\""))
				qsort(m->kids, m->nkids, sizeof(*m->kids), by_code);
			xq_buf_addf(out, "%s%s:", i ? "," : "", m->key);
			write_value(out, m);
		}
		xq_buf_addc(out, '}');
		break;
	}
}

/* Shards 1 to N each met once?  1, or 0 after saying which are missing. */
static int shards_whole(const struct merger *mg)
{
	struct xq_buf missing = XQ_BUF_INIT;
	uint64_t count = 0;

	for (uint64_t k = 1; k <= mg->n; k++) {
		if (mg->shard_at[k].file)
			continue;
		if (++count <= 10)
			xq_buf_addf(&missing, "%s%" PRIu64 "/%" PRIu64, count > 1 ? ", " : "", k, mg->n);
	}
	if (count)
		cmd_error("%" PRIu64 " shard%s of %" PRIu64 " missing (%s%s): nothing merged", count,
			  count == 1 ? "" : "s", mg->n, missing.ptr, count > 10 ? ", ..." : "");
	xq_buf_release(&missing);
	return count == 0;
}

/* ---- reading ---------------------------------------------------------------- */

/* Every line of `name` (`-`: standard input).  0, or -1 after saying why
 * it could not be read. */
static int take_file(struct merger *mg, const char *name)
{
	int is_stdin = !strcmp(name, "-");
	FILE *f = is_stdin ? stdin : fopen(name, "rb");
	struct xq_buf line = XQ_BUF_INIT;
	struct where at = {is_stdin ? "<stdin>" : name, 0};
	char chunk[65536];
	size_t got;
	int too_long = 0, rc = 0;

	if (!f) {
		cmd_error("cannot open '%s': %s", name, strerror(errno));
		return -1;
	}
	/* Every round reads a chunk; the lines in it are taken. */
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		for (size_t i = 0; i < got;) {
			const char *nl = memchr(chunk + i, '\n', got - i);
			size_t n = nl ? (size_t)(nl - chunk) - i : got - i;
			if (!too_long && line.len + n > LINE_MAX_BYTES) {
				too_long = 1;
				xq_buf_reset(&line);
			}
			if (!too_long)
				xq_buf_add(&line, chunk + i, n);
			i += n + (nl != NULL);
			if (!nl)
				break;
			at.line++;
			if (too_long)
				refuse(mg, &at, "a line of more than %zu MiB: not read (a summary is a few hundred bytes)",
				       LINE_MAX_BYTES >> 20);
			else if (xq_buf_error(&line))
				refuse(mg, &at, "out of memory for the line: not read");
			else
				take_line(mg, &at, line.ptr, line.len);
			too_long = 0;
			xq_buf_reset(&line);
		}
	}
	if (ferror(f)) {
		cmd_error("cannot read '%s': %s", name, strerror(errno));
		rc = -1;
	} else if (line.len || too_long) { /* the last line, with no line end */
		at.line++;
		if (too_long)
			refuse(mg, &at, "a line of more than %zu MiB: not read", LINE_MAX_BYTES >> 20);
		else
			take_line(mg, &at, line.ptr, line.len);
	}
	xq_buf_release(&line);
	if (!is_stdin)
		fclose(f);
	return rc;
}

static const char usage[] = "usage: xqkit merge-summaries [options] [FILE...]";
static const char summary[] =
	"Merge the xqkit.summary/1 records of the shards of one job (--shard K/N) into the\n"
	"summary of one run: counts added, the longest time, objects member by member.\n"
	"Each summary is checked, and shards 1 to N must each be there once, of one run.\n"
	"Other records are skipped, so whole NDJSON outputs can be given.  FILE '-' or\n"
	"none: standard input.";

enum { O_HELP = 'h', O_NO_SHARD_CHECK = 0x100 };

static const struct opt_spec options[] = {
	OPT_FLAG(O_NO_SHARD_CHECK, 0, "no-shard-check",
		 "the summaries are of separate runs, not shards (parallel --pipepart)"),
	OPT_FLAG(O_HELP, 'h', "help", "show this help"),
	OPT_END,
};

/* The merged record on standard output. */
static int write_merged(struct merger *mg)
{
	struct xq_buf out = XQ_BUF_INIT;

	write_value(&out, &mg->all);
	xq_buf_addc(&out, '\n');
	if (xq_buf_error(&out)) {
		cmd_error("out of memory");
		xq_buf_release(&out);
		return CMD_EXIT_IO;
	}
	fwrite(out.ptr, 1, out.len, stdout);
	xq_buf_release(&out);
	/* A whole record reaches a pipe at once, as report_flush_out()
	 * writes them. */
	if (report_stdout_is_pipe())
		fflush(stdout);
	return CMD_EXIT_OK;
}

/* After every input: write the merge, or say why not.  The exit status. */
static int finish(struct merger *mg)
{
	if (mg->refused) {
		cmd_error("%" PRIu64 " record%s skipped or refused (above): nothing merged", mg->refused,
			  mg->refused == 1 ? "" : "s");
		return CMD_EXIT_INVALID;
	}
	if (mg->records == 0) {
		cmd_error("no " REPORT_SUMMARY_SCHEMA " record in the input");
		return CMD_EXIT_INVALID;
	}
	if (!mg->no_shard_check && !shards_whole(mg))
		return CMD_EXIT_INVALID;
	return write_merged(mg);
}

/* The options: 0 to run, 1 when --help was shown, -1 on a usage error. */
static int parse_args(void *ctx, struct opt_parser *p)
{
	struct merger *mg = ctx;
	const char *value;
	int id, rc;

	while ((rc = opt_next(p, options, &id, &value)) > 0) {
		if (id == O_HELP) {
			opt_print_help(stdout, usage, summary, options);
			return 1;
		}
		if (id == O_NO_SHARD_CHECK)
			mg->no_shard_check = 1;
	}
	return rc < 0 ? -1 : 0;
}

int cmd_merge_summaries(int argc, char **argv)
{
	struct opt_parser p;
	struct merger mg;
	int rc;

	memset(&mg, 0, sizeof(mg));
	if ((rc = opt_command(&p, argc, argv, "merge-summaries", parse_args, &mg)) != OPT_RUN)
		return rc;
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
	mg.all.kind = J_OBJECT;
	if (!(mg.json = xq_json_new())) {
		cmd_error("out of memory");
		opt_release(&p);
		return CMD_EXIT_IO;
	}
	rc = CMD_EXIT_OK;
	for (int i = 0; i < (p.noperands ? p.noperands : 1); i++)
		if (take_file(&mg, p.noperands ? p.operands[i] : "-")) {
			rc = CMD_EXIT_IO;
			break;
		}
	if (rc == CMD_EXIT_OK)
		rc = finish(&mg);
	xq_json_free(mg.json);
	jval_release(&mg.all);
	free(mg.shard_at);
	opt_release(&p);
	return rc;
}
