/*
 * convert_fix.c: `convert --fix` (convert_fix.h).  What may be changed is what
 * <xq/fix.h> proves, and the map the user gives; each change is one diagnostic with
 * the old and the new value, so nothing changes silently.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "convert_fix.h"
#include "diagplace.h"
#include <xq/batch.h>
#include "report.h"
#include <xq/fix.h>
#include <xq/memory.h>
#include <xq/record.h>
#include <xq/rules.h>
#include <xq/utf8.h>

/* A job counts its changes by kind in its counts[] (fix_count()). */
_Static_assert(FIX_KINDS <= sizeof(((xq_batch_job *)0)->counts) / sizeof(uint64_t),
	       "a pool job counts every kind of fix");

/* A map file is a list of names: far below this. */
#define NAMES_MAX_BYTES (64u << 20)

enum { F_FIX = OPT_ID_SHARED + 0x200, F_NAMES, F_RULES, F_DRY_RUN };

const struct opt_spec fix_options[] = {
	OPT_FLAG(F_FIX, 0, "fix", "repair what the game proves: result, PlyCount, Date; results in words made standard"),
	OPT_VALUE(F_NAMES, 0, "names", "FILE", "with --fix: player names mapped by FILE (old<TAB>new lines)"),
	OPT_VALUE(F_RULES, 0, "rules", "SET", "with --fix: results repetitions prove too: asian, chinese (default none)"),
	OPT_FLAG(F_DRY_RUN, 0, "dry-run", "with --fix: say what would change, write nothing"),
	OPT_END,
};

void fix_init(struct fix *f)
{
	memset(f, 0, sizeof(*f));
}

void fix_release(struct fix *f)
{
	free(f->names);
	free(f->names_text);
	f->names = NULL;
	f->names_text = NULL;
}

int fix_take(struct fix *f, struct opt_parser *p, int id, const char *value)
{
	switch (id) {
	case F_FIX: f->on = 1; return 1;
	case F_DRY_RUN: f->dry_run = 1; return 1;
	case F_NAMES: f->names_path = value; return 1;
	case F_RULES: return opt_rules(p, value, 1, &f->rules_on, &f->ruleset) ? -1 : 1;
	default: return 0;
	}
}

/* ---- the --names map ------------------------------------------------------ */

