/*
 * ndjson.c: game records as newline-delimited JSON, one game per line,
 * schema "xqkit.game/1" (documented in doc/ndjson.md).
 *
 * The point of this format is pipelines: `xqkit convert -t ndjson` turns
 * any collection into lines that jq can filter and edit, and the reader
 * turns them back into games that the other writers accept, losing
 * nothing: tags in order (duplicates too), the start position, the whole
 * move tree with variations, comments before and after moves, NAGs, the
 * result, and each move's text as the source wrote it.
 *
 * A record is read in two passes over its line.  The first, the tree's
 * one JSON reader (lib/json.h), cuts the line into a flat array of JSON
 * tokens (each container knows where it ends, so a value can be skipped
 * in one step) and checks the syntax strictly: UTF-8 only (the decoder
 * has checked it), no raw control characters, escapes and surrogate
 * pairs as RFC 8259 says.  The second walks the tokens to build the game: the
 * start position first (members may come in any order), then the moves,
 * each checked for legality before it is added.  Both passes use explicit
 * stacks, never recursion, because a variation can nest as deep as the
 * tree is long.  A bad line is reported with its line and column and
 * returned as a broken game; the next line starts afresh, so one damaged
 * record never hides the ones after it.
 */
#include "ndjson_int.h"

/* ---- reading lines ------------------------------------------------------- */

/* Bytes read from the input so far. */
static uint64_t nd_bytes_read(const struct nd_reader *r)
{
	return r->offset + (r->buf.len - r->pos);
}

/*
 * Read up to CHUNK more bytes after r->buf's end (not counted in its
 * length).  Returns how many, 0 at the end of the input, or the input's
 * error (reported).
 */
static long read_more(struct nd_reader *r)
{
	struct xq_diagnostic d;
	long n;

	if (xq_buf_grow(&r->buf, CHUNK))
		return XQ_ENOMEM;
	xqi_diagnostic_init(&d);
	n = r->in ? xqi_input_read(r->in, r->buf.ptr + r->buf.len, CHUNK, &d)
		  : r->src.read(r->src.ctx, r->buf.ptr + r->buf.len, CHUNK, &d);
	if (n < 0) {
		if (!d.source)
			d.source = r->name;
		d.game = r->games + 1;
		xqi_sink_report(r->sink, &d);
	}
	return n;
}

/*
 * The line at r->buf.ptr[0] runs past the limit with no line end in the
 * buffer: its bytes are dropped as they come, up to its end, at most
 * XQI_SKIP_MAX of them past the limit.  Returns 2 with the line taken (its
 * place set, r->len 0), 3 when it goes on past that (read no further), or
 * the input's error.
 */
static int skip_long_line(struct nd_reader *r)
{
	uint64_t start = r->offset, skipped = 0;
	char *nl = NULL;

	r->lineno++;
	r->line_offset = start;
	r->len = 0;
	/* Every round drops the bytes read, or meets the end. */
	for (uint64_t was = r->offset;; XQI_ADVANCED(was, r->offset)) {
		long n;
		nl = memchr(r->buf.ptr, '\n', r->buf.len);
		if (nl)
			break;
		r->offset += r->buf.len;
		skipped += r->buf.len;
		xq_buf_reset(&r->buf);
		if (skipped > r->max_line + XQI_SKIP_MAX)
			return 3;
		if ((n = read_more(r)) < 0)
			return (int)n;
		if (n == 0) {
			r->eof = 1;
			r->line_ended = 0;
			r->pos = 0;
			return 2;
		}
		r->buf.len = (size_t)n;
		r->buf.ptr[r->buf.len] = '\0';
	}
	r->pos = (size_t)(nl - r->buf.ptr) + 1;
	r->offset += r->pos;
	r->line_ended = 1;
	return 2;
}

/*
 * The next line in r->line/r->len (without the newline).  Returns 1, 0 at
 * the end of the input, or a negative code (reported).  A line over the
 * limit returns 2, with no more of the input read: it may never end.
 */
