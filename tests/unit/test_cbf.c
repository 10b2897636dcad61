/*
 * test_cbf.c: the CBF (CCBridge XML) reader and writer: the header, the
 * flat branch/end move list, comments, libxml2's located errors, hostile
 * documents (entities), recovery of a damaged file, what the writer must
 * report, round trips, the corpus, and CBF -> DhtmlXQ -> CBF.
 */
#include "testutil.h"

#include <pthread.h>

#include "ccb_testutil.h"
#include "utf8.h"

#define DOC_HEAD                                                                         \
	"\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                         \
	"<ChineseChessRecord Version=\"1.0\">\n"                                           \
	" <Head>\n"                                                                        \
	"  <Name>N</Name>\n"                                                               \
	"  <Contest>C</Contest>\n"                                                         \
	"  <RecordResult>1</RecordResult>\n"                                               \
	" </Head>\n"                                                                       \
	" <MoveList>\n"                                                                    \
	"  <Move value=\"00-00\"><![CDATA[game]]></Move>\n"
#define DOC_TAIL " </MoveList>\n</ChineseChessRecord>\n"
/* Lines of DOC_HEAD: the first move entry after it is on line 10. */

#define READ(text, games, c) read_games("cbf", (text), strlen(text), (games), MAX_GAMES, (c), NULL)

static char *fixture(const char *name, size_t *len)
{
	return fixture_in("cbf", name, len);
}

static void head_elements_map_to_tags(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char fen[XQ_FEN_SIZE];
	int n;

	(void)state;
	n = READ("<ChineseChessRecord Version=\"1.0\"><Head>"
		 "<Name>T</Name><URL /><Contest>E</Contest><Round>2</Round><Date>1956</Date>"
		 "<Site>S</Site><TimeRule>40/2h</TimeRule><Red>R</Red><RedTeam>RT</RedTeam>"
		 "<Black>B</Black><Commentator>A</Commentator><Creator>W</Creator>"
		 "<ECCO>C03</ECCO><RecordType>1</RecordType><RecordResult>3</RecordResult>"
		 "<Extra>kept</Extra>"
		 "<FEN>4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1</FEN></Head>"
		 "<MoveList><Move value=\"00-00\"/></MoveList></ChineseChessRecord>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "T");
	assert_null(xqi_record_tag(&g[0], "URL")); /* empty: no tag */
	assert_string_equal(xqi_record_tag(&g[0], "Event"), "E");
	assert_string_equal(xqi_record_tag(&g[0], "Round"), "2");
	assert_string_equal(xqi_record_tag(&g[0], "Date"), "1956");
	assert_string_equal(xqi_record_tag(&g[0], "Site"), "S");
	assert_string_equal(xqi_record_tag(&g[0], "TimeControl"), "40/2h");
	assert_string_equal(xqi_record_tag(&g[0], "Red"), "R");
	assert_string_equal(xqi_record_tag(&g[0], "RedTeam"), "RT");
	assert_string_equal(xqi_record_tag(&g[0], "Black"), "B");
	assert_string_equal(xqi_record_tag(&g[0], "Annotator"), "A");
	assert_string_equal(xqi_record_tag(&g[0], "Author"), "W");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "C03");
	assert_string_equal(xqi_record_tag(&g[0], "RecordType"), "1");
	assert_string_equal(xqi_record_tag(&g[0], "Result"), "1/2-1/2");
	assert_string_equal(xqi_record_tag(&g[0], "Extra"), "kept");
	assert_null(xqi_record_tag(&g[0], "FEN"));
	assert_int_equal(g[0].result, XQI_RESULT_DRAW);
	xqi_position_to_fen(&g[0].start, fen, sizeof(fen));
	assert_string_equal(fen, "4k4/9/9/9/9/9/9/9/9/R2K5 b - - 0 1");
	assert_int_equal(g[0].flags, XQI_RECORD_EMPTY);
	assert_int_equal(c.n, 0);
	release_games(g, n);
}

/* root; h2e2; h9g7 (branch); h0g2 (branch); b9c7 end; b0c2 end+branch; i0i1 end; h7e7 end */
#define TREE_LIST                                                          \
	"  <Move value=\"77-47\" />\n"                                      \
	"  <Move value=\"70-62\" branch=\"1\" />\n"                         \
	"  <Move value=\"79-67\" branch=\"1\" />\n"                         \
	"  <Move value=\"10-22\" end=\"1\"><![CDATA[after b9c7]]></Move>\n" \
	"  <Move value=\"19-27\" end=\"1\" branch=\"1\" />\n"               \
	"  <Move value=\"89-88\" end=\"1\" />\n"                            \
	"  <Move value=\"72-42\" end=\"1\" />\n"
#define TREE_STRING "1h2e2 2h9g7 3h0g2 4b9c7 3b0c2* 3i0i1* 2h7e7*"

