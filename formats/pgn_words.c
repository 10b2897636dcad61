/*
 * pgn_words.c: the words of PGN move text and the ends of games, as the
 * parser (pgn_read.c) and the splitter (pgn_split.c, pgn_quick.c) both
 * read them: NAGs, result markers, ellipses, marks written onto moves,
 * a FEN on its own line, and the skipping to the next game after an
 * error or after the result; and the parser's skipping of a variation cut
 * at a move that could not be read.
 */
#include "pgn_int.h"

/* ---- words ------------------------------------------------------------------ */

int xqi_pgn_nag_of(const char *w, size_t n)
{
	if (n == 0 || n > 2 || (w[0] != '!' && w[0] != '?'))
		return 0;
	if (n == 1)
		return w[0] == '!' ? 1 : 2;
	if (w[1] == w[0])
		return w[0] == '!' ? 3 : 4;
	return w[1] == '?' ? 5 : w[1] == '!' ? 6 : 0;
}

int xqi_pgn_only_of(const char *w, size_t n, const char *set)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, w[i]))
			return 0;
	return 1;
}

/* Does `w` (3 bytes or more) start with a character that a result word
 * starts with: 红 紅 黑 先 后 後 和 平 未 不?  Of the moves, only those
 * of the rear piece (后车进一) do: the others are done with here. */
static int result_lead(const char *w)
{
	switch ((uint32_t)(unsigned char)w[0] << 16 | (uint32_t)(unsigned char)w[1] << 8 |
		(unsigned char)w[2]) {
	case 0xE7BAA2: /* 红 */
	case 0xE7B485: /* 紅 */
	case 0xE9BB91: /* 黑 */
	case 0xE58588: /* 先 */
	case 0xE5908E: /* 后 */
	case 0xE5BE8C: /* 後 */
	case 0xE5928C: /* 和 */
	case 0xE5B9B3: /* 平 */
	case 0xE69CAA: /* 未 */
	case 0xE4B88D: /* 不 */
		return 1;
	default:
		return 0;
	}
}

/*
 * Result markers: PGN's, and the words written in their place in Chinese
 * (红胜, 和棋, 先负, ... as xqi_result_word() reads them; *res as if red
 * moved first, for 先 and 后).  Returns 1 if `w` is one.
 */
int xqi_pgn_result_of(const char *w, size_t n, enum xqi_result *res, int *standard)
{
	unsigned char c = n ? (unsigned char)w[0] : 0;
	int k;

	/* Every move of every notation starts otherwise or is longer: most
	 * words are done with here (a Chinese word is of 3-byte characters,
	 * and none of the result words starts as a move does but 后 and 後). */
	if (c == '1' || c == '0' || c == '*' || c == 0xC2) {
		if (xqi_result_parse(w, n, res) != 0)
			return 0;
		*standard = c != 0xC2; /* ½-½ is not */
		return 1;
	}
	if (c < 0xE4 || c > 0xE9 || n % 3 != 0 || n > 18 || !result_lead(w))
		return 0;
	k = xqi_result_word(w, n, XQI_RED, res);
	if (k < 0)
		return 0;
	*standard = k == XQI_RESULT_IS_STANDARD;
	return 1;
}

int xqi_pgn_take_result(struct pgn_reader *r, struct xqi_record *g, const struct tok *t, int std)
{
	const char *w = xqi_pgn_tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start);
	enum xqi_result res = XQI_RESULT_UNKNOWN;

	if (std) {
		xqi_result_parse(w, n, &g->result);
		return 0;
	}
	xqi_result_word(w, n, g->start.side, &res);
	g->result = res;
	if (!(g->result_text = xqi_record_strdup(g, w, n)))
		return XQ_ENOMEM;
	xqi_format_report(r->sink, r->name, g->number, &t->place, 1, 0, NULL, 0, XQI_D_SYNTAX,
			 XQ_SEVERITY_NOTE, "the game ends with '%s', read as %s", g->result_text,
			 xqi_result_meaning(res));
	return 0;
}

void xqi_pgn_read_result_tag(struct pgn_reader *r, struct xqi_record *g, const char *tag,
			    const struct xqi_place *at, int have_result)
{
	enum xqi_result tr;
	int k;

	if (!tag || !*tag)
		return;
	k = xqi_result_word(tag, strlen(tag), g->start.side, &tr);
	if (k == XQI_RESULT_IS_WORD)
		xqi_format_report(r->sink, r->name, g->number, at, 1, 0, NULL, 0, XQI_D_BAD_TAG,
				 XQ_SEVERITY_NOTE, "the Result tag '%s' is read as %s", tag,
				 xqi_result_meaning(tr));
	if (have_result)
		return;
	g->result = k < 0 ? XQI_RESULT_UNKNOWN : tr;
	if (k != XQI_RESULT_IS_STANDARD)
		g->result_text = tag;
}

