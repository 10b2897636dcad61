/*
 * dedupe_groups.c: the games dedupe compares, kept and sorted into groups
 * of copies in a bounded memory (see dedupe.h).
 */
#include "dedupe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include <xq/error.h>

#define GROUP_SCHEMA "xqkit.group/1"

/* Records between two looks at the signal flag. */
#define POLL_EVERY 65536

void dedupe_fail(struct dctx *c, int rc, int err, const char *what)
{
	const char *dir = getenv("TMPDIR");

	if (c->failed)
		return;
	c->failed = 1;
	if (rc == XQ_ENOMEM)
		cmd_error("out of memory %s", what);
	else
		cmd_error("cannot use a scratch file in %s %s: %s", dir && *dir ? dir : "/tmp", what,
			  strerror(err ? err : EIO));
}

/* ---- the names of the files --------------------------------------------------------- */

/* The offset of `name` in the names file: written there when it is not
 * the name of the game before.  0 or -1 (said). */
static int name_offset(struct dctx *c, const char *name, uint64_t *off)
{
	size_t len = strlen(name) + 1;
	char *copy;
	int fd;

	if (c->last_name && !strcmp(c->last_name, name)) {
		*off = c->last_off;
		return 0;
	}
	if (!c->names && ((fd = extsort_scratch()) < 0 || !(c->names = fdopen(fd, "w+b")))) {
		if (fd >= 0)
			close(fd);
		dedupe_fail(c, XQ_EIO, errno, "for the names of the files");
		return -1;
	}
	if (fwrite(name, 1, len, c->names) != len) {
		dedupe_fail(c, XQ_EIO, errno, "for the names of the files");
		return -1;
	}
	if (!(copy = strdup(name))) {
		dedupe_fail(c, XQ_ENOMEM, 0, "keeping the name of a file");
		return -1;
	}
	free(c->last_name);
	c->last_name = copy;
	*off = c->last_off = c->names_len;
	c->names_len += len;
	return 0;
}

/* The name written at `off` (valid until the next call), or "?" when it
 * cannot be read back (said). */
static const char *name_at(struct dctx *c, uint64_t off)
{
	struct xq_buf *b = &c->name_buf;

	if (b->len && c->name_buf_off == off)
		return b->ptr;
	xq_buf_reset(b);
	if (fflush(c->names) != 0)
		goto fail;
	for (;;) {
		char chunk[256];
		ssize_t n = pread(fileno(c->names), chunk, sizeof(chunk), (off_t)(off + b->len));
		char *end;
		if (n <= 0)
			goto fail;
		end = memchr(chunk, '\0', (size_t)n);
		if (xq_buf_add(b, chunk, end ? (size_t)(end - chunk) + 1 : (size_t)n))
			goto fail;
		if (end)
			break;
	}
	c->name_buf_off = off;
	return b->ptr;
fail:
	dedupe_fail(c, XQ_EIO, errno, "reading back the names of the files");
	xq_buf_reset(b);
	return "?";
}

