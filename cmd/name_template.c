/*
 * name_template.c: file names from a template of tags (see
 * name_template.h).
 */
#include "name_template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xq/error.h>
#include <xq/utf8.h>

/* ---- the set of names ----------------------------------------------------- */

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h ? h : 1; /* 0 marks a free slot */
}

static int has_hash(const struct name_set *s, uint64_t h)
{
	if (!s->alloc)
		return 0;
	for (size_t i = h & (s->alloc - 1);; i = (i + 1) & (s->alloc - 1)) {
		if (s->v[i] == h)
			return 1;
		if (!s->v[i])
			return 0;
	}
}

int name_set_has(const struct name_set *s, const char *name)
{
	return has_hash(s, hash_name(name));
}

static void put(uint64_t *v, size_t cap, uint64_t h)
{
	size_t k = h & (cap - 1);

	while (v[k] && v[k] != h)
		k = (k + 1) & (cap - 1);
	v[k] = h;
}

int name_set_add(struct name_set *s, const char *name)
{
	uint64_t h = hash_name(name);

	if (has_hash(s, h))
		return 0;
	if (2 * (s->n + 1) > s->alloc) {
		size_t cap = s->alloc ? s->alloc * 2 : 1024;
		uint64_t *p = calloc(cap, sizeof(*p));
		if (!p)
			return XQ_ENOMEM;
		for (size_t i = 0; i < s->alloc; i++)
			if (s->v[i])
				put(p, cap, s->v[i]);
		free(s->v);
		s->v = p;
		s->alloc = cap;
	}
	put(s->v, s->alloc, h);
	s->n++;
	return 0;
}