int xqi_pgn_is_ellipsis(const char *w, size_t n)
{
	if (n == 0 || (w[0] != '.' && (unsigned char)w[0] != 0xE2))
		return 0;
	if (xqi_pgn_only_of(w, n, "."))
		return n >= 2;
	return (n == 3 && !memcmp(w, "\xE2\x80\xA6", 3)) ||   /* … */
	       (n == 6 && !memcmp(w, "\xE2\x80\xA6\xE2\x80\xA6", 6));
}

/*
 * The length of `w` without the check marks and annotations written onto
 * the move (`+ # ! ?`, ASCII or full-width: no notation's move ends in
 * one).  The marks, made ASCII, go to `marks` (up to 7, NUL-terminated).
 */
size_t xqi_pgn_split_marks(const char *w, size_t n, char marks[8])
{
	size_t core = n, k = 0;
	char rev[8];
	unsigned char last = n ? (unsigned char)w[n - 1] : 0;

	if (n && (xq_is_alpha(last) || xq_is_digit(last) ||
		  (last >= 0x80 && !(n >= 3 && (unsigned char)w[n - 3] == 0xEF &&
				     (unsigned char)w[n - 2] == 0xBC &&
				     (last == 0x81 || last == 0x9F || last == 0x8B || last == 0x83))))) {
		/* The common case, no mark: a letter, a digit or a character
		 * that is not ASCII (but for a full-width mark) ends the move. */
		marks[0] = '\0';
		return n;
	}
	for (;;) {
		unsigned char c = core ? (unsigned char)w[core - 1] : 0;
		char m = 0;
		size_t len = 1;
		if (c == '!' || c == '?' || c == '+' || c == '#') {
			m = (char)c;
		} else if (core >= 3 && (unsigned char)w[core - 3] == 0xEF &&
			   (unsigned char)w[core - 2] == 0xBC) {
			/* ！ ？ ＋ ＃ are EF BC 81, 9F, 8B, 83 */
			m = c == 0x81 ? '!' : c == 0x9F ? '?' : c == 0x8B ? '+' : c == 0x83 ? '#' : 0;
			len = 3;
		}
		if (!m)
			break;
		if (k < sizeof(rev) - 1)
			rev[k++] = m;
		core -= len;
	}
	for (size_t i = 0; i < k; i++)
		marks[i] = rev[k - 1 - i];
	marks[k] = '\0';
	return core;
}

int xqi_pgn_count_slashes(const char *w, size_t n)
{
	int k = 0;

	for (size_t i = 0; i < n; i++)
		k += w[i] == '/';
	return k;
}

/* Where a FEN written on its own line (the word `t`) ends. */
uint64_t xqi_pgn_fen_line_end(struct pgn_reader *r, const struct tok *t)
{
	uint64_t p = t->end, end = t->end;
	int field = 1;

	/* The board, then on the same line the fields a FEN may have: side,
	 * two '-', two counters.  Moves may follow on the line. */
	while (field < 6) {
		uint64_t a = p, b;
		while (xqi_pgn_have(r, a, t->start) && (AT(r, a) == ' ' || AT(r, a) == '\t'))
			a++;
		b = a;
		while (xqi_pgn_have(r, b, t->start) && AT(r, b) > ' ' && b - a < 8)
			b++;
		if (b == a || (b < END(r) && AT(r, b) > ' '))
			break;
		if (field == 1 ? !(b - a == 1 && strchr("wbr", AT(r, a)))
			       : field < 4 ? !(b - a == 1 && AT(r, a) == '-')
					   : !xq_is_digit(AT(r, a)))
			break;
		p = end = b;
		field++;
	}
	return end;
}

/* ---- the ends of games ------------------------------------------------------- */

/* Does this word look like a move (so a game without tags starts here)? */
int xqi_pgn_looks_like_move(const char *w, size_t n)
{
	char marks[8];

	if (n > WORD_MAX)
		return 0;
	n = xqi_pgn_split_marks(w, n, marks);
	return n > 0 && xqi_notation_detect(w, n) != XQ_DIALECT_AUTO;
}


/*
 * Skip to the start of the next game after an error (`depth` variations
 * open, `movetext` seen): returns 1 at the game's own result marker (the
 * current token; it ends the game), 0 at the next game (pushed back) or
 * the end.
 */
