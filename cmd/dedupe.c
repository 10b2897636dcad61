/*
 * dedupe.c: `xqkit dedupe`, the groups of copies of the same game in a
 * collection, across files, formats, notations and encodings.
 *
 * Two games are the same when they start from the same position (pieces
 * and side to move) and play the same main line; with --mirror, also when
 * one is the other's left-right mirror; with --prefix, a game whose main
 * line is the start of a longer one's is a copy of the longer one.  Each
 * game is reduced on the worker that read it to a 128-bit hash of its
 * start and main line, and kept as that key and a reference to where it
 * was read (struct dgame: 48 bytes), with 24 to 32 bytes more to group
 * them (the hash table, two links, the copy kept): at most 80 bytes a
 * game, about 80 MB for a million games.
 * Comments, variations, tags, encodings and notations do not count.
 *
 * The inputs are read once to report the groups; --prefix reads them a
 * second time (to look up every prefix of every game among the keys), -t
 * once more (to write the deduplicated collection: every game that is in
 * no group, and from each group the copy with the most information).
 */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "inputs.h"
#include "opt.h"
#include "output.h"
#include <xq/batch.h>
#include "progress.h"
#include "report.h"
#include <xq/buf.h>
#include <xq/error.h>
#include <xq/io.h>
#include <xq/memory.h>
#include <xq/position.h>
#include <xq/record.h>

#define GROUP_SCHEMA "xqkit.group/1"

static const char usage[] =
	"xqkit dedupe [--mirror] [--prefix] [--min-plies N] [-t FORMAT [-o OUT|-o DIR/]]\n"
	"                    [--format text|ndjson] [-r] [-j THREADS] [INPUT...]";
static const char summary[] =
	"Find the copies of the same game among the inputs (the same start position and\n"
	"the same main line, whatever the file, format, notation or encoding) and list\n"
	"them, one group per game copied; with -t, write the collection with one copy of\n"
	"each game: the one with the most information (moves, variations, comments,\n"
	"NAGs, tags; the first read on a tie).";

enum { O_MIRROR = 0x100, O_PREFIX, O_MIN_PLIES };

static const struct opt_spec options[] = {
	OPT_FLAG(O_MIRROR, 0, "mirror", "a game and its left-right mirror are the same game"),
	OPT_FLAG(O_PREFIX, 0, "prefix", "a game that is the start of a longer one is a copy of it"),
	OPT_VALUE(O_MIN_PLIES, 0, "min-plies", "N", "compare only games of N plies or more (default 10)"),
	OPT_INCLUDE(output_options),
	OPT_INCLUDE(input_options),
	OPT_END,
};

#define NONE UINT32_MAX

/* One game, as long as the run lasts. */
struct dgame {
	uint64_t key[2];   /* the hash of start and main line (the smaller of it and its mirror's) */
	uint64_t offset;   /* origin */
	uint32_t file;     /* origin: index in the file names */
	uint32_t number;   /* origin: game number (capped) */
	uint32_t line;     /* origin: line, 0 if none (capped) */
	uint32_t plies;
	uint32_t score;    /* information: variations, comments, NAGs, tags */
	uint8_t compared;  /* grouped at all (not broken, long enough) */
	uint8_t has_offset;
	uint8_t fmt;       /* the format read, as an index in the format names */
	uint8_t pad;
};

/* What a worker hands to emit (xq_batch_job.data). */
struct djob {
	struct dgame g;
	const char *origin_file;
};

struct dctx {
	struct output out;
	struct input_opts in;
	struct reporter rep;
	int mirror, prefix;
	unsigned min_plies;
	int pass;                  /* 1: keys; 2: prefixes; 3: writing */
	double t0;
	/* the games, in input order */
	struct dgame *g;
	uint32_t n, alloc;
	uint32_t seq;              /* games seen in this pass */
	/* key -> first game with it (open addressing) */
	uint32_t *table;
	uint64_t mask;
	uint32_t *next;            /* members of a group, in input order (NONE ends) */
	uint32_t *head;            /* the first member of the game's group */
	uint32_t *parent;          /* --prefix: the longest game this one starts (NONE) */
	/* file names, interned */
	char **files;
	uint32_t nfiles;
	size_t files_alloc;
	uint32_t *file_table;
	uint64_t file_mask;
	const char *fmt_names[32];
	uint32_t nfmts;
	uint64_t compared, groups, duplicates, removed;
	int oom;
	struct xq_buf text;        /* group reports */
};