static int by_from(const void *a, const void *b)
{
	const struct fix_name *x = a, *y = b;
	int c = strcmp(x->from, y->from);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* For bsearch: the names only (the map has each old name once). */
static int by_from_only(const void *a, const void *b)
{
	return strcmp(((const struct fix_name *)a)->from, ((const struct fix_name *)b)->from);
}

static const struct fix_name *lookup(const struct fix *f, const char *name)
{
	struct fix_name key = {name, NULL, 0};

	return f->nnames ? bsearch(&key, f->names, f->nnames, sizeof(key), by_from_only) : NULL;
}

static int bad_map(struct opt_parser *p, const char *path, uint64_t line, const char *what)
{
	return opt_error(p, "--names: %s:%llu: %s", path, (unsigned long long)line,
			 what);
}

static int read_file(struct fix *f, struct opt_parser *p, size_t *len)
{
	FILE *fp = fopen(f->names_path, "rb");
	struct xq_buf b = XQ_BUF_INIT;
	char chunk[65536];
	size_t n;

	/* A file that cannot be read is an I/O error, as an input is (3);
	 * one that reads but is not a map is a usage error (2). */
	if (!fp) {
		opt_error(p, "--names: cannot open '%s': %s", f->names_path,
			  strerror(errno));
		p->status = CMD_EXIT_IO;
		return -1;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0 && b.len <= NAMES_MAX_BYTES)
		xq_buf_add(&b, chunk, n);
	if (ferror(fp) || xq_buf_error(&b) || b.len > NAMES_MAX_BYTES) {
		opt_error(p, "--names: cannot read '%s': %s", f->names_path,
			  ferror(fp) ? strerror(errno) : b.len > NAMES_MAX_BYTES ? "over 64 MB" :
			  "out of memory");
		if (b.len <= NAMES_MAX_BYTES)
			p->status = CMD_EXIT_IO;
		fclose(fp);
		xq_buf_release(&b);
		return -1;
	}
	fclose(fp);
	xq_buf_addc(&b, '\0');
	if (xq_buf_error(&b)) {
		xq_buf_release(&b);
		return opt_out_of_memory(p, "--names");
	}
	*len = b.len - 1;
	f->names_text = b.ptr; /* owned now */
	return 0;
}

/*
 * The map: UTF-8 lines `old<TAB>new`; empty lines and lines that start
 * with '#' are skipped; a CR before the LF is dropped.  Each old name is
 * mapped once, and never to a name that is itself mapped (a chain would
 * leave the order of the changes to chance).
 */
static int load_names(struct fix *f, struct opt_parser *p)
{
	const char *path = f->names_path;
	size_t len, alloc = 0;
	char *s, *end;
	uint64_t line = 0;

	if (read_file(f, p, &len))
		return -1;
	s = f->names_text;
	end = s + len;
	while (s < end) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *eol = nl ? nl : end, *tab;
		line++;
		if (eol > s && eol[-1] == '\r')
			eol--;
		*eol = '\0';
		if (xq_utf8_check(s, (size_t)(eol - s)) != (size_t)(eol - s))
			return bad_map(p, path, line, "not UTF-8 text");
		if (*s && *s != '#') {
			if (!(tab = strchr(s, '\t')))
				return bad_map(p, path, line,
					       "no tab: a line is the old name, a tab, the new name");
			if (strchr(tab + 1, '\t'))
				return bad_map(p, path, line, "more than one tab");
			*tab = '\0';
			if (!*s || !tab[1])
				return bad_map(p, path, line, !*s ? "no old name before the tab"
								 : "no new name after the tab");
			if (XQ_ALLOC_GROW(f->names, f->nnames + 1, alloc))
				return opt_out_of_memory(p, "--names");
			f->names[f->nnames++] = (struct fix_name){s, tab + 1, line};
		}
		s = nl ? nl + 1 : end;
	}
	if (f->nnames)
		qsort(f->names, f->nnames, sizeof(*f->names), by_from);
	for (size_t i = 1; i < f->nnames; i++)
		if (!strcmp(f->names[i].from, f->names[i - 1].from)) {
			char what[200];
			snprintf(what, sizeof(what), "'%.60s' is mapped again (first at line %llu)",
				 f->names[i].from, (unsigned long long)f->names[i - 1].line);
			return bad_map(p, path, f->names[i].line, what);
		}
	for (size_t i = 0; i < f->nnames; i++) {
		struct fix_name key = {f->names[i].to, NULL, 0};
		const struct fix_name *m =
			bsearch(&key, f->names, f->nnames, sizeof(key), by_from_only);
		if (m && strcmp(m->to, m->from)) {
			char what[200];
			snprintf(what, sizeof(what),
				 "'%.60s' is a new name here and an old one at line %llu: map each name to its final form",
				 f->names[i].to, (unsigned long long)m->line);
			return bad_map(p, path, f->names[i].line, what);
		}
	}
	return 0;
}

int fix_check(struct fix *f, struct opt_parser *p)
{
	const char *need = f->dry_run ? "--dry-run" : f->names_path ? "--names" :
				       f->rules_on ? "--rules" : NULL;

	if (need && !f->on)
		return opt_error(p, "%s is an option of --fix: give --fix too", need);
	return f->names_path ? load_names(f, p) : 0;
}

/* ---- one game ------------------------------------------------------------- */

static const char *result_name(const xq_record *r)
{
	if (xq_record_result_text(r))
		return xq_record_result_text(r);
	return xq_record_has_result(r) ? xq_record_result(r) : "none";
}

static void out_of_memory(xq_batch_job *j)
{
	diag_job_tag(j, NULL, XQ_SEVERITY_ERROR, "resource", "--fix: out of memory");
}

/*
 * Set tag `field` to `value` (unless dry run) and say so at tag `at` (ply
 * `ply`), with `severity` and `code`, in the message `fmt`.  0, or -1
 * (reported).
 */
