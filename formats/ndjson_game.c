/*
 * ndjson_game.c: pass 2 of reading a record: the game built from its tokens
 * (the schema's members, the start, the tags, the move tree), and how a
 * record's problems are reported
 */
#include "ndjson_int.h"

#include <stdarg.h>

/* ---- diagnostics -------------------------------------------------------- */

static void hold_report(const struct xq_diagnostic *d, void *payload)
{
	*(struct xq_diagnostic *)payload = *d;
}

/* Report a problem at byte `at` of the current line (ndjson_int.h): the
 * line reader (ndjson.c) reports through it too. */
void xqi_nd_report(struct nd_reader *r, enum xq_severity_level sev, enum xqi_diagnostic_code code,
		  size_t at, uint32_t ply, const char *move, const char *fmt, ...)
{
	struct xqi_place pl;
	va_list ap;

	if (at > r->len)
		at = r->len;
	if (r->col_line != r->line_offset + 1 || at < r->col_at) {
		r->col_line = r->line_offset + 1;
		r->col_at = 0;
		r->col = 1;
	}
	r->col += (uint32_t)xq_utf8_count(r->line + r->col_at, at - r->col_at);
	r->col_at = at;
	if (sev == XQ_SEVERITY_ERROR && !r->holding) {
		r->bad = 1;
		if (r->g)
			r->g->flags |= XQI_RECORD_BROKEN;
	}
	pl.line = r->lineno;
	pl.col = r->col;
	pl.offset = r->line_offset + at;
	va_start(ap, fmt);
	if (r->holding) {
		struct xqi_sink hold = {hold_report, &r->held};
		xqi_format_vreport(&hold, r->name, r->games, &pl, 1, ply, move,
				  move ? strlen(move) : 0, code, sev, fmt, ap);
	} else {
		xqi_format_vreport(r->sink, r->name, r->games, &pl, 1, ply, move,
				  move ? strlen(move) : 0, code, sev, fmt, ap);
	}
	va_end(ap);
}

/* ---- pass 2: the game ---------------------------------------------------- */

/*
 * String token `t` decoded into r->scratch.  Bytes that are not UTF-8
 * (r->bad_bytes: the line holds some, all inside strings) stay in this
 * string alone, each made U+FFFD (decode.h): r->fixed says how many, and
 * r->fixed_at where the first is in the line.  0 or XQ_ENOMEM.
 */
static int decode_string(struct nd_reader *r, uint32_t t)
{
	const char *raw = r->line + r->json.toks[t].start + 1;
	size_t rawlen = r->json.toks[t].len - 2, bad;
	struct xq_buf fixed = XQ_BUF_INIT;
	long k;

	r->fixed = 0;
	if (xqi_json_decode(&r->json, t, &r->scratch))
		return XQ_ENOMEM;
	if (!r->bad_bytes || (bad = xq_utf8_check(raw, rawlen)) == rawlen)
		return 0;
	/* Escapes decode to UTF-8: the bytes that are not are the raw ones. */
	if ((k = xqi_textdec_repair(&fixed, r->scratch.ptr, r->scratch.len)) < 0) {
		xq_buf_release(&fixed);
		return XQ_ENOMEM;
	}
	r->fixed = k;
	r->fixed_at = r->json.toks[t].start + 1 + bad;
	xq_buf_reset(&r->scratch);
	k = xq_buf_add(&r->scratch, fixed.ptr ? fixed.ptr : "", fixed.len) ? XQ_ENOMEM : 0;
	xq_buf_release(&fixed);
	return (int)k;
}

/* Is token `t` of type `want`?  Otherwise report "`what` must be ...". */
static int expect_type(struct nd_reader *r, uint32_t t, enum xq_json_type want, uint32_t ply,
		       const char *what)
{
	if (r->json.toks[t].type == want)
		return 1;
	xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->json.toks[t].start, ply, NULL, "%s must be %s, not %s",
	             what, xq_json_type_name((uint8_t)want), xq_json_type_name(r->json.toks[t].type));
	return 0;
}

