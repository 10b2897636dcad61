/*
 * io.c: readers and writers of the public API (<xq/io.h>): the front door
 * of the library.  An input is opened, its first bytes peeked (through
 * gzip), its format found by the registry's probes (the name's extension,
 * less ".gz", only breaks ties), as the xqkit command does.
 */
#include "internal.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "buf.h"
#include "io.h"
#include "ndjson.h"
#include "source.h"
#include "text.h"
#include "utf8.h"

/* ---- diagnostics ------------------------------------------------------- */

struct api_sink {
	struct xqi_sink sink;
	xq_diagnostic_fn fn;
	void *user;
	uint64_t counts[3];
	xq_record *cur; /* the record being read: told what its reader said */
};

static void sink_report(const struct xq_diagnostic *d, void *payload)
{
	struct api_sink *s = payload;

	if ((unsigned)d->severity < 3)
		s->counts[d->severity]++;
	if (s->cur)
		xqi_record_heard(s->cur, d); /* for xq_record_validate() */
	if (s->fn)
		s->fn(d, s->user);
}

static void sink_init(struct api_sink *s, xq_diagnostic_fn fn, void *user)
{
	memset(s, 0, sizeof(*s));
	s->sink.report = sink_report;
	s->sink.payload = s;
	s->fn = fn;
	s->user = user;
}

/* Report `d` (filled by a failed call) and return `rc`. */
static int tell(struct api_sink *s, const struct xq_diagnostic *d, int rc)
{
	xqi_sink_report(&s->sink, d);
	return rc;
}

/* Report a new error about `source` and return `rc`. */
static int tellf(struct api_sink *s, const char *source, int rc, enum xqi_diagnostic_code code,
		 const char *what, const char *name)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	d.source = source;
	xqi_diagnostic_set(&d, rc, code, XQ_SEVERITY_ERROR, "%s%s%s", what, name ? name : "", name ? "'" : "");
	return tell(s, &d, rc);
}

static char *dup_str(const char *s)
{
	size_t len = strlen(s);
	char *p = malloc(len + 1);

	if (p)
		memcpy(p, s, len + 1);
	return p;
}

/* A copy of `path` without a final ".gz", which hides the extension that
 * names a format; NULL when out of memory. */
/* ---- formats ----------------------------------------------------------- */

int xq_format_info(size_t i, const char **name, const char **description, unsigned *caps)
{
	for (size_t k = 0; xqi_formats[k]; k++) {
		if (k != i)
			continue;
		if (name)
			*name = xqi_formats[k]->name;
		if (description)
			*description = xqi_formats[k]->description;
		if (caps)
			*caps = xqi_formats[k]->caps & (XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI |
						       XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS |
						       XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS |
						       XQ_FORMAT_BINARY | XQ_FORMAT_PRE_COMMENTS);
		return 0;
	}
	return XQ_ENOTFOUND;
}

const char *xq_format_canonical(const char *name)
{
	const struct xqi_format *f = name ? xqi_format_find(name) : NULL;

	return f ? f->name : NULL;
}

/* The writable format called `name`, or NULL. */
static const struct xqi_format *writable(const char *name)
{
	const struct xqi_format *f = name ? xqi_format_find(name) : NULL;

	return f && (f->caps & XQ_FORMAT_WRITES) && f->open_writer ? f : NULL;
}

const char *xq_format_separator(const char *name)
{
	const struct xqi_format *f = writable(name);

	return f ? f->separator : NULL;
}

int xq_format_renumber(const char *name, xq_buf *text, const xq_record *r, uint64_t number,
		       uint64_t line)
{
	const struct xqi_format *f = name ? xqi_format_find(name) : NULL;

	if (!name || !text || !r)
		return XQ_EINVAL;
	if (!f)
		return XQ_ENOTFOUND;
	if (!f->renumber || (number == r->g.number && line == r->g.place.line))
		return 0;
	return f->renumber(text, &r->g, number, line);
}

