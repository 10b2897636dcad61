/*
 * opt.c: the table-driven option parser (see opt.h).
 */
#include "opt.h"

#include "cmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <xq/io.h>
#include <xq/memory.h>
#include <xq/rules.h>

int opt_init(struct opt_parser *p, int argc, char **argv, const char *cmd)
{
	memset(p, 0, sizeof(*p));
	p->argc = argc;
	p->argv = argv;
	p->index = 1;
	p->cmd = cmd;
	p->job_hash = 1469598103934665603ull;
	p->operands = calloc((size_t)(argc > 0 ? argc : 1), sizeof(*p->operands));
	return p->operands ? 0 : -1;
}

int opt_error(struct opt_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return -1;
}

int opt_out_of_memory(struct opt_parser *p, const char *what)
{
	opt_error(p, "out of memory reading %s", what);
	p->status = CMD_EXIT_IO;
	return -1;
}

int opt_fail(const struct opt_parser *p)
{
	if (p->status && p->status != CMD_EXIT_USAGE) {
		cmd_error("%s", p->err);
		return p->status;
	}
	return cmd_usage_error(p->cmd, "%s", p->err);
}

int opt_command(struct opt_parser *p, int argc, char **argv, const char *cmd,
		int (*parse)(void *ctx, struct opt_parser *p), void *ctx)
{
	int rc;

	if (opt_init(p, argc, argv, cmd)) {
		cmd_error("out of memory reading the options");
		return CMD_EXIT_IO;
	}
	if ((rc = parse(ctx, p)) == 0)
		return OPT_RUN;
	rc = rc > 0 ? CMD_EXIT_OK : opt_fail(p);
	opt_release(p);
	return rc;
}

void opt_release(struct opt_parser *p)
{
	free(p->operands);
	p->operands = NULL;
}

static const struct opt_spec *find_short(const struct opt_spec *s, char c)
{
	for (; s->kind != OPT_KIND_END; s++) {
		const struct opt_spec *in;
		if (s->kind == OPT_KIND_INCLUDE && (in = find_short(s->include, c)))
			return in;
		if (s->kind != OPT_KIND_INCLUDE && s->short_name && s->short_name == c)
			return s;
	}
	return NULL;
}

/* The exact match of `name` (returned), else the options it is a prefix
 * of: the last in *found, their number added to *n. */
static const struct opt_spec *match_long(const struct opt_spec *s, const char *name, size_t len,
					 const struct opt_spec **found, int *n)
{
	for (; s->kind != OPT_KIND_END; s++) {
		if (s->kind == OPT_KIND_INCLUDE) {
			const struct opt_spec *exact = match_long(s->include, name, len, found, n);
			if (exact)
				return exact;
			continue;
		}
		if (!s->long_name || strncmp(s->long_name, name, len))
			continue;
		if (strlen(s->long_name) == len)
			return s; /* exact match wins */
		*found = s;
		(*n)++;
	}
	return NULL;
}

static const struct opt_spec *find_long(const struct opt_spec *s, const char *name, size_t len,
					int *ambiguous)
{
	const struct opt_spec *found = NULL, *exact;
	int n = 0;

	*ambiguous = 0;
	if ((exact = match_long(s, name, len, &found, &n)))
		return exact;
	if (n > 1)
		*ambiguous = 1;
	return n == 1 ? found : NULL;
}

/* FNV-1a of `len` bytes and a NUL after them, folded into `h`. */
static uint64_t fold(uint64_t h, const char *s, size_t len)
{
	for (size_t i = 0; i <= len; i++)
		h = (h ^ (i < len ? (unsigned char)s[i] : 0)) * 1099511628211ull;
	return h;
}

/* Option `s` with `value` (NULL for a flag) into the job's hash, unless it
 * only says where the output goes or how fast (opt.h). */
static void fold_option(struct opt_parser *p, const struct opt_spec *s, const char *value)
{
	static const char *const left_out[] = {"shard", "output", "jobs", "progress", "color",
					       "max-memory", NULL};
	char letter = s->short_name;

	for (int i = 0; s->long_name && left_out[i]; i++)
		if (!strcmp(s->long_name, left_out[i]))
			return;
	p->job_hash = s->long_name ? fold(p->job_hash, s->long_name, strlen(s->long_name))
				   : fold(p->job_hash, &letter, 1);
	if (value)
		p->job_hash = fold(p->job_hash, value, strlen(value));
}

void opt_job_id(const struct opt_parser *p, char out[OPT_JOB_ID_SIZE])
{
	uint64_t h = fold(p->job_hash, p->cmd, strlen(p->cmd));

	for (int i = 0; i < p->noperands; i++)
		h = fold(h, p->operands[i], strlen(p->operands[i]));
	snprintf(out, OPT_JOB_ID_SIZE, "%016" PRIx64, h);
}

