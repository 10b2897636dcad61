/*
 * convert.c: `xqkit convert`, every game of every input into one format.
 *
 * Games go to one output (a file, or standard output) or, with -o DIR/,
 * one file per game named from a template of tags.  A file output is
 * written to a temporary file and renamed only when the run ends without
 * an I/O error (formats/io); an existing file is refused without --force,
 * and an input is never overwritten, even with --force, however it was
 * found (cmd/inputs: inputs_guard, inputs_prescan).
 *
 * Each game is first written into memory through the target format's
 * writer: what the format cannot hold comes back as "loss" warnings for
 * that game (with --strict the game is then refused and its bytes
 * dropped), and --verify reads those exact bytes back with the format's
 * reader and compares: the moves, variations, result, comments, NAGs and
 * tags the format can hold must come back as they were (what a reported
 * loss took is not held against it), and writing the game read back must
 * give the same bytes again.  Only then do the bytes reach the output.
 *
 * A game a reader flagged broken is reported and skipped, or written up
 * to its first error with --keep-broken; it is never altered silently.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "diag.h"
#include "format.h"
#include "game.h"
#include "inputs.h"
#include "io.h"
#include "movetext.h"
#include "opt.h"
#include "pool.h"
#include "progress.h"
#include "report.h"
#include "utf8.h"

#define SUMMARY_SCHEMA "xqkit.summary/1"
#define DEFAULT_TEMPLATE "{n:4}-{Red}-{Black}"
#define NAME_MAX_BYTES 200

static const char usage[] =
	"xqkit convert -t FORMAT [-o OUT|-o DIR/] [--notation NAME] [--encoding ENC]\n"
	"                     [--verify] [--keep-broken] [--force] [-r] [-j THREADS] [INPUT...]";
static const char summary[] =
	"Convert every game of the inputs (files, directories with -r, '-' for standard\n"
	"input) to FORMAT: all into one output (standard output by default), or one file\n"
	"per game with -o DIR/ (names from --name).  What FORMAT cannot hold is reported\n"
	"for each game; a broken game is reported and skipped.  Exit status 1 when a game\n"
	"was skipped or did not verify.";

enum { O_TO = 't', O_OUT = 'o', O_NAME = 'N', O_NOTATION = 'n', O_ENCODING = 'e',
       O_VERSION = 'V', O_FORCE = 'f', O_KEEP = 'k', O_VERIFY = 'y', O_STRICT = 's',
       O_RECURSIVE = 'r', O_FROM = 'F', O_IENC = 'E', O_JOBS = 'j', O_QUIET = 'q',
       O_PROGRESS = 'P', O_VERBOSE = 'v', O_FORMAT = 'D', O_HELP = 'h', O_FILES0 = 0x100 };

static const struct opt_spec options[] = {
	OPT_VALUE(O_TO, 't', "to", "FORMAT", "the format to write"),
	OPT_VALUE(O_OUT, 'o', "output", "OUT", "output file, '-' (standard output, the default) or DIR/"),
	OPT_VALUE(O_NAME, 0, "name", "TEMPLATE", "file names under DIR/ (default " DEFAULT_TEMPLATE ")"),
	OPT_VALUE(O_NOTATION, 0, "notation", "NAME", "move notation of text formats (" MOVETEXT_NAMES ")"),
	OPT_VALUE(O_ENCODING, 0, "encoding", "ENC", "text encoding to write (default: the format's, UTF-8)"),
	OPT_VALUE(O_VERSION, 0, "format-version", "V", "version of the format to write (e.g. 0x0A)"),
	OPT_FLAG(O_FORCE, 0, "force", "replace existing output files (never an input)"),
	OPT_FLAG(O_KEEP, 0, "keep-broken", "write broken games up to their first error"),
	OPT_FLAG(O_VERIFY, 0, "verify", "read every game written back and compare"),
	OPT_FLAG(O_STRICT, 0, "strict", "refuse a game the format cannot hold whole"),
	OPT_FLAG(O_RECURSIVE, 'r', "recursive", "read the record files in directories, and below"),
	OPT_VALUE(O_FILES0, 0, "files0-from", "FILE", "also read the inputs named in FILE, NUL-separated ('-': stdin)"),
	OPT_VALUE(O_FROM, 0, "from", "FORMAT", "read every input as FORMAT (default: detect)"),
	OPT_VALUE(O_IENC, 0, "input-encoding", "ENC", "text encoding of the inputs (default: detect)"),
	OPT_VALUE(O_JOBS, 'j', "jobs", "THREADS", "read on this many threads, big files too (default 1)"),
	OPT_FLAG(O_QUIET, 'q', "quiet", "no progress and no summary"),
	OPT_FLAG(O_PROGRESS, 0, "progress", "show progress even when stderr is not a terminal"),
	OPT_FLAG(O_VERBOSE, 'v', "verbose", "also list files skipped in directories"),
	OPT_VALUE(O_FORMAT, 0, "format", "FMT", "diagnostics as text (stderr) or ndjson (stdout; needs -o)"),
	OPT_MAX_MEMORY,
	OPT_FLAG(O_HELP, 'h', "help", "show this help"),
	OPT_END,
};

struct cctx {
	const struct xq_format *to;
	struct xq_write_opts wopts;
	const char *out_path;     /* NULL or "-": standard output */
	int dir_mode;
	char *dir;                /* DIR (with a final '/') */
	const char *template;
	int force, keep_broken, verify, strict, quiet, verbose;
	int fault_verify; /* XQ_TEST_FAULT=verify (tests only; see cmd.h) */
	enum report_format fmt;
	struct inputs *inputs;    /* to ask whether a file is an input */
	/* the single output (file or stdout) */
	struct xq_output *out;
	struct xq_output *mem_out; /* the writer writes here; drained after each game */
	struct xq_buf mem;
	void *writer;
	struct xq_buf prefix, suffix; /* what the writer adds around games (for --verify) */
	/* sink for writers and read-back */
	struct xq_sink sink;
	struct pool_job *cur;
	struct diag_list scratch;  /* diagnostics of --verify's own reading */
	int scratch_mode;
	/* names used under DIR/ in this run (hashes) */
	uint64_t *names;
	size_t nnames, names_alloc;
	/* totals */
	struct report_counts counts;
	uint64_t files, skipped_files, failed_files, damaged_files, games, written, skipped, lossy, kept_broken,
		 verified, verify_failed, seq;
	int io_error, stop;
	int disk_full;            /* -o DIR/: a file could not be written for want of space */
	struct xq_buf err, outbuf;
};

