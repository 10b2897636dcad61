/*
 * pgn_read.c: the PGN parser, tokens into games, and the reader's read()
 * (see pgn.c for the whole, pgn_int.h for what the parts share; the
 * reader's life and how it reports are in pgn_reader.c).
 */
#include "pgn_int.h"

/* ---- the parser ------------------------------------------------------------- */

struct gstate {
	struct xqi_record *g;
	struct xqi_position board;  /* the position after `cur` */
	int check_known;        /* in_check says whether board's side to move is in check */
	int in_check;
	uint32_t cur, ply, moves; /* the line being read */
	uint32_t total;         /* moves in the tree */
	int after_number;       /* a move number since the last move */
	int have_pre;           /* r->pre holds a comment for the next move */
	int dialect;            /* enum xq_dialect; AUTO until the first move */
	int movetext;           /* something other than tags was read */
	int broken;
	int have_result;
	int start_given;        /* FEN tag or FEN line */
	uint64_t last_tag_line;  /* the line the last tag ended on */
	const char *result_tag;
	struct xqi_place result_place;
	const char *format_tag;
	struct xqi_place format_place;
	/* Where the last token of the move text starts (have_last): what is
	 * said of the end of the moves points there, not at what follows. */
	struct xqi_place last_place;
	int have_last;
	struct pgn_cut cut;     /* a variation cut at a move that could not be read */
};

