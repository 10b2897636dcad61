/*
 * validate: read every record file in a folder (and below) and print each
 * problem with its place, as `xqkit validate` finds them: every move as it
 * is read, then what only the whole game shows (the start position, the
 * result against the final position and, under the Asian rules, against
 * a repetition or a move limit at the end, the tags), then a count.  Exit
 * status 1 when an error was found.
 *
 *   ./validate records/
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <xq/xq.h>

struct tally {
	unsigned long files, games, errors, warnings;
};

/* Print what `l` holds, count it, and empty it. */
static void show(xq_diagnostics *l, struct tally *t)
{
	char line[1024];

	for (size_t i = 0; i < xq_diagnostics_count(l); i++) {
		const xq_diagnostic *d = xq_diagnostics_at(l, i);
		if (xq_diagnostic_severity(d) == XQ_SEVERITY_ERROR)
			t->errors++;
		else if (xq_diagnostic_severity(d) == XQ_SEVERITY_WARNING)
			t->warnings++;
		xq_diagnostic_format(d, line, sizeof(line));
		printf("%s\n", line);
	}
	xq_diagnostics_truncate(l, 0);
}

static void check_file(const char *path, struct tally *t)
{
	xq_diagnostics *l = xq_diagnostics_new();
	xq_reader *rd;
	xq_record *r;

	t->files++;
	if (!l) {
		t->errors++;
		return;
	}
	/* A game's diagnostics are kept until it is checked whole. */
	if (xq_reader_open(&rd, path, NULL, xq_diagnostics_collect, l) == 0) {
		while (xq_reader_next(rd, &r) == 1) {
			t->games++;
			/* What only the whole game shows (the defaults: the Asian
			 * rules); a Result tag naming another result than the
			 * game's then counts as an error, as xqkit counts it. */
			xq_record_validate(r, NULL, xq_diagnostics_collect, l);
			for (size_t i = 0; xq_record_result_tag_stands(r) && i < xq_diagnostics_count(l); i++)
				if (!strcmp(xq_diagnostic_code(xq_diagnostics_at(l, i)), "bad-result"))
					xq_diagnostics_set_severity(l, i, XQ_SEVERITY_ERROR);
			xq_record_free(r);
			show(l, t);
		}
		xq_reader_close(rd);
	}
	show(l, t);
	xq_diagnostics_free(l);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void walk(const char *dir, struct tally *t)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, by_name);

	if (n < 0) {
		perror(dir);
		t->errors++;
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(dir) + strlen(names[i]->d_name) + 2;
		char *path = malloc(len);
		struct stat st;
		if (path && names[i]->d_name[0] != '.') {
			snprintf(path, len, "%s/%s", dir, names[i]->d_name);
			if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
				walk(path, t);
			else if (S_ISREG(st.st_mode))
				check_file(path, t);
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct tally t = {0, 0, 0, 0};
	struct stat st;

	for (int i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			walk(argv[i], &t);
		else
			check_file(argv[i], &t);
	}
	printf("%lu files, %lu games: %lu errors, %lu warnings\n", t.files, t.games, t.errors,
	       t.warnings);
	return t.errors ? 1 : 0;
}
