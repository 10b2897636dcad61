/*
 * pgn_quick.c: the splitter's quick scan (see pgn_split.c for the token
 * scan it stands in front of, and batch/chunk.c for how chunks are checked).
 *
 * Cutting a big PGN file for the threads needs, at each cut, the number
 * of games before it and its line: a scan of the whole input, in one
 * thread, ahead of the readers.  The token scan follows the reader's every
 * decision, and so costs a third of what reading does: on two threads it
 * was a quarter of the work, and held -j 2 at 1.25x.  This scan looks at
 * bytes, not tokens: it follows the shape almost every file has (tag
 * lines in column 1, then move text, comments and variations, a result,
 * and the next game's tag lines) at a few instructions a byte, and hands
 * the rest of the input to the token scan the moment the text leaves that
 * shape: a tag line it does not take apart, text before the first tag or
 * after a result, a ';' comment, a '%' escape, a stray brace or bracket,
 * unbalanced parentheses, a comment that does not close, a game past the
 * record limit.  The token scan takes over at the last split point given
 * (or the input's start), from bytes kept for that.
 *
 * Where this scan and the reader still part (a move that breaks a game
 * and makes the reader skip to where this scan did not look; a line in
 * another encoding that hides a brace), the chunk check of the batch
 * catches it: a chunk's games must end exactly at the next point and be
 * as many as counted, or the rest of the file is read in order.
 * Encodings: in UTF-8 no byte of a character is ASCII; in GB18030 and
 * Big5 a byte over 0x80 takes the next one with it, if that one is in
 * 0x40..0x7E (where brackets and braces are).  The encoding is found as
 * the reader finds it, from the same sample, so a chunk reader starts in
 * the reader's encoding.
 */
#include "pgn_int.h"

#if defined(__SSE2__)
/* SSE2 is part of every x86-64: the loops most bytes go through take
 * sixteen at a time.  Elsewhere they take one at a time. */
#include <emmintrin.h>
#define QUICK_SSE2 1
#endif

/* A tag line longer than this is left to the token scan. */
#define QUICK_LINE_MAX 4096
/* Bytes before the last split point are dropped when this many pile up
 * (and they are half the window).  The window is a copy of bytes the feed
 * holds too: kept small, it leaves the cache to the readers (1 MiB cost
 * validate -j 2 of a 55 MB PGN 1.5% more CPU time than 128 KiB). */
#define QUICK_DROP ((uint64_t)128 << 10)

enum {
	Q_WORD,  /* a byte of a word (the zero: most bytes) */
	Q_SPACE,
	Q_LF,
	Q_CR,
	Q_BRACE, /* '{' */
	Q_TAG,   /* '[' */
	Q_OPEN,  /* '(' */
	Q_CLOSE, /* ')' */
	Q_LEAD,  /* a legacy encoding's first byte of a character */
	Q_PCT,   /* '%': an escape line in column 1, else a word */
	Q_LEAVE  /* '}' ']' ';' NUL: the token scan's business */
};

#define QUICK_ASCII                                                                             \
	[' '] = Q_SPACE, ['\t'] = Q_SPACE, ['\v'] = Q_SPACE, ['\f'] = Q_SPACE, ['\n'] = Q_LF,     \
	['\r'] = Q_CR, ['{'] = Q_BRACE, ['['] = Q_TAG, ['('] = Q_OPEN, [')'] = Q_CLOSE,           \
	['%'] = Q_PCT, ['}'] = Q_LEAVE, [']'] = Q_LEAVE, [';'] = Q_LEAVE, ['\0'] = Q_LEAVE

static const unsigned char cls_utf8[256] = {QUICK_ASCII};
/* Windows-1252 and Latin-1: every byte a character, as in UTF-8 none of
 * them ASCII, but no byte to check for UTF-8. */
static const unsigned char cls_single[256] = {QUICK_ASCII};
/* 0x81..0xFF: the first byte of a two- or four-byte character. */
static const unsigned char cls_legacy[256] = {
	QUICK_ASCII,
	[0x81] = Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
	Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD, Q_LEAD,
};

