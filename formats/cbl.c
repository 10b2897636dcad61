/*
 * cbl.c: CBL, the library of CCBridge (象棋桥) records: the reader of
 * both kinds (the zlib one is read by cbl_zlib.c).
 *
 * CBL ("CCBridgeLibrary\0", u32 version 3 at 16).  UTF-16LE library fields:
 * name 64 (512), source 576 (256), creator 832, creator mail 896, created
 * 960, modified 1024 (64 each), remark 1088 (65536).  At 60 a u32 count of
 * index slots; the index follows at 66624, 276 bytes a slot, then the
 * records, each a whole CBR.  What the samples establish of a slot: u32
 * flags (7 in use, 0 free), u32 number, u32 1, u32 the record's size in
 * bytes, u32 0, a GUID string (80 bytes) and the record's title.  The
 * reader finds the records by their magic (vschess's method), and uses the
 * index only to check them: a size or title that disagrees, or flags
 * other than 7, is reported as a note, never acted on.  The library
 * fields become tags of every game (Library, LibrarySource, ...), except
 * the long remark, which only the first game carries (LibraryRemark), so
 * a converted collection keeps it once.
 *
 * Writing: a whole collection as one library, as CCBridge 3 lays one
 * out: the header with the library fields (from the first game's
 * Library... tags), 128 index slots (1,024 past 128 games, 65,536 past
 * 1,024: the sizes CCBridge's own notes give), one slot per record in
 * order (flags 7, its number from 0, 1, its size, 0, its GUID as text,
 * its title), then each record (cbr_write.c) at the start of a 4,096-byte
 * block, its block padded with zeros.  The header and the index come
 * first and depend on every record, so the library is kept in memory
 * until the writer closes (about 4 KB a game).
 */
#include "cbr_int.h"

static int read_library_header(struct cbr_reader *r)
{
	const unsigned char *h = xqi_cbr_window_get(r, 0, 20);
	struct xq_buf text = XQ_BUF_INIT;
	uint32_t version;
	uint64_t records;
	int rc = 0;

	if (h && !memcmp(h, "CCBridge", 8) && xqi_cbr_get_u32(h + 8) == 21)
		return xqi_cbz_open(r, h);
	h = xqi_cbr_window_get(r, 0, 64);
	if (!h || memcmp(h, CBL_MAGIC, 16)) {
		xqi_cbr_report(r, 0, 0, 0, NULL, XQI_D_BAD_MAGIC, XQ_SEVERITY_ERROR,
		       "not a CCBridge library (no \"CCBridgeLibrary\" magic)");
		return r->w.error ? r->w.error : XQ_EPARSE;
	}
	version = xqi_cbr_get_u32(h + 16);
	r->slots = xqi_cbr_get_u32(h + 60);
	if (version != 3)
		xqi_cbr_report(r, 0, 16, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_WARNING,
		       "library version %u (the known files have 3); records are read by their "
		       "magic",
		       (unsigned)version);
	h = xqi_cbr_window_get(r, 0, CBL_INDEX_AT);
	if (!h) {
		xqi_cbr_report(r, 0, 0, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_ERROR,
		       "the library ends inside its %d-byte header", CBL_INDEX_AT);
		return r->w.error ? r->w.error : XQ_ETRUNCATED;
	}
	for (size_t i = 0; xqi_cbl_fields[i].name && !rc; i++) {
		rc = xqi_cbr_utf16_field(r, 0, h + xqi_cbl_fields[i].off, xqi_cbl_fields[i].size,
					xqi_cbl_fields[i].off, &text);
		if (!rc && text.len && !(r->lib_tags[i] = strdup(text.ptr)))
			rc = XQ_ENOMEM;
	}
	xq_buf_release(&text);
	if (rc)
		return rc;
	/* The index: believed only if the records start right after it. */
	records = CBL_INDEX_AT + (uint64_t)r->slots * CBL_SLOT;
	r->pos = CBL_INDEX_AT;
	if (r->slots > 0 && r->slots <= CBL_MAX_SLOTS && (h = xqi_cbr_window_get(r, records, 16)) &&
	    !memcmp(h, CBR_MAGIC, 16)) {
		r->index = calloc(r->slots, sizeof(*r->index));
		if (!r->index)
			return XQ_ENOMEM;
		for (uint32_t i = 0; i < r->slots; i++) {
			const unsigned char *s = xqi_cbr_window_get(r, CBL_INDEX_AT + (uint64_t)i * CBL_SLOT,
							    CBL_SLOT);
			struct slot *e = &r->index[r->nindex];
			if (!xqi_cbr_get_u32(s))
				continue;
			e->flags = xqi_cbr_get_u32(s);
			e->size = xqi_cbr_get_u32(s + 12);
			rc = xqi_cbr_utf16_field(r, 0, s + 100, CBL_SLOT - 100,
					 CBL_INDEX_AT + (uint64_t)i * CBL_SLOT + 100, &text);
			if (!rc && !(e->title = strdup(text.ptr)))
				rc = XQ_ENOMEM;
			if (rc)
				break;
			r->nindex++;
		}
		xq_buf_release(&text);
		r->index_ok = 1;
		r->pos = records;
	} else {
		xqi_cbr_report(r, 0, 60, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
		       "the index area (%u slots) does not lead to the records as in the known "
		       "files; records are found by their magic instead",
		       (unsigned)r->slots);
	}
	xqi_cbr_window_drop(&r->w, r->pos);
	return rc;
}

