/*
 * fuzz_json.c: the one JSON reader (lib/json.h, <xq/json.h>) must never
 * crash or read out of bounds, whatever the bytes, and what it gives must
 * hold together: a text that parses has tokens whose `next` moves forward
 * and stays inside their container, objects of name/value pairs whose
 * names xq_json_member() finds, strings that decode to UTF-8 with no NUL,
 * numbers that read; written back compactly (strings as the library
 * writes them, numbers and literals as they were), the text parses again
 * to tokens of the same types and shape.  A text that fails says where,
 * inside it, and why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diagnostic.h"
#include "json.h"
#include "utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_INPUT 65536

struct frame {
	uint32_t tok;
	int expect_key, count;
};

/* Emit the separator token `t` needs inside container frame `f`. */
static void separate(const struct xq_json *j, struct frame *f, uint32_t t, struct xq_buf *out)
{
	if (j->toks[f->tok].type == XQ_JSON_ARRAY) {
		if (f->count++)
			xq_buf_addc(out, ',');
		return;
	}
	if (f->expect_key) {
		if (j->toks[t].type != XQ_JSON_STRING)
			abort(); /* a member's name is a string */
		if (f->count++)
			xq_buf_addc(out, ',');
	}
}

/* The parsed value written back compactly into `out`. */
static void write_back(const struct xq_json *j, struct xq_buf *out)
{
	struct frame *st = calloc(j->ntoks + 1, sizeof(*st));
	struct xq_buf s = XQ_BUF_INIT;
	size_t depth = 0;

	if (!st)
		abort();
	for (uint32_t t = 0; t <= j->ntoks; t++) {
		const struct xqi_json_tok *k = &j->toks[t < j->ntoks ? t : 0];
		while (depth && j->toks[st[depth - 1].tok].next <= t) {
			depth--;
			xq_buf_addc(out, j->toks[st[depth].tok].type == XQ_JSON_OBJECT ? '}' : ']');
		}
		if (t == j->ntoks)
			break;
		if (depth)
			separate(j, &st[depth - 1], t, out);
		if (k->type == XQ_JSON_OBJECT || k->type == XQ_JSON_ARRAY) {
			xq_buf_addc(out, k->type == XQ_JSON_OBJECT ? '{' : '[');
		} else if (k->type == XQ_JSON_STRING) {
			if (xqi_json_decode(j, t, &s) || memchr(s.ptr, 0, s.len) ||
			    xq_utf8_check(s.ptr, s.len) != s.len)
				abort();
			xq_buf_add_json_string(out, s.ptr, s.len);
		} else {
			xq_buf_add(out, j->text + k->start, k->len);
		}
		if (depth && j->toks[st[depth - 1].tok].type == XQ_JSON_OBJECT) {
			struct frame *f = &st[depth - 1];
			if (f->expect_key)
				xq_buf_addc(out, ':');
			f->expect_key = !f->expect_key;
		}
		if (k->type == XQ_JSON_OBJECT || k->type == XQ_JSON_ARRAY) {
			st[depth].tok = t;
			st[depth].expect_key = k->type == XQ_JSON_OBJECT;
			st[depth].count = 0;
			depth++;
		}
	}
	free(st);
	xq_buf_release(&s);
}

/* The tokens' invariants (<xq/json.h>). */
static void check_tokens(const struct xq_json *j)
{
	for (uint32_t t = 0; t < j->ntoks; t++) {
		const struct xqi_json_tok *k = &j->toks[t];
		uint64_t u;
		double d;
		if (k->next <= t || k->next > j->ntoks || (size_t)k->start + k->len > j->len)
			abort();
		if (k->type != XQ_JSON_OBJECT && k->type != XQ_JSON_ARRAY && k->next != t + 1)
			abort();
		if (k->type == XQ_JSON_NUMBER) {
			int rc = xq_json_uint(j, t, &u);
			if (rc != 0 && rc != XQ_ERANGE)
				abort();
			rc = xq_json_number(j, t, &d);
			if (rc != 0 && rc != XQ_ERANGE)
				abort();
		}
		if (k->type == XQ_JSON_OBJECT) {
			/* Each member's name finds a value at or before its own
			 * (the first member of that name). */
			struct xq_buf name = XQ_BUF_INIT;
			for (uint32_t m = t + 1; m < k->next; m = j->toks[m + 1].next) {
				size_t v;
				if (j->toks[m].type != XQ_JSON_STRING || m + 1 >= k->next ||
				    xqi_json_decode(j, m, &name))
					abort();
				v = xq_json_member(j, t, name.ptr);
				if (!v || v > m + 1 || j->toks[v - 1].type != XQ_JSON_STRING)
					abort();
			}
			xq_buf_release(&name);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xq_json j, again;
	struct xq_buf out = XQ_BUF_INIT;
	int rc;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	xqi_json_init(&j);
	xqi_json_init(&again);
	rc = xq_json_parse(&j, (const char *)data, size);
	if (rc) {
		if ((rc != XQ_EPARSE && rc != XQ_EENCODING) || j.ntoks || !j.err_msg[0] || j.err_at > size)
			abort();
	} else {
		check_tokens(&j);
		write_back(&j, &out);
		if (xq_buf_error(&out) || xq_json_parse(&again, out.ptr, out.len) ||
		    again.ntoks != j.ntoks)
			abort();
		for (size_t t = 0; t < j.ntoks; t++)
			if (again.toks[t].type != j.toks[t].type || again.toks[t].next != j.toks[t].next)
				abort();
	}
	xq_buf_release(&out);
	xqi_json_release(&j);
	xqi_json_release(&again);
	return 0;
}