static void flat_list_with_branch_and_end_builds_the_tree(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	char tree[256];
	int n;

	(void)state;
	n = READ(DOC_HEAD TREE_LIST DOC_TAIL, g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, TREE_STRING);
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "game");
	assert_string_equal(g[0].nodes[4].comment, "after b9c7");
	assert_string_equal(g[0].nodes[4].text, "10-22");
	assert_int_equal(g[0].nodes[4].place.line, 13);
	assert_int_equal(g[0].flags, 0);
	assert_int_equal(c.n, 0);
	release_games(g, n);
}

static void illegal_move_skips_its_subtree_and_resumes_at_the_next_alternative(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	char tree[256];
	int n;

	(void)state;
	/* h0 -> h1 is no horse move: that line (and b9c7 below it) is lost. */
	n = READ(DOC_HEAD "  <Move value=\"77-47\" />\n"
			  "  <Move value=\"70-62\" branch=\"1\" />\n"
			  "  <Move value=\"79-78\" branch=\"1\" />\n"
			  "  <Move value=\"10-22\" end=\"1\" />\n"
			  "  <Move value=\"19-27\" end=\"1\" branch=\"1\" />\n"
			  "  <Move value=\"89-88\" end=\"1\" />\n"
			  "  <Move value=\"72-42\" end=\"1\" />\n" DOC_TAIL,
		 g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 3b0c2 3i0i1* 2h7e7*");
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move 79-78");
	assert_non_null(d);
	assert_int_equal(d->place.line, 12);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "79-78");
	assert_int_equal(d->game, 1);
	/* On the main line: the game stops there, with what it lost said. */
	assert_non_null(find_diag(&c, XQI_D_ILLEGAL_MOVE,
				  "the main line stops here: 2 moves not kept (this one and the 1 after it)"));
	release_games(g, n);
}

/* An illegal move in a variation cuts that variation, from it to its end
 * (the variations inside it too): the game is kept whole otherwise, not
 * broken, and the error says where and what was cut. */
static void illegal_move_in_a_variation_cuts_that_variation_only(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	char tree[256];
	int n;

	(void)state;
	/* Main line h2e2 h9g7 h0g2 i9h9; alternative to h9g7: b9c7, then
	 * h1h5 (no piece there) with its reply and a variation inside; then
	 * the alternative h7e7 to h9g7, kept. */
	n = READ(DOC_HEAD "  <Move value=\"77-47\" />\n"
			  "  <Move value=\"70-62\" branch=\"1\" />\n"
			  "  <Move value=\"79-67\" />\n"
			  "  <Move value=\"80-81\" end=\"1\" />\n"
			  "  <Move value=\"10-22\" branch=\"1\" />\n"
			  "  <Move value=\"78-74\" />\n"
			  "  <Move value=\"19-27\" branch=\"1\" end=\"1\" />\n"
			  "  <Move value=\"89-88\" end=\"1\" />\n"
			  "  <Move value=\"72-42\" end=\"1\" />\n" DOC_TAIL,
		 g, &c);
	assert_int_equal(n, 1);
	tree_string(&g[0], tree, sizeof(tree));
	assert_string_equal(tree, "1h2e2 2h9g7 3h0g2 4i9i8 2b9c7* 2h7e7*");
	assert_false(g[0].flags & XQI_RECORD_BROKEN);
	assert_true(g[0].flags & XQI_RECORD_CUT);
	d = find_diag(&c, XQI_D_ILLEGAL_MOVE, "illegal move 78-74");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->ply, 3);
	assert_string_equal(d->move, "78-74");
	assert_non_null(strstr(d->msg, "the variation is cut here: 3 moves not kept (this one and the 2 after it)"));
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 1);
	release_games(g, n);
}

static void value_that_is_not_a_move_is_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ(DOC_HEAD "  <Move value=\"7747\" end=\"1\" />\n" DOC_TAIL, g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_BAD_MOVE_TEXT, "<Move value=\"7747\"> is not a move"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void missing_alternatives_and_moves_after_the_end_are_reported(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ(DOC_HEAD "  <Move value=\"77-47\" branch=\"1\" />\n" DOC_TAIL, g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRUNCATED, "1 announced variations"));
	release_games(g, n);
	memset(&c, 0, sizeof(c));
	n = READ(DOC_HEAD "  <Move value=\"77-47\" end=\"1\" />\n  <Move value=\"72-42\" />\n"
			  "  <Bogus />\n" DOC_TAIL,
		 g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_TRAILING, "1 <Move> entries after the end"));
	assert_non_null(find_diag(&c, XQI_D_SYNTAX, "<Bogus> in <MoveList> is not a move"));
	release_games(g, n);
}