static int oom(struct pgn_reader *r, struct gstate *s)
{
	struct xq_diagnostic d;

	xqi_diagnostic_init(&d);
	xqi_diagnostic_set(&d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
	xqi_pgn_emit(r, s->g, &d, NULL, s->ply, NULL, 0);
	s->broken = 1;
	s->g->flags |= XQI_RECORD_BROKEN;
	return XQ_ENOMEM;
}

/* An error: report it and mark the game broken. */
static void fail(struct pgn_reader *r, struct gstate *s, const struct xqi_place *pl, uint32_t ply,
		 const char *move, size_t mlen, enum xqi_diagnostic_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;

static void fail(struct pgn_reader *r, struct gstate *s, const struct xqi_place *pl, uint32_t ply,
		 const char *move, size_t mlen, enum xqi_diagnostic_code code, const char *fmt, ...)
{
	struct xq_diagnostic d;
	va_list ap;

	xqi_diagnostic_init(&d);
	va_start(ap, fmt);
	xqi_diagnostic_vset(&d, XQ_EPARSE, code, XQ_SEVERITY_ERROR, fmt, ap);
	va_end(ap);
	xqi_pgn_emit(r, s->g, &d, pl, ply, move, mlen);
	s->broken = 1;
	s->g->flags |= XQI_RECORD_BROKEN;
}

static void fail_bad_byte(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	char msg[160];

	xqi_textdec_bad_message(msg, sizeof(msg), t->bad_byte, t->bad_enc, t->bad_place.offset);
	fail(r, s, &t->bad_place, s->ply + 1, NULL, 0, XQI_D_ENCODING, "%s", msg);
}

/* Comment text: line ends made LF, surrounding white space dropped. */
static int clean_comment(struct pgn_reader *r, const char *s, size_t n)
{
	size_t a = 0, b = n;

	while (a < b && xq_is_space((unsigned char)s[a]))
		a++;
	while (b > a && xq_is_space((unsigned char)s[b - 1]))
		b--;
	xq_buf_reset(&r->scratch);
	for (size_t i = a; i < b; i++) {
		char c = s[i];
		if (c == '\r') {
			c = '\n';
			if (i + 1 < b && s[i + 1] == '\n')
				i++;
		}
		if (xq_buf_addc(&r->scratch, c))
			return XQ_ENOMEM;
	}
	return 0;
}

static int append_str(struct xqi_record *g, const char **field, const char *s, size_t n)
{
	size_t old = *field ? strlen(*field) : 0;
	char *p = xqi_arena_alloc(&g->arena, old + (old ? 1 : 0) + n + 1);

	if (!p)
		return XQ_ENOMEM;
	if (old) {
		memcpy(p, *field, old);
		p[old++] = ' ';
	}
	memcpy(p + old, s, n);
	p[old + n] = '\0';
	*field = p;
	return 0;
}

/*
 * Comments after a node come one after another ({a} {b} ...): they are
 * joined in r->post and put in the game once the next node gets one, or
 * the game ends.  (Appending each to the game's copy would copy the whole
 * comment again every time: quadratic in the number of comments.)
 */
static int post_flush(struct pgn_reader *r, struct xqi_record *g)
{
	int rc = 0;

	if (r->post_node != XQ_NO_NODE && r->post.len)
		rc = append_str(g, &g->nodes[r->post_node].comment, r->post.ptr, r->post.len);
	r->post_node = XQ_NO_NODE;
	xq_buf_reset(&r->post);
	return rc;
}

/* Add `n` bytes of `text` to the comment after `node`. */
static int post_add(struct pgn_reader *r, struct xqi_record *g, uint32_t node, const char *text,
		    size_t n)
{
	if (node != r->post_node) {
		int rc = post_flush(r, g);
		if (rc)
			return rc;
		r->post_node = node;
	} else if (xq_buf_addc(&r->post, ' ')) {
		return XQ_ENOMEM;
	}
	return xq_buf_add(&r->post, text, n) ? XQ_ENOMEM : 0;
}

static int add_pre(struct pgn_reader *r, struct gstate *s)
{
	if (s->have_pre && xq_buf_addc(&r->pre, ' '))
		return XQ_ENOMEM;
	s->have_pre = 1;
	return xq_buf_add(&r->pre, r->scratch.ptr, r->scratch.len);
}

/* A comment that waited for a move that never came goes after `cur`. */
static int flush_pre(struct pgn_reader *r, struct gstate *s)
{
	int rc = 0;

	if (s->have_pre)
		rc = post_add(r, s->g, s->cur, r->pre.ptr, r->pre.len);
	s->have_pre = 0;
	xq_buf_reset(&r->pre);
	return rc;
}

/*
 * The comment `t` made clean in r->scratch; one that holds bytes that are
 * not text keeps the rest of its text (U+FFFD for each), with a warning at
 * ply `ply`.
 */
static int comment_text(struct pgn_reader *r, const struct xqi_record *g, const struct tok *t,
			uint32_t ply)
{
	long fixed = 0;
	size_t n;
	const char *text = xqi_pgn_tok_fixed(r, t, t->body, t->body_end, 0, &n, &fixed);

	if (!text || clean_comment(r, text, n))
		return XQ_ENOMEM;
	xqi_pgn_warn_fixed(r, t, g->number, ply, "a comment", fixed);
	return 0;
}

static int take_comment(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	int rc = comment_text(r, s->g, t, s->ply);

	if (rc || r->scratch.len == 0)
		return rc;
	if (s->after_number || (r->nstack > 0 && s->moves == 0))
		return add_pre(r, s);
	return post_add(r, s->g, s->cur, r->scratch.ptr, r->scratch.len);
}

static enum xq_dialect dialect_for(const struct pgn_reader *r, enum xq_dialect n)
{
	if ((n == XQ_DIALECT_ICCS || n == XQ_DIALECT_UCI) && r->opts.uci_ranks)
		return XQ_DIALECT_UCI1;
	return n;
}

/* Read one move in the game's notation (found from its first move). */
static int is_coordinates(enum xq_dialect n)
{
	return n == XQ_DIALECT_ICCS || n == XQ_DIALECT_UCI || n == XQ_DIALECT_UCI1;
}

/* A square on rank 10 while ranks are read 0-9: say how to read the file. */
static int rank_ten(struct xq_diagnostic *d, const char *w, size_t n)
{
	return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
			   "'%.*s' names rank 10: this game counts ranks 1-10 (as Fairy-Stockfish "
			   "writes UCI), so every move of it would be read one rank off; read it with "
			   "ranks 1-10",
			   (int)n, w);
}

/* `in_check`: whether the side to move in `b` is in check, -1 if not known. */
static int read_move(struct pgn_reader *r, struct gstate *s, struct xqi_position *b, int in_check,
		     const char *w, size_t n, xqi_move *m, struct xq_diagnostic *d)
{
	enum xq_dialect dia = (enum xq_dialect)s->dialect, other;
	int rc;

	if (dia == XQ_DIALECT_AUTO) {
		dia = xqi_notation_detect(w, n);
		if (dia == XQ_DIALECT_AUTO)
			return xqi_diagnostic_set(d, XQ_EPARSE, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
					   "'%.*s' is not a move in any notation", (int)n, w);
		if (dia == XQ_DIALECT_UCI1 && !r->opts.uci_ranks)
			return rank_ten(d, w, n);
		dia = dialect_for(r, dia);
	}
	rc = xqi_notation_read_hinted(m, b, w, n, dia, in_check, d);
	if (rc == XQ_EPARSE) {
		/* One move in another notation than the rest of the game; but
		 * never coordinates counted from another rank. */
		other = xqi_notation_detect(w, n);
		if (other == XQ_DIALECT_UCI1 && !r->opts.uci_ranks)
			return rank_ten(d, w, n);
		other = dialect_for(r, other);
		if (other != XQ_DIALECT_AUTO && other != dia &&
		    !(is_coordinates(other) && is_coordinates(dia))) {
			struct xq_diagnostic d2;
			xqi_diagnostic_init(&d2);
			if (xqi_notation_read(m, b, w, n, other, &d2) == 0)
				return 0;
		}
	}
	if (rc == 0 && s->dialect == XQ_DIALECT_AUTO)
		s->dialect = dia;
	if (rc && d->code == XQI_D_NONE)
		xqi_diagnostic_set(d, rc, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR, "'%.*s' is not a move", (int)n, w);
	return rc;
}

/*
 * The first move of a game set up from a FEN fails, but would be legal
 * with the other side to move: a wrong side field, common in old files.
 * Returns 1 with s->board and the game's start flipped (and a warning).
 */
static int try_other_side(struct pgn_reader *r, struct gstate *s, const struct tok *t,
			  const char *w, size_t n, xqi_move *m)
{
	char fen[XQ_FEN_SIZE];
	struct xqi_position b;
	struct xq_diagnostic d;
	char *sp;

	xqi_position_to_fen(&s->g->start, fen, sizeof(fen));
	sp = strchr(fen, ' ');
	if (!sp)
		return 0;
	sp[1] = sp[1] == 'b' ? 'w' : 'b';
	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, strlen(fen), XQI_FEN_LENIENT_PLACEMENT, &d))
		return 0;
	if (read_move(r, s, &b, -1, w, n, m, &d))
		return 0;
	xqi_pgn_report(r, s->g, &t->place, 1, w, n, XQ_SEVERITY_WARNING, XQI_D_SIDE_TO_MOVE,
		       "the start position says %s moves first, but the first move is %s's; read with %s to move",
		       b.side == XQI_RED ? "black" : "red", b.side == XQI_RED ? "red" : "black",
		       b.side == XQI_RED ? "red" : "black");
	s->g->start = b;
	s->board = b;
	s->check_known = 0;
	return 1;
}

