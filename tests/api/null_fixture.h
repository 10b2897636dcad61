/*
 * null_fixture.h: what the NULL tests of the public API (test_null_*.c)
 * share: the valid arguments each call takes beside its NULL one, made
 * once for a group of tests.
 */
#ifndef XQI_TESTS_API_NULL_FIXTURE_H
#define XQI_TESTS_API_NULL_FIXTURE_H

#include <stdarg.h>

#include <xq/xq.h>

#define PGN_PATH "tests/data/pgn/utf8-bom-iccs.pgn"
#define PGN_TEXT "[Event \"e\"]\n\n1. h2e2 h9g7 *\n"
#define START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
#define NO_POINTER(fn) #fn

/* The valid arguments the calls take beside their NULL one. */
static struct {
	xq_record *rec, *rec2, *rec_out;
	xq_position *pos, *pos2;
	xq_move_code moves[1], mc, codes_arr[XQ_MOVES_MAX];
	xq_analyser *an, *an_out;
	xq_analysis_result res;
	xq_batch_config cfg;
	xq_buf buf, fbuf;
	xq_ecco_codes *codes, *codes_out;
	xq_diagnostics *diags;
	const xq_diagnostic *diag;
	xq_file *file, *file_out;
	xq_writer *writer, *writer_out;
	xq_write_options wo;
	xq_reader *reader, *reader_out;
	xq_stream *stream, *stream_out;
	xq_cancel *cancel;
	xq_json *json;
	xq_rules_line *line, *line_out;
	xq_date date;
	xq_proof proof;
	char text[256], *out;
	void *out_void;
	const char *s1, *s2, *s3;
	int i1, i2, i3, counts[14], *arr;
	unsigned u;
	uint32_t u32;
	uint64_t u64, u64b, u64c;
	int64_t i64;
	size_t sz, arr_alloc;
	double dbl;
	const char *nofmt; /* always NULL */
	int survived; /* calls on NULL that do nothing, and returned */
} F;

static inline int vaddf(xq_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = xq_buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

static inline int vreport(xq_diagnostics *l, const xq_diagnostic_about *about, int severity,
			  const char *code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = xq_diagnostics_vreport(l, about, severity, code, fmt, ap);
	va_end(ap);
	return rc;
}

/* A writer to hand xq_writer_close_memory(), which frees it in every case. */
static inline xq_writer *new_writer(void)
{
	xq_writer *w;

	assert_int_equal(xq_writer_open_memory(&w, &F.wo, NULL, NULL), 0);
	return w;
}

static int setup(void **state)
{
	xq_reader *rd;

	(void)state;
	xq_buf_init(&F.buf);
	xq_buf_init(&F.fbuf);
	F.wo = (xq_write_options)XQ_WRITE_OPTIONS_INIT;
	F.wo.format = "pgn";
	F.res = (xq_analysis_result)XQ_ANALYSIS_RESULT_INIT;
	F.cfg = (xq_batch_config)XQ_BATCH_CONFIG_INIT;
	if (xq_reader_open_memory(&rd, "null.pgn", PGN_TEXT, sizeof(PGN_TEXT) - 1, NULL, NULL, NULL) ||
	    xq_reader_next(rd, &F.rec) != 1)
		return -1;
	xq_reader_close(rd);
	F.rec2 = xq_record_new();
	F.pos = xq_position_new();
	F.pos2 = xq_position_new();
	F.moves[0] = XQ_MOVE_CODE(XQ_SQUARE(7, 2), XQ_SQUARE(4, 2)); /* h2e2 */
	F.diags = xq_diagnostics_new();
	F.cancel = xq_cancel_new();
	F.json = xq_json_new();
	if (!F.rec2 || !F.pos || !F.pos2 || !F.diags || !F.cancel || !F.json ||
	    xq_diagnostics_report(F.diags, NULL, XQ_SEVERITY_NOTE, "none", "a note") ||
	    !(F.diag = xq_diagnostics_at(F.diags, 0)) || xq_json_parse(F.json, "{\"a\":1}", 7) ||
	    xq_analyser_new_builtin(&F.an, 1) || xq_ecco_codes_parse(&F.codes, "C4", NULL, NULL, 0) ||
	    xq_file_open_buf(&F.file, &F.fbuf) || xq_writer_open_memory(&F.writer, &F.wo, NULL, NULL) ||
	    xq_reader_open(&F.reader, PGN_PATH, NULL, NULL, NULL) ||
	    xq_stream_open(&F.stream, PGN_PATH, NULL, NULL, NULL) ||
	    xq_record_rules_line(F.rec, 0, &F.line))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	xq_record_free(F.rec);
	xq_record_free(F.rec2);
	xq_position_free(F.pos);
	xq_position_free(F.pos2);
	xq_diagnostics_free(F.diags);
	xq_cancel_free(F.cancel);
	xq_json_free(F.json);
	xq_analyser_free(F.an);
	xq_ecco_codes_free(F.codes);
	xq_file_abort(F.file);
	xq_writer_abort(F.writer);
	xq_reader_close(F.reader);
	xq_stream_close(F.stream);
	xq_rules_line_free(F.line);
	xq_buf_release(&F.buf);
	xq_buf_release(&F.fbuf);
	free(F.arr);
	return 0;
}

#endif
