/*
 * pgn.c: the PGN reader and writer for xiangqi (see pgn.h).
 *
 * The reader is three layers over one window of text (pgn_window.c, the
 * lexer pgn_lex.c, the parser pgn_read.c).  The window holds
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
 * (never recursion), then whatever follows the result.  A move that
 * cannot be read inside a variation cuts that variation: the rest of it
 * is skipped, the error said with how many moves were cut, and the game
 * goes on whole otherwise (XQI_RECORD_CUT).  Any other error stops the game,
 * which is returned marked broken, and the parser skips to the next tag
 * line (or the next result in files without tags).
 *
 * The writer walks the tree with an explicit stack of lines and emits
 * units (a numbered move, a NAG, a comment, a parenthesis) into lines of a
 * fixed width, so the same game always gives the same bytes.
 */
#include "pgn_int.h"

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
int xqi_pgn_probe(const unsigned char *h, size_t len)
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
	if (xqi_pgn_count_slashes((const char *)h + i, j - i) == 9 && !starts_with(h, len, i, "<"))
		return 30;
	if (xqi_pgn_looks_like_move((const char *)h + i, j - i))
		return 30;
	return 0;
}

/* The reader is given this entry, which words its size limit. */
static int open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink)
{
	return xqi_pgn_open_reader(out, in, opts, sink, &xqi_format_pgn);
}

const struct xqi_format xqi_format_pgn = {
	.name = "pgn",
	.description = "Portable Game Notation, xqbase and XBoard xiangqi dialects",
	.extensions = ".pgn .pgn_zh .pgn_iccs .pgn_cc .fen",
	.caps = XQ_FORMAT_READS | XQ_FORMAT_WRITES | XQ_FORMAT_MULTI | XQ_FORMAT_VARIATIONS | XQ_FORMAT_COMMENTS |
		XQ_FORMAT_NAGS | XQ_FORMAT_ANY_TAGS | XQ_FORMAT_PRE_COMMENTS,
	.probe = xqi_pgn_probe,
	.open_reader = open_reader,
	.read = xqi_pgn_read,
	.close_reader = xqi_pgn_close_reader,
	.open_writer = xqi_pgn_open_writer,
	.write = xqi_pgn_write,
	.close_writer = xqi_pgn_close_writer,
	.max_record = PGN_MAX_RECORD,
	.mem_factor = PGN_MEM_FACTOR,
	.separator = "\n", /* a blank line between games */
};
