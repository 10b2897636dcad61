/*
 * inputs.c: operands to inputs, lazily, and opening one as a record source
 * (see inputs.h).
 *
 * Directory entries are sorted by their bytes before they are visited, so
 * a run over a tree always lists games in the same order whatever the
 * file system returns: golden tests and diffs of reports depend on it.
 */
#include "inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io.h"

struct inputs_dir {
	char *path;
	char **names;
	size_t n, i;
};

void inputs_init(struct inputs *it, char **operands, int n, int recursive)
{
	static char *stdin_operand[] = {(char *)"-"};

	memset(it, 0, sizeof(*it));
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
static int set_list(struct inputs *it, const char *path, struct xq_diag *d)
{
	it->list_is_stdin = inputs_is_stdin(path);
	it->list = it->list_is_stdin ? stdin : fopen(path, "rb");
	if (!it->list)
		return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR, "cannot open the list of inputs '%s': %s",
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
static int list_next(struct inputs *it, struct xq_diag *d)
{
	ssize_t n;

	if (!it->list || it->list_failed)
		return 0;
	errno = 0;
	n = getdelim(&it->list_buf, &it->list_cap, '\0', it->list);
	if (n < 0) {
		if (ferror(it->list)) {
			it->list_failed = 1;
			return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR, "cannot read the list of inputs %s%s%s: %s",
					   it->list_is_stdin ? "" : "'", it->list_name,
					   it->list_is_stdin ? "" : "'", strerror(errno ? errno : EIO));
		}
		return 0;
	}
	it->list_index++;
	if (n > 0 && it->list_buf[n - 1] == '\0')
		n--;
	if (n == 0)
		return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR,
				   "name %llu of the list of inputs is empty",
				   (unsigned long long)it->list_index);
	if (it->list_is_stdin && inputs_is_stdin(it->list_buf))
		return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR,
				   "name %llu of the list of inputs is '-', but standard input holds the list",
				   (unsigned long long)it->list_index);
	return 1;
}

void inputs_release(struct inputs *it)
{
	if (it->list && !it->list_is_stdin)
		fclose(it->list);
	it->list = NULL;
	free(it->list_buf);
	it->list_buf = NULL;
	for (size_t i = 0; i < it->ndirs; i++)
		dir_free(&it->dirs[i]);
	free(it->dirs);
	it->dirs = NULL;
	it->ndirs = 0;
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

static int is_excluded(const struct inputs *it, const struct stat *st)
{
	for (int i = 0; i < it->nexcluded; i++)
		if (it->excluded[i].dev == st->st_dev && it->excluded[i].ino == st->st_ino)
			return 1;
	return 0;
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
static int push_dir(struct inputs *it, const char *path, struct xq_diag *d)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	struct inputs_dir nd = {NULL, NULL, 0, 0};
	size_t alloc = 0;

	if (!dir)
		return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR, "cannot open directory '%s': %s",
				   path, strerror(errno));
	while ((e = readdir(dir))) {
		char *name;
		if (e->d_name[0] == '.')
			continue; /* ., .., hidden files and our own temporary files */
		if (nd.n == alloc) {
			size_t cap = alloc ? alloc * 2 : 32;
			char **p = realloc(nd.names, cap * sizeof(*p));
			if (!p)
				goto nomem;
			nd.names = p;
			alloc = cap;
		}
		if (!(name = strdup(e->d_name)))
			goto nomem;
		nd.names[nd.n++] = name;
	}
	closedir(dir);
	dir = NULL;
	qsort(nd.names, nd.n, sizeof(*nd.names), cmp_names);
	if (!(nd.path = strdup(path)))
		goto nomem;
	if (it->ndirs == it->dirs_alloc) {
		size_t cap = it->dirs_alloc ? it->dirs_alloc * 2 : 8;
		struct inputs_dir *p = realloc(it->dirs, cap * sizeof(*p));
		if (!p)
			goto nomem;
		it->dirs = p;
		it->dirs_alloc = cap;
	}
	it->dirs[it->ndirs++] = nd;
	return 0;
nomem:
	if (dir)
		closedir(dir);
	dir_free(&nd);
	return xq_diag_set(d, -1, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
}

int inputs_next(struct inputs *it, char **path, int *in_dir, struct xq_diag *d)
{
	for (;;) {
		struct stat st;
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
				return xq_diag_set(d, -1, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
			/* Do not follow links to directories: they can loop. */
			if (lstat(p, &st) != 0 || is_excluded(it, &st)) {
				free(p);
				continue;
			}
			if (S_ISDIR(st.st_mode)) {
				int rc = push_dir(it, p, d);
				if (rc) {
					xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR,
						    "cannot open directory '%s': %s", p, strerror(errno));
					free(p);
					return -1;
				}
				free(p);
				continue;
			}
			if (S_ISLNK(st.st_mode) && (stat(p, &st) != 0 || !S_ISREG(st.st_mode) ||
						    is_excluded(it, &st))) {
				free(p);
				continue;
			}
			if (!S_ISREG(st.st_mode)) {
				free(p);
				continue;
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
					return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR,
							   "cannot open '%s': %s", op, strerror(errno));
				if (S_ISDIR(st.st_mode)) {
					if (!it->recursive)
						return xq_diag_set(d, -1, XQ_D_IO, XQ_SEV_ERROR,
								   "'%s' is a directory (use -r to read the records in it)",
								   op);
					if (push_dir(it, op, d))
						return -1;
					continue;
				}
			}
			if (!(*path = strdup(op)))
				return xq_diag_set(d, -1, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
			*in_dir = 0;
			return 1;
		}
	}
}