int xqi_cbl_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
			   const struct xqi_sink *sink)
{
	return xqi_cbr_open_common(out, in, opts, sink, &xqi_format_cbl);
}

/*
 * Offset of the next record magic at or after `from`, or UINT64_MAX at the
 * end; bytes before `keep` stay in the window.  The search stops at
 * `stop` (returned when no magic starts before it), so that the window
 * never holds more than a record's limit.
 */
static uint64_t find_magic(struct cbr_reader *r, uint64_t from, uint64_t keep, uint64_t stop)
{
	for (uint64_t was = from;; XQI_ADVANCED(was, from)) {
		const unsigned char *p = xqi_cbr_window_get(r, from, 16);
		size_t avail;
		if (from >= stop)
			return stop;
		if (!p)
			return UINT64_MAX;
		avail = (size_t)(r->w.base + r->w.len - from);
		for (size_t i = 0; i + 16 <= avail; i++)
			if (p[i] == 'C' && !memcmp(p + i, CBR_MAGIC, 16))
				return from + i < stop ? from + i : stop;
		from += avail - 15;
		xqi_cbr_window_drop(&r->w, from < keep ? from : keep);
		if (xqi_cbr_window_fill(r) <= 0 && !xqi_cbr_window_get(r, from, 16))
			return UINT64_MAX;
	}
}

/* Compare the record just read with its index slot. */
static void check_index(struct cbr_reader *r, const struct xqi_record *g, uint64_t base, uint64_t end)
{
	const struct slot *e;
	const char *title = xqi_record_tag(g, "Title");

	if (!r->index_ok)
		return;
	if (r->next_index >= r->nindex) {
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
		       "record %llu has no slot in the library index (%zu in use); read anyway",
		       (unsigned long long)g->number, r->nindex);
		return;
	}
	e = &r->index[r->next_index++];
	if (e->size != end - base)
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
		       "the library index gives record %llu %u bytes; its move tree ends after %llu",
		       (unsigned long long)g->number, (unsigned)e->size,
		       (unsigned long long)(end - base));
	if (strcmp(e->title, title ? title : ""))
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_CORRUPT, XQ_SEVERITY_NOTE,
		       "the library index titles record %llu '%s', the record says '%s'",
		       (unsigned long long)g->number, e->title, title ? title : "");
	if (e->flags != 7)
		xqi_cbr_report(r, g->number, base, 0, NULL, XQI_D_UNSUPPORTED, XQ_SEVERITY_NOTE,
		       "the index slot of record %llu has flags %u where the others have 7; what "
		       "that means is not known, and the record is read like the rest",
		       (unsigned long long)g->number, (unsigned)e->flags);
}

