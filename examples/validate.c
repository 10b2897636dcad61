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

static void show(const xq_diagnostic *d, void *user)
{
	struct tally *t = user;
	char line[1024];

	if (xq_diagnostic_severity(d) == XQ_SEVERITY_ERROR)
		t->errors++;
	else if (xq_diagnostic_severity(d) == XQ_SEVERITY_WARNING)
		t->warnings++;
	xq_diagnostic_format(d, line, sizeof(line));
	printf("%s\n", line);
}

static void check_file(const char *path, struct tally *t)
{
	xq_reader *rd;
	xq_record *r;

	t->files++;
	if (xq_reader_open(&rd, path, NULL, show, t) != 0)
		return;
	while (xq_reader_next(rd, &r) == 1) {
		t->games++;
		/* What only the whole game shows (the defaults: the Asian rules). */
		xq_record_validate(r, NULL, show, t);
		xq_record_free(r);
	}
	xq_reader_close(rd);
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