/* ---- the key ------------------------------------------------------------------- */

static uint64_t fmix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}

struct hstate {
	uint64_t a, b;
};

static void absorb(struct hstate *s, uint64_t x)
{
	s->a = (s->a ^ x) * 0x9e3779b97f4a7c15ull;
	s->a ^= s->a >> 31;
	s->b = (s->b + x + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
	s->b ^= s->b >> 29;
}

static void finish(const struct hstate *s, uint32_t plies, uint64_t out[2])
{
	out[0] = fmix(s->a ^ ((uint64_t)plies << 1));
	out[1] = fmix(s->b + plies * 0x94d049bb133111ebull);
}

static int key_less(const uint64_t a[2], const uint64_t b[2])
{
	return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/*
 * Walk the main line of `g` with the key of each prefix: `fn` gets the
 * key (the smaller of the line's and its mirror's with --mirror) after
 * each ply from `from` on, and last the whole line's.
 */
static void line_keys(const struct dctx *c, xq_record *r, xq_position *pos, uint32_t from,
		      void (*fn)(void *arg, const uint64_t key[2], uint32_t plies), void *arg)
{
	struct hstate s[2];
	uint32_t plies = 0;

	s[0].a = s[0].b = s[1].a = s[1].b = 0;
	xq_record_node_position(r, XQ_ROOT_NODE, pos);
	absorb(&s[0], xq_position_key(pos));
	if (c->mirror) {
		xq_position_mirror(pos);
		absorb(&s[1], xq_position_key(pos));
	}
	for (uint32_t n = xq_record_node_child(r, XQ_ROOT_NODE);; n = xq_record_node_child(r, n)) {
		xq_move_code m;
		if (plies >= from) {
			uint64_t k[2], mk[2];
			finish(&s[0], plies, k);
			if (c->mirror) {
				finish(&s[1], plies, mk);
				if (key_less(mk, k))
					k[0] = mk[0], k[1] = mk[1];
			}
			fn(arg, k, plies);
		}
		if (n == XQ_NO_NODE)
			break;
		m = xq_record_node_move(r, n);
		absorb(&s[0], m);
		if (c->mirror)
			absorb(&s[1], xq_move_code_mirror(m));
		plies++;
	}
}

/* ---- the table of keys ------------------------------------------------------------ */

static uint32_t lookup(const struct dctx *c, const uint64_t key[2])
{
	for (uint64_t i = key[0] & c->mask;; i = (i + 1) & c->mask) {
		uint32_t k = c->table[i];
		if (k == NONE || (c->g[k].key[0] == key[0] && c->g[k].key[1] == key[1]))
			return k;
	}
}

/* Every compared game into the table, and the groups linked: 0 or -1. */
static int build_groups(struct dctx *c)
{
	uint64_t size = 16;
	uint32_t *tail;

	while (size < 2ull * c->n)
		size <<= 1;
	c->table = malloc(size * sizeof(*c->table));
	c->next = malloc((size_t)c->n * sizeof(*c->next) + 1);
	c->head = malloc((size_t)c->n * sizeof(*c->head) + 1);
	tail = malloc((size_t)c->n * sizeof(*tail) + 1);
	if (!c->table || !c->next || !c->head || !tail) {
		free(tail);
		return -1;
	}
	memset(c->table, 0xff, size * sizeof(*c->table));
	c->mask = size - 1;
	for (uint32_t i = 0; i < c->n; i++) {
		c->next[i] = NONE;
		c->head[i] = i;
		if (!c->g[i].compared)
			continue;
		for (uint64_t s = c->g[i].key[0] & c->mask;; s = (s + 1) & c->mask) {
			uint32_t k = c->table[s];
			if (k == NONE) {
				c->table[s] = i;
				tail[i] = i;
				break;
			}
			if (c->g[k].key[0] == c->g[i].key[0] && c->g[k].key[1] == c->g[i].key[1]) {
				c->head[i] = k;
				c->next[tail[k]] = i;
				tail[k] = i;
				break;
			}
		}
	}
	free(tail);
	return 0;
}

/* --prefix: a group whose line starts a longer game's joins that game's
 * group (the longest one's; the first read on a tie), and through it the
 * group that one joins: the lists are made again in input order.  0 or
 * -1 when memory ran out. */
static int join_prefixes(struct dctx *c)
{
	uint32_t *first = malloc((size_t)c->n * sizeof(*first) + 1);
	uint32_t *tail = malloc((size_t)c->n * sizeof(*tail) + 1);

	if (!first || !tail) {
		free(first);
		free(tail);
		return -1;
	}
	memset(first, 0xff, (size_t)c->n * sizeof(*first));
	for (uint32_t k = 0; k < c->n; k++) {
		/* parent[] links the groups' first members as pass 1 found
		 * them; each link goes to a longer line, so the chain ends */
		uint32_t r = c->head[k];
		while (c->parent[r] != NONE)
			r = c->parent[r];
		if (first[r] == NONE)
			first[r] = k;
		else
			c->next[tail[r]] = k;
		tail[r] = k;
		c->next[k] = NONE;
		c->head[k] = first[r];
	}
	free(first);
	free(tail);
	return 0;
}

/* ---- the passes ------------------------------------------------------------------- */

static uint32_t cap32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static uint32_t info_score(const xq_record *r, uint32_t plies)
{
	uint32_t nodes = xq_record_node_count(r), comments = 0, nags = 0, var, tags = 0;

	for (uint32_t n = 0; n < nodes; n++) {
		if (xq_record_node_comment(r, n) || xq_record_node_pre_comment(r, n))
			comments++;
		nags += (uint32_t)xq_record_node_nag_count(r, n);
	}
	var = nodes - 1 - plies; /* the moves off the main line */
	for (size_t i = 0; i < xq_record_tag_count(r); i++)
		if (xq_record_tag_value(r, i)[0])
			tags++;
	return (var > 1023 ? 1023u : var) << 22 | (comments > 1023 ? 1023u : comments) << 12 |
	       (nags > 63 ? 63u : nags) << 6 | (tags > 63 ? 63u : tags);
}

static void take_key(void *arg, const uint64_t key[2], uint32_t plies)
{
	struct dgame *d = arg;

	(void)plies;
	d->key[0] = key[0];
	d->key[1] = key[1];
}

static void pass1_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct dctx *c = ctx;
	struct djob *dj = j->data;
	struct dgame *d = &dj->g;
	xq_record *r = j->record;
	uint64_t number, line;
	int64_t offset;

	memset(d, 0, sizeof(*d));
	d->plies = xq_record_mainline_length(r);
	xq_record_origin(r, &dj->origin_file, &number, &line, &offset);
	d->number = cap32(number);
	d->line = cap32(line);
	d->offset = offset < 0 ? 0 : (uint64_t)offset;
	d->has_offset = offset >= 0;
	if (xq_record_is_broken(r) || d->plies < c->min_plies)
		return;
	d->compared = 1;
	d->score = info_score(r, d->plies);
	line_keys(c, r, worker, d->plies, take_key, d);
}

static uint32_t intern_file(struct dctx *c, const char *name)
{
	uint64_t h = 1469598103934665603ull;

	if (!name)
		name = "";
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	if (2ull * (c->nfiles + 1) > c->file_mask + 1 || !c->file_table) {
		uint64_t size = c->file_table ? (c->file_mask + 1) * 2 : 64;
		uint32_t *t = malloc(size * sizeof(*t));
		if (!t)
			return NONE;
		memset(t, 0xff, size * sizeof(*t));
		for (uint32_t i = 0; i < c->nfiles; i++) {
			uint64_t k = 1469598103934665603ull;
			for (const char *s = c->files[i]; *s; s++)
				k = (k ^ (unsigned char)*s) * 1099511628211ull;
			for (k &= size - 1; t[k] != NONE; k = (k + 1) & (size - 1))
				;
			t[k] = i;
		}
		free(c->file_table);
		c->file_table = t;
		c->file_mask = size - 1;
	}
	for (uint64_t s = h & c->file_mask;; s = (s + 1) & c->file_mask) {
		uint32_t k = c->file_table[s];
		if (k == NONE) {
			if (XQ_ALLOC_GROW(c->files, (size_t)c->nfiles + 1, c->files_alloc))
				return NONE;
			if (!(c->files[c->nfiles] = strdup(name)))
				return NONE;
			c->file_table[s] = c->nfiles;
			return c->nfiles++;
		}
		if (!strcmp(c->files[k], name))
			return k;
	}
}

/* The format's name is static: compared by address. */
static uint8_t intern_format(struct dctx *c, const char *name)
{
	for (uint32_t i = 0; i < c->nfmts; i++)
		if (c->fmt_names[i] == name)
			return (uint8_t)i;
	if (c->nfmts == 32)
		return 0;
	c->fmt_names[c->nfmts] = name;
	return (uint8_t)c->nfmts++;
}

static int pass1_emit(void *ctx, xq_batch_job *j)
{
	struct dctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME && !c->oom) {
		struct djob *dj = j->data;
		if (c->n == UINT32_MAX - 1)
			c->oom = 1;
		else if (c->n == c->alloc) {
			uint32_t na = c->alloc ? (c->alloc > UINT32_MAX / 2 ? UINT32_MAX - 1 : c->alloc * 2)
					       : 1024;
			struct dgame *v = realloc(c->g, (size_t)na * sizeof(*v));
			if (!v)
				c->oom = 1;
			else
				c->g = v, c->alloc = na;
		}
		if (!c->oom) {
			struct dgame *d = &c->g[c->n++];
			*d = dj->g;
			d->file = intern_file(c, dj->origin_file);
			d->fmt = intern_format(c, j->file->format);
			if (d->file == NONE)
				c->oom = 1;
			c->compared += d->compared;
		}
	}
	reporter_job(&c->rep, j, NULL);
	reporter_flush(&c->rep);
	return cmd_signal || c->oom ? 1 : 0;
}

