/*
 * dhtmlxq_write.c: the DhtmlXQ writer (see
 * dhtmlxq.c for the format, dhtmlxq_int.h for what the parts share).
 */
#include "dhtmlxq_int.h"

/* Writing. */

struct dh_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	const char *name;
	enum xqi_encoding enc;
	struct xqi_transcoder tc; /* UTF-8 to enc, opened once for the writer */
	uint64_t games;
	struct xq_buf out;      /* the record */
	struct xq_buf comments; /* its comment elements, written after the moves */
	struct xq_buf line, tmp;
};

/* Append UTF-8 `s` to `b` in the writer's encoding, as every writer does
 * (format.h, "Encoding"; `what` names the field). */
static int emit(struct dh_writer *w, struct xq_buf *b, const char *s, size_t len,
		const char *what)
{
	return xqi_write_text(w->sink, w->o, w->games, 0, &w->tc, what, s, len, b, NULL);
}

/* [DhtmlXQ_name]value[/DhtmlXQ_name] into `b`, `value` already in DhtmlXQ form. */
static int element(struct dh_writer *w, struct xq_buf *b, const char *name, const char *value,
		   size_t len, const char *what)
{
	if (xq_buf_addf(b, "[DhtmlXQ_%s]", name))
		return XQ_ENOMEM;
	if (emit(w, b, value, len, what))
		return XQ_ENOMEM;
	return xq_buf_addf(b, "[/DhtmlXQ_%s]\n", name) ? XQ_ENOMEM : 0;
}

/*
 * The element for a tag, or NULL when it has none (`buf` holds 64 bytes):
 * the lower-case name dpxq uses when the reader turns it back into the
 * same tag (RedRating -> redrating), else the tag's own spelling
 * (DateModified), which the reader keeps as it is.
 */
static const char *element_of_tag(const char *tag, char *buf)
{
	size_t len = strlen(tag);
	char back[64];

	for (size_t i = 0; i < xqi_dh_ntags; i++)
		if (!strcmp(tag, xqi_dh_tags[i].tag))
			return xqi_dh_tags[i].element;
	if (len == 0 || len >= 64)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (!xqi_dh_name_char((unsigned char)tag[i]))
			return NULL;
		buf[i] = (char)xq_to_lower((unsigned char)tag[i]);
	}
	buf[len] = '\0';
	if (!strcmp(buf, "binit") || !strcmp(buf, "fen") || !strcmp(buf, "movelist") ||
	    !strcmp(buf, "result") || !strncmp(buf, "move_", 5) || !strncmp(buf, "comment", 7))
		return NULL;
	for (size_t i = 0; i < xqi_dh_ntags; i++)
		if (!strcmp(buf, xqi_dh_tags[i].element))
			return NULL; /* "Place" would read back as Site */
	xqi_dh_capitalise(back, buf, len);
	if (strcmp(back, tag))
		memcpy(buf, tag, len + 1);
	return buf;
}

/* Would "[" at v + i start a tag that ends the element? */
static int opens_tag(const char *v)
{
	return v[0] == '[' && (!strncmp(v + 1, "DhtmlXQ", 7) || !strncmp(v + 1, "/DhtmlXQ", 8));
}

/* A tag value in w->tmp, with any "[DhtmlXQ" defused (it would end the element). */
static int plain_value(struct dh_writer *w, const char *v, const char *tag)
{
	int defused = 0;

	xq_buf_reset(&w->tmp);
	for (size_t i = 0; v[i]; i++) {
		int rc;
		if (opens_tag(v + i)) {
			rc = xq_buf_adds(&w->tmp, "\xEF\xBC\xBB"); /* U+FF3B, a full-width [ */
			defused++;
		} else {
			rc = xq_buf_addc(&w->tmp, v[i]);
		}
		if (rc)
			return XQ_ENOMEM;
	}
	if (defused)
		xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS, "tag %s: '[' before DhtmlXQ written as a full-width '[' (it would end "
			   "the element)",
		     tag);
	return 0;
}

