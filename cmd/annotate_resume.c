/*
 * annotate_resume.c: the earlier output of `annotate`, read in step with
 * the inputs so that games already annotated are copied (see
 * annotate_resume.h).
 *
 * PGN is read back with the PGN reader and the copied game is written
 * again by the writer (the same game gives the same bytes).  NDJSON is
 * read as lines: a game is the lines up to and including its
 * xqkit.annotated/1 record, and a copied game is those bytes unchanged.
 */
#include "annotate_resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_game.h"
#include "cmd.h"
#include <xq/memory.h>

#define GAME_LINE "{\"schema\":\"" ANNOTATE_GAME_SCHEMA "\","

static int next_line(struct resume *r, const char **line, size_t *len);
static int looks_annotated(struct resume *r);

/* What reading the earlier output reports: kept, not shown. */
static void resume_keep(const xq_diagnostic *d, void *user)
{
	struct resume *r = user;

	diag_list_add(&r->diags, d);
}

int resume_open(struct resume *r, const char *path, int ndjson, char *why, size_t cap)
{
	struct report_message m = {""};
	xq_read_options ro = XQ_READ_OPTIONS_INIT;
	int rc;

	memset(r, 0, sizeof(*r));
	xq_buf_init(&r->buf);
	xq_buf_init(&r->lines);
	r->ndjson = ndjson;
	ro.cancel = cmd_stop;
	if (ndjson) {
		rc = xq_stream_open(&r->src, path, &ro, resume_keep, r);
	} else {
		ro.format = "pgn";
		rc = xq_reader_open(&r->rd, path, &ro, resume_keep, r);
	}
	if (rc && diag_list_count(&r->diags))
		report_keep_message(diag_list_at(&r->diags, diag_list_count(&r->diags) - 1), &m);
	if (rc) {
		diag_list_release(&r->diags);
		snprintf(why, cap, "%s", m.msg[0] ? m.msg : xq_error_string(rc));
		return rc;
	}
	r->opened = 1;
	r->active = 1;
	/* Never take a file that annotate did not write for one to go on
	 * with: it would be replaced. */
	if (!looks_annotated(r)) {
		resume_close(r);
		snprintf(why, cap,
			 "it does not start with a game written by 'xqkit annotate -t %s', so it is left alone (remove it, or use --force instead of --resume to replace it)",
			 ndjson ? "ndjson" : "pgn");
		return XQ_EUNSUPPORTED;
	}
	return 0;
}

/* The earlier output's next game into r->game: 1, 0 at its end, or a
 * negative XQ_E* code when it cannot be read further. */
static int next_game(struct resume *r)
{
	diag_list_clear(&r->diags);
	xq_record_free(r->game);
	r->game = NULL;
	return xq_reader_next(r->rd, &r->game);
}

/* The next line of the NDJSON file: 1 with [*line, *len) (with its
 * newline) valid until the next call, 0 at the end. */
static int next_line(struct resume *r, const char **line, size_t *len)
{
	for (;;) {
		char *start = r->buf.ptr + r->used;
		size_t avail = r->buf.len - r->used;
		char *nl = memchr(start, '\n', avail);
		char chunk[65536];
		long n;

		if (nl) {
			*line = start;
			*len = (size_t)(nl - start) + 1;
			r->used += *len;
			return 1;
		}
		if (r->eof)
			return 0; /* an unterminated last line was never a whole record */
		if (r->used) {
			memmove(r->buf.ptr, start, avail);
			xq_buf_truncate(&r->buf, avail);
			r->used = 0;
		}
		n = xq_stream_read(r->src, chunk, sizeof(chunk));
		if (n <= 0) {
			r->eof = 1;
			continue;
		}
		if (xq_buf_add(&r->buf, chunk, (size_t)n)) {
			r->eof = 1;
			return 0;
		}
	}
}

/*
 * Does the earlier output start with an annotated game (or is it empty)?
 * What is read to see is kept for resume_next().
 */
static int looks_annotated(struct resume *r)
{
	int rc;

	if (r->ndjson) {
		const char *line;
		size_t len;
		static const char eval[] = "{\"schema\":\"" ANNOTATE_EVAL_SCHEMA "\",";
		if (!next_line(r, &line, &len))
			return r->buf.len == 0; /* empty */
		r->used = 0; /* read it again */
		return (len >= sizeof(eval) - 1 && !memcmp(line, eval, sizeof(eval) - 1)) ||
		       (len >= sizeof(GAME_LINE) - 1 && !memcmp(line, GAME_LINE, sizeof(GAME_LINE) - 1));
	}
	/* An empty file is one to go on with; one that cannot be read is
	 * not annotate's. */
	if ((rc = next_game(r)) <= 0)
		return rc == 0;
	r->peeked = 1;
	return xq_record_tag(r->game, ANNOTATE_MARKER_TAG) != NULL;
}