static void malformed_xml_reports_libxml2_line_and_column(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ("<?xml version=\"1.0\"?>\n<ChineseChessRecord>\n <Head><Name>x</Head>\n"
		 "</ChineseChessRecord>\n",
		 g, &c);
	d = find_diag(&c, XQI_D_XML, "Opening and ending tag mismatch: Name line 3 and Head");
	assert_non_null(d);
	assert_int_equal(d->severity, XQ_SEVERITY_ERROR);
	assert_int_equal(d->place.line, 3);
	assert_int_equal(d->place.col, 22);
	/* What came before the error is still a game, marked broken. */
	assert_int_equal(n, 1);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void damaged_document_keeps_the_moves_before_the_damage(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len;
	char *data = fixture("test.cbf", &len);
	int n;

	(void)state;
	/* Cut in the middle of the move list (line 49 of 87). */
	n = read_games("cbf", data, 1500, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_XML, "Premature end of data"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 10);
	assert_string_equal(xqi_record_tag(&g[0], "Event"), "居荣鑫《象棋古谱全局三种》");
	release_games(g, n);
	free(data);
}

static void text_that_runs_into_the_damage_is_not_kept(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* Found by fuzz_cbf: recovery let <From> swallow the lines after a bad
	 * byte, and the swallowed bytes were not UTF-8. */
	n = READ("<ChineseChessRecord>\n<Head>\n<Name>ok</Name>\n<From>a\nb\xD3\"e\n</From>\n"
		 "</Head>\n</ChineseChessRecord>\n",
		 g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_XML, "Input is not proper UTF-8"));
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "ok");
	assert_null(xqi_record_tag(&g[0], "From"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	for (size_t i = 0; i < g[0].ntags; i++)
		assert_int_equal(xq_utf8_check(g[0].tags[i].value, strlen(g[0].tags[i].value)),
				 strlen(g[0].tags[i].value));
	release_games(g, n);
}

static void entity_declarations_are_refused_before_any_expansion(void **state)
{
	static const char *const docs[] = {
		/* An external entity would read a local file. */
		"<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
		"<ChineseChessRecord><Head><Name>&x;</Name></Head></ChineseChessRecord>\n",
		/* Nested internal entities grow exponentially. */
		"<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\">"
		"<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;\">]>\n"
		"<ChineseChessRecord><Head><Name>&c;</Name></Head></ChineseChessRecord>\n",
		/* A parameter entity loading a DTD over the network. */
		"<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"http://127.0.0.1:9/x.dtd\"> %p;]>\n"
		"<ChineseChessRecord/>\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
		static struct collected c;
		struct xqi_record g[MAX_GAMES];
		const struct xq_diagnostic *d;
		int n, rc;
		memset(&c, 0, sizeof(c));
		n = read_games("cbf", docs[i], strlen(docs[i]), g, MAX_GAMES, &c, &rc);
		assert_int_equal(n, 0);
		assert_true(rc < 0);
		d = find_diag(&c, XQI_D_XML, "CBF documents declare no entities");
		assert_non_null(d);
		assert_int_equal(d->place.line, 2);
	}
}

static void undefined_entity_reference_is_an_error(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("<ChineseChessRecord><Head><Name>&x;</Name></Head></ChineseChessRecord>", g, &c);
	assert_non_null(find_diag(&c, XQI_D_XML, "Entity 'x' not defined"));
	assert_int_equal(n, 1);
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	release_games(g, n);
}

static void other_root_element_is_not_cbf(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n, rc;

	(void)state;
	n = read_games("cbf", "<foo/>", 6, g, MAX_GAMES, &c, &rc);
	assert_int_equal(n, 0);
	assert_int_equal(rc, XQ_EPARSE);
	assert_non_null(find_diag(&c, XQI_D_BAD_MAGIC, "the root element is <foo>"));
}

static void unknown_result_code_is_noted_and_kept(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	int n;

	(void)state;
	n = READ("<ChineseChessRecord><Head><RecordResult>4</RecordResult></Head></ChineseChessRecord>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(g[0].result, XQI_RESULT_UNKNOWN);
	assert_string_equal(g[0].result_text, "4");
	assert_non_null(find_diag(&c, XQI_D_NO_RESULT, "'4' is not a result code"));
	/* And goes back as it came. */
	assert_int_equal(write_games("cbf", g, 1, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "<RecordResult>4</RecordResult>"));
	/* A result word CBF has no code for is said lost (through its Result tag). */
	memset(&c, 0, sizeof(c));
	g[0].result_text = "V";
	xqi_record_set_tag(&g[0], "Result", "V");
	xq_buf_reset(&out);
	assert_int_equal(write_games("cbf", g, 1, &out, &c), 0);
	assert_non_null(strstr(out.ptr, "<RecordResult>0</RecordResult>"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Result \"V\" is not the result"));
	release_games(g, n);
	xq_buf_release(&out);
}

static void bad_fen_stops_the_moves(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ("<ChineseChessRecord><Head><FEN>9/9 w</FEN></Head><MoveList>"
		 "<Move value=\"00-00\"/><Move value=\"77-47\"/></MoveList></ChineseChessRecord>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_BAD_FEN, "<FEN>"));
	assert_true(g[0].flags & XQI_RECORD_BROKEN);
	assert_int_equal(g[0].nnodes, 1);
	release_games(g, n);
}

/* ---- the reader builds no tree: what it keeps of the elements ----------- */

static void head_after_the_move_list_still_gives_the_start_position(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* Kings and a rook: a0a5 is illegal from the standard start (the
	 * pawn on a3 is in the way) and legal from this position only. */
	n = READ("<ChineseChessRecord><MoveList><Move value=\"00-00\"/>"
		 "<Move value=\"09-04\" end=\"1\"/></MoveList>"
		 "<Head><FEN>3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1</FEN></Head></ChineseChessRecord>",
		 g, &c);
	assert_int_equal(n, 1);
	assert_int_equal(c.n, 0);
	assert_int_equal(xqi_record_mainline_length(&g[0]), 1);
	assert_string_equal(g[0].nodes[1].text, "09-04");
	release_games(g, n);
}

static void text_inside_nested_elements_is_part_of_the_comment(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	n = READ(DOC_HEAD "  <Move value=\"77-47\" end=\"1\">a<b>b<c>c</c></b>&amp;d<!-- no -->"
			  "<![CDATA[<e>]]></Move>\n" DOC_TAIL,
		 g, &c);
	assert_int_equal(n, 1);
	assert_string_equal(g[0].nodes[1].comment, "abc&d<e>");
	/* The nested elements are not moves of the list. */
	assert_int_equal(xqi_record_mainline_length(&g[0]), 1);
	release_games(g, n);
}

static void an_element_recovery_ends_without_an_end_tag_leaves_its_siblings_apart(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	int n;

	(void)state;
	/* Found by fuzz_cbf: <Head is never ended; recovery closes it without
	 * an end callback, and <Chi> is the root's child, not the head's. */
	n = READ("<ChineseChessRecord Version=\"1.0\"><Head<Chi>x</Chi></ChineseChessRecord>", g,
		 &c);
	assert_int_equal(n, 1);
	assert_non_null(find_diag(&c, XQI_D_XML, "Couldn't find end of Start Tag Head"));
	assert_non_null(find_diag(&c, XQI_D_UNSUPPORTED, "element <Chi> is not understood"));
	assert_null(xqi_record_tag(&g[0], "Chi"));
	release_games(g, n);
}

static void an_escaped_ampersand_in_a_move_value_is_an_ampersand(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	const struct xq_diagnostic *d;
	int n;

	(void)state;
	n = READ(DOC_HEAD "  <Move value=\"7&amp;-4&#38;\" end=\"1\"/>\n" DOC_TAIL, g, &c);
	assert_int_equal(n, 1);
	d = find_diag(&c, XQI_D_BAD_MOVE_TEXT, "<Move value=\"7&-4&\"> is not a move");
	assert_non_null(d);
	assert_string_equal(d->move, "7&-4&");
	release_games(g, n);
}

/* A game with variations, comments that need escaping, and tags. */
static void build_game(struct xqi_record *g)
{
	uint32_t a, b, c2, alt;

	assert_int_equal(xqi_record_init(g), 0);
	xqi_record_add_tag(g, "Title", 5, "A & B <x>", 9);
	xqi_record_add_tag(g, "Event", 5, "赛", 3);
	xqi_record_add_tag(g, "RedRating", 9, "2500", 4);
	xqi_record_add_tag(g, "Result", 6, "0-1", 3);
	g->result = XQI_RESULT_BLACK_WIN;
	assert_int_equal(xqi_record_add_move(g, XQI_ROOT, mv("h2e2"), &a), 0);
	assert_int_equal(xqi_record_add_move(g, a, mv("h9g7"), &b), 0);
	assert_int_equal(xqi_record_add_move(g, b, mv("h0g2"), &c2), 0);
	assert_int_equal(xqi_record_add_move(g, a, mv("h7e7"), &alt), 0);
	assert_int_equal(xqi_record_add_move(g, alt, mv("b0c2"), NULL), 0);
	assert_int_equal(xqi_record_add_move(g, XQI_ROOT, mv("c3c4"), NULL), 0);
	xqi_record_set_comment(g, XQI_ROOT, "start", 5);
	xqi_record_set_comment(g, b, "x]]>y & <z>", 11);
	xqi_record_set_comment(g, c2, "line one\nline two\r\nthree\rfour", 29);
}

static void writer_writes_the_shape_ccbridge_writes(void **state)
{
	static struct collected c;
	struct xqi_record g;
	struct xq_buf out = XQ_BUF_INIT;
	int elements = 0;

	(void)state;
	build_game(&g);
	assert_int_equal(write_games("cbf", &g, 1, &out, &c), 0);
	assert_int_equal(c.n, 0);
	assert_memory_equal(out.ptr, "\xEF\xBB\xBF<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n", 41);
	for (const char *p = out.ptr; (p = strstr(p, "\r\n  <")); p++)
		elements++;
	assert_int_equal(elements, 33 + 7); /* every Head element, then root and six moves */
	assert_non_null(strstr(out.ptr, "  <URL />\r\n"));
	assert_non_null(strstr(out.ptr, "<Name>A &amp; B &lt;x&gt;</Name>"));
	assert_non_null(strstr(out.ptr, "<RecordResult>2</RecordResult>"));
	assert_non_null(strstr(out.ptr, "<Move value=\"00-00\"><![CDATA[start]]></Move>"));
	assert_non_null(strstr(out.ptr, "<Move value=\"77-47\" branch=\"1\" />"));
	assert_non_null(strstr(out.ptr, "<Move value=\"70-62\" branch=\"1\">"));
	assert_non_null(strstr(out.ptr, "<Move value=\"19-27\" end=\"1\" />"));
	assert_non_null(strstr(out.ptr, "<Move value=\"26-25\" end=\"1\" />\r\n </MoveList>"));
	assert_non_null(strstr(out.ptr, "<![CDATA[x]]]]><![CDATA[>y & <z>]]>"));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void round_trip_keeps_tree_comments_tags_and_result(void **state)
{
	static struct collected c;
	struct xqi_record g, back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	int n;

	(void)state;
	build_game(&g);
	assert_int_equal(write_games("cbf", &g, 1, &out, &c), 0);
	n = read_games("cbf", out.ptr, out.len, back, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	if (c.n)
		print_diags(&c);
	assert_int_equal(c.n, 0);
	/* CBF keeps its own element order. */
	ASSERT_GAMES_EQUAL(&g, &back[0], XQ_EQUAL_IGNORE_TAG_ORDER);
	assert_string_equal(back[0].nodes[3].comment, "line one\nline two\r\nthree\rfour");
	release_games(back, n);
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_reports_what_cbf_cannot_hold(void **state)
{
	static struct collected c;
	struct xqi_record g;
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	build_game(&g);
	xqi_record_add_nag(&g, 1, 2);
	xqi_record_set_pre_comment(&g, 2, "before", 6);
	xqi_record_add_tag(&g, "Opening", 7, "中炮", 6);
	xqi_record_add_tag(&g, "Event", 5, "second", 6);
	xqi_record_set_comment(&g, 1, "bell\x07", 5);
	assert_int_equal(write_games("cbf", &g, 1, &out, &c), 0);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 NAGs (the first at ply 1)"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "1 comments before a move (the first at ply 2)"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Opening (\"中炮\") has no CBF field"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "tag Event repeated"));
	assert_non_null(find_diag(&c, XQI_D_LOSS, "comment: 1 control characters"));
	xqi_record_release(&g);
	xq_buf_release(&out);
}

static void writer_holds_one_game_per_file(void **state)
{
	static struct collected c;
	struct xqi_record g[2];
	struct xq_buf out = XQ_BUF_INIT;

	(void)state;
	build_game(&g[0]);
	build_game(&g[1]);
	assert_int_equal(write_games("cbf", g, 2, &out, &c), XQ_EUNSUPPORTED);
	assert_non_null(find_diag(&c, XQI_D_LOSS, "a CBF file holds one game; game 2 not written"));
	release_games(g, 2);
	xq_buf_release(&out);
}

struct parse_job {
	const char *doc;
	uint32_t line;
	int ok;
};

/* Parse a malformed document many times; every error must be this job's. */
static void *parse_many(void *arg)
{
	struct parse_job *job = arg;

	job->ok = 1;
	for (int i = 0; i < 200 && job->ok; i++) {
		struct collected *c = calloc(1, sizeof(*c));
		const struct xqi_format *f = xqi_format_find("cbf");
		struct xqi_sink sink = {collect, c};
		struct xqi_read_opts opts = XQI_READ_OPTS_INIT;
		struct xqi_input *in;
		struct xqi_record g;
		void *r;
		if (!c || xqi_input_open_mem(&in, "t", job->doc, strlen(job->doc)) ||
		    f->open_reader(&r, in, &opts, &sink) || xqi_record_init(&g)) {
			job->ok = 0;
			free(c);
			break;
		}
		f->read(r, &g);
		job->ok = c->n > 0 && c->d[0].code == XQI_D_XML && c->d[0].place.line == job->line;
		f->close_reader(r);
		xqi_input_close(in);
		xqi_record_release(&g);
		free(c);
	}
	return NULL;
}

static void parse_errors_go_to_the_reader_that_met_them(void **state)
{
	struct parse_job jobs[2] = {
		{"<ChineseChessRecord>\n<a></b>\n</ChineseChessRecord>", 2, 0},
		{"<ChineseChessRecord>\n\n\n\n<a></b>\n</ChineseChessRecord>", 5, 0},
	};
	pthread_t t[2];

	(void)state;
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, parse_many, &jobs[i]), 0);
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);
	assert_true(jobs[0].ok);
	assert_true(jobs[1].ok);
}

static void fixtures_read_and_round_trip(void **state)
{
	static const char *const files[] = {"test.cbf", "test2.cbf"};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		static struct collected c;
		struct xqi_record g[MAX_GAMES], back[MAX_GAMES];
		struct xq_buf out = XQ_BUF_INIT;
		size_t len;
		char *data = fixture(files[i], &len);
		int n;
		memset(&c, 0, sizeof(c));
		n = read_games("cbf", data, len, g, MAX_GAMES, &c, NULL);
		assert_int_equal(n, 1);
		assert_int_equal(c.n, 0);
		assert_int_equal(write_games("cbf", g, 1, &out, &c), 0);
		assert_int_equal(read_games("cbf", out.ptr, out.len, back, MAX_GAMES, &c, NULL), 1);
		assert_int_equal(c.n, 0);
		ASSERT_GAMES_EQUAL(&g[0], &back[0], 0);
		release_games(g, n);
		release_games(back, 1);
		xq_buf_release(&out);
		free(data);
	}
}

