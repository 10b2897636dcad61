/*
 * pgn.c: the PGN reader and writer for xiangqi (see pgn.h).
 *
 * The reader is three layers over one window of text.  The window holds
 * the raw bytes read from the input and, for legacy encodings, their UTF-8
 * decoding by lib/decode.h (UTF-8 input is scanned in place until a line
 * in another encoding makes the decoder copy it from there on).  Positions are absolute
 * offsets in the decoded text, so compacting the window never moves a
 * token; two cursors turn a position into a line and column (counted as
 * the scanner passes each line end) and into a byte offset in the source
 * (walked in step with the raw bytes, because one Chinese character is 2
 * or 4 bytes of GB18030 but 3 of UTF-8).  The lexer cuts the text into
 * tokens (tag lines, comments, parentheses, NAGs, move numbers, words)
 * and marks the first undecodable byte of each.  The parser turns tokens
 * into a game: tags, then the move text with a stack of variation starts
 * (never recursion), then whatever follows the result.  Any error stops
 * the game, which is returned marked broken, and the parser skips to the
 * next tag line (or the next result in files without tags).
 *
 * The writer walks the tree with an explicit stack of lines and emits
 * units (a numbered move, a NAG, a comment, a parenthesis) into lines of a
 * fixed width, so the same game always gives the same bytes.
 */
#include "pgn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "board.h"
#include "buf.h"
#include "check.h"
#include "decode.h"
#include "diag.h"
#include "game.h"
#include "io.h"
#include "notation.h"
#include "text.h"
#include "utf8.h"

#define CHUNK XQ_READ_SIZE
#define SAMPLE 65536   /* bytes looked at to tell GB18030 from Big5 */
#define WORD_MAX 96    /* longer words are not moves */
/*
 * The longest game read: 4 MiB of text, from its first tag to its last
 * token.  The largest real game known in PGN (the corpus's, a commented
 * game of the 21st Wuyang Cup) is 34,763 bytes; an opening tree as large
 * as the largest DhtmlXQ record known (106,998 moves) would be about
 * 1 MB.  Reading keeps the game and a line or word at most
 * (XQ_PGN_TOKEN_MAX): at most PGN_MEM_FACTOR bytes per byte of its text
 * (the densest text is one short move after another).  A game over the
 * limit ends the reading of its input.
 */
#define PGN_MAX_RECORD ((uint64_t)4 << 20)
#define PGN_MEM_FACTOR 44

/* ---- the window ---------------------------------------------------------- */

enum tok_type {
	T_EOF,
	T_TAG,
	T_COMMENT,
	T_LPAREN,
	T_RPAREN,
	T_NAG,
	T_NUMBER,
	T_WORD,
	T_ESCAPE,       /* a '%' line */
	T_UNTERMINATED, /* '{' with no '}' within XQ_PGN_TOKEN_MAX bytes */
	T_STRAY,        /* '}' or ']' out of place */
	T_TOO_LONG,     /* a word or tag line longer than XQ_PGN_TOKEN_MAX */
	T_IO            /* the input failed */
};

enum {
	TAG_UNQUOTED = 1 << 0,   /* [Name value] */
	TAG_STRAY_QUOTE = 1 << 1, /* a '"' inside the value that is not escaped */
	TAG_NO_BRACKET = 1 << 2, /* no closing ']' on the line */
	TAG_NO_QUOTE = 1 << 3,   /* the value's closing '"' is missing */
	TAG_NO_NAME = 1 << 4,
	TAG_LINES = 1 << 5       /* the quoted value goes on over line ends */
};

struct tok {
	enum tok_type type;
	uint64_t start, end;        /* the token is [start, end) */
	uint64_t body, body_end;    /* comment text; tag name */
	uint64_t value, value_end;  /* tag value */
	struct xq_place place;
	int bad;                    /* an undecodable byte inside */
	struct xq_place bad_place;
	unsigned bad_byte;
	enum xq_encoding bad_enc;   /* the encoding of the line holding it */
	unsigned tag_flags;
	unsigned long num;          /* NUMBER and NAG */
};

struct frame {
	uint32_t cur, ply, moves;
};

/*
 * The splitter's stand-in for the decoder.  It lexes the text only to
 * find where games end, which depends on the ASCII characters, on where
 * the other characters are and which bytes are not text, never on what
 * the other characters are (but for a few words, decoded when it needs
 * them).  So instead of converting legacy text with iconv, it writes one
 * placeholder character for each character of the source (the real one
 * for the spaces the lexer knows), and XQ_DECODE_BAD for each byte that is
 * not text, exactly where the decoder would: which byte pairs are text is
 * asked of iconv once per pair met.
 */
#define SHADOW_CHAR "\xE4\xB8\x80" /* 一: a CJK character, three UTF-8 bytes */

struct shadow {
	struct xq_transcoder tc;     /* the encoding to UTF-8: the truth, when asked */
	unsigned char pairs[126][256]; /* lead 0x81-0xFE, then byte: 0 not asked yet, else
					* PAIR_TEXT, PAIR_BAD or PAIR_SPACE + which space */
	unsigned char single[2];     /* the same for 0x80 and 0xFF alone */
	unsigned char spaces[3][4];  /* U+3000, U+00A0, U+FEFF in the encoding */
	size_t space_len[3];
	struct xq_buf tmp;
};

enum { PAIR_TEXT = 1, PAIR_BAD = 2, PAIR_SPACE = 3 };

static const char *const shadow_spaces[3] = {"\xE3\x80\x80", "\xC2\xA0", "\xEF\xBB\xBF"};

struct pgn_reader {
	struct xq_input *in;      /* the input, or NULL when `src` gives the bytes */
	struct xq_bytes src;
	const struct xq_sink *sink;
	struct xq_read_opts opts;
	uint64_t max_game;        /* the limit of a game's text (PGN_MAX_RECORD or the budget's) */
	const char *name;
	/* Raw bytes: raw.ptr[0] is at `raw_base` in the source. */
	struct xq_buf raw;
	uint64_t raw_base;
	size_t raw_done; /* converting: raw bytes decoded so far */
	int raw_eof;
	/* Decoded text: raw.ptr itself for UTF-8, dec.ptr when converting. */
	struct xq_buf dec;
	const char *text;
	size_t tlen;     /* published bytes (never ends inside a character) */
	uint64_t base;   /* position of text[0] */
	int conv;
	int bom_checked;
	enum xq_encoding enc; /* XQ_ENC_UNKNOWN while everything was ASCII */
	enum xq_encoding given; /* the input's encoding, found by a splitter (chunks) */
	uint64_t first_high;  /* position of the first byte that is not ASCII, once met
			       * (0 when the encoding was given or marked from the start) */
	struct xq_textdec td;   /* the decoder (decode.h), once the encoding is known */
	int td_live;
	struct shadow *shadow;  /* the splitter's reader: placeholders instead of iconv */
	uint64_t line_start;    /* position where the current line starts */
	/* Lines read in another encoding (decode.h) met by the lexer, with
	 * their places, until the game holding them is done. */
	struct foreign {
		uint64_t dpos;
		struct xq_place place;
		enum xq_encoding enc;
		enum xq_textdec_kind kind; /* FOREIGN or AMBIGUOUS */
	} foreign[8];
	size_t nforeign;
	/* Cursors. */
	uint64_t pos;
	uint64_t line;
	uint64_t col_pos;
	uint64_t col_val;
	uint64_t cr_at;  /* position after the last CR taken as a line end */
	uint64_t map_d, map_r;
	/* One token of look-ahead. */
	struct tok tok;
	int pushed;
	int io_rc;
	struct xq_diag md; /* for move errors: cleared after each use */
	/* Limits (format.h): where the game being read started, and where the
	 * text being skipped (after an error or a result) started; NO_POS when
	 * none. */
	uint64_t game_start, skip_start;
	uint32_t game_line, skip_line;
	struct xq_read_guard guard;
	/* Per game. */
	struct xq_buf scratch, pre;
	struct xq_buf post;  /* comments after node post_node, not yet in the game */
	uint32_t post_node;
	struct frame *stack;
	size_t nstack, stack_cap;
	/* The undo of each move from the root to the current node (path[k] for
	 * ply k + 1): '(' and ')' step the board back and forth along it
	 * instead of replaying the line from the start at every variation. */
	struct xq_undo *path;
	size_t path_cap;
	uint64_t games;
};

#define AT(r, p) ((unsigned char)(r)->text[(p) - (r)->base])
#define END(r) ((r)->base + (r)->tlen)
#define NO_POS UINT64_MAX

static void report_io(struct pgn_reader *r, struct xq_diag *d)
{
	d->source = r->name;
	d->game = r->games;
	xq_sink_report(r->sink, d);
}

/*
 * A limit of format.h is reached at `pl`: report it, and read no further
 * (the input then fails with XQ_ERANGE, as if it could not be read).
 */
