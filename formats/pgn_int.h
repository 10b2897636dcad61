/*
 * pgn_int.h: what the parts of the PGN format share, private to them
 * (the public side is pgn.h).  The format is split along its layers:
 *   pgn_window.c the window over the input and the shadow decoder;
 *   pgn_lex.c    the lexer;
 *   pgn_read.c   the parser: tokens into a game, the reader's entry points;
 *   pgn_words.c  the words of move text and the ends of games, as the parser
 *                and the splitter both read them;
 *   pgn_split.c  chunk readers and the splitter that cuts an input for -j;
 *   pgn_quick.c  the splitter's quick scan of bytes, in front of its token scan;
 *   pgn_write.c  the writer;
 *   pgn.c        the probe and the format's entry in the registry.
 * See pgn.c for how the reader's layers fit together.
 */
#ifndef XQI_FORMATS_PGN_INT_H
#define XQI_FORMATS_PGN_INT_H

#include "pgn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "position.h"
#include "buf.h"
#include "check.h"
#include "decode.h"
#include "diagnostic.h"
#include "flattree.h"
#include "record.h"
#include "io.h"
#include "movegen.h"
#include "notation.h"
#include "text.h"
#include "utf8.h"

#define CHUNK XQI_READ_SIZE
#define SAMPLE 65536   /* bytes looked at to tell GB18030 from Big5 */
#define WORD_MAX 96    /* longer words are not moves */
/*
 * The longest game read: 4 MiB of text, from its first tag to its last
 * token (--max-game-size sets another).  The largest real game known in
 * PGN (the corpus's, a commented game of the 21st Wuyang Cup) is 34,763
 * bytes; an opening tree as large as the largest DhtmlXQ record known
 * (106,998 moves) would be about 1 MB.  Reading keeps the game and a line
 * or word at most (XQI_PGN_TOKEN_MAX): at most PGN_MEM_FACTOR bytes per
 * byte of its text (the densest text is one short move after another).
 * A game over the limit is returned broken with what came before the
 * limit; the rest of it is skipped (as text that holds no game,
 * XQI_SKIP_MAX) and reading goes on with the next game.
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
	T_UNTERMINATED, /* '{' with no '}' within XQI_PGN_TOKEN_MAX bytes */
	T_STRAY,        /* '}' or ']' out of place */
	T_TOO_LONG,     /* a word or tag line longer than XQI_PGN_TOKEN_MAX */
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
	struct xqi_place place;
	int bad;                    /* an undecodable byte inside */
	struct xqi_place bad_place;
	unsigned bad_byte;
	enum xqi_encoding bad_enc;   /* the encoding of the line holding it */
	unsigned tag_flags;
	unsigned long num;          /* NUMBER and NAG */
};

/*
 * A variation cut at a move that could not be read (the parser's
 * bad_move()): from that move to the variation's ')' the text is skipped
 * and its moves counted (the variations inside it too), and `d`, the
 * error, is reported when the variation ends, with what was cut.
 */
struct pgn_cut {
	int on;
	long nest;       /* variations opened inside the cut one, still open */
	uint32_t moves;  /* moves skipped, the bad one included */
	int closed;      /* the variation just closed was cut (no "empty variation") */
	struct xq_diagnostic d;
};

struct frame {
	uint32_t cur, ply, moves;
	int after_cut; /* an alternative to a move its variation was cut at: at its ')'
			  the cut goes on (pgn_reader.saved) */
};

/*
 * The splitter's stand-in for the decoder.  It lexes the text only to
 * find where games end, which depends on the ASCII characters, on where
 * the other characters are and which bytes are not text, never on what
 * the other characters are (but for a few words, decoded when it needs
 * them).  So instead of converting legacy text with iconv, it writes one
 * placeholder character for each character of the source (the real one
 * for the spaces the lexer knows), and XQI_DECODE_BAD for each byte that is
 * not text, exactly where the decoder would: which byte pairs are text is
 * asked of iconv once per pair met.
 */
#define SHADOW_CHAR "\xE4\xB8\x80" /* 一: a CJK character, three UTF-8 bytes */