/* Report bytes between a record's end and `limit` that are not zero padding. */
static void check_gap(struct cbr_reader *r, const struct xqi_record *g, uint64_t end, uint64_t limit)
{
	uint64_t nonzero = 0;

	if (limit == UINT64_MAX || end >= limit)
		return;
	for (uint64_t o = end; o < limit; o++) {
		const unsigned char *p = xqi_cbr_window_get(r, o, 1);
		if (!p)
			break;
		nonzero += *p != 0;
	}
	if (nonzero)
		xqi_cbr_report(r, g->number, end, 0, NULL, XQI_D_TRAILING, XQ_SEVERITY_NOTE,
		       "%llu bytes between the end of record %llu and the next record are not "
		       "read (%llu of them not zero)",
		       (unsigned long long)(limit - end), (unsigned long long)g->number,
		       (unsigned long long)nonzero);
}

static int cbl_next(struct cbr_reader *r, struct xqi_record *g)
{
	uint64_t base, end, limit;
	size_t slot;
	int rc;

	if (r->done)
		return 0;
	if (r->z)
		return xqi_cbz_read(r, g);
	if (r->games == 0 && r->pos == 0) {
		rc = read_library_header(r);
		if (rc) {
			r->done = 1;
			return rc;
		}
		if (r->z)
			return xqi_cbz_read(r, g);
	}
	xqi_cbr_budget_start(r, TASK_SEARCH, r->pos, XQI_SKIP_MAX);
	base = find_magic(r, r->pos, UINT64_MAX, UINT64_MAX);
	if (base == UINT64_MAX) {
		r->done = 1;
		if (r->w.error)
			return r->w.error;
		if (r->index_ok && r->next_index < r->nindex)
			xqi_cbr_report(r, 0, r->w.base + r->w.len, 0, NULL, XQI_D_TRUNCATED, XQ_SEVERITY_WARNING,
			       "the library index lists %zu records; %llu were found",
			       r->nindex, (unsigned long long)r->games);
		if (r->games == 0)
			xqi_cbr_report(r, 0, 0, 0, NULL, XQI_D_EMPTY_GAME, XQ_SEVERITY_WARNING,
			       "the library holds no record");
		return 0;
	}
	xqi_cbr_start_game(r, g);
	/* A record runs at most to the next magic (vschess splits there). */
	xqi_cbr_budget_start(r, TASK_RECORD, base, r->record_limit + 16);
	limit = find_magic(r, base + 16, base,
			   base + r->record_limit < base ? UINT64_MAX : base + r->record_limit);
	if (r->w.error)
		return r->w.error;
	rc = xqi_cbr_read_record(r, g, base, limit, &end);
	if (rc < 0)
		return rc;
	slot = r->next_index;
	check_index(r, g, base, end);
	/* Bytes after the tree are slot padding when the index vouches for the size. */
	if (!(r->index_ok && slot < r->nindex && r->index[slot].size == end - base))
		check_gap(r, g, end, limit);
	rc = xqi_cbr_library_tags(r, g);
	if (rc)
		return rc;
	r->pos = end > base ? end : base + 16;
	xqi_cbr_window_drop(&r->w, r->pos);
	return 1;
}

int xqi_cbl_read(void *reader, struct xqi_record *g)
{
	struct cbr_reader *r = reader;
	int rc = cbl_next(r, g);

	return xqi_read_guard(&r->guard, rc, r->z ? r->z->pos : r->pos, g, r->sink);
}

static int cbl_probe(const unsigned char *head, size_t len)
{
	if (len >= 16 && !memcmp(head, CBL_MAGIC, 16))
		return 100;
	if (len >= 12 && !memcmp(head, "CCBridge", 8) && xqi_cbr_get_u32(head + 8) == 21)
		return 100;
	return 0;
}

/* Writing. */

#define CBL_MAX_GAMES 65536u
#define CBL_BLOCK 4096

struct cbl_entry {
	uint32_t size;              /* the record's bytes */
	unsigned char guid[16];     /* its GUID, as the record holds it */
	unsigned char title[128];   /* its title field, as the record holds it */
};

