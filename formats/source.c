/*
 * source.c: an input opened, its format found, its reader opened (see
 * source.h).
 */
#include "source.h"

#include <string.h>

#include "utf8.h"

static int only_space(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!xq_is_space(p[i]))
			return 0;
	return 1;
}

int xq_source_find(struct xq_source *s, const char *name, const struct xq_format *forced,
		   const char *hint, struct xq_diag *d)
{
	const unsigned char *head;
	size_t hlen;
	int rc;

	s->fmt = NULL;
	if ((rc = xq_input_peek(s->in, &head, &hlen, d)) != 0)
		return rc;
	s->fmt = forced;
	if (!s->fmt) {
		/* The registry breaks ties by the extension (before a final ".gz"). */
		s->fmt = xq_format_detect(head, hlen, name);
		/* An empty input is recognised by its extension alone, or not at
		 * all; nothing but white space (all of it peeked) is empty too. */
		if (!s->fmt && hlen < XQ_PEEK_SIZE && only_space(head, hlen)) {
			xq_source_no_game(d, NULL);
			return XQ_SOURCE_EMPTY;
		}
		if (!s->fmt) {
			d->source = xq_input_name(s->in);
			xq_diag_set(d, 0, XQ_D_UNSUPPORTED, XQ_SEV_ERROR, "no record format recognises it%s",
				    hint ? hint : "");
			return XQ_SOURCE_UNKNOWN;
		}
	}
	if (!(s->fmt->caps & XQ_CAP_READ) || !s->fmt->open_reader) {
		d->source = xq_input_name(s->in);
		return xq_diag_set(d, XQ_EUNSUPPORTED, XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
				   "%s records cannot be read, only written", s->fmt->name);
	}
	return XQ_SOURCE_OK;
}

/* Close `s`, and leave `d` naming no input rather than the name it
 * borrowed from it. */
static void close_unnamed(struct xq_source *s, struct xq_diag *d)
{
	if (s->in && d->source == xq_input_name(s->in))
		d->source = NULL;
	xq_source_close(s);
}

int xq_source_open_input(struct xq_source *s, const char *path, const struct xq_format *forced,
			 const atomic_int *cancel, const char *hint, struct xq_diag *d)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = xq_input_open(&s->in, path, d)) != 0)
		return rc;
	if (cancel)
		xq_input_set_cancel(s->in, cancel);
	rc = xq_source_find(s, strcmp(path, "-") ? path : NULL, forced, hint, d);
	if (rc != XQ_SOURCE_OK)
		close_unnamed(s, d);
	return rc;
}

int xq_source_open_reader(struct xq_source *s, const struct xq_read_opts *ro,
			  const struct xq_sink *sink, struct xq_diag *d)
{
	static const struct xq_read_opts defaults = XQ_READ_OPTS_INIT;
	int rc = s->fmt->open_reader(&s->reader, s->in, ro ? ro : &defaults, sink);

	if (rc) {
		d->source = xq_input_name(s->in);
		xq_diag_set(d, rc, rc == XQ_ENOMEM ? XQ_D_RESOURCE : XQ_D_UNSUPPORTED, XQ_SEV_ERROR,
			    "cannot read it as %s: %s", s->fmt->name, xq_strerror(rc));
		s->reader = NULL;
		return rc;
	}
	return XQ_SOURCE_OK;
}

int xq_source_open(struct xq_source *s, const char *path, const struct xq_format *forced,
		   const atomic_int *cancel, const char *hint, const struct xq_read_opts *ro,
		   const struct xq_sink *sink, struct xq_diag *d)
{
	int rc = xq_source_open_input(s, path, forced, cancel, hint, d);

	if (rc == XQ_SOURCE_OK && (rc = xq_source_open_reader(s, ro, sink, d)) != 0)
		close_unnamed(s, d);
	return rc;
}

int xq_source_read_opts(struct xq_read_opts *out, const xq_read_options *in)
{
	xq_read_options o = XQ_READ_OPTIONS_INIT;

	if (in && in->size)
		memcpy(&o, in, in->size < sizeof(o) ? in->size : sizeof(o));
	*out = (struct xq_read_opts)XQ_READ_OPTS_INIT;
	out->uci_ranks = o.uci_ranks ? 1 : 0;
	out->max_memory = o.max_memory;
	if (o.encoding && xq_encoding_parse(o.encoding, &out->encoding) != 0)
		return XQ_EENCODING;
	return 0;
}

void xq_source_close(struct xq_source *s)
{
	if (s->reader && s->fmt && s->fmt->close_reader)
		s->fmt->close_reader(s->reader);
	s->reader = NULL;
	xq_input_close(s->in);
	s->in = NULL;
}

void xq_source_no_game(struct xq_diag *d, const char *name)
{
	xq_diag_init(d);
	d->source = name;
	xq_diag_set(d, 0, XQ_D_NO_GAME, XQ_SEV_ERROR, "the input holds no game");
}