struct pgn_quick {
	struct xqi_bytes src;
	struct xq_buf win;      /* input bytes [off, off + win.len) */
	uint64_t off;
	int eof, rc;            /* the input ended, or failed with `d` */
	int too_far;            /* more bytes than a game may have, and no point */
	struct xq_diagnostic d;
	int tokens;             /* the token scan has taken over */
	uint64_t rpos;          /* then: its reader's next byte */
	const uint64_t *keep;   /* and the first byte its reader keeps */
	uint64_t resume_at;     /* a point the token scan gave already */

	uint64_t pos;           /* the next byte to scan */
	uint64_t line, line_start, cr_at; /* as the lexer counts them */
	int started;            /* the byte order mark was looked for */
	const unsigned char *cls;
	unsigned char wb[256];  /* bytes a word goes on over (set_words()) */
	enum xqi_encoding given, enc;
	uint64_t first_high;
	int enc_known;
	uint64_t max_game;

	/* The game being scanned. */
	uint64_t games;         /* games started so far */
	int in_game, movetext, after_result, game_tag;
	uint64_t ntags, last_tag_line;
	long depth;

	struct xqi_split_point last; /* the last point given, when have_last */
	int have_last;
};

static void set_words(struct pgn_quick *q);
static int result_word(struct pgn_quick *q, uint64_t p, uint64_t e);

/* The classes of the bytes of text in `e`, or NULL for an encoding this
 * scan does not follow (the token scan's then). */
static const unsigned char *classes_of(enum xqi_encoding e)
{
	switch (e) {
	case XQI_ENC_UNKNOWN:
	case XQI_ENC_UTF8:
		return cls_utf8;
	case XQI_ENC_CP1252:
	case XQI_ENC_LATIN1:
		return cls_single;
	case XQI_ENC_GB18030:
	case XQI_ENC_GBK:
	case XQI_ENC_BIG5:
		return cls_legacy;
	default:
		return NULL;
	}
}

struct pgn_quick *xqi_pgn_quick_new(const struct xqi_bytes *src, const struct xqi_read_opts *opts)
{
	struct pgn_quick *q = calloc(1, sizeof(*q));

	if (!q)
		return NULL;
	q->src = *src;
	xq_buf_init(&q->win);
	xqi_diagnostic_init(&q->d);
	q->line = 1;
	q->cr_at = UINT64_MAX;
	q->cls = cls_utf8;
	q->given = opts ? opts->encoding : XQI_ENC_UNKNOWN;
	q->first_high = UINT64_MAX;
	q->max_game = xqi_format_record_limit(&xqi_format_pgn, opts);
	q->resume_at = UINT64_MAX;
	set_words(q);
	return q;
}

void xqi_pgn_quick_free(struct pgn_quick *q)
{
	if (!q)
		return;
	xq_buf_release(&q->win);
	free(q);
}

/* Read one more request's worth: 1, 0 at the end, or the input's error. */
static int fill(struct pgn_quick *q)
{
	uint64_t keep = q->have_last ? q->last.offset : 0;
	long got;

	if (q->rc)
		return q->rc;
	if (q->eof)
		return 0;
	if (q->tokens) {
		keep = *q->keep;
	} else {
		if (keep > q->line_start)
			keep = q->line_start;
		if (q->off + q->win.len - keep > q->max_game + SAMPLE + XQI_READ_SIZE) {
			/* The token scan says where the reader stops. */
			q->too_far = 1;
			return 0;
		}
	}
	if (keep - q->off >= QUICK_DROP && keep - q->off >= q->win.len / 2) {
		size_t drop = (size_t)(keep - q->off);
		memmove(q->win.ptr, q->win.ptr + drop, q->win.len - drop);
		xq_buf_truncate(&q->win, q->win.len - drop);
		q->win.ptr[q->win.len] = '\0';
		q->off = keep;
	}
	if (xq_buf_grow(&q->win, XQI_READ_SIZE)) {
		q->rc = xqi_diagnostic_set(&q->d, XQ_ENOMEM, XQI_D_RESOURCE, XQ_SEVERITY_ERROR, "out of memory");
		return q->rc;
	}
	got = q->src.read(q->src.ctx, q->win.ptr + q->win.len, XQI_READ_SIZE, &q->d);
	if (got < 0) {
		q->rc = (int)got;
		return q->rc;
	}
	if (got == 0) {
		q->eof = 1;
		return 0;
	}
	q->win.len += (size_t)got;
	q->win.ptr[q->win.len] = '\0'; /* a byte no word goes on over (room kept by xq_buf_grow) */
	return 1;
}