/* A number token whose value (as JSON reads it: "3", "3.0", "0.3e1") is a
 * whole number below 2^63; -1 if it is not one. */
static int64_t tok_u63(struct nd_reader *r, uint32_t t)
{
	uint64_t v;

	if (xq_json_uint(&r->json, t, &v) || v > INT64_MAX)
		return -1;
	return (int64_t)v;
}

/* A non-negative integer number token up to 10^9; -1 if it is not one. */
static long tok_int(struct nd_reader *r, uint32_t t)
{
	int64_t v = tok_u63(r, t);

	return v < 0 || v > 1000000000 ? -1 : (long)v;
}

/*
 * The members of object token `obj` that are named in `names` (NULL-ended):
 * their value tokens go to vals[] (0 when absent).  A repeated member is an
 * error; an unknown one is reported (a warning: it is ignored) unless its
 * name is in `ignored`.
 */
static int members(struct nd_reader *r, uint32_t obj, const char *const *names,
		   const char *const *ignored, uint32_t *vals, uint32_t ply)
{
	size_t n = 0;
	uint32_t k = obj + 1;

	while (names[n])
		vals[n++] = 0;
	while (k < r->json.toks[obj].next) {
		uint32_t v = k + 1;
		size_t i;
		int rc = decode_string(r, k);
		if (rc)
			return rc;
		for (i = 0; i < n; i++)
			if (!strcmp(r->scratch.ptr, names[i]))
				break;
		if (i < n) {
			if (vals[i]) {
				xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->json.toks[k].start, ply, NULL,
				             "member \"%s\" appears twice", names[i]);
				return XQ_EPARSE;
			}
			vals[i] = v;
		} else {
			int known = 0;
			for (size_t j = 0; ignored && ignored[j]; j++)
				if (!strcmp(r->scratch.ptr, ignored[j]))
					known = 1;
			if (!known)
				xqi_nd_report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->json.toks[k].start, ply, NULL,
				             "unknown member \"%.60s\" ignored", r->scratch.ptr);
		}
		k = r->json.toks[v].next;
	}
	return 0;
}

/* After decode_string(): the warning about bytes it replaced, if any,
 * in `what` (the text of the record that held them) at ply `ply`. */
static void warn_fixed(struct nd_reader *r, const char *what, uint32_t ply)
{
	char msg[256];

	if (!r->fixed)
		return;
	xqi_textdec_repaired_message(msg, sizeof(msg), what, (unsigned char)r->line[r->fixed_at],
				    "utf-8", r->line_offset + r->fixed_at, r->fixed);
	xqi_nd_report(r, XQ_SEVERITY_WARNING, XQI_D_ENCODING, r->fixed_at, ply, NULL, "%s", msg);
}

/* Copy string token `t` into the game's arena; `what` it is, for a
 * warning about bytes that are not UTF-8 in it (at ply `ply`). */
static const char *game_string(struct nd_reader *r, uint32_t t, size_t *len, const char *what,
			       uint32_t ply)
{
	const char *p;

	if (decode_string(r, t))
		return NULL;
	warn_fixed(r, what, ply);
	p = xqi_record_strdup(r->g, r->scratch.ptr, r->scratch.len);
	if (len)
		*len = r->scratch.len;
	return p;
}