/* Room in r->path for the undo of ply `ply` + 1. */
static int path_reserve(struct pgn_reader *r, uint32_t ply)
{
	return XQ_ALLOC_GROW(r->path, (size_t)ply + 1, r->path_cap);
}

/*
 * A move that cannot be added, the word `t`; `d` says why.  On the main
 * line the game stops there: broken, the error reported.  In a variation
 * only that variation is cut, from this move to its end (pgn_words.c,
 * xqi_pgn_cut_token(), skips the rest and counts its moves), and `d` is
 * reported when it ends, with what was cut.
 */
static void bad_move(struct pgn_reader *r, struct gstate *s, const struct tok *t,
		     struct xq_diagnostic *d)
{
	const char *w = xqi_pgn_tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start);

	if (r->nstack == 0 || s->cut.on) {
		xqi_pgn_emit(r, s->g, d, &t->place, s->ply + 1, w, n);
		s->broken = 1;
		s->g->flags |= XQI_RECORD_BROKEN;
		return;
	}
	xqi_pgn_place_diag(r, s->g, d, &t->place, s->ply + 1, w, n);
	xqi_pgn_cut_begin(&s->cut, d);
	/* A comment before the bad move was its own: it goes with it. */
	s->have_pre = 0;
	xq_buf_reset(&r->pre);
}

static int add_move(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	const char *w = xqi_pgn_tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start), core;
	char marks[8];
	uint8_t nags[1] = {0}; /* (gcc cannot see that nnag guards it) */
	int nnag = 0;
	xqi_move m;
	uint32_t idx;
	int rc;

	if (n > WORD_MAX) {
		xqi_diagnostic_set(&r->md, XQ_EPARSE, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
			    "a word of %zu bytes is not a move", n);
		bad_move(r, s, t, &r->md);
		xqi_diagnostic_init(&r->md);
		return 0;
	}
	/* Check marks and an annotation written onto the move (the notation
	 * reads full-width text itself). */
	core = xqi_pgn_split_marks(w, n, marks);
	if (marks[0]) {
		char a[8];
		size_t alen = 0;
		int nag;
		for (const char *k = marks; *k; k++)
			if (*k == '!' || *k == '?')
				a[alen++] = *k;
		a[alen] = '\0';
		nag = xqi_pgn_nag_of(a, alen);
		if (nag)
			nags[nnag++] = (uint8_t)nag;
		else if (alen)
			xqi_pgn_report(r, s->g, &t->place, s->ply + 1, w, n, XQ_SEVERITY_WARNING, XQI_D_SYNTAX,
				       "'%s' is not an annotation; ignored", a);
	}
	if (core == 0) {
		xqi_diagnostic_set(&r->md, XQ_EPARSE, XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR, "no move in '%.*s'",
			    (int)n, w);
		bad_move(r, s, t, &r->md);
		xqi_diagnostic_init(&r->md);
		return 0;
	}
	/* r->md is kept clear between errors: a clean diagnostic per move
	 * would cost more than many a move. */
	rc = read_move(r, s, &s->board, s->check_known ? s->in_check : -1, w, core, &m, &r->md);
	/* Only the game's first move may turn the start around: an
	 * alternative to it comes after a move read with the start's side. */
	if (rc && s->ply == 0 && s->cur == XQI_ROOT && s->total == 0 && s->start_given &&
	    rc != XQ_EPARSE && try_other_side(r, s, t, w, core, &m))
		rc = 0;
	if (rc == 0 && r->md.code != XQI_D_NONE)
		xqi_diagnostic_init(&r->md); /* a failed first reading was made good */
	if (rc) {
		bad_move(r, s, t, &r->md);
		xqi_diagnostic_init(&r->md);
		return 0;
	}
	if (path_reserve(r, s->ply))
		return oom(r, s);
	if (xqi_record_add_move(s->g, s->cur, m, &idx) || xqi_record_set_text(s->g, idx, w, n))
		return oom(r, s);
	s->g->nodes[idx].place = t->place;
	if (s->have_pre) {
		if (xqi_record_set_pre_comment(s->g, idx, r->pre.ptr, r->pre.len))
			return oom(r, s);
		s->have_pre = 0;
		xq_buf_reset(&r->pre);
	}
	for (int i = 0; i < nnag; i++)
		if (xqi_record_add_nag(s->g, idx, nags[i]))
			return oom(r, s);
	xqi_position_make(&s->board, m, &r->path[s->ply]);
	/* The move was legal from a position where its side's opponent was
	 * not in check (that was the side not to move). */
	s->in_check = xqi_position_check_after(&s->board, m);
	s->check_known = 1;
	s->cur = idx;
	s->ply++;
	s->moves++;
	s->total++;
	s->after_number = 0;
	return 0;
}

/*
 * Set the start from FEN text at position `at` (inside the tag or line at
 * `tag_start`, placed at `tag_place`): a rejected FEN is an error whose
 * column is the offending character's.
 */