static void writer_sink(const struct xq_diag *d, void *payload)
{
	struct cctx *c = payload;
	struct xq_diag copy = *d;

	if (c->scratch_mode || !c->cur) {
		diag_list_add(&c->scratch, d);
		return;
	}
	/* A writer's diagnostic is about the game being written: place it
	 * there, in the input, whatever the writer filled in. */
	copy.source = c->cur->file->name;
	if (c->cur->kind == POOL_GAME) {
		copy.game = c->cur->game.number;
		if (!copy.place.line && !copy.place.offset) {
			copy.place = c->cur->game.place;
			copy.has_offset = c->cur->game.place.line == 0;
		}
	}
	if (c->strict && copy.code == XQ_D_LOSS)
		copy.severity = XQ_SEV_ERROR;
	diag_list_add(&c->cur->diags, &copy);
}

static void add_diag(struct pool_job *j, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
static void add_diag(struct pool_job *j, enum xq_severity sev, enum xq_diag_code code,
		     const char *fmt, ...)
{
	struct xq_diag d;
	va_list ap;

	xq_diag_init(&d);
	d.source = j->file->name;
	if (j->kind == POOL_GAME) {
		d.place = j->game.place;
		d.has_offset = j->game.place.line == 0;
		d.game = j->game.number;
	}
	va_start(ap, fmt);
	xq_diag_vset(&d, 0, code, sev, fmt, ap);
	va_end(ap);
	diag_list_add(&j->diags, &d);
}

/* ---- names under DIR/ ------------------------------------------------------ */

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* The names are kept as 64-bit hashes in an open-addressing table (0 marks
 * a free slot): a run writing a million files stays fast and small. */
static int name_used(const struct cctx *c, uint64_t h)
{
	if (!c->names_alloc)
		return 0;
	h = h ? h : 1;
	for (size_t i = h & (c->names_alloc - 1);; i = (i + 1) & (c->names_alloc - 1)) {
		if (c->names[i] == h)
			return 1;
		if (!c->names[i])
			return 0;
	}
}

static int remember_name(struct cctx *c, uint64_t h)
{
	h = h ? h : 1;
	if (2 * (c->nnames + 1) > c->names_alloc) {
		size_t cap = c->names_alloc ? c->names_alloc * 2 : 1024;
		uint64_t *p = calloc(cap, sizeof(*p)), *old = c->names;
		size_t oldcap = c->names_alloc;
		if (!p)
			return XQ_ENOMEM;
		c->names = p;
		c->names_alloc = cap;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i]) {
				size_t k = old[i] & (cap - 1);
				while (p[k])
					k = (k + 1) & (cap - 1);
				p[k] = old[i];
			}
		free(old);
	}
	{
		size_t k = h & (c->names_alloc - 1);
		while (c->names[k] && c->names[k] != h)
			k = (k + 1) & (c->names_alloc - 1);
		if (!c->names[k])
			c->nnames++;
		c->names[k] = h;
	}
	return 0;
}

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

/* Append `s` made safe for a file name: no '/', no control or invisible
 * character (is_invisible) and none of \ : * ? " < > | (which other
 * systems refuse). */
static void add_name_part(struct xq_buf *b, const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len;) {
		unsigned char ch = (unsigned char)s[i];
		size_t n = ch < 0x80 ? 1 : xq_utf8_valid_prefix(s + i, len - i);
		uint32_t cp = ch;
		if (n > 1)
			xq_utf8_decode(s + i, n, &cp);
		if (n == 0 || ch < 0x20 || ch == 0x7f || strchr("/\\:*?\"<>|", ch) || is_invisible(cp)) {
			xq_buf_addc(b, '_');
			n = n ? n : 1;
		} else if (xq_is_space(ch)) {
			xq_buf_addc(b, '_');
		} else {
			xq_buf_add(b, s + i, n);
		}
		i += n;
	}
}

/* The input's base name without directories, ".gz" and its extension. */
static void add_file_base(struct xq_buf *b, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;
	char tmp[256];

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 3 && !strcmp(base + len - 3, ".gz"))
		len -= 3;
	{
		const char *dot = NULL;
		for (size_t i = 1; i < len; i++)
			if (base[i] == '.')
				dot = base + i;
		if (dot)
			len = (size_t)(dot - base);
	}
	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, base, len);
	tmp[len] = '\0';
	add_name_part(b, tmp);
}

/* A tag for the template: its exact name first, else the first tag whose
 * name differs only in ASCII case ({red} finds Red: nobody means another
 * tag by it). */
static const char *template_tag(const struct xq_game *g, const char *key)
{
	const char *v = xq_game_tag(g, key);

	for (size_t i = 0; !v && i < g->ntags; i++)
		if (xq_ascii_ieq(g->tags[i].name, key))
			v = g->tags[i].value;
	return v;
}

/* Expand the template for game `j` (the `seq`th of the run). */
static void expand_template(struct cctx *c, const struct pool_job *j, uint64_t seq,
			    struct xq_buf *b)
{
	const char *t = c->template;

