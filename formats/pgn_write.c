/*
 * pgn_write.c: the PGN writer (see pgn.c for the
 * whole, pgn_int.h for what the parts share).
 */
#include "pgn_int.h"

/* ---- the writer ---------------------------------------------------------- */

struct pgn_writer {
	struct xq_file *o;
	const struct xqi_sink *sink;
	enum xq_dialect notation;
	unsigned nflags;
	int own_script;    /* Chinese as the options did not say: each game in its source's script */
	unsigned gflags;   /* nflags for the game being written */
	enum xqi_encoding enc;
	struct xqi_transcoder tc; /* UTF-8 to enc, opened once for the writer */
	struct xq_buf text, conv;
	uint64_t games;
	/* the line being filled */
	unsigned col;
	int glue;          /* the next unit follows "(" without a space */
	size_t last_sep;   /* the space before the last unit, SIZE_MAX at a line start */
	unsigned col_before; /* the column before that space */
	int last_multi;    /* the last unit holds a line break */
};

/* Display columns: CJK and full-width characters take two. */
static unsigned width_of(const char *s, size_t n, unsigned *last)
{
	unsigned w = 0, first = 0;
	int nl = 0;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t k = xq_utf8_decode(s + i, n - i, &cp);
		if (!k)
			k = 1;
		if (cp == '\n') {
			if (!nl)
				first = w;
			nl = 1;
			w = 0;
		} else {
			w += cp >= 0x1100 ? 2 : 1;
		}
		i += k;
	}
	if (last)
		*last = w;
	return nl ? first : w;
}

enum { U_WORD, U_OPEN, U_CLOSE };

/*
 * Add one unit to the move text: a space before it, or a line break when
 * it would pass the width.  "(" sticks to the unit after it and ")" to the
 * unit before it, so that when they do not fit, the unit they stick to
 * goes down to the next line with them: no line ends with "(" and none
 * starts with ")".
 */
static int put_unit(struct pgn_writer *w, const char *s, size_t n, int kind)
{
	unsigned last, first = width_of(s, n, &last);
	int multi = memchr(s, '\n', n) != NULL;
	int joined = kind == U_CLOSE || w->glue; /* part of the unit before it */

	if (w->col > 0 && w->col + (joined ? 0 : 1) + first > XQI_PGN_WIDTH) {
		if (!joined) {
			if (xq_buf_addc(&w->text, '\n'))
				return XQ_ENOMEM;
			w->col = 0;
		} else if (w->last_sep != SIZE_MAX && !w->last_multi) {
			w->text.ptr[w->last_sep] = '\n';
			w->col -= w->col_before + 1;
			w->last_sep = SIZE_MAX;
		}
	}
	if (!joined) {
		w->last_sep = SIZE_MAX;
		w->last_multi = multi;
		if (w->col > 0) {
			w->col_before = w->col;
			if (xq_buf_addc(&w->text, ' '))
				return XQ_ENOMEM;
			w->last_sep = w->text.len - 1;
			w->col++;
		}
	} else if (multi) {
		w->last_multi = 1;
	}
	w->glue = kind == U_OPEN;
	if (xq_buf_add(&w->text, s, n))
		return XQ_ENOMEM;
	w->col = multi ? last : w->col + first;
	return 0;
}

/*
 * Does a PGN reader keep anything of comment `c`?  It drops the white
 * space at both ends of a comment (layout, in PGN: "{ text }"), so a
 * comment of nothing else is gone once read back, and the writer leaves
 * it out (reported) rather than write bytes that read back otherwise.
 */
static int comment_kept(const char *c)
{
	if (c)
		for (; *c; c++)
			if (!xq_is_space((unsigned char)*c))
				return 1;
	return 0;
}

/*
 * A comment unit, after the move number `num` when not NULL, about ply
 * `ply` (0: the game).  What PGN cannot hold is reported and written the
 * way the reader will read it, so that the game read back writes the same
 * bytes again: the white space at either end is left out, a '}' becomes
 * U+FF5D, a CR or CRLF becomes LF (the reader makes every line end LF).
 */