int xq_format_names(size_t i, const char **extensions, const char **aliases)
{
	for (size_t k = 0; xqi_formats[k]; k++) {
		if (k != i)
			continue;
		if (extensions)
			*extensions = xqi_formats[k]->extensions ? xqi_formats[k]->extensions : "";
		if (aliases)
			*aliases = xqi_formats[k]->aliases ? xqi_formats[k]->aliases : "";
		return 0;
	}
	return XQ_ENOTFOUND;
}

const char *xq_encoding_canonical(const char *name)
{
	enum xqi_encoding e;

	if (!name || xqi_encoding_parse(name, &e) != 0)
		return NULL;
	return xqi_encoding_name(e);
}

/* The options a caller gave, read as far as their `size` says. */
static void read_opts_of(const xq_read_options *in, xq_read_options *out)
{
	xq_read_options def = XQ_READ_OPTIONS_INIT;

	*out = def;
	if (in && in->size)
		memcpy(out, in, in->size < sizeof(*out) ? in->size : sizeof(*out));
	out->size = sizeof(*out);
}

static void write_opts_of(const xq_write_options *in, xq_write_options *out)
{
	xq_write_options def = XQ_WRITE_OPTIONS_INIT;

	*out = def;
	if (in && in->size)
		memcpy(out, in, in->size < sizeof(*out) ? in->size : sizeof(*out));
	out->size = sizeof(*out);
}

/* ---- reading ----------------------------------------------------------- */

struct xq_reader {
	struct api_sink sink;
	struct xqi_input *in;
	const struct xqi_format *fmt; /* NULL: an empty input */
	void *reader;
	struct xqi_read_opts ro;
	uint64_t games;
	int done; /* 0 reading; 1 at the end; <0 the error that ended it */
	char *name;
};

/* libxml2 (the CBF reader) is initialised once, before any thread parses:
 * its own first initialisation is not safe to race. */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

static void xml_init(void)
{
	xmlInitParser();
}

static int reader_start(xq_reader *rd, const char *path, const xq_read_options *opts)
{
	xq_read_options o;
	const struct xqi_format *forced = NULL;
	struct xqi_source src = {rd->in, NULL, NULL};
	struct xq_diagnostic d;
	int rc;

	pthread_once(&xml_once, xml_init);
	read_opts_of(opts, &o);
	if (xqi_source_read_opts(&rd->ro, &o) != 0)
		return tellf(&rd->sink, xqi_input_name(rd->in), XQ_EENCODING, XQI_D_ENCODING,
			     "unknown text encoding '", o.encoding);
	if (o.format && !(forced = xqi_format_find(o.format)))
		return tellf(&rd->sink, xqi_input_name(rd->in), XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED,
			     "unknown format '", o.format);
	/* The library's one front door (formats/source.h). */
	xqi_diagnostic_init(&d);
	rc = xqi_source_find(&src, path, forced, NULL, &d);
	if (rc == XQI_SOURCE_EMPTY)
		return 0; /* no-game when read */
	if (rc == XQI_SOURCE_UNKNOWN)
		return tell(&rd->sink, &d, XQ_EUNSUPPORTED);
	if (rc == XQI_SOURCE_OK)
		rc = xqi_source_open_reader(&src, &rd->ro, &rd->sink.sink, &d);
	rd->fmt = src.fmt;
	rd->reader = src.reader;
	if (rc)
		return tell(&rd->sink, &d, rc); /* (xq_reader_close() closes the input) */
	return 0;
}

static int reader_new(xq_reader **out, xq_diagnostic_fn fn, void *user)
{
	xq_reader *rd = calloc(1, sizeof(*rd));

	*out = NULL;
	if (!rd)
		return XQ_ENOMEM;
	sink_init(&rd->sink, fn, user);
	*out = rd;
	return 0;
}

