/*
 * test_null_io.c: every public function of <xq/io.h>, <xq/file.h>, <xq/error.h> and the other headers up to <xq/fix.h> with a NULL where it takes
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

/* The one function whose object only a batch hands out: a job. */
static int swap_null(void *ctx, xq_batch_job *job)
{
	(void)ctx;
	if (job->kind == XQ_BATCH_GAME) {
		xq_batch_job_swap_record(job, NULL);
		F.survived++;
	}
	return 0;
}

static void xq_batch_job_swap_record_on_null_does_nothing(void **state)
{
	static const char *const paths[] = {PGN_PATH};
	xq_batch_config cfg = XQ_BATCH_CONFIG_INIT;

	(void)state;
	xq_batch_job_swap_record(NULL, F.rec2);
	F.survived++;
	cfg.paths = paths;
	cfg.n_paths = 1;
	cfg.emit = swap_null;
	assert_int_equal(xq_batch_run(&cfg), 0);
}

/* ---- one test a public function (the NULL arguments it does not take) ---- */

static void xq_analyser_check_setting_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_check_setting(NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_analyser_description_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_analyser_description(NULL));
}

static void xq_analyser_cp_scale_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_cp_scale(NULL), XQ_EINVAL);
}

static void xq_analyser_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_analyser_free(NULL);
	F.survived++;
}

static void xq_analyser_is_running_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_analyser_is_running(NULL) == 0);
}

static void xq_analyser_new_builtin_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_new_builtin(NULL, 1), XQ_EINVAL);
}

static void xq_analyser_new_program_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_new_program(NULL, "/nonexistent/engine", NULL, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_new_program(&F.an_out, NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_analyser_open_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_open(NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_analyser_protocol_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_analyser_protocol(NULL));
}

static void xq_analyser_restart_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_restart(NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_analyser_run_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_run(NULL, F.rec, 0, 1, 0, 0, &F.res, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_run(F.an, NULL, 0, 1, 0, 0, &F.res, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_run(F.an, F.rec, 0, 1, 0, 0, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_analyser_run_line_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_analyser_run_line(NULL, F.pos, F.moves, 1, 1, 0, 0, &F.res, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_run_line(F.an, NULL, F.moves, 1, 1, 0, 0, &F.res, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_run_line(F.an, F.pos, NULL, 1, 1, 0, 0, &F.res, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_analyser_run_line(F.an, F.pos, F.moves, 1, 1, 0, 0, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_batch_run_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_batch_run(NULL), XQ_EINVAL);
}

static void xq_buf_add_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_add(NULL, "x", 1), XQ_EINVAL);
	assert_int_equal(xq_buf_add(&F.buf, NULL, 1), XQ_EINVAL);
}

static void xq_buf_add_json_string_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_add_json_string(NULL, "x", 1), XQ_EINVAL);
	assert_int_equal(xq_buf_add_json_string(&F.buf, NULL, 1), XQ_EINVAL);
}

static void xq_buf_add_ndjson_source_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_add_ndjson_source(NULL, "a.pgn", 1, 1, 0), XQ_EINVAL);
}

static void xq_buf_addc_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_addc(NULL, 'x'), XQ_EINVAL);
}

static void xq_buf_addf_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_addf(NULL, "%d", 1), XQ_EINVAL);
	assert_int_equal(xq_buf_addf(&F.buf, F.nofmt, 1), XQ_EINVAL);
}

static void xq_buf_adds_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_adds(NULL, "x"), XQ_EINVAL);
	assert_int_equal(xq_buf_adds(&F.buf, NULL), XQ_EINVAL);
}

static void xq_buf_detach_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_buf_detach(NULL, &F.sz));
}

static void xq_buf_grow_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_buf_grow(NULL, 1), XQ_EINVAL);
}

static void xq_buf_init_on_null_does_nothing(void **state)
{
	(void)state;
	xq_buf_init(NULL);
	F.survived++;
}