/* --prefix: the groups each game's prefixes are. */
struct prefix_arg {
	const struct dctx *c;
	struct xq_buf *found;
};

static void find_prefix(void *arg, const uint64_t key[2], uint32_t plies)
{
	struct prefix_arg *a = arg;
	uint32_t k = lookup(a->c, key);

	(void)plies;
	if (k != NONE)
		xq_buf_add(a->found, &k, sizeof(k));
}

static void pass2_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct dctx *c = ctx;
	xq_record *r = j->record;
	uint32_t plies = xq_record_mainline_length(r);
	struct prefix_arg a = {c, &j->text};

	xq_buf_reset(&j->text);
	if (xq_record_is_broken(r) || plies <= c->min_plies)
		return;
	/* every prefix of min_plies or more (the last, the whole line, is
	 * the game's own group: emit passes it over) */
	line_keys(c, r, worker, c->min_plies, find_prefix, &a);
}

static int pass2_emit(void *ctx, xq_batch_job *j)
{
	struct dctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME) {
		uint32_t i = c->seq++;
		size_t n = j->text.len / sizeof(uint32_t);
		if (i < c->n && c->g[i].compared) {
			for (size_t k = 0; k < n; k++) {
				uint32_t a, b = c->head[i];
				memcpy(&a, j->text.ptr + k * sizeof(uint32_t), sizeof(a));
				if (a == b || c->g[a].plies >= c->g[i].plies)
					continue; /* its own line */
				/* group a's line starts game i's: the longest such i wins */
				if (c->parent[a] == NONE || c->g[c->parent[a]].plies < c->g[i].plies)
					c->parent[a] = b;
			}
		}
	}
	return cmd_signal ? 1 : 0;
}