int inputs_start(struct inputs *it, char **operands, int n, int recursive, const char *list,
		 struct xq_diag *d)
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
	struct xq_diag d;
	char *path;
	int in_dir, rc;
	int64_t total = 0;

	if (from->list || from->defaulted)
		return -1;
	inputs_init(&it, from->operands, from->noperands, from->recursive);
	while ((rc = inputs_next(&it, &path, &in_dir, &d)) != 0) {
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

int source_open(struct source *s, const char *path, const struct xq_format *forced,
		const struct xq_read_opts *ro, const struct xq_sink *sink, struct xq_diag *d)
{
	int rc = source_open_input(s, path, forced, d);

	if (rc == SOURCE_OK)
		rc = source_open_reader(s, ro, sink, d);
	return rc;
}

int source_open_input(struct source *s, const char *path, const struct xq_format *forced,
		      struct xq_diag *d)
{
	const unsigned char *head;
	size_t hlen;
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = xq_input_open(&s->in, path, d)) != 0)
		return rc;
	if ((rc = xq_input_peek(s->in, &head, &hlen, d)) != 0) {
		source_close(s);
		return rc;
	}
	s->fmt = forced;
	if (!s->fmt) {
		/* The registry breaks ties by extension; ".gz" hides it. */
		char name[256];
		size_t len = strlen(path);
		if (len > 3 && len < sizeof(name) && !strcmp(path + len - 3, ".gz")) {
			memcpy(name, path, len - 3);
			name[len - 3] = '\0';
		} else {
			snprintf(name, sizeof(name), "%s", path);
		}
		s->fmt = xq_format_detect(head, hlen, inputs_is_stdin(path) ? NULL : name);
		/* An empty input is recognised by its extension alone, or not at all. */
		if (!s->fmt) {
			xq_diag_set(d, 0, XQ_D_UNSUPPORTED, XQ_SEV_ERROR, "%s",
				    hlen == 0 ? "the input is empty"
					      : "no record format recognises it (name one with --from)");
			source_close(s);
			return SOURCE_UNKNOWN;
		}
	}
	if (!(s->fmt->caps & XQ_CAP_READ) || !s->fmt->open_reader) {
		rc = xq_diag_set(d, XQ_EUNSUPPORTED, XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
				 "xqkit cannot read %s records", s->fmt->name);
		source_close(s);
		return rc;
	}
	return SOURCE_OK;
}

int source_open_reader(struct source *s, const struct xq_read_opts *ro, const struct xq_sink *sink,
		       struct xq_diag *d)
{
	int rc = s->fmt->open_reader(&s->reader, s->in, ro, sink);

	if (rc) {
		xq_diag_set(d, rc, rc == XQ_ENOMEM ? XQ_D_RESOURCE : XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
			    "cannot read '%s' as %s: %s", xq_input_name(s->in), s->fmt->name,
			    xq_strerror(rc));
		s->reader = NULL;
		source_close(s);
		return rc;
	}
	return SOURCE_OK;
}

void source_close(struct source *s)
{
	if (s->reader && s->fmt && s->fmt->close_reader)
		s->fmt->close_reader(s->reader);
	s->reader = NULL;
	xq_input_close(s->in);
	s->in = NULL;
}

const struct xq_format *format_by_name(const char *name, int write, char *msg, size_t cap)
{
	const struct xq_format *f = xq_format_find(name);
	unsigned need = write ? XQ_CAP_WRITE : XQ_CAP_READ;
	size_t used;

	if (f && (f->caps & need))
		return f;
	if (f)
		used = (size_t)snprintf(msg, cap, "xqkit cannot %s %s records; it %s: ",
					write ? "write" : "read", name, write ? "writes" : "reads");
	else
		used = (size_t)snprintf(msg, cap, "unknown format '%s'; xqkit %s: ", name,
					write ? "writes" : "reads");
	for (size_t i = 0, n = 0; xq_formats[i] && used < cap; i++) {
		if (!(xq_formats[i]->caps & need))
			continue;
		used += (size_t)snprintf(msg + used, cap - used, "%s%s", n++ ? ", " : "",
					 xq_formats[i]->name);
	}
	return NULL;
}