static int set_start(struct pgn_reader *r, struct gstate *s, const char *fen, size_t n,
		     uint64_t at, const struct xqi_place *tag_place, uint64_t tag_start)
{
	struct xqi_position b;
	struct xq_diagnostic d, d2;

	xqi_diagnostic_init(&d);
	if (xqi_position_from_fen(&b, fen, n, 0, &d) == 0) {
		s->g->start = b;
		s->board = b;
		s->check_known = 0;
		s->start_given = 1;
		return 0;
	}
	xqi_diagnostic_init(&d2);
	if (xqi_position_from_fen(&b, fen, n, XQI_FEN_LENIENT_PLACEMENT, &d2) == 0) {
		xqi_pgn_report(r, s->g, tag_place, 0, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_BAD_FEN,
			       "composed position accepted (%s)", d.msg);
		s->g->start = b;
		s->board = b;
		s->check_known = 0;
		s->start_given = 1;
		return 0;
	}
	{
		/* The board may be fine and only the fields after it malformed (hbsxcjp's
		 * converter writes the side as "-b" whoever moves first): keep the board,
		 * say so, and let the first move decide the side (try_other_side). */
		size_t blen = 0;
		while (blen < n && fen[blen] != ' ' && fen[blen] != '\t')
			blen++;
		xqi_diagnostic_init(&d2);
		if (blen < n && xqi_position_from_fen(&b, fen, blen, XQI_FEN_LENIENT_PLACEMENT, &d2) == 0) {
			xqi_pgn_report(r, s->g, tag_place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_FEN,
				       "the FEN after its board is malformed (%s): the board is kept and the "
				       "first move decides the side to move",
				       d.msg);
			s->g->start = b;
			s->board = b;
			s->check_known = 0;
			s->start_given = 1;
			return 0;
		}
	}
	{
		/* Column of the offending character, inside the tag. */
		size_t byte = d.place.col ? d.place.col - 1 : 0;
		uint64_t p;
		struct xqi_place pl;
		if (byte > n)
			byte = n;
		p = at + byte;
		pl.line = tag_place->line;
		pl.col = tag_place->col +
			 (uint32_t)xqi_pgn_count_chars(xqi_pgn_tok_text(r, tag_start), (size_t)(p - tag_start));
		pl.offset = xqi_pgn_offset_of(r, p);
		d.severity = XQ_SEVERITY_ERROR;
		d.code = XQI_D_BAD_FEN;
		xqi_pgn_emit(r, s->g, &d, &pl, 0, NULL, 0);
		s->broken = 1;
		/* Kept as written: a writer never puts another position in its place. */
		if (xqi_record_set_start_text(s->g, fen, n))
			return oom(r, s);
	}
	return 0;
}

static int unescape_value(struct pgn_reader *r, const char *v, size_t n)
{
	xq_buf_reset(&r->scratch);
	for (size_t i = 0; i < n; i++) {
		char c = v[i];
		if (c == '\\' && i + 1 < n && (v[i + 1] == '"' || v[i + 1] == '\\')) {
			c = v[++i];
		} else if (c == '\r') {
			c = '\n';
			if (i + 1 < n && v[i + 1] == '\n')
				i++;
		}
		if (xq_buf_addc(&r->scratch, c))
			return XQ_ENOMEM;
	}
	return 0;
}

static int take_tag(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	const char *name, *value;
	size_t nlen, vlen;
	long fixed = 0;
	struct xqi_tag *tag;

	if (t->tag_flags & TAG_NO_NAME) {
		fail(r, s, &t->place, 0, NULL, 0, XQI_D_BAD_TAG, "a tag line with no tag name: '%.*s'",
		     (int)((t->end - t->start) > 60 ? 60 : (t->end - t->start)), xqi_pgn_tok_text(r, t->start));
		return 0;
	}
	/* (bytes that are not text stay in the tag, as U+FFFD) */
	name = xqi_pgn_tok_fixed(r, t, t->body, t->body_end, 0, &nlen, &fixed);
	value = xqi_pgn_tok_fixed(r, t, t->value, t->value_end, 1, &vlen, &fixed);
	if (!name || !value || unescape_value(r, value, vlen) ||
	    xqi_record_add_tag_at(s->g, name, nlen, r->scratch.ptr, r->scratch.len, &t->place))
		return oom(r, s);
	tag = &s->g->tags[s->g->ntags - 1];
	if (fixed) {
		char what[64];
		snprintf(what, sizeof(what), "tag %.40s", tag->name);
		xqi_pgn_warn_fixed(r, t, s->g->number, 0, what, fixed);
	}
	value = tag->value;
	if (t->tag_flags & TAG_UNQUOTED)
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			       "the value of tag %s is not in quotes", tag->name);
	else if (t->tag_flags & TAG_NO_QUOTE)
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			       "the value of tag %s has no closing quote", tag->name);
	else if (t->tag_flags & TAG_STRAY_QUOTE)
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			       "the value of tag %s holds a '\"' that is not escaped", tag->name);
	if (t->tag_flags & TAG_LINES)
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			       "the value of tag %s goes on over a line end", tag->name);
	if (t->tag_flags & TAG_NO_BRACKET)
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
			       "tag %s has no closing ']'", tag->name);
	if (!strcmp(tag->name, "FEN") && *value) {
		if (s->start_given) {
			xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_TAG,
				       "a second FEN tag is ignored");
			return 0;
		}
		return set_start(r, s, xqi_pgn_tok_text(r, t->value), (size_t)(t->value_end - t->value),
				 t->value, &t->place, t->start);
	}
	if (!strcmp(tag->name, "Result") && !s->result_tag) {
		s->result_tag = value;
		s->result_place = t->place;
	}
	if (!strcmp(tag->name, "Format") && !s->format_tag) {
		s->format_tag = value;
		s->format_place = t->place;
	}
	return 0;
}