static void test_cbf_has_the_expected_game(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES];
	size_t len;
	char *data = fixture("test.cbf", &len);
	struct xqi_record_counts k;
	int n;

	(void)state;
	n = read_games("cbf", data, len, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	xqi_record_count(&g[0], &k);
	assert_int_equal(k.nodes, 50);
	assert_int_equal(k.variations, 0);
	assert_int_equal(k.comments, 8);
	assert_string_equal(xqi_record_tag(&g[0], "Title"), "第一局 屏风马巡河炮抵当头炮局(和)");
	assert_string_equal(xqi_record_tag(&g[0], "Annotator"), "居荣鑫");
	assert_string_equal(xqi_record_tag(&g[0], "ECCO"), "C03");
	assert_string_equal(g[0].nodes[XQI_ROOT].comment, "中炮横车盘头马对屏风马双炮巡河");
	assert_int_equal(g[0].nodes[1].move, mv("h2e2"));
	assert_int_equal(g[0].result, XQI_RESULT_UNKNOWN);
	release_games(g, n);
	free(data);
}

static void cbf_to_dhtmlxq_to_cbf_keeps_the_game(void **state)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES], mid[MAX_GAMES], back[MAX_GAMES];
	struct xq_buf a = XQ_BUF_INIT, b = XQ_BUF_INIT;
	size_t len;
	char *data = fixture("test2.cbf", &len);
	int n;

	(void)state;
	n = read_games("cbf", data, len, g, MAX_GAMES, &c, NULL);
	assert_int_equal(n, 1);
	build_game(&g[1]); /* variations and awkward comments too */
	xqi_record_add_tag(&g[1], "DateModified", 12, "2024-01-01", 10);
	xqi_record_add_tag(&g[1], "URL", 3, "http://x/?a=1&b=2", 17);
	for (int i = 0; i < 2; i++) {
		xq_buf_reset(&a);
		xq_buf_reset(&b);
		assert_int_equal(write_games("dhtmlxq", &g[i], 1, &a, &c), 0);
		assert_int_equal(read_games("dhtmlxq", a.ptr, a.len, mid, MAX_GAMES, &c, NULL), 1);
		assert_int_equal(write_games("cbf", mid, 1, &b, &c), 0);
		assert_int_equal(read_games("cbf", b.ptr, b.len, back, MAX_GAMES, &c, NULL), 1);
		drop_result_notes(&c);
		if (c.n)
			print_diags(&c);
		assert_int_equal(c.n, 0);
		ASSERT_GAMES_EQUAL(&g[i], &back[0], XQ_EQUAL_IGNORE_TAG_ORDER);
		release_games(mid, 1);
		release_games(back, 1);
	}
	release_games(g, 2);
	xq_buf_release(&a);
	xq_buf_release(&b);
	free(data);
}