/* Is byte `p` in the window (read on as needed)? */
static int have(struct pgn_quick *q, uint64_t p)
{
	while (p >= q->off + q->win.len)
		if (fill(q) <= 0)
			return 0;
	return 1;
}

static unsigned char at(const struct pgn_quick *q, uint64_t p)
{
	return (unsigned char)q->win.ptr[p - q->off];
}

/* The input's first bytes: a byte order mark, and an encoding given. */
static int start(struct pgn_quick *q)
{
	q->started = 1;
	if (!classes_of(q->given))
		return XQ_EUNSUPPORTED; /* UTF-16, or another encoding named */
	if (q->given != XQI_ENC_UNKNOWN) {
		q->enc = q->given;
		q->first_high = 0;
		q->enc_known = 1;
	}
	have(q, 2);
	if (q->rc)
		return q->rc;
	if (q->given == XQI_ENC_UNKNOWN || q->given == XQI_ENC_UTF8) {
		if (q->win.len >= 3 && at(q, 0) == 0xEF && at(q, 1) == 0xBB && at(q, 2) == 0xBF) {
			q->enc = XQI_ENC_UTF8;
			q->first_high = 0;
			q->enc_known = 1;
			q->pos = q->line_start = 3; /* the BOM is not a column */
		} else if (q->given == XQI_ENC_UNKNOWN && q->win.len >= 2 &&
			   ((at(q, 0) == 0xFF && at(q, 1) == 0xFE) || (at(q, 0) == 0xFE && at(q, 1) == 0xFF))) {
			return XQ_EUNSUPPORTED; /* chunks could not start mid-file */
		}
	}
	if (q->enc_known)
		q->cls = classes_of(q->enc);
	set_words(q);
	return 0;
}

/*
 * The first byte that is not ASCII, at `p`: the encoding, as the reader
 * decides it (pgn_lex.c, publish()): from the SAMPLE bytes from the start
 * of the line (or long line's piece) that holds it.
 */
static int found_high(struct pgn_quick *q, uint64_t p)
{
	uint64_t ls = q->off + xqi_pgn_unit_start(q->win.ptr, (size_t)(q->line_start - q->off),
						  (size_t)(p - q->off));

	have(q, ls + SAMPLE - 1);
	if (q->rc)
		return q->rc;
	if (!q->eof && q->off + q->win.len - ls < SAMPLE)
		return XQ_ERANGE; /* a shorter sample than the reader's (too far): the token scan's */
	q->enc = xqi_pgn_detect_sample(q->win.ptr + (ls - q->off), (size_t)(q->off + q->win.len - ls));
	if (!classes_of(q->enc))
		return XQ_EUNSUPPORTED;
	q->first_high = p;
	q->enc_known = 1;
	q->cls = classes_of(q->enc);
	set_words(q);
	return 0;
}

/* A line end at `p` (byte `c`), as the lexer counts lines. */
static void newline(struct pgn_quick *q, uint64_t p, unsigned char c)
{
	if (c == '\n' && q->cr_at == p) {
		q->line_start = p + 1; /* the LF of a CRLF */
		return;
	}
	q->line++;
	q->line_start = p + 1;
	if (c == '\r')
		q->cr_at = p + 1;
}

/* From s[i] on, the first byte of s[0..len) that a tag value's loop must
 * look at: '"', '\\', a NUL or a byte over 0x7F (len when none). */
static size_t value_skip(const unsigned char *s, size_t i, size_t len)
{
#if defined(QUICK_SSE2)
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
	const __m128i nul = _mm_setzero_si128();

	for (; i + 16 <= len; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(
				     _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
				     _mm_cmpeq_epi8(x, nul))) |
			     (unsigned)_mm_movemask_epi8(x);
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
#endif
	while (i < len && s[i] != '"' && s[i] != '\\' && s[i] != 0 && s[i] < 0x80)
		i++;
	return i;
}

/*
 * The tag line at q->pos, in column 1: 1 when it is `[Name "value"]` and
 * nothing but spaces after it on its line, with in *game whether it is a
 * Game tag and in *eol the offset of its line end; 0 when the token scan
 * must judge it.
 */
