/*
 * stats_by.c: `xqkit stats --by KEY` (stats.h): on the workers, the keys
 * a game counts under (its ECCO code, opening, players, event, year or a
 * tag); on the output thread, the rows they count in; at the end, the
 * table sorted by count, written as text, TSV or NDJSON.  Stands on the
 * index (stats_index.c) and the writers' helpers (stats_text.c).
 */
#include <stdlib.h>
#include <string.h>

#include "ecco_tags.h"
#include "report.h"
#include "stats.h"
#include <xq/record.h>

#define STATS_SCHEMA "xqkit.stats/1"

/* ---- on the workers ---------------------------------------------------------------- */

/* A key: the value, or "?" when there is none. */
static void add_key(struct xq_buf *b, const char *v)
{
	xq_buf_adds(b, v && *v ? v : "?");
	xq_buf_addc(b, '\0');
}

void stats_table_process(struct sctx *c, xq_batch_job *j)
{
	const xq_record *g = j->record;
	struct ecco_opening e;
	uint32_t date;

	switch (c->by) {
	case BY_ECCO:
		if (ecco_tags_classify(j, &e)) {
			xq_buf_addf(&j->text, "%s\x1f%s", e.code, e.opening);
			xq_buf_addc(&j->text, '\0');
		} else {
			add_key(&j->text, NULL);
		}
		break;
	case BY_OPENING:
		add_key(&j->text, ecco_tags_classify(j, &e) ? e.opening : NULL);
		break;
	case BY_PLAYER:
		add_key(&j->text, xq_record_tag(g, "Red"));
		add_key(&j->text, xq_record_tag(g, "Black"));
		break;
	case BY_EVENT: add_key(&j->text, xq_record_tag(g, "Event")); break;
	case BY_YEAR:
		if ((date = stats_date_value(xq_record_tag(g, "Date"))))
			xq_buf_addf(&j->text, "%04u", date / 10000);
		else
			xq_buf_addc(&j->text, '?');
		xq_buf_addc(&j->text, '\0');
		break;
	case BY_TAG: add_key(&j->text, xq_record_tag(g, c->tag)); break;
	}
}

/* ---- on the output thread ---------------------------------------------------------- */

static void count_row(struct row *r, const xq_batch_job *j, int as_black)
{
	unsigned res = j->flags & J_RESULT;
	uint32_t date = (uint32_t)j->counts[1];

	r->games++;
	if (j->flags & J_BROKEN)
		r->broken++;
	else {
		r->plies += j->counts[0];
		r->plied++;
	}
	if (res == RES_DRAW)
		r->draw++;
	else if (res == RES_RED_WINS)
		*(as_black ? &r->loss : &r->win) += 1;
	else if (res == RES_BLACK_WINS)
		*(as_black ? &r->win : &r->loss) += 1;
	else
		r->no_result++;
	if (date) {
		if (!r->first || date < r->first)
			r->first = date;
		if (date > r->last)
			r->last = date;
	}
}

void stats_table_emit(struct sctx *c, const xq_batch_job *j)
{
	const char *k = j->text.ptr, *end = k + j->text.len;

	for (int side = 0; k < end; side++) {
		size_t len = strlen(k);
		struct row *r = stats_row_of(c, k, len);
		if (!r) {
			c->nomem = 1;
			return;
		}
		count_row(r, j, c->by == BY_PLAYER && side == 1);
		k += len + 1;
	}
}

/* ---- the table --------------------------------------------------------------------- */

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int d;

	if (x->games != y->games)
		return x->games > y->games ? -1 : 1;
	if ((d = memcmp(x->key, y->key, n)))
		return d;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* The key's parts: BY_ECCO keys are "code\x1fname". */
static void key_parts(const struct row *r, size_t *klen, const char **name, size_t *nlen)
{
	const char *sep = memchr(r->key, '\x1f', r->len);

	*klen = sep ? (size_t)(sep - r->key) : r->len;
	*name = sep ? sep + 1 : "";
	*nlen = sep ? r->len - *klen - 1 : 0;
}

static const char *key_title(const struct sctx *c)
{
	static const char *const titles[] = {"ECCO", "Opening", "Player", "Event", "Year"};

	return c->by == BY_TAG ? c->tag : titles[c->by];
}