/* A FEN written on its own line before the moves of a game without tags. */
static int take_fen_line(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	uint64_t end = xqi_pgn_fen_line_end(r, t);

	r->pos = end;
	s->movetext = 1;
	return set_start(r, s, xqi_pgn_tok_text(r, t->start), (size_t)(end - t->start), t->start, &t->place,
			 t->start);
}

static int frame_push(struct pgn_reader *r, struct gstate *s)
{
	if (XQ_ALLOC_GROW(r->stack, r->nstack + 1, r->stack_cap))
		return XQ_ENOMEM;
	r->stack[r->nstack].cur = s->cur;
	r->stack[r->nstack].ply = s->ply;
	r->stack[r->nstack].moves = s->moves;
	r->stack[r->nstack].after_cut = 0;
	r->nstack++;
	return 0;
}

/*
 * '(': a variation of the last move begins.  Right after a move that a
 * variation was cut at (s->cut), it is an alternative to that move: read
 * from the position before it, the cut set aside until its ')'.
 */
static int open_variation(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	int rc;

	s->movetext = 1;
	if (s->cut.on) {
		if (XQ_ALLOC_GROW(r->saved, r->nsaved + 1, r->saved_cap) || frame_push(r, s))
			return oom(r, s);
		r->saved[r->nsaved++] = s->cut;
		r->stack[r->nstack - 1].after_cut = 1;
		s->cut.on = 0;
		s->moves = 0;
		s->after_number = 0;
		return 0;
	}
	if (s->moves == 0) {
		fail(r, s, &t->place, s->ply, NULL, 0, XQI_D_SYNTAX,
		     "'(' must follow the move it is a variation of");
		return 0;
	}
	if ((rc = flush_pre(r, s)) || (rc = frame_push(r, s)))
		return rc;
	/* A variation replaces the last move: step back over it. */
	s->ply--;
	xqi_position_unmake(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply]);
	s->check_known = 0;
	s->cur = s->g->nodes[s->cur].parent;
	s->moves = 0;
	s->after_number = 0;
	return 0;
}

/* ')': back to the line the variation left (and to its cut, after an
 * alternative to a move it was cut at). */
static int close_variation(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	const struct frame *f;
	int rc;

	s->movetext = 1;
	if (r->nstack == 0) {
		fail(r, s, &t->place, s->ply, NULL, 0, XQI_D_SYNTAX, "')' with no '(' before it");
		return 0;
	}
	if (s->moves == 0 && !s->cut.closed)
		xqi_pgn_report(r, s->g, &t->place, s->ply, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_SYNTAX,
			       "an empty variation");
	s->cut.closed = 0;
	if ((rc = flush_pre(r, s)))
		return rc;
	f = &r->stack[--r->nstack];
	/* Back over the variation's own moves (its inner variations
	 * stepped back over theirs), then the move it replaced again:
	 * each move is stepped over a bounded number of times. */
	while (s->ply >= f->ply + (f->after_cut ? 1u : 0u)) {
		s->ply--;
		xqi_position_unmake(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply]);
		s->cur = s->g->nodes[s->cur].parent;
	}
	s->cur = f->cur;
	s->ply = f->ply;
	s->moves = f->moves;
	s->after_number = 0;
	s->check_known = 0;
	if (f->after_cut)
		s->cut = r->saved[--r->nsaved];
	else
		xqi_position_make(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply - 1]);
	return 0;
}

/*
 * Does this tag line, read before any move text, start the next game?  It
 * does after a blank line (tag sections have none), and when it is a
 * second Game tag: so a game with no moves and no result still ends.
 */
static int new_header(struct pgn_reader *r, const struct gstate *s, const struct tok *t)
{
	if (s->g->ntags == 0)
		return 0;
	if (t->place.line > s->last_tag_line + 1)
		return 1;
	return t->body_end - t->body == 4 && !memcmp(xqi_pgn_tok_text(r, t->body), "Game", 4) &&
	       xqi_record_tag(s->g, "Game") != NULL;
}

/* The reader's hooks. */
struct reading_game {
	struct pgn_reader *r;
	struct gstate *s;
};

static int rg_new_header(void *ctx, const struct tok *t)
{
	struct reading_game *rg = ctx;

	return new_header(rg->r, rg->s, t);
}

static const char *rg_word(void *ctx, const struct tok *t, size_t *n, int always)
{
	struct reading_game *rg = ctx;

	(void)always;
	*n = (size_t)(t->end - t->start);
	return xqi_pgn_tok_text(rg->r, t->start);
}

static int rg_comment(void *ctx, const struct tok *t)
{
	struct reading_game *rg = ctx;
	struct pgn_reader *r = rg->r;
	struct gstate *s = rg->s;

	if (!s->broken) {
		uint32_t last = xqi_record_mainline_end(s->g);
		if (comment_text(r, s->g, t, s->ply) ||
		    (r->scratch.len &&
		     post_add(r, s->g, last, r->scratch.ptr, r->scratch.len))) {
			oom(r, s);
			return 1;
		}
	}
	return 0;
}

