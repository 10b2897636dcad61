/*
 * pgn_split.c: PGN chunk readers and the splitter that cuts an
 * input into chunks for parallel reading (see pgn.c for the
 * whole, pgn_int.h for what the parts share).
 */
#include "pgn_int.h"

/* ---- reading chunks, and splitting an input into them ------------------------ */

/*
 * A chunk reader is the reader above started at a split point: its
 * cursors (position, line, column 1, game count) are what the sequential
 * reader has there, and the encoding is the input's, found by the splitter
 * from the bytes at the input's start (a chunk may hold only ASCII, or
 * start in the middle of Chinese text).  Its bytes come from the caller.
 * start_at() starts reader `r` (its bytes set already) at chunk `c`.
 */
static int start_at(struct pgn_reader *r, const struct xqi_chunk *c)
{
	r->pos = r->base = r->col_pos = r->map_d = r->line_start = c->offset;
	r->raw_base = r->map_r = c->offset;
	r->line = c->line;
	r->games = c->records;
	if (c->offset > 0) {
		/* A byte order mark is looked for at the input's start only. */
		r->bom_checked = 1;
		if (r->opts.encoding != XQI_ENC_UNKNOWN && r->opts.encoding != XQI_ENC_UTF8) {
			if (xqi_pgn_start_conversion(r, r->opts.encoding))
				return XQ_EUNSUPPORTED;
			r->first_high = 0;
		} else if (r->opts.encoding == XQI_ENC_UNKNOWN && c->encoding != XQI_ENC_UNKNOWN &&
			   c->first_high < c->offset) {
			/* Past the first byte that is not ASCII: the encoding is set. */
			r->first_high = c->first_high;
			if (c->encoding == XQI_ENC_UTF8)
				r->enc = XQI_ENC_UTF8;
			else if (xqi_pgn_start_conversion(r, c->encoding))
				return XQ_EUNSUPPORTED;
		}
	}
	/* Met later in the chunk, the first byte that is not ASCII gets the
	 * encoding the splitter found there, not one guessed from the chunk. */
	if (r->enc == XQI_ENC_UNKNOWN)
		r->given = c->encoding;
	return 0;
}

static int pgn_open_chunk(void **out, const struct xqi_chunk *c, const struct xqi_read_opts *opts,
			  const struct xqi_sink *sink)
{
	struct pgn_reader *r = xqi_pgn_new_reader(opts, sink, &xqi_format_pgn);
	int rc;

	if (!r)
		return XQ_ENOMEM;
	r->src = c->bytes;
	r->name = c->name;
	if ((rc = start_at(r, c))) {
		xqi_pgn_close_reader(r);
		return rc;
	}
	*out = r;
	return 0;
}

/* When buf[k] starts a line: the first byte of the line before it, past
 * its blanks, or '\n' when that line is empty; 0 when buf[k] does not
 * start a line.  (buf[0] starts a line: a record starts there.) */
static char line_before(const char *buf, size_t k)
{
	size_t e = k, s;

	if (e >= 2 && buf[e - 1] == '\n' && buf[e - 2] == '\r')
		e -= 2;
	else if (e >= 1 && (buf[e - 1] == '\n' || buf[e - 1] == '\r'))
		e -= 1;
	else
		return 0;
	for (s = e; s > 0 && buf[s - 1] != '\n' && buf[s - 1] != '\r'; s--)
		;
	while (s < e && (buf[s] == ' ' || buf[s] == '\t'))
		s++;
	return s < e ? buf[s] : '\n';
}

/*
 * format.h: a line that starts with '[' and a letter after any line but a
 * tag line (a tag after tags is the same game's), where the reader starts
 * a game, unless it is inside a comment or a variation, which the chunk
 * check catches.  Files with and without blank lines between games both
 * cut.
 */
static int pgn_boundary(const char *buf, size_t len, size_t from, int eof, size_t *at, size_t *seen)
{
	for (size_t i = from; i < len;) {
		const char *p = memchr(buf + i, '[', len - i), *e;
		size_t k;
		char prev;
		if (!p)
			break;
		k = (size_t)(p - buf);
		i = k + 1;
		if (k + 1 >= len) {
			*at = k; /* its next byte is still to come */
			return 0;
		}
		prev = xq_is_alpha((unsigned char)buf[k + 1]) ? line_before(buf, k) : 0;
		if (!prev || prev == '[')
			continue;
		/* A reader of the game before sees this line to its end. */
		for (e = p; e < buf + len && *e != '\n' && *e != '\r'; e++)
			;
		if (e == buf + len && !eof) {
			*at = k;
			return 0;
		}
		*at = k;
		*seen = (size_t)(e - buf) + (e < buf + len);
		return 1;
	}
	*at = len;
	return 0;
}

