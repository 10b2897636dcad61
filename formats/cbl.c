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

const struct xqi_format xqi_format_cbl = {
	"cbl",
	"CCBridge (象棋桥) library of binary records (read only)",
	".cbl",
	XQ_FORMAT_READS | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS | XQ_FORMAT_BINARY,
	cbl_probe,
	xqi_cbl_open_reader,
	xqi_cbl_read,
	xqi_cbr_close_reader,
	NULL,
	NULL,
	NULL,
	CBL_MAX_RECORD,
	CBL_MEM_FACTOR,
	NULL, /* no alias */
	NULL, /* no writer */
	NULL, /* no number or line in a game's bytes */
};