static void rg_trailing(void *ctx, const struct tok *t)
{
	struct reading_game *rg = ctx;
	const char *w = xqi_pgn_tok_text(rg->r, t->start);
	size_t n = (size_t)(t->end - t->start), k = n > 40 ? 40 : n;

	/* The text is quoted in the message (cut at a character boundary):
	 * it names no move, so the move's slot stays empty. */
	long fixed = 0;

	while (k > 0 && k < n && ((unsigned char)w[k] & 0xC0) == 0x80)
		k--;
	/* Bytes that are not text are quoted as U+FFFD. */
	if (t->bad && (w = xqi_pgn_tok_fixed(rg->r, t, t->start, t->start + k, 0, &k, &fixed)) == NULL)
		return;
	xqi_pgn_report(rg->r, rg->s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_TRAILING,
		       "text after the result is not part of the game and is skipped: '%.*s'", (int)k, w);
}

static struct game_end reading_end(struct reading_game *rg)
{
	struct game_end e = {rg, rg_new_header, rg_word, rg_comment, rg_trailing,
			     &rg->s->last_tag_line};
	return e;
}

/* Skip to the start of the next game after an error. */
static void resync(struct pgn_reader *r, struct gstate *s)
{
	struct reading_game rg = {r, s};
	struct game_end e = reading_end(&rg);

	if (xqi_pgn_skip_broken(r, (long)r->nstack, s->movetext, &e)) {
		/* The game's own result marker: keep it, it ends the game. */
		const struct tok *t = &r->tok;
		enum xqi_result res;
		int std = 1;
		xqi_pgn_result_of(xqi_pgn_tok_text(r, t->start), (size_t)(t->end - t->start), &res, &std);
		s->have_result = 1;
		xqi_pgn_take_result(r, s->g, t, std);
	}
}

/* After the result: comments belong to the game; other text is reported. */
static void after_result(struct pgn_reader *r, struct gstate *s)
{
	struct reading_game rg = {r, s};
	struct game_end e = reading_end(&rg);

	xqi_pgn_skip_after_result(r, &e);
}

static int notation_matches_format(int dialect, const char *format)
{
	char low[16];
	size_t n = strlen(format);

	if (n >= sizeof(low))
		return 1;
	for (size_t i = 0; i <= n; i++)
		low[i] = (char)xq_to_lower((unsigned char)format[i]);
	switch (dialect) {
	case XQ_DIALECT_ICCS:
	case XQ_DIALECT_UCI:
	case XQ_DIALECT_UCI1:
		return !strcmp(low, "iccs") || !strcmp(low, "uci") || !strcmp(low, "ucci");
	case XQ_DIALECT_WXF:
		return !strcmp(low, "wxf");
	case XQ_DIALECT_CHINESE:
		return !strcmp(low, "chinese") || !strcmp(low, "") || !strcmp(low, "cn") ||
		       !strcmp(low, "zh");
	case XQ_DIALECT_SAN:
		return !strcmp(low, "san") || !strcmp(low, "xboard");
	default:
		return 1;
	}
}

static void finish(struct pgn_reader *r, struct gstate *s, const struct xqi_place *end_place)
{
	struct xqi_record *g = s->g;

	/* Cuts set aside for an alternative that the game's end left open. */
	while (r->nsaved > 0)
		xqi_pgn_cut_end(r, g, &r->saved[--r->nsaved], 1);

	if (r->nstack > 0 && !s->broken)
		fail(r, s, end_place, 0, NULL, 0, XQI_D_SYNTAX, "%zu variation%s not closed with ')'",
		     r->nstack, r->nstack > 1 ? "s" : "");
	r->nstack = 0;
	if (!s->broken && flush_pre(r, s))
		oom(r, s);
	s->have_pre = 0;
	xq_buf_reset(&r->pre);
	if (s->broken)
		return;
	if (s->total == 0) {
		g->flags |= XQI_RECORD_EMPTY;
		xqi_pgn_report(r, g, &g->place, 0, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_EMPTY_GAME, "the game has no moves");
	}
	xqi_pgn_read_result_tag(r, g, s->result_tag, &s->result_place, s->have_result);
	if (!s->have_result) {
		/* At the last token of the moves, not at what follows them
		 * (the next game's first tag). */
		if (s->total > 0)
			xqi_pgn_report(r, g, s->have_last ? &s->last_place : end_place, 0, NULL, 0,
				       XQ_SEVERITY_NOTE, XQI_D_NO_RESULT,
				       "the moves end with no result marker%s",
				       g->result != XQI_RESULT_NONE ? "; the Result tag is used" : "");
	} else if (s->result_tag && *s->result_tag) {
		enum xqi_result tr;
		if (xqi_result_word(s->result_tag, strlen(s->result_tag), g->start.side, &tr) < 0)
			tr = XQI_RESULT_UNKNOWN;
		if (tr != g->result)
			xqi_pgn_report(r, g, &s->result_place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_BAD_RESULT,
				       "the Result tag says '%s' but the moves end with '%s'", s->result_tag,
				       g->result_text ? g->result_text : xqi_result_string(g->result));
	}
	if (s->format_tag && s->dialect != XQ_DIALECT_AUTO &&
	    !notation_matches_format(s->dialect, s->format_tag))
		xqi_pgn_report(r, g, &s->format_place, 0, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_BAD_TAG,
			       "the Format tag says '%s' but the moves are in %s notation", s->format_tag,
			       xqi_notation_name((enum xq_dialect)s->dialect));
}