static int put_comment(struct pgn_writer *w, const struct xqi_record *g, uint32_t ply,
		       const char *num, const char *c)
{
	struct xq_buf *b = &w->conv; /* scratch: the unit before it goes to text */
	size_t n = strlen(c), from = 0, to = n;
	int brace = 0, cr = 0;

	while (from < to && xq_is_space((unsigned char)c[from]))
		from++;
	while (to > from && xq_is_space((unsigned char)c[to - 1]))
		to--;
	if (from == to) {
		xqi_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"a comment of only white space is left out (PGN readers drop it)");
		return 0;
	}
	if (from > 0 || to < n)
		xqi_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"the white space at the %s of a comment is left out (PGN readers drop it)",
			from > 0 && to < n ? "start and end" : from > 0 ? "start" : "end");
	xq_buf_reset(b);
	if (num && (xq_buf_adds(b, num) || xq_buf_addc(b, ' ')))
		return XQ_ENOMEM;
	if (xq_buf_addc(b, '{'))
		return XQ_ENOMEM;
	for (size_t i = from; i < to; i++) {
		int rc;
		if (c[i] == '}') {
			/* PGN cannot hold '}' in a comment: the full-width brace stands in. */
			rc = xq_buf_adds(b, "\xEF\xBD\x9D");
			brace = 1;
		} else if (c[i] == '\r') {
			if (i + 1 < to && c[i + 1] == '\n')
				i++;
			rc = xq_buf_addc(b, '\n');
			cr = 1;
		} else {
			rc = xq_buf_addc(b, c[i]);
		}
		if (rc)
			return XQ_ENOMEM;
	}
	if (xq_buf_addc(b, '}'))
		return XQ_ENOMEM;
	if (brace)
		xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"a '}' inside a comment is written as U+FF5D '\xEF\xBD\x9D'");
	if (cr)
		xqi_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"a carriage return in a comment is written as a line feed (PGN readers make "
			"every line end one)");
	/* put_unit copies from `b`, which is not `text`. */
	return put_unit(w, b->ptr, b->len, U_WORD);
}

static int tag_name_ok(const char *name)
{
	if (!*name)
		return 0;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p <= ' ' || *p == '"' || *p == '[' || *p == ']' || *p == 0x7F)
			return 0;
	return 1;
}

static int put_tag(struct pgn_writer *w, const struct xqi_record *g, const char *name,
		   const char *value)
{
	int ctrl = 0;

	if (xq_buf_addc(&w->text, '[') || xq_buf_adds(&w->text, name) || xq_buf_adds(&w->text, " \""))
		return XQ_ENOMEM;
	for (const char *p = value; *p; p++) {
		char c = *p;
		int rc;
		if ((unsigned char)c < 0x20) {
			c = ' ';
			ctrl = 1;
		}
		if (c == '"' || c == '\\')
			rc = xq_buf_addc(&w->text, '\\') || xq_buf_addc(&w->text, c);
		else
			rc = xq_buf_addc(&w->text, c);
		if (rc)
			return XQ_ENOMEM;
	}
	if (ctrl)
		xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"line breaks and control characters in tag %s are written as spaces", name);
	return xq_buf_adds(&w->text, "\"]\n") ? XQ_ENOMEM : 0;
}

static const char *format_value(enum xq_dialect n)
{
	return n == XQ_DIALECT_ICCS ? "ICCS" : n == XQ_DIALECT_WXF ? "WXF" : "Chinese";
}

const char *xqi_pgn_result_tag(const struct xqi_record *g)
{
	const char *value = xqi_record_tag(g, "Result");
	enum xqi_result r;

	if (!value)
		return xqi_result_string(g->result);
	return xqi_result_word(value, strlen(value), g->start.side, &r) < 0 ? "*"
									   : xqi_result_string(r);
}

static int write_tags(struct pgn_writer *w, const struct xqi_record *g)
{
	char fen[XQ_FEN_SIZE];
	const char *start;
	int have_fen = 0, have_format = 0, have_result = 0, rc;

	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	/* `start` is authoritative (record.h), unless the source's could not be
	 * read: then its text as written. */
	xqi_write_start_check(w->sink, w->o, g, "PGN", 1);
	start = g->start_text ? g->start_text : fen;
	if ((rc = put_tag(w, g, "Game", "Chinese Chess")))
		return rc;
	for (size_t i = 0; i < g->ntags; i++) {
		const char *name = g->tags[i].name, *value = g->tags[i].value;
		if (!strcmp(name, "Game")) {
			if (strcmp(value, "Chinese Chess"))
				xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"the Game tag '%s' is written as 'Chinese Chess'", value);
			continue;
		}
		if (!tag_name_ok(name)) {
			xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
				"tag '%s' has a name PGN cannot hold; it is left out", name);
			continue;
		}
		if (!strcmp(name, "FEN")) {
			value = start;
			have_fen = 1;
		} else if (!strcmp(name, "Result")) {
			/* PGN's four always; the result is at the end of the moves
			 * (write_moves), so a tag that disagrees with it still does. */
			enum xqi_result r;
			if (have_result++) {
				xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"a second Result tag ('%s') is left out: a game has one result",
					value);
				continue;
			}
			if (*value && xqi_result_word(value, strlen(value), g->start.side, &r) < 0)
				xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
					"the Result tag '%s' says no result PGN knows; it is written as '*'",
					value);
			value = xqi_pgn_result_tag(g);
		} else if (!strcmp(name, "Format")) {
			value = format_value(w->notation);
			have_format = 1;
		}
		if ((rc = put_tag(w, g, name, value)))
			return rc;
	}
	if (!have_result && (rc = put_tag(w, g, "Result", xqi_pgn_result_tag(g))))
		return rc;
	if (!have_fen && strcmp(start, XQI_START_FEN) && (rc = put_tag(w, g, "FEN", start)))
		return rc;
	if (!have_format && w->notation != XQ_DIALECT_CHINESE &&
	    (rc = put_tag(w, g, "Format", format_value(w->notation))))
		return rc;
	return 0;
}