static void stop_matching(struct resume *r, const char *file, uint64_t game, const char *what)
{
	r->active = 0;
	snprintf(r->why, sizeof(r->why),
		 "game %llu of %s is not game %llu of the earlier output (%s): it and every later game are annotated again",
		 (unsigned long long)game, file, (unsigned long long)r->seen, what);
}

static int ndjson_next(struct resume *r, const char *marker, uint64_t fingerprint,
		       const char *file, uint64_t game)
{
	struct xq_buf want = XQ_BUF_INIT;
	const char *line;
	size_t len;
	char fp[40];
	int verdict = RESUME_REDO;

	xq_buf_reset(&r->lines);
	for (;;) {
		if (!next_line(r, &line, &len)) {
			r->active = 0; /* the end of the earlier output */
			return RESUME_NONE;
		}
		if (xq_buf_add(&r->lines, line, len)) {
			r->active = 0;
			return RESUME_NONE;
		}
		if (len >= sizeof(GAME_LINE) - 1 && !memcmp(line, GAME_LINE, sizeof(GAME_LINE) - 1))
			break;
	}
	r->seen++;
	/* The record must be this input's: same file and game number. */
	xq_buf_adds(&want, GAME_LINE "\"file\":");
	report_add_json_safe(&want, file);
	xq_buf_addf(&want, ",\"game\":%llu,\"marker\":", (unsigned long long)game);
	if (xq_buf_error(&want)) {
		r->active = 0; /* out of memory: analysed again, as at the end */
		verdict = RESUME_NONE;
		goto out;
	}
	if (len < want.len || memcmp(line, want.ptr, want.len)) {
		stop_matching(r, file, game, "another file or game number");
		verdict = RESUME_NONE;
		goto out;
	}
	line += want.len;
	len -= want.len;
	xq_buf_reset(&want);
	report_add_json_safe(&want, marker);
	if (xq_buf_error(&want)) {
		r->active = 0;
		verdict = RESUME_NONE;
		goto out;
	}
	if (len > want.len && !memcmp(line, want.ptr, want.len) && line[want.len] == ',') {
		verdict = RESUME_COPY;
		goto out;
	}
	/* The same input game annotated otherwise, or not completely? */
	snprintf(fp, sizeof(fp), "; input %016llx", (unsigned long long)fingerprint);
	{
		const char *end = memchr(line, ',', len);
		size_t mlen = end ? (size_t)(end - line) : len;
		size_t flen = strlen(fp);
		int found = 0;
		for (size_t i = 0; i + flen <= mlen && !found; i++)
			found = !memcmp(line + i, fp, flen);
		if (!found) {
			stop_matching(r, file, game, "another game");
			verdict = RESUME_NONE;
		}
	}
out:
	xq_buf_release(&want);
	return verdict;
}

/*
 * Is the earlier output's current game whole: its main line as long as
 * the input game's (`plies`), and its move text ended by its result (the
 * reader says "no-result" of moves that end without one)?  An output cut
 * short, by a kill or a power loss, ends inside its last game: in a tag,
 * after "1. ", in a move or comment, before the result.
 */
static int pgn_complete(const struct resume *r, uint32_t plies)
{
	if (xq_record_mainline_length(r->game) != plies)
		return 0;
	for (size_t i = 0; i < diag_list_count(&r->diags); i++)
		if (!strcmp(xq_diagnostic_code(diag_list_at(&r->diags, i)), "no-result"))
			return 0;
	return 1;
}

static int pgn_next(struct resume *r, const char *marker, uint64_t fingerprint, const char *file,
		    uint64_t game, uint32_t plies)
{
	const char *old;
	char fp[40];
	int rc;

	if (r->peeked) {
		r->peeked = 0;
		rc = 1;
	} else {
		rc = next_game(r);
	}
	if (rc <= 0) {
		r->active = 0;
		return RESUME_NONE;
	}
	r->seen++;
	old = xq_record_tag(r->game, ANNOTATE_MARKER_TAG);
	if (xq_record_is_broken(r->game)) {
		stop_matching(r, file, game, "that game cannot be read back whole");
		return RESUME_NONE;
	}
	if (old && !strcmp(old, marker)) {
		if (pgn_complete(r, plies))
			return RESUME_COPY;
		/* Not copied, nor written back if this run is stopped. */
		r->active = 0;
		snprintf(r->why, sizeof(r->why),
			 "game %llu of the earlier output, game %llu of %s, is not complete there (the file was cut short): it and every later game are annotated again",
			 (unsigned long long)r->seen, (unsigned long long)game, file);
		return RESUME_NONE;
	}
	snprintf(fp, sizeof(fp), "; input %016llx", (unsigned long long)fingerprint);
	if (!old || !strstr(old, fp)) {
		stop_matching(r, file, game, "another game");
		return RESUME_NONE;
	}
	return RESUME_REDO;
}

