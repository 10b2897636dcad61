/*
 * io.h: where record bytes come from and go to.
 *
 * Input: a path, `-` for standard input, or memory; gzip is recognised by
 * its magic bytes (never by the name) and inflated on the fly, including
 * files of several gzip members.  The first bytes can be peeked (to choose
 * a format) without losing them, even on a pipe.
 *
 * Output: `-` for standard output, or a path.  A path is written to a
 * temporary file in the same directory and renamed over the target only by
 * xq_output_commit(), so a failed or interrupted run never leaves a
 * half-written file under the real name; an existing target is refused
 * unless XQ_OUTPUT_FORCE.  A name ending in ".gz" (or XQ_OUTPUT_GZIP) is
 * gzip-compressed.
 */
#ifndef XQ_FORMATS_IO_H
#define XQ_FORMATS_IO_H

#include <stddef.h>
#include <stdint.h>

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
	XQ_OUTPUT_GZIP = 1 << 1   /* compress (also implied by a ".gz" name) */
};

/* Open a path or "-". Returns 0, or an XQ_E* code with the reason in `d`. */
int xq_output_open(struct xq_output **out, const char *path, unsigned flags, struct xq_diag *d);
/* Append everything written to `target` (for tests and --verify). */
int xq_output_open_mem(struct xq_output **out, struct xq_buf *target);
const char *xq_output_name(const struct xq_output *o);
/* Returns 0 or XQ_EIO / XQ_ENOMEM; the error is kept and repeated by commit. */
int xq_output_write(struct xq_output *o, const void *data, size_t len);
/* Finish: flush, close, rename into place.  Frees `o` in every case. */
int xq_output_commit(struct xq_output *o, struct xq_diag *d);
/* Give up: remove the temporary file.  Frees `o`. */
void xq_output_abort(struct xq_output *o);

#endif
