/*
 * annotate_engine.c: --engine auto, the engine annotate finds for itself
 * (see annotate_engine.h).
 */
#include "annotate_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "report.h"
#include <xq/analyse.h>
#include <xq/position.h>

/* The program `name` in a directory of $PATH, into `out`; 1 when found. */
static int on_path(const char *name, char *out, size_t cap)
{
	const char *path = getenv("PATH");

	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		int n = snprintf(out, cap, "%.*s/%s", (int)len, len ? path : ".", name);
		if (n > 0 && (size_t)n < cap && access(out, X_OK) == 0)
			return 1;
		path = end ? end + 1 : NULL;
	}
	return 0;
}

/* Does the engine `path` start and analyse the start position? */
static int engine_works(const char *path, uint32_t timeout_ms)
{
	xq_analyser_options o = XQ_ANALYSER_OPTIONS_INIT;
	xq_analysis_result res = XQ_ANALYSIS_RESULT_INIT;
	struct report_message m = {""};
	xq_analyser *a = NULL;
	xq_position *start = xq_position_new();
	int ok = 0;

	o.program = path;
	o.timeout_ms = timeout_ms;
	o.cancel = cmd_stop;
	if (start && xq_analyser_open(&a, &o, report_keep_message, &m) == 0) {
		xq_position_set_start(start);
		ok = xq_analyser_run_line(a, start, NULL, 0, 1, 0, 0, &res, report_keep_message, &m) == 0;
	}
	if (!ok && !cmd_signal)
		cmd_warning("--engine auto: passing over '%s': %s", path, m.msg[0] ? m.msg : "out of memory");
	xq_analyser_free(a);
	xq_position_free(start);
	return ok;
}

const char *annotate_find_engine(uint32_t timeout_ms, char *buf, size_t cap)
{
	static const char *const env[2] = {"PIKAFISH", "FAIRY_STOCKFISH"};
	static const char *const name[2] = {"pikafish", "fairy-stockfish"};

	for (int i = 0; i < 2 && !cmd_signal; i++) {
		const char *v = getenv(env[i]);
		int found;
		if (v && *v)
			found = snprintf(buf, cap, "%s", v) < (int)cap && access(buf, X_OK) == 0;
		else
			found = on_path(name[i], buf, cap) ||
				(i == 1 && snprintf(buf, cap, "/usr/games/fairy-stockfish") > 0 &&
				 access(buf, X_OK) == 0);
		if (found && engine_works(buf, timeout_ms))
			return buf;
	}
	return NULL;
}