static int handle_word(struct pgn_reader *r, struct gstate *s, const struct tok *t, int *done)
{
	const char *w = xqi_pgn_tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start);
	enum xqi_result res;
	int std, nag;

	*done = 0;
	/* Most words are moves starting with an ASCII letter (h2e2, C2.5, Nf3):
	 * never a result, an ellipsis, an annotation or a check mark, which
	 * start with a digit, '*', '.', '!', '?', '+', '#' or a byte >= 0x80. */
	if (((w[0] | 0x20) >= 'a' && (w[0] | 0x20) <= 'z') &&
	    !(s->g->ntags == 0 && s->total == 0 && !s->start_given))
		return add_move(r, s, t);
	if (xqi_pgn_result_of(w, n, &res, &std)) {
		if (r->nstack > 0) {
			fail(r, s, &t->place, s->ply, w, n, XQI_D_SYNTAX,
			     "a result inside a variation");
			return 0;
		}
		s->have_result = 1;
		if (xqi_pgn_take_result(r, s->g, t, std))
			return oom(r, s);
		*done = 1;
		return 0;
	}
	if (xqi_pgn_is_ellipsis(w, n))
		return 0;
	if ((nag = xqi_pgn_nag_of(w, n)) != 0) {
		if (s->moves == 0) {
			xqi_pgn_report(r, s->g, &t->place, s->ply, w, n, XQ_SEVERITY_WARNING, XQI_D_SYNTAX,
				       "an annotation before any move is ignored");
			return 0;
		}
		return xqi_record_add_nag(s->g, s->cur, (uint8_t)nag) ? oom(r, s) : 0;
	}
	if ((w[0] == '+' || w[0] == '#') && xqi_pgn_only_of(w, n, "+#"))
		return 0; /* a check mark written apart from its move */
	if (s->g->ntags == 0 && s->total == 0 && !s->start_given && xqi_pgn_count_slashes(w, n) == 9)
		return take_fen_line(r, s, t);
	return add_move(r, s, t);
}

/*
 * One token of a game.  Sets *ended when the game ended before it (it is
 * pushed back for the next game) and *done after the result.
 */
static int take_token(struct pgn_reader *r, struct gstate *s, const struct tok *t, int *ended,
		      int *done)
{
	int rc = 0;

	if (t->type != T_EOF && t->type != T_IO && t->type != T_TAG) {
		s->last_place = t->place;
		s->have_last = 1;
	}
	if (s->cut.on && xqi_pgn_cut_token(r, s->g, &s->cut, t))
		return 0;
	/* Moves and move numbers first, by branches that learn the move
	 * text's rhythm (a number, a move or two), where the jump of the
	 * switch was mispredicted about one time in two. */
	if (t->type == T_WORD) {
		s->movetext = 1;
		return handle_word(r, s, t, done);
	}
	if (t->type == T_NUMBER) {
		s->movetext = 1;
		s->after_number = 1;
		return 0;
	}
	switch (t->type) {
	case T_EOF:
	case T_IO:
		finish(r, s, &t->place);
		*ended = 1;
		return 0;
	case T_TAG:
		if (!s->movetext && !new_header(r, s, t)) {
			rc = take_tag(r, s, t);
			s->last_tag_line = r->line;
			break;
		}
		xqi_pgn_push_back(r);
		finish(r, s, &t->place);
		*ended = 1;
		return 0;
	case T_COMMENT:
		rc = take_comment(r, s, t);
		if (s->total || s->g->ntags)
			s->movetext = 1;
		break;
	case T_ESCAPE:
		xqi_pgn_report(r, s->g, &t->place, 0, NULL, 0, XQ_SEVERITY_NOTE, XQI_D_SYNTAX,
			       "escape line ('%%' in column 1) ignored");
		break;
	case T_LPAREN:
		rc = open_variation(r, s, t);
		break;
	case T_RPAREN:
		rc = close_variation(r, s, t);
		break;
	case T_NAG:
		s->movetext = 1;
		if (t->num > 255 || s->moves == 0)
			xqi_pgn_report(r, s->g, &t->place, s->ply, xqi_pgn_tok_text(r, t->start),
				       (size_t)(t->end - t->start), XQ_SEVERITY_WARNING, XQI_D_SYNTAX,
				       t->num > 255 ? "NAG out of range (0-255) ignored"
						    : "a NAG before any move is ignored");
		else if (xqi_record_add_nag(s->g, s->cur, (uint8_t)t->num))
			rc = oom(r, s);
		break;
	case T_NUMBER:
	case T_WORD:
		break; /* (taken above) */
	case T_UNTERMINATED:
		fail(r, s, &t->place, s->ply, NULL, 0, XQI_D_SYNTAX,
		     "'{' opens a comment that is not closed%s",
		     r->raw_eof ? "" : " within 1 MiB");
		break;
	case T_STRAY:
		fail(r, s, &t->place, s->ply, xqi_pgn_tok_text(r, t->start), 1, XQI_D_SYNTAX,
		     "unexpected '%c'", *xqi_pgn_tok_text(r, t->start));
		break;
	case T_TOO_LONG:
		fail(r, s, &t->place, s->ply, NULL, 0, XQI_D_RESOURCE,
		     "a line or word longer than 1 MiB");
		break;
	}
	return rc;
}

/*
 * The game runs past its limit at the token just read: it is kept broken
 * with what came before, and the token is read again as the first of the
 * text skipped to the next game (xqi_pgn_over_game()).
 */
