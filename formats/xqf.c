/*
 * xqf.c: XQF (XQStudio, 象棋演播室) records, read in every version up to
 * 0x12 and written as 0x0A (plain, the default) or 0x12 (encrypted with
 * all key bytes zero, so the output is reproducible).  The layout, the key
 * derivation and the traps real files hold are in
 * ../shared/docs/xqf-format.md; the section numbers below refer to it.
 *
 * Header fields and tags (both directions; strings are GB18030 on read,
 * GB18030 or the encoding asked for on write):
 *
 *   0x050 TitleA    (63 bytes; read up to 127, as vschess writes) -> Title
 *   0x090 TitleB    (63)  -> TitleB (unused by XQStudio; kept when present)
 *   0x0D0 MatchName (63)  -> Event
 *   0x110 MatchTime (15)  -> Date
 *   0x120 MatchAddr (15)  -> Site
 *   0x130 RedPlayer (15)  -> Red
 *   0x140 BlkPlayer (15)  -> Black
 *   0x150 TimeRule  (63)  -> TimeControl
 *   0x190 RedTime   (15)  -> RedTime
 *   0x1A0 BlkTime   (15)  -> BlackTime
 *   0x1D0 RMKWriter (15)  -> Annotator (讲评人, the commentator)
 *   0x1E0 Author    (15)  -> Author
 *   0x033 PlayResult      -> Result and game->result (0 *, 1 1-0, 2 0-1,
 *                            3 1/2-1/2; 4 is read as a draw, as cchess does)
 *   0x040 CodeA           -> GameType: 全局, 布局, 中局, 残局 (full game,
 *                            opening, middlegame, endgame; other codes as
 *                            their number)
 *   0x010 QiziXY          -> game->start (always, whatever the type says)
 *   0x032 WhoPlay         -> side to move, unless the first move says
 *                            otherwise (a note then)
 *
 * Empty strings give no tag.  The root record's comment is the game
 * comment (the root node's).  Comments lose one trailing CRLF and have
 * CRLF turned into LF on read; the writer does the reverse, as XQStudio's
 * Delphi text does.
 *
 * Damage.  The tree is read with an explicit stack, never recursion (files
 * reach 225,000 nodes), and every move is checked with xqi_move_check().
 * A move that is illegal, has no piece on its origin or names a square
 * off the board is reported with its byte offset, ply, path and reason;
 * its subtree is read but not kept, the rest of the tree goes on, and the
 * game is marked XQI_RECORD_BROKEN when the move is on the main line, else
 * XQI_RECORD_CUT (only that variation is cut; lib/flattree.h).  A record cut by the end of the file, or
 * a comment length that cannot be right, stops the reading there: the
 * tree read so far is kept and the diagnostic says how much was lost.
 * Bytes after the tree are a warning.  Nothing is ever read out of
 * bounds: every field is checked against the bytes left first.
 *
 * Start positions.  Composed problems put advisors and elephants on
 * points they could never reach; such a position is loaded with a note
 * (XQI_FEN_LENIENT_PLACEMENT).  The side to move is the first move's
 * (else the header's); a position possible only with the other side to
 * move (a diagram of a mate, the header saying the winner moves) gets
 * that side, with a note, and a first move of the wrong side is then an
 * illegal move like any other.  A
 * position that cannot occur at all (a king outside its palace, kings
 * facing each other on an open file, the side not to move in check, as
 * in diagrams with both kings attacked) is an error: no move can be
 * checked from it, so the game keeps its header, start position and game
 * comment, its tree is read through (to count and report) but not kept,
 * and it is marked XQI_RECORD_BROKEN for the caller to skip or keep.  Two
 * pieces on one point cannot even be set up: nothing is returned then.
 */
#include "xqf_int.h"

#include "format.h"

/*
 * The largest XQF record read: 4 MiB.  The format has no maximum of its
 * own (comment lengths are 32-bit); the largest real files known are the
 * opening libraries of about 1.1 MB and 225,000 nodes that
 * shared/docs/xqf-format.md mentions, and the corpus's largest is 276,775
 * bytes (61,375 nodes): the limit is 3.6 times the one, 15 times the other.
 * Reading takes at most XQF_MEM_FACTOR bytes of memory per byte (a 4-byte
 * record becomes a node of the game tree).
 */
#define XQF_MAX_RECORD ((uint64_t)4 << 20)
#define XQF_MEM_FACTOR 48

/* The reader is given this entry, which words its size limit. */
static int open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink)
{
	return xqi_xqf_open_reader(out, in, opts, sink, &xqi_format_xqf);
}

const struct xqi_format xqi_format_xqf = {
	"xqf",
	"XQStudio binary record (象棋演播室), one game per file; reads 0x0A-0x12, writes 0x0A or 0x12",
	".xqf",
	XQI_XQF_CAPS,
	xqi_xqf_probe,
	open_reader,
	xqi_xqf_read,
	xqi_xqf_close_reader,
	xqi_xqf_open_writer,
	xqi_xqf_write,
	xqi_xqf_close_writer,
	XQF_MAX_RECORD,
	XQF_MEM_FACTOR,
	NULL, /* no alias */
	NULL, /* no separator: one game per file */
	NULL, /* no number or line in a game's bytes */
};