static int is_hex4(const char *s)
{
	for (int k = 0; k < 4; k++)
		if (xqi_hex_value((unsigned char)s[k]) < 0)
			return 0;
	return 1;
}

/*
 * A comment in DhtmlXQ form in w->tmp: newlines as "||"; carriage
 * returns, "||", "\uhhhh" and "[DhtmlXQ" in the text escaped as \u000d,
 * \u007c, \u005c and \u005b so that they read back as written
 * (comment_decode).
 */
static int comment_value(struct dh_writer *w, const char *c)
{
	struct xq_buf *b = &w->tmp;
	size_t len = strlen(c);
	int rc = 0;

	xq_buf_reset(b);
	for (size_t i = 0; i < len && !rc; i++) {
		if (c[i] == '\n') {
			rc = xq_buf_adds(b, "||");
		} else if (c[i] == '\r') {
			rc = xq_buf_adds(b, "\\u000d"); /* "||" is a bare newline */
		} else if (c[i] == '|' && i + 1 < len && c[i + 1] == '|') {
			rc = xq_buf_adds(b, "|\\u007c");
			i++;
		} else if (c[i] == '|' && i + 1 < len && c[i + 1] == '\n') {
			rc = xq_buf_adds(b, "\\u007c"); /* "|||" would read as a newline and a bar */
		} else if (c[i] == '\\' && i + 5 < len && c[i + 1] == 'u' && is_hex4(c + i + 2)) {
			rc = xq_buf_adds(b, "\\u005c");
		} else if (opens_tag(c + i)) {
			rc = xq_buf_adds(b, "\\u005b");
		} else {
			rc = xq_buf_addc(b, c[i]);
		}
	}
	return rc ? XQ_ENOMEM : 0;
}

static int write_comment(struct dh_writer *w, const char *name, const char *comment)
{
	int rc;

	if (!comment || !*comment)
		return 0;
	rc = comment_value(w, comment);
	return rc ? rc : element(w, &w->comments, name, w->tmp.ptr, w->tmp.len, "comment");
}

/* The result word to write, or NULL for none. */
static const char *result_element(const struct xqi_record *g)
{
	enum xqi_result r;

	/* The word as read, when it still says the same. */
	if (g->result_text && *g->result_text) {
		if (xqi_dh_result_word(g->result_text, strlen(g->result_text), g->start.side, &r) == 0 ? r == g->result
										 : g->result == XQI_RESULT_UNKNOWN)
			return g->result_text;
	}
	switch (g->result) {
	case XQI_RESULT_RED_WIN:
		return "红胜";
	case XQI_RESULT_BLACK_WIN:
		return "黑胜";
	case XQI_RESULT_DRAW:
		return "和棋";
	case XQI_RESULT_UNKNOWN:
		return "未知";
	case XQI_RESULT_NONE:
		break;
	}
	return NULL;
}

/* The result element; an unknown word is a value like any other. */
static int write_result(struct dh_writer *w, const char *word)
{
	int rc = plain_value(w, word, "Result");

	return rc ? rc : element(w, &w->out, "result", w->tmp.ptr, w->tmp.len, "result");
}