/* Move `n` of `g`, at ply `ply`, played from `before`. */
static int write_move(struct pgn_writer *w, const struct xqi_record *g, uint32_t n, uint32_t ply,
		      struct xqi_position *before, int *need_number)
{
	const struct xqi_node *node = &g->nodes[n];
	char num[32], mv[XQ_MOVE_TEXT_SIZE], unit[32 + XQ_MOVE_TEXT_SIZE + 2];
	size_t ml;
	int black = before->side == XQI_BLACK, rc;

	num[0] = '\0';
	if (!black || *need_number || comment_kept(node->pre_comment))
		snprintf(num, sizeof(num), black ? "%u..." : "%u.", (unsigned)before->fullmove);
	ml = xqi_notation_write(mv, sizeof(mv), before, node->move, w->notation, w->gflags);
	if (ml == 0) {
		char name[5];
		xqi_move_name(node->move, name);
		return xqi_write_report(w->sink, w->o, g->number, ply, XQ_EINTERNAL, XQ_SEVERITY_ERROR, XQI_D_INTERNAL,
			       "move %s cannot be written in %s notation", name,
			       xqi_notation_name(w->notation));
	}
	if (comment_kept(node->pre_comment)) {
		/* "N. {comment}" stays together: a number never ends a line. */
		if ((rc = put_comment(w, g, ply, num, node->pre_comment)) ||
		    (rc = put_unit(w, mv, ml, U_WORD)))
			return rc;
	} else {
		if (node->pre_comment && *node->pre_comment &&
		    (rc = put_comment(w, g, ply, NULL, node->pre_comment)))
			return rc; /* only white space: reported, nothing written */
		snprintf(unit, sizeof(unit), "%s%s%s", num, *num ? " " : "", mv);
		if ((rc = put_unit(w, unit, strlen(unit), U_WORD)))
			return rc;
	}
	for (unsigned i = 0; i < node->nnags; i++) {
		snprintf(unit, sizeof(unit), "$%u", node->nags[i]);
		if ((rc = put_unit(w, unit, strlen(unit), U_WORD)))
			return rc;
	}
	*need_number = 0;
	if (node->comment && *node->comment) {
		if ((rc = put_comment(w, g, ply, NULL, node->comment)))
			return rc;
		*need_number = comment_kept(node->comment);
	}
	return 0;
}

static int write_moves(struct pgn_writer *w, const struct xqi_record *g)
{
	struct xqi_textwalk t;
	int need_number = 1, rc, step;
	const char *res;

	w->col = 0;
	w->glue = 0;
	w->last_sep = SIZE_MAX;
	w->last_multi = 0;
	if (g->nodes[XQI_ROOT].pre_comment && *g->nodes[XQI_ROOT].pre_comment) {
		/* PGN has one place for a comment before the moves. */
		xqi_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEVERITY_WARNING, XQI_D_LOSS,
			"the comment before the game is written as part of the game comment");
		if ((rc = put_comment(w, g, 0, NULL, g->nodes[XQI_ROOT].pre_comment)))
			return rc;
	}
	if (g->nodes[XQI_ROOT].comment && *g->nodes[XQI_ROOT].comment &&
	    (rc = put_comment(w, g, 0, NULL, g->nodes[XQI_ROOT].comment)))
		return rc;
	if ((rc = xqi_textwalk_init(&t, g)))
		return rc;
	while ((step = xqi_textwalk_next(&t)) > 0) {
		if (step == XQI_TEXT_MOVE)
			rc = write_move(w, g, t.node, t.ply, &t.before, &need_number);
		else
			rc = step == XQI_TEXT_OPEN ? put_unit(w, "(", 1, U_OPEN) : put_unit(w, ")", 1, U_CLOSE);
		if (rc)
			break;
		if (step != XQI_TEXT_MOVE)
			need_number = 1;
	}
	xqi_textwalk_release(&t);
	if (rc || step < 0)
		return rc ? rc : step;
	/* Every game ends with its result, "*" when there is none. */
	res = xqi_result_string(g->result);
	if ((rc = put_unit(w, res, strlen(res), U_WORD)))
		return rc;
	if (w->col > 0 && xq_buf_addc(&w->text, '\n'))
		return XQ_ENOMEM;
	return 0;
}