static void stop_at_limit(struct pgn_reader *r, const struct xq_place *pl, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static void stop_at_limit(struct pgn_reader *r, const struct xq_place *pl, const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	d.place = *pl;
	d.has_offset = 1;
	va_start(ap, fmt);
	xq_diag_vset(&d, XQ_ERANGE, XQ_D_RESOURCE, XQ_SEV_ERROR, fmt, ap);
	va_end(ap);
	report_io(r, &d);
	r->io_rc = XQ_ERANGE;
}

static void set_text(struct pgn_reader *r)
{
	r->text = r->conv ? r->dec.ptr : r->raw.ptr;
}

static size_t count_chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

static void advance_col(struct pgn_reader *r, uint64_t p)
{
	if (p > r->col_pos) {
		r->col_val += (uint64_t)count_chars(r->text + (r->col_pos - r->base),
						    (size_t)(p - r->col_pos));
		r->col_pos = p;
	}
}

/* Walk the decoded and the raw text in step from (*d, *raw_off) up to
 * decoded position `p`. */
static void map_walk(const struct pgn_reader *r, uint64_t *d, uint64_t *raw_off, uint64_t p)
{
	xq_textdec_walk(&r->td, r->text, r->base, r->raw.ptr, r->raw_base, r->raw_base + r->raw.len,
			d, raw_off, p);
}

static void advance_map(struct pgn_reader *r, uint64_t p)
{
	map_walk(r, &r->map_d, &r->map_r, p);
}

static uint64_t offset_of(struct pgn_reader *r, uint64_t p)
{
	if (!r->conv)
		return p;
	advance_map(r, p);
	return r->map_r;
}

/*
 * The input offset of decoded position `p` (at or after the map), leaving
 * the map where it is: for a place inside a token, which may be read again
 * from its start (a '{' that closes no comment), and for places the
 * splitter looks ahead at.  UINT64_MAX if `p` is behind the map.
 */
static uint64_t offset_peek(const struct pgn_reader *r, uint64_t p)
{
	uint64_t d = r->map_d, raw_off = r->map_r;

	if (!r->conv)
		return p;
	if (d > p)
		return UINT64_MAX;
	map_walk(r, &d, &raw_off, p);
	return raw_off;
}

static struct xq_place place_at(struct pgn_reader *r, uint64_t p)
{
	struct xq_place pl;

	advance_col(r, p);
	pl.line = r->line;
	pl.col = r->col_val + 1;
	pl.offset = offset_of(r, p);
	return pl;
}

/* Drop the text before `keep` (which no token still needs). */
static void compact(struct pgn_reader *r, uint64_t keep)
{
	size_t drop = (size_t)(keep - r->base);

	if (drop == 0)
		return;
	if (r->col_pos < keep)
		advance_col(r, keep);
	if (r->conv) {
		size_t rdrop;
		advance_map(r, keep);
		memmove(r->dec.ptr, r->dec.ptr + drop, r->dec.len - drop);
		xq_buf_truncate(&r->dec, r->dec.len - drop);
		rdrop = (size_t)(r->map_r - r->raw_base);
		memmove(r->raw.ptr, r->raw.ptr + rdrop, r->raw.len - rdrop);
		xq_buf_truncate(&r->raw, r->raw.len - rdrop);
		r->raw_base += rdrop;
		r->raw_done -= rdrop;
	} else {
		memmove(r->raw.ptr, r->raw.ptr + drop, r->raw.len - drop);
		xq_buf_truncate(&r->raw, r->raw.len - drop);
		r->raw_base += drop;
	}
	if (r->td_live)
		xq_textdec_forget(&r->td, keep);
	r->base = keep;
	r->tlen -= drop;
	set_text(r);
}

/* ---- the splitter's shadow text ------------------------------------------------- */

static int shadow_init(struct shadow *sh, enum xq_encoding enc)
{
	xq_transcoder_release(&sh->tc);
	xq_transcoder_init(&sh->tc, enc, XQ_ENC_UTF8);
	memset(sh->pairs, 0, sizeof(sh->pairs));
	memset(sh->single, 0, sizeof(sh->single));
	for (int i = 0; i < 3; i++) {
		struct xq_transcoder to;
		xq_buf_reset(&sh->tmp);
		xq_transcoder_init(&to, XQ_ENC_UTF8, enc);
		sh->space_len[i] = 0;
		if (xq_transcoder_convert(&to, shadow_spaces[i], strlen(shadow_spaces[i]), &sh->tmp,
					  NULL) == 0 &&
		    sh->tmp.len <= sizeof(sh->spaces[i])) {
			memcpy(sh->spaces[i], sh->tmp.ptr, sh->tmp.len);
			sh->space_len[i] = sh->tmp.len;
		}
		xq_transcoder_release(&to);
	}
	return 0;
}

static void shadow_free(struct shadow *sh)
{
	if (!sh)
		return;
	xq_transcoder_release(&sh->tc);
	xq_buf_release(&sh->tmp);
	free(sh);
}

/* PAIR_TEXT, PAIR_BAD or PAIR_SPACE + k for the character `c` (n bytes). */
static int shadow_kind(struct shadow *sh, const unsigned char *c, size_t n)
{
	size_t bad;

	xq_buf_reset(&sh->tmp);
	if (xq_transcoder_convert(&sh->tc, (const char *)c, n, &sh->tmp, &bad))
		return PAIR_BAD;
	for (int i = 0; i < 3; i++)
		if (sh->space_len[i] == n && !memcmp(sh->spaces[i], c, n))
			return PAIR_SPACE + i;
	return PAIR_TEXT;
}

/*
 * As xq_decoder_feed() (same bytes consumed, same XQ_DECODE_BAD bytes in
 * the same places) but with a placeholder for each character.
 */
static long shadow_feed(struct shadow *sh, const char *in, size_t len, int final,
			struct xq_buf *out)
{
	const unsigned char *u = (const unsigned char *)in;
	enum xq_encoding enc = sh->tc.from;
	size_t i = 0;
	char *o;

	/* Three bytes at most for a character, of one byte or more. */
	if (xq_buf_grow(out, len * 3 + 8))
		return XQ_ENOMEM;
	o = out->ptr + out->len;
	while (i < len) {
		unsigned c = u[i];
		size_t n = 2;
		int kind;
		if (c < 0x80) {
			*o++ = (char)c;
			i++;
			continue;
		}
		if (c == 0x80 || c == 0xFF) {
			/* Not a lead byte: a character of its own in some code pages. */
			unsigned char *k = &sh->single[c == 0xFF];
			if (!*k)
				*k = (unsigned char)shadow_kind(sh, u + i, 1);
			kind = *k;
			n = 1;
		} else if (i + 1 >= len) {
			if (!final)
				break; /* the rest of it comes with the next bytes */
			kind = PAIR_BAD;
		} else if (enc == XQ_ENC_GB18030 && u[i + 1] >= 0x30 && u[i + 1] <= 0x39) {
			n = 4;
			if (i + 3 >= len && !final)
				break;
			kind = i + 3 < len ? shadow_kind(sh, u + i, 4) : PAIR_BAD;
		} else {
			unsigned char *k = &sh->pairs[c - 0x81][u[i + 1]];
			if (!*k)
				*k = (unsigned char)shadow_kind(sh, u + i, 2);
			kind = *k;
		}
		if (kind == PAIR_BAD) {
			*o++ = (char)XQ_DECODE_BAD;
			i++;
		} else {
			const char *rep = kind == PAIR_TEXT ? SHADOW_CHAR : shadow_spaces[kind - PAIR_SPACE];
			size_t rl = strlen(rep);
			memcpy(o, rep, rl);
			o += rl;
			i += n;
		}
	}
	out->len = (size_t)(o - out->ptr);
	out->ptr[out->len] = '\0';
	return (long)i;
}

/* The decoder's converter for the splitter: placeholders for characters. */
static long shadow_convert(void *ctx, const char *in, size_t len, struct xq_buf *out)
{
	return shadow_feed(ctx, in, len, 1, out);
}

/* Convert from here on: the text published so far (as it stands in the
 * raw bytes: ASCII, or UTF-8 read in place) is copied. */
static int start_copy(struct pgn_reader *r)
{
	xq_buf_reset(&r->dec);
	if (xq_buf_add(&r->dec, r->raw.ptr + r->raw_done, r->tlen))
		return XQ_ENOMEM;
	r->map_d = r->base;
	r->map_r = r->raw_base + r->raw_done;
	r->raw_done += r->tlen;
	r->conv = 1;
	set_text(r);
	return 0;
}

/*
 * Start the decoder (decode.h) in `enc` after the text published so far
 * (ASCII, or nothing after a UTF-16 BOM).  A detected encoding lets lines
 * be in another one; an encoding the user gave does not.  UTF-8 is read
 * in place until a line needs converting.
 */
static int start_conversion(struct pgn_reader *r, enum xq_encoding enc)
{
	unsigned flags = r->opts.encoding == XQ_ENC_UNKNOWN ? XQ_TEXTDEC_MIXED : 0;
	struct xq_diag d;

	r->enc = enc;
	if (r->shadow) {
		flags |= XQ_TEXTDEC_NO_EVENTS;
		if (enc != XQ_ENC_UTF8 && shadow_init(r->shadow, enc))
			return XQ_ENOMEM;
	}
	if (xq_textdec_init(&r->td, enc, flags, r->base + r->tlen,
			    r->raw_base + r->raw_done + r->tlen)) {
		xq_diag_init(&d);
		xq_diag_set(&d, XQ_EUNSUPPORTED, XQ_D_ENCODING, XQ_SEV_ERROR,
			    "this system cannot convert %s", xq_encoding_name(enc));
		report_io(r, &d);
		return XQ_EUNSUPPORTED;
	}
	r->td_live = 1;
	if (r->shadow && enc != XQ_ENC_UTF8 && enc != XQ_ENC_UTF16LE && enc != XQ_ENC_UTF16BE) {
		r->td.convert = shadow_convert;
		r->td.convert_ctx = r->shadow;
	}
	return r->td.copy ? start_copy(r) : 0;
}

/*
 * Make newly read raw bytes visible as text.  Returns 0, or a negative
 * code; sets *wait when more raw bytes are needed before anything more can
 * be published (a BOM or encoding not yet decided).
 */
static int publish(struct pgn_reader *r, int *wait)
{
	*wait = 0;
	if (!r->bom_checked) {
		const unsigned char *u = (const unsigned char *)r->raw.ptr;
		if (r->raw.len < 3 && !r->raw_eof) {
			*wait = 1;
			return 0;
		}
		r->bom_checked = 1;
		if (r->opts.encoding == XQ_ENC_UNKNOWN || r->opts.encoding == XQ_ENC_UTF8) {
			if (r->raw.len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF) {
				r->enc = XQ_ENC_UTF8;
				r->first_high = 0;
				r->pos = r->col_pos = r->line_start = 3; /* the BOM is not a column */
			} else if (r->opts.encoding == XQ_ENC_UTF8) {
				r->enc = XQ_ENC_UTF8;
			} else if (r->raw.len >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) ||
						       (u[0] == 0xFE && u[1] == 0xFF))) {
				r->raw_done = 2;
				r->map_r = 2;
				r->first_high = 0;
				r->pos = r->col_pos = r->base = r->map_d = 0;
				if (start_conversion(r, u[0] == 0xFF ? XQ_ENC_UTF16LE : XQ_ENC_UTF16BE))
					return XQ_EUNSUPPORTED;
			}
		} else {
			int rc = start_conversion(r, r->opts.encoding);
			if (rc)
				return rc;
			r->first_high = 0;
		}
	}
	if (r->enc == XQ_ENC_UNKNOWN) {
		/* ASCII so far: publish the whole lines before the first other
		 * byte, then decide; the decoder starts at its line's start. */
		const unsigned char *u = (const unsigned char *)r->raw.ptr;
		size_t k = r->tlen, ls = r->tlen, n;
		while (k < r->raw.len && u[k] < 0x80)
			k++;
		/* Whole lines, or pieces of a line as long as the decoder cuts
		 * them: waiting for the end of a line that has none (/dev/zero)
		 * read for ever. */
		while ((n = xq_textdec_unit_len(r->raw.ptr + ls, k - ls, 0)) > 0)
			ls += n;
		if (k == r->raw.len) {
			r->tlen = r->raw_eof ? k : ls;
			return 0;
		}
		r->tlen = ls;
		/* The sample is the SAMPLE bytes from the start of that line,
		 * however the input arrives: every reader of the input (chunk
		 * readers too) decides the same way. */
		if (r->given == XQ_ENC_UNKNOWN && r->raw.len - ls < SAMPLE && !r->raw_eof) {
			*wait = 1;
			return 0;
		}
		r->first_high = r->raw_base + k; /* ASCII so far: position = offset */
		r->enc = r->given != XQ_ENC_UNKNOWN
				 ? r->given
				 : xq_textdec_detect(r->raw.ptr + ls,
						     r->raw.len - ls < SAMPLE ? r->raw.len - ls : SAMPLE);
	}
	if (!r->td_live) {
		int rc = start_conversion(r, r->enc);
		if (rc)
			return rc;
	}
	if (!r->conv) {
		/* UTF-8 in place, whole lines, up to a line that needs converting. */
		long used = xq_textdec_feed(&r->td, r->raw.ptr + r->tlen, r->raw.len - r->tlen,
					    r->raw_eof, NULL);
		if (used < 0)
			return (int)used;
		r->tlen += (size_t)used;
		if (r->td.copy) {
			int rc = start_copy(r);
			if (rc)
				return rc;
		}
	}
	if (r->conv) {
		long used = xq_textdec_feed(&r->td, r->raw.ptr + r->raw_done,
					    r->raw.len - r->raw_done, r->raw_eof, &r->dec);
		if (used < 0)
			return (int)used;
		r->raw_done += (size_t)used;
		r->tlen = r->dec.len;
	}
	set_text(r);
	return 0;
}

/*
 * Read more text, keeping everything from `keep` on.  Returns 1 when the
 * window grew, 0 at the end of the input, or a negative code (reported).
 */
static int fill(struct pgn_reader *r, uint64_t keep)
{
	uint64_t old_end = END(r);

	if (r->io_rc)
		return r->io_rc;
	if (keep > r->base)
		compact(r, keep);
	/* Every round reads bytes, or meets the end of the input. */
	for (uint64_t was = r->raw_base + r->raw.len + (uint64_t)r->raw_eof;;
	     XQ_ADVANCED(was, r->raw_base + r->raw.len + (uint64_t)r->raw_eof)) {
		int wait = 0, rc;
		if (!r->raw_eof) {
			struct xq_diag d;
			long n;
			xq_diag_init(&d);
			if (xq_buf_grow(&r->raw, CHUNK)) {
				r->io_rc = XQ_ENOMEM;
				xq_diag_set(&d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
				report_io(r, &d);
				return r->io_rc;
			}
			n = r->in ? xq_input_read(r->in, r->raw.ptr + r->raw.len, CHUNK, &d)
				  : r->src.read(r->src.ctx, r->raw.ptr + r->raw.len, CHUNK, &d);
			if (n < 0) {
				r->io_rc = (int)n;
				report_io(r, &d);
				return r->io_rc;
			}
			if (n == 0)
				r->raw_eof = 1;
			r->raw.len += (size_t)n;
			r->raw.ptr[r->raw.len] = '\0';
			set_text(r);
		}
		rc = publish(r, &wait);
		if (rc) {
			r->io_rc = rc;
			return rc;
		}
		if (END(r) > old_end)
			return 1;
		if (r->raw_eof && !wait)
			return 0;
	}
}

/* Is position p inside the text (reading more when needed)? */
static int have(struct pgn_reader *r, uint64_t p, uint64_t keep)
{
	while (p >= END(r))
		if (fill(r, keep) <= 0)
			return 0;
	return 1;
}

/*
 * The lines read in another encoding (decode.h) before position `upto`,
 * which are on the current line (or before it, already taken): their
 * places are kept for the game holding them (only the first of a run in
 * one encoding, which is all that is reported).
 */
static void take_foreign(struct pgn_reader *r, uint64_t upto)
{
	struct xq_textdec *d = &r->td;

	while (d->ev_first < d->nevents && d->events[d->ev_first].dpos < upto) {
		const struct xq_textdec_event *e = &d->events[d->ev_first++];
		struct foreign *f;
		uint64_t cols;
		if (e->kind == XQ_TEXTDEC_BAD ||
		    r->nforeign == sizeof(r->foreign) / sizeof(r->foreign[0]) ||
		    (r->nforeign && r->foreign[r->nforeign - 1].enc == e->enc &&
		     r->foreign[r->nforeign - 1].kind == e->kind))
			continue;
		f = &r->foreign[r->nforeign++];
		f->dpos = e->dpos;
		f->enc = e->enc;
		f->kind = e->kind;
		cols = e->dpos > r->line_start ? e->dpos - r->line_start : 0;
		if (r->line_start >= r->base && e->dpos <= END(r))
			cols = count_chars(r->text + (r->line_start - r->base), (size_t)cols);
		f->place.line = r->line;
		f->place.col = (uint64_t)cols + 1;
		f->place.offset = e->raw;
	}
}

static void newline(struct pgn_reader *r, uint64_t p, unsigned char c)
{
	if (r->td.ev_first < r->td.nevents && r->td.events[r->td.ev_first].dpos < p)
		take_foreign(r, p);
	if (c == '\n' && r->cr_at == p) {
		r->col_pos = r->line_start = p + 1; /* the LF of a CRLF */
		return;
	}
	r->line++;
	r->col_pos = r->line_start = p + 1;
	r->col_val = 0;
	if (c == '\r')
		r->cr_at = p + 1;
}

/*
 * Length of the well-formed UTF-8 character at p (0 if the bytes there
 * are not one: an undecodable byte).  Reads ahead as needed.
 */
static size_t char_at(struct pgn_reader *r, uint64_t p, uint64_t keep)
{
	unsigned char c = AT(r, p);
	size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;

	have(r, p + need - 1, keep);
	return xq_utf8_valid_prefix(r->text + (p - r->base), (size_t)(END(r) - p));
}

/* U+3000 ideographic space, U+00A0 no-break space, U+FEFF (a BOM inside
 * concatenated files) separate tokens like spaces. */
static int is_wide_space(struct pgn_reader *r, uint64_t p, size_t n)
{
	const unsigned char *s = (const unsigned char *)r->text + (p - r->base);

	if (s[0] != 0xE3 && s[0] != 0xEF && s[0] != 0xC2)
		return 0; /* most characters: a hanzi is never one */
	return (n == 3 && s[0] == 0xE3 && s[1] == 0x80 && s[2] == 0x80) ||
	       (n == 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) ||
	       (n == 2 && s[0] == 0xC2 && s[1] == 0xA0);
}

static void mark_bad(struct pgn_reader *r, struct tok *t, uint64_t p)
{
	if (t->bad)
		return;
	t->bad = 1;
	advance_col(r, p);
	t->bad_place.line = r->line;
	t->bad_place.col = r->col_val + 1;
	t->bad_byte = AT(r, p);
	t->bad_place.offset = offset_peek(r, p);
	t->bad_enc = r->td_live ? xq_textdec_enc_at(&r->td, p) : XQ_ENC_UTF8;
	if (r->conv)
		t->bad_byte = (unsigned char)r->raw.ptr[t->bad_place.offset - r->raw_base];
}

enum { C_WORD, C_SPACE, C_NL, C_DELIM, C_NUL };

/* What an ASCII byte is to the lexer (C_WORD, the zero, for the rest). */
static const unsigned char cls_table[128] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\v'] = C_SPACE, ['\f'] = C_SPACE,
	['\n'] = C_NL,    ['\r'] = C_NL,
	['{'] = C_DELIM, ['}'] = C_DELIM, ['('] = C_DELIM, [')'] = C_DELIM,
	['['] = C_DELIM, [']'] = C_DELIM, [';'] = C_DELIM, ['$'] = C_DELIM,
	['\0'] = C_NUL,
};