int resume_next(struct resume *r, const char *marker, uint64_t fingerprint, const char *file,
		uint64_t game, uint32_t plies)
{
	if (!r->opened || !r->active)
		return RESUME_NONE;
	return r->ndjson ? ndjson_next(r, marker, fingerprint, file, game)
			 : pgn_next(r, marker, fingerprint, file, game, plies);
}

void resume_close(struct resume *r)
{
	if (!r->opened)
		return;
	xq_stream_close(r->src);
	r->src = NULL;
	xq_reader_close(r->rd);
	r->rd = NULL;
	xq_record_free(r->game);
	r->game = NULL;
	xq_buf_release(&r->buf);
	xq_buf_release(&r->lines);
	diag_list_release(&r->diags);
	r->opened = 0;
}

/* ---- the index ------------------------------------------------------------------ */

static uint64_t key_of(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

uint64_t resume_key(int ndjson, const char *marker, const char *file, uint64_t game)
{
	struct xq_buf b = XQ_BUF_INIT;
	uint64_t k;

	if (!ndjson)
		return key_of(marker, strlen(marker));
	xq_buf_adds(&b, GAME_LINE "\"file\":");
	report_add_json_safe(&b, file);
	xq_buf_addf(&b, ",\"game\":%llu,\"marker\":", (unsigned long long)game);
	report_add_json_safe(&b, marker);
	/* Out of memory: a key no game has, so the game is analysed. */
	k = xq_buf_error(&b) ? 0 : key_of(b.ptr, b.len);
	xq_buf_release(&b);
	return k;
}

/* The length of an xqkit.annotated/1 line's part up to the end of its
 * marker (the text resume_key hashes), or 0.  A quote inside a JSON
 * string is escaped, so the first `,"marker":"` is the member. */
static size_t keyed_part(const char *line, size_t len)
{
	static const char member[] = ",\"marker\":\"";
	size_t m = sizeof(member) - 1;

	for (size_t i = 0; i + m <= len; i++) {
		if (memcmp(line + i, member, m))
			continue;
		for (size_t k = i + m; k < len; k++) {
			if (line[k] == '\\')
				k++;
			else if (line[k] == '"')
				return k + 1;
		}
		return 0;
	}
	return 0;
}

static int add_key(struct resume_index *ix, uint64_t k)
{
	if (XQ_ALLOC_GROW(ix->keys, ix->n + 1, ix->alloc))
		return XQ_ENOMEM;
	ix->keys[ix->n++] = k;
	return 0;
}

static int cmp_key(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int resume_index_build(struct resume_index *ix, const char *path, int ndjson)
{
	struct resume r;
	char why[XQ_MESSAGE_SIZE];
	int rc = 0;

	memset(ix, 0, sizeof(*ix));
	if (resume_open(&r, path, ndjson, why, sizeof(why)))
		return 0;
	while (!rc) {
		const char *line, *marker;
		size_t len, n;
		if (ndjson) {
			if (!next_line(&r, &line, &len))
				break;
			if (len < sizeof(GAME_LINE) - 1 || memcmp(line, GAME_LINE, sizeof(GAME_LINE) - 1) ||
			    !(n = keyed_part(line, len)))
				continue;
			rc = add_key(ix, key_of(line, n));
			continue;
		}
		if (!r.peeked && next_game(&r) <= 0)
			break;
		r.peeked = 0;
		if ((marker = xq_record_tag(r.game, ANNOTATE_MARKER_TAG)))
			rc = add_key(ix, key_of(marker, strlen(marker)));
	}
	resume_close(&r);
	if (ix->n)
		qsort(ix->keys, ix->n, sizeof(*ix->keys), cmp_key);
	return rc;
}

int resume_index_has(const struct resume_index *ix, uint64_t key)
{
	return ix->n && bsearch(&key, ix->keys, ix->n, sizeof(*ix->keys), cmp_key) != NULL;
}

void resume_index_release(struct resume_index *ix)
{
	free(ix->keys);
	memset(ix, 0, sizeof(*ix));
}