/* Line and column (1-based, in characters) of byte `off` of `s`. */
static void line_col(const char *s, size_t off, unsigned *line, unsigned *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (s[i] == '\n') {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)s[i] & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

int xqi_pgn_write(void *writer, const struct xqi_record *g)
{
	struct pgn_writer *w = writer;
	const char *out;
	size_t len;
	int rc;

	xq_buf_reset(&w->text);
	w->gflags = w->nflags;
	if (w->own_script && xqi_record_traditional(g))
		w->gflags |= XQ_DIALECT_TRADITIONAL;
	if (w->games > 0 && xq_buf_addc(&w->text, '\n'))
		return XQ_ENOMEM;
	if ((rc = write_tags(w, g)) || (rc = xq_buf_addc(&w->text, '\n')) ||
	    (rc = write_moves(w, g)))
		return rc;
	out = w->text.ptr;
	len = w->text.len;
	if (w->enc != XQI_ENC_UTF8) {
		size_t bad = 0;
		xq_buf_reset(&w->conv);
		rc = xqi_transcoder_convert(&w->tc, w->text.ptr, w->text.len, &w->conv, &bad);
		if (rc == XQ_EENCODING) {
			/* As every writer: '?' for what the encoding cannot hold, and
			 * the loss said, with where the first is in the game's text
			 * (format.h, "Encoding"). */
			char what[80];
			unsigned line, col;
			line_col(w->text.ptr + (w->games > 0), bad - (w->games > 0), &line, &col);
			snprintf(what, sizeof(what), "the game's text from line %u, column %u", line,
				 col);
			xq_buf_reset(&w->conv);
			rc = xqi_write_text(w->sink, w->o, g->number, 0, &w->tc, what, w->text.ptr,
					   w->text.len, &w->conv, NULL);
		}
		if (rc)
			return rc;
		out = w->conv.ptr;
		len = w->conv.len;
	}
	rc = xqi_file_write(w->o, out, len);
	if (rc)
		return xqi_write_report(w->sink, w->o, g->number, 0, rc, XQ_SEVERITY_ERROR, XQI_D_IO, "cannot write to '%s'",
			       xqi_file_name(w->o));
	w->games++;
	return 0;
}

int xqi_pgn_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
			   const struct xqi_sink *sink)
{
	struct xqi_write_opts def = XQI_WRITE_OPTS_INIT;
	struct pgn_writer *w;
	enum xq_dialect n;

	if (!opts)
		opts = &def;
	n = opts->notation == XQ_DIALECT_AUTO ? XQ_DIALECT_CHINESE : (enum xq_dialect)opts->notation;
	if (n != XQ_DIALECT_CHINESE && n != XQ_DIALECT_ICCS && n != XQ_DIALECT_WXF)
		return xqi_write_refuse(sink, o,
				       "PGN move text is written in chinese, iccs or wxf notation, not %s",
				       xqi_notation_name(n));
	/* Any encoding that keeps ASCII as it is (text.h): the tags' and the
	 * move text's syntax is ASCII. */
	if (opts->encoding == XQI_ENC_UTF16LE || opts->encoding == XQI_ENC_UTF16BE)
		return xqi_write_refuse(sink, o,
				       "PGN is written in an encoding that keeps ASCII as it is (utf-8, "
				       "gbk, gb18030, big5, windows-1252, ...), not %s",
				       xqi_encoding_name(opts->encoding));
	w = calloc(1, sizeof(*w));
	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->notation = n;
	w->nflags = opts->notation_flags;
	/* Not named: Chinese, in the script each game's source wrote (Big5
	 * has only the traditional one). */
	w->own_script = opts->notation == XQ_DIALECT_AUTO;
	w->enc = opts->encoding == XQI_ENC_UNKNOWN ? XQI_ENC_UTF8 : opts->encoding;
	/* Big5 has no simplified 车 马 帅: Chinese moves go out in traditional characters. */
	if (w->enc == XQI_ENC_BIG5 && n == XQ_DIALECT_CHINESE)
		w->nflags |= XQ_DIALECT_TRADITIONAL;
	xqi_transcoder_init(&w->tc, XQI_ENC_UTF8, w->enc);
	xq_buf_init(&w->text);
	xq_buf_init(&w->conv);
	*out = w;
	return 0;
}

int xqi_pgn_close_writer(void *writer)
{
	struct pgn_writer *w = writer;

	if (!w)
		return 0;
	xqi_transcoder_release(&w->tc);
	xq_buf_release(&w->text);
	xq_buf_release(&w->conv);
	free(w);
	return 0;
}
