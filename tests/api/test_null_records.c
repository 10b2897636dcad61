/*
 * test_null_records.c: every public function of <xq/record.h>, <xq/position.h>, <xq/rules.h>, <xq/json.h>, <xq/utf8.h>, <xq/memory.h> and <xq/version.h> with a NULL where it takes
 * none: never a crash, and what its contract comment says (<xq/error.h>,
 * NULL arguments): XQ_EINVAL from a function that returns a code; NULL,
 * 0, -1, XQ_NO_NODE, "" or nothing done from the others.  One test a
 * public function, each NULL argument in turn with the others valid.
 *
 * tests/install.sh checks that every function libxq.so exports has its
 * test in a tests/api/test_null_*.c (a cmocka_unit_test(<function>_on_null_...)
 * row) or is listed in a no_pointer[]: a new public function fails `make
 * check-libxq` until it has one.  Built and run by tests/install.sh as
 * test_api.c is, from the top of the source tree.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include "null_fixture.h"

/* ---- one test a public function (the NULL arguments it does not take) ---- */

static void xq_alloc_grow_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_alloc_grow(NULL, &F.arr_alloc, 4, sizeof(int)), XQ_EINVAL);
	assert_int_equal(xq_alloc_grow(&F.arr, NULL, 4, sizeof(int)), XQ_EINVAL);
}

static void xq_diagnostics_add_about_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_diagnostics_add_about(NULL, F.diag, NULL, -1), XQ_EINVAL);
	assert_int_equal(xq_diagnostics_add_about(F.diags, NULL, NULL, -1), XQ_EINVAL);
}

static void xq_diagnostics_report_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_diagnostics_report(NULL, NULL, XQ_SEVERITY_NOTE, "none", "x"), XQ_EINVAL);
	assert_int_equal(xq_diagnostics_report(F.diags, NULL, XQ_SEVERITY_NOTE, NULL, "x"), XQ_EINVAL);
	assert_int_equal(xq_diagnostics_report(F.diags, NULL, XQ_SEVERITY_NOTE, "none", F.nofmt, 0), XQ_EINVAL);
}

static void xq_diagnostics_vreport_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(vreport(NULL, NULL, XQ_SEVERITY_NOTE, "none", "x"), XQ_EINVAL);
	assert_int_equal(vreport(F.diags, NULL, XQ_SEVERITY_NOTE, NULL, "x"), XQ_EINVAL);
	assert_int_equal(vreport(F.diags, NULL, XQ_SEVERITY_NOTE, "none", NULL), XQ_EINVAL);
}

static void xq_dialect_from_name_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_dialect_from_name(NULL), XQ_EINVAL);
}

static void xq_json_column_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_column(NULL, 0) == 0);
}

static void xq_json_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_count(NULL) == 0);
}

static void xq_json_error_message_on_null_returns_an_empty_string(void **state)
{
	(void)state;
	assert_string_equal(xq_json_error_message(NULL), "");
}

static void xq_json_error_offset_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_error_offset(NULL) == 0);
}

static void xq_json_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_json_free(NULL);
	F.survived++;
}

static void xq_json_member_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_member(NULL, 0, "a") == 0);
	assert_true(xq_json_member(F.json, 0, NULL) == 0);
}

static void xq_json_next_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_next(NULL, 0) == 0);
}

static void xq_json_number_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_json_number(NULL, 2, &F.dbl), XQ_EINVAL);
	assert_int_equal(xq_json_number(F.json, 2, NULL), XQ_EINVAL);
}

static void xq_json_offset_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_json_offset(NULL, 0) == 0);
}

static void xq_json_parse_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_json_parse(NULL, "[1]", 3), XQ_EINVAL);
	assert_int_equal(xq_json_parse(F.json, NULL, 3), XQ_EINVAL);
}

static void xq_json_string_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_json_string(NULL, 1, &F.buf), XQ_EINVAL);
	assert_int_equal(xq_json_string(F.json, 1, NULL), XQ_EINVAL);
}

static void xq_json_text_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_json_text(NULL, 2, &F.sz));
}

static void xq_json_type_on_null_returns_minus_1(void **state)
{
	(void)state;
	assert_true(xq_json_type(NULL, 0) == -1);
}

static void xq_json_uint_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_json_uint(NULL, 2, &F.u64), XQ_EINVAL);
	assert_int_equal(xq_json_uint(F.json, 2, NULL), XQ_EINVAL);
}