/* The copy kept from each group: the most information, the first on a tie. */
static int better(const struct dgame *a, const struct dgame *b)
{
	if (a->plies != b->plies)
		return a->plies > b->plies;
	return a->score > b->score;
}

static void choose_kept(struct dctx *c, uint32_t *kept)
{
	for (uint32_t i = 0; i < c->n; i++) {
		kept[i] = i;
		if (c->head[i] != i)
			continue;
		for (uint32_t k = c->next[i]; k != NONE; k = c->next[k])
			if (better(&c->g[k], &c->g[kept[i]]))
				kept[i] = k;
	}
}

static int pass3_emit(void *ctx, xq_batch_job *j)
{
	struct dctx *c = ctx;
	uint32_t *kept = c->parent; /* reused: the kept copy of each group head */

	if (j->kind == XQ_BATCH_GAME) {
		uint32_t i = c->seq++;
		int write = i >= c->n || kept[c->head[i]] == i;
		xq_diagnostics_truncate(j->diags, 0); /* reported by the first pass */
		if (write) {
			output_game(&c->out, j, NULL);
			reporter_job_diags(&c->rep, j); /* what writing it said */
		} else {
			c->removed++;
		}
		reporter_flush(&c->rep);
	}
	if (cmd_signal || inputs_conflict(c->out.inputs))
		c->out.stop = 1;
	return c->out.stop ? 1 : 0;
}