	while (*t) {
		const char *close;
		if (*t != '{' || !(close = strchr(t, '}'))) {
			char one[2] = {*t, 0};
			add_name_part(b, one);
			t++;
			continue;
		}
		{
			char key[64];
			size_t klen = (size_t)(close - t - 1);
			int width = 0;
			char *colon;
			if (klen >= sizeof(key))
				klen = sizeof(key) - 1;
			memcpy(key, t + 1, klen);
			key[klen] = '\0';
			if ((colon = strchr(key, ':'))) {
				*colon = '\0';
				for (const char *w = colon + 1; xq_is_digit((unsigned char)*w) && width < 20; w++)
					width = width * 10 + (*w - '0');
				if (width > 20)
					width = 20;
			}
			if (!strcmp(key, "n"))
				xq_buf_addf(b, "%0*llu", width, (unsigned long long)seq);
			else if (!strcmp(key, "game"))
				xq_buf_addf(b, "%0*llu", width, (unsigned long long)j->game.number);
			else if (!strcmp(key, "file"))
				add_file_base(b, j->file->path);
			else {
				const char *v = template_tag(&j->game, key);
				if (v)
					add_name_part(b, v);
			}
		}
		t = close + 1;
	}
}

/* Tidy an expanded name: no runs of '-' or '_', none at the ends, no
 * leading dot, at most NAME_MAX_BYTES bytes (on a character boundary). */
static void tidy_name(struct xq_buf *b, uint64_t seq)
{
	struct xq_buf t = XQ_BUF_INIT;
	size_t i = 0;

	while (i < b->len && (b->ptr[i] == '-' || b->ptr[i] == '_' || b->ptr[i] == '.'))
		i++;
	for (; i < b->len; i++) {
		char ch = b->ptr[i];
		int sep = ch == '-' || ch == '_';
		if (sep && t.len && (t.ptr[t.len - 1] == '-' || t.ptr[t.len - 1] == '_'))
			continue;
		xq_buf_addc(&t, ch);
	}
	while (t.len && (t.ptr[t.len - 1] == '-' || t.ptr[t.len - 1] == '_'))
		xq_buf_truncate(&t, t.len - 1);
	if (t.len > NAME_MAX_BYTES) {
		size_t n = NAME_MAX_BYTES;
		while (n > 0 && ((unsigned char)t.ptr[n] & 0xC0) == 0x80)
			n--;
		xq_buf_truncate(&t, n);
	}
	if (t.len == 0)
		xq_buf_addf(&t, "%llu", (unsigned long long)seq);
	xq_buf_reset(b);
	xq_buf_add(b, t.ptr, t.len);
	xq_buf_release(&t);
}

/* The format's first extension, in lower case (".pgn"). */
static void add_extension(struct xq_buf *b, const struct xq_format *f)
{
	const char *e = f->extensions;

	if (!e || *e != '.')
		return;
	for (; *e && *e != ' '; e++)
		xq_buf_addc(b, (char)xq_to_lower((unsigned char)*e));
}

/* ---- writing into memory ---------------------------------------------------- */

/* Drain what the writer produced into `dst` (appended), emptying c->mem. */
static void drain(struct cctx *c, struct xq_buf *dst)
{
	if (dst)
		xq_buf_add(dst, c->mem.ptr, c->mem.len);
	xq_buf_reset(&c->mem);
}

/* Open a writer on c->mem.  Returns 0 or an XQ_E* code. */
static int open_mem_writer(struct cctx *c, void **w, struct xq_output **o)
{
	int rc = xq_output_open_mem(o, &c->mem);

	if (rc)
		return rc;
	rc = c->to->open_writer(w, *o, &c->wopts, &c->sink);
	if (rc) {
		xq_output_abort(*o);
		*o = NULL;
	}
	return rc;
}

/* The whole document one fresh writer makes of `g`, appended to `out`. */
static int write_alone(struct cctx *c, const struct xq_game *g, struct xq_buf *out)
{
	struct xq_output *o = NULL;
	void *w = NULL;
	int rc;

	xq_buf_reset(&c->mem);
	if ((rc = open_mem_writer(c, &w, &o)))
		return rc;
	rc = c->to->write(w, g);
	c->to->close_writer(w);
	xq_output_commit(o, NULL);
	drain(c, out);
	return rc;
}

/* ---- --verify ------------------------------------------------------------------ */

static int same_result(enum xq_result a, enum xq_result b)
{
	if (a == XQ_RESULT_NONE)
		a = XQ_RESULT_UNKNOWN;
	if (b == XQ_RESULT_NONE)
		b = XQ_RESULT_UNKNOWN;
	return a == b;
}

/*
 * Read `doc` back and compare with `g`; on a difference add an error to
 * the job and return 1.  `lossy`: the writer reported losses for `g`.
 */