/* format.h: the sample a reader decides on is the SAMPLE bytes from the
 * start of the line (or the decoder's piece of a long one) holding h. */
static int pgn_decide(const char *buf, size_t len, size_t from, size_t h, int eof,
		      enum xqi_encoding *enc)
{
	size_t ls = xqi_pgn_unit_start(buf, from, h);

	if (!eof && len - ls < SAMPLE)
		return 0;
	*enc = xqi_pgn_detect_sample(buf + ls, len - ls);
	if (*enc == XQI_ENC_UTF16LE || *enc == XQI_ENC_UTF16BE)
		return XQ_EUNSUPPORTED;
	return 1;
}

static int pgn_chunk_next(void *reader, struct xqi_place *next)
{
	struct pgn_reader *r = reader;

	/* The game ended on seeing the next one's first token, which is
	 * pushed back; with the end of the bytes met, the game might have
	 * gone on in bytes the chunk does not have. */
	if (r->raw_eof || r->io_rc || !r->pushed)
		return 0;
	*next = r->tok.place;
	return 1;
}

/*
 * The splitter runs the reader's own lexer over the input (so tokens,
 * lines, columns, offsets, the encoding and every quirk of the text are
 * exactly the reader's) and follows, token by token, the decisions that
 * end a game: a tag after move text or after a blank line, a result and
 * what may follow it, the resynchronisation after an error it can see
 * (a stray brace, a bad byte, unbalanced parentheses, a result inside a
 * variation).  It builds no game and checks no move, so a game that a
 * move breaks may end elsewhere for the reader; the caller's check of
 * each chunk (chunk_next) catches that.
 *
 * A game start is a split point when its first token is a tag line
 * without flaws or a move number, in column 1: a reader of the games
 * before it must see that token to end the last of them, so the point's
 * `seen` is the end of its line.
 */
#define QUICK_SHORT 64 /* points: a quick run shorter than that doubles the wait */
#define WAIT_MAX 4096   /* points of the token scan at most before trying again */

struct pgn_split {
	struct pgn_quick *quick; /* the quick scan (pgn_quick.c), NULL for tokens only */
	int tokens;          /* the token scan has taken over from it */
	uint64_t left_at;    /* where the quick scan stopped */
	/* The quick scan takes over again after `wait` points of the token
	 * scan (`passed` so far); `wait` doubles each time the quick scan
	 * stops again within QUICK_SHORT points of its own (`quick_points`),
	 * so that a file where every game leaves the usual shape is not
	 * handed back and forth at every game. */
	uint64_t wait, passed, quick_points;
	int has_skip;
	uint64_t skip_to;    /* the token scan's points up to here were given already */
	struct xqi_read_opts opts;
	int has_opts;
	struct pgn_reader *r; /* the token scan's (NULL until it takes over) */
	struct xq_buf word;  /* a word decoded for real */
	uint64_t games;      /* games started so far */
	int pending;         /* the game of the point returned last is still to scan */
	/* the game being scanned */
	size_t ntags;
	int game_tag;        /* it has a Game tag */
	int movetext, start_given, broken, result;
	uint64_t last_tag_line;
	uint32_t total, moves;
	uint32_t *stack;     /* `moves` of the lines a '(' left */
	size_t nstack, stack_cap;
};

static void no_report(const struct xq_diagnostic *d, void *payload)
{
	(void)d;
	(void)payload;
}

static const struct xqi_sink silent = {no_report, NULL};

static void pgn_split_close(void *sp)
{
	struct pgn_split *s = sp;

	if (!s)
		return;
	xqi_pgn_quick_free(s->quick);
	xqi_pgn_close_reader(s->r);
	xq_buf_release(&s->word);
	free(s->stack);
	free(s);
}

/* The token scan's reader, at the input's start, reading `src`. */
static struct pgn_reader *token_reader(const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	struct pgn_reader *r = xqi_pgn_new_reader(opts, &silent, &xqi_format_pgn);

	if (!r || !(r->shadow = calloc(1, sizeof(*r->shadow)))) {
		if (r)
			xqi_pgn_close_reader(r);
		return NULL;
	}
	xq_buf_init(&r->shadow->tmp);
	r->src = *src;
	r->name = "";
	return r;
}