struct shadow {
	struct xqi_transcoder tc;     /* the encoding to UTF-8: the truth, when asked */
	unsigned char pairs[126][256]; /* lead 0x81-0xFE, then byte: 0 not asked yet, else
					* PAIR_TEXT, PAIR_BAD or PAIR_SPACE + which space */
	unsigned char single[2];     /* the same for 0x80 and 0xFF alone */
	unsigned char spaces[3][4];  /* U+3000, U+00A0, U+FEFF in the encoding */
	size_t space_len[3];
	struct xq_buf tmp;
	int placeholders;            /* in use (GB18030, GBK, Big5); else the text is real */
};

enum { PAIR_TEXT = 1, PAIR_BAD = 2, PAIR_SPACE = 3 };

static const char *const shadow_spaces[3] = {"\xE3\x80\x80", "\xC2\xA0", "\xEF\xBB\xBF"};

struct pgn_reader {
	struct xqi_input *in;      /* the input, or NULL when `src` gives the bytes */
	struct xqi_bytes src;
	const struct xqi_sink *sink;
	const struct xqi_format *fmt; /* the registry entry (xqi_format_pgn): its limit */
	struct xqi_read_opts opts;
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
	enum xqi_encoding enc; /* XQI_ENC_UNKNOWN while everything was ASCII */
	enum xqi_encoding given; /* the input's encoding, found by a splitter (chunks) */
	uint64_t first_high;  /* position of the first byte that is not ASCII, once met
			       * (0 when the encoding was given or marked from the start) */
	struct xqi_textdec td;   /* the decoder (decode.h), once the encoding is known */
	int td_live;
	struct shadow *shadow;  /* the splitter's reader: placeholders instead of iconv */
	uint64_t line_start;    /* position where the current line starts */
	/* Lines read in another encoding (decode.h) met by the lexer, with
	 * their places, until the game holding them is done. */
	struct foreign {
		uint64_t dpos;
		struct xqi_place place;
		enum xqi_encoding enc;
		enum xqi_textdec_kind kind; /* FOREIGN or AMBIGUOUS */
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
	struct xq_diagnostic md; /* for move errors: cleared after each use */
	/* Limits (format.h): where the game being read started, and where the
	 * text being skipped (after an error or a result) started; NO_POS when
	 * none. */
	uint64_t game_start, skip_start;
	uint32_t game_line, skip_line;
	struct xqi_read_guard guard;
	/* Per game. */
	struct xq_buf scratch, pre;
	struct xq_buf fixed[2]; /* tags' and comments' text with U+FFFD (xqi_pgn_tok_fixed()) */
	struct xq_buf post;  /* comments after node post_node, not yet in the game */
	uint32_t post_node;
	struct frame *stack;
	size_t nstack, stack_cap;
	struct pgn_cut *saved;  /* the cuts waiting for an alternative to their move to end */
	size_t nsaved, saved_cap;
	/* The undo of each move from the root to the current node (path[k] for
	 * ply k + 1): '(' and ')' step the board back and forth along it
	 * instead of replaying the line from the start at every variation. */
	struct xqi_undo *path;
	size_t path_cap;
	uint64_t games;
};

#define AT(r, p) ((unsigned char)(r)->text[(p) - (r)->base])
#define END(r) ((r)->base + (r)->tlen)
#define NO_POS UINT64_MAX

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

/* pgn_window.c: the window and the shadow decoder */
size_t xqi_pgn_count_chars(const char *s, size_t n);
/* The column cursor moved on to position `p` (at or after it), counting
 * the characters on the way. */
static inline void xqi_pgn_advance_col(struct pgn_reader *r, uint64_t p)
{
	if (p > r->col_pos) {
		r->col_val += (uint64_t)xqi_pgn_count_chars(r->text + (r->col_pos - r->base),
						    (size_t)(p - r->col_pos));
		r->col_pos = p;
	}
}
void xqi_pgn_report_io(struct pgn_reader *r, struct xq_diagnostic *d);
int xqi_pgn_have(struct pgn_reader *r, uint64_t p, uint64_t keep);
int xqi_pgn_start_conversion(struct pgn_reader *r, enum xqi_encoding enc);
uint64_t xqi_pgn_offset_of(struct pgn_reader *r, uint64_t p);
uint64_t xqi_pgn_offset_peek(const struct pgn_reader *r, uint64_t p);
void xqi_pgn_set_text(struct pgn_reader *r);
void xqi_pgn_shadow_free(struct shadow *sh);
void xqi_pgn_take_foreign(struct pgn_reader *r, uint64_t upto);
/* Where the encoding is decided, the same way by every reader and by the
 * splitter: the start of the line (or long line's piece) holding byte k of
 * buf, stepping whole units from `from` (a unit's start); and the encoding
 * found in the SAMPLE bytes from there (`avail` of them, fewer only at the
 * input's end). */
size_t xqi_pgn_unit_start(const char *buf, size_t from, size_t k);
enum xqi_encoding xqi_pgn_detect_sample(const char *s, size_t avail);

/* pgn_lex.c: the lexer */
const char *xqi_pgn_tok_text(const struct pgn_reader *r, uint64_t from);
/*
 * The text [from, to) of token `t` (a tag or a comment), and when it holds
 * bytes that are not text (t->bad) that text with each of them replaced by
 * U+FFFD (decode.h), in the reader's buffer `k` (0 or 1: valid until that
 * buffer is asked for again), how many added to *count: the field keeps
 * the rest of its text.  Its length in *n; NULL when out of memory.
 */
const char *xqi_pgn_tok_fixed(struct pgn_reader *r, const struct tok *t, uint64_t from, uint64_t to,
			     int k, size_t *n, long *count);
/* The warning that `count` bytes of `what` (a field of token `t`, of game
 * `game` at ply `ply`) were replaced so: at the first of them.  None when 0. */
void xqi_pgn_warn_fixed(struct pgn_reader *r, const struct tok *t, uint64_t game, uint32_t ply,
		       const char *what, long count);
const struct tok *xqi_pgn_next_tok(struct pgn_reader *r);
uint64_t xqi_pgn_tok_progress(const struct pgn_reader *r);
/* Does token `t`, of the game being read (r->game_start), take the game
 * past its limit (r->max_game)?  Asked of each of its tokens by the reader
 * and the splitter alike, but of the next game's first tag line. */
static inline int xqi_pgn_over_game(const struct pgn_reader *r, const struct tok *t)
{
	return r->game_start != NO_POS && t->type != T_EOF && t->type != T_IO &&
	       t->end - r->game_start > r->max_game;
}
void xqi_pgn_push_back(struct pgn_reader *r);

/* pgn_reader.c: how the parser reports.  xqi_pgn_place_diag() points `d` at
 * game `g`, place `pl` (NULL: none), ply `ply` and move text `move`
 * (`mlen` bytes); xqi_pgn_emit() does so and sends it to the reader's
 * sink; xqi_pgn_report() says a printf message so. */
void xqi_pgn_place_diag(struct pgn_reader *r, const struct xqi_record *g, struct xq_diagnostic *d,
		       const struct xqi_place *pl, uint32_t ply, const char *move, size_t mlen);
void xqi_pgn_emit(struct pgn_reader *r, const struct xqi_record *g, struct xq_diagnostic *d,
		 const struct xqi_place *pl, uint32_t ply, const char *move, size_t mlen);
void xqi_pgn_report(struct pgn_reader *r, const struct xqi_record *g, const struct xqi_place *pl,
		   uint32_t ply, const char *move, size_t mlen, enum xq_severity_level sev,
		   enum xqi_diagnostic_code code, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 9, 10)))
