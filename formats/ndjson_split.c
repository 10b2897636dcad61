/*
 * ndjson_split.c: an NDJSON input cut for the batch, and the chunk readers
 */
#include "ndjson_int.h"

/* ---- splitting ------------------------------------------------------------ */

/*
 * A record is a line, so an input splits after any line end: the splitter
 * counts the lines that are not blank (as nd_read() skips them) and
 * proposes the start of the line after each record.  A chunk reader is
 * the reader with its line, offset and record count set to the chunk's.
 */
struct nd_split {
	struct xqi_bytes src;
	char buf[CHUNK];
	size_t len, pos;
	uint64_t off;      /* input offset of buf[pos] */
	uint64_t line;     /* the line being scanned */
	size_t line_len;   /* its bytes so far */
	uint64_t records;
	uint64_t run_from; /* offset after the last record: what follows is blank so far */
	int nonblank;      /* the line has a byte that is not white space */
	int bom;           /* line 1 has started with the bytes of a byte order mark so far */
	int eof;
	uint64_t max_line; /* the reader's limit of a line */
};

static int nd_split_open(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	struct nd_split *s = calloc(1, sizeof(*s));

	if (!s)
		return XQ_ENOMEM;
	s->max_line = xqi_format_record_limit(&xqi_format_ndjson, opts);
	s->src = *src;
	s->line = 1;
	s->bom = 1;
	*out = s;
	return 0;
}

static void nd_split_close(void *sp)
{
	free(sp);
}

static int nd_split_next(void *sp, struct xqi_split_point *pt)
{
	static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
	struct nd_split *s = sp;

	/* Every round takes a byte (off) or reads (len - pos): 2 off + len - pos grows. */
	for (uint64_t was = 2 * s->off + (s->len - s->pos) + (uint64_t)s->eof;;
	     XQI_ADVANCED(was, 2 * s->off + (s->len - s->pos) + (uint64_t)s->eof)) {
		unsigned char c;
		/* What the reader stops at (a line XQI_SKIP_MAX past its limit,
		 * blank text over XQI_SKIP_MAX) cannot be split: it is left to the
		 * reader.  A line over the limit, which the reader skips, is a
		 * record all the same. */
		if (s->line_len > s->max_line + XQI_SKIP_MAX ||
		    (!s->nonblank && s->off - s->run_from > XQI_SKIP_MAX))
			return XQ_ERANGE;
		if (s->pos == s->len) {
			struct xq_diagnostic d;
			long n;
			if (s->eof)
				return 0;
			xqi_diagnostic_init(&d);
			n = s->src.read(s->src.ctx, s->buf, CHUNK, &d);
			if (n < 0)
				return (int)n;
			s->eof = n == 0;
			s->len = (size_t)n;
			s->pos = 0;
			continue;
		}
		c = (unsigned char)s->buf[s->pos++];
		s->off++;
		if (c != '\n') {
			/* nd_read(): a byte order mark may start line 1; the rest of
			 * the line is blank when every byte is white space. */
			if (s->line == 1 && s->bom && s->line_len < 3 && c == bom[s->line_len]) {
				s->line_len++;
				continue;
			}
			if (s->line == 1 && s->bom) {
				if (s->line_len < 3 && s->line_len > 0)
					s->nonblank = 1; /* the start of a mark, cut short */
				s->bom = 0;
			}
			if (!xq_is_space(c))
				s->nonblank = 1;
			s->line_len++;
			continue;
		}
		if (s->line == 1 && s->bom && s->line_len > 0 && s->line_len < 3)
			s->nonblank = 1;
		s->line++;
		s->line_len = 0;
		s->bom = 0;
		if (s->nonblank) {
			s->nonblank = 0;
			s->run_from = s->off;
			pt->offset = s->off;
			pt->line = s->line;
			pt->records = ++s->records;
			pt->seen = s->off;
			pt->encoding = XQI_ENC_UTF8;
			pt->first_high = 0;
			return 1;
		}
	}
}

static int nd_open_chunk(void **out, const struct xqi_chunk *c, const struct xqi_read_opts *opts,
			 const struct xqi_sink *sink)
{
	struct nd_reader *r = xqi_nd_new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->src = c->bytes;
	r->name = c->name;
	r->lineno = c->line - 1;
	r->offset = c->offset;
	r->games = c->records;
	*out = r;
	return 0;
}

static int nd_chunk_next(void *reader, struct xqi_place *next)
{
	struct nd_reader *r = reader;

	if (!r->line_ended)
		return 0;
	next->offset = r->offset;
	next->line = r->lineno + 1;
	next->col = 1;
	return 1;
}

const struct xqi_split_ops xqi_ndjson_split = {
	nd_split_open,
	nd_split_next,
	nd_split_close,
	nd_open_chunk,
	nd_chunk_next,
	NULL, /* boundary: NDJSON is cut at line ends, and counting them is cheap */
	NULL,
};
