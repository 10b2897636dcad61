/*
 * opt.h: a small declarative option parser for the subcommands.
 *
 * Each command owns a `static const struct opt_spec[]` table, ended by
 * OPT_END, which drives both parsing and the --help text, so usage can
 * never drift from what is accepted.  Accepted forms: `-j 2`, `-j2`,
 * `--jobs 2`, `--jobs=2`, bundled flags `-qv`, operands anywhere (they are
 * collected in order), `--` to end options, and `-` as an operand.
 */
#ifndef CMD_OPT_H
#define CMD_OPT_H

#include <stdint.h>
#include <stdio.h>

enum opt_kind { OPT_KIND_END, OPT_KIND_FLAG, OPT_KIND_VALUE, OPT_KIND_INCLUDE };

struct opt_spec {
	enum opt_kind kind;
	int id;               /* returned by opt_next; use a char for options with a short form */
	char short_name;      /* 0 if none */
	const char *long_name;/* without the dashes; NULL if none */
	const char *arg_name; /* for OPT_KIND_VALUE: shown in help ("N", "FILE") */
	const char *help;     /* one line; NULL: accepted but not shown (an old spelling) */
	const struct opt_spec *include; /* OPT_KIND_INCLUDE: the table read in its place */
};

#define OPT_FLAG(id, s, l, h) {OPT_KIND_FLAG, (id), (s), (l), NULL, (h), NULL}
#define OPT_VALUE(id, s, l, a, h) {OPT_KIND_VALUE, (id), (s), (l), (a), (h), NULL}
/*
 * A table that several commands share (the input options of cmd/inputs.h,
 * --rules, ...), read where this entry stands, as if its rows were written
 * there: parsing and --help see one table, in that order (git's
 * parse_options_concat).  Tables nest.  An id must be unique across the
 * tables a command includes: shared tables use ids from OPT_ID_SHARED up.
 * A row of the command's own before the include, with the same long name,
 * replaces the shared one: it is the one parsed and the only one shown.
 */
#define OPT_INCLUDE(table) {OPT_KIND_INCLUDE, 0, 0, NULL, NULL, NULL, (table)}
#define OPT_END {OPT_KIND_END, 0, 0, NULL, NULL, NULL, NULL}
#define OPT_ID_SHARED 0x1000

/*
 * --max-memory SIZE, the memory budget of every command that reads
 * collections (budget.h; man xqkit(1), LIMITS): a command lists
 * OPT_MAX_MEMORY in its table, and opt_next() parses it itself into
 * p->max_memory (0 when not given) without returning it.
 */
#define OPT_ID_MAX_MEMORY 0x10000
#define OPT_MAX_MEMORY                                                                   \
	OPT_VALUE(OPT_ID_MAX_MEMORY, 0, "max-memory", "SIZE",                            \
		  "memory reading may hold at once (K, M, G; default 256M, at least 8M)")

struct opt_parser {
	int argc;
	char **argv;
	int index;        /* next argv element to look at */
	const char *rest; /* rest of a bundle of short flags */
	int no_more_opts; /* seen "--" */
	const char *cmd;  /* command name for messages */
	/* Operands, in order; points into argv. */
	char **operands;
	int noperands;
	uint64_t max_memory; /* --max-memory in bytes, 0 if not given */
	uint64_t job_hash;   /* the options taken so far that say what is done (opt_job_id()) */
	char err[256];    /* the message after opt_next returned -1 */
	int status;       /* its exit status: 0 for a usage error (2); an
			     option's file that cannot be read, or memory
			     that ran out, set CMD_EXIT_IO (opt_fail) */
};

/* Say what is wrong in p->err (printf-style; cut at its size) and
 * return -1: `return opt_error(p, "--x must be ...", value);`. */
int opt_error(struct opt_parser *p, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

/* Memory ran out while reading `what` (an option, or what the options
 * need): p->err says so, with exit status 3 (CMD_EXIT_IO).  Returns -1. */
int opt_out_of_memory(struct opt_parser *p, const char *what);
/* Say p->err as its status says (a usage error with the hint to --help,
 * else a plain error) and return that status (cmd.h). */
int opt_fail(const struct opt_parser *p);

/*
 * A command's command line, read the one way every command reads it:
 * opt_init(), then `parse` (the command's own: 0 to run, 1 when --help was
 * shown, -1 with p->err on a usage error).  Returns OPT_RUN to run (the
 * caller releases `p` with opt_release() at its end), else the exit status
 * to return at once, `p` released: 0 after --help, opt_fail()'s after an
 * error, 3 (said) when there was no memory for the parser.
 */
#define OPT_RUN (-1)
int opt_command(struct opt_parser *p, int argc, char **argv, const char *cmd,
		int (*parse)(void *ctx, struct opt_parser *p), void *ctx);

/* Start parsing argv[1..argc-1] (argv[0] is the command name). */
int opt_init(struct opt_parser *p, int argc, char **argv, const char *cmd);
void opt_release(struct opt_parser *p);

/*
 * Next option: returns 1 and sets *id and *value (NULL for flags), 0 when
 * all arguments are consumed (operands are in p->operands), or -1 on a
 * usage error (p->err says what).
 */
int opt_next(struct opt_parser *p, const struct opt_spec *specs, int *id, const char **value);

/*
 * The id of the job the command line asks for, once it is parsed: the
 * same for every run that does the same work over the same inputs, so
 * that the summaries of the shards of one job say they are (the "run" of
 * xqkit.summary/1, doc/ndjson.md).  FNV-1a (64 bits, 16 hex digits into
 * `out`) of the command's name, each option by its long name (else its
 * letter) and value, and the operands, in order; the options that say
 * where the output goes or how fast the work is done are left out: --shard
 * (what differs between the shards), -o/--output, -j/--jobs, --progress,
 * --color, --max-memory.
 */
#define OPT_JOB_ID_SIZE 17
void opt_job_id(const struct opt_parser *p, char out[OPT_JOB_ID_SIZE]);

/* Print "usage: ..." plus the option table. */
void opt_print_help(FILE *f, const char *usage, const char *summary, const struct opt_spec *specs);

/* Parse a non-negative integer option value in [min, max]; -1 on error
 * (message in p->err). */
long opt_int(struct opt_parser *p, const char *name, const char *value, long min, long max);
/* A value that must be one of `names` (NULL-ended): its index, or -1
 * with "NAME must be a, b or c, not 'VALUE'" in p->err. */
int opt_choice(struct opt_parser *p, const char *name, const char *value,
	       const char *const *names);

/*
 * The option values several commands share, parsed and refused the same
 * way everywhere: 0, or -1 with the message in p->err.
 */
/* A text encoding name (utf-8, gbk, gb18030, big5, cp1252, latin1, any
 * other iconv knows, any case): the library's name for it
 * (xq_encoding_canonical() of <xq/io.h>) in *out; an unknown one is a usage
 * error that lists the common names. */
int opt_encoding(struct opt_parser *p, const char *value, const char **out);
/* --rules: asian or chinese (*on = 1, *ruleset an XQ_RULESET_* of
 * <xq/rules.h>), and with `none_ok` none (*on = 0, *ruleset unchanged). */
int opt_rules(struct opt_parser *p, const char *value, int none_ok, int *on, int *ruleset);

#endif