static void xq_move_code_iccs_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_move_code_iccs(F.moves[0], NULL) == 0);
}

static void xq_position_copy_on_null_does_nothing(void **state)
{
	(void)state;
	xq_position_copy(NULL, F.pos);
	F.survived++;
	xq_position_copy(F.pos2, NULL);
	F.survived++;
}

static void xq_position_dup_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_position_dup(NULL));
}

static void xq_position_error_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_position_error(NULL));
}

static void xq_position_fen_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_fen(NULL, F.text, sizeof(F.text)) == 0);
	assert_true(xq_position_fen(F.pos, NULL, sizeof(F.text)) == 0);
}

static void xq_position_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_position_free(NULL);
	F.survived++;
}

static void xq_position_in_check_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_in_check(NULL) == 0);
}

static void xq_position_key_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_key(NULL) == 0);
}

static void xq_position_legal_moves_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_legal_moves(NULL, F.codes_arr), XQ_EINVAL);
	assert_int_equal(xq_position_legal_moves(F.pos, NULL), XQ_EINVAL);
}

static void xq_position_material_on_null_does_nothing(void **state)
{
	(void)state;
	xq_position_material(NULL, F.counts);
	F.survived++;
	xq_position_material(F.pos, NULL);
	F.survived++;
}

static void xq_position_mirror_on_null_does_nothing(void **state)
{
	(void)state;
	xq_position_mirror(NULL);
	F.survived++;
}

static void xq_position_move_number_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_move_number(NULL), XQ_EINVAL);
}

static void xq_position_move_text_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_move_text(NULL, F.moves[0], XQ_DIALECT_ICCS, 0, F.text, sizeof(F.text)) == 0);
	assert_true(xq_position_move_text(F.pos, F.moves[0], XQ_DIALECT_ICCS, 0, NULL, sizeof(F.text)) == 0);
}

static void xq_position_perft_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_perft(NULL, 1) == 0);
}

static void xq_position_perft_cancel_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_perft_cancel(NULL, 1, NULL, &F.u64), XQ_EINVAL);
	assert_int_equal(xq_position_perft_cancel(F.pos, 1, NULL, NULL), XQ_EINVAL);
}

static void xq_position_piece_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_piece(NULL, 0) == 0);
}

static void xq_position_play_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_play(NULL, F.moves[0]), XQ_EINVAL);
}

static void xq_position_play_text_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_play_text(NULL, "h2e2", XQ_DIALECT_ICCS), XQ_EINVAL);
	assert_int_equal(xq_position_play_text(F.pos2, NULL, XQ_DIALECT_ICCS), XQ_EINVAL);
}

static void xq_position_read_move_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_read_move(NULL, "h2e2", XQ_DIALECT_ICCS, &F.mc), XQ_EINVAL);
	assert_int_equal(xq_position_read_move(F.pos, NULL, XQ_DIALECT_ICCS, &F.mc), XQ_EINVAL);
	assert_int_equal(xq_position_read_move(F.pos, "h2e2", XQ_DIALECT_ICCS, NULL), XQ_EINVAL);
}

static void xq_position_same_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_position_same(NULL, F.pos) == 0);
	assert_true(xq_position_same(F.pos, NULL) == 0);
}

static void xq_position_set_fen_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_set_fen(NULL, START_FEN), XQ_EINVAL);
	assert_int_equal(xq_position_set_fen(F.pos2, NULL), XQ_EINVAL);
}

static void xq_position_set_fen_lenient_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_set_fen_lenient(NULL, START_FEN), XQ_EINVAL);
	assert_int_equal(xq_position_set_fen_lenient(F.pos2, NULL), XQ_EINVAL);
}

static void xq_position_set_start_on_null_does_nothing(void **state)
{
	(void)state;
	xq_position_set_start(NULL);
	F.survived++;
}

static void xq_position_side_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_side(NULL), XQ_EINVAL);
}

static void xq_position_state_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_state(NULL), XQ_EINVAL);
}

static void xq_record_add_move_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_add_move(NULL, 0, F.moves[0], NULL), XQ_EINVAL);
}

static void xq_record_add_move_text_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_add_move_text(NULL, 0, "h2e2", XQ_DIALECT_ICCS, NULL), XQ_EINVAL);
	assert_int_equal(xq_record_add_move_text(F.rec2, 0, NULL, XQ_DIALECT_ICCS, NULL), XQ_EINVAL);
}

