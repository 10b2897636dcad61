/*
 * dedupe.c: `xqkit dedupe`, the groups of copies of the same game in a
 * collection, across files, formats, notations and encodings.
 *
 * Two games are the same when they start from the same position (pieces
 * and side to move) and play the same main line; with --mirror, also when
 * one is the other's left-right mirror; with --prefix, a game whose main
 * line is the start of a longer one's is a copy of the longer one.  Each
 * game is reduced on the worker that read it to a 128-bit hash of its
 * start and main line; a game compared (not broken, --min-plies long) is
 * kept as that key and a reference to where it was read, in a sort that
 * stays within a quarter of --max-memory and spills to scratch files
 * beyond (dedupe_groups.c); a game not compared is only counted.
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
#include "dedupe.h"
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

/* What a worker hands to emit (xq_batch_job.data). */
struct djob {
	struct drec r;
	const char *origin_file;
	int compared;
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

/* Is game `r` compared (pass 1 and the writing pass agree on it)? */
static int is_compared(const struct dctx *c, const xq_record *r, uint32_t plies)
{
	return !xq_record_is_broken(r) && plies >= c->min_plies;
}

static void take_key(void *arg, const uint64_t key[2], uint32_t plies)
{
	struct drec *d = arg;

	(void)plies;
	d->key[0] = key[0];
	d->key[1] = key[1];
}

static void pass1_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct dctx *c = ctx;
	struct djob *dj = j->data;
	struct drec *d = &dj->r;
	xq_record *r = j->record;
	uint64_t number, line;
	int64_t offset;

	memset(d, 0, sizeof(*d));
	d->plies = xq_record_mainline_length(r);
	if (!(dj->compared = is_compared(c, r, d->plies)))
		return;
	xq_record_origin(r, &dj->origin_file, &number, &line, &offset);
	d->number = cap32(number);
	d->line = cap32(line);
	d->offset = offset < 0 ? 0 : (uint64_t)offset;
	d->has_offset = offset >= 0;
	d->score = info_score(r, d->plies);
	line_keys(c, r, worker, d->plies, take_key, d);
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

	if (j->kind == XQ_BATCH_GAME && !c->failed) {
		struct djob *dj = j->data;
		c->games++;
		if (dj->compared) {
			dj->r.fmt = intern_format(c, j->file->format);
			dedupe_keep(c, &dj->r, dj->origin_file);
		}
	}
	reporter_job(&c->rep, j, NULL);
	reporter_flush(&c->rep);
	return cmd_signal || c->failed ? 1 : 0;
}

static void take_own(void *arg, const uint64_t key[2], uint32_t plies)
{
	uint64_t *own = arg;

	(void)plies;
	own[0] = key[0];
	own[1] = key[1];
}

/* --prefix: the starts of the game's line that may be a group's. */
struct prefix_arg {
	const struct dctx *c;
	struct xq_buf *found;
	uint32_t plies;
};

static void find_prefix(void *arg, const uint64_t key[2], uint32_t plies)
{
	struct prefix_arg *a = arg;

	/* (the last, the whole line, is the game's own group) */
	if (plies < a->plies && dedupe_maybe_group(a->c, key))
		xq_buf_add(a->found, key, 2 * sizeof(*key));
}

static void pass2_process(void *ctx, void *worker, xq_batch_job *j)
{
	struct dctx *c = ctx;
	xq_record *r = j->record;
	uint32_t plies = xq_record_mainline_length(r);
	struct prefix_arg a = {c, &j->text, plies};

	xq_buf_reset(&j->text);
	j->flags = is_compared(c, r, plies);
	if (!j->flags || plies <= c->min_plies)
		return;
	/* every start of the line of min_plies or more, and last the whole
	 * line, whose key is the game's own */
	line_keys(c, r, worker, c->min_plies, find_prefix, &a);
	line_keys(c, r, worker, plies, take_own, j->counts);
}