static int split_open(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts, int quick)
{
	struct pgn_split *s = calloc(1, sizeof(*s));

	if (!s)
		return XQ_ENOMEM;
	xq_buf_init(&s->word);
	s->opts = opts ? *opts : (struct xqi_read_opts){0};
	s->has_opts = opts != NULL;
	if (quick)
		s->quick = xqi_pgn_quick_new(src, opts);
	else
		s->r = token_reader(src, opts);
	if (!s->quick && !s->r) {
		pgn_split_close(s);
		return XQ_ENOMEM;
	}
	*out = s;
	return 0;
}

static int pgn_split_open(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	return split_open(out, src, opts, 1);
}

static int pgn_split_open_tokens(void **out, const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	return split_open(out, src, opts, 0);
}

/* Is tag line `t`, read before any move text, the next game's?  As new_header(). */
static int split_new_header(struct pgn_split *s, const struct tok *t)
{
	if (s->ntags == 0)
		return 0;
	if (t->place.line > s->last_tag_line + 1)
		return 1;
	return t->body_end - t->body == 4 && !memcmp(xqi_pgn_tok_text(s->r, t->body), "Game", 4) &&
	       s->game_tag;
}

/*
 * The text of word `t` (its length in *n): the lexer's, unless that holds
 * placeholders for legacy characters and the word is one whose characters
 * matter: a result, an ellipsis or annotation marks (three characters at
 * most), or a word that may be too long to be a move; `always` asks for
 * the real text in any case.
 */
static const char *split_word_text(struct pgn_split *s, const struct tok *t, size_t *n, int always)
{
	struct pgn_reader *r = s->r;
	const char *w = xqi_pgn_tok_text(r, t->start);
	size_t len = (size_t)(t->end - t->start), chars = 0, bad;
	int high = 0;
	uint64_t a, b;

	*n = len;
	if (!r->conv || !r->shadow || !r->shadow->placeholders || (!always && len > 9 && len <= 60))
		return w; /* more than 3 characters (none is more than 3 bytes) */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)w[i];
		chars += (c & 0xC0) != 0x80;
		high |= c >= 0x80;
	}
	if (!high || (!always && chars > 3 && len <= 60))
		return w;
	a = xqi_pgn_offset_of(r, t->start);
	b = xqi_pgn_offset_peek(r, t->end);
	xq_buf_reset(&s->word);
	if (b == UINT64_MAX ||
	    xqi_transcoder_convert(&r->shadow->tc, r->raw.ptr + (a - r->raw_base), (size_t)(b - a),
				  &s->word, &bad))
		return w;
	*n = s->word.len;
	return s->word.ptr;
}

static int split_header_hook(void *ctx, const struct tok *t)
{
	return split_new_header(ctx, t);
}

static const char *split_word_hook(void *ctx, const struct tok *t, size_t *n, int always)
{
	return split_word_text(ctx, t, n, always);
}

static struct game_end split_end(struct pgn_split *s)
{
	struct game_end e = {s, split_header_hook, split_word_hook, NULL, NULL, &s->last_tag_line};
	return e;
}

/* A word of the move text, as handle_word() and add_move() take it
 * (every move is taken as legal). */
static void split_word(struct pgn_split *s, const struct tok *t)
{
	struct pgn_reader *r = s->r;
	size_t n;
	const char *w = split_word_text(s, t, &n, 0);
	enum xqi_result res;
	int std;
	char marks[8];

	if (xqi_pgn_result_of(w, n, &res, &std)) {
		if (s->nstack > 0)
			s->broken = 1;
		else
			s->result = 1;
		return;
	}
	if (xqi_pgn_is_ellipsis(w, n) || xqi_pgn_nag_of(w, n) || ((w[0] == '+' || w[0] == '#') && xqi_pgn_only_of(w, n, "+#")))
		return;
	if (s->ntags == 0 && s->total == 0 && !s->start_given && xqi_pgn_count_slashes(w, n) == 9) {
		r->pos = xqi_pgn_fen_line_end(r, t);
		s->start_given = 1;
		return;
	}
	if (n > WORD_MAX || xqi_pgn_split_marks(w, n, marks) == 0) {
		s->broken = 1;
		return;
	}
	s->moves++;
	s->total++;
}