static void over_game(struct pgn_reader *r, struct gstate *s)
{
	const struct tok *t = &r->tok;
	struct xq_diagnostic d;

	/* No line in the text: a chunk read by the batch counts its lines
	 * from its own start, and only the diagnostic's place is put right. */
	xqi_diagnostic_init(&d);
	xqi_format_limit_diag_then(&d, r->fmt, &r->opts, "the game",
				  "it is kept up to here, its rest is skipped and reading goes on "
				  "at the next game");
	fail(r, s, &t->place, s->ply, NULL, 0, XQI_D_RESOURCE, "%s", d.msg);
	r->game_start = NO_POS;
	xqi_pgn_push_back(r);
}

static int movetext(struct pgn_reader *r, struct gstate *s)
{
	for (uint64_t was = xqi_pgn_tok_progress(r);; XQI_ADVANCED(was, xqi_pgn_tok_progress(r))) {
		const struct tok *t = xqi_pgn_next_tok(r);
		int done = 0, ended = 0, rc = 0;
		if (xqi_pgn_over_game(r, t) &&
		    !(t->type == T_TAG && (s->movetext || new_header(r, s, t)))) {
			over_game(r, s);
		} else if (t->bad && t->type == T_WORD) {
			/* Move text that does not decode: the game is broken, as
			 * by any word that is no move (tags and comments are
			 * repaired where they are taken). */
			xqi_pgn_cut_end(r, s->g, &s->cut, 1);
			s->movetext = 1;
			s->last_place = t->place;
			s->have_last = 1;
			fail_bad_byte(r, s, t);
		} else {
			rc = take_token(r, s, t, &ended, &done);
		}
		if (ended)
			return 0;
		if (rc)
			return rc;
		if (s->broken) {
			resync(r, s);
			if (s->have_result)
				after_result(r, s);
			finish(r, s, &t->place);
			return 0;
		}
		if (done) {
			struct xqi_place end = t->place;
			if (flush_pre(r, s))
				return oom(r, s);
			after_result(r, s);
			finish(r, s, &end);
			return 0;
		}
	}
}

static int read_game(struct pgn_reader *r, struct xqi_record *g)
{
	struct gstate s;
	const struct tok *t;

	xqi_record_clear(g);
	r->post_node = XQ_NO_NODE;
	xq_buf_reset(&r->post);
	t = xqi_pgn_next_tok(r);
	if (t->type == T_EOF)
		return 0;
	if (t->type == T_IO)
		return r->io_rc;
	xqi_pgn_push_back(r);
	r->game_start = t->start;
	r->game_line = t->place.line;
	memset(&s, 0, sizeof(s));
	s.g = g;
	s.board = g->start;
	s.cur = XQI_ROOT;
	s.dialect = XQ_DIALECT_AUTO;
	g->number = ++r->games;
	g->source = r->name;
	g->place = t->place;
	r->nstack = 0;
	r->nsaved = 0;
	xq_buf_reset(&r->pre);
	{
		int rc = movetext(r, &s);
		if (rc)
			return rc == XQ_ERANGE ? rc : XQ_ENOMEM;
		if (post_flush(r, g))
			return XQ_ENOMEM;
	}
	if (r->io_rc)
		return r->io_rc;
	{
		/* The game's text runs to the next game's first token (or the
		 * end).  Text that is all ASCII is UTF-8 as well; a game that
		 * reaches the input's first other byte is in the encoding found
		 * there.  This depends on the bytes alone, never on how far the
		 * reader happened to read ahead, so chunk readers agree. */
		uint64_t end = r->pushed ? r->tok.start : r->pos;
		enum xqi_encoding enc =
			r->enc != XQI_ENC_UNKNOWN && r->first_high < end ? r->enc : XQI_ENC_UTF8;
		/* Lines in another encoding: the first one is reported, and the
		 * game is said to be in that encoding.  The line of the next
		 * game's first token is that game's (a BOM before its tag). */
		uint64_t upto = r->pushed && r->line_start <= end ? r->line_start : end;
		xqi_pgn_take_foreign(r, upto);
		for (int kind = XQI_TEXTDEC_FOREIGN; kind <= XQI_TEXTDEC_AMBIGUOUS; kind += 2) {
			for (size_t i = 0; i < r->nforeign && r->foreign[i].dpos < upto; i++) {
				const struct foreign *f = &r->foreign[i];
				char msg[200];
				if ((int)f->kind != kind)
					continue;
				if (kind == XQI_TEXTDEC_FOREIGN) {
					xqi_textdec_foreign_message(msg, sizeof(msg), f->enc, r->enc);
					enc = f->enc;
				} else {
					xqi_textdec_ambiguous_message(msg, sizeof(msg), f->enc);
				}
				xqi_pgn_report(r, g, &f->place, 0, NULL, 0, XQ_SEVERITY_WARNING, XQI_D_ENCODING, "%s",
					       msg);
				break;
			}
		}
		/* Placed ones from the next game's line stay for it. */
		{
			size_t keep = 0;
			for (size_t i = 0; i < r->nforeign; i++)
				if (r->foreign[i].dpos >= upto)
					r->foreign[keep++] = r->foreign[i];
			r->nforeign = keep;
		}
		g->encoding = xqi_encoding_name(enc);
	}
	return 1;
}

int xqi_pgn_read(void *reader, struct xqi_record *g)
{
	struct pgn_reader *r = reader;
	int rc = read_game(r, g);

	r->game_start = NO_POS;
	return xqi_read_guard(&r->guard, rc, xqi_pgn_tok_progress(r), g, r->sink);
}
