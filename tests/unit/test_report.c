/*
 * test_report.c: what cmd/report.c decides alone: when text diagnostics
 * are coloured (--color, NO_COLOR, a terminal, as git and ripgrep do) and
 * how, and what a diagnostic's label holds.  The cmd/ source is compiled into this test (unit tests link only
 * libxq); a pseudo-terminal stands for the user's terminal.
 */
#define _XOPEN_SOURCE 700
#include "testutil.h"

#include <fcntl.h>

#include "diagnostic.h"
#include "report.c"

/* report.c clears the progress line before writing; no test shows one. */
void progress_clear(void)
{
}

/* A terminal's file descriptor (the far side of a new pseudo-terminal). */
static int open_terminal(int *master)
{
	const char *name;

	*master = posix_openpt(O_RDWR | O_NOCTTY);
	if (*master < 0 || grantpt(*master) || unlockpt(*master) || !(name = ptsname(*master)))
		return -1;
	return open(name, O_RDWR | O_NOCTTY);
}

static int color_with(enum color_when when, const char *no_color, int fd)
{
	struct input_opts o;

	memset(&o, 0, sizeof(o));
	o.color = when;
	if (no_color)
		setenv("NO_COLOR", no_color, 1);
	else
		unsetenv("NO_COLOR");
	return report_use_color(&o, fd);
}

static void auto_colours_a_terminal_unless_no_color_is_set(void **state)
{
	int master, tty = open_terminal(&master);

	(void)state;
	if (tty < 0) {
		TEST_SKIP("no pseudo-terminal here");
		return;
	}
	setenv("TERM", "xterm", 1);
	assert_true(color_with(COLOR_AUTO, NULL, tty));
	assert_false(color_with(COLOR_AUTO, "1", tty));
	assert_true(color_with(COLOR_AUTO, "", tty)); /* empty is unset, as no-color.org says */
	setenv("TERM", "dumb", 1);
	assert_false(color_with(COLOR_AUTO, NULL, tty));
	close(tty);
	close(master);
}

static void auto_never_colours_a_file_or_a_pipe(void **state)
{
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_false(color_with(COLOR_AUTO, NULL, fds[1]));
	close(fds[0]);
	close(fds[1]);
}

static void always_and_never_win_over_the_terminal_and_no_color(void **state)
{
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_true(color_with(COLOR_ALWAYS, "1", fds[1]));
	assert_false(color_with(COLOR_NEVER, NULL, fds[1]));
	close(fds[0]);
	close(fds[1]);
}

/* A diagnostic of a.pgn at `line`:`col`, in game `game` (0: none). */
static void diag_at(struct xq_diagnostic *d, uint64_t line, uint64_t col, uint64_t game)
{
	xqi_diagnostic_init(d);
	d->source = "a.pgn";
	d->place.line = line;
	d->place.col = col;
	d->game = game;
}

static void only_the_severity_word_is_coloured(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;
	struct xq_diagnostic d;

	(void)state;
	diag_at(&d, 3, 5, 0);
	xqi_diagnostic_set(&d, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, "illegal");
	assert_int_equal(report_text_color(&b, &d, 0, 1), 0);
	xq_buf_addc(&b, '\0');
	assert_string_equal(b.ptr, "a.pgn:3:5: \033[01;31merror\033[m: illegal [illegal-move]\n");
	xq_buf_reset(&b);
	assert_int_equal(report_text_color(&b, &d, 0, 0), 0);
	xq_buf_addc(&b, '\0');
	assert_string_equal(b.ptr, "a.pgn:3:5: error: illegal [illegal-move]\n");
	xq_buf_release(&b);
}

/* validate --strict: a note is counted and written as an error, and the
 * diagnostic itself (the job's, the library's) stays a note. */
