/*
 * dhtmlxq.c: DhtmlXQ, the UBB record format of dpxq.com (东萍象棋网), also
 * written by CCBridge and vschess: reader and writer.
 *
 * A record is a flat list of elements [DhtmlXQ_name]value[/DhtmlXQ_name],
 * usually wrapped in [DhtmlXQ]...[/DhtmlXQ] (or [DhtmlXQiFrame]), with or
 * without newlines, pasted into forum posts or hidden in HTML pages.  A
 * file may hold many records and any text around them; the reader finds
 * each record by its tags and reads it as one game.  Elements outside any
 * wrapper form a record too, which ends at text that is not an element, at
 * a wrapper, or where a second movelist or binit begins.  Once the text
 * around the records shows HTML markup (the records are in a page), values
 * have their character references decoded (&amp;, &#27704;, ...; <br> is
 * a newline); a plain UBB file keeps "&amp;" as written.  Records that are
 * URL-encoded (%5BDhtmlXQ...) are decoded first.  Whatever cannot be
 * interpreted is reported, not dropped in silence.  Text is UTF-8 or GBK (detected, or
 * given by the caller), decoded strictly.
 *
 * Squares are digit pairs "xy": x the file 0-8 from red's left, y the row
 * 0-9 from the top, so the move "7747" is h2e2 (ICCS rank = 9 - y).
 *
 *   binit     32 squares, pieces R N B A K A B N R C C P P P P P (red) then
 *             the same for black; "99" is a piece not on the board.  Only a
 *             slot's piece type matters (writers order tandem pieces
 *             differently).  [DhtmlXQ_fen] (vschess) takes precedence.
 *   movelist  the main line, four digits a move.
 *   move_P_S_B  the moves of branch B, whose first move is an alternative
 *             to ply S (counted from the start of the game) of branch P
 *             (0 = the main line).
 *   commentS / commentB_S  the comment after ply S of the main line or of
 *             branch B; comment0 is the game comment.  "||" is a newline;
 *             \uhhhh is a character (vschess).
 *   result    红胜 黑胜 和棋 未知 ... (xqi_result_word(), lib/record.h) or W L D
 *             (red's result), see xqi_dh_results (dhtmlxq_tables.c); read with a note.
 *
 * The side to move is not stored: like vschess, the reader takes the
 * colour of the piece the first move lifts (red when there is no move),
 * and says so in a note when an explicit FEN disagrees.
 *
 * Tags (element -> game tag): title Title, event Event, date Date, place
 * Site, round Round, red Red, black Black, redteam RedTeam, blackteam
 * BlackTeam, redtime RedTime, blacktime BlackTime, result Result (and the
 * game's result), open Opening, variation Variation, ecco ECCO, remark
 * Annotator (dpxq's commentator), author Author, type GameType, timerule
 * TimeControl.  Any other lower-case element keeps its name with the first
 * letter (and the letter after a red/black prefix) upper-cased: table
 * Table, redrating RedRating, owner Owner, generator Generator, ...; an
 * element name with capitals is the tag name as it is.  The writer maps
 * back the same way: lower case when that reads back as the same tag,
 * else the tag's own spelling ([DhtmlXQ_DateModified]), so any tag whose
 * name is letters, digits and '_' has a slot; others are reported as
 * lost.  Empty elements make no tag.
 *
 * An illegal or unreadable move stops its line (the branches hanging
 * below it cannot be placed either and are reported); the game is kept
 * with XQI_RECORD_BROKEN and the reader goes on with the next record.
 */
#include "dhtmlxq_int.h"

static int dh_probe(const unsigned char *head, size_t len)
{
	const char *s = (const char *)head;

	if (xqi_dh_find(s, len, 0, "[DhtmlXQ") < len)
		return 90;
	if (xqi_dh_find(s, len, 0, "%5BDhtmlXQ") < len || xqi_dh_find(s, len, 0, "%5bDhtmlXQ") < len)
		return 80;
	return 0;
}

/* The reader is given this entry, which words its size limit. */
static int open_reader(void **out, struct xqi_input *in, const struct xqi_read_opts *opts,
		       const struct xqi_sink *sink)
{
	return xqi_dh_open_reader(out, in, opts, sink, &xqi_format_dhtmlxq);
}

const struct xqi_format xqi_format_dhtmlxq = {
	"dhtmlxq",
	"DhtmlXQ / UBB records of dpxq.com, also inside HTML pages (many games, variations, comments)",
	".ubb .html",
	XQI_DH_CAPS,
	dh_probe,
	open_reader,
	xqi_dh_read,
	xqi_dh_close_reader,
	xqi_dh_open_writer,
	xqi_dh_write,
	xqi_dh_close_writer,
	DH_MAX_RECORD,
	DH_MEM_FACTOR,
	"ubb",
	"\n", /* a blank line between records */
	NULL, /* no number or line in a game's bytes */
};