/* Scan one game, as xqi_pgn_read() and movetext() read it. */
static int split_game_tokens(struct pgn_split *s)
{
	struct pgn_reader *r = s->r;

	s->ntags = 0;
	s->game_tag = s->movetext = s->start_given = s->broken = s->result = 0;
	s->last_tag_line = s->total = s->moves = 0;
	s->nstack = 0;
	for (uint64_t was = xqi_pgn_tok_progress(r);; XQI_ADVANCED(was, xqi_pgn_tok_progress(r))) {
		const struct tok *t = xqi_pgn_next_tok(r);
		if (xqi_pgn_over_game(r, t) &&
		    !(t->type == T_TAG && (s->movetext || split_new_header(s, t)))) {
			/* Past the game's limit: the reader keeps the game broken
			 * and skips the rest from this token on (over_game()). */
			r->game_start = NO_POS;
			xqi_pgn_push_back(r);
			s->broken = 1;
		} else if (t->bad && t->type == T_WORD) {
			/* (tags and comments that hold such bytes are repaired) */
			s->movetext = 1;
			s->broken = 1;
		} else {
			switch (t->type) {
			case T_EOF:
			case T_IO:
				return 0;
			case T_TAG:
				if (s->movetext || split_new_header(s, t)) {
					xqi_pgn_push_back(r);
					return 0;
				}
				if (t->tag_flags & TAG_NO_NAME) {
					s->broken = 1;
				} else {
					const char *name = xqi_pgn_tok_text(r, t->body);
					size_t nlen = (size_t)(t->body_end - t->body);
					s->ntags++;
					if (nlen == 4 && !memcmp(name, "Game", 4))
						s->game_tag = 1;
					else if (nlen == 3 && !memcmp(name, "FEN", 3) && t->value_end > t->value)
						s->start_given = 1;
				}
				s->last_tag_line = r->line;
				break;
			case T_COMMENT:
				if (s->total || s->ntags)
					s->movetext = 1;
				break;
			case T_ESCAPE:
				break;
			case T_LPAREN:
				s->movetext = 1;
				if (s->moves == 0) {
					s->broken = 1;
					break;
				}
				if (XQ_ALLOC_GROW(s->stack, s->nstack + 1, s->stack_cap))
					return XQ_ENOMEM;
				s->stack[s->nstack++] = s->moves;
				s->moves = 0;
				break;
			case T_RPAREN:
				s->movetext = 1;
				if (s->nstack == 0)
					s->broken = 1;
				else
					s->moves = s->stack[--s->nstack];
				break;
			case T_NAG:
			case T_NUMBER:
				s->movetext = 1;
				break;
			case T_WORD:
				s->movetext = 1;
				split_word(s, t);
				break;
			case T_UNTERMINATED:
			case T_STRAY:
			case T_TOO_LONG:
				s->broken = 1;
				break;
			}
		}
		if (s->broken) {
			struct game_end e = split_end(s);
			if (xqi_pgn_skip_broken(r, (long)s->nstack, s->movetext, &e))
				xqi_pgn_skip_after_result(r, &e);
			return 0;
		}
		if (s->result) {
			struct game_end e = split_end(s);
			xqi_pgn_skip_after_result(r, &e);
			return 0;
		}
	}
}

/* The game whose first token is pushed back: its limits are the reader's. */
static int split_game(struct pgn_split *s)
{
	struct pgn_reader *r = s->r;
	int rc;

	r->game_start = r->tok.start;
	r->game_line = r->tok.place.line;
	rc = split_game_tokens(s);
	r->game_start = NO_POS;
	return rc;
}

/*
 * Is the game start `t` a split point?  Fills *pt but `records` when it
 * is: a tag line with no flaw, or a move number, in column 1, with its
 * line's end in reach.
 */
static int split_point(struct pgn_split *s, const struct tok *t, struct xqi_split_point *pt)
{
	struct pgn_reader *r = s->r;
	uint64_t p = t->end, start = xqi_pgn_offset_of(r, t->start), seen;

	if (t->bad || t->place.col != 1 || (t->type != T_NUMBER && t->type != T_TAG) ||
	    (t->type == T_TAG && t->tag_flags))
		return 0;
	for (;;) {
		unsigned char c;
		if (p - t->start > 4096 || !xqi_pgn_have(r, p, t->start))
			return 0;
		c = AT(r, p);
		if (c == '\n' || c == '\r')
			break;
		p++;
	}
	seen = xqi_pgn_offset_peek(r, p);
	if (seen == UINT64_MAX)
		return 0;
	pt->offset = start;
	pt->line = t->place.line;
	pt->seen = seen + 1;
	pt->encoding = r->enc;
	pt->first_high = r->first_high;
	return 1;
}