/* ---- reporting -------------------------------------------------------------------- */

static void add_member_json(struct dctx *c, struct xq_buf *b, uint32_t i, int kept)
{
	const struct dgame *d = &c->g[i];

	xq_buf_addc(b, '{');
	xq_buf_add_ndjson_source(b, c->files[d->file], d->number, d->line,
				 d->has_offset ? (int64_t)d->offset : -1);
	xq_buf_addf(b, ",\"format\":\"%s\",\"plies\":%u%s}", c->fmt_names[d->fmt],
		    (unsigned)d->plies, kept ? ",\"kept\":true" : "");
}

static void report_groups(struct dctx *c, const uint32_t *kept)
{
	struct xq_buf *b = &c->text;
	uint64_t number = 0;

	for (uint32_t i = 0; i < c->n; i++) {
		uint32_t size = 0;
		if (c->head[i] != i || c->next[i] == NONE)
			continue;
		for (uint32_t k = i; k != NONE; k = c->next[k])
			size++;
		number++;
		c->groups++;
		c->duplicates += size - 1;
		if (c->rep.fmt == REPORT_NDJSON) {
			xq_buf_addf(b, "{\"schema\":\"" GROUP_SCHEMA "\",\"group\":%llu,\"copies\":%u,\"members\":[",
				    (unsigned long long)number, (unsigned)size);
			for (uint32_t k = i; k != NONE; k = c->next[k]) {
				if (k != i)
					xq_buf_addc(b, ',');
				add_member_json(c, b, k, kept[i] == k);
			}
			xq_buf_adds(b, "]}\n");
		} else {
			xq_buf_addf(b, "group %llu: %u copies\n", (unsigned long long)number, (unsigned)size);
			for (uint32_t k = i; k != NONE; k = c->next[k]) {
				const struct dgame *d = &c->g[k];
				xq_buf_adds(b, kept[i] == k ? "* " : "  ");
				report_add_safe(b, c->files[d->file], strlen(c->files[d->file]));
				xq_buf_addf(b, ": game %u", (unsigned)d->number);
				if (d->line)
					xq_buf_addf(b, ", line %u", (unsigned)d->line);
				else if (d->has_offset)
					xq_buf_addf(b, ", byte %llu", (unsigned long long)d->offset);
				xq_buf_addf(b, " (%s, %u plies)\n", c->fmt_names[d->fmt], (unsigned)d->plies);
			}
		}
		if (b->len > 65536)
			report_flush_out(b);
	}
	report_flush_out(b);
}