struct cbl_writer {
	struct cbr_writer w;        /* writes each record */
	struct xq_buf records;      /* the records, back to back */
	struct cbl_entry *entries;
	size_t n, cap;
	char *lib[8];               /* the library fields (xqi_cbl_fields), from the first game */
};

static int cbl_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			   const struct xqi_sink *sink)
{
	struct cbl_writer *c;

	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF16LE)
		return xqi_write_refuse(sink, o, "CBL text is UTF-16LE, not %s",
				       xqi_encoding_name(opts->encoding));
	if (opts && opts->version && opts->version != 3)
		return xqi_write_refuse(sink, o, "CBL is written in version 3 (CCBridge 3), not %d",
				       opts->version);
	if (!(c = calloc(1, sizeof(*c))))
		return XQ_ENOMEM;
	c->w.o = o;
	c->w.sink = sink;
	c->w.format = "CBL";
	c->w.library = 1;
	*out = c;
	return 0;
}

/*
 * The library fields: the first game's Library... tags.  A later game
 * whose tag says otherwise is a loss (a library has one name); the
 * remark only the first game carries, so only a later remark that
 * differs is one.
 */
static int library_fields(struct cbl_writer *c, const struct xqi_record *g)
{
	for (size_t i = 0; xqi_cbl_fields[i].name; i++) {
		const char *v = xqi_record_tag(g, xqi_cbl_fields[i].name);
		if (c->n == 0 && v && *v && !(c->lib[i] = strdup(v)))
			return XQ_ENOMEM;
		if (c->n > 0 && v && *v && strcmp(v, c->lib[i] ? c->lib[i] : ""))
			xqi_write_report(c->w.sink, c->w.o, c->w.games, 0, 0, XQ_SEVERITY_WARNING,
					XQI_D_LOSS,
					"tag %s \"%s\" is not the library's (\"%s\", from the first "
					"game): a CBL library has one; not written",
					xqi_cbl_fields[i].name, v, c->lib[i] ? c->lib[i] : "");
	}
	return 0;
}

static int cbl_write(void *writer, const struct xqi_record *g)
{
	struct cbl_writer *c = writer;
	struct cbl_entry *e;
	int rc;

	c->w.games++;
	if (c->n >= CBL_MAX_GAMES)
		return xqi_write_report(c->w.sink, c->w.o, c->w.games, 0, XQ_EUNSUPPORTED,
				       XQ_SEVERITY_ERROR, XQI_D_LOSS,
				       "a CBL library holds %u records at most; game %llu not written",
				       CBL_MAX_GAMES, (unsigned long long)c->w.games);
	if ((rc = xqi_cbr_write_record(&c->w, g, &c->w.rec)))
		return rc;
	if ((rc = library_fields(c, g)))
		return rc;
	if (XQ_ALLOC_GROW(c->entries, c->n + 1, c->cap) ||
	    xq_buf_add(&c->records, c->w.rec.ptr, c->w.rec.len))
		return XQ_ENOMEM;
	e = &c->entries[c->n++];
	e->size = (uint32_t)c->w.rec.len;
	memcpy(e->guid, c->w.rec.ptr + 20, 16);
	memcpy(e->title, c->w.rec.ptr + 180, 128);
	return 0;
}

/* A GUID as CCBridge's index writes it: "{970110B5-F494-410D-ACA4-26D7C4E37994}". */
static void guid_text(const unsigned char *g, char out[39])
{
	snprintf(out, 39, "{%02X%02X%02X%02X-%02X%02X-%02X%02X-%02X%02X-%02X%02X%02X%02X%02X%02X}",
		 g[3], g[2], g[1], g[0], g[5], g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12],
		 g[13], g[14], g[15]);
}