static int count_variations(const struct xqi_record *g)
{
	struct xqi_record_counts k;

	xqi_record_count(g, &k);
	return (int)k.variations;
}

/*
 * Take `first` through the formats of `chain` (written by each, read back
 * by each) into *last; then the tree, the comments and the result must be
 * the same, the tags in `kept` too, and every other tag that did not
 * arrive must have been reported lost on the way.  No errors anywhere.
 */
static void run_chain(const char *const *chain, size_t links, const struct xqi_record *first,
		      const char *const *kept, size_t nkept)
{
	static struct collected c;
	static struct xqi_record g[MAX_GAMES];

	memset(&c, 0, sizeof(c));
	for (size_t i = 0; i < links; i++) {
		struct xq_buf out = XQ_BUF_INIT;
		assert_int_equal(write_games(chain[i], i == 0 ? first : g, 1, &out, &c), 0);
		if (i > 0)
			release_games(g, 1);
		assert_int_equal(read_games(chain[i], out.ptr, out.len, g, MAX_GAMES, &c, NULL), 1);
		xq_buf_release(&out);
	}
	for (int i = 0; i < c.n; i++)
		if (c.d[i].severity == XQ_SEVERITY_ERROR) {
			print_diags(&c);
			fail_msg("an error on the way");
		}
	ASSERT_GAMES_EQUAL(first, &g[0], XQ_EQUAL_IGNORE_TAGS);
	for (size_t i = 0; i < nkept; i++)
		assert_string_equal(xqi_record_tag(&g[0], kept[i]), xqi_record_tag(first, kept[i]));
	for (size_t i = 0; i < first->ntags; i++) {
		const char *name = first->tags[i].name;
		if (!xqi_record_tag(&g[0], name) && !find_diag(&c, XQI_D_LOSS, name)) {
			print_diags(&c);
			fail_msg("tag %s vanished without a loss report", name);
		}
	}
	release_games(g, 1);
}