static void print_summary(void *ctx, double secs)
{
	struct dctx *c = ctx;
	struct reporter *r = &c->rep;
	struct xq_buf *b;

	if (r->fmt == REPORT_NDJSON) {
		b = reporter_summary_open(r);
		reporter_summary_inputs(r, b, r->games);
		xq_buf_addf(b, ",\"compared\":%llu,\"groups\":%llu,\"duplicates\":%llu",
			    (unsigned long long)c->compared, (unsigned long long)c->groups,
			    (unsigned long long)c->duplicates);
		if (c->out.to)
			xq_buf_addf(b, ",\"to\":\"%s\",\"written\":%llu,\"removed\":%llu,\"stopped\":%s",
				    c->out.to, (unsigned long long)c->out.written,
				    (unsigned long long)c->removed, c->out.stop ? "true" : "false");
		reporter_summary_close(r, secs);
		return;
	}
	if (!(b = reporter_summary_text(r)))
		return;
	xq_buf_addf(b, "dedupe: %llu game%s in %llu file%s, %llu of %u plies or more compared: %llu group%s of the same game, %llu duplicate cop%s",
		    (unsigned long long)r->games, r->games == 1 ? "" : "s",
		    (unsigned long long)r->files, r->files == 1 ? "" : "s",
		    (unsigned long long)c->compared, c->min_plies, (unsigned long long)c->groups,
		    c->groups == 1 ? "" : "s", (unsigned long long)c->duplicates,
		    c->duplicates == 1 ? "y" : "ies");
	if (c->out.to)
		xq_buf_addf(b, "; %llu written as %s, %llu removed", (unsigned long long)c->out.written,
			    c->out.to, (unsigned long long)c->removed);
	reporter_unread_text(r, b);
	xq_buf_addf(b, " (%.2f s)\n", secs);
	reporter_flush(r);
}

/* ---- options and run -------------------------------------------------------------- */

static int take_option(void *ctx, struct opt_parser *p, int id, const char *value)
{
	struct dctx *c = ctx;
	long v;
	int rc = output_take(&c->out, &c->in, p, id, value);

	if (rc)
		return rc < 0 ? -1 : 0;
	switch (id) {
	case O_MIRROR: c->mirror = 1; break;
	case O_PREFIX: c->prefix = 1; break;
	case O_MIN_PLIES:
		if ((v = opt_int(p, "--min-plies", value, 1, 100000)) < 0)
			return -1;
		c->min_plies = (unsigned)v;
		break;
	}
	return 0;
}

static int reads_stdin(const struct dctx *c, const struct opt_parser *p)
{
	if (c->in.files0 && inputs_is_stdin(c->in.files0))
		return 1;
	if (p->noperands == 0 && !c->in.files0)
		return 1;
	for (int i = 0; i < p->noperands; i++)
		if (inputs_is_stdin(p->operands[i]))
			return 1;
	return 0;
}

static int check_args(struct dctx *c, struct opt_parser *p)
{
	if (c->out.to_name) {
		if (output_check(&c->out, &c->in, p))
			return -1;
	} else {
		if (c->out.out_path) {
			snprintf(p->err, sizeof(p->err), "-o writes games: give -t FORMAT");
			return -1;
		}
		if (input_opts_check(&c->in, p))
			return -1;
	}
	if ((c->out.to_name || c->prefix) && reads_stdin(c, p)) {
		snprintf(p->err, sizeof(p->err),
			 "%s reads the inputs again, and standard input cannot be read twice: give files",
			 c->out.to_name ? "-t" : "--prefix");
		return -1;
	}
	if (c->out.to_name && c->in.fmt == REPORT_NDJSON && !c->out.out_path) {
		snprintf(p->err, sizeof(p->err),
			 "--format ndjson writes to standard output: give -o for the records");
		return -1;
	}
	return 0;
}