static int read_tags(struct nd_reader *r, uint32_t arr)
{
	static const char *const names[] = {"name", "value", NULL};
	uint32_t t = arr + 1;

	if (!expect_type(r, arr, XQ_JSON_ARRAY, 0, "\"tags\""))
		return XQ_EPARSE;
	while (t < r->json.toks[arr].next) {
		uint32_t v[2];
		const char *name, *value;
		size_t nlen, vlen;
		int rc;
		if (!expect_type(r, t, XQ_JSON_OBJECT, 0, "a tag"))
			return XQ_EPARSE;
		if ((rc = members(r, t, names, NULL, v, 0)))
			return rc;
		if (!v[0] || !v[1]) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_TAG, r->json.toks[t].start, 0, NULL,
			             "a tag needs a \"name\" and a \"value\"");
			return XQ_EPARSE;
		}
		if (!expect_type(r, v[0], XQ_JSON_STRING, 0, "a tag name") ||
		    !expect_type(r, v[1], XQ_JSON_STRING, 0, "a tag value"))
			return XQ_EPARSE;
		if (!(name = game_string(r, v[0], &nlen, "a tag name", 0)))
			return XQ_ENOMEM;
		{
			char what[80];
			snprintf(what, sizeof(what), "tag %.40s", name);
			if (!(value = game_string(r, v[1], &vlen, what, 0)))
				return XQ_ENOMEM;
		}
		if (nlen == 0) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_TAG, r->json.toks[v[0]].start, 0, NULL,
			             "a tag name cannot be empty");
			return XQ_EPARSE;
		}
		{
			struct xqi_place at;
			at.line = r->lineno;
			at.col = r->json.toks[t].col;
			at.offset = r->line_offset + r->json.toks[t].start;
			if (xqi_record_add_tag_at(r->g, name, nlen, value, vlen, &at))
				return XQ_ENOMEM;
		}
		t = r->json.toks[t].next;
	}
	return 0;
}

/*
 * The record's "source" (where the game was first read from) into
 * g->origin.  It describes the record rather than the game, so a bad one
 * is a warning and is left out: the game then gets this input as its
 * origin.  Returns 0 or XQ_ENOMEM.
 */
static int read_source(struct nd_reader *r, uint32_t obj)
{
	static const char *const names[] = {"file", "game", "line", "offset", NULL};
	enum { S_FILE, S_GAME, S_LINE, S_OFFSET };
	struct xqi_origin o;
	uint32_t v[4];
	int64_t n[4] = {0, 0, 0, 0};
	int bad = -1;
	int rc;

	memset(&o, 0, sizeof(o));
	if (r->json.toks[obj].type != XQ_JSON_OBJECT) {
		xqi_nd_report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->json.toks[obj].start, 0, NULL,
		             "\"source\" must be an object, not %s; it is ignored",
		             xq_json_type_name(r->json.toks[obj].type));
		return 0;
	}
	if ((rc = members(r, obj, names, NULL, v, 0)))
		return rc == XQ_ENOMEM ? rc : 0;
	if (!v[S_FILE] || r->json.toks[v[S_FILE]].type != XQ_JSON_STRING)
		bad = S_FILE;
	for (int i = S_GAME; bad < 0 && i <= S_OFFSET; i++)
		if (v[i] && (n[i] = tok_u63(r, v[i])) < 0)
			bad = i;
	if (bad >= 0) {
		xqi_nd_report(r, XQ_SEVERITY_WARNING, XQI_D_SYNTAX, r->json.toks[v[bad] ? v[bad] : obj].start, 0, NULL,
		             "\"source\" needs \"%s\" as %s; it is ignored", names[bad],
		             bad == S_FILE ? "a string" : "a non-negative integer");
		return 0;
	}
	if (!(o.file = game_string(r, v[S_FILE], NULL, "the \"file\" of \"source\"", 0)))
		return XQ_ENOMEM;
	o.game = (uint64_t)n[S_GAME];
	o.line = (uint64_t)n[S_LINE];
	o.offset = (uint64_t)n[S_OFFSET];
	o.has_offset = v[S_OFFSET] != 0;
	r->g->origin = o;
	return 0;
}

/* Parse ICCS "h2e2" or "H2-E2" into a move; 0 if it is not ICCS. */
static xqi_move parse_iccs(const char *s, size_t len)
{
	int f1, r1, f2, r2;
	size_t i = 0;

	if (len != 4 && len != 5)
		return 0;
	f1 = xq_to_lower((unsigned char)s[i++]) - 'a';
	r1 = s[i++] - '0';
	if (len == 5 && s[i++] != '-')
		return 0;
	f2 = xq_to_lower((unsigned char)s[i++]) - 'a';
	r2 = s[i] - '0';
	if (f1 < 0 || f1 > 8 || f2 < 0 || f2 > 8 || r1 < 0 || r1 > 9 || r2 < 0 || r2 > 9)
		return 0;
	return XQI_MOVE(XQI_SQ(f1, r1), XQI_SQ(f2, r2));
}