static int pass2_emit(void *ctx, xq_batch_job *j)
{
	struct dctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME && !c->failed) {
		c->games++;
		if (j->flags) {
			struct dcand d;
			size_t n = j->text.len / sizeof(d.prefix);
			d.own[0] = j->counts[0];
			d.own[1] = j->counts[1];
			d.plies = xq_record_mainline_length(j->record);
			d.idx = c->seen++;
			for (size_t k = 0; k < n && !c->failed; k++) {
				int rc;
				memcpy(d.prefix, j->text.ptr + k * sizeof(d.prefix), sizeof(d.prefix));
				if ((rc = extsort_add(&c->cands, &d)))
					dedupe_fail(c, rc, c->cands.err, "for the candidates of --prefix");
			}
		}
	}
	return cmd_signal || c->failed ? 1 : 0;
}

static int pass3_emit(void *ctx, xq_batch_job *j)
{
	struct dctx *c = ctx;

	if (j->kind == XQ_BATCH_GAME) {
		uint32_t plies = xq_record_mainline_length(j->record);
		int write = 1;
		c->games++;
		if (is_compared(c, j->record, plies)) {
			uint32_t i = c->seen++;
			write = i >= c->ncompared || !(c->removed[i >> 3] >> (i & 7) & 1);
		}
		xq_diagnostics_truncate(j->diags, 0); /* reported by the first pass */
		if (write) {
			output_game(&c->out, j, NULL);
			reporter_job_diags(&c->rep, j); /* what writing it said */
		} else {
			c->removed_n++;
		}
		reporter_flush(&c->rep);
	}
	return output_emit_status(&c->out);
}

/* ---- reporting -------------------------------------------------------------------- */

static void summary_json(void *ctx, struct xq_buf *b)
{
	struct dctx *c = ctx;

	xq_buf_addf(b, ",\"compared\":%llu,\"groups\":%llu,\"duplicates\":%llu",
		    (unsigned long long)c->compared, (unsigned long long)c->groups,
		    (unsigned long long)c->duplicates);
	if (c->out.to)
		xq_buf_addf(b, ",\"to\":\"%s\",\"written\":%llu,\"removed\":%llu,\"stopped\":%s",
			    c->out.to, (unsigned long long)c->out.written,
			    (unsigned long long)c->removed_n, c->out.stop ? "true" : "false");
}

static void summary_text(void *ctx, struct xq_buf *b, double secs)
{
	struct dctx *c = ctx;
	struct reporter *r = &c->rep;

	xq_buf_addf(b, "dedupe: %llu game%s in %llu file%s, %llu of %u plies or more compared: %llu group%s of the same game, %llu duplicate cop%s",
		    (unsigned long long)r->games, r->games == 1 ? "" : "s",
		    (unsigned long long)r->files, r->files == 1 ? "" : "s",
		    (unsigned long long)c->compared, c->min_plies, (unsigned long long)c->groups,
		    c->groups == 1 ? "" : "s", (unsigned long long)c->duplicates,
		    c->duplicates == 1 ? "y" : "ies");
	if (c->out.to)
		xq_buf_addf(b, "; %llu written as %s, %llu removed", (unsigned long long)c->out.written,
			    c->out.to, (unsigned long long)c->removed_n);
	reporter_unread_text(r, b);
	xq_buf_addf(b, " (%.2f s)\n", secs);
}

static const struct report_summary summary_parts = {.json = summary_json, .text = summary_text};

static void print_summary(void *ctx, double secs)
{
	struct dctx *c = ctx;

	reporter_summary(&c->rep, secs, c->rep.games, &summary_parts, c);
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

/* What the options say together: 0, or -1 with the message in p->err. */
static int check_args(void *ctx, struct opt_parser *p)
{
	struct dctx *c = ctx;

	if (c->out.to_name) {
		if (output_check(&c->out, &c->in, p))
			return -1;
	} else {
		if (c->out.out_path)
			return opt_error(p, "-o writes games: give -t FORMAT");
		if (input_opts_check(&c->in, p))
			return -1;
	}
	if ((c->out.to_name || c->prefix) && reads_stdin(c, p))
		return opt_error(p, "%s reads the inputs again, and standard input cannot be read twice: give files",
				 c->out.to_name ? "-t" : "--prefix");
	if (c->out.to_name && c->in.fmt == REPORT_NDJSON && !c->out.out_path)
		return opt_error(p, "--format ndjson writes to standard output: give -o for the records");
	return 0;
}

static const struct input_command command = {"dedupe", options, usage, summary, take_option,
					     check_args};

/* One pass over the inputs: 0, or an exit status. */
static int run_pass(struct dctx *c, struct opt_parser *p, xq_batch_config *cfg)
{
	struct inputs inputs;
	int rc;

	if ((rc = input_opts_start(&c->in, &inputs, p, "dedupe")) != 0)
		return rc;
	c->seen = 0;
	c->games = 0;
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
		return output_grep_status(&c->out, &c->rep, rc, c->groups > 0);
	}
	rc = input_opts_run(&c->in, &inputs, cfg);
	inputs_release(&inputs);
	if (rc == XQ_ENOMEM || c->failed) {
		c->rep.io_error = 1;
		return CMD_EXIT_IO;
	}
	if (cmd_signal)
		return cmd_signal_status();
	if (c->pass == 1)
		c->games1 = c->games;
	else if (c->games != c->games1 || c->seen != c->ncompared) {
		cmd_error("the inputs changed while they were read: read again");
		return CMD_EXIT_IO;
	}
	return 0;
}