/*
 * The quick scan handed over: the token scan goes on from the last point
 * it gave (a game's first tag line, whose game the token scan then scans
 * again without giving the point twice), or from the input's start.
 */
static int take_over(struct pgn_split *s)
{
	struct xqi_split_point from;
	struct xqi_bytes bytes = {NULL, NULL};
	struct xqi_chunk c;
	int have_from;

	if (s->quick_points < QUICK_SHORT)
		s->wait = s->wait ? (s->wait < WAIT_MAX ? 2 * s->wait : WAIT_MAX) : 1;
	else
		s->wait = 1;
	s->passed = 0;
	xqi_pgn_close_reader(s->r);
	s->r = token_reader(&bytes, s->has_opts ? &s->opts : NULL);
	if (!s->r)
		return XQ_ENOMEM;
	s->left_at = xqi_pgn_quick_resume(s->quick, &from, &have_from, &bytes, &s->r->raw_base);
	s->r->src = bytes;
	s->tokens = 1;
	s->pending = 0;
	s->games = 0;
	s->has_skip = 0;
	if (have_from) {
		memset(&c, 0, sizeof(c));
		c.offset = from.offset;
		c.line = from.line;
		c.records = from.records;
		c.encoding = from.encoding;
		c.first_high = from.first_high;
		if (start_at(s->r, &c))
			return XQ_EUNSUPPORTED;
		s->games = from.records;
		s->has_skip = 1;
		s->skip_to = from.offset;
	}
	return 0;
}

/* The next point of the token scan. */
static int token_next(struct pgn_split *s, struct xqi_split_point *pt)
{
	struct pgn_reader *r = s->r;

	/* Every round scans a game start past the last one. */
	for (uint64_t was = r->pos;; XQI_ADVANCED(was, r->pos)) {
		const struct tok *t;
		int is_point, rc;
		if (s->pending) {
			s->pending = 0;
			if ((rc = split_game(s)))
				return rc;
		}
		t = xqi_pgn_next_tok(r);
		if (t->type == T_IO)
			return r->io_rc;
		if (r->enc == XQI_ENC_UTF16LE || r->enc == XQI_ENC_UTF16BE)
			return XQ_EUNSUPPORTED; /* chunks could not start mid-file */
		if (t->type == T_EOF)
			return 0;
		is_point = split_point(s, t, pt);
		if (r->io_rc)
			return r->io_rc;
		xqi_pgn_push_back(r);
		s->pending = 1;
		if (is_point && !(s->has_skip && pt->offset <= s->skip_to)) {
			pt->records = s->games++;
			return 1;
		}
		s->games++;
	}
}

static int pgn_split_next(void *sp, struct xqi_split_point *pt)
{
	struct pgn_split *s = sp;
	int rc;

	if (!s->quick)
		return token_next(s, pt);
	if (!s->tokens) {
		rc = xqi_pgn_quick_next(s->quick, pt);
		if (rc != PGN_QUICK_LEAVE) {
			s->quick_points += rc == 1;
			return rc;
		}
		if ((rc = take_over(s)))
			return rc;
	}
	rc = token_next(s, pt);
	/* Past what made the quick scan stop, at a game's tag line: the
	 * quick scan goes on from there. */
	if (rc == 1 && pt->offset > s->left_at && ++s->passed >= s->wait &&
	    xqi_pgn_quick_tag_at(s->quick, pt->offset)) {
		xqi_pgn_quick_restart(s->quick, pt, s->r->enc, s->r->first_high);
		s->tokens = 0;
		s->quick_points = 0;
	}
	return rc;
}

const struct xqi_split_ops xqi_pgn_split = {
	pgn_split_open,
	pgn_split_next,
	pgn_split_close,
	pgn_open_chunk,
	pgn_chunk_next,
	pgn_boundary,
	pgn_decide,
};

/* The token scan alone, for tests that hold the quick scan to it. */
const struct xqi_split_ops xqi_pgn_split_tokens = {
	pgn_split_open_tokens,
	pgn_split_next,
	pgn_split_close,
	pgn_open_chunk,
	pgn_chunk_next,
	pgn_boundary,
	pgn_decide,
};