static int push_frame(struct nd_reader *r, size_t *nframes, uint32_t arr, uint32_t parent,
		      uint32_t ply, const struct xqi_position *board)
{
	struct frame *f;

	if (XQ_ALLOC_GROW(r->frames, *nframes + 1, r->frames_alloc))
		return XQ_ENOMEM;
	f = &r->frames[(*nframes)++];
	f->arr = arr;
	f->cur = arr + 1;
	f->parent = parent;
	f->ply = ply;
	f->board = *board;
	return 0;
}

/*
 * The "variations" `a` of a move at `ply` (alternatives to it, from `parent`
 * and position `before`): a line each, pushed to be read next, in order.
 * 0, 1 when they are malformed (reported), or XQ_ENOMEM.
 */
static int push_variations(struct nd_reader *r, size_t *nframes, uint32_t a, uint32_t parent,
			   uint32_t ply, const struct xqi_position *before)
{
	size_t first = *nframes;

	if (!expect_type(r, a, XQ_JSON_ARRAY, ply, "\"variations\""))
		return 1;
	for (uint32_t k = a + 1; k < r->json.toks[a].next; k = r->json.toks[k].next) {
		if (!expect_type(r, k, XQ_JSON_ARRAY, ply, "a variation")) {
			*nframes = first;
			return 1;
		}
		if (push_frame(r, nframes, k, parent, ply, before))
			return XQ_ENOMEM;
	}
	/* The stack pops last first: reverse so the lines are read, and
	 * their first moves added as siblings, in order. */
	for (size_t i = first, j = *nframes; i + 1 < j; i++, j--) {
		struct frame tmp = r->frames[i];
		r->frames[i] = r->frames[j - 1];
		r->frames[j - 1] = tmp;
	}
	return 0;
}

/* Derived move texts a writer may add; the reader takes the move from "iccs". */
static const char *const derived_texts[] = {"wxf", "chinese", "uci", "uci1", "san", NULL};

/*
 * The move's "text", "comment" and "pre_comment" (tokens `text`,
 * `comment`, `pre`; 0: absent) onto node `node` at `ply`: 0, 1 when one
 * is not a string (reported), or XQ_ENOMEM.
 */
static int move_strings(struct nd_reader *r, uint32_t node, uint32_t ply, uint32_t text,
			uint32_t comment, uint32_t pre)
{
	struct xqi_record *g = r->g;
	const uint32_t strs[3] = {text, comment, pre};
	const char *const what[3] = {"\"text\"", "\"comment\"", "\"pre_comment\""};
	const char *const field[3] = {"the move's text", "a comment",
				      "a comment before the move"};
	for (int k = 0; k < 3; k++) {
		const char *s;
		size_t len;
		if (!strs[k])
			continue;
		if (!expect_type(r, strs[k], XQ_JSON_STRING, ply, what[k]))
			return 1;
		if (!(s = game_string(r, strs[k], &len, field[k], ply)))
			return XQ_ENOMEM;
		if (k == 0)
			g->nodes[node].text = s;
		else if (k == 1)
			g->nodes[node].comment = s;
		else
			g->nodes[node].pre_comment = s;
	}
	return 0;
}

/*
 * The move's "nags" (token `nags`) onto node `node` at `ply` (move text
 * `iccs`): 0, 1 when they are not NAGs (reported), or XQ_ENOMEM.
 */