static void xq_buf_release_on_null_does_nothing(void **state)
{
	(void)state;
	xq_buf_release(NULL);
	F.survived++;
}

static void xq_buf_reset_on_null_does_nothing(void **state)
{
	(void)state;
	xq_buf_reset(NULL);
	F.survived++;
}

static void xq_buf_truncate_on_null_does_nothing(void **state)
{
	(void)state;
	xq_buf_truncate(NULL, 0);
	F.survived++;
}

static void xq_buf_vaddf_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(vaddf(NULL, "%d"), XQ_EINVAL);
	assert_int_equal(vaddf(&F.buf, NULL), XQ_EINVAL);
}

static void xq_cancel_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_cancel_free(NULL);
	F.survived++;
}

static void xq_cancel_is_set_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_cancel_is_set(NULL) == 0);
}

static void xq_cancel_set_on_null_does_nothing(void **state)
{
	(void)state;
	xq_cancel_set(NULL);
	F.survived++;
}

static void xq_date_normalize_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_date_normalize(NULL, "1999.03.05", 10), XQ_EINVAL);
	assert_int_equal(xq_date_normalize(&F.date, NULL, 10), XQ_EINVAL);
}

static void xq_diagnostic_code_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostic_code(NULL));
}

static void xq_diagnostic_code_index_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_diagnostic_code_index(NULL), XQ_EINVAL);
}

static void xq_diagnostic_column_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_column(NULL) == 0);
}

static void xq_diagnostic_fix_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_fix(NULL, &F.s1, &F.s2, &F.s3) == 0);
}

static void xq_diagnostic_format_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_format(NULL, F.text, sizeof(F.text)) == 0);
	assert_true(xq_diagnostic_format(F.diag, NULL, sizeof(F.text)) == 0);
}

static void xq_diagnostic_game_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_game(NULL) == 0);
}

static void xq_diagnostic_line_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_line(NULL) == 0);
}

static void xq_diagnostic_message_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostic_message(NULL));
}

static void xq_diagnostic_move_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostic_move(NULL));
}

static void xq_diagnostic_offset_on_null_returns_minus_1(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_offset(NULL) == -1);
}

static void xq_diagnostic_ply_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostic_ply(NULL) == 0);
}

static void xq_diagnostic_severity_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_diagnostic_severity(NULL), XQ_EINVAL);
}

static void xq_diagnostic_severity_name_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostic_severity_name(NULL));
}

static void xq_diagnostic_source_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostic_source(NULL));
}

static void xq_diagnostics_add_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_diagnostics_add(NULL, F.diag), XQ_EINVAL);
	assert_int_equal(xq_diagnostics_add(F.diags, NULL), XQ_EINVAL);
}

static void xq_diagnostics_at_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_diagnostics_at(NULL, 0));
}

static void xq_diagnostics_collect_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_collect(NULL, F.diags);
	F.survived++;
	xq_diagnostics_collect(F.diag, NULL);
	F.survived++;
}

static void xq_diagnostics_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostics_count(NULL) == 0);
}

static void xq_diagnostics_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_free(NULL);
	F.survived++;
}

static void xq_diagnostics_keep_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_keep(NULL, 0);
	F.survived++;
}

static void xq_diagnostics_lost_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_diagnostics_lost(NULL) == 0);
}

static void xq_diagnostics_move_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_move(NULL, 0, 0);
	F.survived++;
}

static void xq_diagnostics_set_severity_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_set_severity(NULL, 0, 2);
	F.survived++;
}

static void xq_diagnostics_truncate_on_null_does_nothing(void **state)
{
	(void)state;
	xq_diagnostics_truncate(NULL, 5);
	F.survived++;
}

static void xq_ecco_codes_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_ecco_codes_free(NULL);
	F.survived++;
}