static void xq_record_add_nag_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_add_nag(NULL, 1, 1), XQ_EINVAL);
}

static void xq_record_check_result_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_check_result(NULL, 0, NULL, NULL), XQ_EINVAL);
}

static void xq_record_encoding_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_encoding(NULL));
}

static void xq_record_equal_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_equal(NULL, F.rec, 0, F.text, sizeof(F.text)) == 0);
	assert_true(xq_record_equal(F.rec, NULL, 0, F.text, sizeof(F.text)) == 0);
}

static void xq_record_error_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_error(NULL));
}

static void xq_record_fingerprint_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_fingerprint(NULL) == 0);
}

static void xq_record_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_record_free(NULL);
	F.survived++;
}

static void xq_record_has_result_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_has_result(NULL) == 0);
}

static void xq_record_is_broken_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_is_broken(NULL) == 0);
}

static void xq_record_is_cut_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_is_cut(NULL) == 0);
}

static void xq_record_is_empty_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_is_empty(NULL) == 0);
}

static void xq_record_mainline_length_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_mainline_length(NULL) == 0);
}

static void xq_record_mainline_text_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_mainline_text(NULL, XQ_DIALECT_ICCS, 0));
}

static void xq_record_node_child_on_null_returns_no_node(void **state)
{
	(void)state;
	assert_true(xq_record_node_child(NULL, 0) == XQ_NO_NODE);
}

static void xq_record_node_comment_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_node_comment(NULL, 0));
}

static void xq_record_node_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_count(NULL) == 0);
}

static void xq_record_node_fen_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_fen(NULL, 1, F.text, sizeof(F.text)) == 0);
	assert_true(xq_record_node_fen(F.rec, 1, NULL, sizeof(F.text)) == 0);
}

static void xq_record_node_move_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_move(NULL, 1) == 0);
}

static void xq_record_node_move_text_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_move_text(NULL, 1, XQ_DIALECT_ICCS, 0, F.text, sizeof(F.text)) == 0);
	assert_true(xq_record_node_move_text(F.rec, 1, XQ_DIALECT_ICCS, 0, NULL, sizeof(F.text)) == 0);
}

static void xq_record_node_nag_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_nag(NULL, 1, 0) == 0);
}

static void xq_record_node_nag_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_nag_count(NULL, 1) == 0);
}

static void xq_record_node_parent_on_null_returns_no_node(void **state)
{
	(void)state;
	assert_true(xq_record_node_parent(NULL, 1) == XQ_NO_NODE);
}

static void xq_record_node_place_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_node_place(NULL, 1, &F.u64, &F.u64b, &F.u64c), XQ_EINVAL);
}

static void xq_record_node_ply_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_node_ply(NULL, 1) == 0);
}

static void xq_record_node_position_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_node_position(NULL, 1, F.pos2), XQ_EINVAL);
	assert_int_equal(xq_record_node_position(F.rec, 1, NULL), XQ_EINVAL);
}

static void xq_record_node_pre_comment_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_node_pre_comment(NULL, 1));
}

static void xq_record_node_sibling_on_null_returns_no_node(void **state)
{
	(void)state;
	assert_true(xq_record_node_sibling(NULL, 1) == XQ_NO_NODE);
}

static void xq_record_node_source_text_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_node_source_text(NULL, 1));
}

static void xq_record_number_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_number(NULL) == 0);
}

static void xq_record_origin_on_null_says_nothing_is_known(void **state)
{
	(void)state;
	F.s1 = "x";
	F.u64 = F.u64b = 9;
	F.i64 = 9;
	xq_record_origin(NULL, &F.s1, &F.u64, &F.u64b, &F.i64);
	assert_true(F.s1 == NULL && F.u64 == 0 && F.u64b == 0 && F.i64 == -1);
}

static void xq_record_place_on_null_zeroes_its_outputs(void **state)
{
	(void)state;
	F.u64 = F.u64b = F.u64c = 9;
	xq_record_place(NULL, &F.u64, &F.u64b, &F.u64c);
	assert_true(F.u64 == 0 && F.u64b == 0 && F.u64c == 0);
}

static void xq_record_remove_tag_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_remove_tag(NULL, 99), XQ_EINVAL);
}