static void skip_space(struct pgn_reader *r)
{
	uint64_t p;
	int in_step;
	uint32_t chars = 0;

	if (!r->bom_checked)
		have(r, r->pos, r->pos); /* the first read steps over a BOM */
	p = r->pos;
	/* The column cursor moves along when it stood here: every space is
	 * one character, and a line end restarts it. */
	in_step = r->col_pos == p;

	/* Every round scans to the end of the text, which then grows. */
	for (uint64_t was = END(r);; XQ_ADVANCED(was, END(r))) {
		const unsigned char *x = (const unsigned char *)r->text;
		size_t i = (size_t)(p - r->base), lim = r->tlen;
		int stop = 0;
		/* No further than the limit of blank text (XQ_SKIP_MAX). */
		if (r->base + lim > r->pos + XQ_SKIP_MAX + 1)
			lim = (size_t)(r->pos + XQ_SKIP_MAX + 1 - r->base);
		while (i < lim) {
			unsigned char c = x[i];
			if (c < 0x80) {
				unsigned char k = cls_table[c];
				if (k == C_NL) {
					newline(r, r->base + i, c);
					in_step = 1;
					chars = 0;
				} else if (k != C_SPACE) {
					stop = 1;
					break;
				} else {
					chars++;
				}
				i++;
			} else {
				size_t n = xq_utf8_valid_prefix((const char *)x + i, lim - i);
				if (n < 2 || !is_wide_space(r, r->base + i, n)) {
					stop = 1;
					break;
				}
				chars++;
				i += n;
			}
		}
		p = r->base + i;
		if (stop)
			break;
		/* Settle the column before reading on: a refill compacts the
		 * window and moves a lagging column cursor up to `p` itself. */
		if (in_step) {
			r->col_val += chars;
			r->col_pos = p;
			chars = 0;
		}
		if (p - r->pos > XQ_SKIP_MAX) {
			struct xq_place pl = place_at(r, p);
			stop_at_limit(r, &pl,
				      "more than %llu MiB of blank text up to here and no game; the rest "
				      "of the input is not read",
				      (unsigned long long)(XQ_SKIP_MAX >> 20));
			break;
		}
		if (!have(r, p, p))
			break;
	}
	if (in_step) {
		r->col_val += chars;
		r->col_pos = p;
	}
	r->pos = p;
}

/* Has a token scan reached the end of the text, or XQ_PGN_TOKEN_MAX? */
static int scan_stops(struct pgn_reader *r, const struct tok *t, uint64_t p, int *too_long)
{
	*too_long = p - t->start > XQ_PGN_TOKEN_MAX;
	return *too_long || (p >= END(r) && !have(r, p, t->start));
}

/* Bytes of the character at p; an undecodable byte (or NUL) is marked
 * on the token (when `mark`) and counts as one. */
static size_t text_char(struct pgn_reader *r, struct tok *t, uint64_t p, int mark)
{
	unsigned char c = AT(r, p);
	size_t n = 1;

	if (c >= 0x80)
		n = char_at(r, p, t->start);
	if ((n == 0 || c == 0) && mark)
		mark_bad(r, t, p);
	return n ? n : 1;
}

static void scan_comment(struct pgn_reader *r, struct tok *t)
{
	uint64_t p = t->start + 1;
	int too_long;

	t->type = T_COMMENT;
	t->body = p;
	for (uint64_t was = p;; XQ_ADVANCED(was, p)) {
		unsigned char c;
		if (scan_stops(r, t, p, &too_long)) {
			t->type = T_UNTERMINATED;
			t->end = t->start + 1;
			return;
		}
		c = AT(r, p);
		if (c == '}') {
			t->body_end = p;
			t->end = p + 1;
			return;
		}
		if (c == '\n' || c == '\r') {
			newline(r, p, c);
			p++;
		} else {
			p += text_char(r, t, p, 1);
		}
	}
}

/* To the end of the line: ';' comments, '%' escapes and tag lines (which
 * mark their undecodable bytes themselves: `mark` 0). */
static void scan_line(struct pgn_reader *r, struct tok *t, enum tok_type type, int mark)
{
	uint64_t p = t->start + 1;
	int too_long;

	t->type = type;
	t->body = p;
	while (!scan_stops(r, t, p, &too_long)) {
		unsigned char c = AT(r, p);
		if (c == '\n' || c == '\r')
			break;
		p += text_char(r, t, p, mark);
	}
	if (too_long)
		t->type = T_TOO_LONG;
	t->body_end = t->end = p;
}

/* Index of the last `c` in s[from, to), or `to` if none. */
static size_t last_of(const char *s, size_t from, size_t to, char c)
{
	for (size_t i = to; i > from; i--)
		if (s[i - 1] == c)
			return i - 1;
	return to;
}

/*
 * A quoted tag value that goes on past the end of its line (old files put
 * line breaks in titles): look at most 8 lines ahead for one that ends
 * with `"]`, stopping at a line that starts a tag.  Returns the position
 * after that ']' (and the closing quote's in *quote) with the line ends on
 * the way counted, or 0 if the value is not closed that way.
 */
static uint64_t continued_tag(struct pgn_reader *r, uint64_t p, uint64_t keep, uint64_t *quote)
{
	uint64_t q = p, line_start = 0, last_quote = 0;
	int lines = 0, blank = 1;

	while (have(r, q, keep) && q - p < 4096) {
		unsigned char c = AT(r, q);
		if (c == '\n' || c == '\r') {
			if (c == '\n' || !(have(r, q + 1, keep) && AT(r, q + 1) == '\n'))
				if (++lines > 8)
					return 0;
			q++;
			line_start = q;
			blank = 1;
			last_quote = 0;
			continue;
		}
		if (blank && c != ' ' && c != '\t') {
			blank = 0;
			if (c == '[' && line_start)
				return 0;
		}
		if (c == '"')
			last_quote = q + 1;
		else if (c == ']' && last_quote) {
			uint64_t k = last_quote;
			while (k < q && (AT(r, k) == ' ' || AT(r, k) == '\t'))
				k++;
			if (k == q) {
				/* Found: count the line ends passed. */
				for (uint64_t x = p; x < line_start; x++)
					if (AT(r, x) == '\n' || AT(r, x) == '\r')
						newline(r, x, AT(r, x));
				*quote = last_quote - 1;
				return q + 1;
			}
		} else if (c != ' ' && c != '\t') {
			last_quote = 0;
		}
		q++;
	}
	return 0;
}

/*
 * A tag line: `[Name "value"]`, leniently.  The token ends after its ']'
 * when the value is properly quoted (so several tags may share a line);
 * otherwise the value runs to the last '"' before the last ']' of the line.
 */
static void scan_tag(struct pgn_reader *r, struct tok *t)
{
	struct tok probe = *t;
	uint64_t p;
	size_t len, i, j, ns, ne, vs, ve, end;
	const char *s;

	scan_line(r, &probe, T_TAG, 0);
	if (probe.type == T_TOO_LONG) {
		*t = probe;
		return;
	}
	p = probe.end;
	s = r->text + (t->start - r->base);
	len = (size_t)(p - t->start);
	t->type = T_TAG;
	t->tag_flags = 0;
	i = 1;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	ns = i;
	while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '"' && s[i] != ']' && s[i] != '[')
		i++;
	ne = i;
	if (ne == ns)
		t->tag_flags |= TAG_NO_NAME;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < len && s[i] == '"') {
		vs = ++i;
		for (j = vs; j < len && s[j] != '"'; j++)
			if (s[j] == '\\' && j + 1 < len)
				j++;
		if (j < len) {
			size_t k = j + 1;
			while (k < len && (s[k] == ' ' || s[k] == '\t'))
				k++;
			if (k < len && s[k] == ']') {
				ve = j;
				end = k + 1;
				goto done;
			}
		}
		if (j >= len && last_of(s, vs, len, ']') == len) {
			uint64_t quote, after = continued_tag(r, t->start + len, t->start, &quote);
			/* Reading ahead may have moved (or decoded) the window. */
			s = r->text + (t->start - r->base);
			if (after) {
				ve = (size_t)(quote - t->start);
				end = (size_t)(after - t->start);
				t->tag_flags |= TAG_LINES;
				goto done;
			}
		}
		/* Not closed the standard way: fall back on the line's shape. */
		{
			size_t rb = last_of(s, vs, len, ']');
			if (rb < len) {
				size_t q = last_of(s, vs, rb, '"');
				if (q < rb) {
					ve = q;
					t->tag_flags |= TAG_STRAY_QUOTE;
				} else {
					ve = rb;
					t->tag_flags |= TAG_NO_QUOTE;
				}
				end = rb + 1;
			} else {
				size_t q = last_of(s, vs, len, '"');
				t->tag_flags |= TAG_NO_BRACKET;
				if (q < len) {
					ve = q;
				} else {
					ve = len;
					t->tag_flags |= TAG_NO_QUOTE;
				}
				end = len;
			}
		}
	} else {
		size_t rb = i;
		while (rb < len && s[rb] != ']')
			rb++;
		vs = i;
		ve = rb;
		while (ve > vs && (s[ve - 1] == ' ' || s[ve - 1] == '\t'))
			ve--;
		t->tag_flags |= TAG_UNQUOTED;
		if (rb < len) {
			end = rb + 1;
		} else {
			end = len;
			t->tag_flags |= TAG_NO_BRACKET;
		}
	}
done:
	t->body = t->start + ns;
	t->body_end = t->start + ne;
	t->value = t->start + vs;
	t->value_end = t->start + ve;
	t->end = t->start + end;
	for (i = 0; i < end;) {
		size_t n = 1;
		if ((unsigned char)s[i] >= 0x80)
			n = xq_utf8_valid_prefix(s + i, end - i);
		if (n == 0 || s[i] == '\0') {
			mark_bad(r, t, t->start + i);
			break;
		}
		i += n;
	}
}

/*
 * After the digits of a word at [start, p) comes '.' at p: if the dots
 * are not followed by a digit ("33.4" is a WXF move, "2006.08.03" a
 * word), the word is a move number ending after them.  Returns that end,
 * or 0.
 */
static uint64_t number_end(struct pgn_reader *r, const struct tok *t, uint64_t p)
{
	uint64_t q = p;

	while (have(r, q, t->start) && AT(r, q) == '.')
		q++;
	return q < END(r) && xq_is_digit(AT(r, q)) ? 0 : q;
}