static void xq_ecco_codes_has_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_ecco_codes_has(NULL, "C45") == 0);
	assert_true(xq_ecco_codes_has(F.codes, NULL) == 0);
}

static void xq_ecco_codes_parse_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_ecco_codes_parse(NULL, "C4", NULL, NULL, 0), XQ_EINVAL);
	assert_int_equal(xq_ecco_codes_parse(&F.codes_out, NULL, NULL, NULL, 0), XQ_EINVAL);
}

static void xq_ecco_name_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_ecco_name(NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_ecco_of_line_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_ecco_of_line(NULL, F.moves, 1, NULL, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_ecco_of_line(F.pos, NULL, 1, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_encoding_canonical_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_encoding_canonical(NULL));
}

static void xq_eval_note_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_eval_note(NULL, sizeof(F.text), XQ_EVAL_CP, 35, 12, 0) == 0);
}

static void xq_eval_note_find_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_eval_note_find(NULL, &F.i1, &F.i2, &F.i3) == 0);
}

static void xq_file_abort_on_null_does_nothing(void **state)
{
	(void)state;
	xq_file_abort(NULL);
	F.survived++;
}

static void xq_file_check_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_check(NULL, 0, NULL, NULL), XQ_EINVAL);
}

static void xq_file_commit_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_commit(NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_file_name_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_file_name(NULL));
}

static void xq_file_open_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_open(NULL, "/nonexistent/dir/x.pgn", 0, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_file_open(&F.file_out, NULL, 0, NULL, NULL), XQ_EINVAL);
}

static void xq_file_open_buf_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_open_buf(NULL, &F.buf), XQ_EINVAL);
	assert_int_equal(xq_file_open_buf(&F.file_out, NULL), XQ_EINVAL);
}

static void xq_file_pass_to_on_null_returns_einval(void **state)
{
	xq_buf b = XQ_BUF_INIT;
	xq_file *f = NULL;

	(void)state;
	assert_int_equal(xq_file_pass_to(NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_file_open_buf(&f, &b), 0);
	assert_int_equal(xq_file_pass_to(f, NULL), XQ_EINVAL);
	assert_int_equal(xq_file_pass_to(NULL, f), XQ_EINVAL);
	xq_file_abort(f);
	xq_buf_release(&b);
}

static void xq_file_sync_dir_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_sync_dir(NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_file_write_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_file_write(NULL, "x", 1), XQ_EINVAL);
	assert_int_equal(xq_file_write(F.file, NULL, 1), XQ_EINVAL);
}

static void xq_format_canonical_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_format_canonical(NULL));
}

static void xq_format_info_on_null_takes_null_outputs(void **state)
{
	(void)state;
	assert_int_equal(xq_format_info(0, NULL, NULL, NULL), 0);
}

static void xq_format_names_on_null_takes_null_outputs(void **state)
{
	(void)state;
	assert_int_equal(xq_format_names(0, NULL, NULL), 0);
}

static void xq_format_renumber_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_format_renumber(NULL, &F.buf, F.rec, 1, 1), XQ_EINVAL);
	assert_int_equal(xq_format_renumber("ndjson", NULL, F.rec, 1, 1), XQ_EINVAL);
	assert_int_equal(xq_format_renumber("ndjson", &F.buf, NULL, 1, 1), XQ_EINVAL);
}

static void xq_format_separator_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_format_separator(NULL));
}

static void xq_free_on_null_does_nothing(void **state)
{
	(void)state;
	xq_free(NULL);
	F.survived++;
}

static void xq_position_diagram_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_position_diagram(NULL, NULL, &F.out, &F.sz), XQ_EINVAL);
	assert_int_equal(xq_position_diagram(F.pos, NULL, NULL, &F.sz), XQ_EINVAL);
}

static void xq_reader_close_on_null_does_nothing(void **state)
{
	(void)state;
	xq_reader_close(NULL);
	F.survived++;
}

static void xq_reader_count_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_reader_count(NULL, 0) == 0);
}