static int move_nags(struct nd_reader *r, uint32_t node, uint32_t ply, uint32_t nags, const char *iccs)
{
	int rc;

	if (!expect_type(r, nags, XQ_JSON_ARRAY, ply, "\"nags\""))
		return 1;
	for (uint32_t k = nags + 1; k < r->json.toks[nags].next; k = r->json.toks[k].next) {
		long nag = tok_int(r, k);
		if (nag < 0 || nag > 255) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->json.toks[k].start, ply, iccs,
				     "a NAG must be a whole number from 0 to 255");
			return 1;
		}
		if ((rc = xqi_record_add_nag(r->g, node, (uint8_t)nag)))
			return rc == XQ_ENOMEM ? rc : 1;
	}
	return 0;
}

/*
 * One move object `t` of a line whose state is frames[top] (frames[0] is
 * the main line); on success the frame has moved past it and the move's
 * variations are pushed.  Returns 0, 1 when the line must stop here (error
 * reported), 2 when the variation is to be cut here (a move that cannot
 * be read or played; its error held in r->held), or XQ_ENOMEM.
 */
static int read_move(struct nd_reader *r, size_t *nframes, size_t top, uint32_t t)
{
	static const char *const names[] = {"iccs", "text", "comment", "pre_comment", "nags",
					    "variations", NULL};
	enum { M_ICCS, M_TEXT, M_COMMENT, M_PRE, M_NAGS, M_VARS };
	uint32_t v[6], node, ply = r->frames[top].ply, parent = r->frames[top].parent;
	struct xqi_position before = r->frames[top].board;
	struct xq_diagnostic d;
	struct xqi_undo u;
	struct xqi_record *g = r->g;
	char iccs[8];
	xqi_move m;
	int rc;

	if (!expect_type(r, t, XQ_JSON_OBJECT, ply, "a move"))
		return 1;
	if ((rc = members(r, t, names, derived_texts, v, ply)))
		return rc == XQ_ENOMEM ? rc : 1;
	if (!v[M_ICCS]) {
		xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_MOVE_TEXT, r->json.toks[t].start, ply, NULL,
		             "a move needs its \"iccs\" coordinates");
		return 1;
	}
	if (!expect_type(r, v[M_ICCS], XQ_JSON_STRING, ply, "\"iccs\""))
		return 1;
	if (decode_string(r, v[M_ICCS]))
		return XQ_ENOMEM;
	if (r->fixed) {
		/* Moves that are not text: the record is broken there. */
		char msg[160];
		xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_ENCODING, r->fixed_at, ply, NULL, "%s",
		       xqi_textdec_bad_message(msg, sizeof(msg), (unsigned char)r->line[r->fixed_at],
					      XQI_ENC_UTF8, r->line_offset + r->fixed_at));
		return 1;
	}
	snprintf(iccs, sizeof(iccs), "%.7s", r->scratch.ptr);
	m = parse_iccs(r->scratch.ptr, r->scratch.len);
	xqi_diagnostic_init(&d);
	if (!m || xqi_move_check(&before, m, &d)) {
		/* In a variation only that variation is cut (read_moves()); the
		 * alternatives to this move are read all the same. */
		r->holding = top > 0;
		r->cut_alts = 0;
		if (!m)
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_MOVE_TEXT, r->json.toks[v[M_ICCS]].start, ply, iccs,
			       "\"%s\" is not an ICCS move (files a-i, ranks 0-9, like \"h2e2\")",
			       iccs);
		else
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_ILLEGAL_MOVE, r->json.toks[v[M_ICCS]].start, ply, iccs,
			       "illegal move: %s", d.msg);
		if (!r->holding)
			return 1;
		r->holding = 0; /* held: what follows is said as it comes */
		r->cut_alts = v[M_VARS];
		if (v[M_VARS] && (rc = push_variations(r, nframes, v[M_VARS], parent, ply, &before)) < 0)
			return rc;
		return 2;
	}
	if (xqi_record_add_move(g, parent, m, &node))
		return XQ_ENOMEM;
	g->nodes[node].place.line = r->lineno;
	g->nodes[node].place.col = r->json.toks[t].col;
	g->nodes[node].place.offset = r->line_offset + r->json.toks[t].start;
	if ((rc = move_strings(r, node, ply, v[M_TEXT], v[M_COMMENT], v[M_PRE])))
		return rc;
	if (v[M_NAGS] && (rc = move_nags(r, node, ply, v[M_NAGS], iccs)))
		return rc;
	/* Move the line on before pushing (pushing may move the frames). */
	r->frames[top].cur = r->json.toks[t].next;
	r->frames[top].parent = node;
	r->frames[top].ply = ply + 1;
	xqi_position_make(&r->frames[top].board, m, &u);
	return v[M_VARS] ? push_variations(r, nframes, v[M_VARS], parent, ply, &before) : 0;
}