/*
 * PGN -> CBF -> XQF -> DhtmlXQ -> PGN.  PGN is another helper's format:
 * the test waits for it to be registered.
 */
static void pgn_cbf_xqf_dhtmlxq_pgn_keeps_the_game(void **state)
{
	static const char pgn[] =
		"[Game \"Chinese Chess\"]\n"
		"[Event \"Cross-format test\"]\n"
		"[Site \"Beijing\"]\n"
		"[Date \"2024.01.02\"]\n"
		"[Red \"Red player\"]\n"
		"[Black \"Black player\"]\n"
		"[Result \"1-0\"]\n"
		"[Format \"ICCS\"]\n\n"
		"{The game.} 1. H2-E2 {centre cannon} H9-G7 (1. ... H7-E7 2. H0-G2) "
		"2. H0-G2 I9-H9 (2. ... B9-C7 {the other horse}) 3. I0-H0 1-0\n";
	static const char *const chain[] = {"cbf", "xqf", "dhtmlxq", "pgn"};
	static const char *const kept[] = {"Event", "Site", "Date", "Red", "Black", "Result"};
	static struct collected c;
	static struct xqi_record first[MAX_GAMES];

	(void)state;
	assert_non_null(xqi_format_find("pgn"));
	assert_non_null(xqi_format_find("xqf"));
	assert_int_equal(read_games("pgn", pgn, strlen(pgn), first, MAX_GAMES, &c, NULL), 1);
	assert_int_equal(count_diags(&c, XQ_SEVERITY_WARNING), 0);
	assert_int_equal(count_variations(&first[0]), 2);
	run_chain(chain, 4, &first[0], kept, 6);
	release_games(first, 1);
}

