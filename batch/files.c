/*
 * files.c: a file of the batch and what the run keeps about it (its name,
 * its format, its units, its feed), and the segments of a file cut into
 * chunks: made, recognised, freed once no unit of it is left.
 */
#include "batch_int.h"

#include <stdlib.h>
#include <string.h>

static void seg_free(struct seg *s)
{
	free(s->data);
	free(s);
}

/* Drop a reference to `s` (under the feed's lock). */
void xqi_batch_seg_unref(struct seg *s)
{
	if (s && --s->refs == 0)
		seg_free(s);
}

static void feed_free(struct feed *f)
{
	struct seg *s, *next;

	if (!f)
		return;
	if (f->splitter)
		f->ops->close(f->splitter);
	for (s = f->head; s; s = next) {
		next = s->next;
		xqi_batch_seg_unref(s);
	}
	xqi_source_close(&f->src);
	xq_buf_release(&f->carry);
	pthread_cond_destroy(&f->ready);
	pthread_mutex_destroy(&f->seg_mu);
	pthread_mutex_destroy(&f->mu);
	free(f);
}

/* `f` opened as `src`, its format found: what the pool and the commands
 * know of it. */
void xqi_batch_file_recognised(struct xq_batch_file *f, const struct xqi_source *src)
{
	rec_of(f)->fmt = src->fmt;
	f->format = src->fmt->name;
	f->binary = (src->fmt->caps & XQ_FORMAT_BINARY) != 0;
	f->size = xqi_input_size(src->in);
}

void xqi_batch_file_free(struct xq_batch_file *f)
{
	if (!f)
		return;
	feed_free(rec_of(f)->feed);
	free(f->path);
	free(rec_of(f)->name_buf);
	free(f);
}

/* Free `f` once no unit of it is left and none will come (under mu). */
void xqi_batch_file_release_if_done(struct xq_batch_file *f)
{
	struct file_rec *r = rec_of(f);

	if (r->closed && r->passed == r->units && (!r->feed || r->feed->users == 0))
		xqi_batch_file_free(f);
}

struct xq_batch_file *xqi_batch_new_file(uint64_t seq, char *path, int in_dir)
{
	struct file_rec *r = calloc(1, sizeof(*r));
	struct xq_batch_file *f;

	if (!r) {
		free(path);
		return NULL;
	}
	f = &r->f;
	f->path = path;
	f->seq = seq;
	f->in_dir = in_dir;
	f->size = -1;
	f->format = "";
	r->name_buf = strdup(path && is_stdin(path) ? "<stdin>" : path ? path : "");
	if (!r->name_buf) {
		xqi_batch_file_free(f);
		return NULL;
	}
	f->name = r->name_buf;
	return f;
}