/*
 * The variation whose move at token `from` could not be read or played is
 * cut there: that move and the rest of the line, tokens [from, end), with
 * the variations inside them, are not kept (but for the move's own
 * "variations", r->cut_alts: alternatives to it, which are read).  The held error is said with
 * how many moves that is (every move is an object there, and only they);
 * the game is XQI_RECORD_CUT, not broken.
 */
static void cut_variation(struct nd_reader *r, uint32_t from, uint32_t end)
{
	uint32_t moves = 0;

	for (uint32_t k = from; k < end; k++) {
		if (k == r->cut_alts) {
			k = r->json.toks[k].next - 1; /* the alternatives to the bad move are read */
			continue;
		}
		moves += r->json.toks[k].type == XQ_JSON_OBJECT;
	}
	r->g->flags |= XQI_RECORD_CUT;
	xqi_cut_message(&r->held, 0, moves, 0);
	xqi_sink_report(r->sink, &r->held);
}

static int read_moves(struct nd_reader *r, uint32_t arr)
{
	size_t nframes = 0;

	if (!expect_type(r, arr, XQ_JSON_ARRAY, 0, "\"moves\""))
		return 0;
	if (push_frame(r, &nframes, arr, XQI_ROOT, 1, &r->g->start))
		return XQ_ENOMEM;
	while (nframes > 0) {
		size_t top = nframes - 1;
		struct frame *f = &r->frames[top];
		int rc;
		if (f->cur >= r->json.toks[f->arr].next) {
			nframes--;
			continue;
		}
		rc = read_move(r, &nframes, top, f->cur);
		if (rc < 0)
			return rc;
		if (rc == 2)
			cut_variation(r, r->frames[top].cur, r->json.toks[r->frames[top].arr].next);
		if (rc > 0) /* the line stops at a bad move; later lines still count */
			r->frames[top].cur = r->json.toks[r->frames[top].arr].next;
	}
	return 0;
}