static void xq_record_remove_tags_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_remove_tags(NULL, "Nothing", 0) == 0);
	assert_true(xq_record_remove_tags(F.rec2, NULL, 0) == 0);
}

static void xq_record_result_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_result(NULL));
}

static void xq_record_result_tag_stands_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_result_tag_stands(NULL) == 0);
}

static void xq_record_result_text_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_result_text(NULL));
}

static void xq_record_rules_line_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_rules_line(NULL, 0, &F.line_out), XQ_EINVAL);
	assert_int_equal(xq_record_rules_line(F.rec, 0, NULL), XQ_EINVAL);
}

static void xq_record_ruling_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_ruling(NULL, 0, 0, &F.out), XQ_EINVAL);
}

static void xq_record_set_broken_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_set_broken(NULL, NULL), XQ_EINVAL);
}

static void xq_record_set_comment_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_set_comment(NULL, 0, NULL), XQ_EINVAL);
}

static void xq_record_set_result_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_set_result(NULL, "1-0"), XQ_EINVAL);
	assert_int_equal(xq_record_set_result(F.rec2, NULL), XQ_EINVAL);
}

static void xq_record_set_start_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_set_start(NULL, F.pos), XQ_EINVAL);
	assert_int_equal(xq_record_set_start(F.rec2, NULL), XQ_EINVAL);
}

static void xq_record_set_tag_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_set_tag(NULL, "Event", "x"), XQ_EINVAL);
	assert_int_equal(xq_record_set_tag(F.rec2, NULL, "x"), XQ_EINVAL);
	assert_int_equal(xq_record_set_tag(F.rec2, "Event", NULL), XQ_EINVAL);
}

static void xq_record_start_fen_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_start_fen(NULL, F.text, sizeof(F.text)) == 0);
	assert_true(xq_record_start_fen(F.rec, NULL, sizeof(F.text)) == 0);
}

static void xq_record_start_text_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_start_text(NULL));
}

static void xq_record_tag_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_tag(NULL, "Event"));
	assert_null(xq_record_tag(F.rec, NULL));
}

static void xq_record_tag_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_record_tag_count(NULL) == 0);
}

static void xq_record_tag_name_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_tag_name(NULL, 0));
}

static void xq_record_tag_value_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_record_tag_value(NULL, 0));
}

static void xq_record_validate_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_validate(NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_rules_line_cycle_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_rules_line_cycle(NULL, 1, &F.s1, &F.s2) == 0);
}

static void xq_rules_line_describe_cycle_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_rules_line_describe_cycle(NULL, 1, &F.out), XQ_EINVAL);
	assert_int_equal(xq_rules_line_describe_cycle(F.line, 1, NULL), XQ_EINVAL);
}

static void xq_rules_line_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_rules_line_free(NULL);
	F.survived++;
}

static void xq_rules_line_limit_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_rules_line_limit(NULL, 1, 0, &F.out), XQ_EINVAL);
	assert_int_equal(xq_rules_line_limit(F.line, 1, 0, NULL), XQ_EINVAL);
}

static void xq_rules_line_plies_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_rules_line_plies(NULL) == 0);
}

static void xq_ruleset_from_name_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_ruleset_from_name(NULL), XQ_EINVAL);
}

static void xq_size_parse_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_size_parse(NULL, &F.u64), XQ_EINVAL);
	assert_int_equal(xq_size_parse("256M", NULL), XQ_EINVAL);
}

static void xq_utf8_check_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_utf8_check(NULL, 1) == 0);
}

static void xq_utf8_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_utf8_count(NULL, 1) == 0);
}

static void xq_utf8_decode_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_utf8_decode(NULL, 1, &F.u32) == 0);
	assert_true(xq_utf8_decode("x", 1, NULL) == 0);
}

static void xq_utf8_encode_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_utf8_encode(0x4E2D, NULL) == 0);
}

static void xq_utf8_valid_prefix_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_utf8_valid_prefix(NULL, 1) == 0);
}

/* Public functions of these headers that take no pointer: nothing to refuse. */
static const char *const no_pointer[] = {
	NO_POINTER(xq_dialect_name),
	NO_POINTER(xq_json_new),
	NO_POINTER(xq_json_type_name),
	NO_POINTER(xq_move_code_mirror),
	NO_POINTER(xq_position_new),
	NO_POINTER(xq_record_new),
	NO_POINTER(xq_ruleset_name),
	NO_POINTER(xq_version),
	NO_POINTER(xq_version_number),
};