static int next_line(struct nd_reader *r)
{
	size_t scan = r->pos;

	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = nd_bytes_read(r) + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, nd_bytes_read(r) + (uint64_t)r->eof)) {
		char *nl = memchr(r->buf.ptr + scan, '\n', r->buf.len - scan);
		long n;
		if (nl || (r->eof && r->pos < r->buf.len)) {
			size_t end = nl ? (size_t)(nl - r->buf.ptr) : r->buf.len;
			r->lineno++;
			r->line = r->buf.ptr + r->pos;
			r->len = end - r->pos;
			r->line_offset = r->offset;
			r->offset += end - r->pos + (nl ? 1 : 0);
			r->line_ended = nl != NULL;
			r->pos = end + (nl ? 1 : 0);
			if (r->len > r->max_line) {
				r->len = 0; /* the record is skipped */
				return 2;
			}
			return 1;
		}
		if (r->eof)
			return 0;
		scan = r->buf.len;
		/* Drop what was consumed before growing. */
		if (r->pos > 0) {
			memmove(r->buf.ptr, r->buf.ptr + r->pos, r->buf.len - r->pos);
			scan -= r->pos;
			xq_buf_truncate(&r->buf, r->buf.len - r->pos);
			r->pos = 0;
		}
		if (r->buf.len > r->max_line)
			return skip_long_line(r); /* over the limit: skipped */
		if ((n = read_more(r)) < 0)
			return (int)n;
		if (n == 0) {
			r->eof = 1;
			continue;
		}
		r->buf.len += (size_t)n;
		r->buf.ptr[r->buf.len] = '\0';
	}
}

struct nd_reader *xqi_nd_new_reader(const struct xqi_read_opts *opts, const struct xqi_sink *sink)
{
	struct nd_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	if (opts)
		r->opts = *opts;
	r->max_line = (size_t)xqi_format_record_limit(&xqi_format_ndjson, opts);
	r->sink = sink;
	xq_buf_init(&r->buf);
	xq_buf_init(&r->scratch);
	if (xqi_textdec_init(&r->td, XQI_ENC_UTF8, XQI_TEXTDEC_BAD_EVENTS, 0, 0)) {
		xq_buf_release(&r->buf);
		xq_buf_release(&r->scratch);
		free(r);
		return NULL;
	}
	return r;
}

static int nd_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			  const struct xqi_sink *sink)
{
	struct nd_reader *r = xqi_nd_new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->name = xqi_input_name(in);
	*out = r;
	return 0;
}

/*
 * The first of the decoder's events (bytes that are not UTF-8, NULs) that
 * is not inside a JSON string of the line, or NULL when every one is.
 */
static const struct xqi_textdec_event *outside_strings(struct nd_reader *r)
{
	const struct xqi_textdec *d = &r->td;
	size_t i = 0, e = d->ev_first;
	int in = 0;

	/* Events come in the order of their places: one pass over the line. */
	while (e < d->nevents) {
		size_t at = (size_t)(d->events[e].raw - r->line_offset);
		for (; i < at && i < r->len; i++) {
			if (r->line[i] == '"')
				in = !in;
			else if (in && r->line[i] == '\\')
				i++;
		}
		if (!in || d->events[e].byte == 0)
			return &d->events[e];
		e++;
	}
	return NULL;
}

/*
 * Whether the line just read, from byte `skip`, is blank: 0 when it is
 * not; 1 when it is and reading goes on; XQ_ERANGE when the blank lines
 * since `blank_from` (line `blank_line`) run past XQI_SKIP_MAX (reported).
 */
static int blank_run(struct nd_reader *r, int rc, size_t skip, uint64_t blank_from, uint32_t blank_line)
{
	size_t i = skip;
	while (i < r->len && xq_is_space((unsigned char)r->line[i]))
		i++;
	if (i == r->len && rc == 1) {
		/* Blank lines separate nothing; a run of them
		 * longer than XQI_SKIP_MAX is the end. */
		if (r->offset - blank_from <= XQI_SKIP_MAX)
			return 1;
		xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_RESOURCE, 0, 0, NULL,
			     "more than %llu MiB of blank lines since line %u and no "
			     "record; the rest of the input is not read",
			     (unsigned long long)(XQI_SKIP_MAX >> 20), (unsigned)blank_line);
		return XQ_ERANGE;
	}
	return 0;
}

/* `g` cleared and numbered as the record of the line just read. */
static void start_record(struct nd_reader *r, struct xqi_record *g)
{
	r->games++;
	r->g = g;
	r->bad = 0;
	xqi_record_clear(g);
	g->number = r->games;
	g->source = r->name;
	g->place.line = r->lineno;
	g->place.col = 1;
	g->place.offset = r->line_offset;
	g->encoding = "utf-8";
}

/*
 * The record over the limit (next_line() returned `rc`, 2 or more): it is
 * skipped (broken, with nothing read) and the next line is read (1),
 * unless the line went on past what may be skipped (XQ_ERANGE).
 */