static int tag_line(struct pgn_quick *q, int *game, uint64_t *eol)
{
	const unsigned char *s, *e, *p, *ns;
	size_t i, len, nlen;

	/* The line's end, within QUICK_LINE_MAX bytes. */
	have(q, q->pos + QUICK_LINE_MAX);
	if (q->rc)
		return 0;
	s = (const unsigned char *)q->win.ptr + (q->pos - q->off);
	e = (const unsigned char *)q->win.ptr + q->win.len;
	if (e - s > QUICK_LINE_MAX)
		e = s + QUICK_LINE_MAX;
	{
		/* The first CR or LF: memchr looks at many bytes at a time. */
		const unsigned char *lf = memchr(s + 1, '\n', (size_t)(e - s - 1));
		const unsigned char *lim = lf ? lf : e;
		const unsigned char *cr = memchr(s + 1, '\r', (size_t)(lim - s - 1));
		p = cr ? cr : lim;
	}
	if (p == e)
		return 0;
	len = (size_t)(p - s);
	*eol = q->pos + len;
	e = p;
	/* [ spaces name spaces "value" spaces ] spaces */
	for (p = s + 1; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	for (ns = p; p < e && *p != ' ' && *p != '\t' && *p != '"' && *p != ']' && *p != '['; p++)
		if (*p >= 0x80 || *p < 0x20 || *p == '{' || *p == '}')
			return 0;
	nlen = (size_t)(p - ns);
	if (nlen == 0)
		return 0;
	*game = nlen == 4 && !memcmp(ns, "Game", 4);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == e || *p != '"')
		return 0;
	/* The value, with the lexer's escapes; a NUL or a byte that is not
	 * UTF-8 in UTF-8 text makes the tag one the token scan judges. */
	for (i = (size_t)(p - s) + 1; (i = value_skip(s, i, len)) < len; i++) {
		unsigned char c = s[i];
		if (c == '"')
			break;
		if (c == '\\' && i + 1 < len) {
			i++;
		} else if (c == 0) {
			return 0;
		} else if (c >= 0x80) {
			size_t n;
			if (!q->enc_known) {
				uint64_t at_pos = q->pos;
				if (found_high(q, q->pos + i))
					return 0;
				/* Reading the sample may have moved the window. */
				s = (const unsigned char *)q->win.ptr + (at_pos - q->off);
			}
			if (q->cls != cls_utf8)
				continue;
			n = xq_utf8_valid_prefix((const char *)s + i, len - i);
			if (n == 0)
				return 0;
			i += n - 1;
		}
	}
	if (i >= len)
		return 0;
	for (p = s + i + 1, e = s + len; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	if (p == e || *p != ']')
		return 0;
	for (p++; p < e && (*p == ' ' || *p == '\t'); p++)
		;
	return p == e;
}

/* A new game starts at q->pos (its first byte). */
static void new_game(struct pgn_quick *q)
{
	q->games++;
	q->in_game = 1;
	q->movetext = q->after_result = q->game_tag = 0;
	q->ntags = q->last_tag_line = 0;
	q->depth = 0;
}

/* 1 when byte `c` at `p` is a legacy character's first byte and the next
 * byte, in 0x40..0x7E, is its second (not a bracket or a brace). */
static int trail_after(struct pgn_quick *q, unsigned char c, uint64_t p)
{
	return q->cls[c] == Q_LEAD && have(q, p + 1) && at(q, p + 1) >= 0x40 && at(q, p + 1) <= 0x7E;
}

/* Scan the comment at q->pos to its '}': 0, or 1 when it does not close. */
static int comment(struct pgn_quick *q)
{
	uint64_t p = q->pos + 1;

	for (;;) {
		unsigned char c;
		if (!have(q, p))
			return 1;
		c = at(q, p);
		if (c == '}')
			break;
		if (c == '\n' || c == '\r')
			newline(q, p, c);
		else if (c >= 0x80) {
			if (!q->enc_known && found_high(q, p))
				return 1;
			p += trail_after(q, c, p);
		}
		p++;
	}
	q->pos = p + 1;
	return 0;
}

/*
 * The word at q->pos: scanned, and a result when it is one (outside a
 * variation the game then ends).  0, or 1 when the token scan must judge.
 */
static int word(struct pgn_quick *q)
{
	uint64_t p = q->pos;
	unsigned char c;

	if (q->after_result)
		return 1;
	q->movetext = 1;
	for (;;) {
		const unsigned char *b = (const unsigned char *)q->win.ptr - q->off;
		uint64_t end = q->off + q->win.len;
		while (p < end && q->wb[b[p]])
			p++;
		if (p < end) {
			c = b[p];
			if (c < 0x80) {
				if (q->cls[c] != Q_PCT && q->cls[c] != Q_WORD)
					break;
				p++;
				continue;
			}
			if (!q->enc_known && found_high(q, p))
				return 1;
			p += trail_after(q, c, p) + 1;
			continue;
		}
		if (!have(q, p))
			break;
	}
	if (q->rc || result_word(q, q->pos, p))
		return 1;
	q->pos = p;
	return 0;
}

/* Is the word [p, e) a result?  Sets after_result; 1 when the token scan
 * must judge (a result inside a variation breaks the game). */
static int result_word(struct pgn_quick *q, uint64_t p, uint64_t e)
{
	unsigned char c = at(q, p);
	enum xqi_result res;
	int std;

	if (!(c == '1' || c == '0' || c == '*' || (c >= 0xC2 && e - p <= 9 && q->cls == cls_utf8)) ||
	    !xqi_pgn_result_of(q->win.ptr + (p - q->off), (size_t)(e - p), &res, &std))
		return 0;
	if (q->depth > 0)
		return 1;
	q->after_result = 1;
	return 0;
}

/* The bytes a word goes on over without a second look (set_words()). */
static void set_words(struct pgn_quick *q)
{
	for (int c = 0; c < 256; c++)
		q->wb[c] = c < 0x80 ? q->cls[c] == Q_WORD : q->enc_known && q->cls != cls_legacy;
}

#if defined(QUICK_SSE2)
/*
 * The common move text, sixteen bytes at a time from `pos` (a token's
 * first byte): words of plain bytes and single spaces, where no word can
 * be a result (one starting with "1-", "0-", "1/", "0/", "*", or a byte
 * over 0x7F).  Anything else (a line end, a tab, a brace, a bracket, a
 * parenthesis, '%', ';', a control byte, a byte over 0x7F before the
 * encoding is known to be UTF-8) stops it, and the byte loop takes the
 * rest, exactly as before.  Returns where it stopped: a token's first
 * byte, never inside a word (the byte loop must see a word's start).
 */
static uint64_t plain_run(struct pgn_quick *q, const unsigned char *b, uint64_t pos, uint64_t end)
{
	const int high_ok = q->enc_known && q->cls != cls_legacy;
	const uint64_t start = pos;
	const __m128i sp = _mm_set1_epi8(' '), bang = _mm_set1_epi8('!'), x20 = _mm_set1_epi8(0x20);
	const __m128i lbrace = _mm_set1_epi8('{'), rbrace = _mm_set1_epi8('}');
	const __m128i fe = _mm_set1_epi8((char)0xFE), paren = _mm_set1_epi8('(');
	const __m128i pct = _mm_set1_epi8('%'), semi = _mm_set1_epi8(';');
	const __m128i one = _mm_set1_epi8('1'), zero = _mm_set1_epi8('0'), star = _mm_set1_epi8('*');
	const __m128i dash = _mm_set1_epi8('-'), slash = _mm_set1_epi8('/');
	unsigned prev_word = q->wb[b[pos - 1]] != 0;

	while (pos + 32 <= end) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(b + pos));
		__m128i next = _mm_loadu_si128((const __m128i *)(const void *)(b + pos + 1));
		__m128i folded = _mm_or_si128(x, x20);
		unsigned high = (unsigned)_mm_movemask_epi8(x);
		unsigned space = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, sp));
		/* Signed: bytes over 0x7F are below '!' too, and taken apart. */
		unsigned low = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(x, bang)) & ~high & ~space;
		__m128i stop = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(folded, lbrace), _mm_cmpeq_epi8(folded, rbrace)),
			_mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(x, fe), paren),
				     _mm_or_si128(_mm_cmpeq_epi8(x, pct), _mm_cmpeq_epi8(x, semi))));
		unsigned starts, cand;

		if (low || _mm_movemask_epi8(stop) || (high && !high_ok))
			break;
		/* A word starts where a space (or, first, a byte of no word) is
		 * followed by a byte that is not a space. */
		starts = ((space << 1) | !prev_word) & ~space & 0xFFFFu;
		cand = ((unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, one), _mm_cmpeq_epi8(x, zero))) &
			(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(next, dash), _mm_cmpeq_epi8(next, slash)))) |
		       (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, star)) | high;
		if (starts & cand)
			break;
		if (space != 0xFFFFu)
			q->movetext = 1;
		prev_word = !(space >> 15);
		pos += 16;
	}
	/* Back to the start of a word the last block cut. */
	while (pos > start && q->wb[b[pos - 1]] && q->wb[b[pos]])
		pos--;
	return pos;
}
#endif