static void strict_reports_a_note_as_an_error_and_leaves_the_diagnostic_a_note(void **state)
{
	struct input_opts o;
	struct reporter r;
	struct xq_diagnostic d;

	(void)state;
	memset(&o, 0, sizeof(o));
	o.fmt = REPORT_TEXT;
	o.color = COLOR_NEVER;
	reporter_init(&r, "validate", &o);
	r.strict = 1;
	diag_at(&d, 2, 1, 1);
	xqi_diagnostic_set(&d, 0, XQI_D_RESIGNATION, XQ_SEVERITY_NOTE, "decisive result without mate");
	assert_int_equal(reporter_diag(&r, &d, 0), XQ_SEVERITY_ERROR);
	assert_int_equal(d.severity, XQ_SEVERITY_NOTE);
	assert_int_equal(r.counts.by_sev[XQ_SEVERITY_ERROR], 1);
	assert_int_equal(r.counts.by_sev[XQ_SEVERITY_NOTE], 0);
	xq_buf_addc(&r.err, '\0');
	assert_string_equal(r.err.ptr, "a.pgn:2:1: error: game 1: decisive result without mate [resignation]\n");
	r.strict = 0;
	assert_int_equal(reporter_diag(&r, &d, 0), XQ_SEVERITY_NOTE);
	assert_int_equal(r.counts.by_sev[XQ_SEVERITY_NOTE], 1);
	reporter_release(&r);
}

static void a_buffer_whose_appends_failed_is_not_written_half(void **state)
{
	struct xq_buf b = XQ_BUF_INIT;
	int fds[2], saved = dup(1);
	char got[64];
	ssize_t n;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(fcntl(fds[0], F_SETFL, O_NONBLOCK), 0);
	fflush(stdout);
	dup2(fds[1], 1);
	assert_false(report_output_lost());
	xq_buf_adds(&b, "{\"schema\":\"xqkit.diag/1\",\"mess");
	b.err = XQ_ENOMEM; /* as when the next append found no memory */
	report_flush_out(&b);
	xq_buf_adds(&b, "whole\n");
	report_flush_out(&b);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	n = read(fds[0], got, sizeof(got) - 1);
	assert_int_equal(n, 6);
	got[n] = '\0';
	assert_string_equal(got, "whole\n"); /* the half record never came */
	assert_true(report_output_lost());
	close(fds[0]);
	close(fds[1]);
	xq_buf_release(&b);
}

/* The counts are sized at compile time: every code the library has fits,
 * and a summary lists them by name in the library's order. */
static void every_code_of_the_library_is_counted_by_its_name(void **state)
{
	struct report_counts c;
	struct xq_buf b = XQ_BUF_INIT;
	struct xq_diagnostic d;
	int n = 0;

	(void)state;
	while (xq_diagnostic_code_name(n))
		n++;
	assert_true(n > 30);
	assert_true(n <= REPORT_CODES);
	memset(&c, 0, sizeof(c));
	diag_at(&d, 1, 1, 1);
	xqi_diagnostic_set(&d, 0, XQI_D_RESOURCE, XQ_SEVERITY_WARNING, "deep");
	report_count(&c, &d);
	report_count(&c, &d);
	xqi_diagnostic_set(&d, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR, "no");
	report_count(&c, &d);
	assert_int_equal(report_codes_json(&b, &c), 0);
	xq_buf_addc(&b, '\0');
	assert_string_equal(b.ptr, "{\"illegal-move\":1,\"resource\":2}");
	xq_buf_reset(&b);
	assert_int_equal(report_codes_text(&b, &c, XQ_SEVERITY_WARNING), 0);
	xq_buf_addc(&b, '\0');
	assert_string_equal(b.ptr, "resource 2");
	xq_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(auto_colours_a_terminal_unless_no_color_is_set),
		cmocka_unit_test(auto_never_colours_a_file_or_a_pipe),
		cmocka_unit_test(always_and_never_win_over_the_terminal_and_no_color),
		cmocka_unit_test(only_the_severity_word_is_coloured),
		cmocka_unit_test(strict_reports_a_note_as_an_error_and_leaves_the_diagnostic_a_note),
		cmocka_unit_test(a_buffer_whose_appends_failed_is_not_written_half),
		cmocka_unit_test(every_code_of_the_library_is_counted_by_its_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
