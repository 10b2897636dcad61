/*
 * ndjson_probe.c: is an input one of our game records?
 */
#include "ndjson_int.h"

/* ---- probe --------------------------------------------------------------- */

static int json_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * The JSON string at head[*i] (its opening quote), decoded as far as its
 * first `cap` bytes into `out` (only what the probe compares: ASCII; any
 * other character becomes 0x80, which matches nothing it looks for).
 * Returns the decoded length (possibly more than `cap`) and leaves *i
 * after the closing quote, or -1 if the string is not whole in `head`.
 */
static long probe_string(const unsigned char *head, size_t len, size_t *i, char *out, size_t cap)
{
	size_t k = *i + 1;
	long n = 0;

	while (k < len && head[k] != '"') {
		unsigned c = head[k++];
		if (c == '\\') {
			static const char esc[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
			const char *e;
			if (k >= len)
				return -1;
			c = head[k++];
			if (c == 'u') {
				unsigned v = 0;
				for (int d = 0; d < 4; d++, k++) {
					if (k >= len || xqi_hex_value(head[k]) < 0)
						return -1;
					v = v * 16 + (unsigned)xqi_hex_value(head[k]);
				}
				c = v < 0x80 ? v : 0x80;
			} else if (c && (e = strchr(esc, (int)c)) && (e - esc) % 2 == 0) {
				c = (unsigned char)e[1];
			} else {
				return -1;
			}
		} else if (c >= 0x80) {
			c = 0x80;
		}
		if ((size_t)n < cap)
			out[n] = (char)c;
		n++;
	}
	if (k >= len)
		return -1;
	*i = k + 1;
	return n;
}

/* Past JSON white space, is head[*i] the byte `c`? */
static int probe_at(const unsigned char *head, size_t len, size_t *i, unsigned char c)
{
	while (*i < len && json_space(head[*i]))
		(*i)++;
	return *i < len && head[*i] == c;
}

/* Skip the JSON value at head[*i] (not checking it: a probe only looks);
 * 0, or -1 if it is not whole in `head`. */
static int probe_skip_value(const unsigned char *head, size_t len, size_t *i)
{
	size_t k = *i, depth = 0;

	while (k < len) {
		unsigned char c = head[k];
		if (!depth && (c == ',' || c == '}' || json_space(c))) {
			*i = k;
			return 0;
		}
		if (c == '"') {
			if (probe_string(head, len, &k, NULL, 0) < 0)
				return -1;
			continue;
		}
		if (c == '{' || c == '[')
			depth++;
		else if (c == '}' || c == ']') {
			if (!depth)
				return -1;
			depth--;
		}
		k++;
	}
	return -1;
}

/* Does the line from head[i] hold a byte that JSON text never holds raw
 * (a control character other than its white space)? */
static int probe_binary_line(const unsigned char *head, size_t len, size_t i)
{
	for (; i < len && head[i] != '\n'; i++)
		if (head[i] < 0x20 && head[i] != '\t' && head[i] != '\r')
			return 1;
	return 0;
}

/*
 * Ours when the first line is a JSON object whose "schema" member names
 * xqkit.game: found whatever the spelling (spaces around ':' and ',' as
 * Python's json.dumps writes them, escapes in the names, members in any
 * order), as far as `head` holds the record.  Any other first line that
 * starts as an object may still be a damaged record of ours (a low
 * score), unless it is not JSON from its first member on or holds bytes
 * no JSON text holds: binary data that happens to start with '{'.
 */
int xqi_nd_probe(const unsigned char *head, size_t len)
{
	static const char prefix[] = "xqkit.game/";
	size_t i = 0;
	int first = 1;

	if (len >= 3 && !memcmp(head, "\xEF\xBB\xBF", 3))
		i = 3;
	while (i < len && json_space(head[i]))
		i++;
	if (i >= len || head[i] != '{' || probe_binary_line(head, len, i))
		return 0;
	i++;
	while (i < len && json_space(head[i]))
		i++;
	if (i < len && head[i] != '"' && head[i] != '}')
		return 0; /* an object holds members, named by strings */
	for (;;) {
		char name[8], value[sizeof(prefix) - 1];
		long n;
		if (!probe_at(head, len, &i, '"') ||
		    (n = probe_string(head, len, &i, name, sizeof(name))) < 0 ||
		    !probe_at(head, len, &i, ':'))
			return 10;
		i++;
		while (i < len && json_space(head[i]))
			i++;
		if (n == 6 && !memcmp(name, "schema", 6)) {
			if (i >= len || head[i] != '"')
				return 10;
			n = probe_string(head, len, &i, value, sizeof(value));
			if (n < (long)sizeof(value) || memcmp(value, prefix, sizeof(value)))
				return 10;
			return first ? 100 : 80; /* our own writer puts the schema first */
		}
		if (probe_skip_value(head, len, &i) || !probe_at(head, len, &i, ','))
			return 10;
		i++;
		first = 0;
	}
}