#endif
	;

/* pgn_read.c (read) and pgn_reader.c (the rest): the reader */
/* The reader is opened with `fmt`, its registry entry (xqi_format_pgn, which
 * pgn.c hands it and pgn_split.c names), whose limit it reads within. */
int xqi_pgn_open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink, const struct xqi_format *fmt);
int xqi_pgn_read(void *reader, struct xqi_record *g);
struct pgn_reader *xqi_pgn_new_reader(const struct xqi_read_opts *opts, const struct xqi_sink *sink,
				     const struct xqi_format *fmt);
void xqi_pgn_close_reader(void *reader);

/* pgn_words.c: the words and game ends the parser and the splitter share */
int xqi_pgn_count_slashes(const char *w, size_t n);
int xqi_pgn_is_ellipsis(const char *w, size_t n);
int xqi_pgn_looks_like_move(const char *w, size_t n);
int xqi_pgn_nag_of(const char *w, size_t n);
int xqi_pgn_only_of(const char *w, size_t n, const char *set);
int xqi_pgn_result_of(const char *w, size_t n, enum xqi_result *res, int *standard);
/* The game's result marker, the word `t` (`std`: one of PGN's): a word
 * (红胜) is read with the side that moves first in `g` (先胜), kept as
 * written (result_text) and said in a note.  0, or XQ_ENOMEM. */
