/*
 * ndjson_write.c: the NDJSON game record writer (doc/ndjson.md)
 */
#include "ndjson_int.h"

/* ---- writing ------------------------------------------------------------- */

struct nd_writer {
	struct xq_file *o;
	const struct xqi_sink *sink; /* borrowed (format.h) */
	struct xqi_write_opts opts;
	const char *derived;  /* member name of the derived move text, or NULL */
	struct xq_buf b;
	unsigned char *levels; /* per open line of the tree being written: LEVEL_* */
	size_t levels_alloc;
};

static int add_member(struct xq_buf *b, const char *name, const char *value)
{
	int rc = xq_buf_addf(b, ",\"%s\":", name);
	return rc ? rc : xq_buf_add_json_string(b, value, strlen(value));
}

/* Write the object of node `n`, played from `before`, up to (not
 * including) its closing brace. */
static int write_move(struct nd_writer *w, const struct xqi_record *g, uint32_t n,
		      struct xqi_position *before)
{
	const struct xqi_node *x = &g->nodes[n];
	struct xq_buf *b = &w->b;
	char iccs[5];
	int rc;

	xqi_move_name(x->move, iccs);
	rc = xq_buf_addf(b, "{\"iccs\":\"%s\"", iccs);
	if (!rc && x->text)
		rc = add_member(b, "text", x->text);
	if (!rc && w->derived) {
		char text[XQ_MOVE_TEXT_SIZE];
		if (xqi_notation_write(text, sizeof(text), before, x->move,
				      (enum xq_dialect)w->opts.notation, w->opts.notation_flags))
			rc = add_member(b, w->derived, text);
	}
	if (!rc && x->pre_comment)
		rc = add_member(b, "pre_comment", x->pre_comment);
	if (!rc && x->comment)
		rc = add_member(b, "comment", x->comment);
	if (!rc && x->nnags) {
		rc = xq_buf_adds(b, ",\"nags\":[");
		for (unsigned i = 0; !rc && i < x->nnags; i++)
			rc = xq_buf_addf(b, "%s%u", i ? "," : "", x->nags[i]);
		if (!rc)
			rc = xq_buf_addc(b, ']');
	}
	return rc;
}

/* What is open in a line being written. */
enum { LEVEL_MOVES = 1, LEVEL_MOVE_OPEN = 2, LEVEL_IN_VARIATIONS = 4 };

/* End the move object left open in a line (and its variations). */
static int close_move(struct xq_buf *b, unsigned char *level)
{
	int rc = 0;

	if (*level & LEVEL_MOVE_OPEN)
		rc = xq_buf_adds(b, *level & LEVEL_IN_VARIATIONS ? "]}" : "}");
	*level &= (unsigned char)~(LEVEL_MOVE_OPEN | LEVEL_IN_VARIATIONS);
	return rc;
}

/*
 * The tree as nested lines: a line is the array of a move and its first
 * children; a move that is the first child of its parent and has later
 * siblings carries them as "variations", each the start of a line.  This
 * is the order of the text walk (record.h, xqi_textwalk): a move, then each
 * alternative to it as a variation, then the move after it, so the walk
 * gives the moves with their positions and only the brackets are kept
 * here, one level per open line.
 */
static int write_tree(struct nd_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->b;
	struct xqi_textwalk t;
	size_t depth = 1;
	int step, rc;

	if ((rc = xq_buf_adds(b, ",\"moves\":[")))
		return rc;
	if (XQ_ALLOC_GROW(w->levels, 1, w->levels_alloc) || xqi_textwalk_init(&t, g))
		return XQ_ENOMEM;
	w->levels[0] = 0;
	while (!rc && (step = xqi_textwalk_next(&t)) > 0) {
		unsigned char *level = &w->levels[depth - 1];
		switch (step) {
		case XQI_TEXT_MOVE:
			rc = close_move(b, level);
			if (!rc && (*level & LEVEL_MOVES))
				rc = xq_buf_addc(b, ',');
			if (!rc)
				rc = write_move(w, g, t.node, &t.before);
			*level |= LEVEL_MOVES | LEVEL_MOVE_OPEN;
			break;
		case XQI_TEXT_OPEN:
			rc = xq_buf_adds(b, *level & LEVEL_IN_VARIATIONS ? ",[" : ",\"variations\":[[");
			*level |= LEVEL_IN_VARIATIONS;
			if (!rc && XQ_ALLOC_GROW(w->levels, depth + 1, w->levels_alloc))
				rc = XQ_ENOMEM;
			if (!rc)
				w->levels[depth++] = 0;
			break;
		case XQI_TEXT_CLOSE:
			rc = close_move(b, level);
			if (!rc)
				rc = xq_buf_addc(b, ']');
			depth--;
			break;
		}
	}
	xqi_textwalk_release(&t);
	if (rc || step < 0)
		return rc ? rc : step;
	rc = close_move(b, &w->levels[0]);
	return rc ? rc : xq_buf_addc(b, ']');
}