static void xq_reader_format_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_reader_format(NULL));
}

static void xq_reader_is_gzip_on_null_returns_0(void **state)
{
	(void)state;
	assert_true(xq_reader_is_gzip(NULL) == 0);
}

static void xq_reader_next_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_reader_next(NULL, &F.rec_out), XQ_EINVAL);
	assert_int_equal(xq_reader_next(F.reader, NULL), XQ_EINVAL);
}

static void xq_reader_open_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_reader_open(NULL, PGN_PATH, NULL, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_reader_open(&F.reader_out, NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_reader_open_memory_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_reader_open_memory(NULL, NULL, PGN_TEXT, sizeof(PGN_TEXT) - 1, NULL, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_reader_open_memory(&F.reader_out, NULL, NULL, sizeof(PGN_TEXT) - 1, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_record_ecco_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_ecco(NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_record_prove_result_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_prove_result(NULL, -1, &F.proof), XQ_EINVAL);
	assert_int_equal(xq_record_prove_result(F.rec, -1, NULL), XQ_EINVAL);
}

static void xq_record_write_buf_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_record_write_buf(NULL, F.rec, &F.wo, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_record_write_buf(&F.buf, NULL, &F.wo, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_record_write_buf(&F.buf, F.rec, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_result_canonical_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_result_canonical(NULL));
}

static void xq_result_read_on_null_returns_null(void **state)
{
	(void)state;
	assert_null(xq_result_read(NULL, NULL));
	assert_string_equal(xq_result_read("红胜", NULL), "1-0"); /* NULL `r`: red moves first */
	assert_string_equal(xq_result_read("先负", NULL), "0-1");
}

static void xq_stream_close_on_null_does_nothing(void **state)
{
	(void)state;
	xq_stream_close(NULL);
	F.survived++;
}

static void xq_stream_open_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_stream_open(NULL, PGN_PATH, NULL, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_stream_open(&F.stream_out, NULL, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_stream_read_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_stream_read(NULL, F.text, sizeof(F.text)), XQ_EINVAL);
	assert_int_equal(xq_stream_read(F.stream, NULL, sizeof(F.text)), XQ_EINVAL);
}

static void xq_writer_abort_on_null_does_nothing(void **state)
{
	(void)state;
	xq_writer_abort(NULL);
	F.survived++;
}

static void xq_writer_close_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_close(NULL), XQ_EINVAL);
}

static void xq_writer_close_memory_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_close_memory(NULL, &F.out_void, &F.sz), XQ_EINVAL);
	assert_int_equal(xq_writer_close_memory(new_writer(), NULL, &F.sz), XQ_EINVAL);
	assert_int_equal(xq_writer_close_memory(new_writer(), &F.out_void, NULL), XQ_EINVAL);
}

static void xq_writer_open_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_open(NULL, "/nonexistent/dir/x.pgn", &F.wo, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_writer_open(&F.writer_out, NULL, &F.wo, NULL, NULL), XQ_EINVAL);
}

static void xq_writer_open_file_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_open_file(NULL, F.file, &F.wo, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_writer_open_file(&F.writer_out, NULL, &F.wo, NULL, NULL), XQ_EINVAL);
}

static void xq_writer_open_memory_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_open_memory(NULL, &F.wo, NULL, NULL), XQ_EINVAL);
	assert_int_equal(xq_writer_open_memory(&F.writer_out, NULL, NULL, NULL), XQ_EINVAL);
}

static void xq_writer_write_on_null_returns_einval(void **state)
{
	(void)state;
	assert_int_equal(xq_writer_write(NULL, F.rec), XQ_EINVAL);
	assert_int_equal(xq_writer_write(F.writer, NULL), XQ_EINVAL);
}