static int verify_game(struct cctx *c, struct pool_job *j, const struct xq_buf *doc, int lossy)
{
	const struct xq_game *g = &j->game;
	unsigned caps = c->to->caps, ignore = XQ_EQ_IGNORE_TAGS | XQ_EQ_IGNORE_RESULT;
	struct xq_input *in = NULL;
	struct xq_read_opts ro = XQ_READ_OPTS_INIT;
	struct xq_game back;
	struct xq_buf again = XQ_BUF_INIT;
	void *reader = NULL;
	char why[256] = "";
	int rc, ok = 0;

	if (xq_game_init(&back))
		return 1;
	c->scratch_mode = 1;
	diag_list_clear(&c->scratch);
	if (xq_input_open_mem(&in, "<written>", doc->ptr, doc->len) ||
	    c->to->open_reader(&reader, in, &ro, &c->sink)) {
		snprintf(why, sizeof(why), "the output cannot be opened again by the %s reader",
			 c->to->name);
		goto done;
	}
	rc = c->to->read(reader, &back);
	if (rc != 1) {
		snprintf(why, sizeof(why), "no game could be read back");
		goto done;
	}
	for (size_t i = 0; i < c->scratch.n; i++)
		if (c->scratch.v[i].severity == XQ_SEV_ERROR) {
			snprintf(why, sizeof(why), "reading it back: %.200s", c->scratch.v[i].msg);
			goto done;
		}
	if (!(caps & XQ_CAP_VARIATIONS))
		ignore |= XQ_EQ_MAINLINE_ONLY;
	if (!(caps & XQ_CAP_COMMENTS) || lossy)
		ignore |= XQ_EQ_IGNORE_COMMENTS;
	if (!(caps & XQ_CAP_PRE_COMMENTS) || lossy)
		ignore |= XQ_EQ_IGNORE_PRE_COMMENTS;
	if (!(caps & XQ_CAP_NAGS) || lossy)
		ignore |= XQ_EQ_IGNORE_NAGS;
	if (!xq_game_equal(g, &back, ignore, why, sizeof(why)))
		goto done;
	if (!same_result(g->result, back.result)) {
		snprintf(why, sizeof(why), "the result %s came back as %s", xq_result_string(g->result),
			 xq_result_string(back.result));
		goto done;
	}
	if (!lossy) {
		for (size_t i = 0; i < g->ntags; i++) {
			const struct xq_tag *t = &g->tags[i];
			const char *v;
			/* Tags that describe the record itself are rewritten by
			 * writers: the start position, the result, the notation. */
			if (!strcmp(t->name, "FEN") || !strcmp(t->name, "Result") ||
			    !strcmp(t->name, "Format"))
				continue;
			v = xq_game_tag(&back, t->name);
			if (!v && !(caps & XQ_CAP_ANY_TAGS))
				continue;
			if (xq_game_tag(g, t->name) != t->value)
				continue; /* a repeated tag: the first one counts */
			if (!v || strcmp(v, t->value)) {
				snprintf(why, sizeof(why), "the %.40s tag '%.60s' came back as '%.60s'",
					 t->name, t->value, v ? v : "(absent)");
				goto done;
			}
		}
	}
	/* The game read back must write to the same bytes again. */
	{
		struct xq_buf first = XQ_BUF_INIT;
		rc = write_alone(c, g, &first);
		if (!rc)
			rc = write_alone(c, &back, &again);
		if (!rc && (first.len != again.len || memcmp(first.ptr, again.ptr, first.len))) {
			size_t k = 0;
			while (k < first.len && k < again.len && first.ptr[k] == again.ptr[k])
				k++;
			snprintf(why, sizeof(why), "written again after reading back, it differs at byte %zu",
				 k);
			xq_buf_release(&first);
			goto done;
		}
		xq_buf_release(&first);
	}
	ok = 1;
done:
	if (reader)
		c->to->close_reader(reader);
	xq_input_close(in);
	xq_game_release(&back);
	xq_buf_release(&again);
	c->scratch_mode = 0;
	/* Where the writer reported no loss, its own reader must give the game
	 * back whole: anything else is a bug in xqkit (exit status 4), not a
	 * property of the input.  After a reported loss (text cut to fit a
	 * field, characters the encoding lacks), the copy may differ. */
	if (!ok)
		add_diag(j, XQ_SEV_ERROR, lossy ? XQ_D_LOSS : XQ_D_INTERNAL, "--verify: %s", why);
	return !ok;
}

/* ---- one game ------------------------------------------------------------------ */

static int count_losses(const struct pool_job *j, size_t from)
{
	int n = 0;
	for (size_t i = from; i < j->diags.n; i++)
		if (j->diags.v[i].code == XQ_D_LOSS)
			n++;
	return n;
}

/* Write one game to its own file under DIR/.  Returns 0, or 1 when it was
 * not written (reported). */
static int write_to_dir(struct cctx *c, struct pool_job *j, const struct xq_buf *doc)
{
	struct xq_buf name = XQ_BUF_INIT, path = XQ_BUF_INIT;
	struct xq_output *o;
	struct xq_diag d;
	uint64_t h;
	int rc, n = 1;

	expand_template(c, j, c->seq, &name);
	tidy_name(&name, c->seq);
	for (;;) {
		xq_buf_reset(&path);
		xq_buf_adds(&path, c->dir);
		xq_buf_add(&path, name.ptr, name.len);
		if (n > 1)
			xq_buf_addf(&path, "-%d", n);
		add_extension(&path, c->to);
		h = hash_name(path.ptr);
		if (!name_used(c, h))
			break;
		n++;
	}
	remember_name(c, h);
	xq_buf_release(&name);
	/* Only --force replaces a file, and never an input (the inputs were
	 * all listed before the run: inputs_prescan). */
	if (c->force && inputs_is_input(c->inputs, path.ptr)) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_IO,
			 "not written: '%s' is one of the inputs, and an input is never overwritten",
			 path.ptr);
		xq_buf_release(&path);
		return 1;
	}
	xq_diag_init(&d);
	rc = xq_output_open(&o, path.ptr, c->force ? XQ_OUTPUT_FORCE : 0, &d);
	if (!rc) {
		xq_output_write(o, doc->ptr, doc->len);
		rc = xq_output_commit(o, &d);
	}
	if (rc) {
		add_diag(j, XQ_SEV_ERROR, d.code, "not written: %s", d.msg);
		if (d.code == XQ_D_RESOURCE) {
			/* A full disk: every later game would fail the same way. */
			c->disk_full = 1;
			c->io_error = 1;
			c->stop = 1;
		} else if (rc != XQ_EIO || !strstr(d.msg, "already exists")) {
			c->io_error = 1;
		}
		xq_buf_release(&path);
		return 1;
	}
	if (c->verbose)
		add_diag(j, XQ_SEV_NOTE, XQ_D_NONE, "written to '%s'", path.ptr);
	xq_buf_release(&path);
	return 0;
}