/* `sep`, "name": and v in decimal at p; returns the end. */
static char *put_member(char *p, const char *sep, const char *name, uint64_t v)
{
	char digits[20];
	size_t n = 0;

	while (*sep)
		*p++ = *sep++;
	*p++ = '"';
	while (*name)
		*p++ = *name++;
	*p++ = '"';
	*p++ = ':';
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n)
		*p++ = digits[--n];
	return p;
}

/* What follows the file in the "source" of origin `o`: its game, line and
 * offset members (after a comma when `after` is set) and the closing
 * brace, into buf (ORIGIN_TAIL_MAX bytes); returns its length.  No
 * printf: renumber writes it twice a game, on the one thread that emits. */
#define ORIGIN_TAIL_MAX 128
static size_t origin_tail(char *buf, const struct xqi_origin *o, int after)
{
	const char *sep = after ? "," : "";
	char *p = buf;

	if (o->game) {
		p = put_member(p, sep, "game", o->game);
		sep = ",";
	}
	if (o->line) {
		p = put_member(p, sep, "line", o->line);
		sep = ",";
	}
	if (o->has_offset)
		p = put_member(p, sep, "offset", o->offset);
	*p++ = '}';
	*p = '\0';
	return (size_t)(p - buf);
}

#define SOURCE_OPEN "\"source\":{"
#define SOURCE_FILE "\"file\":"

/* The "source" member of origin `o` (ndjson.h). */
int xqi_ndjson_add_origin(struct xq_buf *b, const struct xqi_origin *o)
{
	char tail[ORIGIN_TAIL_MAX];
	size_t n = origin_tail(tail, o, o->file != NULL);
	int rc = xq_buf_adds(b, SOURCE_OPEN);

	if (!rc && o->file) {
		rc = xq_buf_adds(b, SOURCE_FILE);
		if (!rc)
			rc = xq_buf_add_json_string(b, o->file, strlen(o->file));
	}
	return rc ? rc : xq_buf_add(b, tail, n);
}

int xqi_ndjson_add_source(struct xq_buf *b, const struct xqi_record *g)
{
	struct xqi_origin o;

	xqi_record_origin(g, &o);
	return xqi_ndjson_add_origin(b, &o);
}

#define RECORD_HEAD "{\"schema\":\"" NDJSON_SCHEMA "\","

/* Does `s` (up to `end`) start with `lit`?  Then the byte after it. */
static const char *skip_lit(const char *s, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - s) >= n && !memcmp(s, lit, n) ? s + n : NULL;
}

/*
 * format.h, `renumber`: the record's "source" is right after its schema;
 * what follows its file (its game, line and offset) is written again with
 * g's number and line.  In place and with no memory of its own: it runs
 * once a game on the one thread that emits, and the buffer is a worker's
 * (swapping in a buffer of the emitter's made the threads free each
 * other's memory).
 */
int xqi_nd_renumber(struct xq_buf *text, const struct xqi_record *g, uint64_t number, uint64_t line)
{
	char was[ORIGIN_TAIL_MAX], now[ORIGIN_TAIL_MAX];
	const char *p = text->ptr, *end = text->ptr + text->len;
	struct xqi_origin o;
	size_t nw, nn, at;

	/* The origin a record came with holds no number of this reading; a
	 * game with no source has no "source" (nd_format_game). */
	if (g->origin.file || !g->source)
		return 0;
	xqi_record_origin(g, &o);
	nn = origin_tail(now, &o, 1);
	o.game = number;
	o.line = line;
	nw = origin_tail(was, &o, 1);
	if (!(p = skip_lit(p, end, RECORD_HEAD)) || !(p = skip_lit(p, end, SOURCE_OPEN)) ||
	    !(p = skip_lit(p, end, SOURCE_FILE "\"")))
		return XQ_EINTERNAL;
	/* The file's JSON string, as written: to its unescaped quote. */
	while (p < end && *p != '"')
		p += *p == '\\' ? 2 : 1;
	if (p++ >= end)
		return XQ_EINTERNAL;
	if (!skip_lit(p, end, was))
		return XQ_EINTERNAL;
	at = (size_t)(p - text->ptr);
	if (nn > nw && xq_buf_grow(text, nn - nw))
		return XQ_ENOMEM;
	memmove(text->ptr + at + nn, text->ptr + at + nw, text->len - at - nw + 1); /* and the NUL */
	memcpy(text->ptr + at, now, nn);
	text->len = text->len - nw + nn;
	return 0;
}