static int skip_broken_tokens(struct pgn_reader *r, long depth, int movetext,
			      const struct game_end *e)
{
	for (uint64_t was = xqi_pgn_tok_progress(r);; XQI_ADVANCED(was, xqi_pgn_tok_progress(r))) {
		const struct tok *t = xqi_pgn_next_tok(r);
		if (t->type != T_TAG && t->type != T_COMMENT)
			movetext = 1;
		switch (t->type) {
		case T_EOF:
		case T_IO:
			return 0;
		case T_TAG:
			/* The rest of a broken header is still this game's. */
			if (!movetext && !e->new_header(e->ctx, t)) {
				*e->last_tag_line = r->line;
				break;
			}
			xqi_pgn_push_back(r);
			return 0;
		case T_LPAREN:
			depth++;
			break;
		case T_RPAREN:
			depth--;
			break;
		case T_WORD: {
			enum xqi_result res;
			int std;
			size_t n;
			const char *w = e->word(e->ctx, t, &n, 0);
			if (depth <= 0 && xqi_pgn_result_of(w, n, &res, &std))
				return 1;
			break;
		}
		default:
			break;
		}
	}
}

/* After the result: comments belong to the game, up to the next game;
 * other text is skipped. */
static void skip_tokens_after_result(struct pgn_reader *r, const struct game_end *e)
{
	for (uint64_t was = xqi_pgn_tok_progress(r);; XQI_ADVANCED(was, xqi_pgn_tok_progress(r))) {
		const struct tok *t = xqi_pgn_next_tok(r);
		switch (t->type) {
		case T_COMMENT:
			if (e->comment && e->comment(e->ctx, t))
				return;
			continue;
		case T_EOF:
		case T_IO:
			return;
		case T_TAG:
		case T_NUMBER:
			xqi_pgn_push_back(r);
			return;
		case T_WORD:
			if (!t->bad) {
				size_t n;
				const char *w = e->word(e->ctx, t, &n, 1);
				if (xqi_pgn_looks_like_move(w, n)) {
					xqi_pgn_push_back(r);
					return;
				}
			}
			break;
		default:
			break;
		}
		/* Text that is neither a comment nor the next game. */
		if (e->trailing)
			e->trailing(e->ctx, t);
		for (uint64_t was2 = xqi_pgn_tok_progress(r);; XQI_ADVANCED(was2, xqi_pgn_tok_progress(r))) {
			t = xqi_pgn_next_tok(r);
			if (t->type == T_EOF || t->type == T_IO)
				return;
			if (t->type == T_TAG || t->type == T_NUMBER) {
				xqi_pgn_push_back(r);
				return;
			}
		}
	}
}

/* Skipping holds no game: at most XQI_SKIP_MAX bytes of it. */
static void skip_begin(struct pgn_reader *r)
{
	r->skip_start = r->pos;
	r->skip_line = r->line;
}

int xqi_pgn_skip_broken(struct pgn_reader *r, long depth, int movetext, const struct game_end *e)
{
	int rc;

	skip_begin(r);
	rc = skip_broken_tokens(r, depth, movetext, e);
	r->skip_start = NO_POS;
	return rc;
}

void xqi_pgn_skip_after_result(struct pgn_reader *r, const struct game_end *e)
{
	skip_begin(r);
	skip_tokens_after_result(r, e);
	r->skip_start = NO_POS;
}

/* ---- a variation cut at a bad move ---------------------------------------------- */

void xqi_pgn_cut_begin(struct pgn_cut *c, const struct xq_diagnostic *d)
{
	c->on = 1;
	c->nest = 0;
	c->moves = 1;
	c->closed = 0;
	c->d = *d;
}

void xqi_pgn_cut_end(struct pgn_reader *r, struct xqi_record *g, struct pgn_cut *c, int partial)
{
	if (!c->on)
		return;
	c->on = 0;
	c->closed = !partial;
	g->flags |= XQI_RECORD_CUT;
	xqi_cut_message(&c->d, 0, c->moves, partial);
	xqi_sink_report(r->sink, &c->d);
}

int xqi_pgn_cut_token(struct pgn_reader *r, struct xqi_record *g, struct pgn_cut *c,
		     const struct tok *t)
{
	const char *w;
	size_t n;
	enum xqi_result res;
	int std;

	switch (t->type) {
	case T_WORD:
		w = xqi_pgn_tok_text(r, t->start);
		n = (size_t)(t->end - t->start);
		if (xqi_pgn_result_of(w, n, &res, &std))
			break; /* the game ends inside the variation */
		if (!xqi_pgn_is_ellipsis(w, n) && !xqi_pgn_nag_of(w, n) &&
		    !((w[0] == '+' || w[0] == '#') && xqi_pgn_only_of(w, n, "+#")))
			c->moves++;
		return 1;
	case T_NUMBER:
	case T_COMMENT:
	case T_NAG:
	case T_ESCAPE:
		return 1;
	case T_LPAREN:
		/* Right after the bad move: an alternative to it, read. */
		if (c->nest == 0 && c->moves == 1)
			return 0;
		c->nest++;
		return 1;
	case T_RPAREN:
		if (c->nest > 0) {
			c->nest--;
			return 1;
		}
		xqi_pgn_cut_end(r, g, c, 0);
		return 0;
	default:
		break;
	}
	xqi_pgn_cut_end(r, g, c, 1);
	return 0;
}