int dedupe_keep(struct dctx *c, struct drec *r, const char *origin)
{
	int rc;

	if (c->ncompared == UINT32_MAX) {
		cmd_error("more than %u games to compare: split the inputs", (unsigned)UINT32_MAX - 1);
		c->failed = 1;
		return -1;
	}
	r->idx = c->ncompared;
	if (name_offset(c, origin ? origin : "", &r->name))
		return -1;
	if ((rc = extsort_add(&c->keys, r))) {
		dedupe_fail(c, rc, c->keys.err, "keeping the games to compare");
		return -1;
	}
	c->ncompared++;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const struct drec *x = a, *y = b;

	if (x->key[0] != y->key[0])
		return x->key[0] < y->key[0] ? -1 : 1;
	if (x->key[1] != y->key[1])
		return x->key[1] < y->key[1] ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int dedupe_start(struct dctx *c)
{
	int rc = extsort_init(&c->keys, sizeof(struct drec), by_key, c->state_mem / 2);

	if (rc)
		dedupe_fail(c, rc, 0, "for the games to compare");
	return rc ? -1 : 0;
}

/* ---- --prefix: a join of sorted streams ------------------------------------------- */

static uint64_t bloom_hash(const uint64_t key[2], int k)
{
	return key[0] + (uint64_t)k * (key[1] | 1);
}

static void bloom_add(struct dctx *c, const uint64_t key[2])
{
	for (int k = 0; k < 4; k++) {
		uint64_t bit = bloom_hash(key, k) % c->bloom_bits;
		c->bloom[bit >> 6] |= (uint64_t)1 << (bit & 63);
	}
}

int dedupe_maybe_group(const struct dctx *c, const uint64_t key[2])
{
	for (int k = 0; k < 4; k++) {
		uint64_t bit = bloom_hash(key, k) % c->bloom_bits;
		if (!(c->bloom[bit >> 6] >> (bit & 63) & 1))
			return 0;
	}
	return 1;
}

static int by_prefix(const void *a, const void *b)
{
	const struct dcand *x = a, *y = b;

	if (x->prefix[0] != y->prefix[0])
		return x->prefix[0] < y->prefix[0] ? -1 : 1;
	if (x->prefix[1] != y->prefix[1])
		return x->prefix[1] < y->prefix[1] ? -1 : 1;
	if (x->plies != y->plies)
		return x->plies > y->plies ? -1 : 1; /* the longest first */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int dedupe_prepare_prefixes(struct dctx *c)
{
	struct drec r;
	uint64_t last[2] = {0, 0}, distinct = 0, bytes;
	int fd, rc, first = 1;

	if ((rc = extsort_finish(&c->keys)))
		goto fail;
	if ((fd = extsort_scratch()) < 0 || !(c->sorted = fdopen(fd, "w+b"))) {
		if (fd >= 0)
			close(fd);
		rc = XQ_EIO;
		c->keys.err = errno;
		goto fail;
	}
	/* A filter of 16 bits a game compared, in at most half the state's
	 * memory (more false candidates, never a missed one). */
	bytes = ((uint64_t)c->ncompared * 2 + 8) & ~(uint64_t)7;
	if (bytes > c->state_mem / 2)
		bytes = (c->state_mem / 2) & ~(uint64_t)7;
	c->bloom_bits = bytes * 8;
	if (!(c->bloom = calloc(bytes / 8, sizeof(uint64_t)))) {
		dedupe_fail(c, XQ_ENOMEM, 0, "for the filter of --prefix");
		return -1;
	}
	while ((rc = extsort_next(&c->keys, &r)) == 1) {
		if (fwrite(&r, sizeof(r), 1, c->sorted) != 1) {
			rc = XQ_EIO;
			c->keys.err = errno;
			break;
		}
		if (first || r.key[0] != last[0] || r.key[1] != last[1]) {
			bloom_add(c, r.key);
			distinct++;
		}
		first = 0;
		last[0] = r.key[0], last[1] = r.key[1];
	}
	if (rc < 0)
		goto fail;
	extsort_release(&c->keys);
	if (fflush(c->sorted) != 0 || fseek(c->sorted, 0, SEEK_SET) != 0) {
		dedupe_fail(c, XQ_EIO, errno, "sorting the games to compare");
		return -1;
	}
	if ((rc = extsort_init(&c->cands, sizeof(struct dcand), by_prefix, c->state_mem / 2))) {
		dedupe_fail(c, rc, 0, "for the candidates of --prefix");
		return -1;
	}
	return 0;
fail:
	dedupe_fail(c, rc, c->keys.err, "sorting the games to compare");
	return -1;
}

static int key_cmp(const uint64_t a[2], const uint64_t b[2])
{
	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/*
 * The join: each group (pass 1's records in key order) whose key starts a
 * longer game's line takes the key of the longest such game (the first
 * read on a tie), into a new sort by key.  The longest game that a group
 * starts is started by nothing longer (what started it would start the
 * group too), so one step is the whole chain.
 */
static int join_prefixes(struct dctx *c)
{
	struct dcand cand;
	struct drec r;
	uint64_t count = 0;
	int have, rc;

	free(c->bloom); /* pass 2 is over */
	c->bloom = NULL;
	if ((rc = extsort_finish(&c->cands)) || (rc = dedupe_start(c) ? XQ_ENOMEM : 0))
		return dedupe_fail(c, rc, c->cands.err, "joining the prefixes"), -1;
	have = extsort_next(&c->cands, &cand);
	while (fread(&r, sizeof(r), 1, c->sorted) == 1) {
		if (++count % POLL_EVERY == 0 && cmd_signal)
			return 1;
		while (have == 1 && key_cmp(cand.prefix, r.key) < 0)
			have = extsort_next(&c->cands, &cand);
		if (have < 0)
			return dedupe_fail(c, have, c->cands.err, "joining the prefixes"), -1;
		if (have == 1 && !key_cmp(cand.prefix, r.key) && cand.plies > r.plies)
			r.key[0] = cand.own[0], r.key[1] = cand.own[1];
		if ((rc = extsort_add(&c->keys, &r)))
			return dedupe_fail(c, rc, c->keys.err, "joining the prefixes"), -1;
	}
	if (ferror(c->sorted))
		return dedupe_fail(c, XQ_EIO, errno, "joining the prefixes"), -1;
	extsort_release(&c->cands);
	fclose(c->sorted);
	c->sorted = NULL;
	return 0;
}

/* ---- groups ------------------------------------------------------------------------- */

static int by_head(const void *a, const void *b)
{
	const struct drec *x = a, *y = b;

	if (x->head != y->head)
		return x->head < y->head ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1; /* the heading first */
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The copy kept from each group: the most information, the first on a tie. */
static int better(const struct drec *a, const struct drec *b)
{
	if (a->plies != b->plies)
		return a->plies > b->plies;
	return a->score > b->score;
}

struct group {
	struct drec first, kept; /* the first member is held until a second comes */
	uint32_t size;
};

/* Member `r` of the group `g` (r.head set): marked as a copy, and for the
 * report into `rep` (NULL: counted only).  0, or an XQ_E* code. */
static int add_member(struct dctx *c, struct group *g, struct drec *r, struct extsort *rep)
{
	int rc = 0;

	r->kind = 1;
	c->removed[r->idx >> 3] |= (uint8_t)(1u << (r->idx & 7));
	if (g->size == 0 || better(r, &g->kept))
		g->kept = *r;
	if (g->size++ == 0) {
		g->first = *r;
		return 0;
	}
	if (rep && g->size == 2 && (rc = extsort_add(rep, &g->first)))
		return rc;
	return rep ? extsort_add(rep, r) : 0;
}

/* The end of group `g`: its heading, the kept copy unmarked. */
static int end_group(struct dctx *c, struct group *g, struct extsort *rep)
{
	struct drec h;

	if (g->size == 0)
		return 0;
	c->removed[g->kept.idx >> 3] &= (uint8_t)~(1u << (g->kept.idx & 7));
	if (g->size < 2)
		return 0;
	c->groups++;
	c->duplicates += g->size - 1;
	if (!rep)
		return 0;
	memset(&h, 0, sizeof(h));
	h.head = h.idx = g->first.idx;
	h.number = g->kept.idx;
	h.copies = g->size;
	return extsort_add(rep, &h);
}

/* The groups of the sorted keys, into `rep` (NULL: counted only). */
static int find_groups(struct dctx *c, struct extsort *rep)
{
	struct group g;
	struct drec r;
	uint64_t count = 0;
	int rc;

	memset(&g, 0, sizeof(g));
	if ((rc = extsort_finish(&c->keys)))
		return dedupe_fail(c, rc, c->keys.err, "sorting the games to compare"), -1;
	while ((rc = extsort_next(&c->keys, &r)) == 1) {
		if (++count % POLL_EVERY == 0 && cmd_signal)
			return 1;
		if (g.size && (r.key[0] != g.first.key[0] || r.key[1] != g.first.key[1])) {
			if ((rc = end_group(c, &g, rep)))
				break;
			memset(&g, 0, sizeof(g));
		}
		r.head = g.size ? g.first.idx : r.idx;
		if ((rc = add_member(c, &g, &r, rep)))
			break;
	}
	if (rc == 0)
		rc = end_group(c, &g, rep);
	if (rc < 0)
		return dedupe_fail(c, rc, rep && rep->err ? rep->err : c->keys.err,
				   "sorting the games to compare"),
		       -1;
	extsort_release(&c->keys);
	return 0;
}

/* ---- the report --------------------------------------------------------------------- */

static void add_member_json(struct dctx *c, struct xq_buf *b, const struct drec *d, int kept)
{
	xq_buf_addc(b, '{');
	xq_buf_add_ndjson_source(b, name_at(c, d->name), d->number, d->line,
				 d->has_offset ? (int64_t)d->offset : -1);
	xq_buf_addf(b, ",\"format\":\"%s\",\"plies\":%u%s}", c->fmt_names[d->fmt],
		    (unsigned)d->plies, kept ? ",\"kept\":true" : "");
}

static void add_member_text(struct dctx *c, struct xq_buf *b, const struct drec *d, int kept)
{
	const char *name = name_at(c, d->name);

	xq_buf_adds(b, kept ? "* " : "  ");
	report_add_safe(b, name, strlen(name));
	xq_buf_addf(b, ": game %u", (unsigned)d->number);
	if (d->line)
		xq_buf_addf(b, ", line %u", (unsigned)d->line);
	else if (d->has_offset)
		xq_buf_addf(b, ", byte %llu", (unsigned long long)d->offset);
	xq_buf_addf(b, " (%s, %u plies)\n", c->fmt_names[d->fmt], (unsigned)d->plies);
}

/* Every group, in the order of its first member, on standard output. */
static int report_groups(struct dctx *c, struct extsort *rep)
{
	struct xq_buf *b = &c->text;
	uint64_t number = 0, count = 0;
	uint32_t kept = 0;
	int rc, ndjson = c->rep.fmt == REPORT_NDJSON, open = 0;
	struct drec r;

	if ((rc = extsort_finish(rep)))
		return dedupe_fail(c, rc, rep->err, "sorting the groups"), -1;
	while ((rc = extsort_next(rep, &r)) == 1) {
		if (++count % POLL_EVERY == 0 && cmd_signal)
			break;
		if (r.kind == 0) {
			if (open)
				xq_buf_adds(b, "]}\n");
			number++;
			kept = r.number;
			if (ndjson)
				xq_buf_addf(b, "{\"schema\":\"" GROUP_SCHEMA "\",\"group\":%llu,\"copies\":%u,\"members\":[",
					    (unsigned long long)number, (unsigned)r.copies);
			else
				xq_buf_addf(b, "group %llu: %u copies\n", (unsigned long long)number,
					    (unsigned)r.copies);
			open = ndjson;
			continue;
		}
		if (ndjson) {
			if (r.idx != r.head)
				xq_buf_addc(b, ',');
			add_member_json(c, b, &r, r.idx == kept);
		} else {
			add_member_text(c, b, &r, r.idx == kept);
		}
		if (b->len > 65536)
			report_flush_out(b);
	}
	if (open)
		xq_buf_adds(b, "]}\n");
	report_flush_out(b);
	if (rc < 0)
		return dedupe_fail(c, rc, rep->err, "reading back the groups"), -1;
	return cmd_signal || c->failed ? (c->failed ? -1 : 1) : 0;
}

int dedupe_groups(struct dctx *c, int report)
{
	struct extsort rep;
	int rc;

	if (c->prefix && (rc = join_prefixes(c)))
		return rc;
	if (!(c->removed = calloc((size_t)c->ncompared / 8 + 1, 1))) {
		dedupe_fail(c, XQ_ENOMEM, 0, "marking the copies");
		return -1;
	}
	if (report && (rc = extsort_init(&rep, sizeof(struct drec), by_head, c->state_mem / 2))) {
		dedupe_fail(c, rc, 0, "sorting the groups");
		return -1;
	}
	rc = find_groups(c, report ? &rep : NULL);
	if (rc == 0 && report)
		rc = report_groups(c, &rep);
	if (report)
		extsort_release(&rep);
	return rc;
}

void dedupe_release(struct dctx *c)
{
	extsort_release(&c->keys);
	extsort_release(&c->cands);
	if (c->sorted)
		fclose(c->sorted);
	if (c->names)
		fclose(c->names);
	free(c->last_name);
	free(c->bloom);
	free(c->removed);
	xq_buf_release(&c->name_buf);
	xq_buf_release(&c->text);
}
