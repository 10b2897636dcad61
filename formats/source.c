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

int xqi_source_find(struct xqi_source *s, const char *name, const struct xqi_format *forced,
		   const char *hint, struct xq_diagnostic *d)
{
	const unsigned char *head;
	size_t hlen;
	int rc;

	s->fmt = NULL;
	if ((rc = xqi_input_peek(s->in, &head, &hlen, d)) != 0)
		return rc;
	s->fmt = forced;
	if (!s->fmt) {
		/* The registry breaks ties by the extension (before a final ".gz"). */
		s->fmt = xqi_format_detect(head, hlen, name);
		/* An empty input is recognised by its extension alone, or not at
		 * all; nothing but white space (all of it peeked) is empty too. */
		if (!s->fmt && hlen < XQI_PEEK_SIZE && only_space(head, hlen)) {
			xqi_source_no_game(d, NULL);
			return XQI_SOURCE_EMPTY;
		}
		if (!s->fmt) {
			d->source = xqi_input_name(s->in);
			xqi_diagnostic_set(d, 0, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR, "no record format recognises it%s",
				    hint ? hint : "");
			return XQI_SOURCE_UNKNOWN;
		}
	}
	if (!(s->fmt->caps & XQ_FORMAT_READS) || !s->fmt->open_reader) {
		d->source = xqi_input_name(s->in);
		return xqi_diagnostic_set(d, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
				   "%s records cannot be read, only written", s->fmt->name);
	}
	return XQI_SOURCE_OK;
}

/* Close `s`, and leave `d` naming no input rather than the name it
 * borrowed from it. */
static void close_unnamed(struct xqi_source *s, struct xq_diagnostic *d)
{
	if (s->in && d->source == xqi_input_name(s->in))
		d->source = NULL;
	xqi_source_close(s);
}

int xqi_source_open_input(struct xqi_source *s, const char *path, const struct xqi_format *forced,
			 const atomic_int *cancel, const char *hint, struct xq_diagnostic *d)
{
	int rc;

	memset(s, 0, sizeof(*s));
	if ((rc = xqi_input_open(&s->in, path, d)) != 0)
		return rc;
	if (cancel)
		xqi_input_set_cancel(s->in, cancel);
	rc = xqi_source_find(s, strcmp(path, "-") ? path : NULL, forced, hint, d);
	if (rc != XQI_SOURCE_OK)
		close_unnamed(s, d);
	return rc;
}

int xqi_source_open_reader(struct xqi_source *s, const struct xqi_read_opts *ro,
			  const struct xqi_sink *sink, struct xq_diagnostic *d)
{
	static const struct xqi_read_opts defaults = XQI_READ_OPTS_INIT;
	int rc = s->fmt->open_reader(&s->reader, s->in, ro ? ro : &defaults, sink);

	if (rc) {
		d->source = xqi_input_name(s->in);
		xqi_diagnostic_set(d, rc, rc == XQ_ENOMEM ? XQI_D_RESOURCE : XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
			    "cannot read it as %s: %s", s->fmt->name, xqi_strerror(rc));
		s->reader = NULL;
		return rc;
	}
	return XQI_SOURCE_OK;
}

int xqi_source_open(struct xqi_source *s, const char *path, const struct xqi_format *forced,
		   const atomic_int *cancel, const char *hint, const struct xqi_read_opts *ro,
		   const struct xqi_sink *sink, struct xq_diagnostic *d)
{
	int rc = xqi_source_open_input(s, path, forced, cancel, hint, d);

	if (rc == XQI_SOURCE_OK && (rc = xqi_source_open_reader(s, ro, sink, d)) != 0)
		close_unnamed(s, d);
	return rc;
}

int xqi_source_read_opts(struct xqi_read_opts *out, const xq_read_options *in)
{
	xq_read_options o = XQ_READ_OPTIONS_INIT;

	if (in && in->size)
		memcpy(&o, in, in->size < sizeof(o) ? in->size : sizeof(o));
	*out = (struct xqi_read_opts)XQI_READ_OPTS_INIT;
	out->uci_ranks = o.uci_ranks ? 1 : 0;
	out->max_memory = o.max_memory;
	out->max_record = o.max_game_size;
	if (o.encoding && xqi_encoding_parse(o.encoding, &out->encoding) != 0)
		return XQ_EENCODING;
	return 0;
}

void xqi_source_close(struct xqi_source *s)
{
	if (s->reader && s->fmt && s->fmt->close_reader)
		s->fmt->close_reader(s->reader);
	s->reader = NULL;
	xqi_input_close(s->in);
	s->in = NULL;
}

void xqi_source_no_game(struct xq_diagnostic *d, const char *name)
{
	xqi_diagnostic_init(d);
	d->source = name;
	xqi_diagnostic_set(d, 0, XQI_D_NO_GAME, XQ_SEVERITY_ERROR, "the input holds no game");
}