int xqi_pgn_take_result(struct pgn_reader *r, struct xqi_record *g, const struct tok *t, int std);
/* The Result tag `tag` (placed at `at`): a word in it (红胜, "Red wins")
 * is read as the result it says, with a note; the game's result when its
 * move text ended with none (!have_result). */
void xqi_pgn_read_result_tag(struct pgn_reader *r, struct xqi_record *g, const char *tag,
			    const struct xqi_place *at, int have_result);
int xqi_pgn_skip_broken(struct pgn_reader *r, long depth, int movetext, const struct game_end *e);
size_t xqi_pgn_split_marks(const char *w, size_t n, char marks[8]);
uint64_t xqi_pgn_fen_line_end(struct pgn_reader *r, const struct tok *t);
void xqi_pgn_skip_after_result(struct pgn_reader *r, const struct game_end *e);
/* A variation cut at the bad move `d` (placed) begins. */
void xqi_pgn_cut_begin(struct pgn_cut *c, const struct xq_diagnostic *d);
/* Token `t` inside the cut variation: 1 when it is skipped (a move
 * counted, a comment, a NAG, a variation inside it); 0 when it is to be
 * read as any other, the cut being over (said: xqi_pgn_cut_end()) at the
 * variation's ')' or because the game ends inside it. */
int xqi_pgn_cut_token(struct pgn_reader *r, struct xqi_record *g, struct pgn_cut *c,
		     const struct tok *t);
/* The cut is over (`partial`: the game ended inside the variation): its
 * error reported with what was cut, `g` marked XQI_RECORD_CUT. */
void xqi_pgn_cut_end(struct pgn_reader *r, struct xqi_record *g, struct pgn_cut *c, int partial);

/* pgn_quick.c: the splitter's quick scan */
struct pgn_quick;
#define PGN_QUICK_LEAVE 2 /* xqi_pgn_quick_next(): the token scan takes over */
struct pgn_quick *xqi_pgn_quick_new(const struct xqi_bytes *src, const struct xqi_read_opts *opts);
int xqi_pgn_quick_next(struct pgn_quick *q, struct xqi_split_point *pt);
uint64_t xqi_pgn_quick_resume(struct pgn_quick *q, struct xqi_split_point *from, int *have_from,
			     struct xqi_bytes *bytes, const uint64_t *keep);
int xqi_pgn_quick_tag_at(const struct pgn_quick *q, uint64_t offset);
void xqi_pgn_quick_restart(struct pgn_quick *q, const struct xqi_split_point *p, enum xqi_encoding enc,
			  uint64_t first_high);
void xqi_pgn_quick_free(struct pgn_quick *q);

/* pgn.c: the probe */
int xqi_pgn_probe(const unsigned char *h, size_t len);

/* pgn_write.c: the writer */
int xqi_pgn_close_writer(void *writer);
int xqi_pgn_open_writer(void **out, struct xq_file *o, const struct xqi_write_opts *opts,
		       const struct xqi_sink *sink);
int xqi_pgn_write(void *writer, const struct xqi_record *g);

#endif
