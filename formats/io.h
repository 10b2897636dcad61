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
 * xqi_file_commit(), so a failed or interrupted run never leaves a
 * half-written file under the real name, and an aborted one leaves
 * nothing.  The temporary file has no name at all where the system allows
 * (Linux's O_TMPFILE, named by a link when complete: a new file is then
 * one directory entry, and even a killed process leaves nothing behind);
 * elsewhere, and for a file that replaces another, it has a name of its
 * own (.xqkit-XXXXXXXX) until it takes the real one.  The temporary
 * file is created with mode 0666 less the umask, as any new file; when it replaces a file, it takes that file's mode,
 * owner and group (where the system allows).  An existing file is
 * refused unless XQ_WRITE_FORCE, and so is a symbolic link to a missing
 * file; a symbolic link to a file is kept and the file it names replaced.
 * A character device, FIFO or socket (/dev/null, the pipe of a shell's
 * >(...)) cannot be replaced: it is written directly, with or without
 * XQ_WRITE_FORCE, and never removed; so is an open descriptor named
 * /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N, through a copy
 * of it, whatever it is (a file a shell opened with > stays that file).  A directory or a block
 * device is refused.  A name ending in ".gz" (or XQ_WRITE_GZIP) is
 * gzip-compressed.  A full disk (ENOSPC, EDQUOT) is reported with the
 * code XQI_D_RESOURCE, any other failure with XQI_D_IO.
 */
#ifndef XQI_FORMATS_IO_H
#define XQI_FORMATS_IO_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include <xq/file.h>
#include <xq/io.h>

#include "buf.h"
#include "diagnostic.h"

struct xqi_input;
struct xq_file;

#define XQI_PEEK_SIZE 4096

/* Open a path or "-".  Returns 0, or XQ_EIO with the reason in `d`. */
int xqi_input_open(struct xqi_input **out, const char *path, struct xq_diagnostic *d);
/* Read from memory (borrowed, must outlive the input); `name` for messages. */
int xqi_input_open_mem(struct xqi_input **out, const char *name, const void *data, size_t len);
void xqi_input_close(struct xqi_input *in);

/* The name for diagnostics ("-" reads as "<stdin>"). */
const char *xqi_input_name(const struct xqi_input *in);
/* Was the input gzip-compressed? */
int xqi_input_is_gzip(const struct xqi_input *in);
/* Size in bytes of the file as stored (compressed size for gzip), -1 if unknown. */
int64_t xqi_input_size(const struct xqi_input *in);
/* Bytes of the stored file consumed so far (for progress). */
uint64_t xqi_input_stored_offset(const struct xqi_input *in);

/*
 * Stop reading once `*cancel` is non-zero (a flag the caller sets, from a
 * signal handler or any thread: a lock-free atomic_int is safe for both;
 * NULL: never): every read of the stored bytes looks at it first, and a
 * read from a pipe or terminal waits in steps of 100 ms so that it does
 * too.  A stopped read returns XQ_ECANCELED, which readers
 * pass on, and keeps returning it.
 */
void xqi_input_set_cancel(struct xqi_input *in, const atomic_int *cancel);

/*
 * The first bytes of the (decompressed) content, up to XQI_PEEK_SIZE, without
 * consuming them.  Returns 0, or XQ_EIO with the reason in `d`.
 */
int xqi_input_peek(struct xqi_input *in, const unsigned char **data, size_t *len, struct xq_diagnostic *d);

/* Read up to `n` bytes of content: returns the count, 0 at the end, or a
 * negative XQ_E* code with the reason in `d`. */
long xqi_input_read(struct xqi_input *in, void *buf, size_t n, struct xq_diagnostic *d);

/* Read the rest of the content into `out` (appended).  More than `limit`
 * bytes is an error (XQ_ERANGE). */
int xqi_input_read_all(struct xqi_input *in, struct xq_buf *out, size_t limit, struct xq_diagnostic *d);

/* How a file is written: the public XQ_WRITE_* flags (<xq/io.h>). */

/* What writing a path would do: the public enum xq_file_kind
 * (XQ_FILE_NEW, XQ_FILE_REPLACE, XQ_FILE_DIRECT: <xq/file.h>). */

struct xqi_file_plan {
	enum xq_file_kind kind;
	dev_t dev;         /* XQ_FILE_REPLACE: the file that would be replaced */
	ino_t ino;
	int link;          /* the name is a symbolic link to nothing */
};

/*
 * What xqi_file_open() would do with `path` and `flags`, without creating
 * anything: 0 with `p` filled, or XQ_EIO with the reason in `d` when it
 * would refuse (an existing file without FORCE, a directory, ...).
 */
int xqi_file_plan(struct xqi_file_plan *p, const char *path, unsigned flags, struct xq_diagnostic *d);

/* Open a path or "-". Returns 0, or an XQ_E* code with the reason in `d`. */
int xqi_file_open(struct xq_file **out, const char *path, unsigned flags, struct xq_diagnostic *d);
/* Append everything written to `target` (for tests and --verify). */
int xqi_file_open_mem(struct xq_file **out, struct xq_buf *target);
/* Let the memory output `mem` pass its bytes on to `to`: what its buffer
 * holds now, and then its writes whenever the buffer holds
 * XQI_FILE_PASS_AT bytes, the rest on commit.  0, XQ_EUNSUPPORTED when
 * `mem` is not a memory output, or the failure of writing to `to` (kept
 * by `mem`, whose commit then fails too). */
int xqi_file_pass_to(struct xq_file *mem, struct xq_file *to);
#define XQI_FILE_PASS_AT ((size_t)1 << 16)
const char *xqi_file_name(const struct xq_file *o);
/* Returns 0 or XQ_EIO / XQ_ENOMEM; the error is kept and repeated by commit. */
int xqi_file_write(struct xq_file *o, const void *data, size_t len);
/* Finish: flush, close, put the file in place (without FORCE, only if the
 * name is still free).  Frees `o` in every case. */
int xqi_file_commit(struct xq_file *o, struct xq_diagnostic *d);
/* Give up: remove the temporary file (never anything else).  Frees `o`. */
void xqi_file_abort(struct xq_file *o);
/*
 * Everything written to the file system that holds directory `dir` (the
 * files of XQ_WRITE_SYNC_REPLACED) reaches the disk, and so do the names in
 * `dir`: one syncfs() and an fsync() of the directory (sync() where there
 * is no syncfs).  0, or XQ_EIO with the reason in `d`.
 */
int xqi_file_sync(const char *dir, struct xq_diagnostic *d);

/*
 * A scratch file for what is too big to keep in memory (a writer's
 * index, a sort's runs), open for reading and writing: in $TMPDIR (else
 * /tmp), unnamed where the system allows (O_TMPFILE), else created and
 * unlinked at once, so that it goes with its last descriptor whatever
 * ends the process.  The stream, or NULL with errno set.
 */
FILE *xqi_scratch_open(void);

#endif