int xq_reader_open(xq_reader **out, const char *path, const xq_read_options *opts,
		   xq_diagnostic_fn fn, void *user)
{
	xq_reader *rd;
	struct xq_diagnostic d;
	int rc;

	if (!out || !path)
		return XQ_EINVAL;
	*out = NULL;
	if ((rc = reader_new(&rd, fn, user)) != 0)
		return rc;
	xqi_diagnostic_init(&d);
	if ((rc = xqi_input_open(&rd->in, path, &d)) != 0) {
		tell(&rd->sink, &d, rc);
		xq_reader_close(rd);
		return rc;
	}
	if (opts && opts->size > offsetof(xq_read_options, cancel) && opts->cancel)
		xqi_input_set_cancel(rd->in, &opts->cancel->flag);
	if ((rc = reader_start(rd, (path[0] == '-' && !path[1]) ? NULL : path, opts)) != 0) {
		xq_reader_close(rd);
		return rc;
	}
	*out = rd;
	return 0;
}

int xq_reader_open_memory(xq_reader **out, const char *name, const void *data, size_t len,
			  const xq_read_options *opts, xq_diagnostic_fn fn, void *user)
{
	xq_reader *rd;
	int rc;

	if (!out || (!data && len))
		return XQ_EINVAL;
	*out = NULL;
	if ((rc = reader_new(&rd, fn, user)) != 0)
		return rc;
	if (name && !(rd->name = dup_str(name))) {
		xq_reader_close(rd);
		return XQ_ENOMEM;
	}
	if ((rc = xqi_input_open_mem(&rd->in, rd->name ? rd->name : "<memory>", data, len)) != 0 ||
	    (rc = reader_start(rd, rd->name, opts)) != 0) {
		xq_reader_close(rd);
		return rc;
	}
	*out = rd;
	return 0;
}

int xq_reader_next(xq_reader *rd, xq_record **out)
{
	xq_record *r;
	int rc;

	if (!rd || !out)
		return XQ_EINVAL;
	*out = NULL;
	if (rd->done)
		return rd->done < 0 ? rd->done : 0;
	if (!rd->reader) {
		rc = 0; /* an empty input */
	} else {
		if (!(r = xq_record_new()))
			return XQ_ENOMEM;
		rd->sink.cur = r;
		rc = rd->fmt->read(rd->reader, &r->g);
		rd->sink.cur = NULL;
		if (rc == 1) {
			/* The record may outlive the reader: its source name too. */
			if (r->g.source)
				r->g.source = xqi_record_strdup(&r->g, r->g.source, strlen(r->g.source));
			rd->games++;
			*out = r;
			return 1;
		}
		xq_record_free(r);
	}
	if (rc == 0 && rd->games == 0) {
		struct xq_diagnostic d;
		xqi_diagnostic_init(&d);
		d.source = xqi_input_name(rd->in);
		xqi_diagnostic_set(&d, 0, XQI_D_NO_GAME, XQ_SEVERITY_ERROR, "the input holds no game");
		tell(&rd->sink, &d, 0);
	}
	rd->done = rc < 0 ? rc : 1;
	return rc < 0 ? rc : 0;
}

const char *xq_reader_format(const xq_reader *rd)
{
	return rd && rd->fmt ? rd->fmt->name : NULL;
}

int xq_reader_is_gzip(const xq_reader *rd)
{
	return rd && xqi_input_is_gzip(rd->in);
}

uint64_t xq_reader_count(const xq_reader *rd, int severity)
{
	return rd && severity >= 0 && severity < 3 ? rd->sink.counts[severity] : 0;
}

void xq_reader_close(xq_reader *rd)
{
	if (!rd)
		return;
	if (rd->reader && rd->fmt->close_reader)
		rd->fmt->close_reader(rd->reader);
	xqi_input_close(rd->in);
	free(rd->name);
	free(rd);
}

/* ---- bytes --------------------------------------------------------------- */

struct xq_stream {
	struct api_sink sink;
	struct xqi_input *in;
};