/* CBF -> XQF -> DhtmlXQ -> CBF, on a corpus game and on one with every kind of content. */
static void cbf_xqf_dhtmlxq_cbf_keeps_the_game(void **state)
{
	static const char *const chain[] = {"xqf", "dhtmlxq", "cbf"};
	static const char *const kept[] = {"Title", "Event", "Annotator", "Result"};
	static struct collected c;
	static struct xqi_record g[MAX_GAMES];
	size_t len;
	char *data = fixture("test.cbf", &len);

	(void)state;
	assert_non_null(xqi_format_find("xqf"));
	assert_int_equal(read_games("cbf", data, len, g, MAX_GAMES, &c, NULL), 1);
	run_chain(chain, 3, &g[0], kept, 4);
	build_game(&g[1]);
	xqi_record_set_comment(&g[1], XQI_ROOT, "起 start", 10);
	run_chain(chain, 3, &g[1], kept, 2);
	release_games(g, 2);
	free(data);
}

struct corpus_count {
	int files;
};

static void read_corpus_cbf(const char *path, struct corpus_count *cc)
{
	static struct collected c;
	struct xqi_record g[MAX_GAMES], back[MAX_GAMES];
	struct xq_buf out = XQ_BUF_INIT;
	size_t len;
	char *data = slurp(path, &len);
	int n, rc;

	assert_non_null(data);
	memset(&c, 0, sizeof(c));
	n = read_games("cbf", data, len, g, MAX_GAMES, &c, &rc);
	assert_int_equal(n, 1);
	assert_int_equal(rc, 0);
	for (int i = 0; i < c.n; i++)
		if (c.d[i].severity == XQ_SEVERITY_ERROR && c.d[i].code != XQI_D_ILLEGAL_MOVE)
			fail_msg("%s: %s", path, c.d[i].msg);
	memset(&c, 0, sizeof(c));
	assert_int_equal(write_games("cbf", g, 1, &out, &c), 0);
	assert_int_equal(c.n, 0);
	assert_int_equal(read_games("cbf", out.ptr, out.len, back, MAX_GAMES, &c, NULL), 1);
	ASSERT_GAMES_EQUAL(&g[0], &back[0], 0);
	/* What was read back writes the very same bytes (xqkit convert --verify). */
	{
		struct xq_buf again = XQ_BUF_INIT;
		assert_int_equal(write_games("cbf", back, 1, &again, &c), 0);
		assert_int_equal(again.len, out.len);
		assert_memory_equal(again.ptr, out.ptr, out.len);
		xq_buf_release(&again);
	}
	cc->files++;
	release_games(g, n);
	release_games(back, 1);
	xq_buf_release(&out);
	free(data);
}