static int change(const struct fix *f, xq_batch_job *j, const char *field, const char *value,
		  const char *at, uint32_t ply, int severity, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;
static int change(const struct fix *f, xq_batch_job *j, const char *field, const char *value,
		  const char *at, uint32_t ply, int severity, const char *code, const char *fmt, ...)
{
	const char *tag = xq_record_tag(j->record, field);
	char *old = tag ? strdup(tag) : NULL; /* setting the tag may free it */
	va_list ap;
	int rc;

	if ((tag && !old) || (!f->dry_run && xq_record_set_tag(j->record, field, value))) {
		free(old);
		out_of_memory(j);
		return -1;
	}
	va_start(ap, fmt);
	rc = diag_job_vfix(j, at, ply, severity, code, field, old, value, fmt, ap);
	va_end(ap);
	free(old);
	if (rc) {
		out_of_memory(j);
		return -1;
	}
	/* The Time tag comes with a Date fix: it is not one of its own. */
	if (strcmp(field, "Time"))
		j->counts[!strcmp(field, "Result")     ? FIX_RESULT :
			  !strcmp(field, "PlyCount") ? FIX_PLYCOUNT :
			  !strcmp(field, "Date")     ? FIX_DATE :
						       FIX_NAME]++;
	return 0;
}

static void fix_result(const struct fix *f, xq_batch_job *j, const xq_proof *p)
{
	xq_record *r = j->record;
	const char *tag = xq_record_tag(r, "Result"), *said = xq_result_read(tag, r);
	const char *had = xq_record_result(r);
	int red_wins = !strcmp(p->result, "1-0");
	int recorded = strcmp(had, "*") != 0;
	char how[128];

	/* A tag that agrees, in other words too (红胜), is made standard by
	 * fix_result_word(), if at all. */
	if (!strcmp(had, p->result) && (!said || !strcmp(said, p->result)))
		return;
	if (p->why == XQ_PROOF_PERPETUAL)
		snprintf(how, sizeof(how), "%s (plies %lu-%lu, %s rules: %s loses)", p->conduct,
			 (unsigned long)p->first + 1, (unsigned long)p->ply,
			 xq_ruleset_name(p->ruleset),
			 red_wins ? "black" : "red");
	else
		snprintf(how, sizeof(how), "%s (%s wins)",
			 p->why == XQ_PROOF_CHECKMATE ? "checkmate" : "stalemate", red_wins ? "red" : "black");
	if (!f->on) {
		/* Only what contradicts the record, as validate says it. */
		if (p->why == XQ_PROOF_PERPETUAL || !recorded || !strcmp(had, p->result))
			return;
		diag_job_fix(j, "Result", p->ply, XQ_SEVERITY_ERROR, "bad-result", NULL, NULL, NULL,
			     "the game ends in %s but the result is %s: written as recorded (--fix corrects it)",
			     how, result_name(r));
		return;
	}
	/* A perpetual decides only a game that claims a result against it;
	 * one with no result may have gone on. */
	if (p->why == XQ_PROOF_PERPETUAL && !recorded)
		return;
	if (change(f, j, "Result", p->result, "Result", p->ply, XQ_SEVERITY_WARNING, "bad-result",
		   "%s the result %s to %s: the game ends in %s", f->dry_run ? "would change" : "changed",
		   tag ? tag : result_name(r), p->result, how) == 0 &&
	    !f->dry_run && xq_record_set_result(r, p->result))
		out_of_memory(j); /* a result of the proof's is one set_result reads */
}

/*
 * A result in words made the standard result it says: the Result tag
 * (红胜 becomes 1-0), and the record's own (a word that ends PGN move text,
 * a DhtmlXQ result element), which is then written in each format's
 * standard way; with no Result tag one is added.  A word that says no
 * known result is left as it is.
 */
static void fix_result_word(const struct fix *f, xq_batch_job *j)
{
	xq_record *r = j->record;
	const char *tag = xq_record_tag(r, "Result"), *text = xq_record_result_text(r);
	const char *had = xq_record_result(r), *std = xq_result_read(tag, r);
	int same = tag && text && !strcmp(tag, text); /* the tag's word is the record's */

	if (tag && std && !xq_result_canonical(tag))
		change(f, j, "Result", std, "Result", 0, XQ_SEVERITY_NOTE, "bad-tag",
		       "%s the Result tag '%.40s' to '%s': the standard result it says",
		       f->dry_run ? "would change" : "changed", tag, std);
	if (!text || !(std = xq_result_read(text, r)) || strcmp(std, had))
		return;
	if (!tag)
		change(f, j, "Result", std, NULL, 0, XQ_SEVERITY_NOTE, "bad-tag",
		       "%s a Result tag '%s': the result '%.40s' says it",
		       f->dry_run ? "would add" : "added", std, text);
	else if (!same)
		diag_job_tag(j, NULL, XQ_SEVERITY_NOTE, "bad-tag", "%s the result '%.40s' as %s",
			     f->dry_run ? "would write" : "writes", text, std);
	if (!f->dry_run && xq_record_set_result(r, std))
		out_of_memory(j);
}

static void fix_plycount(const struct fix *f, xq_batch_job *j, uint32_t plies)
{
	const char *tag = xq_record_tag(j->record, "PlyCount");
	char want[16];

	snprintf(want, sizeof(want), "%lu", (unsigned long)plies);
	if (!tag || !strcmp(tag, want))
		return;
	change(f, j, "PlyCount", want, "PlyCount", 0, XQ_SEVERITY_NOTE, "bad-tag",
	       "%s the PlyCount tag '%.20s' to '%s': the main line has %s %s",
	       f->dry_run ? "would change" : "changed", tag, want, want, plies == 1 ? "ply" : "plies");
}

static void fix_date(const struct fix *f, xq_batch_job *j)
{
	const char *tag = xq_record_tag(j->record, "Date");
	xq_date date;
	int k;

	if (!tag)
		return;
	k = xq_date_normalize(&date, tag, strlen(tag));
	if (k == XQ_DATE_CANONICAL || (k == XQ_DATE_UNKNOWN && !strcmp(date.why, "no date")))
		return;
	if (k != XQ_DATE_FIXED) {
		diag_job_tag(j, "Date", XQ_SEVERITY_NOTE, "bad-date",
			     "the Date tag '%.60s' is left as it is: %s", tag, date.why);
		return;
	}
	if (change(f, j, "Date", date.date, "Date", 0, XQ_SEVERITY_NOTE, "bad-date",
		   "%s the Date tag '%.60s' to '%s'", f->dry_run ? "would change" : "changed", tag,
		   date.date) ||
	    !date.time[0] || xq_record_tag(j->record, "Time"))
		return;
	change(f, j, "Time", date.time, "Date", 0, XQ_SEVERITY_NOTE, "bad-date",
	       "%s a Time tag '%s': the time the Date tag held", f->dry_run ? "would add" : "added",
	       date.time);
}

static void fix_names(const struct fix *f, xq_batch_job *j)
{
	static const char *const sides[2] = {"Red", "Black"};

	for (int i = 0; i < 2; i++) {
		const char *v = xq_record_tag(j->record, sides[i]);
		const struct fix_name *m = v ? lookup(f, v) : NULL;
		if (!m || !strcmp(m->to, v))
			continue;
		change(f, j, sides[i], m->to, sides[i], 0, XQ_SEVERITY_NOTE, "bad-tag",
		       "%s the %s tag '%.60s' to '%.60s' (--names, line %llu)",
		       f->dry_run ? "would change" : "changed", sides[i], v, m->to,
		       (unsigned long long)m->line);
	}
}

void fix_game(const struct fix *f, xq_batch_job *j)
{
	xq_record *r = j->record;
	int broken = xq_record_is_broken(r);

	if (!broken) {
		xq_proof p;
		if (xq_record_prove_result(r, f->on && f->rules_on ? f->ruleset : -1, &p)) {
			out_of_memory(j);
			return;
		}
		if (p.why != XQ_PROOF_NONE)
			fix_result(f, j, &p);
		if (f->on)
			fix_result_word(f, j);
		if (f->on)
			fix_plycount(f, j, p.ply);
	}
	if (!f->on)
		return;
	if (broken && (xq_record_tag(r, "Result") || xq_record_tag(r, "PlyCount")))
		diag_job_tag(j, NULL, XQ_SEVERITY_NOTE, "none",
			     "--fix leaves the result and PlyCount as they are: the moves stop at an error");
	fix_date(f, j);
	if (f->nnames)
		fix_names(f, j);
}

void fix_count(struct fix *f, const xq_batch_job *j)
{
	int any = 0;

	for (int k = 0; k < FIX_KINDS; k++) {
		f->n[k] += j->counts[k];
		any |= j->counts[k] != 0;
	}
	f->games += any;
}

void fix_summary_text(const struct fix *f, struct xq_buf *b)
{
	static const char *const what[FIX_KINDS][2] = {
		{"result", "results"}, {"PlyCount", "PlyCounts"}, {"date", "dates"}, {"name", "names"}};
	int any = 0;

	if (!f->on)
		return;
	xq_buf_adds(b, f->dry_run ? "; would fix " : "; fixed ");
	for (int k = 0; k < FIX_KINDS; k++) {
		if (!f->n[k])
			continue;
		xq_buf_adds(b, any ? ", " : "");
		report_plural(b, f->n[k], what[k][0], what[k][1]);
		any = 1;
	}
	if (!any)
		xq_buf_adds(b, "nothing");
	else
		xq_buf_addf(b, " in %llu game%s", (unsigned long long)f->games, f->games == 1 ? "" : "s");
}

void fix_summary_json(const struct fix *f, struct xq_buf *b)
{
	if (!f->on)
		return;
	xq_buf_addf(b, ",\"fixed\":{\"dry_run\":%s,\"games\":%llu,\"result\":%llu,\"plycount\":%llu,\"date\":%llu,\"name\":%llu}",
		    f->dry_run ? "true" : "false", (unsigned long long)f->games,
		    (unsigned long long)f->n[FIX_RESULT], (unsigned long long)f->n[FIX_PLYCOUNT],
		    (unsigned long long)f->n[FIX_DATE], (unsigned long long)f->n[FIX_NAME]);
}