static void scan_word(struct pgn_reader *r, struct tok *t)
{
	uint64_t p = t->start;
	int digits = 1;
	uint32_t chars = 0;

	t->type = T_WORD;
	/* Every round scans to the end of the text, which then grows. */
	for (uint64_t was = END(r);; XQ_ADVANCED(was, END(r))) {
		/* The window holds whole characters (publish() holds back a cut
		 * one), so the bytes in it can be read without asking for more. */
		const unsigned char *x = (const unsigned char *)r->text;
		size_t i = (size_t)(p - r->base), lim = r->tlen;
		int stop = 0;
		while (i < lim && !stop) {
			unsigned char c = x[i];
			if (c < 0x80) {
				unsigned char k = cls_table[c];
				if (k == C_NUL) {
					mark_bad(r, t, r->base + i);
				} else if (k != C_WORD) {
					stop = 1;
					break;
				} else if (digits && xq_is_digit(c)) {
					i++;
					chars++;
					continue;
				} else if (digits && c == '.' && r->base + i > t->start) {
					uint64_t at = r->base + i, q = number_end(r, t, at);
					if (q) {
						t->num = 0;
						for (uint64_t k2 = t->start; k2 < at && t->num < 100000000ul; k2++)
							t->num = t->num * 10 + (AT(r, k2) - '0');
						t->type = T_NUMBER;
						t->end = q;
						if (r->col_pos == t->start) {
							r->col_val += (uint64_t)(q - t->start);
							r->col_pos = q;
						}
						return;
					}
					/* number_end() may have moved the window. */
					x = (const unsigned char *)r->text;
					i = (size_t)(at - r->base);
					lim = r->tlen;
				}
				i++;
			} else {
				size_t n;
				if (c >= 0xE4 && c <= 0xE9 && i + 2 < lim && (x[i + 1] & 0xC0) == 0x80 &&
				    (x[i + 2] & 0xC0) == 0x80) {
					/* A CJK character: never a space, always whole. */
					i += 3;
					chars++;
					digits = 0;
					continue;
				}
				n = xq_utf8_valid_prefix((const char *)x + i, lim - i);
				if (n == 0) {
					mark_bad(r, t, r->base + i);
					n = 1;
				} else if (n > 1 && is_wide_space(r, r->base + i, n)) {
					stop = 1;
					break;
				}
				i += n;
			}
			chars++;
			digits = 0;
		}
		p = r->base + i;
		if (stop)
			break;
		if (p - t->start > XQ_PGN_TOKEN_MAX) {
			t->type = T_TOO_LONG;
			break;
		}
		if (!have(r, p, t->start))
			break;
	}
	t->end = p;
	/* Words hold no line end: the column cursor can jump to the end (unless
	 * a bad byte moved it already). */
	if (r->col_pos == t->start) {
		r->col_val += chars;
		r->col_pos = p;
	}
}

static void scan_token(struct pgn_reader *r, struct tok *t)
{
	unsigned char c;

	t->bad = 0;
	t->tag_flags = 0;
	t->num = 0;
	skip_space(r);
	t->start = t->end = r->pos;
	if (r->io_rc) {
		t->type = T_IO;
		return;
	}
	if (r->pos >= END(r) && !have(r, r->pos, r->pos)) {
		t->type = r->io_rc ? T_IO : T_EOF;
		t->place = place_at(r, r->pos);
		return;
	}
	t->place = place_at(r, t->start);
	c = AT(r, t->start);
	switch (c) {
	case '{': {
		/* A '{' that closes no comment is read again as what follows
		 * it: the line ends the scan passed are not passed yet. */
		uint64_t line = r->line, col_val = r->col_val;
		uint64_t col_pos = r->col_pos, cr_at = r->cr_at;
		scan_comment(r, t);
		if (t->type == T_UNTERMINATED) {
			r->line = line;
			r->col_val = col_val;
			r->col_pos = col_pos;
			r->cr_at = cr_at;
		}
		break;
	}
	case ';':
		scan_line(r, t, T_COMMENT, 1);
		break;
	case '[':
		scan_tag(r, t);
		break;
	case '(':
		t->type = T_LPAREN;
		t->end = t->start + 1;
		break;
	case ')':
		t->type = T_RPAREN;
		t->end = t->start + 1;
		break;
	case '}':
	case ']':
		t->type = T_STRAY;
		t->end = t->start + 1;
		break;
	case '$': {
		uint64_t p = t->start + 1;
		t->num = 0;
		while (have(r, p, t->start) && xq_is_digit(AT(r, p))) {
			if (t->num < 100000)
				t->num = t->num * 10 + (AT(r, p) - '0');
			p++;
		}
		if (p == t->start + 1) {
			scan_word(r, t);
			if (t->end == t->start)
				t->end = t->start + 1;
			t->type = T_WORD;
		} else {
			t->type = T_NAG;
			t->end = p;
		}
		break;
	}
	case '%':
		if (t->place.col == 1) {
			scan_line(r, t, T_ESCAPE, 1);
			break;
		}
		/* fall through */
	default:
		scan_word(r, t);
		if (t->end == t->start) {
			/* Only an undecodable byte or a separator we do not know. */
			t->end = t->start + 1;
		}
		break;
	}
	if (t->type == T_UNTERMINATED)
		r->pos = t->start + 1;
	else
		r->pos = t->end;
}

/*
 * The limits on the token just scanned: the text skipped (XQ_SKIP_MAX of
 * format.h) and the game (the format's record limit, r->max_game).  Past
 * one, the token becomes the end of the readable input.
 */
static void check_limits(struct pgn_reader *r, struct tok *t)
{
	if (t->type == T_EOF || t->type == T_IO)
		return;
	if (r->skip_start != NO_POS && t->end - r->skip_start > XQ_SKIP_MAX)
		stop_at_limit(r, &t->place,
			      "more than %llu MiB skipped since line %u without reaching the next "
			      "game; the rest of the input is not read",
			      (unsigned long long)(XQ_SKIP_MAX >> 20), r->skip_line);
	else if (r->game_start != NO_POS && t->end - r->game_start > r->max_game) {
		struct xq_diag d;
		xq_diag_init(&d);
		xq_format_limit_diag(&d, &xq_format_pgn, &r->opts, "the game");
		stop_at_limit(r, &t->place, "%s; the rest of the input is not read", d.msg);
	} else
		return;
	t->type = T_IO;
	t->bad = 0;
	t->end = t->start;
}

static const struct tok *next_tok(struct pgn_reader *r)
{
	if (r->pushed) {
		r->pushed = 0;
	} else {
		scan_token(r, &r->tok);
		check_limits(r, &r->tok);
	}
	return &r->tok;
}

/* How far a loop over tokens has gone (each token it takes is past the last). */
static uint64_t tok_progress(const struct pgn_reader *r)
{
	return r->pushed ? r->tok.start : r->pos;
}

static void push_back(struct pgn_reader *r)
{
	r->pushed = 1;
}

/* The token's text (valid until the next token is read). */
static const char *tok_text(const struct pgn_reader *r, uint64_t from)
{
	return r->text + (from - r->base);
}

/* ---- diagnostics ----------------------------------------------------------- */

static void emit(struct pgn_reader *r, const struct xq_game *g, struct xq_diag *d,
		 const struct xq_place *pl, uint32_t ply, const char *move, size_t mlen)
{
	d->source = r->name;
	if (pl) {
		d->place = *pl;
		d->has_offset = 1;
	}
	d->game = g->number;
	d->ply = ply;
	if (move)
		xq_diag_set_move(d, move, mlen);
	xq_sink_report(r->sink, d);
}

static void report(struct pgn_reader *r, const struct xq_game *g, const struct xq_place *pl,
		   uint32_t ply, const char *move, size_t mlen, enum xq_severity sev,
		   enum xq_diag_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;

static void report(struct pgn_reader *r, const struct xq_game *g, const struct xq_place *pl,
		   uint32_t ply, const char *move, size_t mlen, enum xq_severity sev,
		   enum xq_diag_code code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	xq_format_vreport(r->sink, r->name, g->number, pl, pl != NULL, ply, move, mlen, code, sev,
			  fmt, ap);
	va_end(ap);
}

/* ---- the parser ------------------------------------------------------------- */

struct gstate {
	struct xq_game *g;
	struct xq_board board;  /* the position after `cur` */
	uint32_t cur, ply, moves; /* the line being read */
	uint32_t total;         /* moves in the tree */
	int after_number;       /* a move number since the last move */
	int have_pre;           /* r->pre holds a comment for the next move */
	int dialect;            /* enum xq_notation; AUTO until the first move */
	int movetext;           /* something other than tags was read */
	int broken;
	int have_result;
	int start_given;        /* FEN tag or FEN line */
	uint64_t last_tag_line;  /* the line the last tag ended on */
	const char *result_tag;
	struct xq_place result_place;
	const char *format_tag;
	struct xq_place format_place;
	/* Where the last token of the move text starts (have_last): what is
	 * said of the end of the moves points there, not at what follows. */
	struct xq_place last_place;
	int have_last;
};

static int oom(struct pgn_reader *r, struct gstate *s)
{
	struct xq_diag d;

	xq_diag_init(&d);
	xq_diag_set(&d, XQ_ENOMEM, XQ_D_RESOURCE, XQ_SEV_ERROR, "out of memory");
	emit(r, s->g, &d, NULL, s->ply, NULL, 0);
	s->broken = 1;
	s->g->flags |= XQ_GAME_BROKEN;
	return XQ_ENOMEM;
}

/* An error: report it and mark the game broken. */
static void fail(struct pgn_reader *r, struct gstate *s, const struct xq_place *pl, uint32_t ply,
		 const char *move, size_t mlen, enum xq_diag_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 8, 9)))
#endif
	;

static void fail(struct pgn_reader *r, struct gstate *s, const struct xq_place *pl, uint32_t ply,
		 const char *move, size_t mlen, enum xq_diag_code code, const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	va_start(ap, fmt);
	xq_diag_vset(&d, XQ_EPARSE, code, XQ_SEV_ERROR, fmt, ap);
	va_end(ap);
	emit(r, s->g, &d, pl, ply, move, mlen);
	s->broken = 1;
	s->g->flags |= XQ_GAME_BROKEN;
}

static void fail_bad_byte(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	char msg[160];

	xq_textdec_bad_message(msg, sizeof(msg), t->bad_byte, t->bad_enc, t->bad_place.offset);
	fail(r, s, &t->bad_place, s->ply + 1, NULL, 0, XQ_D_ENCODING, "%s", msg);
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

static int append_str(struct xq_game *g, const char **field, const char *s, size_t n)
{
	size_t old = *field ? strlen(*field) : 0;
	char *p = xq_arena_alloc(&g->arena, old + (old ? 1 : 0) + n + 1);

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
static int post_flush(struct pgn_reader *r, struct xq_game *g)
{
	int rc = 0;

	if (r->post_node != XQ_NODE_NONE && r->post.len)
		rc = append_str(g, &g->nodes[r->post_node].comment, r->post.ptr, r->post.len);
	r->post_node = XQ_NODE_NONE;
	xq_buf_reset(&r->post);
	return rc;
}

/* Add `n` bytes of `text` to the comment after `node`. */
static int post_add(struct pgn_reader *r, struct xq_game *g, uint32_t node, const char *text,
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

static int take_comment(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	int rc = clean_comment(r, tok_text(r, t->body), (size_t)(t->body_end - t->body));

	if (rc || r->scratch.len == 0)
		return rc;
	if (s->after_number || (r->nstack > 0 && s->moves == 0))
		return add_pre(r, s);
	return post_add(r, s->g, s->cur, r->scratch.ptr, r->scratch.len);
}

static int nag_of(const char *w, size_t n)
{
	if (n == 0 || n > 2 || (w[0] != '!' && w[0] != '?'))
		return 0;
	if (n == 1)
		return w[0] == '!' ? 1 : 2;
	if (w[1] == w[0])
		return w[0] == '!' ? 3 : 4;
	return w[1] == '?' ? 5 : w[1] == '!' ? 6 : 0;
}

static int only_of(const char *w, size_t n, const char *set)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, w[i]))
			return 0;
	return 1;
}

/* Result markers, standard and Chinese.  Returns 1 if `w` is one. */
static int result_of(const char *w, size_t n, enum xq_result *res, int *standard)
{
	static const struct {
		const char *text;
		enum xq_result r;
	} words[] = {
		{"红胜", XQ_RESULT_RED_WIN},    {"紅勝", XQ_RESULT_RED_WIN},
		{"红方胜", XQ_RESULT_RED_WIN},  {"紅方勝", XQ_RESULT_RED_WIN},
		{"黑负", XQ_RESULT_RED_WIN},    {"黑負", XQ_RESULT_RED_WIN},
		{"黑胜", XQ_RESULT_BLACK_WIN},  {"黑勝", XQ_RESULT_BLACK_WIN},
		{"黑方胜", XQ_RESULT_BLACK_WIN}, {"黑方勝", XQ_RESULT_BLACK_WIN},
		{"红负", XQ_RESULT_BLACK_WIN},  {"紅負", XQ_RESULT_BLACK_WIN},
		{"和棋", XQ_RESULT_DRAW},       {"和局", XQ_RESULT_DRAW},
		{"未知", XQ_RESULT_UNKNOWN},
	};

	unsigned char c = n ? (unsigned char)w[0] : 0;

	/* Every move of every notation is longer or starts otherwise: most
	 * words are done with here. */
	if (c == '1' || c == '0' || c == '*' || c == 0xC2) {
		if (xq_result_parse(w, n, res) != 0)
			return 0;
		*standard = c != 0xC2; /* ½-½ is not */
		return 1;
	}
	if (n != 6 && n != 9)
		return 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strlen(words[i].text) == n && !memcmp(words[i].text, w, n)) {
			*res = words[i].r;
			*standard = 0;
			return 1;
		}
	}
	return 0;
}

