/*
 * standalone.c: replay fuzz inputs through LLVMFuzzerTestOneInput without
 * libFuzzer, so `make check` runs every corpus as a regression test with
 * any compiler (as libgit2's fuzzers/standalone_driver.c does).
 *
 * Usage: replay_<target> DIR_OR_FILE...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

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
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, errors = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "cannot stat %s\n", argv[i]);
			errors++;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			if (!d) {
				errors++;
				continue;
			}
			while ((e = readdir(d))) {
				char path[4096];
				if (e->d_name[0] == '.')
					continue;
				snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
				errors += run_file(path);
				files++;
			}
			closedir(d);
		} else {
			errors += run_file(argv[i]);
			files++;
		}
	}
	printf("%s: replayed %d inputs\n", argv[0], files);
	return errors ? 1 : 0;
}