/* Words of the move text, spaces and line ends, from q->pos: the loop
 * most bytes go through.  Stops at a byte of another class. */
static int movetext_run(struct pgn_quick *q)
{
	for (;;) {
		const unsigned char *b, *wb = q->wb, *cls = q->cls;
		uint64_t pos, end;
		if (!have(q, q->pos))
			return 0;
		b = (const unsigned char *)q->win.ptr - q->off;
		end = q->off + q->win.len;
		for (pos = q->pos; pos < end;) {
			unsigned char c;
#if defined(QUICK_SSE2)
			if (pos + 32 <= end && pos > q->off && !q->after_result)
				pos = plain_run(q, b, pos, end);
#endif
			c = b[pos];
			if (c == ' ' && wb[b[pos + 1]]) /* the NUL after the window stops it */
				c = b[++pos];
			if (wb[c]) {
				uint64_t p = pos + 1;
				while (wb[b[p]]) /* the NUL after the window stops it */
					p++;
				if (p == end)
					break; /* read on, and take the word whole */
				if (q->after_result) {
					q->pos = pos;
					return 1;
				}
				q->movetext = 1;
				/* Results: 1-0, 0-1, 1/2-1/2, *, ½-½ and Chinese
				 * words of two or three characters. */
				if ((((c == '1' || c == '0') && p - pos >= 3 && (b[pos + 1] == '-' || b[pos + 1] == '/')) ||
				     (c == '*' && p - pos == 1) || (c >= 0xC2 && p - pos <= 9)) &&
				    result_word(q, pos, p)) {
					q->pos = pos;
					return 1;
				}
				pos = p;
				continue;
			}
			switch (cls[c]) {
			case Q_SPACE:
				pos++;
				continue;
			case Q_LF:
			case Q_CR:
				newline(q, pos, c);
				pos++;
				continue;
			case Q_WORD:
			case Q_LEAD:
				goto slow_word;
			default:
				q->pos = pos;
				return 0;
			}
		}
		q->pos = pos;
		if (pos == end)
			continue;
	slow_word:
		/* A word up to the window's end, or with bytes word() takes. */
		q->pos = pos;
		if (word(q))
			return 1;
	}
}