/* The total of every row, shown or not: every game. */
static void table_total(const struct sctx *c, struct row *total)
{
	memset(total, 0, sizeof(*total));
	for (size_t i = 0; i < c->nrows; i++) {
		const struct row *r = &c->rows[i];
		total->games += r->games;
		total->win += r->win;
		total->draw += r->draw;
		total->loss += r->loss;
		total->plies += r->plies;
		total->plied += r->plied;
		if (r->first && (!total->first || r->first < total->first))
			total->first = r->first;
		if (r->last > total->last)
			total->last = r->last;
	}
}

static void table_text(struct sctx *c, struct xq_buf *b, size_t shown)
{
	size_t kw = strlen(key_title(c)), nw = c->by == BY_ECCO ? strlen("Opening") : 0;
	int player = c->by == BY_PLAYER;
	struct row total;

	table_total(c, &total);
	for (size_t i = 0; i < shown; i++) {
		size_t klen, nlen;
		const char *name;
		struct xq_buf t = XQ_BUF_INIT;
		key_parts(&c->rows[i], &klen, &name, &nlen);
		report_add_safe(&t, c->rows[i].key, klen);
		if (stats_text_width(t.ptr, t.len) > kw)
			kw = stats_text_width(t.ptr, t.len);
		xq_buf_reset(&t);
		report_add_safe(&t, name, nlen);
		if (nlen && stats_text_width(t.ptr, t.len) > nw)
			nw = stats_text_width(t.ptr, t.len);
		xq_buf_release(&t);
	}
	if (kw > 40)
		kw = 40; /* longer keys push their row's figures right */
	if (!player && c->nrows > 1 && kw < 7)
		kw = 7; /* "(total)" */
	stats_cell(b, key_title(c), strlen(key_title(c)), kw);
	if (nw) {
		xq_buf_adds(b, "  ");
		stats_cell(b, "Opening", 7, nw);
	}
	xq_buf_addf(b, "  %7s %6s %6s %6s %6s %6s  %-10s  %s\n", "Games",
		    player ? "Wins" : "Red", "Draws", player ? "Losses" : "Black", "Score",
		    "Plies", "First", "Last");
	for (size_t i = 0; i <= shown; i++) {
		const struct row *r = i < shown ? &c->rows[i] : &total;
		size_t klen, nlen, before;
		const char *name;
		if (i == shown) {
			if (player || c->nrows < 2)
				break; /* players' rows count each game twice */
			stats_cell(b, "(total)", 7, kw);
			if (nw) {
				xq_buf_adds(b, "  ");
				stats_pad(b, nw);
			}
		} else {
			key_parts(r, &klen, &name, &nlen);
			stats_cell(b, r->key, klen, kw);
			if (nw) {
				xq_buf_adds(b, "  ");
				stats_cell(b, name, nlen, nw);
			}
		}
		xq_buf_addf(b, "  %7llu %6llu %6llu %6llu", (unsigned long long)r->games,
			    (unsigned long long)r->win, (unsigned long long)r->draw,
			    (unsigned long long)r->loss);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, " %5.1f%%", stats_score(r->win, r->draw, r->loss));
		else
			xq_buf_addf(b, " %6s", "-");
		if (r->plied)
			xq_buf_addf(b, " %6.1f  ", (double)r->plies / (double)r->plied);
		else
			xq_buf_addf(b, " %6s  ", "-");
		before = b->len;
		stats_add_date(b, r->first);
		stats_pad(b, 12 - (b->len - before));
		stats_add_date(b, r->last);
		xq_buf_addc(b, '\n');
	}
}