static int nd_format_game(struct nd_writer *w, const struct xqi_record *g)
{
	struct xq_buf *b = &w->b;
	char fen[XQ_FEN_SIZE];
	const char *start;
	int rc;

	xq_buf_reset(b);
	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	/* The start position is authoritative (record.h), unless the source's
	 * could not be read: then its text as written. */
	xqi_write_start_check(w->sink, w->o, g, "NDJSON", 1);
	start = g->start_text ? g->start_text : fen;
	rc = xq_buf_adds(b, RECORD_HEAD);
	/* Where the game came from, when known (a game built by a program
	 * may have no origin at all). */
	if (!rc && (g->origin.file || g->source)) {
		rc = xqi_ndjson_add_source(b, g);
		if (!rc)
			rc = xq_buf_addc(b, ',');
	}
	if (!rc)
		rc = xq_buf_adds(b, "\"tags\":[");
	for (size_t i = 0; !rc && i < g->ntags; i++) {
		const char *value = g->tags[i].value;
		if (!strcmp(g->tags[i].name, "FEN"))
			value = start;
		rc = xq_buf_adds(b, i ? ",{\"name\":" : "{\"name\":");
		if (!rc)
			rc = xq_buf_add_json_string(b, g->tags[i].name, strlen(g->tags[i].name));
		if (!rc)
			rc = xq_buf_adds(b, ",\"value\":");
		if (!rc)
			rc = xq_buf_add_json_string(b, value, strlen(value));
		if (!rc)
			rc = xq_buf_addc(b, '}');
	}
	if (!rc)
		rc = xq_buf_addc(b, ']');
	if (!rc)
		rc = add_member(b, "fen", start);
	if (!rc)
		rc = g->result == XQI_RESULT_NONE ? xq_buf_adds(b, ",\"result\":null")
						 : add_member(b, "result", xqi_result_string(g->result));
	if (!rc && g->result_text)
		rc = add_member(b, "result_text", g->result_text);
	if (!rc && g->nodes[XQI_ROOT].comment)
		rc = add_member(b, "comment", g->nodes[XQI_ROOT].comment);
	if (!rc)
		rc = write_tree(w, g);
	if (!rc && (g->flags & XQI_RECORD_BROKEN))
		rc = xq_buf_adds(b, ",\"broken\":true");
	if (!rc)
		rc = xq_buf_adds(b, "}\n");
	return rc;
}

int xqi_nd_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		      const struct xqi_sink *sink)
{
	struct nd_writer *w;

	if (opts && opts->encoding != XQI_ENC_UNKNOWN && opts->encoding != XQI_ENC_UTF8)
		return xqi_write_refuse(sink, o,
				       "NDJSON is always UTF-8; it cannot be written in %s",
				       xqi_encoding_name(opts->encoding));
	w = calloc(1, sizeof(*w));
	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	if (opts)
		w->opts = *opts;
	/* Moves also in the notation asked for (ICCS is there already). */
	if (w->opts.notation > XQ_DIALECT_ICCS && w->opts.notation != XQ_DIALECT_SAN)
		w->derived = xqi_notation_name((enum xq_dialect)w->opts.notation);
	xq_buf_init(&w->b);
	/* Room for a typical record at once (3 KB of a 76,000-game PGN): a
	 * writer opened for each game (cmd/output.c on several threads)
	 * otherwise grows its buffer nine times a game. */
	if (xq_buf_grow(&w->b, 4096)) {
		free(w);
		return XQ_ENOMEM;
	}
	*out = w;
	return 0;
}

int xqi_nd_write(void *writer, const struct xqi_record *g)
{
	struct nd_writer *w = writer;
	int rc = nd_format_game(w, g);

	if (rc)
		return rc;
	return xqi_file_write(w->o, w->b.ptr, w->b.len);
}

int xqi_nd_close_writer(void *writer)
{
	struct nd_writer *w = writer;

	if (!w)
		return 0;
	xq_buf_release(&w->b);
	free(w->levels);
	free(w);
	return 0;
}
