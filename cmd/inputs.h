/*
 * inputs.h: the record inputs a command was given, and opening one.
 *
 * Operands are files, directories (walked with `recursive`, in byte order
 * of the names, depth first, skipping dot files and symbolic links to
 * directories) and `-` for standard input.  The walk is lazy: only the
 * directories on the current path are held, so a tree of a million files
 * costs no more memory than one of ten.
 *
 * Opening a source peeks at its first bytes (through gzip, transparently)
 * and asks the format registry which format it is, unless one is forced;
 * no command ever names a format.
 */
#ifndef XQ_CMD_INPUTS_H
#define XQ_CMD_INPUTS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "diag.h"
#include "format.h"

struct inputs_dir;

struct inputs {
	char **operands;  /* borrowed from argv */
	int noperands;
	int next;         /* next operand to look at */
	int recursive;
	struct inputs_dir *dirs; /* the directories being walked, outermost first */
	size_t ndirs, dirs_alloc;
	struct { dev_t dev; ino_t ino; } excluded[4]; /* never read these (outputs) */
	int nexcluded;
	int defaulted;    /* no operands: standard input stands in */
	/* --files0-from: more names, NUL-separated, read as they are needed */
	FILE *list;
	const char *list_name;
	int list_is_stdin, list_failed;
	uint64_t list_index; /* names read from the list so far */
	char *list_buf;
	size_t list_cap;
};

/* Start over `n` operands (none means standard input). */
void inputs_init(struct inputs *it, char **operands, int n, int recursive);
void inputs_release(struct inputs *it);

/* Never yield the file or directory at `path` (an output); ignored if it
 * does not exist yet.  At most 4. */
void inputs_exclude(struct inputs *it, const char *path);

/*
 * The next input: returns 1 with a malloc'd `*path` (the caller frees it)
 * and `*in_dir` set when it was found by walking a directory; 0 at the end;
 * -1 when an operand cannot be used (missing, a directory without
 * `recursive`, unreadable directory), with the reason in `d`; carry on
 * after -1 for the next operand.
 */
int inputs_next(struct inputs *it, char **path, int *in_dir, struct xq_diag *d);

/*
 * inputs_init(), and with `list` (--files0-from) more names taken from the
 * file at `list` (`-`: standard input), separated by NUL bytes as `find
 * -print0` writes them, after the operands; with no operands, only those.
 * Each name is then used as an operand would be.  The list is read
 * lazily, so a list of millions of names costs no more memory than one.
 * -1 with the reason in `d` when the list cannot be opened (the inputs
 * are then released).
 */
int inputs_start(struct inputs *it, char **operands, int n, int recursive, const char *list,
		 struct xq_diag *d);

/* Total bytes of the regular files the inputs name (walking directories
 * with `recursive`), for progress; -1 when some size is unknown (standard
 * input, or a list of names, which can be read only once).  Call it before
 * the first inputs_next(). */
int64_t inputs_total_size(const struct inputs *it);

/* Is `path` `-` (standard input)? */
int inputs_is_stdin(const char *path);

/* An opened record source: the input, its format and a reader on it. */
struct source {
	struct xq_input *in;
	const struct xq_format *fmt;
	void *reader;
};

enum {
	SOURCE_OK = 0,
	SOURCE_UNKNOWN = 1 /* no format recognises the content or the name */
};

/*
 * Open `path` (or `-`), find its format (or use `forced`) and open a reader
 * that reports to `sink`.  Returns SOURCE_OK, SOURCE_UNKNOWN (nothing
 * opened; `d` says why), or a negative XQ_E* code with the reason in `d`
 * (the reader may also have sent diagnostics to the sink).
 */
int source_open(struct source *s, const char *path, const struct xq_format *forced,
		const struct xq_read_opts *ro, const struct xq_sink *sink, struct xq_diag *d);
void source_close(struct source *s);

/*
 * source_open() in two steps, for a caller that looks at the input before
 * reading it: open `path` and find its format (no reader yet; the same
 * returns as source_open()), then open the reader on it.  After a failed
 * source_open_reader() the source is closed.
 */
int source_open_input(struct source *s, const char *path, const struct xq_format *forced,
		      struct xq_diag *d);
int source_open_reader(struct source *s, const struct xq_read_opts *ro, const struct xq_sink *sink,
		       struct xq_diag *d);

/* The format called `name` that can read (or write, with `write`), or NULL
 * with a message listing the formats that can, in `msg`. */
const struct xq_format *format_by_name(const char *name, int write, char *msg, size_t cap);

#endif
