/*
 * convert_fix.h: `convert --fix`, the repairs a record proves, and the check
 * every conversion makes without it.
 *
 * With --fix each game is changed where the change is certain (lib/fix.h):
 * the result (and Result tag) that mate, stalemate or, with --rules, a
 * forbidden perpetual at the end of the main line proves; a PlyCount tag
 * that is not the main line's length; a Date tag in a form whose meaning
 * is certain, as YYYY.MM.DD; the Red and Black tags through the map of
 * --names FILE.  Every change is a diagnostic at the tag's place with the
 * old and the new value (`fix` in NDJSON diagnostics); --dry-run reports
 * them and changes and writes nothing.  Without --fix, a result that mate
 * or stalemate contradicts is an error: the game is written as recorded.
 *
 * fix_game() runs on the worker that read the game and counts its changes
 * in the job (counts[FIX_*]); fix_count() adds them up in input order, so
 * the counts never depend on -j.
 */
#ifndef CMD_CONVERT_FIX_H
#define CMD_CONVERT_FIX_H

#include <stdint.h>

#include "opt.h"
#include <xq/buf.h>
#include <xq/batch.h>


enum fix_kind { FIX_RESULT, FIX_PLYCOUNT, FIX_DATE, FIX_NAME, FIX_KINDS };

struct fix_name {
	const char *from, *to;
	uint64_t line;
};

struct fix {
	int on;                   /* --fix */
	int dry_run;              /* --dry-run */
	const char *names_path;   /* --names FILE */
	int rules_on;             /* --rules (not none) */
	int ruleset;              /* its XQ_RULESET_* (<xq/rules.h>) */
	char *names_text;         /* the map file's bytes (the names point into them) */
	struct fix_name *names;   /* sorted by `from` */
	size_t nnames;
	uint64_t n[FIX_KINDS];    /* changes, by kind (made or, dry run, found) */
	uint64_t games;           /* games with at least one */
};

/* The options, for OPT_INCLUDE in a command's table. */
extern const struct opt_spec fix_options[];

void fix_init(struct fix *f);
void fix_release(struct fix *f);
/* One option: 1 when it is one of fix_options (taken), 0 when it is not,
 * -1 on a bad value (the message in p->err). */
int fix_take(struct fix *f, struct opt_parser *p, int id, const char *value);
/* After parsing: the options together, and the --names map read (a bad
 * one names FILE:LINE).  0, or -1 with the message in p->err. */
int fix_check(struct fix *f, struct opt_parser *p);
/* Worker thread: check or fix the job's game, adding diagnostics. */
void fix_game(const struct fix *f, xq_batch_job *j);
/* Output thread, in input order: count the job's fixes. */
void fix_count(struct fix *f, const xq_batch_job *j);
/* The summary's words ("; fixed: 2 results, 5 dates" ...), or nothing
 * without --fix; and the same as NDJSON members (",\"fixed\":{...}"). */
void fix_summary_text(const struct fix *f, struct xq_buf *b);
void fix_summary_json(const struct fix *f, struct xq_buf *b);

#endif