int xq_stream_open(xq_stream **out, const char *path, const xq_read_options *opts,
		   xq_diagnostic_fn fn, void *user)
{
	xq_read_options o;
	xq_stream *s;
	const unsigned char *head;
	size_t hlen;
	struct xq_diagnostic d;
	int rc;

	if (!out || !path)
		return XQ_EINVAL;
	*out = NULL;
	if (!(s = calloc(1, sizeof(*s))))
		return XQ_ENOMEM;
	sink_init(&s->sink, fn, user);
	read_opts_of(opts, &o);
	xqi_diagnostic_init(&d);
	if ((rc = xqi_input_open(&s->in, path, &d)) == 0) {
		if (o.cancel)
			xqi_input_set_cancel(s->in, &o.cancel->flag);
		rc = xqi_input_peek(s->in, &head, &hlen, &d);
	}
	if (rc) {
		tell(&s->sink, &d, rc);
		xq_stream_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

long xq_stream_read(xq_stream *s, void *buf, size_t n)
{
	struct xq_diagnostic d;
	long got;

	if (!s || (!buf && n))
		return XQ_EINVAL;
	xqi_diagnostic_init(&d);
	if ((got = xqi_input_read(s->in, buf, n, &d)) < 0)
		tell(&s->sink, &d, (int)got);
	return got;
}

void xq_stream_close(xq_stream *s)
{
	if (!s)
		return;
	xqi_input_close(s->in);
	free(s);
}

/* ---- writing ----------------------------------------------------------- */

struct xq_writer {
	struct api_sink sink;
	const struct xqi_format *fmt;
	struct xq_file *out;
	void *writer;
	struct xq_buf mem; /* a memory writer's bytes */
	int failed;
	int borrowed;      /* `out` is the caller's (xq_writer_open_file()) */
};

/* The format `o` names (or, with `by_name`, that writes files named like
 * `path`) and the options its writer takes: 0, or the refusal said to
 * `sink` about `source` and returned. */
static int writer_opts(struct api_sink *sink, const char *source, const char *path, int by_name,
		       const char *no_format, const xq_write_options *o,
		       const struct xqi_format **fmt, struct xqi_write_opts *wo)
{
	struct xq_diagnostic d;

	*wo = (struct xqi_write_opts)XQI_WRITE_OPTS_INIT;
	if (o->format) {
		*fmt = xqi_format_find(o->format);
		if (!*fmt)
			return tellf(sink, source, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED,
				     "unknown format '", o->format);
	} else if (by_name) {
		/* (The registry looks at the extension before a final ".gz".) */
		*fmt = xqi_format_for_extension(path);
		if (!*fmt)
			return tellf(sink, source, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED,
				     "no format writes files named like '", path);
	} else {
		return tellf(sink, source, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED, no_format, NULL);
	}
	if (!((*fmt)->caps & XQ_FORMAT_WRITES) || !(*fmt)->open_writer) {
		xqi_diagnostic_init(&d);
		d.source = path;
		xqi_diagnostic_set(&d, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
			    "%s records can be read, not written", (*fmt)->name);
		return tell(sink, &d, XQ_EUNSUPPORTED);
	}
	if (o->encoding && xqi_encoding_parse(o->encoding, &wo->encoding) != 0)
		return tellf(sink, source, XQ_EENCODING, XQI_D_ENCODING, "unknown text encoding '",
			     o->encoding);
	if (o->dialect < XQ_DIALECT_AUTO || o->dialect >= XQ_DIALECT_SAN)
		return tellf(sink, source, XQ_EUNSUPPORTED, XQI_D_UNSUPPORTED,
			     "move text cannot be written in that notation", NULL);
	wo->notation = o->dialect;
	wo->notation_flags = o->dialect_flags & (XQ_DIALECT_TRADITIONAL | XQ_DIALECT_ASCII_DIGITS |
						 XQ_DIALECT_UPPER | XQ_DIALECT_DASH | XQ_DIALECT_DPXQ_PAWNS);
	wo->version = o->version;
	return 0;
}

static int writer_start(xq_writer *w, const char *path, xq_file *f, const xq_write_options *opts)
{
	xq_write_options o;
	struct xqi_write_opts wo;
	const char *source = path ? path : "<memory>";
	struct xq_diagnostic d;
	int rc;

	write_opts_of(opts, &o);
	if ((rc = writer_opts(&w->sink, source, path, path && !f,
			      f ? "a writer onto an open file needs a format" : "a memory writer needs a format",
			      &o, &w->fmt, &wo)) != 0)
		return rc;
	xqi_diagnostic_init(&d);
	if (f) {
		w->out = f;
		w->borrowed = 1;
		rc = 0;
	} else if (path)
		rc = xqi_file_open(&w->out, path,
				    o.flags & (XQ_WRITE_FORCE | XQ_WRITE_GZIP | XQ_WRITE_SYNC_REPLACED |
					       XQ_WRITE_NO_SYNC | XQ_WRITE_NAMED_TEMP | XQ_WRITE_NO_LINKS),
				    &d);
	else
		rc = xqi_file_open_mem(&w->out, &w->mem);
	if (rc) {
		w->out = NULL;
		if (d.code == XQI_D_NONE)
			xqi_diagnostic_set(&d, rc, XQI_D_IO, XQ_SEVERITY_ERROR, "cannot write: %s", xqi_strerror(rc));
		return tell(&w->sink, &d, rc);
	}
	rc = w->fmt->open_writer(&w->writer, w->out, &wo, &w->sink.sink);
	if (rc) {
		w->writer = NULL;
		xqi_diagnostic_init(&d);
		d.source = path;
		xqi_diagnostic_set(&d, rc, rc == XQ_ENOMEM ? XQI_D_RESOURCE : XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR,
			    "cannot write %s: %s", w->fmt->name, xqi_strerror(rc));
		return tell(&w->sink, &d, rc);
	}
	return 0;
}

static int writer_open(xq_writer **out, const char *path, xq_file *f,
		       const xq_write_options *opts, xq_diagnostic_fn fn, void *user)
{
	xq_writer *w;
	int rc;

	*out = NULL;
	if (!(w = calloc(1, sizeof(*w))))
		return XQ_ENOMEM;
	sink_init(&w->sink, fn, user);
	xq_buf_init(&w->mem);
	if ((rc = writer_start(w, path, f, opts)) != 0) {
		xq_writer_abort(w);
		return rc;
	}
	*out = w;
	return 0;
}

int xq_writer_open(xq_writer **out, const char *path, const xq_write_options *opts,
		   xq_diagnostic_fn fn, void *user)
{
	if (!out || !path)
		return XQ_EINVAL;
	return writer_open(out, path, NULL, opts, fn, user);
}

int xq_writer_open_memory(xq_writer **out, const xq_write_options *opts, xq_diagnostic_fn fn,
			  void *user)
{
	if (!out || !opts)
		return XQ_EINVAL;
	return writer_open(out, NULL, NULL, opts, fn, user);
}

int xq_writer_open_file(xq_writer **out, xq_file *f, const xq_write_options *opts,
			xq_diagnostic_fn fn, void *user)
{
	if (!out || !f)
		return XQ_EINVAL;
	return writer_open(out, xqi_file_name(f), f, opts, fn, user);
}

int xq_writer_write(xq_writer *w, const xq_record *r)
{
	int rc;

	if (!w || !r)
		return XQ_EINVAL;
	rc = w->fmt->write(w->writer, &r->g);
	if (rc < 0)
		w->failed = rc;
	return rc < 0 ? rc : 0;
}

/* Close the format's writer; 0 or the first failure. */
static int writer_finish(xq_writer *w)
{
	int rc = w->failed;

	if (w->writer) {
		int crc = w->fmt->close_writer(w->writer);
		w->writer = NULL;
		if (!rc && crc < 0)
			rc = crc;
	}
	return rc;
}

int xq_writer_close(xq_writer *w)
{
	struct xq_diagnostic d;
	int rc;

	if (!w)
		return XQ_EINVAL;
	rc = writer_finish(w);
	if (w->borrowed) {
		xq_writer_abort(w);
		return rc;
	}
	if (rc) {
		xq_writer_abort(w);
		return rc;
	}
	xqi_diagnostic_init(&d);
	rc = xqi_file_commit(w->out, &d);
	w->out = NULL;
	if (rc)
		tell(&w->sink, &d, rc);
	xq_writer_abort(w);
	return rc;
}

int xq_writer_close_memory(xq_writer *w, void **data, size_t *len)
{
	int rc;

	if (!w || !data || !len) {
		/* The writer is given up all the same: it is freed in every case. */
		xq_writer_abort(w);
		if (data)
			*data = NULL;
		if (len)
			*len = 0;
		return XQ_EINVAL;
	}
	rc = writer_finish(w);
	*data = NULL;
	*len = 0;
	if (!rc)
		rc = xqi_file_commit(w->out, NULL);
	w->out = NULL;
	if (!rc && xq_buf_error(&w->mem))
		rc = XQ_ENOMEM;
	if (!rc) {
		if (xq_buf_grow(&w->mem, 1) != 0)
			rc = XQ_ENOMEM;
		else
			*data = xq_buf_detach(&w->mem, len);
	}
	xq_writer_abort(w);
	return rc;
}

void xq_writer_abort(xq_writer *w)
{
	if (!w)
		return;
	if (w->writer)
		w->fmt->close_writer(w->writer);
	if (w->out && !w->borrowed)
		xqi_file_abort(w->out);
	xq_buf_release(&w->mem);
	free(w);
}

int xq_record_write_buf(xq_buf *out, const xq_record *r, const xq_write_options *opts,
			xq_diagnostic_fn fn, void *user)
{
	struct api_sink sink;
	xq_write_options o;
	struct xqi_write_opts wo;
	const struct xqi_format *fmt;
	struct xq_file *mem;
	struct xq_diagnostic d;
	void *w;
	uint64_t refused;
	int rc, crc;

	if (!out || !r || !opts)
		return XQ_EINVAL;
	sink_init(&sink, fn, user);
	write_opts_of(opts, &o);
	if ((rc = writer_opts(&sink, "<memory>", NULL, 0, "a record written into memory needs a format",
			      &o, &fmt, &wo)) != 0)
		return rc;
	if ((rc = xqi_file_open_mem(&mem, out)) != 0)
		return rc;
	refused = sink.counts[XQ_SEVERITY_ERROR];
	if ((rc = fmt->open_writer(&w, mem, &wo, &sink.sink)) != 0) {
		/* A writer that refuses its options says why; else it is said here. */
		if (rc != XQ_ENOMEM && sink.counts[XQ_SEVERITY_ERROR] == refused) {
			xqi_diagnostic_init(&d);
			xqi_diagnostic_set(&d, rc, XQI_D_UNSUPPORTED, XQ_SEVERITY_ERROR, "cannot write %s: %s",
				    fmt->name, xqi_strerror(rc));
			tell(&sink, &d, rc);
		}
		xqi_file_abort(mem);
		return rc;
	}
	rc = fmt->write(w, &r->g);
	crc = fmt->close_writer(w);
	xqi_file_commit(mem, NULL);
	if (rc < 0)
		return rc;
	if (crc < 0)
		return crc;
	return xq_buf_error(out) ? XQ_ENOMEM : 0;
}

int xq_buf_add_ndjson_source(xq_buf *b, const char *file, uint64_t game, uint64_t line,
			     int64_t offset)
{
	struct xqi_origin o = {file, game, line, offset < 0 ? 0 : (uint64_t)offset, offset >= 0};

	if (!b)
		return XQ_EINVAL;
	return xqi_ndjson_add_origin(b, &o);
}
