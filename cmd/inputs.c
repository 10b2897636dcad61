/*
 * inputs.c: operands to inputs, lazily (see inputs.h).
 *
 * Directory entries are sorted by their bytes before they are visited, so
 * a run over a tree always lists games in the same order whatever the
 * file system returns: golden tests and diffs of reports depend on it.
 */
/* realpath() is XSI, beside the POSIX 2008 base the build asks for. */
#if !defined(_XOPEN_SOURCE) || _XOPEN_SOURCE < 700
#undef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include <xq/io.h>
#include <xq/memory.h>

struct inputs_dir {
	char *path;
	char **names;
	size_t n, i;
};

/*
 * Why an input cannot be used: the code's stable name ("io", "resource")
 * and the message, said to the caller's xq_diagnostic_fn as the library
 * says its own (xq_diagnostics_report()).
 */
struct why {
	const char *code;
	char msg[1024];
};

static void why_init(struct why *w)
{
	w->code = "io";
	w->msg[0] = '\0';
}

static int why_set(struct why *w, const char *code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static int why_set(struct why *w, const char *code, const char *fmt, ...)
{
	va_list ap;

	w->code = code;
	va_start(ap, fmt);
	vsnprintf(w->msg, sizeof(w->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* `w`, set by a step that failed (rc non-zero), said to `fn`. */
static int said(int rc, const struct why *w, xq_diagnostic_fn fn, void *user)
{
	xq_diagnostics *l;

	if (!rc || !fn)
		return rc;
	if ((l = xq_diagnostics_new()) &&
	    !xq_diagnostics_report(l, NULL, XQ_SEVERITY_ERROR, w->code, "%s", w->msg))
		fn(xq_diagnostics_at(l, 0), user);
	xq_diagnostics_free(l);
	return rc;
}

void inputs_init(struct inputs *it, char **operands, int n, int recursive)
{
	static char *stdin_operand[] = {(char *)"-"};

	memset(it, 0, sizeof(*it));
	atomic_init(&it->conflict, 0);
	it->operands = n > 0 ? operands : stdin_operand;
	it->noperands = n > 0 ? n : 1;
	it->defaulted = n == 0;
	it->recursive = recursive;
}

static void dir_free(struct inputs_dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	free(d->path);
}

/* --files0-from: see inputs_start(). */
static int set_list(struct inputs *it, const char *path, struct why *d)
{
	it->list_is_stdin = inputs_is_stdin(path);
	it->list = it->list_is_stdin ? stdin : fopen(path, "rb");
	if (!it->list)
		return why_set(d, "io", "cannot open the list of inputs '%s': %s",
			       path, strerror(errno));
	it->list_name = it->list_is_stdin ? "standard input" : path;
	/* The list replaces the default operand (standard input). */
	if (it->defaulted)
		it->noperands = 0;
	return 0;
}

/*
 * The next name of the list: 1 with it in it->list_buf, 0 at the end, -1
 * for a name that cannot be one (reported in `d`; carry on).
 */
static int list_next(struct inputs *it, struct why *d)
{
	ssize_t n;

	if (!it->list || it->list_failed)
		return 0;
	errno = 0;
	n = getdelim(&it->list_buf, &it->list_cap, '\0', it->list);
	if (n < 0) {
		if (ferror(it->list)) {
			it->list_failed = 1;
			return why_set(d, "io", "cannot read the list of inputs %s%s%s: %s",
				       it->list_is_stdin ? "" : "'", it->list_name,
				       it->list_is_stdin ? "" : "'", strerror(errno ? errno : EIO));
		}
		return 0;
	}
	it->list_index++;
	if (n > 0 && it->list_buf[n - 1] == '\0')
		n--;
	if (n == 0)
		return why_set(d, "io", "name %llu of the list of inputs is empty",
			       (unsigned long long)it->list_index);
	if (it->list_is_stdin && inputs_is_stdin(it->list_buf))
		return why_set(d, "io", "name %llu of the list of inputs is '-', but standard input holds the list",
			       (unsigned long long)it->list_index);
	return 1;
}

void inputs_release(struct inputs *it)
{
	if (it->list && (!it->list_is_stdin || it->list_spooled))
		fclose(it->list);
	it->list = NULL;
	free(it->list_buf);
	it->list_buf = NULL;
	for (size_t i = 0; i < it->ndirs; i++)
		dir_free(&it->dirs[i]);
	free(it->dirs);
	it->dirs = NULL;
	it->ndirs = 0;
	free(it->out_dirs);
	it->out_dirs = NULL;
	it->nout_dirs = it->out_dirs_alloc = 0;
	free(it->known);
	it->known = NULL;
	it->nknown = 0;
}

void inputs_exclude(struct inputs *it, const char *path)
{
	struct stat st;

	if (it->nexcluded < 4 && stat(path, &st) == 0) {
		it->excluded[it->nexcluded].dev = st.st_dev;
		it->excluded[it->nexcluded].ino = st.st_ino;
		it->nexcluded++;
	}
}

static int same_id(const struct inputs_id *id, const struct stat *st)
{
	return id->dev == st->st_dev && id->ino == st->st_ino;
}

static int is_excluded(const struct inputs *it, const struct stat *st)
{
	for (int i = 0; i < it->nexcluded; i++)
		if (same_id(&it->excluded[i], st))
			return 1;
	return 0;
}

/*
 * Call `fn` on the identity of every directory that holds `path` (found
 * through symbolic links), innermost first, until it returns non-zero;
 * returns that, or 0.
 */
static int each_dir_above(const char *path, int (*fn)(void *ctx, const struct stat *st), void *ctx)
{
	char *real = realpath(path, NULL);
	int rc = 0;

	if (!real)
		return 0;
	for (char *slash = strrchr(real, '/'); slash && !rc; slash = strrchr(real, '/')) {
		struct stat st;
		if (slash == real)
			slash[1] = '\0'; /* the root directory */
		else
			*slash = '\0';
		if (stat(real, &st) == 0)
			rc = fn(ctx, &st);
		if (slash == real)
			break;
	}
	free(real);
	return rc;
}

static int dir_excluded(void *ctx, const struct stat *st)
{
	return is_excluded(ctx, st);
}

/* Does the walk reach the output file (its guard) by reading `st`? */
static int is_output(const struct inputs *it, const struct stat *st)
{
	return it->guarding && same_id(&it->out, st);
}

/* Is `st` a directory that holds the output file? */
static int holds_output(const struct inputs *it, const struct stat *st)
{
	for (size_t i = 0; it->guarding && i < it->nout_dirs; i++)
		if (same_id(&it->out_dirs[i], st))
			return 1;
	return 0;
}

static int add_out_dir(void *ctx, const struct stat *st)
{
	struct inputs *it = ctx;

	if (XQ_ALLOC_GROW(it->out_dirs, it->nout_dirs + 1, it->out_dirs_alloc))
		return -1;
	it->out_dirs[it->nout_dirs].dev = st->st_dev;
	it->out_dirs[it->nout_dirs].ino = st->st_ino;
	it->nout_dirs++;
	return 0;
}

/* The output file met as input `name`: refused, and the flag raised. */
static int output_met(struct inputs *it, const char *name, int holds, struct why *d)
{
	atomic_store(&it->conflict, 1);
	if (holds)
		return why_set(d, "io", "'%s' holds the output file and is read with -r: an input is never overwritten",
			       name);
	return why_set(d, "io", "'%s' is the output file: an input is never overwritten", name);
}

static int guard(struct inputs *it, const char *path, struct why *d)
{
	struct stat st;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* nothing is replaced */
	it->out.dev = st.st_dev;
	it->out.ino = st.st_ino;
	it->guarding = 1;
	if (each_dir_above(path, add_out_dir, it))
		return why_set(d, "resource", "out of memory checking the folders above the output");
	for (int i = 0; i < it->noperands; i++) {
		const char *op = it->operands[i];
		if (inputs_is_stdin(op) || stat(op, &st) != 0)
			continue;
		if (S_ISREG(st.st_mode) && is_output(it, &st))
			return why_set(d, "io", "'%s' is an input: it is never overwritten", path);
		if (S_ISDIR(st.st_mode) && it->recursive && holds_output(it, &st))
			return why_set(d, "io", "'%s' is an input: it is in '%s', read with -r, and an input is never overwritten",
				       path, op);
	}
	return 0;
}

int inputs_conflict(struct inputs *it)
{
	return atomic_load(&it->conflict);
}

static int cmp_ids(const void *a, const void *b)
{
	const struct inputs_id *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return 0;
}

static int add_known(struct inputs *it, size_t *alloc, const struct stat *st)
{
	if (XQ_ALLOC_GROW(it->known, it->nknown + 1, *alloc))
		return -1;
	it->known[it->nknown].dev = st->st_dev;
	it->known[it->nknown].ino = st->st_ino;
	it->nknown++;
	return 0;
}

/*
 * The list, read through once: every name's identity kept (files only),
 * the list itself kept too.  Standard input or a pipe is copied to an
 * unnamed temporary file on the way, which the run then reads instead.
 */
static int prescan_list(struct inputs *it, size_t *alloc, struct why *d)
{
	FILE *spool = NULL;
	char *name = NULL;
	size_t cap = 0;
	ssize_t n;
	struct stat st;
	int seekable = !it->list_is_stdin && ftello(it->list) >= 0 && fseeko(it->list, 0, SEEK_SET) == 0;

	if (!it->list_is_stdin && fstat(fileno(it->list), &st) == 0 && S_ISREG(st.st_mode) &&
	    add_known(it, alloc, &st))
		goto nomem;
	if (!seekable && !(spool = tmpfile()))
		return why_set(d, "io", "cannot keep the list of inputs in a temporary file: %s", strerror(errno));
	while ((n = getdelim(&name, &cap, '\0', it->list)) > 0) {
		if (cmd_reading_canceled())
			break;
		if (spool && fwrite(name, 1, (size_t)n, spool) != (size_t)n) {
			why_set(d, "io", "cannot keep the list of inputs in a temporary file: %s", strerror(errno));
			goto fail;
		}
		if (stat(name, &st) == 0 && S_ISREG(st.st_mode) &&
		    add_known(it, alloc, &st))
			goto nomem;
	}
	if (ferror(it->list)) {
		why_set(d, "io", "cannot read the list of inputs %s%s%s: %s",
			it->list_is_stdin ? "" : "'", it->list_name, it->list_is_stdin ? "" : "'",
			strerror(errno ? errno : EIO));
		goto fail;
	}
	free(name);
	if (spool) {
		if (fflush(spool) != 0 || fseeko(spool, 0, SEEK_SET) != 0) {
			fclose(spool);
			return why_set(d, "io", "cannot keep the list of inputs in a temporary file: %s",
				       strerror(errno));
		}
		if (!it->list_is_stdin)
			fclose(it->list);
		it->list = spool;
		it->list_spooled = 1;
	} else if (fseeko(it->list, 0, SEEK_SET) != 0) {
		return why_set(d, "io", "cannot read the list of inputs '%s' again: %s",
			       it->list_name, strerror(errno));
	}
	return 0;
nomem:
	why_set(d, "resource", "out of memory reading the list of inputs");
fail:
	free(name);
	if (spool)
		fclose(spool);
	return -1;
}

static int prescan(struct inputs *it, struct why *d)
{
	size_t alloc = 0;
	struct stat st;

	for (int i = 0; i < it->noperands; i++)
		if (!inputs_is_stdin(it->operands[i]) && stat(it->operands[i], &st) == 0 &&
		    S_ISREG(st.st_mode) && add_known(it, &alloc, &st))
			return why_set(d, "resource", "out of memory listing the inputs");
	if (it->list && prescan_list(it, &alloc, d))
		return -1;
	qsort(it->known, it->nknown, sizeof(*it->known), cmp_ids);
	return 0;
}

int inputs_is_input(const struct inputs *it, const char *path)
{
	struct stat st;
	struct inputs_id key;

	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !it->nknown)
		return 0;
	key.dev = st.st_dev;
	key.ino = st.st_ino;
	return bsearch(&key, it->known, it->nknown, sizeof(key), cmp_ids) != NULL;
}

int inputs_is_stdin(const char *path)
{
	return path[0] == '-' && path[1] == '\0';
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), nl = strlen(name);
	char *p = malloc(dl + nl + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, dl);
	if (dl == 0 || dir[dl - 1] != '/')
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	return p;
}

/* Read and sort the names in `path`, pushed as the innermost directory. */
static int push_dir(struct inputs *it, const char *path, struct why *d)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	struct inputs_dir nd = {NULL, NULL, 0, 0};
	size_t alloc = 0;

	if (!dir)
		return why_set(d, "io", "cannot open directory '%s': %s",
			       path, strerror(errno));
	while ((e = readdir(dir))) {
		char *name;
		if (e->d_name[0] == '.')
			continue; /* ., .., hidden files and our own temporary files */
		if (XQ_ALLOC_GROW(nd.names, nd.n + 1, alloc))
			goto nomem;
		if (!(name = strdup(e->d_name)))
			goto nomem;
		nd.names[nd.n++] = name;
	}
	closedir(dir);
	dir = NULL;
	qsort(nd.names, nd.n, sizeof(*nd.names), cmp_names);
	if (!(nd.path = strdup(path)))
		goto nomem;
	if (XQ_ALLOC_GROW(it->dirs, it->ndirs + 1, it->dirs_alloc))
		goto nomem;
	it->dirs[it->ndirs++] = nd;
	return 0;
nomem:
	if (dir)
		closedir(dir);
	dir_free(&nd);
	return why_set(d, "resource", "out of memory reading a directory");
}

static int next_input(struct inputs *it, char **path, int *in_dir, struct why *d)
{
	for (;;) {
		struct stat st;
		if (cmd_reading_canceled())
			return 0; /* the caller looks at the signal */
		if (it->ndirs > 0) {
			struct inputs_dir *top = &it->dirs[it->ndirs - 1];
			char *p;
			if (top->i == top->n) {
				dir_free(top);
				it->ndirs--;
				continue;
			}
			p = join(top->path, top->names[top->i++]);
			if (!p)
				return why_set(d, "resource", "out of memory walking a directory");
			/* Do not follow links to directories: they can loop. */
			if (lstat(p, &st) != 0 || is_excluded(it, &st)) {
				free(p);
				continue;
			}
			if (S_ISDIR(st.st_mode)) {
				int rc = push_dir(it, p, d);
				if (rc) {
					why_set(d, "io", "cannot open directory '%s': %s", p, strerror(errno));
					free(p);
					return -1;
				}
				free(p);
				continue;
			}
			/* A link is read as the file it names, unless that is an
			 * output or in an output directory. */
			if (S_ISLNK(st.st_mode) && (stat(p, &st) != 0 || !S_ISREG(st.st_mode) ||
						    is_excluded(it, &st) ||
						    (it->nexcluded && each_dir_above(p, dir_excluded, it)))) {
				free(p);
				continue;
			}
			if (!S_ISREG(st.st_mode)) {
				free(p);
				continue;
			}
			if (is_output(it, &st)) {
				int rc = output_met(it, p, 0, d);
				free(p);
				return rc;
			}
			*path = p;
			*in_dir = 1;
			return 1;
		}
		{
			const char *op;
			if (it->next < it->noperands) {
				op = it->operands[it->next++];
			} else {
				int rc = list_next(it, d);
				if (rc <= 0)
					return rc;
				op = it->list_buf;
			}
			if (!inputs_is_stdin(op)) {
				if (stat(op, &st) != 0)
					return why_set(d, "io", "cannot open '%s': %s", op, strerror(errno));
				if (S_ISDIR(st.st_mode)) {
					if (!it->recursive)
						return why_set(d, "io", "'%s' is a directory (use -r to read the records in it)",
							       op);
					if (holds_output(it, &st))
						return output_met(it, op, 1, d);
					if (push_dir(it, op, d))
						return -1;
					continue;
				}
				if (is_output(it, &st))
					return output_met(it, op, 0, d);
			}
			if (!(*path = strdup(op)))
				return why_set(d, "resource", "out of memory listing the inputs");
			*in_dir = 0;
			return 1;
		}
	}
}

static int start(struct inputs *it, char **operands, int n, int recursive, const char *list,
		 struct why *d)
{
	inputs_init(it, operands, n, recursive);
	if (list && set_list(it, list, d)) {
		inputs_release(it);
		return -1;
	}
	return 0;
}

int64_t inputs_total_size(const struct inputs *from)
{
	struct inputs it;
	struct why d;
	char *path;
	int in_dir, rc;
	int64_t total = 0;

	if (from->list || from->defaulted)
		return -1;
	inputs_init(&it, from->operands, from->noperands, from->recursive);
	while ((rc = next_input(&it, &path, &in_dir, &d)) != 0) {
		struct stat st;
		if (rc < 0)
			continue;
		if (inputs_is_stdin(path) || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			total = -1;
		else if (total >= 0)
			total += (int64_t)st.st_size;
		free(path);
	}
	inputs_release(&it);
	return total;
}

const char *format_by_name(const char *name, int write, char *msg, size_t cap)
{
	const char *canonical = xq_format_canonical(name), *f;
	unsigned need = write ? XQ_FORMAT_WRITES : XQ_FORMAT_READS, caps;
	size_t used;

	for (size_t i = 0; canonical && xq_format_info(i, &f, NULL, &caps) == 0; i++)
		if (!strcmp(f, canonical) && (caps & need))
			return f;
	if (canonical)
		used = (size_t)snprintf(msg, cap, "xqkit cannot %s %s records; it %s: ",
					write ? "write" : "read", name, write ? "writes" : "reads");
	else
		used = (size_t)snprintf(msg, cap, "unknown format '%s'; xqkit %s: ", name,
					write ? "writes" : "reads");
	for (size_t i = 0, n = 0; used < cap && xq_format_info(i, &f, NULL, &caps) == 0; i++) {
		if (!(caps & need))
			continue;
		used += (size_t)snprintf(msg + used, cap - used, "%s%s", n++ ? ", " : "", f);
	}
	return NULL;
}

static int check_operands(char **operands, int n, int recursive, struct why *d)
{
	int status = 0;

	why_init(d);
	for (int i = 0; i < n; i++) {
		struct stat st;
		if (inputs_is_stdin(operands[i]))
			continue;
		if (stat(operands[i], &st) != 0) {
			if (!status) {
				why_set(d, "io", "cannot open '%s': %s",
					operands[i], strerror(errno));
				status = CMD_EXIT_IO;
			}
		} else if (S_ISDIR(st.st_mode) && !recursive) {
			why_set(d, "io", "'%s' is a directory: add -r to read the record files in it",
				operands[i]);
			return CMD_EXIT_USAGE;
		}
	}
	return status;
}

int inputs_guard(struct inputs *it, const char *path, xq_diagnostic_fn fn, void *user)
{
	struct why d;

	why_init(&d);
	return said(guard(it, path, &d), &d, fn, user);
}

int inputs_prescan(struct inputs *it, xq_diagnostic_fn fn, void *user)
{
	struct why d;

	why_init(&d);
	return said(prescan(it, &d), &d, fn, user);
}

int inputs_next(struct inputs *it, char **path, int *in_dir, xq_diagnostic_fn fn, void *user)
{
	struct why d;
	int rc;

	why_init(&d);
	if ((rc = next_input(it, path, in_dir, &d)) < 0)
		said(rc, &d, fn, user);
	return rc;
}

int inputs_start(struct inputs *it, char **operands, int n, int recursive, const char *list,
		 xq_diagnostic_fn fn, void *user)
{
	struct why d;

	why_init(&d);
	return said(start(it, operands, n, recursive, list, &d), &d, fn, user);
}

int inputs_check_operands(char **operands, int n, int recursive, xq_diagnostic_fn fn, void *user)
{
	struct why d;

	return said(check_operands(operands, n, recursive, &d), &d, fn, user);
}