static int is_ellipsis(const char *w, size_t n)
{
	if (n == 0 || (w[0] != '.' && (unsigned char)w[0] != 0xE2))
		return 0;
	if (only_of(w, n, "."))
		return n >= 2;
	return (n == 3 && !memcmp(w, "\xE2\x80\xA6", 3)) ||   /* … */
	       (n == 6 && !memcmp(w, "\xE2\x80\xA6\xE2\x80\xA6", 6));
}

/*
 * The length of `w` without the check marks and annotations written onto
 * the move (`+ # ! ?`, ASCII or full-width: no notation's move ends in
 * one).  The marks, made ASCII, go to `marks` (up to 7, NUL-terminated).
 */
static size_t split_marks(const char *w, size_t n, char marks[8])
{
	size_t core = n, k = 0;
	char rev[8];

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

static enum xq_notation dialect_for(const struct pgn_reader *r, enum xq_notation n)
{
	if ((n == XQ_NOTATION_ICCS || n == XQ_NOTATION_UCI) && r->opts.uci_ranks)
		return XQ_NOTATION_UCI1;
	return n;
}

/* Read one move in the game's notation (found from its first move). */
static int is_coordinates(enum xq_notation n)
{
	return n == XQ_NOTATION_ICCS || n == XQ_NOTATION_UCI || n == XQ_NOTATION_UCI1;
}

/* A square on rank 10 while ranks are read 0-9: say how to read the file. */
static int rank_ten(struct xq_diag *d, const char *w, size_t n)
{
	return xq_diag_set(d, XQ_EPARSE, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR,
			   "'%.*s' names rank 10: this game counts ranks 1-10 (as Fairy-Stockfish "
			   "writes UCI), so every move of it would be read one rank off; read it with "
			   "ranks 1-10",
			   (int)n, w);
}

static int read_move(struct pgn_reader *r, struct gstate *s, struct xq_board *b, const char *w,
		     size_t n, xq_move *m, struct xq_diag *d)
{
	enum xq_notation dia = (enum xq_notation)s->dialect, other;
	int rc;

	if (dia == XQ_NOTATION_AUTO) {
		dia = xq_notation_detect(w, n);
		if (dia == XQ_NOTATION_AUTO)
			return xq_diag_set(d, XQ_EPARSE, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR,
					   "'%.*s' is not a move in any notation", (int)n, w);
		if (dia == XQ_NOTATION_UCI1 && !r->opts.uci_ranks)
			return rank_ten(d, w, n);
		dia = dialect_for(r, dia);
	}
	rc = xq_notation_read(m, b, w, n, dia, d);
	if (rc == XQ_EPARSE) {
		/* One move in another notation than the rest of the game; but
		 * never coordinates counted from another rank. */
		other = xq_notation_detect(w, n);
		if (other == XQ_NOTATION_UCI1 && !r->opts.uci_ranks)
			return rank_ten(d, w, n);
		other = dialect_for(r, other);
		if (other != XQ_NOTATION_AUTO && other != dia &&
		    !(is_coordinates(other) && is_coordinates(dia))) {
			struct xq_diag d2;
			xq_diag_init(&d2);
			if (xq_notation_read(m, b, w, n, other, &d2) == 0)
				return 0;
		}
	}
	if (rc == 0 && s->dialect == XQ_NOTATION_AUTO)
		s->dialect = dia;
	if (rc && d->code == XQ_D_NONE)
		xq_diag_set(d, rc, XQ_D_BAD_MOVE_TEXT, XQ_SEV_ERROR, "'%.*s' is not a move", (int)n, w);
	return rc;
}

/*
 * The first move of a game set up from a FEN fails, but would be legal
 * with the other side to move: a wrong side field, common in old files.
 * Returns 1 with s->board and the game's start flipped (and a warning).
 */
static int try_other_side(struct pgn_reader *r, struct gstate *s, const struct tok *t,
			  const char *w, size_t n, xq_move *m)
{
	char fen[XQ_FEN_MAX];
	struct xq_board b;
	struct xq_diag d;
	char *sp;

	xq_board_to_fen(&s->g->start, fen, sizeof(fen));
	sp = strchr(fen, ' ');
	if (!sp)
		return 0;
	sp[1] = sp[1] == 'b' ? 'w' : 'b';
	xq_diag_init(&d);
	if (xq_board_from_fen(&b, fen, strlen(fen), XQ_FEN_LENIENT_PLACEMENT, &d))
		return 0;
	if (read_move(r, s, &b, w, n, m, &d))
		return 0;
	report(r, s->g, &t->place, 1, w, n, XQ_SEV_WARNING, XQ_D_SIDE_TO_MOVE,
	       "the start position says %s moves first, but the first move is %s's; read with %s to move",
	       b.side == XQ_RED ? "black" : "red", b.side == XQ_RED ? "red" : "black",
	       b.side == XQ_RED ? "red" : "black");
	s->g->start = b;
	s->board = b;
	return 1;
}

/* Room in r->path for the undo of ply `ply` + 1. */
static int path_reserve(struct pgn_reader *r, uint32_t ply)
{
	return XQ_ALLOC_GROW(r->path, (size_t)ply + 1, r->path_cap);
}

static int add_move(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	const char *w = tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start), core;
	char marks[8];
	uint8_t nags[1] = {0}; /* (gcc cannot see that nnag guards it) */
	int nnag = 0;
	xq_move m;
	uint32_t idx;
	int rc;

	if (n > WORD_MAX) {
		fail(r, s, &t->place, s->ply + 1, w, n, XQ_D_BAD_MOVE_TEXT,
		     "a word of %zu bytes is not a move", n);
		return 0;
	}
	/* Check marks and an annotation written onto the move (the notation
	 * reads full-width text itself). */
	core = split_marks(w, n, marks);
	if (marks[0]) {
		char a[8];
		size_t alen = 0;
		int nag;
		for (const char *k = marks; *k; k++)
			if (*k == '!' || *k == '?')
				a[alen++] = *k;
		a[alen] = '\0';
		nag = nag_of(a, alen);
		if (nag)
			nags[nnag++] = (uint8_t)nag;
		else if (alen)
			report(r, s->g, &t->place, s->ply + 1, w, n, XQ_SEV_WARNING, XQ_D_SYNTAX,
			       "'%s' is not an annotation; ignored", a);
	}
	if (core == 0) {
		fail(r, s, &t->place, s->ply + 1, w, n, XQ_D_BAD_MOVE_TEXT, "no move in '%.*s'",
		     (int)n, w);
		return 0;
	}
	/* r->md is kept clear between errors: a clean diagnostic per move
	 * would cost more than many a move. */
	rc = read_move(r, s, &s->board, w, core, &m, &r->md);
	/* Only the game's first move may turn the start around: an
	 * alternative to it comes after a move read with the start's side. */
	if (rc && s->ply == 0 && s->cur == XQ_ROOT && s->total == 0 && s->start_given &&
	    rc != XQ_EPARSE && try_other_side(r, s, t, w, core, &m))
		rc = 0;
	if (rc == 0 && r->md.code != XQ_D_NONE)
		xq_diag_init(&r->md); /* a failed first reading was made good */
	if (rc) {
		emit(r, s->g, &r->md, &t->place, s->ply + 1, w, n);
		xq_diag_init(&r->md);
		s->broken = 1;
		s->g->flags |= XQ_GAME_BROKEN;
		return 0;
	}
	if (path_reserve(r, s->ply))
		return oom(r, s);
	if (xq_game_add_move(s->g, s->cur, m, &idx) || xq_game_set_text(s->g, idx, w, n))
		return oom(r, s);
	s->g->nodes[idx].place = t->place;
	if (s->have_pre) {
		if (xq_game_set_pre_comment(s->g, idx, r->pre.ptr, r->pre.len))
			return oom(r, s);
		s->have_pre = 0;
		xq_buf_reset(&r->pre);
	}
	for (int i = 0; i < nnag; i++)
		if (xq_game_add_nag(s->g, idx, nags[i]))
			return oom(r, s);
	xq_board_make(&s->board, m, &r->path[s->ply]);
	s->cur = idx;
	s->ply++;
	s->moves++;
	s->total++;
	s->after_number = 0;
	return 0;
}

static int count_slashes(const char *w, size_t n)
{
	int k = 0;

	for (size_t i = 0; i < n; i++)
		k += w[i] == '/';
	return k;
}

/*
 * Set the start from FEN text at position `at` (inside the tag or line at
 * `tag_start`, placed at `tag_place`): a rejected FEN is an error whose
 * column is the offending character's.
 */
