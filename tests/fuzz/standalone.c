/*
 * standalone.c: replay fuzz inputs through LLVMFuzzerTestOneInput without
 * libFuzzer, so `make check` runs every corpus as a regression test with
 * any compiler (as libgit2's fuzzers/standalone_driver.c does).
 *
 * Slowness is a finding too: an input that takes more than the CPU-time
 * limit of slow.h fails the replay, naming it (the same bound as the
 * libFuzzer runs).  The slowest input is printed at the end.
 *
 * Usage: replay_<target> DIR_OR_FILE...
 */
#define _POSIX_C_SOURCE 200809L
#include "slow.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The slowest input so far. */
static double slowest;
static char slowest_name[4096];

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	double t0, took;

	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	for (;;) {
		size_t n;
		if (len == cap) {
			uint8_t *p;
			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = p;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	t0 = fuzz_cpu_seconds();
	fuzz_slow_arm(path);
	LLVMFuzzerTestOneInput(buf, len);
	fuzz_slow_disarm();
	took = fuzz_cpu_seconds() - t0;
	free(buf);
	if (took > slowest) {
		slowest = took;
		snprintf(slowest_name, sizeof(slowest_name), "%s", path);
	}
	return 0;
}

static int run_dir(const char *dir, int *files)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int errors = 0;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		char path[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		errors += run_file(path);
		++*files;
	}
	closedir(d);
	return errors;
}

int main(int argc, char **argv)
{
	int files = 0, errors = 0;

	fuzz_slow_init(0);
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "cannot stat %s\n", argv[i]);
			errors++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			errors += run_dir(argv[i], &files);
		} else {
			errors += run_file(argv[i]);
			files++;
		}
	}
	printf("%s: replayed %d inputs (slowest %.2f s: %s)\n", argv[0], files, slowest,
	       files ? slowest_name : "none");
	return errors ? 1 : 0;
}
