/*
 * fuzz_pattern.c: the regular expressions of `find --tag 'Name~REGEX'`
 * (cmd/pattern.c, compiled in) must never crash, read out of bounds or
 * take more than linear time, whatever the pattern and the text.
 *
 * Input: the pattern, a NUL byte, then the text (no NUL: the whole input
 * is the pattern and the text is the pattern again).  A pattern refused
 * names a place inside it and a reason; one compiled stays within
 * PATTERN_MAX_STEPS and matches the text the same way twice, and a
 * stop callback that says stop at once stops a text long enough to ask.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.c"

#define CAP 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int stop_now(void *arg)
{
	(void)arg;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - (const char *)data) : size;
	const char *text = nul ? nul + 1 : (const char *)data;
	size_t tlen = nul ? size - plen - 1 : size;
	char *re, why[200];
	struct pattern *p;
	size_t at;
	int rc, again;

	if (size > CAP || !(re = malloc(plen + 1)))
		return 0;
	memcpy(re, data, plen);
	re[plen] = '\0';
	rc = pattern_compile(&p, re, &at, why, sizeof(why));
	if (rc) {
		if (p || (rc == -1 && (at > plen || !why[0])))
			abort();
		free(re);
		return 0;
	}
	if (p->n == 0 || p->n > PATTERN_MAX_STEPS || p->prog[p->n - 1].op != I_MATCH)
		abort();
	rc = pattern_match(p, text, tlen, NULL, NULL);
	again = pattern_match(p, text, tlen, NULL, NULL);
	if ((rc != 0 && rc != 1) || again != rc)
		abort();
	if (tlen >= 4096 && pattern_match(p, text, tlen, stop_now, NULL) == 1 && rc == 0)
		abort();
	pattern_free(p);
	free(re);
	return 0;
}
