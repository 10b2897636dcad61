/*
 * io.h: where record bytes come from and go to.
 *
 * Input: a path, `-` for standard input, or memory; gzip is recognised by
 * its magic bytes (never by the name) and inflated on the fly, including
 * files of several gzip members.  The first bytes can be peeked (to choose
 * a format) without losing them, even on a pipe.
 *
 * Output: `-` for standard output, or a path.  A regular file is written
 * to a temporary file in the same directory and put in place only by
 * xq_output_commit(), so a failed or interrupted run never leaves a
 * half-written file under the real name, and an aborted one leaves
 * nothing.  The temporary file has no name at all where the system allows
 * (Linux's O_TMPFILE, named by a link when complete: a new file is then
 * one directory entry, and even a killed process leaves nothing behind);
 * elsewhere, and for a file that replaces another, it has a name of its
 * own (.xqkit-XXXXXXXX) until it takes the real one.  The temporary
 * file is created with mode 0666 less the umask, as any new file; when it replaces a file, it takes that file's mode,
 * owner and group (where the system allows).  An existing file is
 * refused unless XQ_OUTPUT_FORCE, and so is a symbolic link to a missing
 * file; a symbolic link to a file is kept and the file it names replaced.
 * A character device, FIFO or socket (/dev/null, the pipe of a shell's
 * >(...)) cannot be replaced: it is written directly, with or without
 * XQ_OUTPUT_FORCE, and never removed; so is an open descriptor named
 * /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N, through a copy
 * of it, whatever it is (a file a shell opened with > stays that file).  A directory or a block
 * device is refused.  A name ending in ".gz" (or XQ_OUTPUT_GZIP) is
 * gzip-compressed.  A full disk (ENOSPC, EDQUOT) is reported with the
 * code XQ_D_RESOURCE, any other failure with XQ_D_IO.
 */
#ifndef XQ_FORMATS_IO_H
#define XQ_FORMATS_IO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "buf.h"
#include "diag.h"

struct xq_input;
struct xq_output;

#define XQ_PEEK_SIZE 4096

/* Open a path or "-".  Returns 0, or XQ_EIO with the reason in `d`. */
int xq_input_open(struct xq_input **out, const char *path, struct xq_diag *d);
/* Read from memory (borrowed, must outlive the input); `name` for messages. */
int xq_input_open_mem(struct xq_input **out, const char *name, const void *data, size_t len);
void xq_input_close(struct xq_input *in);

/* The name for diagnostics ("-" reads as "<stdin>"). */
const char *xq_input_name(const struct xq_input *in);
/* Was the input gzip-compressed? */
int xq_input_is_gzip(const struct xq_input *in);
/* Size in bytes of the file as stored (compressed size for gzip), -1 if unknown. */
int64_t xq_input_size(const struct xq_input *in);
/* Bytes of the stored file consumed so far (for progress). */
uint64_t xq_input_stored_offset(const struct xq_input *in);

/*
 * Stop reading once `*cancel` is non-zero (a flag the caller sets, from a
 * signal handler or any thread: a lock-free atomic_int is safe for both;
 * NULL: never): every read of the stored bytes looks at it first, and a
 * read from a pipe or terminal waits in steps of 100 ms so that it does
 * too.  A stopped read returns XQ_ECANCELED, which readers
 * pass on, and keeps returning it.
 */
void xq_input_set_cancel(struct xq_input *in, const atomic_int *cancel);

/*
 * The first bytes of the (decompressed) content, up to XQ_PEEK_SIZE, without
 * consuming them.  Returns 0, or XQ_EIO with the reason in `d`.
 */
int xq_input_peek(struct xq_input *in, const unsigned char **data, size_t *len, struct xq_diag *d);

/* Read up to `n` bytes of content: returns the count, 0 at the end, or a
 * negative XQ_E* code with the reason in `d`. */
long xq_input_read(struct xq_input *in, void *buf, size_t n, struct xq_diag *d);

/* Read the rest of the content into `out` (appended).  More than `limit`
 * bytes is an error (XQ_ERANGE). */
int xq_input_read_all(struct xq_input *in, struct xq_buf *out, size_t limit, struct xq_diag *d);

enum {
	XQ_OUTPUT_FORCE = 1 << 0, /* replace an existing file */
	XQ_OUTPUT_GZIP = 1 << 1,  /* compress (also implied by a ".gz" name) */
	/* A file's bytes reach the disk (fsync) before it takes its name, so
	 * that a crash leaves the old file or the new one, never an empty
	 * one.  XQ_OUTPUT_SYNC_REPLACED does that only when the file replaces
	 * another (a caller writing many new files syncs them at once with
	 * xq_output_sync()); XQ_OUTPUT_NO_SYNC never. */
	XQ_OUTPUT_SYNC_REPLACED = 1 << 2,
	XQ_OUTPUT_NO_SYNC = 1 << 3,
	/* The temporary file has a name from the start, as on a file system
	 * without O_TMPFILE (for the tests of that way). */
	XQ_OUTPUT_NAMED_TEMP = 1 << 4
};

/* What writing a path would do. */
enum xq_output_kind {
	XQ_OUTPUT_NEW,     /* create a file (the name is free, or a link to nothing with FORCE) */
	XQ_OUTPUT_REPLACE, /* replace the existing file dev/ino (FORCE) */
	XQ_OUTPUT_DIRECT   /* write to standard output, a device, a FIFO or a socket */
};

struct xq_output_plan {
	enum xq_output_kind kind;
	dev_t dev;         /* XQ_OUTPUT_REPLACE: the file that would be replaced */
	ino_t ino;
	int link;          /* the name is a symbolic link to nothing */
};

/*
 * What xq_output_open() would do with `path` and `flags`, without creating
 * anything: 0 with `p` filled, or XQ_EIO with the reason in `d` when it
 * would refuse (an existing file without FORCE, a directory, ...).
 */
int xq_output_plan(struct xq_output_plan *p, const char *path, unsigned flags, struct xq_diag *d);

/* Open a path or "-". Returns 0, or an XQ_E* code with the reason in `d`. */
int xq_output_open(struct xq_output **out, const char *path, unsigned flags, struct xq_diag *d);
/* Append everything written to `target` (for tests and --verify). */
int xq_output_open_mem(struct xq_output **out, struct xq_buf *target);
const char *xq_output_name(const struct xq_output *o);
/* Returns 0 or XQ_EIO / XQ_ENOMEM; the error is kept and repeated by commit. */
int xq_output_write(struct xq_output *o, const void *data, size_t len);
/* Finish: flush, close, put the file in place (without FORCE, only if the
 * name is still free).  Frees `o` in every case. */
int xq_output_commit(struct xq_output *o, struct xq_diag *d);
/* Give up: remove the temporary file (never anything else).  Frees `o`. */
void xq_output_abort(struct xq_output *o);
/*
 * Everything written to the file system that holds directory `dir` (the
 * files of XQ_OUTPUT_SYNC_REPLACED) reaches the disk, and so do the names in
 * `dir`: one syncfs() and an fsync() of the directory (sync() where there
 * is no syncfs).  0, or XQ_EIO with the reason in `d`.
 */
int xq_output_sync(const char *dir, struct xq_diag *d);

#endif