/*
 * The next split point: 1 with *pt set; 0 at the end of the input;
 * PGN_QUICK_LEAVE when the token scan must take over (from
 * xqi_pgn_quick_resume()); or the input's error.
 */
int xqi_pgn_quick_next(struct pgn_quick *q, struct xqi_split_point *pt)
{
	int rc;

	if (!q->started && (rc = start(q)))
		return rc;
	for (;;) {
		unsigned char c;
		if (q->in_game && q->ntags) {
			if (movetext_run(q))
				return q->rc ? q->rc : PGN_QUICK_LEAVE;
		} else {
			/* Before a game's first tag: spaces and line ends only. */
			while (have(q, q->pos) && (q->cls[c = at(q, q->pos)] == Q_SPACE || q->cls[c] == Q_LF ||
						   q->cls[c] == Q_CR)) {
				if (q->cls[c] != Q_SPACE)
					newline(q, q->pos, c);
				q->pos++;
			}
		}
		if (!have(q, q->pos))
			return q->rc ? q->rc : q->too_far ? PGN_QUICK_LEAVE : 0;
		c = at(q, q->pos);
		switch (q->cls[c]) {
		case Q_TAG: {
			int game, is_new;
			uint64_t eol;
			if (q->pos != q->line_start || !tag_line(q, &game, &eol))
				return q->rc ? q->rc : PGN_QUICK_LEAVE;
			is_new = !q->in_game || q->movetext || q->after_result ||
				 (q->ntags && (q->line > q->last_tag_line + 1 || (game && q->game_tag)));
			if (q->in_game && q->depth)
				return PGN_QUICK_LEAVE;
			if (is_new) {
				pt->offset = q->pos;
				pt->line = q->line;
				pt->seen = eol + 1;
				pt->records = q->games;
				pt->encoding = q->enc_known ? q->enc : XQI_ENC_UNKNOWN;
				pt->first_high = q->first_high;
				new_game(q);
			}
			q->ntags++;
			q->last_tag_line = q->line;
			q->game_tag |= game;
			q->pos = eol;
			if (is_new) {
				q->last = *pt;
				q->have_last = 1;
				if (pt->offset != q->resume_at)
					return 1;
			}
			break;
		}
		case Q_BRACE:
			if (!q->in_game)
				new_game(q); /* a comment before the tags is the game's */
			else if (q->ntags)
				q->movetext = 1;
			if (comment(q))
				return q->rc ? q->rc : PGN_QUICK_LEAVE;
			break;
		case Q_OPEN:
		case Q_CLOSE:
			if (!q->ntags || q->after_result)
				return PGN_QUICK_LEAVE;
			q->movetext = 1;
			q->depth += c == '(' ? 1 : -1;
			if (q->depth < 0)
				return PGN_QUICK_LEAVE;
			q->pos++;
			break;
		case Q_PCT:
			if (q->pos == q->line_start || !q->ntags || q->after_result)
				return PGN_QUICK_LEAVE;
			q->movetext = 1;
			if (word(q))
				return q->rc ? q->rc : PGN_QUICK_LEAVE;
			break;
		default:
			/* A word before the tags (a game without them), a ';'
			 * comment, a stray '}' or ']', a NUL. */
			return PGN_QUICK_LEAVE;
		}
	}
}