/* Tell the game why it is broken (the first error read), for writers that
 * show it: "line 22, column 6: ply 17 (炮八进九): the red cannon ...". */
static void note_error(struct pool_job *j)
{
	struct xq_buf b = XQ_BUF_INIT;

	for (size_t i = 0; i < j->diags.n; i++) {
		const struct xq_diag *d = &j->diags.v[i];
		if (d->severity != XQ_SEV_ERROR)
			continue;
		if (d->place.line && d->place.col)
			xq_buf_addf(&b, "line %u, column %u: ", (unsigned)d->place.line,
				    (unsigned)d->place.col);
		else if (d->place.line)
			xq_buf_addf(&b, "line %u: ", (unsigned)d->place.line);
		else if (d->has_offset)
			xq_buf_addf(&b, "byte %llu: ", (unsigned long long)d->place.offset);
		if (d->ply && d->move[0])
			xq_buf_addf(&b, "ply %u (%s): ", (unsigned)d->ply, d->move);
		else if (d->ply)
			xq_buf_addf(&b, "ply %u: ", (unsigned)d->ply);
		xq_buf_adds(&b, d->msg);
		xq_game_set_error(&j->game, b.ptr, b.len);
		break;
	}
	xq_buf_release(&b);
}

static void convert_game(struct cctx *c, struct pool_job *j)
{
	struct xq_game *g = &j->game;
	struct xq_buf doc = XQ_BUF_INIT;
	size_t before = j->diags.n;
	int rc, lossy;

	if ((g->flags & XQ_GAME_BROKEN) && !c->keep_broken) {
		add_diag(j, XQ_SEV_NOTE, XQ_D_NONE,
			 "skipped: the game has an error (--keep-broken writes it up to the error)");
		c->skipped++;
		return;
	}
	if (!c->dir_mode && !(c->to->caps & XQ_CAP_MULTI) && c->written > 0) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS,
			 "skipped: %s holds one game per file; write to a directory with -o DIR/",
			 c->to->name);
		c->skipped++;
		return;
	}
	c->cur = j;
	c->seq++;
	if (g->flags & XQ_GAME_BROKEN)
		note_error(j);
	if (c->dir_mode) {
		rc = write_alone(c, g, &doc);
	} else {
		rc = c->to->write(c->writer, g);
		drain(c, &doc);
	}
	lossy = count_losses(j, before) > 0;
	if (rc) {
		if (rc != XQ_ENOMEM && rc != XQ_EIO)
			add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS, "skipped: the %s writer refused it: %s",
				 c->to->name, xq_strerror(rc));
		else {
			c->io_error = 1;
			add_diag(j, XQ_SEV_ERROR, XQ_D_IO, "cannot write: %s", xq_strerror(rc));
		}
		c->skipped++;
		goto out;
	}
	if (lossy && c->strict) {
		add_diag(j, XQ_SEV_ERROR, XQ_D_LOSS, "skipped: %s cannot hold it whole (--strict)",
			 c->to->name);
		c->skipped++;
		goto out;
	}
	if (c->verify) {
		struct xq_buf whole = XQ_BUF_INIT;
		const struct xq_buf *check = &doc;
		if (!c->dir_mode) {
			xq_buf_add(&whole, c->prefix.ptr, c->prefix.len);
			xq_buf_add(&whole, doc.ptr, doc.len);
			xq_buf_add(&whole, c->suffix.ptr, c->suffix.len);
			check = &whole;
		}
		if (c->fault_verify && check->len > 1) {
			/* XQ_TEST_FAULT=verify: what is read back is cut in half,
			 * as a writer with a bug would leave it. */
			if (check != &whole)
				xq_buf_add(&whole, check->ptr, check->len);
			whole.len = (whole.len + 1) / 2;
			check = &whole;
		}
		rc = verify_game(c, j, check, lossy);
		xq_buf_release(&whole);
		if (rc) {
			c->verify_failed++;
			c->skipped++;
			goto out;
		}
		c->verified++;
	}
	if (c->dir_mode) {
		if (write_to_dir(c, j, &doc)) {
			c->skipped++;
			goto out;
		}
	} else if (xq_output_write(c->out, doc.ptr, doc.len)) {
		c->io_error = 1;
		c->stop = 1;
		add_diag(j, XQ_SEV_ERROR, XQ_D_IO, "cannot write to '%s'", xq_output_name(c->out));
		goto out;
	}
	c->written++;
	if (lossy)
		c->lossy++;
	if (g->flags & XQ_GAME_BROKEN) {
		c->kept_broken++;
		add_diag(j, XQ_SEV_WARNING, XQ_D_TRUNCATED,
			 "written only up to its first error (--keep-broken)");
	}
out:
	c->cur = NULL;
	xq_buf_release(&doc);
}