static int write_tags(struct dh_writer *w, const struct xqi_record *g)
{
	const char *word = result_element(g);
	int rc = 0, result_done = 0;

	for (size_t i = 0; i < g->ntags && !rc; i++) {
		const char *tag = g->tags[i].name, *v = g->tags[i].value, *el;
		char buf[64];
		if (!strcmp(tag, "FEN"))
			continue; /* the start position is written as binit */
		if (!strcmp(tag, "Result")) {
			/* The element says the game's result; a tag saying something else is lost. */
			enum xqi_result r, tr;
			const char *as_read = !word ? "" : xqi_dh_result_word(word, strlen(word), g->start.side, &r) == 0
								  ? xqi_result_string(r) : word;
			/* A tag in other words (红胜) that says the same is the same. */
			int same = xqi_dh_result_word(v, strlen(v), g->start.side, &tr) == 0
					   ? !strcmp(xqi_result_string(tr), as_read)
					   : !strcmp(v, as_read);
			if (!result_done && word)
				rc = write_result(w, word);
			if (*v && (result_done || !same))
				xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS, "tag Result \"%s\" not written: %s", v,
				     result_done ? "the result is written once"
						 : "it is not the game's result");
			result_done = 1;
			continue;
		}
		if (!*v)
			continue;
		el = element_of_tag(tag, buf);
		if (!el) {
			xqi_write_report(w->sink, w->o, w->games, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS, "tag '%s' (\"%s\") has no DhtmlXQ element; not written", tag, v);
			continue;
		}
		rc = plain_value(w, v, tag);
		if (!rc)
			rc = element(w, &w->out, el, w->tmp.ptr, w->tmp.len, tag);
	}
	if (!rc && !result_done && word)
		rc = write_result(w, word);
	return rc;
}

static int write_binit(struct dh_writer *w, const struct xqi_record *g)
{
	/* Identity slots in binit's order R N B A K A B N R C C P P P P P. */
	static const uint8_t order[16] = {7, 5, 3, 1, 0, 2, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15};
	const struct xqi_position *b = &g->start;
	char binit[65];
	int rc;

	for (int side = 0; side < 2; side++)
		for (int i = 0; i < 16; i++) {
			xqi_sq sq = b->pc[XQI_SIDE_TAG(side) + order[i]];
			char *p = binit + side * 32 + i * 2;
			p[0] = sq ? (char)('0' + XQI_SQ_FILE(sq)) : '9';
			p[1] = sq ? (char)('0' + 9 - XQI_SQ_RANK(sq)) : '9';
		}
	binit[64] = '\0';
	rc = element(w, &w->out, "binit", binit, 64, "binit");
	/* DhtmlXQ has red move first unless the first move says otherwise;
	 * with black to move, say it with vschess's FEN element too. */
	if (!rc && b->side == XQI_BLACK) {
		char fen[XQ_FEN_SIZE];
		size_t n = xqi_position_to_fen(b, fen, sizeof(fen));
		rc = element(w, &w->out, "fen", fen, n, "fen");
	}
	return rc;
}

/* A line to write: movelist (id 0) or move_P_S_B. */
struct dh_line {
	uint32_t first, parent_id, ply, id;
};