static int next_option(struct opt_parser *p, const struct opt_spec *specs, int *id,
		       const char **value)
{
	for (;;) {
		const char *arg;
		const struct opt_spec *s;

		if (p->rest && *p->rest) {
			char c = *p->rest++;
			s = find_short(specs, c);
			if (!s)
				return opt_error(p, "unknown option '-%c'", c);
			*id = s->id;
			*value = NULL;
			if (s->kind == OPT_KIND_VALUE) {
				if (*p->rest) {
					*value = p->rest;
				} else if (p->index < p->argc) {
					*value = p->argv[p->index++];
				} else {
					return opt_error(p, "option '-%c' needs a value", c);
				}
				p->rest = NULL;
			}
			fold_option(p, s, *value);
			return 1;
		}
		p->rest = NULL;
		if (p->index >= p->argc)
			return 0;
		arg = p->argv[p->index++];
		if (p->no_more_opts || arg[0] != '-' || arg[1] == '\0') {
			p->operands[p->noperands++] = (char *)arg;
			continue;
		}
		if (arg[1] != '-') {
			p->rest = arg + 1;
			continue;
		}
		if (arg[2] == '\0') {
			p->no_more_opts = 1;
			continue;
		}
		{
			const char *name = arg + 2, *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			int ambiguous;
			s = find_long(specs, name, len, &ambiguous);
			if (!s)
				return opt_error(p, "%s option '--%.*s'",
						 ambiguous ? "ambiguous" : "unknown", (int)len, name);
			*id = s->id;
			*value = NULL;
			if (s->kind == OPT_KIND_FLAG) {
				if (eq)
					return opt_error(p, "option '--%s' takes no value",
							 s->long_name);
			} else if (eq) {
				*value = eq + 1;
			} else if (p->index < p->argc) {
				*value = p->argv[p->index++];
			} else {
				return opt_error(p, "option '--%s' needs a value",
						 s->long_name);
			}
			fold_option(p, s, *value);
			return 1;
		}
	}
}

int opt_next(struct opt_parser *p, const struct opt_spec *specs, int *id, const char **value)
{
	for (;;) {
		int rc = next_option(p, specs, id, value);
		uint64_t v;
		if (rc != 1 || *id != OPT_ID_MAX_MEMORY)
			return rc;
		if (xq_size_parse(*value, &v) || v < XQ_MEMORY_MIN)
			return opt_error(p, "--max-memory '%s': a size of at least %" PRIu64
					 "M is needed (a number with K, M or G)",
					 *value, XQ_MEMORY_MIN >> 20);
		p->max_memory = v;
	}
}

/* Is `s` a row of `top` that an earlier row of the same long name hides?
 * (A command may give a shared option a meaning of its own: stats's
 * --format names its tables' format; the first row is the one parsed.) */
static int shadowed(const struct opt_spec *top, const struct opt_spec *s)
{
	const struct opt_spec *found = NULL;
	int n = 0;

	return s->long_name &&
	       match_long(top, s->long_name, strlen(s->long_name), &found, &n) != s;
}

static void print_rows(FILE *f, const struct opt_spec *top, const struct opt_spec *specs)
{
	for (const struct opt_spec *s = specs; s->kind != OPT_KIND_END; s++) {
		char left[64];
		int n = 0;
		if (s->kind == OPT_KIND_INCLUDE) {
			print_rows(f, top, s->include);
			continue;
		}
		if (!s->help || shadowed(top, s))
			continue;
		if (s->short_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "-%c", s->short_name);
		if (s->long_name)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "%s--%s",
				      s->short_name ? ", " : "    ", s->long_name);
		if (s->kind == OPT_KIND_VALUE)
			snprintf(left + n, sizeof(left) - (size_t)n, " %s", s->arg_name);
		fprintf(f, "  %-28s %s\n", left, s->help);
	}
}

void opt_print_help(FILE *f, const char *usage, const char *summary, const struct opt_spec *specs)
{
	fprintf(f, "usage: %s\n\n%s\n\noptions:\n", usage, summary);
	print_rows(f, specs, specs);
}

long opt_int(struct opt_parser *p, const char *name, const char *value, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno || end == value || *end || v < min || v > max)
		return opt_error(p, "%s must be a whole number from %ld to %ld, not '%s'",
				 name, min, max, value);
	return v;
}

int opt_choice(struct opt_parser *p, const char *name, const char *value,
	       const char *const *names)
{
	size_t len;
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(value, names[i]))
			return i;
	len = (size_t)snprintf(p->err, sizeof(p->err), "%s must be ", name);
	for (i = 0; names[i] && len < sizeof(p->err); i++)
		len += (size_t)snprintf(p->err + len, sizeof(p->err) - len, "%s%s",
					i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
	if (len < sizeof(p->err))
		snprintf(p->err + len, sizeof(p->err) - len, ", not '%s'", value);
	return -1;
}

int opt_encoding(struct opt_parser *p, const char *value, const char **out)
{
	if (!(*out = xq_encoding_canonical(value)))
		return opt_error(p, "unknown encoding '%s' (or one that does not keep ASCII as it is): name "
				 "utf-8, gbk, gb18030, big5, utf-16le, utf-16be, windows-1252 (cp1252), "
				 "iso-8859-1 (latin1), or another that 'iconv -l' lists",
				 value);
	return 0;
}

int opt_rules(struct opt_parser *p, const char *value, int none_ok, int *on, int *ruleset)
{
	int rs;

	if (none_ok && !strcmp(value, "none")) {
		*on = 0;
		return 0;
	}
	if ((rs = xq_ruleset_from_name(value)) < 0)
		return opt_error(p, "--rules must be asian, chinese%s, not '%s'",
				 none_ok ? " or none" : "", value);
	*ruleset = rs;
	*on = 1;
	return 0;
}