/* The token scan's bytes: the window's, read on as the reader would. */
static long replay_read(void *ctx, void *buf, size_t n, struct xq_diagnostic *d)
{
	struct pgn_quick *q = ctx;
	size_t take;
	int rc;

	if (q->rpos >= q->off + q->win.len) {
		rc = fill(q);
		if (rc < 0) {
			*d = q->d;
			return rc;
		}
		if (rc == 0)
			return 0;
	}
	take = (size_t)(q->off + q->win.len - q->rpos);
	if (take > n)
		take = n;
	memcpy(buf, q->win.ptr + (q->rpos - q->off), take);
	q->rpos += take;
	return (long)take;
}

/*
 * After PGN_QUICK_LEAVE: where the token scan takes over.  *from is the
 * last split point given (with *have_from 1), or the input's start; *bytes
 * gives the input from there on, and the window keeps what the token
 * scan's reader may still need: from *keep on.  Returns the offset where
 * the quick scan stopped.
 */
uint64_t xqi_pgn_quick_resume(struct pgn_quick *q, struct xqi_split_point *from, int *have_from,
			     struct xqi_bytes *bytes, const uint64_t *keep)
{
	*have_from = q->have_last;
	if (q->have_last)
		*from = q->last;
	q->tokens = 1;
	q->keep = keep;
	q->rpos = q->have_last ? q->last.offset : 0;
	bytes->read = replay_read;
	bytes->ctx = q;
	return q->pos;
}

/* Is there a tag line at `offset` (a point the token scan gave)? */
int xqi_pgn_quick_tag_at(const struct pgn_quick *q, uint64_t offset)
{
	return offset >= q->off && offset < q->off + q->win.len && at(q, offset) == '[';
}

/*
 * The quick scan takes over again at point `p` that the token scan gave
 * (a tag line: xqi_pgn_quick_tag_at()), with the encoding its reader found
 * (XQI_ENC_UNKNOWN: none yet).
 */
void xqi_pgn_quick_restart(struct pgn_quick *q, const struct xqi_split_point *p, enum xqi_encoding enc,
			  uint64_t first_high)
{
	q->tokens = 0;
	q->keep = NULL;
	q->too_far = 0;
	q->pos = q->line_start = p->offset;
	q->line = p->line;
	q->cr_at = UINT64_MAX;
	q->games = p->records;
	q->in_game = 0;
	q->last = *p;
	q->have_last = 1;
	q->resume_at = p->offset;
	if (enc != XQI_ENC_UNKNOWN) {
		/* The reader's, which found it. */
		q->enc = enc;
		q->first_high = first_high;
		q->enc_known = 1;
		q->cls = classes_of(enc) ? classes_of(enc) : cls_legacy;
		set_words(q);
	}
}