/* One pass over the inputs: 0, or an exit status. */
static int run_pass(struct dctx *c, struct opt_parser *p, xq_batch_config *cfg)
{
	struct inputs inputs;
	int rc;

	if ((rc = input_opts_start(&c->in, &inputs, p, "dedupe")) != 0)
		return rc;
	c->seq = 0;
	c->out.inputs = &inputs;
	if (c->pass == 3) {
		if ((rc = output_prepare(&c->out, &inputs, &c->rep)) != 0) {
			progress_stop();
			inputs_release(&inputs);
			return rc;
		}
		if (input_opts_run(&c->in, &inputs, cfg) == XQ_ENOMEM)
			c->out.io_error = 1;
		rc = output_finish(&c->out, &inputs, &c->rep, print_summary, c, c->t0);
		inputs_release(&inputs);
		return rc;
	}
	rc = input_opts_run(&c->in, &inputs, cfg);
	inputs_release(&inputs);
	if (rc == XQ_ENOMEM || c->oom) {
		c->rep.io_error = 1;
		return CMD_EXIT_IO;
	}
	if (cmd_signal)
		return cmd_signal_status();
	return 0;
}

static int run(struct dctx *c, struct opt_parser *p)
{
	xq_batch_config cfg = {.process = pass1_process, .emit = pass1_emit, .ctx = c,
				  .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini,
				  .job_data = sizeof(struct djob)};
	uint32_t *kept;
	int rc;

	c->t0 = cmd_now();
	c->pass = 1;
	if ((rc = run_pass(c, p, &cfg)) != 0) {
		if (cmd_signal)
			cmd_error("interrupted: no group is reported");
		return rc;
	}
	if (build_groups(c)) {
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	if (!(c->parent = malloc((size_t)c->n * sizeof(*c->parent) + 1))) {
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	for (uint32_t i = 0; i < c->n; i++)
		c->parent[i] = NONE;
	if (c->prefix) {
		xq_batch_config cfg2 = {.process = pass2_process, .emit = pass2_emit, .ctx = c,
					   .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini};
		c->pass = 2;
		if ((rc = run_pass(c, p, &cfg2)) != 0)
			return rc;
		if (c->seq != c->n) {
			cmd_error("the inputs changed while they were read: read again");
			return CMD_EXIT_IO;
		}
		if (join_prefixes(c)) {
			cmd_error("out of memory");
			return CMD_EXIT_IO;
		}
	}
	if (!(kept = malloc((size_t)c->n * sizeof(*kept) + 1))) {
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	choose_kept(c, kept);
	if (!c->out.to)
		report_groups(c, kept);
	else {
		/* count the groups for the summary */
		for (uint32_t i = 0; i < c->n; i++)
			if (c->head[i] == i && c->next[i] != NONE) {
				c->groups++;
				for (uint32_t k = c->next[i]; k != NONE; k = c->next[k])
					c->duplicates++;
			}
	}
	free(c->parent);
	c->parent = kept;
	if (c->out.to) {
		xq_batch_config cfg3 = {.emit = pass3_emit, .ctx = c};
		c->pass = 3;
		return run_pass(c, p, &cfg3);
	}
	print_summary(c, cmd_now() - c->t0);
	return reporter_status(&c->rep, 0);
}

int cmd_dedupe(int argc, char **argv)
{
	struct opt_parser p;
	struct dctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c || opt_init(&p, argc, argv, "dedupe")) {
		free(c);
		cmd_error("out of memory");
		return CMD_EXIT_IO;
	}
	output_init(&c->out, "dedupe");
	input_opts_init(&c->in);
	c->min_plies = 10;
	xq_buf_init(&c->text);
	if ((rc = input_opts_parse(&c->in, &p, options, usage, summary, take_option, c)) == 0)
		rc = check_args(c, &p);
	if (rc) {
		rc = rc > 0 ? CMD_EXIT_OK : cmd_usage_error("dedupe", "%s", p.err);
	} else {
		reporter_init(&c->rep, "dedupe", &c->in);
		cmd_catch_signals();
		rc = run(c, &p);
	}
	for (uint32_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c->file_table);
	free(c->g);
	free(c->table);
	free(c->next);
	free(c->head);
	free(c->parent);
	xq_buf_release(&c->text);
	opt_release(&p);
	output_release(&c->out);
	reporter_release(&c->rep);
	free(c);
	return rc;
}