static int convert_emit(void *ctx, struct pool_job *j)
{
	struct cctx *c = ctx;

	if (j->kind == POOL_GAME) {
		c->games++;
		convert_game(c, j);
	} else {
		switch (j->file->status) {
		case POOL_FILE_OK: c->files++; break;
		case POOL_FILE_DAMAGED: c->files++; c->damaged_files++; break;
		case POOL_FILE_IO: c->files++; c->io_error = 1; break;
		case POOL_FILE_SKIPPED:
			c->skipped_files++;
			if (c->verbose)
				add_diag(j, XQ_SEV_NOTE, XQ_D_NONE,
					 "skipped: no record format recognises it");
			break;
		case POOL_FILE_FAILED: c->failed_files++; break;
		}
	}
	for (size_t i = 0; i < j->diags.n; i++) {
		const struct xq_diag *d = &j->diags.v[i];
		if (d->code == XQ_D_IO && d->severity == XQ_SEV_ERROR &&
		    j->kind == POOL_END)
			c->io_error = 1;
		report_count(&c->counts, d);
		if (c->fmt == REPORT_NDJSON)
			report_json(&c->outbuf, d, j->file->binary);
		else
			report_text(&c->err, d, j->file->binary);
	}
	report_flush_err(&c->err);
	report_flush_out(&c->outbuf);
	if (cmd_signal || inputs_conflict(c->inputs))
		c->stop = 1;
	return c->stop ? 1 : 0;
}

/* ---- setup ------------------------------------------------------------------------ */

static int open_single_output(struct cctx *c)
{
	struct xq_diag d;
	int rc;

	xq_diag_init(&d);
	rc = xq_output_open(&c->out, c->out_path ? c->out_path : "-", c->force ? XQ_OUTPUT_FORCE : 0,
			    &d);
	if (rc) {
		cmd_error("%s", d.msg);
		return -1;
	}
	/* What the writer adds around the games, for --verify. */
	if (c->verify) {
		void *w = NULL;
		struct xq_output *o = NULL;
		if (open_mem_writer(c, &w, &o) == 0) {
			drain(c, &c->prefix);
			c->to->close_writer(w);
			xq_output_commit(o, NULL);
			drain(c, &c->suffix);
		}
	}
	if ((rc = open_mem_writer(c, &c->writer, &c->mem_out))) {
		if (c->scratch.n)
			cmd_error("%s", c->scratch.v[0].msg);
		else
			cmd_error("cannot write %s: %s", c->to->name, xq_strerror(rc));
		diag_list_clear(&c->scratch);
		xq_output_abort(c->out);
		c->out = NULL;
		return rc == XQ_EUNSUPPORTED ? 2 : -1;
	}
	/* Whatever the writer starts a document with goes out first. */
	{
		struct xq_buf head = XQ_BUF_INIT;
		drain(c, &head);
		rc = xq_output_write(c->out, head.ptr, head.len);
		xq_buf_release(&head);
		if (rc) {
			cmd_error("cannot write to '%s'", xq_output_name(c->out));
			return -1;
		}
	}
	return 0;
}

static int finish_single_output(struct cctx *c, int commit)
{
	struct xq_buf tail = XQ_BUF_INIT;
	struct xq_diag d;
	int rc = 0;

	if (c->writer) {
		c->cur = NULL;
		if (c->to->close_writer(c->writer))
			commit = 0, c->io_error = 1;
		c->writer = NULL;
	}
	if (c->mem_out)
		xq_output_commit(c->mem_out, NULL);
	c->mem_out = NULL;
	drain(c, &tail);
	if (commit && xq_output_write(c->out, tail.ptr, tail.len))
		commit = 0;
	xq_buf_release(&tail);
	xq_diag_init(&d);
	if (commit) {
		rc = xq_output_commit(c->out, &d);
		if (rc)
			cmd_error("%s", d.msg);
	} else {
		xq_output_abort(c->out);
		c->written = 0; /* nothing reached the output's name */
		rc = -1;
	}
	c->out = NULL;
	return rc;
}

static int is_dir_path(const char *p)
{
	struct stat st;
	size_t len = strlen(p);

	return (len > 0 && p[len - 1] == '/') || (stat(p, &st) == 0 && S_ISDIR(st.st_mode));
}

static void print_summary(struct cctx *c, double secs)
{
	struct xq_buf *b;

	if (c->fmt == REPORT_NDJSON) {
		b = &c->outbuf;
		xq_buf_addf(b, "{\"schema\":\"" SUMMARY_SCHEMA "\",\"command\":\"convert\",\"to\":\"%s\",\"files\":%llu,\"skipped_files\":%llu,\"failed_files\":%llu,\"games\":%llu,\"written\":%llu,\"skipped\":%llu,\"with_losses\":%llu,\"kept_broken\":%llu,\"verified\":%llu,\"verify_failed\":%llu,\"stopped\":%s,\"errors\":%llu,\"warnings\":%llu,\"notes\":%llu,\"codes\":",
			    c->to->name, (unsigned long long)c->files,
			    (unsigned long long)c->skipped_files, (unsigned long long)c->failed_files,
			    (unsigned long long)c->games, (unsigned long long)c->written,
			    (unsigned long long)c->skipped, (unsigned long long)c->lossy,
			    (unsigned long long)c->kept_broken, (unsigned long long)c->verified,
			    (unsigned long long)c->verify_failed,
			    c->stop ? "true" : "false",
			    (unsigned long long)c->counts.by_sev[XQ_SEV_ERROR],
			    (unsigned long long)c->counts.by_sev[XQ_SEV_WARNING],
			    (unsigned long long)c->counts.by_sev[XQ_SEV_NOTE]);
		report_codes_json(b, &c->counts);
		xq_buf_addf(b, ",\"seconds\":%.3f}\n", secs);
		report_flush_out(b);
		return;
	}
	if (c->quiet)
		return;
	b = &c->err;
	xq_buf_addf(b, "convert: %llu game%s from %llu file%s to %s: ",
		    (unsigned long long)c->games, c->games == 1 ? "" : "s",
		    (unsigned long long)c->files, c->files == 1 ? "" : "s", c->to->name);
	if (c->stop && !c->dir_mode && !c->out_path)
		/* Some games may have reached standard output before it failed
		 * (a file output is never renamed: `written` is 0 then). */
		xq_buf_addf(b, "stopped, standard output is incomplete");
	else
		xq_buf_addf(b, "%s%llu written", c->stop ? "stopped, " : "",
			    (unsigned long long)c->written);
	if (c->skipped)
		xq_buf_addf(b, ", %llu skipped", (unsigned long long)c->skipped);
	if (c->lossy)
		xq_buf_addf(b, ", %llu with losses", (unsigned long long)c->lossy);
	if (c->kept_broken)
		xq_buf_addf(b, ", %llu kept up to an error", (unsigned long long)c->kept_broken);
	if (c->verify)
		xq_buf_addf(b, ", %llu verified", (unsigned long long)c->verified);
	if (c->skipped_files)
		xq_buf_addf(b, "; %llu file%s skipped (not game records)",
			    (unsigned long long)c->skipped_files, c->skipped_files == 1 ? "" : "s");
	if (c->failed_files)
		xq_buf_addf(b, "; %llu input%s not read", (unsigned long long)c->failed_files,
			    c->failed_files == 1 ? "" : "s");
	xq_buf_addf(b, " (%.2f s)\n", secs);
	report_flush_err(b);
}