static int over_limit(struct nd_reader *r, int rc)
{
	struct xq_diagnostic d;
	xqi_diagnostic_init(&d);
	r->line = "";
	xqi_format_limit_diag_then(&d, &xqi_format_ndjson, &r->opts, "the record",
				  rc == 2 ? "it is skipped and reading goes on at the "
					    "next line"
					  : "it is skipped, and more than 16 MiB after "
					    "the limit had no line end: the rest of the "
					    "input is not read");
	xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_RESOURCE, 0, 0, NULL, "%s", d.msg);
	return rc == 2 ? 1 : XQ_ERANGE;
}

/*
 * NDJSON is UTF-8, whatever the bytes look like: the decoder reads the
 * line in place and finds what is not text.  0 when the record can be
 * read; 1 when it cannot (reported); a negative code.
 */
static int check_bytes(struct nd_reader *r)
{
	struct xqi_textdec *d = &r->td;
	long used;
	d->dpos = d->raw = r->line_offset;
	d->ev_first = d->nevents = 0;
	used = xqi_textdec_feed(d, r->line, r->len, 1, NULL);
	if (used < 0)
		return (int)used;
	r->bad_bytes = 0;
	if (d->nevents) {
		/* Inside strings such bytes are confined to the text
		 * that holds them (xqi_nd_decode_string()); anywhere else the
		 * record cannot be read. */
		const struct xqi_textdec_event *e = outside_strings(r);
		char msg[160];
		if (e) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING,
			       (size_t)(e->raw - r->line_offset), 0, NULL, "%s",
			       xqi_textdec_bad_message(msg, sizeof(msg), e->byte, e->enc,
						      e->raw));
			return 1;
		}
		r->bad_bytes = 1;
	}
	return 0;
}

static int read_record(struct nd_reader *r, struct xqi_record *g)
{
	uint64_t blank_from = r->offset;
	uint32_t blank_line = r->lineno + 1;

	/* Every round takes a line. */
	for (uint64_t was = r->offset + (uint64_t)r->eof;;
	     XQI_ADVANCED(was, r->offset + (uint64_t)r->eof)) {
		int rc = next_line(r);
		size_t skip = 0;
		if (rc <= 0)
			return rc;
		/* A UTF-8 byte order mark may start the input. */
		if (r->lineno == 1 && r->len >= 3 && !memcmp(r->line, "\xEF\xBB\xBF", 3))
			skip = 3;
		{
			int blank = blank_run(r, rc, skip, blank_from, blank_line);
			if (blank == 1)
				continue;
			if (blank)
				return blank;
		}
		start_record(r, g);
		if (rc >= 2)
			return over_limit(r, rc);
		if ((rc = check_bytes(r)) != 0)
			return rc;
		/* Columns and offsets count from the line start, BOM included. */
		if (skip) {
			r->line += skip;
			r->len -= skip;
			r->line_offset += skip;
		}
		rc = xqi_json_parse_utf8(&r->json, r->line, r->len);
		if (rc == XQ_ENOMEM)
			return rc;
		if (rc)
			xqi_nd_report(r, XQ_SEVERITY_ERROR, rc == XQ_EENCODING ? XQI_D_ENCODING : XQI_D_SYNTAX,
				     r->json.err_at, 0, NULL, "%s", r->json.err_msg);
		if (rc == 0 && (rc = xqi_nd_build_game(r)) == XQ_ENOMEM)
			return rc;
		r->g = NULL;
		return 1;
	}
}

static int nd_read(void *reader, struct xqi_record *g)
{
	struct nd_reader *r = reader;

	return xqi_read_guard(&r->guard, read_record(r, g), r->offset, g, r->sink);
}

static void nd_close_reader(void *reader)
{
	struct nd_reader *r = reader;

	if (!r)
		return;
	xq_buf_release(&r->buf);
	xq_buf_release(&r->scratch);
	xqi_textdec_release(&r->td);
	xqi_json_release(&r->json);
	free(r->frames);
	free(r);
}

const struct xqi_format xqi_format_ndjson = {
	"ndjson",
	"game records as JSON, one per line (schema " NDJSON_SCHEMA ", see doc/ndjson.md)",
	".ndjson .jsonl",
	XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS |
		XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS,
	xqi_nd_probe,
	nd_open_reader,
	nd_read,
	nd_close_reader,
	xqi_nd_open_writer,
	xqi_nd_write,
	xqi_nd_close_writer,
	ND_MAX_RECORD,
	ND_MEM_FACTOR,
	NULL, /* no alias */
	"",   /* one line per game, nothing between */
	xqi_nd_renumber,
};