/* Public functions of these headers that take no pointer: nothing to refuse. */
static const char *const no_pointer[] = {
	NO_POINTER(xq_cancel_new),
	NO_POINTER(xq_diagnostic_code_name),
	NO_POINTER(xq_diagnostics_new),
	NO_POINTER(xq_error_string),
	NO_POINTER(xq_eval_loss),
	NO_POINTER(xq_eval_expected),
	NO_POINTER(xq_eval_drop),
};

/* Every call on NULL that does nothing returned (the batch's swap counts once a game of its input, which has one). */
static void every_call_that_does_nothing_with_null_returned(void **state)
{
	(void)state;
	assert_int_equal(F.survived, 22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xq_analyser_check_setting_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_description_on_null_returns_null),
		cmocka_unit_test(xq_analyser_cp_scale_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_free_on_null_does_nothing),
		cmocka_unit_test(xq_analyser_is_running_on_null_returns_0),
		cmocka_unit_test(xq_analyser_new_builtin_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_new_program_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_open_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_protocol_on_null_returns_null),
		cmocka_unit_test(xq_analyser_restart_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_run_line_on_null_returns_einval),
		cmocka_unit_test(xq_analyser_run_on_null_returns_einval),
		cmocka_unit_test(xq_batch_job_swap_record_on_null_does_nothing),
		cmocka_unit_test(xq_batch_run_on_null_returns_einval),
		cmocka_unit_test(xq_buf_add_json_string_on_null_returns_einval),
		cmocka_unit_test(xq_buf_add_ndjson_source_on_null_returns_einval),
		cmocka_unit_test(xq_buf_add_on_null_returns_einval),
		cmocka_unit_test(xq_buf_addc_on_null_returns_einval),
		cmocka_unit_test(xq_buf_addf_on_null_returns_einval),
		cmocka_unit_test(xq_buf_adds_on_null_returns_einval),
		cmocka_unit_test(xq_buf_detach_on_null_returns_null),
		cmocka_unit_test(xq_buf_grow_on_null_returns_einval),
		cmocka_unit_test(xq_buf_init_on_null_does_nothing),
		cmocka_unit_test(xq_buf_release_on_null_does_nothing),
		cmocka_unit_test(xq_buf_reset_on_null_does_nothing),
		cmocka_unit_test(xq_buf_truncate_on_null_does_nothing),
		cmocka_unit_test(xq_buf_vaddf_on_null_returns_einval),
		cmocka_unit_test(xq_cancel_free_on_null_does_nothing),
		cmocka_unit_test(xq_cancel_is_set_on_null_returns_0),
		cmocka_unit_test(xq_cancel_set_on_null_does_nothing),
		cmocka_unit_test(xq_date_normalize_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostic_code_index_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostic_code_on_null_returns_null),
		cmocka_unit_test(xq_diagnostic_column_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_fix_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_format_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_game_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_line_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_message_on_null_returns_null),
		cmocka_unit_test(xq_diagnostic_move_on_null_returns_null),
		cmocka_unit_test(xq_diagnostic_offset_on_null_returns_minus_1),
		cmocka_unit_test(xq_diagnostic_ply_on_null_returns_0),
		cmocka_unit_test(xq_diagnostic_severity_name_on_null_returns_null),
		cmocka_unit_test(xq_diagnostic_severity_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostic_source_on_null_returns_null),
		cmocka_unit_test(xq_diagnostics_add_on_null_returns_einval),
		cmocka_unit_test(xq_diagnostics_at_on_null_returns_null),
		cmocka_unit_test(xq_diagnostics_collect_on_null_does_nothing),
		cmocka_unit_test(xq_diagnostics_count_on_null_returns_0),
		cmocka_unit_test(xq_diagnostics_free_on_null_does_nothing),
		cmocka_unit_test(xq_diagnostics_keep_on_null_does_nothing),
		cmocka_unit_test(xq_diagnostics_lost_on_null_returns_0),
		cmocka_unit_test(xq_diagnostics_move_on_null_does_nothing),
		cmocka_unit_test(xq_diagnostics_set_severity_on_null_does_nothing),
		cmocka_unit_test(xq_diagnostics_truncate_on_null_does_nothing),
		cmocka_unit_test(xq_ecco_codes_free_on_null_does_nothing),
		cmocka_unit_test(xq_ecco_codes_has_on_null_returns_0),
		cmocka_unit_test(xq_ecco_codes_parse_on_null_returns_einval),
		cmocka_unit_test(xq_ecco_name_on_null_returns_einval),
		cmocka_unit_test(xq_ecco_of_line_on_null_returns_einval),
		cmocka_unit_test(xq_encoding_canonical_on_null_returns_null),
		cmocka_unit_test(xq_eval_note_find_on_null_returns_0),
		cmocka_unit_test(xq_eval_note_on_null_returns_0),
		cmocka_unit_test(xq_file_abort_on_null_does_nothing),
		cmocka_unit_test(xq_file_check_on_null_returns_einval),
		cmocka_unit_test(xq_file_commit_on_null_returns_einval),
		cmocka_unit_test(xq_file_name_on_null_returns_null),
		cmocka_unit_test(xq_file_open_buf_on_null_returns_einval),
		cmocka_unit_test(xq_file_pass_to_on_null_returns_einval),
		cmocka_unit_test(xq_file_open_on_null_returns_einval),
		cmocka_unit_test(xq_file_sync_dir_on_null_returns_einval),
		cmocka_unit_test(xq_file_write_on_null_returns_einval),
		cmocka_unit_test(xq_format_canonical_on_null_returns_null),
		cmocka_unit_test(xq_format_info_on_null_takes_null_outputs),
		cmocka_unit_test(xq_format_names_on_null_takes_null_outputs),
		cmocka_unit_test(xq_format_renumber_on_null_returns_einval),
		cmocka_unit_test(xq_format_separator_on_null_returns_null),
		cmocka_unit_test(xq_free_on_null_does_nothing),
		cmocka_unit_test(xq_position_diagram_on_null_returns_einval),
		cmocka_unit_test(xq_reader_close_on_null_does_nothing),
		cmocka_unit_test(xq_reader_count_on_null_returns_0),
		cmocka_unit_test(xq_reader_format_on_null_returns_null),
		cmocka_unit_test(xq_reader_is_gzip_on_null_returns_0),
		cmocka_unit_test(xq_reader_next_on_null_returns_einval),
		cmocka_unit_test(xq_reader_open_memory_on_null_returns_einval),
		cmocka_unit_test(xq_reader_open_on_null_returns_einval),
		cmocka_unit_test(xq_record_ecco_on_null_returns_einval),
		cmocka_unit_test(xq_record_prove_result_on_null_returns_einval),
		cmocka_unit_test(xq_record_write_buf_on_null_returns_einval),
		cmocka_unit_test(xq_result_canonical_on_null_returns_null),
		cmocka_unit_test(xq_result_read_on_null_returns_null),
		cmocka_unit_test(xq_stream_close_on_null_does_nothing),
		cmocka_unit_test(xq_stream_open_on_null_returns_einval),
		cmocka_unit_test(xq_stream_read_on_null_returns_einval),
		cmocka_unit_test(xq_writer_abort_on_null_does_nothing),
		cmocka_unit_test(xq_writer_close_memory_on_null_returns_einval),
		cmocka_unit_test(xq_writer_close_on_null_returns_einval),
		cmocka_unit_test(xq_writer_open_file_on_null_returns_einval),
		cmocka_unit_test(xq_writer_open_memory_on_null_returns_einval),
		cmocka_unit_test(xq_writer_open_on_null_returns_einval),
		cmocka_unit_test(xq_writer_write_on_null_returns_einval),
		cmocka_unit_test(every_call_that_does_nothing_with_null_returned),
	};

	(void)no_pointer;
	return cmocka_run_group_tests(tests, setup, teardown);
}