/* The header (CBL_INDEX_AT bytes) and the index of `slots` slots, into `out`. */
static int cbl_head(struct cbl_writer *c, uint32_t slots, struct xq_buf *out)
{
	size_t len = CBL_INDEX_AT + (size_t)slots * CBL_SLOT;
	unsigned char *h;
	int rc = 0;

	if (xq_buf_grow(out, len))
		return XQ_ENOMEM;
	memset(out->ptr, 0, len);
	out->len = len;
	h = (unsigned char *)out->ptr;
	memcpy(h, CBL_MAGIC, 16);
	h[16] = 3;
	memset(h + 52, 0xFF, 3);
	h[55] = 0x7F;
	for (int i = 0; i < 4; i++)
		h[60 + i] = (unsigned char)(slots >> (8 * i));
	c->w.games = 0; /* what the fields lose is about the library, not a game */
	for (size_t i = 0; xqi_cbl_fields[i].name && !rc; i++) {
		char what[64];
		snprintf(what, sizeof(what), "tag %s", xqi_cbl_fields[i].name);
		if (c->lib[i])
			rc = xqi_cbr_put_text(&c->w, h + xqi_cbl_fields[i].off, xqi_cbl_fields[i].size,
					     what, c->lib[i]);
	}
	for (size_t k = 0; k < c->n && !rc; k++) {
		unsigned char *s = h + CBL_INDEX_AT + k * CBL_SLOT;
		char text[39];
		s[0] = 7;
		for (int i = 0; i < 4; i++) {
			s[4 + i] = (unsigned char)(k >> (8 * i));
			s[12 + i] = (unsigned char)(c->entries[k].size >> (8 * i));
		}
		s[8] = 1;
		guid_text(c->entries[k].guid, text);
		for (int i = 0; i < 38; i++)
			s[20 + 2 * i] = (unsigned char)text[i];
		memcpy(s + 100, c->entries[k].title, 128);
	}
	return rc;
}

/* The library's GUID (bytes 20-35): from its fields and its records' GUIDs. */
static int cbl_guid(struct cbl_writer *c, unsigned char *h)
{
	struct xq_buf all = XQ_BUF_INIT;
	int rc = xq_buf_add(&all, h + 64, CBL_INDEX_AT - 64);

	for (size_t k = 0; k < c->n && !rc; k++)
		rc = xq_buf_add(&all, c->entries[k].guid, 16);
	if (!rc)
		xqi_cbr_guid((const unsigned char *)all.ptr, all.len, h + 20);
	xq_buf_release(&all);
	return rc ? XQ_ENOMEM : 0;
}

static int cbl_close_writer(void *writer)
{
	static const unsigned char zeros[CBL_BLOCK];
	struct cbl_writer *c = writer;
	struct xq_buf head = XQ_BUF_INIT;
	uint32_t slots = c->n <= 128 ? 128 : c->n <= 1024 ? 1024 : CBL_MAX_GAMES;
	size_t at = 0;
	int rc = cbl_head(c, slots, &head);

	if (!rc)
		rc = cbl_guid(c, (unsigned char *)head.ptr);
	if (!rc)
		rc = xqi_file_write(c->w.o, head.ptr, head.len);
	for (size_t k = 0; k < c->n && !rc; k++) {
		size_t size = c->entries[k].size, pad = (CBL_BLOCK - size % CBL_BLOCK) % CBL_BLOCK;
		rc = xqi_file_write(c->w.o, c->records.ptr + at, size);
		if (!rc && pad)
			rc = xqi_file_write(c->w.o, zeros, pad);
		at += size;
	}
	xq_buf_release(&head);
	xq_buf_release(&c->records);
	for (size_t i = 0; i < sizeof(c->lib) / sizeof(c->lib[0]); i++)
		free(c->lib[i]);
	free(c->entries);
	xqi_cbr_writer_release(&c->w);
	free(c);
	return rc;
}

const struct xqi_format xqi_format_cbl = {
	"cbl",
	"CCBridge (象棋桥) library of binary records, plain or compressed; writes a plain one "
	"(version 3) holding every game",
	".cbl",
	XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS |
		XQ_FORMAT_BINARY,
	cbl_probe,
	xqi_cbl_open_reader,
	xqi_cbl_read,
	xqi_cbr_close_reader,
	cbl_open_writer,
	cbl_write,
	cbl_close_writer,
	CBL_MAX_RECORD,
	CBL_MEM_FACTOR,
	NULL, /* no alias */
	NULL, /* no separator: the header and index depend on every game */
	NULL, /* no number or line in a game's bytes */
};