void name_set_release(struct name_set *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* ---- expanding a template --------------------------------------------------- */

/*
 * Characters that are not seen where they are, or change how what follows
 * them is shown: the C1 controls, the format characters of Unicode
 * (category Cf: soft hyphen, zero-width spaces and joiners, the bidi
 * marks, embeddings, overrides and isolates such as U+202E, word joiners,
 * the BOM, tags, ...) and the line and paragraph separators.  In a file
 * name they could make it read as another one ("gnp.exe" shown as
 * "exe.png").
 */
static int is_invisible(uint32_t cp)
{
	static const uint32_t ranges[][2] = {
		{0x80, 0x9F},       {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},
		{0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},
		{0x180E, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x2064},
		{0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
		{0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
		{0xE0001, 0xE0001}, {0xE0020, 0xE007F},
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (cp >= ranges[i][0] && cp <= ranges[i][1])
			return 1;
	return 0;
}

/*
 * The name as it is made: tidied as it grows (name_template.h: no
 * leading '-', '_' or '.', no runs of '-' and '_'), and made no longer
 * once it is long enough for its cut (NAME_TEMPLATE_MAX bytes and two
 * more: one of those two is not a separator, so what the end of the
 * expansion would strip cannot reach the cut).  A template that repeats
 * a long tag thousands of times costs no more than one that names it
 * once.
 */
struct name_out {
	struct xq_buf *b;
	int started; /* a byte other than '-', '_' and '.' was put */
};

static int name_full(const struct name_out *o)
{
	return o->b->len >= NAME_TEMPLATE_MAX + 2;
}

static void name_put(struct name_out *o, char ch)
{
	int sep = ch == '-' || ch == '_';
	struct xq_buf *b = o->b;

	if (!o->started) {
		if (sep || ch == '.')
			return;
		o->started = 1;
	}
	if (sep && b->len && (b->ptr[b->len - 1] == '-' || b->ptr[b->len - 1] == '_'))
		return;
	xq_buf_addc(b, ch);
}

/* Append `len` bytes of `s` made safe for a file name (name_template.h),
 * up to the name's length. */
static void add_part(struct name_out *o, const char *s, size_t len)
{
	for (size_t i = 0; i < len && !name_full(o);) {
		unsigned char ch = (unsigned char)s[i];
		size_t n = ch < 0x80 ? 1 : xq_utf8_valid_prefix(s + i, len - i);
		uint32_t cp = ch;
		if (n > 1)
			xq_utf8_decode(s + i, n, &cp);
		if (n == 0 || ch < 0x20 || ch == 0x7f || strchr("/\\:*?\"<>|", ch) ||
		    is_invisible(cp) || xq_is_space(ch)) {
			name_put(o, '_');
			n = n ? n : 1;
		} else {
			for (size_t k = 0; k < n; k++)
				name_put(o, s[i + k]);
		}
		i += n;
	}
}

/* The input's base name without directories, ".gz" and its extension. */
static void add_file_base(struct name_out *o, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".gz"))
		len -= 3;
	for (size_t i = len; i > 1; i--)
		if (base[i - 1] == '.') {
			len = i - 1;
			break;
		}
	add_part(o, base, len < 255 ? len : 255);
}

/* A tag for the template: its exact name first, else the first tag whose
 * name differs only in ASCII case ({red} finds Red: nobody means another
 * tag by it). */
static const char *template_tag(const xq_record *r, const char *key)
{
	const char *v = xq_record_tag(r, key);

	for (size_t i = 0; !v && i < xq_record_tag_count(r); i++)
		if (xq_ascii_ieq(xq_record_tag_name(r, i), key))
			v = xq_record_tag_value(r, i);
	return v;
}

/* One {KEY} or {KEY:W}, its text between the braces in `t` (len bytes). */
static void add_key(struct name_out *o, const char *t, size_t len, const xq_record *r,
		    const char *path, uint64_t seq)
{
	char key[64], num[32];
	int width = 0;
	char *colon;
	const char *v;

	if (len >= sizeof(key))
		len = sizeof(key) - 1;
	memcpy(key, t, len);
	key[len] = '\0';
	if ((colon = strchr(key, ':'))) {
		*colon = '\0';
		for (const char *w = colon + 1; xq_is_digit((unsigned char)*w) && width < 20; w++)
			width = width * 10 + (*w - '0');
		if (width > 20)
			width = 20;
	}
	if (!strcmp(key, "n") || !strcmp(key, "game")) {
		snprintf(num, sizeof(num), "%0*llu", width,
			 (unsigned long long)(key[0] == 'n' ? seq : xq_record_number(r)));
		add_part(o, num, strlen(num));
	} else if (!strcmp(key, "file")) {
		add_file_base(o, path);
	} else if ((v = template_tag(r, key))) {
		add_part(o, v, strlen(v));
	}
}

/* The end of a name made by name_put(): no separator last, at most
 * NAME_TEMPLATE_MAX bytes (cut on a character boundary), and the run
 * number when nothing is left. */
static void finish_name(struct xq_buf *b, uint64_t seq)
{
	while (b->len && (b->ptr[b->len - 1] == '-' || b->ptr[b->len - 1] == '_'))
		xq_buf_truncate(b, b->len - 1);
	if (b->len > NAME_TEMPLATE_MAX) {
		size_t n = NAME_TEMPLATE_MAX;
		while (n > 0 && ((unsigned char)b->ptr[n] & 0xC0) == 0x80)
			n--;
		xq_buf_truncate(b, n);
	}
	if (b->len == 0)
		xq_buf_addf(b, "%llu", (unsigned long long)seq);
}

int name_template_expand(struct xq_buf *b, const char *tmpl, const xq_record *r,
			 const char *path, uint64_t seq)
{
	struct name_out o = {b, 0};
	const char *t = tmpl;
	int rc;

	xq_buf_reset(b);
	while (*t && !name_full(&o)) {
		const char *close = *t == '{' ? strchr(t, '}') : NULL;
		if (!close) {
			/* Text up to the next '{', whole (a character is never
			 * cut in two). */
			const char *next = strchr(t + 1, '{');
			size_t len = next ? (size_t)(next - t) : strlen(t);
			add_part(&o, t, len);
			t += len;
			continue;
		}
		add_key(&o, t + 1, (size_t)(close - t - 1), r, path, seq);
		t = close + 1;
	}
	finish_name(b, seq);
	if ((rc = xq_buf_error(b)) != 0)
		xq_buf_reset(b);
	return rc;
}

int name_template_add_extension(struct xq_buf *b, const char *extensions)
{
	const char *e = extensions;

	if (!e || *e != '.')
		return 0;
	for (; *e && *e != ' '; e++)
		xq_buf_addc(b, (char)xq_to_lower((unsigned char)*e));
	return xq_buf_error(b);
}