static int set_start(struct pgn_reader *r, struct gstate *s, const char *fen, size_t n,
		     uint64_t at, const struct xq_place *tag_place, uint64_t tag_start)
{
	struct xq_board b;
	struct xq_diag d, d2;

	xq_diag_init(&d);
	if (xq_board_from_fen(&b, fen, n, 0, &d) == 0) {
		s->g->start = b;
		s->board = b;
		s->start_given = 1;
		return 0;
	}
	xq_diag_init(&d2);
	if (xq_board_from_fen(&b, fen, n, XQ_FEN_LENIENT_PLACEMENT, &d2) == 0) {
		report(r, s->g, tag_place, 0, NULL, 0, XQ_SEV_NOTE, XQ_D_BAD_FEN,
		       "composed position accepted (%s)", d.msg);
		s->g->start = b;
		s->board = b;
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
		xq_diag_init(&d2);
		if (blen < n && xq_board_from_fen(&b, fen, blen, XQ_FEN_LENIENT_PLACEMENT, &d2) == 0) {
			report(r, s->g, tag_place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_FEN,
			       "the FEN after its board is malformed (%s): the board is kept and the "
			       "first move decides the side to move",
			       d.msg);
			s->g->start = b;
			s->board = b;
			s->start_given = 1;
			return 0;
		}
	}
	{
		/* Column of the offending character, inside the tag. */
		size_t byte = d.place.col ? d.place.col - 1 : 0;
		uint64_t p;
		struct xq_place pl;
		if (byte > n)
			byte = n;
		p = at + byte;
		pl.line = tag_place->line;
		pl.col = tag_place->col +
			 (uint32_t)count_chars(tok_text(r, tag_start), (size_t)(p - tag_start));
		pl.offset = offset_of(r, p);
		d.severity = XQ_SEV_ERROR;
		d.code = XQ_D_BAD_FEN;
		emit(r, s->g, &d, &pl, 0, NULL, 0);
		s->broken = 1;
		/* Kept as written: a writer never puts another position in its place. */
		if (xq_game_set_start_text(s->g, fen, n))
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
	const char *name = tok_text(r, t->body), *value;
	size_t nlen = (size_t)(t->body_end - t->body);
	struct xq_tag *tag;

	if (t->tag_flags & TAG_NO_NAME) {
		fail(r, s, &t->place, 0, NULL, 0, XQ_D_BAD_TAG, "a tag line with no tag name: '%.*s'",
		     (int)((t->end - t->start) > 60 ? 60 : (t->end - t->start)), tok_text(r, t->start));
		return 0;
	}
	if (unescape_value(r, tok_text(r, t->value), (size_t)(t->value_end - t->value)) ||
	    xq_game_add_tag_at(s->g, name, nlen, r->scratch.ptr, r->scratch.len, &t->place))
		return oom(r, s);
	tag = &s->g->tags[s->g->ntags - 1];
	value = tag->value;
	if (t->tag_flags & TAG_UNQUOTED)
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
		       "the value of tag %s is not in quotes", tag->name);
	else if (t->tag_flags & TAG_NO_QUOTE)
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
		       "the value of tag %s has no closing quote", tag->name);
	else if (t->tag_flags & TAG_STRAY_QUOTE)
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
		       "the value of tag %s holds a '\"' that is not escaped", tag->name);
	if (t->tag_flags & TAG_LINES)
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
		       "the value of tag %s goes on over a line end", tag->name);
	if (t->tag_flags & TAG_NO_BRACKET)
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
		       "tag %s has no closing ']'", tag->name);
	if (!strcmp(tag->name, "FEN") && *value) {
		if (s->start_given) {
			report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_TAG,
			       "a second FEN tag is ignored");
			return 0;
		}
		return set_start(r, s, tok_text(r, t->value), (size_t)(t->value_end - t->value),
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

/* Where a FEN written on its own line (the word `t`) ends. */
static uint64_t fen_line_end(struct pgn_reader *r, const struct tok *t)
{
	uint64_t p = t->end, end = t->end;
	int field = 1;

	/* The board, then on the same line the fields a FEN may have: side,
	 * two '-', two counters.  Moves may follow on the line. */
	while (field < 6) {
		uint64_t a = p, b;
		while (have(r, a, t->start) && (AT(r, a) == ' ' || AT(r, a) == '\t'))
			a++;
		b = a;
		while (have(r, b, t->start) && AT(r, b) > ' ' && b - a < 8)
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

/* A FEN written on its own line before the moves of a game without tags. */
static int take_fen_line(struct pgn_reader *r, struct gstate *s, const struct tok *t)
{
	uint64_t end = fen_line_end(r, t);

	r->pos = end;
	s->movetext = 1;
	return set_start(r, s, tok_text(r, t->start), (size_t)(end - t->start), t->start, &t->place,
			 t->start);
}

static int frame_push(struct pgn_reader *r, struct gstate *s)
{
	if (XQ_ALLOC_GROW(r->stack, r->nstack + 1, r->stack_cap))
		return XQ_ENOMEM;
	r->stack[r->nstack].cur = s->cur;
	r->stack[r->nstack].ply = s->ply;
	r->stack[r->nstack].moves = s->moves;
	r->nstack++;
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
	return t->body_end - t->body == 4 && !memcmp(tok_text(r, t->body), "Game", 4) &&
	       xq_game_tag(s->g, "Game") != NULL;
}

/* Does this word look like a move (so a game without tags starts here)? */
static int looks_like_move(const char *w, size_t n)
{
	char marks[8];

	if (n > WORD_MAX)
		return 0;
	n = split_marks(w, n, marks);
	return n > 0 && xq_notation_detect(w, n) != XQ_NOTATION_AUTO;
}

/*
 * Where a game ends after an error, and after its result: the reader and
 * the splitter both follow these (the splitter must end every game where
 * the reader does), each with its hooks.
 */
struct game_end {
	void *ctx;
	/* Does tag line `t`, before any move text, start the next game? */
	int (*new_header)(void *ctx, const struct tok *t);
	/* The text of word `t` and its length (`always`: exactly, whatever it is). */
	const char *(*word)(void *ctx, const struct tok *t, size_t *n, int always);
	/* A comment after the result (may be NULL): non-zero stops reading. */
	int (*comment)(void *ctx, const struct tok *t);
	/* Text after the result that is skipped (may be NULL). */
	void (*trailing)(void *ctx, const struct tok *t);
	uint64_t *last_tag_line;
};

/*
 * Skip to the start of the next game after an error (`depth` variations
 * open, `movetext` seen): returns 1 at the game's own result marker (the
 * current token; it ends the game), 0 at the next game (pushed back) or
 * the end.
 */
static int skip_broken_tokens(struct pgn_reader *r, long depth, int movetext,
			      const struct game_end *e)
{
	for (uint64_t was = tok_progress(r);; XQ_ADVANCED(was, tok_progress(r))) {
		const struct tok *t = next_tok(r);
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
			push_back(r);
			return 0;
		case T_LPAREN:
			depth++;
			break;
		case T_RPAREN:
			depth--;
			break;
		case T_WORD: {
			enum xq_result res;
			int std;
			size_t n;
			const char *w = e->word(e->ctx, t, &n, 0);
			if (depth <= 0 && result_of(w, n, &res, &std))
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
	for (uint64_t was = tok_progress(r);; XQ_ADVANCED(was, tok_progress(r))) {
		const struct tok *t = next_tok(r);
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
			push_back(r);
			return;
		case T_WORD:
			if (!t->bad) {
				size_t n;
				const char *w = e->word(e->ctx, t, &n, 1);
				if (looks_like_move(w, n)) {
					push_back(r);
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
		for (uint64_t was2 = tok_progress(r);; XQ_ADVANCED(was2, tok_progress(r))) {
			t = next_tok(r);
			if (t->type == T_EOF || t->type == T_IO)
				return;
			if (t->type == T_TAG || t->type == T_NUMBER) {
				push_back(r);
				return;
			}
		}
	}
}

/* Skipping holds no game: at most XQ_SKIP_MAX bytes of it. */
static void skip_begin(struct pgn_reader *r)
{
	r->skip_start = r->pos;
	r->skip_line = r->line;
}

static int skip_broken(struct pgn_reader *r, long depth, int movetext, const struct game_end *e)
{
	int rc;

	skip_begin(r);
	rc = skip_broken_tokens(r, depth, movetext, e);
	r->skip_start = NO_POS;
	return rc;
}

static void skip_after_result(struct pgn_reader *r, const struct game_end *e)
{
	skip_begin(r);
	skip_tokens_after_result(r, e);
	r->skip_start = NO_POS;
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
	return tok_text(rg->r, t->start);
}

static int rg_comment(void *ctx, const struct tok *t)
{
	struct reading_game *rg = ctx;
	struct pgn_reader *r = rg->r;
	struct gstate *s = rg->s;

	if (t->bad) {
		if (!s->broken)
			fail_bad_byte(r, s, t);
		return 0;
	}
	if (!s->broken) {
		uint32_t last = xq_game_mainline_end(s->g);
		if (clean_comment(r, tok_text(r, t->body), (size_t)(t->body_end - t->body)) ||
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
	const char *w = tok_text(rg->r, t->start);
	size_t n = (size_t)(t->end - t->start);

	report(rg->r, rg->s->g, &t->place, 0, w, n > 40 ? 40 : n, XQ_SEV_WARNING, XQ_D_TRAILING,
	       "text after the result is not part of the game and is skipped");
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

	if (skip_broken(r, (long)r->nstack, s->movetext, &e)) {
		/* The game's own result marker: keep it, it ends the game. */
		const struct tok *t = &r->tok;
		enum xq_result res;
		int std;
		result_of(tok_text(r, t->start), (size_t)(t->end - t->start), &res, &std);
		s->g->result = res;
		if (!std)
			s->g->result_text =
				xq_game_strdup(s->g, tok_text(r, t->start), (size_t)(t->end - t->start));
		s->have_result = 1;
	}
}

/* After the result: comments belong to the game; other text is reported. */
static void after_result(struct pgn_reader *r, struct gstate *s)
{
	struct reading_game rg = {r, s};
	struct game_end e = reading_end(&rg);

	skip_after_result(r, &e);
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
	case XQ_NOTATION_ICCS:
	case XQ_NOTATION_UCI:
	case XQ_NOTATION_UCI1:
		return !strcmp(low, "iccs") || !strcmp(low, "uci") || !strcmp(low, "ucci");
	case XQ_NOTATION_WXF:
		return !strcmp(low, "wxf");
	case XQ_NOTATION_CHINESE:
		return !strcmp(low, "chinese") || !strcmp(low, "") || !strcmp(low, "cn") ||
		       !strcmp(low, "zh");
	case XQ_NOTATION_SAN:
		return !strcmp(low, "san") || !strcmp(low, "xboard");
	default:
		return 1;
	}
}

static void finish(struct pgn_reader *r, struct gstate *s, const struct xq_place *end_place)
{
	struct xq_game *g = s->g;

	if (r->nstack > 0 && !s->broken)
		fail(r, s, end_place, 0, NULL, 0, XQ_D_SYNTAX, "%zu variation%s not closed with ')'",
		     r->nstack, r->nstack > 1 ? "s" : "");
	r->nstack = 0;
	if (!s->broken && flush_pre(r, s))
		oom(r, s);
	s->have_pre = 0;
	xq_buf_reset(&r->pre);
	if (s->broken)
		return;
	if (s->total == 0) {
		g->flags |= XQ_GAME_EMPTY;
		report(r, g, &g->place, 0, NULL, 0, XQ_SEV_NOTE, XQ_D_EMPTY_GAME, "the game has no moves");
	}
	if (!s->have_result) {
		enum xq_result tr;
		if (s->result_tag && *s->result_tag) {
			if (xq_result_parse(s->result_tag, strlen(s->result_tag), &tr) == 0) {
				g->result = tr;
			} else {
				g->result = XQ_RESULT_UNKNOWN;
				g->result_text = s->result_tag;
			}
		}
		/* At the last token of the moves, not at what follows them
		 * (the next game's first tag). */
		if (s->total > 0)
			report(r, g, s->have_last ? &s->last_place : end_place, 0, NULL, 0,
			       XQ_SEV_NOTE, XQ_D_NO_RESULT,
			       "the moves end with no result marker%s",
			       g->result != XQ_RESULT_NONE ? "; the Result tag is used" : "");
	} else if (s->result_tag && *s->result_tag) {
		enum xq_result tr;
		int std;
		if (!result_of(s->result_tag, strlen(s->result_tag), &tr, &std))
			tr = XQ_RESULT_UNKNOWN;
		if (tr != g->result)
			report(r, g, &s->result_place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_BAD_RESULT,
			       "the Result tag says '%s' but the moves end with '%s'", s->result_tag,
			       g->result_text ? g->result_text : xq_result_string(g->result));
	}
	if (s->format_tag && s->dialect != XQ_NOTATION_AUTO &&
	    !notation_matches_format(s->dialect, s->format_tag))
		report(r, g, &s->format_place, 0, NULL, 0, XQ_SEV_NOTE, XQ_D_BAD_TAG,
		       "the Format tag says '%s' but the moves are in %s notation", s->format_tag,
		       xq_notation_name((enum xq_notation)s->dialect));
}

static int handle_word(struct pgn_reader *r, struct gstate *s, const struct tok *t, int *done)
{
	const char *w = tok_text(r, t->start);
	size_t n = (size_t)(t->end - t->start);
	enum xq_result res;
	int std, nag;

	*done = 0;
	if (result_of(w, n, &res, &std)) {
		if (r->nstack > 0) {
			fail(r, s, &t->place, s->ply, w, n, XQ_D_SYNTAX,
			     "a result inside a variation");
			return 0;
		}
		s->g->result = res;
		if (!std && !(s->g->result_text = xq_game_strdup(s->g, w, n)))
			return oom(r, s);
		s->have_result = 1;
		*done = 1;
		return 0;
	}
	if (is_ellipsis(w, n))
		return 0;
	if ((nag = nag_of(w, n)) != 0) {
		if (s->moves == 0) {
			report(r, s->g, &t->place, s->ply, w, n, XQ_SEV_WARNING, XQ_D_SYNTAX,
			       "an annotation before any move is ignored");
			return 0;
		}
		return xq_game_add_nag(s->g, s->cur, (uint8_t)nag) ? oom(r, s) : 0;
	}
	if ((w[0] == '+' || w[0] == '#') && only_of(w, n, "+#"))
		return 0; /* a check mark written apart from its move */
	if (s->g->ntags == 0 && s->total == 0 && !s->start_given && count_slashes(w, n) == 9)
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
		push_back(r);
		finish(r, s, &t->place);
		*ended = 1;
		return 0;
	case T_COMMENT:
		rc = take_comment(r, s, t);
		if (s->total || s->g->ntags)
			s->movetext = 1;
		break;
	case T_ESCAPE:
		report(r, s->g, &t->place, 0, NULL, 0, XQ_SEV_NOTE, XQ_D_SYNTAX,
		       "escape line ('%%' in column 1) ignored");
		break;
	case T_LPAREN:
		s->movetext = 1;
		if (s->moves == 0) {
			fail(r, s, &t->place, s->ply, NULL, 0, XQ_D_SYNTAX,
			     "'(' must follow the move it is a variation of");
			break;
		}
		if ((rc = flush_pre(r, s)) || (rc = frame_push(r, s)))
			break;
		/* A variation replaces the last move: step back over it. */
		s->ply--;
		xq_board_unmake(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply]);
		s->cur = s->g->nodes[s->cur].parent;
		s->moves = 0;
		s->after_number = 0;
		break;
	case T_RPAREN:
		s->movetext = 1;
		if (r->nstack == 0) {
			fail(r, s, &t->place, s->ply, NULL, 0, XQ_D_SYNTAX, "')' with no '(' before it");
			break;
		}
		if (s->moves == 0)
			report(r, s->g, &t->place, s->ply, NULL, 0, XQ_SEV_WARNING, XQ_D_SYNTAX,
			       "an empty variation");
		if ((rc = flush_pre(r, s)))
			break;
		r->nstack--;
		/* Back over the variation's own moves (its inner variations
		 * stepped back over theirs), then the move it replaced again:
		 * each move is stepped over a bounded number of times. */
		while (s->ply >= r->stack[r->nstack].ply) {
			s->ply--;
			xq_board_unmake(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply]);
			s->cur = s->g->nodes[s->cur].parent;
		}
		s->cur = r->stack[r->nstack].cur;
		s->ply = r->stack[r->nstack].ply;
		s->moves = r->stack[r->nstack].moves;
		s->after_number = 0;
		xq_board_make(&s->board, s->g->nodes[s->cur].move, &r->path[s->ply - 1]);
		break;
	case T_NAG:
		s->movetext = 1;
		if (t->num > 255 || s->moves == 0)
			report(r, s->g, &t->place, s->ply, tok_text(r, t->start),
			       (size_t)(t->end - t->start), XQ_SEV_WARNING, XQ_D_SYNTAX,
			       t->num > 255 ? "NAG out of range (0-255) ignored"
					    : "a NAG before any move is ignored");
		else if (xq_game_add_nag(s->g, s->cur, (uint8_t)t->num))
			rc = oom(r, s);
		break;
	case T_NUMBER:
		s->movetext = 1;
		s->after_number = 1;
		break;
	case T_WORD:
		s->movetext = 1;
		rc = handle_word(r, s, t, done);
		break;
	case T_UNTERMINATED:
		fail(r, s, &t->place, s->ply, NULL, 0, XQ_D_SYNTAX,
		     "'{' opens a comment that is not closed%s",
		     r->raw_eof ? "" : " within 1 MiB");
		break;
	case T_STRAY:
		fail(r, s, &t->place, s->ply, tok_text(r, t->start), 1, XQ_D_SYNTAX,
		     "unexpected '%c'", *tok_text(r, t->start));
		break;
	case T_TOO_LONG:
		fail(r, s, &t->place, s->ply, NULL, 0, XQ_D_RESOURCE,
		     "a line or word longer than 1 MiB");
		break;
	}
	return rc;
}

static int movetext(struct pgn_reader *r, struct gstate *s)
{
	for (uint64_t was = tok_progress(r);; XQ_ADVANCED(was, tok_progress(r))) {
		const struct tok *t = next_tok(r);
		int done = 0, ended = 0, rc = 0;
		if (t->type != T_EOF && t->type != T_IO &&
		    t->place.offset - s->g->place.offset > r->max_game) {
			/* The game runs past its limit: nothing more is read. */
			struct xq_diag d;
			xq_diag_init(&d);
			xq_format_limit_diag(&d, &xq_format_pgn, &r->opts, "the game");
			fail(r, s, &t->place, s->ply, NULL, 0, XQ_D_RESOURCE,
			     "%s; the rest of the input is not read", d.msg);
			return XQ_ERANGE;
		}
		if (t->bad)
			fail_bad_byte(r, s, t);
		else
			rc = take_token(r, s, t, &ended, &done);
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
			struct xq_place end = t->place;
			if (flush_pre(r, s))
				return oom(r, s);
			after_result(r, s);
			finish(r, s, &end);
			return 0;
		}
	}
}

static int read_game(struct pgn_reader *r, struct xq_game *g)
{
	struct gstate s;
	const struct tok *t;

	xq_game_clear(g);
	r->post_node = XQ_NODE_NONE;
	xq_buf_reset(&r->post);
	t = next_tok(r);
	if (t->type == T_EOF)
		return 0;
	if (t->type == T_IO)
		return r->io_rc;
	push_back(r);
	r->game_start = t->start;
	r->game_line = t->place.line;
	memset(&s, 0, sizeof(s));
	s.g = g;
	s.board = g->start;
	s.cur = XQ_ROOT;
	s.dialect = XQ_NOTATION_AUTO;
	g->number = ++r->games;
	g->source = r->name;
	g->place = t->place;
	r->nstack = 0;
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
		enum xq_encoding enc =
			r->enc != XQ_ENC_UNKNOWN && r->first_high < end ? r->enc : XQ_ENC_UTF8;
		/* Lines in another encoding: the first one is reported, and the
		 * game is said to be in that encoding.  The line of the next
		 * game's first token is that game's (a BOM before its tag). */
		uint64_t upto = r->pushed && r->line_start <= end ? r->line_start : end;
		take_foreign(r, upto);
		for (int kind = XQ_TEXTDEC_FOREIGN; kind <= XQ_TEXTDEC_AMBIGUOUS; kind += 2) {
			for (size_t i = 0; i < r->nforeign && r->foreign[i].dpos < upto; i++) {
				const struct foreign *f = &r->foreign[i];
				char msg[200];
				if ((int)f->kind != kind)
					continue;
				if (kind == XQ_TEXTDEC_FOREIGN) {
					xq_textdec_foreign_message(msg, sizeof(msg), f->enc, r->enc);
					enc = f->enc;
				} else {
					xq_textdec_ambiguous_message(msg, sizeof(msg), f->enc);
				}
				report(r, g, &f->place, 0, NULL, 0, XQ_SEV_WARNING, XQ_D_ENCODING, "%s",
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
		g->encoding = xq_encoding_name(enc);
	}
	return 1;
}

static int pgn_read(void *reader, struct xq_game *g)
{
	struct pgn_reader *r = reader;
	int rc = read_game(r, g);

	r->game_start = NO_POS;
	return xq_read_guard(&r->guard, rc, tok_progress(r), g, r->sink);
}

/* A reader at the start of an input; the caller sets where its bytes come from. */
static struct pgn_reader *new_reader(const struct xq_read_opts *opts, const struct xq_sink *sink)
{
	struct pgn_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->sink = sink;
	if (opts)
		r->opts = *opts;
	r->max_game = xq_format_record_limit(&xq_format_pgn, opts);
	r->first_high = UINT64_MAX;
	xq_buf_init(&r->raw);
	xq_buf_init(&r->dec);
	xq_buf_init(&r->scratch);
	xq_buf_init(&r->pre);
	xq_buf_init(&r->post);
	r->post_node = XQ_NODE_NONE;
	r->line = 1;
	r->cr_at = UINT64_MAX;
	r->game_start = r->skip_start = NO_POS;
	xq_diag_init(&r->md);
	r->enc = XQ_ENC_UNKNOWN;
	if (r->opts.encoding == XQ_ENC_UTF8) {
		r->enc = XQ_ENC_UTF8;
		r->first_high = 0;
	}
	if (xq_buf_grow(&r->raw, CHUNK)) {
		free(r);
		return NULL;
	}
	set_text(r);
	return r;
}

static int pgn_open_reader(void **out, struct xq_input *in, const struct xq_read_opts *opts,
			   const struct xq_sink *sink)
{
	struct pgn_reader *r = new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->in = in;
	r->name = xq_input_name(in);
	*out = r;
	return 0;
}

static void pgn_close_reader(void *reader)
{
	struct pgn_reader *r = reader;

	if (!r)
		return;
	if (r->td_live)
		xq_textdec_release(&r->td);
	shadow_free(r->shadow);
	xq_buf_release(&r->raw);
	xq_buf_release(&r->dec);
	xq_buf_release(&r->scratch);
	xq_buf_release(&r->pre);
	xq_buf_release(&r->post);
	free(r->stack);
	free(r->path);
	free(r);
}

/* ---- reading chunks, and splitting an input into them ------------------------ */

/*
 * A chunk reader is the reader above started at a split point: its
 * cursors (position, line, column 1, game count) are what the sequential
 * reader has there, and the encoding is the input's, found by the splitter
 * from the bytes at the input's start (a chunk may hold only ASCII, or
 * start in the middle of Chinese text).  Its bytes come from the caller.
 */
static int pgn_open_chunk(void **out, const struct xq_chunk *c, const struct xq_read_opts *opts,
			  const struct xq_sink *sink)
{
	struct pgn_reader *r = new_reader(opts, sink);

	if (!r)
		return XQ_ENOMEM;
	r->src = c->bytes;
	r->name = c->name;
	r->pos = r->base = r->col_pos = r->map_d = r->line_start = c->offset;
	r->raw_base = r->map_r = c->offset;
	r->line = c->line;
	r->games = c->records;
	if (c->offset > 0) {
		/* A byte order mark is looked for at the input's start only. */
		r->bom_checked = 1;
		if (r->opts.encoding != XQ_ENC_UNKNOWN && r->opts.encoding != XQ_ENC_UTF8) {
			if (start_conversion(r, r->opts.encoding)) {
				pgn_close_reader(r);
				return XQ_EUNSUPPORTED;
			}
			r->first_high = 0;
		} else if (r->opts.encoding == XQ_ENC_UNKNOWN && c->encoding != XQ_ENC_UNKNOWN &&
			   c->first_high < c->offset) {
			/* Past the first byte that is not ASCII: the encoding is set. */
			r->first_high = c->first_high;
			if (c->encoding == XQ_ENC_UTF8)
				r->enc = XQ_ENC_UTF8;
			else if (start_conversion(r, c->encoding)) {
				pgn_close_reader(r);
				return XQ_EUNSUPPORTED;
			}
		}
	}
	/* Met later in the chunk, the first byte that is not ASCII gets the
	 * encoding the splitter found there, not one guessed from the chunk. */
	if (r->enc == XQ_ENC_UNKNOWN)
		r->given = c->encoding;
	*out = r;
	return 0;
}

static int pgn_chunk_next(void *reader, struct xq_place *next)
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
struct pgn_split {
	struct pgn_reader *r;
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

static void no_report(const struct xq_diag *d, void *payload)
{
	(void)d;
	(void)payload;
}

static const struct xq_sink silent = {no_report, NULL};

static int pgn_split_open(void **out, const struct xq_bytes *src, const struct xq_read_opts *opts)
{
	struct pgn_split *s = calloc(1, sizeof(*s));

	if (!s || !(s->r = new_reader(opts, &silent)) ||
	    !(s->r->shadow = calloc(1, sizeof(*s->r->shadow)))) {
		if (s && s->r)
			pgn_close_reader(s->r);
		free(s);
		return XQ_ENOMEM;
	}
	xq_buf_init(&s->r->shadow->tmp);
	xq_buf_init(&s->word);
	s->r->src = *src;
	s->r->name = "";
	*out = s;
	return 0;
}

static void pgn_split_close(void *sp)
{
	struct pgn_split *s = sp;

	if (!s)
		return;
	pgn_close_reader(s->r);
	xq_buf_release(&s->word);
	free(s->stack);
	free(s);
}

/* Is tag line `t`, read before any move text, the next game's?  As new_header(). */
static int split_new_header(struct pgn_split *s, const struct tok *t)
{
	if (s->ntags == 0)
		return 0;
	if (t->place.line > s->last_tag_line + 1)
		return 1;
	return t->body_end - t->body == 4 && !memcmp(tok_text(s->r, t->body), "Game", 4) &&
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
	const char *w = tok_text(r, t->start);
	size_t len = (size_t)(t->end - t->start), chars = 0, bad;
	int high = 0;
	uint64_t a, b;

	*n = len;
	if (!r->conv || !r->shadow || (!always && len > 9 && len <= 60))
		return w; /* more than 3 characters (none is more than 3 bytes) */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)w[i];
		chars += (c & 0xC0) != 0x80;
		high |= c >= 0x80;
	}
	if (!high || (!always && chars > 3 && len <= 60))
		return w;
	a = offset_of(r, t->start);
	b = offset_peek(r, t->end);
	xq_buf_reset(&s->word);
	if (b == UINT64_MAX ||
	    xq_transcoder_convert(&r->shadow->tc, r->raw.ptr + (a - r->raw_base), (size_t)(b - a),
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
	enum xq_result res;
	int std;
	char marks[8];

	if (result_of(w, n, &res, &std)) {
		if (s->nstack > 0)
			s->broken = 1;
		else
			s->result = 1;
		return;
	}
	if (is_ellipsis(w, n) || nag_of(w, n) || ((w[0] == '+' || w[0] == '#') && only_of(w, n, "+#")))
		return;
	if (s->ntags == 0 && s->total == 0 && !s->start_given && count_slashes(w, n) == 9) {
		r->pos = fen_line_end(r, t);
		s->start_given = 1;
		return;
	}
	if (n > WORD_MAX || split_marks(w, n, marks) == 0) {
		s->broken = 1;
		return;
	}
	s->moves++;
	s->total++;
}

/* Scan one game, as pgn_read() and movetext() read it. */
static int split_game_tokens(struct pgn_split *s)
{
	struct pgn_reader *r = s->r;

	s->ntags = 0;
	s->game_tag = s->movetext = s->start_given = s->broken = s->result = 0;
	s->last_tag_line = s->total = s->moves = 0;
	s->nstack = 0;
	for (uint64_t was = tok_progress(r);; XQ_ADVANCED(was, tok_progress(r))) {
		const struct tok *t = next_tok(r);
		if (t->bad) {
			s->broken = 1;
		} else {
			switch (t->type) {
			case T_EOF:
			case T_IO:
				return 0;
			case T_TAG:
				if (s->movetext || split_new_header(s, t)) {
					push_back(r);
					return 0;
				}
				if (t->tag_flags & TAG_NO_NAME) {
					s->broken = 1;
				} else {
					const char *name = tok_text(r, t->body);
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
			if (skip_broken(r, (long)s->nstack, s->movetext, &e))
				skip_after_result(r, &e);
			return 0;
		}
		if (s->result) {
			struct game_end e = split_end(s);
			skip_after_result(r, &e);
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
static int split_point(struct pgn_split *s, const struct tok *t, struct xq_split_point *pt)
{
	struct pgn_reader *r = s->r;
	uint64_t p = t->end, start = offset_of(r, t->start), seen;

	if (t->bad || t->place.col != 1 || (t->type != T_NUMBER && t->type != T_TAG) ||
	    (t->type == T_TAG && t->tag_flags))
		return 0;
	for (;;) {
		unsigned char c;
		if (p - t->start > 4096 || !have(r, p, t->start))
			return 0;
		c = AT(r, p);
		if (c == '\n' || c == '\r')
			break;
		p++;
	}
	seen = offset_peek(r, p);
	if (seen == UINT64_MAX)
		return 0;
	pt->offset = start;
	pt->line = t->place.line;
	pt->seen = seen + 1;
	pt->encoding = r->enc;
	pt->first_high = r->first_high;
	return 1;
}

static int pgn_split_next(void *sp, struct xq_split_point *pt)
{
	struct pgn_split *s = sp;
	struct pgn_reader *r = s->r;

	/* Every round scans a game start past the last one. */
	for (uint64_t was = r->pos;; XQ_ADVANCED(was, r->pos)) {
		const struct tok *t;
		int is_point, rc;
		if (s->pending) {
			s->pending = 0;
			if ((rc = split_game(s)))
				return rc;
		}
		t = next_tok(r);
		if (t->type == T_IO)
			return r->io_rc;
		if (r->enc == XQ_ENC_UTF16LE || r->enc == XQ_ENC_UTF16BE)
			return XQ_EUNSUPPORTED; /* chunks could not start mid-file */
		if (t->type == T_EOF)
			return 0;
		is_point = split_point(s, t, pt);
		if (r->io_rc)
			return r->io_rc;
		push_back(r);
		s->pending = 1;
		if (is_point) {
			pt->records = s->games++;
			return 1;
		}
		s->games++;
	}
}

const struct xq_split_ops xq_pgn_split = {
	pgn_split_open,
	pgn_split_next,
	pgn_split_close,
	pgn_open_chunk,
	pgn_chunk_next,
};

/* ---- probe -------------------------------------------------------------- */

static int starts_with(const unsigned char *h, size_t len, size_t i, const char *s)
{
	size_t n = strlen(s);

	return i + n <= len && !memcmp(h + i, s, n);
}

static int contains(const unsigned char *h, size_t len, const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i + n <= len; i++)
		if (h[i] == (unsigned char)s[0] && !memcmp(h + i, s, n))
			return 1;
	return 0;
}

/*
 * PGN by content: the first thing in the text is a tag line
 * `[Name "value"]`, a comment, a move number or a move (or, for bare move
 * lists, a FEN line).  `[Game "Chinese Chess"]` and `[Variant "xiangqi"]`
 * make it certain.
 */
static int pgn_probe(const unsigned char *h, size_t len)
{
	size_t i = 0, j;

	if (len >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF)
		i = 3;
	if (memchr(h, 0, len))
		return 0;
	while (i < len && xq_is_space(h[i]))
		i++;
	if (i >= len)
		return 0;
	if (h[i] == '[') {
		j = i + 1;
		while (j < len && (xq_is_alpha(h[j]) || xq_is_digit(h[j]) || h[j] == '_' || h[j] >= 0x80))
			j++;
		if (j == i + 1)
			return 0;
		while (j < len && (h[j] == ' ' || h[j] == '\t'))
			j++;
		if (j >= len || h[j] != '"')
			return 0; /* [DhtmlXQ], [DhtmlXQ_title]... */
		if (contains(h, len, "[Game \"Chinese Chess\"]"))
			return 100;
		if (contains(h, len, "[Variant \"xiangqi\"]") || contains(h, len, "[Variant \"Xiangqi\"]"))
			return 95;
		return 60;
	}
	if (h[i] == '{' || h[i] == ';')
		return 40;
	if (xq_is_digit(h[i])) {
		j = i;
		while (j < len && xq_is_digit(h[j]))
			j++;
		if (j < len && h[j] == '.')
			return 50;
	}
	/* The first word: a move, or a FEN line before a bare move list. */
	j = i;
	while (j < len && !xq_is_space(h[j]) && j - i < 100)
		j++;
	if (count_slashes((const char *)h + i, j - i) == 9 && !starts_with(h, len, i, "<"))
		return 30;
	if (looks_like_move((const char *)h + i, j - i))
		return 30;
	return 0;
}

/* ---- the writer ---------------------------------------------------------- */

struct pgn_writer {
	struct xq_output *o;
	const struct xq_sink *sink;
	enum xq_notation notation;
	unsigned nflags;
	enum xq_encoding enc;
	struct xq_transcoder tc; /* UTF-8 to enc, opened once for the writer */
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

	if (w->col > 0 && w->col + (joined ? 0 : 1) + first > XQ_PGN_WIDTH) {
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
static int put_comment(struct pgn_writer *w, const struct xq_game *g, uint32_t ply,
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
		xq_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEV_WARNING, XQ_D_LOSS,
			"a comment of only white space is left out (PGN readers drop it)");
		return 0;
	}
	if (from > 0 || to < n)
		xq_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEV_WARNING, XQ_D_LOSS,
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
		xq_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS,
			"a '}' inside a comment is written as U+FF5D '\xEF\xBD\x9D'");
	if (cr)
		xq_write_report(w->sink, w->o, g->number, ply, 0, XQ_SEV_WARNING, XQ_D_LOSS,
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

static int put_tag(struct pgn_writer *w, const struct xq_game *g, const char *name,
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
		xq_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS,
			"line breaks and control characters in tag %s are written as spaces", name);
	return xq_buf_adds(&w->text, "\"]\n") ? XQ_ENOMEM : 0;
}

static const char *format_value(enum xq_notation n)
{
	return n == XQ_NOTATION_ICCS ? "ICCS" : n == XQ_NOTATION_WXF ? "WXF" : "Chinese";
}

static int write_tags(struct pgn_writer *w, const struct xq_game *g)
{
	char fen[XQ_FEN_MAX];
	const char *start;
	int have_fen = 0, have_format = 0, rc;

	xq_board_to_fen(&g->start, fen, sizeof(fen));
	/* `start` is authoritative (game.h), unless the source's could not be
	 * read: then its text as written. */
	xq_write_start_check(w->sink, w->o, g, "PGN", 1);
	start = g->start_text ? g->start_text : fen;
	if ((rc = put_tag(w, g, "Game", "Chinese Chess")))
		return rc;
	for (size_t i = 0; i < g->ntags; i++) {
		const char *name = g->tags[i].name, *value = g->tags[i].value;
		if (!strcmp(name, "Game")) {
			if (strcmp(value, "Chinese Chess"))
				xq_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS,
					"the Game tag '%s' is written as 'Chinese Chess'", value);
			continue;
		}
		if (!tag_name_ok(name)) {
			xq_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS,
				"tag '%s' has a name PGN cannot hold; it is left out", name);
			continue;
		}
		if (!strcmp(name, "FEN")) {
			value = start;
			have_fen = 1;
		} else if (!strcmp(name, "Format")) {
			value = format_value(w->notation);
			have_format = 1;
		}
		if ((rc = put_tag(w, g, name, value)))
			return rc;
	}
	if (!have_fen && strcmp(start, XQ_START_FEN) && (rc = put_tag(w, g, "FEN", start)))
		return rc;
	if (!have_format && w->notation != XQ_NOTATION_CHINESE &&
	    (rc = put_tag(w, g, "Format", format_value(w->notation))))
		return rc;
	return 0;
}

/* Move `n` of `g`, at ply `ply`, played from `before`. */
static int write_move(struct pgn_writer *w, const struct xq_game *g, uint32_t n, uint32_t ply,
		      struct xq_board *before, int *need_number)
{
	const struct xq_node *node = &g->nodes[n];
	char num[32], mv[XQ_MOVE_TEXT_MAX], unit[32 + XQ_MOVE_TEXT_MAX + 2];
	size_t ml;
	int black = before->side == XQ_BLACK, rc;

	num[0] = '\0';
	if (!black || *need_number || comment_kept(node->pre_comment))
		snprintf(num, sizeof(num), black ? "%u..." : "%u.", (unsigned)before->fullmove);
	ml = xq_notation_write(mv, sizeof(mv), before, node->move, w->notation, w->nflags);
	if (ml == 0) {
		char name[5];
		xq_move_name(node->move, name);
		return xq_write_report(w->sink, w->o, g->number, ply, XQ_EINTERNAL, XQ_SEV_ERROR, XQ_D_INTERNAL,
			       "move %s cannot be written in %s notation", name,
			       xq_notation_name(w->notation));
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

static int write_moves(struct pgn_writer *w, const struct xq_game *g)
{
	struct xq_textwalk t;
	int need_number = 1, rc, step;
	const char *res;

	w->col = 0;
	w->glue = 0;
	w->last_sep = SIZE_MAX;
	w->last_multi = 0;
	if (g->nodes[XQ_ROOT].pre_comment && *g->nodes[XQ_ROOT].pre_comment) {
		/* PGN has one place for a comment before the moves. */
		xq_write_report(w->sink, w->o, g->number, 0, 0, XQ_SEV_WARNING, XQ_D_LOSS,
			"the comment before the game is written as part of the game comment");
		if ((rc = put_comment(w, g, 0, NULL, g->nodes[XQ_ROOT].pre_comment)))
			return rc;
	}
	if (g->nodes[XQ_ROOT].comment && *g->nodes[XQ_ROOT].comment &&
	    (rc = put_comment(w, g, 0, NULL, g->nodes[XQ_ROOT].comment)))
		return rc;
	if ((rc = xq_textwalk_init(&t, g)))
		return rc;
	while ((step = xq_textwalk_next(&t)) > 0) {
		if (step == XQ_TEXT_MOVE)
			rc = write_move(w, g, t.node, t.ply, &t.before, &need_number);
		else
			rc = step == XQ_TEXT_OPEN ? put_unit(w, "(", 1, U_OPEN) : put_unit(w, ")", 1, U_CLOSE);
		if (rc)
			break;
		if (step != XQ_TEXT_MOVE)
			need_number = 1;
	}
	xq_textwalk_release(&t);
	if (rc || step < 0)
		return rc ? rc : step;
	if (g->result != XQ_RESULT_NONE) {
		res = xq_result_string(g->result);
		if ((rc = put_unit(w, res, strlen(res), U_WORD)))
			return rc;
	}
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

static int pgn_write(void *writer, const struct xq_game *g)
{
	struct pgn_writer *w = writer;
	const char *out;
	size_t len;
	int rc;

	xq_buf_reset(&w->text);
	if (w->games > 0 && xq_buf_addc(&w->text, '\n'))
		return XQ_ENOMEM;
	if ((rc = write_tags(w, g)) || (rc = xq_buf_addc(&w->text, '\n')) ||
	    (rc = write_moves(w, g)))
		return rc;
	out = w->text.ptr;
	len = w->text.len;
	if (w->enc != XQ_ENC_UTF8) {
		size_t bad = 0;
		xq_buf_reset(&w->conv);
		rc = xq_transcoder_convert(&w->tc, w->text.ptr, w->text.len, &w->conv, &bad);
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
			rc = xq_write_text(w->sink, w->o, g->number, 0, &w->tc, what, w->text.ptr,
					   w->text.len, &w->conv, NULL);
		}
		if (rc)
			return rc;
		out = w->conv.ptr;
		len = w->conv.len;
	}
	rc = xq_output_write(w->o, out, len);
	if (rc)
		return xq_write_report(w->sink, w->o, g->number, 0, rc, XQ_SEV_ERROR, XQ_D_IO, "cannot write to '%s'",
			       xq_output_name(w->o));
	w->games++;
	return 0;
}

static int pgn_open_writer(void **out, struct xq_output *o, const struct xq_write_opts *opts,
			   const struct xq_sink *sink)
{
	struct xq_write_opts def = XQ_WRITE_OPTS_INIT;
	struct pgn_writer *w;
	enum xq_notation n;

	if (!opts)
		opts = &def;
	n = opts->notation == XQ_NOTATION_AUTO ? XQ_NOTATION_CHINESE : (enum xq_notation)opts->notation;
	if (n != XQ_NOTATION_CHINESE && n != XQ_NOTATION_ICCS && n != XQ_NOTATION_WXF)
		return xq_write_report(sink, o, 0, 0, XQ_EUNSUPPORTED, XQ_SEV_ERROR,
				       XQ_D_UNSUPPORTED,
				       "PGN move text is written in chinese, iccs or wxf notation, not %s",
				       xq_notation_name(n));
	switch (opts->encoding) {
	case XQ_ENC_UNKNOWN:
	case XQ_ENC_UTF8:
	case XQ_ENC_GBK:
	case XQ_ENC_GB18030:
	case XQ_ENC_BIG5:
		break;
	default:
		return xq_write_report(sink, o, 0, 0, XQ_EUNSUPPORTED, XQ_SEV_ERROR,
				       XQ_D_UNSUPPORTED,
				       "PGN is written in utf-8, gbk, gb18030 or big5, not %s",
				       xq_encoding_name(opts->encoding));
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return XQ_ENOMEM;
	w->o = o;
	w->sink = sink;
	w->notation = n;
	w->nflags = opts->notation_flags;
	w->enc = opts->encoding == XQ_ENC_UNKNOWN ? XQ_ENC_UTF8 : opts->encoding;
	/* Big5 has no simplified 车 马 帅: Chinese moves go out in traditional characters. */
	if (w->enc == XQ_ENC_BIG5 && n == XQ_NOTATION_CHINESE)
		w->nflags |= XQ_NOTATION_TRADITIONAL;
	xq_transcoder_init(&w->tc, XQ_ENC_UTF8, w->enc);
	xq_buf_init(&w->text);
	xq_buf_init(&w->conv);
	*out = w;
	return 0;
}

static int pgn_close_writer(void *writer)
{
	struct pgn_writer *w = writer;

	if (!w)
		return 0;
	xq_transcoder_release(&w->tc);
	xq_buf_release(&w->text);
	xq_buf_release(&w->conv);
	free(w);
	return 0;
}

const struct xq_format xq_format_pgn = {
	.name = "pgn",
	.description = "Portable Game Notation, xqbase and XBoard xiangqi dialects",
	.extensions = ".pgn .pgn_zh .pgn_iccs .pgn_cc .fen",
	.caps = XQ_CAP_READ | XQ_CAP_WRITE | XQ_CAP_MULTI | XQ_CAP_VARIATIONS | XQ_CAP_COMMENTS |
		XQ_CAP_NAGS | XQ_CAP_ANY_TAGS | XQ_CAP_PRE_COMMENTS,
	.probe = pgn_probe,
	.open_reader = pgn_open_reader,
	.read = pgn_read,
	.close_reader = pgn_close_reader,
	.open_writer = pgn_open_writer,
	.write = pgn_write,
	.close_writer = pgn_close_writer,
	.max_record = PGN_MAX_RECORD,
	.mem_factor = PGN_MEM_FACTOR,
};