/* Pass 1 or 2, which only gather (nothing is reported before the groups
 * are known): 0, or the exit status, after saying so when a signal
 * stopped it. */
static int counting_pass(struct dctx *c, struct opt_parser *p, int pass, xq_batch_config *cfg)
{
	int rc;

	c->pass = pass;
	if ((rc = run_pass(c, p, cfg)) != 0 && cmd_signal)
		cmd_error("interrupted: no group is reported");
	return rc;
}

/*
 * The memory: a quarter of --max-memory (at least 2 MiB) for the games
 * compared (dedupe.h), the rest for reading (the batch's budget).
 */
static void share_memory(struct dctx *c)
{
	uint64_t total = c->in.read_options.max_memory ? c->in.read_options.max_memory
						       : XQ_MEMORY_DEFAULT;

	c->state_mem = total / 4 < ((uint64_t)2 << 20) ? (uint64_t)2 << 20 : total / 4;
	c->in.read_options.max_memory =
		total - c->state_mem < XQ_MEMORY_MIN ? XQ_MEMORY_MIN : total - c->state_mem;
}

static int run(struct dctx *c, struct opt_parser *p)
{
	xq_batch_config cfg = {.process = pass1_process, .emit = pass1_emit, .ctx = c,
				  .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini,
				  .job_data = sizeof(struct djob)};
	int rc;

	c->t0 = cmd_now();
	share_memory(c);
	if (dedupe_start(c))
		return CMD_EXIT_IO;
	if ((rc = counting_pass(c, p, 1, &cfg)) != 0)
		return rc;
	if (c->prefix) {
		xq_batch_config cfg2 = {.process = pass2_process, .emit = pass2_emit, .ctx = c,
					   .worker_init = cmd_position_worker_init, .worker_fini = cmd_position_worker_fini};
		if (dedupe_prepare_prefixes(c))
			return CMD_EXIT_IO;
		if ((rc = counting_pass(c, p, 2, &cfg2)) != 0)
			return rc;
	}
	c->compared = c->ncompared;
	rc = dedupe_groups(c, !c->out.to);
	if (rc < 0)
		return CMD_EXIT_IO;
	if (rc > 0) {
		cmd_error("interrupted: the groups before the signal were reported");
		return cmd_signal_status();
	}
	if (c->out.to) {
		xq_batch_config cfg3 = {.emit = pass3_emit, .ctx = c};
		c->pass = 3;
		return run_pass(c, p, &cfg3);
	}
	print_summary(c, cmd_now() - c->t0);
	return output_grep_status(&c->out, &c->rep, 0, c->groups > 0);
}

int cmd_dedupe(int argc, char **argv)
{
	struct opt_parser p;
	struct dctx *c = calloc(1, sizeof(*c));
	int rc;

	if (!c) {
		cmd_error("out of memory starting dedupe");
		return CMD_EXIT_IO;
	}
	output_init(&c->out, "dedupe");
	input_opts_init(&c->in);
	c->min_plies = 10;
	xq_buf_init(&c->text);
	xq_buf_init(&c->name_buf);
	if ((rc = input_opts_command(&c->in, &p, argc, argv, &command, c)) == OPT_RUN) {
		reporter_init(&c->rep, "dedupe", &c->in);
		cmd_catch_signals();
		rc = run(c, &p);
	}
	dedupe_release(c);
	opt_release(&p);
	output_release(&c->out);
	reporter_release(&c->rep);
	free(c);
	return rc;
}