int xqi_nd_build_game(struct nd_reader *r)
{
	static const char *const names[] = {"schema", "tags",   "fen",    "result", "result_text",
					    "comment", "moves", "broken", "source", NULL};
	enum { G_SCHEMA, G_TAGS, G_FEN, G_RESULT, G_RTEXT, G_COMMENT, G_MOVES, G_BROKEN, G_SOURCE };
	uint32_t v[9];
	struct xqi_record *g = r->g;
	int rc, bad_start = 0;

	if (r->json.toks[0].type != XQ_JSON_OBJECT) {
		xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, r->json.toks[0].start, 0, NULL,
		             "a game record must be a JSON object, not %s", xq_json_type_name(r->json.toks[0].type));
		return 0;
	}
	if ((rc = members(r, 0, names, NULL, v, 0)))
		return rc == XQ_ENOMEM ? rc : 0;
	if (!v[G_SCHEMA]) {
		xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_SYNTAX, 0, 0, NULL,
		             "no \"schema\" member: not an xqkit game record");
		return 0;
	}
	if (!expect_type(r, v[G_SCHEMA], XQ_JSON_STRING, 0, "\"schema\""))
		return 0;
	if (decode_string(r, v[G_SCHEMA]))
		return XQ_ENOMEM;
	if (strcmp(r->scratch.ptr, NDJSON_SCHEMA)) {
		int ours = !strncmp(r->scratch.ptr, "xqkit.game/", 11);
		xqi_nd_report(r, XQ_SEVERITY_ERROR, ours ? XQI_D_UNSUPPORTED : XQI_D_SYNTAX,
		             r->json.toks[v[G_SCHEMA]].start, 0, NULL,
		             ours ? "schema \"%.40s\" is not supported (this xqkit reads \"" NDJSON_SCHEMA "\")"
			          : "schema \"%.40s\" is not a game record (expected \"" NDJSON_SCHEMA "\")",
		             r->scratch.ptr);
		return 0;
	}
	if (v[G_SOURCE] && (rc = read_source(r, v[G_SOURCE])))
		return rc;
	if (v[G_FEN]) {
		struct xq_diagnostic d;
		if (!expect_type(r, v[G_FEN], XQ_JSON_STRING, 0, "\"fen\""))
			return 0;
		if (decode_string(r, v[G_FEN]))
			return XQ_ENOMEM;
		xqi_diagnostic_init(&d);
		/* Composed positions with pieces on unusual points are kept
		 * (validate reports them); anything else wrong is an error. */
		if (xqi_position_from_fen(&g->start, r->scratch.ptr, r->scratch.len,
				      XQI_FEN_LENIENT_PLACEMENT, &d)) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_FEN,
			             r->json.toks[v[G_FEN]].start + (d.place.col ? d.place.col : 0), 0, NULL,
			             "bad FEN: %s", d.msg);
			/* Kept as written, never replaced by another position;
			 * the rest of the record is read, but no move. */
			if (xqi_record_set_start_text(g, r->scratch.ptr, r->scratch.len))
				return XQ_ENOMEM;
			bad_start = 1;
		}
	}
	if (v[G_TAGS] && (rc = read_tags(r, v[G_TAGS])))
		return rc == XQ_ENOMEM ? rc : 0;
	if (v[G_RESULT] && r->json.toks[v[G_RESULT]].type != XQ_JSON_NULL) {
		if (!expect_type(r, v[G_RESULT], XQ_JSON_STRING, 0, "\"result\""))
			return 0;
		if (decode_string(r, v[G_RESULT]))
			return XQ_ENOMEM;
		if (xqi_result_parse(r->scratch.ptr, r->scratch.len, &g->result)) {
			xqi_nd_report(r, XQ_SEVERITY_ERROR, XQI_D_BAD_RESULT, r->json.toks[v[G_RESULT]].start, 0, NULL,
			             "\"result\" must be \"1-0\", \"0-1\", \"1/2-1/2\", \"*\" or null, not \"%.40s\"",
			             r->scratch.ptr);
			return 0;
		}
	}
	if (v[G_RTEXT]) {
		if (!expect_type(r, v[G_RTEXT], XQ_JSON_STRING, 0, "\"result_text\""))
			return 0;
		if (!(g->result_text = game_string(r, v[G_RTEXT], NULL, "\"result_text\"", 0)))
			return XQ_ENOMEM;
	}
	if (v[G_COMMENT]) {
		if (!expect_type(r, v[G_COMMENT], XQ_JSON_STRING, 0, "\"comment\""))
			return 0;
		if (!(g->nodes[XQI_ROOT].comment = game_string(r, v[G_COMMENT], NULL, "the game's comment", 0)))
			return XQ_ENOMEM;
	}
	if (v[G_MOVES] && !bad_start && (rc = read_moves(r, v[G_MOVES])))
		return rc;
	if (g->nnodes == 1 && !r->bad)
		g->flags |= XQI_RECORD_EMPTY;
	if (v[G_BROKEN] && r->json.toks[v[G_BROKEN]].type == XQ_JSON_TRUE) {
		xqi_nd_report(r, XQ_SEVERITY_WARNING, XQI_D_TRUNCATED, r->json.toks[v[G_BROKEN]].start, 0, NULL,
		             "the record is marked broken: it was kept only up to an error in its source");
		g->flags |= XQI_RECORD_BROKEN;
	}
	return 0;
}