/* Every call on NULL that does nothing returned. */
static void every_call_that_does_nothing_with_null_returned(void **state)
{
	(void)state;
	assert_int_equal(F.survived, 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xq_alloc_grow_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostics_add_about_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostics_report_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostics_vreport_on_null_returns_einval),
		cmocka_unit_test(xq_dialect_from_name_on_null_returns_einval),
		cmocka_unit_test(xq_json_column_on_null_returns_0),
		cmocka_unit_test(xq_json_count_on_null_returns_0),
		cmocka_unit_test(xq_json_error_message_on_null_returns_an_empty_string),
		cmocka_unit_test(xq_json_error_offset_on_null_returns_0),
		cmocka_unit_test(xq_json_free_on_null_does_nothing),
		cmocka_unit_test(xq_json_member_on_null_returns_0),
		cmocka_unit_test(xq_json_next_on_null_returns_0),
		cmocka_unit_test(xq_json_number_on_null_returns_einval),
		cmocka_unit_test(xq_json_offset_on_null_returns_0),
		cmocka_unit_test(xq_json_parse_on_null_returns_einval),
		cmocka_unit_test(xq_json_string_on_null_returns_einval),
		cmocka_unit_test(xq_json_text_on_null_returns_null),
		cmocka_unit_test(xq_json_type_on_null_returns_minus_1),
		cmocka_unit_test(xq_json_uint_on_null_returns_einval),
		cmocka_unit_test(xq_move_code_iccs_on_null_returns_0),
		cmocka_unit_test(xq_position_copy_on_null_does_nothing),
		cmocka_unit_test(xq_position_dup_on_null_returns_null),
		cmocka_unit_test(xq_position_error_on_null_returns_null),
		cmocka_unit_test(xq_position_fen_on_null_returns_0),
		cmocka_unit_test(xq_position_free_on_null_does_nothing),
		cmocka_unit_test(xq_position_in_check_on_null_returns_0),
		cmocka_unit_test(xq_position_key_on_null_returns_0),
		cmocka_unit_test(xq_position_legal_moves_on_null_returns_einval),
		cmocka_unit_test(xq_position_material_on_null_does_nothing),
		cmocka_unit_test(xq_position_mirror_on_null_does_nothing),
		cmocka_unit_test(xq_position_move_number_on_null_returns_einval),
		cmocka_unit_test(xq_position_move_text_on_null_returns_0),
		cmocka_unit_test(xq_position_perft_on_null_returns_0),
		cmocka_unit_test(xq_position_perft_cancel_on_null_returns_einval),
		cmocka_unit_test(xq_position_piece_on_null_returns_0),
		cmocka_unit_test(xq_position_play_on_null_returns_einval),
		cmocka_unit_test(xq_position_play_text_on_null_returns_einval),
		cmocka_unit_test(xq_position_read_move_on_null_returns_einval),
		cmocka_unit_test(xq_position_same_on_null_returns_0),
		cmocka_unit_test(xq_position_set_fen_on_null_returns_einval),
		cmocka_unit_test(xq_position_set_fen_lenient_on_null_returns_einval),
		cmocka_unit_test(xq_position_set_start_on_null_does_nothing),
		cmocka_unit_test(xq_position_side_on_null_returns_einval),
		cmocka_unit_test(xq_position_state_on_null_returns_einval),
		cmocka_unit_test(xq_record_add_move_on_null_returns_einval),
		cmocka_unit_test(xq_record_add_move_text_on_null_returns_einval),
		cmocka_unit_test(xq_record_add_nag_on_null_returns_einval),
		cmocka_unit_test(xq_record_check_result_on_null_returns_einval),
		cmocka_unit_test(xq_record_encoding_on_null_returns_null),
		cmocka_unit_test(xq_record_equal_on_null_returns_0),
		cmocka_unit_test(xq_record_error_on_null_returns_null),
		cmocka_unit_test(xq_record_fingerprint_on_null_returns_0),
		cmocka_unit_test(xq_record_free_on_null_does_nothing),
		cmocka_unit_test(xq_record_has_result_on_null_returns_0),
		cmocka_unit_test(xq_record_is_broken_on_null_returns_0),
		cmocka_unit_test(xq_record_is_cut_on_null_returns_0),
		cmocka_unit_test(xq_record_is_empty_on_null_returns_0),
		cmocka_unit_test(xq_record_mainline_length_on_null_returns_0),
		cmocka_unit_test(xq_record_mainline_text_on_null_returns_null),
		cmocka_unit_test(xq_record_node_child_on_null_returns_no_node),
		cmocka_unit_test(xq_record_node_comment_on_null_returns_null),
		cmocka_unit_test(xq_record_node_count_on_null_returns_0),
		cmocka_unit_test(xq_record_node_fen_on_null_returns_0),
		cmocka_unit_test(xq_record_node_move_on_null_returns_0),
		cmocka_unit_test(xq_record_node_move_text_on_null_returns_0),
		cmocka_unit_test(xq_record_node_nag_on_null_returns_0),
		cmocka_unit_test(xq_record_node_nag_count_on_null_returns_0),
		cmocka_unit_test(xq_record_node_parent_on_null_returns_no_node),
		cmocka_unit_test(xq_record_node_place_on_null_returns_einval),
		cmocka_unit_test(xq_record_node_ply_on_null_returns_0),
		cmocka_unit_test(xq_record_node_position_on_null_returns_einval),
		cmocka_unit_test(xq_record_node_pre_comment_on_null_returns_null),
		cmocka_unit_test(xq_record_node_sibling_on_null_returns_no_node),
		cmocka_unit_test(xq_record_node_source_text_on_null_returns_null),
		cmocka_unit_test(xq_record_number_on_null_returns_0),
		cmocka_unit_test(xq_record_origin_on_null_says_nothing_is_known),
		cmocka_unit_test(xq_record_place_on_null_zeroes_its_outputs),
		cmocka_unit_test(xq_record_remove_tag_on_null_returns_einval),
		cmocka_unit_test(xq_record_remove_tags_on_null_returns_0),
		cmocka_unit_test(xq_record_result_on_null_returns_null),
		cmocka_unit_test(xq_record_result_tag_stands_on_null_returns_0),
		cmocka_unit_test(xq_record_result_text_on_null_returns_null),
		cmocka_unit_test(xq_record_rules_line_on_null_returns_einval),
		cmocka_unit_test(xq_record_ruling_on_null_returns_einval),
		cmocka_unit_test(xq_record_set_broken_on_null_returns_einval),
		cmocka_unit_test(xq_record_set_comment_on_null_returns_einval),
		cmocka_unit_test(xq_record_set_result_on_null_returns_einval),
		cmocka_unit_test(xq_record_set_start_on_null_returns_einval),
		cmocka_unit_test(xq_record_set_tag_on_null_returns_einval),
		cmocka_unit_test(xq_record_start_fen_on_null_returns_0),
		cmocka_unit_test(xq_record_start_text_on_null_returns_null),
		cmocka_unit_test(xq_record_tag_on_null_returns_null),
		cmocka_unit_test(xq_record_tag_count_on_null_returns_0),
		cmocka_unit_test(xq_record_tag_name_on_null_returns_null),
		cmocka_unit_test(xq_record_tag_value_on_null_returns_null),
		cmocka_unit_test(xq_record_validate_on_null_returns_einval),
		cmocka_unit_test(xq_rules_line_cycle_on_null_returns_0),
		cmocka_unit_test(xq_rules_line_describe_cycle_on_null_returns_einval),
		cmocka_unit_test(xq_rules_line_free_on_null_does_nothing),
		cmocka_unit_test(xq_rules_line_limit_on_null_returns_einval),
		cmocka_unit_test(xq_rules_line_plies_on_null_returns_0),
		cmocka_unit_test(xq_ruleset_from_name_on_null_returns_einval),
		cmocka_unit_test(xq_size_parse_on_null_returns_einval),
		cmocka_unit_test(xq_utf8_check_on_null_returns_0),
		cmocka_unit_test(xq_utf8_count_on_null_returns_0),
		cmocka_unit_test(xq_utf8_decode_on_null_returns_0),
		cmocka_unit_test(xq_utf8_encode_on_null_returns_0),
		cmocka_unit_test(xq_utf8_valid_prefix_on_null_returns_0),
		cmocka_unit_test(every_call_that_does_nothing_with_null_returned),
	};

	(void)no_pointer;
	return cmocka_run_group_tests(tests, setup, teardown);
}