static void every_corpus_cbf_reads_and_round_trips(void **state)
{
	static const char *const files[] = {
		"walker8088__cchess/tests/data/test.cbf",
		"walker8088__cchess/tests/data/test2.cbf",
		"zfdang__chinese-chess-fish-android/棋谱/sample_22_ccbridge.cbf",
	};
	const char *dir = test_shared_dir();
	struct corpus_count cc = {0};

	(void)state;
	SKIP_WITHOUT_SHARED(dir);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4200];
		snprintf(path, sizeof(path), "%.3000s/corpus/pgn/%s", dir, files[i]);
		read_corpus_cbf(path, &cc);
	}
	assert_int_equal(cc.files, 3);
}

static void probe_recognises_cbf(void **state)
{
	const struct xqi_format *f = xqi_format_find("cbf");
	static const char a[] = "\xEF\xBB\xBF<?xml version=\"1.0\"?>\r\n<ChineseChessRecord Version=\"1.0\">";

	(void)state;
	assert_int_equal(f->probe((const unsigned char *)a, sizeof(a) - 1), 95);
	assert_int_equal(f->probe((const unsigned char *)"<n version", 10), 0);
	assert_ptr_equal(xqi_format_for_extension("out.CBF"), f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(head_elements_map_to_tags),
		cmocka_unit_test(flat_list_with_branch_and_end_builds_the_tree),
		cmocka_unit_test(illegal_move_skips_its_subtree_and_resumes_at_the_next_alternative),
		cmocka_unit_test(illegal_move_in_a_variation_cuts_that_variation_only),
		cmocka_unit_test(value_that_is_not_a_move_is_reported),
		cmocka_unit_test(missing_alternatives_and_moves_after_the_end_are_reported),
		cmocka_unit_test(malformed_xml_reports_libxml2_line_and_column),
		cmocka_unit_test(damaged_document_keeps_the_moves_before_the_damage),
		cmocka_unit_test(text_that_runs_into_the_damage_is_not_kept),
		cmocka_unit_test(entity_declarations_are_refused_before_any_expansion),
		cmocka_unit_test(undefined_entity_reference_is_an_error),
		cmocka_unit_test(other_root_element_is_not_cbf),
		cmocka_unit_test(unknown_result_code_is_noted_and_kept),
		cmocka_unit_test(bad_fen_stops_the_moves),
		cmocka_unit_test(head_after_the_move_list_still_gives_the_start_position),
		cmocka_unit_test(text_inside_nested_elements_is_part_of_the_comment),
		cmocka_unit_test(an_element_recovery_ends_without_an_end_tag_leaves_its_siblings_apart),
		cmocka_unit_test(an_escaped_ampersand_in_a_move_value_is_an_ampersand),
		cmocka_unit_test(writer_writes_the_shape_ccbridge_writes),
		cmocka_unit_test(round_trip_keeps_tree_comments_tags_and_result),
		cmocka_unit_test(writer_reports_what_cbf_cannot_hold),
		cmocka_unit_test(writer_holds_one_game_per_file),
		cmocka_unit_test(parse_errors_go_to_the_reader_that_met_them),
		cmocka_unit_test(fixtures_read_and_round_trip),
		cmocka_unit_test(test_cbf_has_the_expected_game),
		cmocka_unit_test(cbf_to_dhtmlxq_to_cbf_keeps_the_game),
		cmocka_unit_test(cbf_xqf_dhtmlxq_cbf_keeps_the_game),
		cmocka_unit_test(pgn_cbf_xqf_dhtmlxq_pgn_keeps_the_game),
		cmocka_unit_test(every_corpus_cbf_reads_and_round_trips),
		cmocka_unit_test(probe_recognises_cbf),
	};
	return cmocka_run_group_tests_name("cbf", tests, NULL, NULL);
}