static void table_tsv(struct sctx *c, struct xq_buf *b, size_t shown)
{
	int player = c->by == BY_PLAYER;

	report_add_safe(b, c->by_text, strlen(c->by_text));
	if (c->by == BY_ECCO)
		xq_buf_adds(b, "\topening");
	xq_buf_addf(b, "\tgames\tbroken\t%s\tdraws\t%s\tno_result\tscore\tavg_plies\tfirst_date\tlast_date\n",
		    player ? "wins" : "red_wins", player ? "losses" : "black_wins");
	for (size_t i = 0; i < shown; i++) {
		const struct row *r = &c->rows[i];
		size_t klen, nlen;
		const char *name;
		key_parts(r, &klen, &name, &nlen);
		report_add_safe(b, r->key, klen);
		if (c->by == BY_ECCO) {
			xq_buf_addc(b, '\t');
			report_add_safe(b, name, nlen);
		}
		xq_buf_addf(b, "\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t", (unsigned long long)r->games,
			    (unsigned long long)r->broken, (unsigned long long)r->win,
			    (unsigned long long)r->draw, (unsigned long long)r->loss,
			    (unsigned long long)r->no_result);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, "%.1f", stats_score(r->win, r->draw, r->loss));
		xq_buf_addc(b, '\t');
		if (r->plied)
			xq_buf_addf(b, "%.1f", (double)r->plies / (double)r->plied);
		xq_buf_addc(b, '\t');
		if (r->first)
			stats_add_date(b, r->first);
		xq_buf_addc(b, '\t');
		if (r->last)
			stats_add_date(b, r->last);
		xq_buf_addc(b, '\n');
	}
}

static void json_date(struct xq_buf *b, const char *name, uint32_t v)
{
	xq_buf_addf(b, ",\"%s\":", name);
	if (!v) {
		xq_buf_adds(b, "null");
		return;
	}
	xq_buf_addc(b, '"');
	stats_add_date(b, v);
	xq_buf_addc(b, '"');
}

/* A JSON string of `len` bytes that may not be UTF-8. */
static void json_text(struct xq_buf *b, const char *s, size_t len)
{
	struct xq_buf t = XQ_BUF_INIT;

	xq_buf_add(&t, s, len);
	xq_buf_addc(&t, '\0');
	if (xq_buf_error(&t))
		b->err = xq_buf_error(&t);
	else
		report_add_json_safe(b, t.ptr);
	xq_buf_release(&t);
}

static void table_ndjson(struct sctx *c, struct xq_buf *b, size_t shown)
{
	int player = c->by == BY_PLAYER;

	for (size_t i = 0; i < shown; i++) {
		const struct row *r = &c->rows[i];
		size_t klen, nlen;
		const char *name;
		key_parts(r, &klen, &name, &nlen);
		xq_buf_adds(b, "{\"schema\":\"" STATS_SCHEMA "\",\"by\":");
		report_add_json_safe(b, c->by_text);
		xq_buf_adds(b, ",\"key\":");
		json_text(b, r->key, klen);
		if (c->by == BY_ECCO) {
			xq_buf_adds(b, ",\"opening\":");
			json_text(b, name, nlen);
		}
		xq_buf_addf(b, ",\"games\":%llu,\"broken\":%llu,\"%s\":%llu,\"draws\":%llu,\"%s\":%llu,\"no_result\":%llu,\"score\":",
			    (unsigned long long)r->games, (unsigned long long)r->broken,
			    player ? "wins" : "red_wins", (unsigned long long)r->win,
			    (unsigned long long)r->draw, player ? "losses" : "black_wins",
			    (unsigned long long)r->loss, (unsigned long long)r->no_result);
		if (r->win + r->draw + r->loss)
			xq_buf_addf(b, "%.1f", stats_score(r->win, r->draw, r->loss));
		else
			xq_buf_adds(b, "null");
		xq_buf_adds(b, ",\"avg_plies\":");
		if (r->plied)
			xq_buf_addf(b, "%.1f", (double)r->plies / (double)r->plied);
		else
			xq_buf_adds(b, "null");
		json_date(b, "first_date", r->first);
		json_date(b, "last_date", r->last);
		xq_buf_adds(b, "}\n");
		if (b->len > 65536)
			report_flush_out(b);
	}
}

/* The table, sorted by count; returns the rows shown. */
size_t stats_write_table(struct sctx *c)
{
	struct xq_buf b = XQ_BUF_INIT;
	size_t shown = c->nrows;

	if (c->nrows) /* (qsort wants an array, even of nothing) */
		qsort(c->rows, c->nrows, sizeof(*c->rows), row_cmp);
	if (c->top && (size_t)c->top < shown)
		shown = (size_t)c->top;
	if (c->out == OUT_TEXT)
		table_text(c, &b, shown);
	else if (c->out == OUT_TSV)
		table_tsv(c, &b, shown);
	else
		table_ndjson(c, &b, shown);
	report_flush_out(&b);
	xq_buf_release(&b);
	return shown;
}