static long parse_version(struct opt_parser *p, const char *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 0);
	/* XQStudio names its versions 1.0 ... 1.8: the byte is 10 ... 18. */
	if (!errno && end != v && *end == '.' && n >= 1 && n <= 9 && xq_is_digit((unsigned char)end[1]) &&
	    !end[2] && xq_is_digit((unsigned char)*v))
		n = n * 10 + (end[1] - '0'), end += 2;
	if (errno || end == v || *end || n < 1 || n > 65535) {
		snprintf(p->err, sizeof(p->err),
			 "--format-version must be a number like 18, 0x12 or 1.8, not '%s'", v);
		return -1;
	}
	return n;
}

int cmd_convert(int argc, char **argv)
{
	struct opt_parser p;
	struct cctx c;
	struct inputs inputs;
	struct pool_config cfg;
	struct movetext mt;
	const char *value, *to_name = NULL;
	int id, rc, recursive = 0, progress = 1, threads = 1, status;
	const char *files0 = NULL;
	struct xq_diag d;
	double t0;

	memset(&c, 0, sizeof(c));
	memset(&cfg, 0, sizeof(cfg));
	c.wopts = (struct xq_write_opts)XQ_WRITE_OPTS_INIT;
	cfg.read_opts = (struct xq_read_opts)XQ_READ_OPTS_INIT;
	c.template = DEFAULT_TEMPLATE;
	c.sink.report = writer_sink;
	c.sink.payload = &c;
	xq_buf_init(&c.err);
	xq_buf_init(&c.outbuf);
	xq_buf_init(&c.mem);
	xq_buf_init(&c.prefix);
	xq_buf_init(&c.suffix);
	if (opt_init(&p, argc, argv, "convert")) {
		cmd_error("out of memory");
		return XQ_EXIT_IO;
	}
	while ((rc = opt_next(&p, options, &id, &value)) > 0) {
		long v;
		switch (id) {
		case O_TO: to_name = value; break;
		case O_OUT: c.out_path = value; break;
		case O_NAME:
			if (!*value) {
				snprintf(p.err, sizeof(p.err), "--name needs a template");
				goto usage;
			}
			c.template = value;
			break;
		case O_NOTATION:
			if (movetext_parse(value, &mt)) {
				snprintf(p.err, sizeof(p.err), "--notation must be one of " MOVETEXT_NAMES ", not '%s'",
					 value);
				goto usage;
			}
			c.wopts.notation = mt.notation;
			c.wopts.notation_flags = mt.flags;
			break;
		case O_ENCODING:
			if (opt_encoding(&p, value, &c.wopts.encoding))
				goto usage;
			break;
		case O_VERSION:
			if ((v = parse_version(&p, value)) < 0)
				goto usage;
			c.wopts.version = (int)v;
			break;
		case O_FORCE: c.force = 1; break;
		case O_KEEP: c.keep_broken = 1; break;
		case O_VERIFY: c.verify = 1; break;
		case O_STRICT: c.strict = 1; break;
		case O_RECURSIVE: recursive = 1; break;
		case O_FILES0: files0 = value; break;
		case O_FROM:
			if (!(cfg.forced = format_by_name(value, 0, p.err, sizeof(p.err))))
				goto usage;
			break;
		case O_IENC:
			if (opt_encoding(&p, value, &cfg.read_opts.encoding))
				goto usage;
			break;
		case O_JOBS:
			if ((v = opt_int(&p, "--jobs", value, 1, 64)) < 0)
				goto usage;
			threads = (int)v;
			break;
		case O_QUIET: c.quiet = 1; progress = 0; break;
		case O_PROGRESS: progress = 2; break;
		case O_VERBOSE: c.verbose = 1; break;
		case O_FORMAT:
			if (report_format_parse(value, &c.fmt, p.err, sizeof(p.err)))
				goto usage;
			break;
		case O_HELP:
			opt_print_help(stdout, usage, summary, options);
			opt_release(&p);
			return XQ_EXIT_OK;
		}
	}
	if (rc < 0)
		goto usage;
	cfg.read_opts.max_memory = p.max_memory;
	if (!to_name) {
		snprintf(p.err, sizeof(p.err), "missing -t FORMAT (the format to write)");
		goto usage;
	}
	if (!(c.to = format_by_name(to_name, 1, p.err, sizeof(p.err))))
		goto usage;
	if (p.noperands == 0 && !files0 && isatty(0)) {
		snprintf(p.err, sizeof(p.err), "no input (give files, or '-' to read standard input)");
		goto usage;
	}
	if (c.out_path && !strcmp(c.out_path, "-"))
		c.out_path = NULL;
	if (c.out_path && is_dir_path(c.out_path)) {
		size_t len = strlen(c.out_path);
		c.dir_mode = 1;
		c.dir = malloc(len + 2);
		if (!c.dir)
			goto nomem;
		memcpy(c.dir, c.out_path, len + 1);
		if (c.dir[len - 1] != '/')
			memcpy(c.dir + len, "/", 2);
	}
	if (c.verify && (!(c.to->caps & XQ_CAP_READ) || !c.to->open_reader)) {
		snprintf(p.err, sizeof(p.err), "--verify: xqkit cannot read %s back", c.to->name);
		goto usage;
	}
	if (c.fmt == REPORT_NDJSON && !c.out_path) {
		snprintf(p.err, sizeof(p.err), "--format ndjson writes to standard output: give -o for the records");
		goto usage;
	}
	if (!c.out_path && (c.to->caps & XQ_CAP_BINARY) && isatty(1)) {
		snprintf(p.err, sizeof(p.err), "%s is binary: give -o FILE rather than writing it to a terminal",
			 c.to->name);
		goto usage;
	}
	cmd_catch_signals();
	if (inputs_start(&inputs, p.operands, p.noperands, recursive, files0, &d)) {
		cmd_error("%s", d.msg);
		status = XQ_EXIT_IO;
		goto out;
	}
	c.inputs = &inputs;
	xq_diag_init(&d);
	if (c.out_path && !c.dir_mode) {
		/* Never an input, however it is found: refused now when an
		 * operand is the file or holds it, else when it is met. */
		struct xq_output_plan plan;
		if (inputs_guard(&inputs, c.out_path, &d) ||
		    xq_output_plan(&plan, c.out_path, c.force ? XQ_OUTPUT_FORCE : 0, &d)) {
			inputs_release(&inputs);
			status = cmd_usage_error("convert", "%s", d.msg);
			goto out;
		}
	}
	if (c.dir_mode) {
		if (mkdir(c.dir, 0777) != 0 && errno != EEXIST) {
			cmd_error("cannot create the directory '%s': %s", c.dir, strerror(errno));
			inputs_release(&inputs);
			status = XQ_EXIT_IO;
			goto out;
		}
		/* The directory is never read; with --force, files in it are
		 * replaced during the run, so every input must be known first. */
		inputs_exclude(&inputs, c.dir);
		if (c.force && inputs_prescan(&inputs, &d)) {
			cmd_error("%s", d.msg);
			inputs_release(&inputs);
			status = XQ_EXIT_IO;
			goto out;
		}
	}

	c.fault_verify = cmd_test_fault("verify");
	t0 = cmd_now();
	if (!c.dir_mode && (rc = open_single_output(&c)) != 0) {
		inputs_release(&inputs);
		status = rc == 2 ? XQ_EXIT_USAGE : XQ_EXIT_IO;
		goto out;
	}
	progress_start(progress, "convert",
		       progress && (progress == 2 || isatty(2))
			       ? inputs_total_size(&inputs)
			       : -1);
	cfg.threads = threads;
	cfg.inputs = &inputs;
	cfg.emit = convert_emit;
	cfg.ctx = &c;
	cfg.progress = progress_enabled();
	rc = pool_run(&cfg);
	progress_stop();
	if (rc == XQ_ENOMEM) {
		cmd_error("out of memory");
		c.io_error = 1;
	}
	if (inputs_conflict(&inputs)) {
		/* An input named later is the output file: it stays as it was. */
		if (!c.dir_mode)
			finish_single_output(&c, 0);
		inputs_release(&inputs);
		cmd_error("nothing was written to '%s': it is also an input", c.out_path);
		print_summary(&c, cmd_now() - t0);
		status = XQ_EXIT_USAGE;
		goto out;
	}
	inputs_release(&inputs);
	if (cmd_signal) {
		uint64_t written = c.written;
		/* A file output is removed; what reached standard output is whole games. */
		if (!c.dir_mode)
			finish_single_output(&c, 0);
		if (c.dir_mode)
			cmd_error("interrupted: the %llu file%s written under '%s' %s kept; no other file was written",
				  (unsigned long long)written, written == 1 ? "" : "s", c.dir,
				  written == 1 ? "is" : "are");
		else if (c.out_path)
			cmd_error("interrupted: no output is left behind ('%s' is as it was)", c.out_path);
		else
			cmd_error("interrupted: standard output holds the %llu whole game%s written before",
				  (unsigned long long)written, written == 1 ? "" : "s");
		print_summary(&c, cmd_now() - t0);
		status = cmd_signal_status();
		goto out;
	}
	if (!c.dir_mode && finish_single_output(&c, !c.io_error))
		c.io_error = 1;
	print_summary(&c, cmd_now() - t0);
	if (c.disk_full)
		cmd_error("the disk is full: stopped after %llu file%s written under '%s'",
			  (unsigned long long)c.written, c.written == 1 ? "" : "s", c.dir);
	if (c.io_error)
		status = XQ_EXIT_IO;
	else if (c.skipped || c.failed_files || c.damaged_files || c.counts.by_sev[XQ_SEV_ERROR])
		status = XQ_EXIT_INVALID;
	else
		status = XQ_EXIT_OK;
	goto out;

nomem:
	cmd_error("out of memory");
	status = XQ_EXIT_IO;
	goto out;
usage:
	status = cmd_usage_error("convert", "%s", p.err);
out:
	opt_release(&p);
	free(c.dir);
	free(c.names);
	diag_list_release(&c.scratch);
	xq_buf_release(&c.err);
	xq_buf_release(&c.outbuf);
	xq_buf_release(&c.mem);
	xq_buf_release(&c.prefix);
	xq_buf_release(&c.suffix);
	return status;
}