static int write_tree(struct dh_writer *w, const struct xqi_record *g)
{
	struct dh_line *queue;
	size_t head = 0, tail = 0, cap = 64;
	uint32_t next_id = 1;
	int rc;

	queue = malloc(cap * sizeof(*queue));
	if (!queue)
		return XQ_ENOMEM;
	queue[tail++] = (struct dh_line){g->nodes[XQI_ROOT].child, 0, 1, 0};
	rc = write_comment(w, "comment0", g->nodes[XQI_ROOT].comment);
	/* Breadth first: a branch is written after the line it leaves. */
	while (head < tail && !rc) {
		struct dh_line L = queue[head++];
		uint32_t ply = L.ply;
		char name[48];
		xq_buf_reset(&w->line);
		for (uint32_t n = L.first; n != XQ_NO_NODE && !rc; n = g->nodes[n].child, ply++) {
			const struct xqi_node *x = &g->nodes[n];
			xqi_sq f = XQI_MOVE_FROM(x->move), t = XQI_MOVE_TO(x->move);
			if (xq_buf_addf(&w->line, "%d%d%d%d", XQI_SQ_FILE(f), 9 - XQI_SQ_RANK(f),
					XQI_SQ_FILE(t), 9 - XQI_SQ_RANK(t)))
				rc = XQ_ENOMEM;
			if (L.id == 0)
				snprintf(name, sizeof(name), "comment%u", (unsigned)ply);
			else
				snprintf(name, sizeof(name), "comment%u_%u", (unsigned)L.id,
					 (unsigned)ply);
			if (!rc)
				rc = write_comment(w, name, x->comment);
			/* Alternatives to a branch's first move belong to the line it leaves. */
			if (n == L.first && L.id != 0)
				continue;
			for (uint32_t s = x->sibling; s != XQ_NO_NODE && !rc; s = g->nodes[s].sibling) {
				if (XQ_ALLOC_GROW(queue, tail + 1, cap)) {
					rc = XQ_ENOMEM;
					break;
				}
				queue[tail++] = (struct dh_line){s, L.id, ply, next_id++};
			}
		}
		if (rc)
			break;
		if (L.id == 0)
			snprintf(name, sizeof(name), "movelist");
		else
			snprintf(name, sizeof(name), "move_%u_%u_%u", (unsigned)L.parent_id,
				 (unsigned)L.ply, (unsigned)L.id);
		rc = element(w, &w->out, name, w->line.ptr, w->line.len, "moves");
	}
	free(queue);
	if (!rc && xq_buf_add(&w->out, w->comments.ptr, w->comments.len))
		rc = XQ_ENOMEM;
	xqi_write_losses(w->sink, w->o, w->games, g, XQI_DH_CAPS, 0, "DhtmlXQ");
	return rc;
}

int xqi_dh_write(void *writer, const struct xqi_record *g)
{
	struct dh_writer *w = writer;
	int rc;

	if ((rc = xqi_write_start_check(w->sink, w->o, g, "DhtmlXQ", 0)))
		return rc;
	w->games++;
	xq_buf_reset(&w->out);
	xq_buf_reset(&w->comments);
	rc = xq_buf_adds(&w->out, w->games > 1 ? "\n[DhtmlXQ]\n" : "[DhtmlXQ]\n") ? XQ_ENOMEM : 0;
	if (!rc)
		rc = write_tags(w, g);
	if (!rc)
		rc = write_binit(w, g);
	if (!rc)
		rc = write_tree(w, g);
	if (!rc && xq_buf_adds(&w->out, "[/DhtmlXQ]\n"))
		rc = XQ_ENOMEM;
	if (!rc)
		rc = xqi_file_write(w->o, w->out.ptr, w->out.len);
	/* Only a game written counts (format.h, `separator`). */
	if (rc)
		w->games--;
	return rc;
}

int xqi_dh_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			  const struct xqi_sink *sink)
{
	struct dh_writer *w;

	/* The markup is ASCII, so the text around it is in an encoding that
	 * keeps ASCII as it is: UTF-16 values between ASCII brackets were a
	 * record no reader reads. */
	if (opts && (opts->encoding == XQI_ENC_UTF16LE || opts->encoding == XQI_ENC_UTF16BE))
		return xqi_write_refuse(sink, o,
				       "DhtmlXQ is written in utf-8, gbk, gb18030 or big5, not %s",
				       xqi_encoding_name(opts->encoding));
	if (!(w = calloc(1, sizeof(*w))))
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->name = xqi_file_name(o);
	w->enc = opts && opts->encoding != XQI_ENC_UNKNOWN ? opts->encoding : XQI_ENC_UTF8;
	xqi_transcoder_init(&w->tc, XQI_ENC_UTF8, w->enc);
	xq_buf_init(&w->out);
	xq_buf_init(&w->comments);
	xq_buf_init(&w->line);
	xq_buf_init(&w->tmp);
	*out = w;
	return 0;
}

int xqi_dh_close_writer(void *writer)
{
	struct dh_writer *w = writer;

	xqi_transcoder_release(&w->tc);
	xq_buf_release(&w->out);
	xq_buf_release(&w->comments);
	xq_buf_release(&w->line);
	xq_buf_release(&w->tmp);
	free(w);
	return 0;
}
