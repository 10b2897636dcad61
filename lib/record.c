/*
 * record.c: the game record and its move tree (see record.h).
 */
#include "record.h"

#include "alloc.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void root_node(struct xqi_node *n)
{
	memset(n, 0, sizeof(*n));
	n->parent = n->child = n->sibling = n->last_child = XQ_NO_NODE;
}

int xqi_record_init(struct xqi_record *g)
{
	memset(g, 0, sizeof(*g));
	xqi_arena_init(&g->arena);
	xqi_position_start(&g->start);
	g->nodes = malloc(64 * sizeof(*g->nodes));
	if (!g->nodes)
		return XQ_ENOMEM;
	g->nodes_alloc = 64;
	g->nnodes = 1;
	root_node(&g->nodes[0]);
	return 0;
}

void xqi_record_clear(struct xqi_record *g)
{
	xqi_arena_reset(&g->arena);
	g->ntags = 0;
	xqi_position_start(&g->start);
	g->start_text = NULL;
	g->nnodes = 1;
	root_node(&g->nodes[0]);
	g->result = XQI_RESULT_NONE;
	g->result_text = NULL;
	g->number = 0;
	g->source = NULL;
	memset(&g->place, 0, sizeof(g->place));
	g->encoding = NULL;
	memset(&g->origin, 0, sizeof(g->origin));
	g->flags = 0;
	g->error = NULL;
}

void xqi_record_place_diag(struct xq_diagnostic *d, const struct xqi_record *g, const char *source,
			uint32_t node, uint32_t ply)
{
	const struct xqi_node *x;

	d->source = source;
	d->place = g->place;
	d->has_offset = g->place.offset > 0 || g->place.line == 0;
	d->game = g->number;
	d->ply = ply;
	d->move[0] = '\0';
	if (node == XQI_ROOT || node >= g->nnodes)
		return;
	x = &g->nodes[node];
	if (x->place.line || x->place.offset) {
		d->place = x->place;
		d->has_offset = 1;
	}
	if (x->text) {
		xqi_diagnostic_set_move(d, x->text, strlen(x->text));
	} else {
		char iccs[5];
		xqi_move_name(x->move, iccs);
		xqi_diagnostic_set_move(d, iccs, 4);
	}
}

void xqi_record_place_diag_ply(struct xq_diagnostic *d, const struct xqi_record *g, const char *source,
			    uint32_t ply)
{
	uint32_t n = XQI_ROOT;

	for (uint32_t k = 0; k < ply && g->nodes[n].child != XQ_NO_NODE; k++)
		n = g->nodes[n].child;
	xqi_record_place_diag(d, g, source, n, ply);
}

unsigned xqi_check_said_of(enum xqi_diagnostic_code code)
{
	switch (code) {
	case XQI_D_BAD_FEN: return XQI_SAID_BAD_FEN;
	case XQI_D_EMPTY_GAME: return XQI_SAID_EMPTY_GAME;
	case XQI_D_NO_RESULT: return XQI_SAID_NO_RESULT;
	case XQI_D_BAD_RESULT: return XQI_SAID_BAD_RESULT;
	default: return 0;
	}
}

void xqi_record_origin(const struct xqi_record *g, struct xqi_origin *out)
{
	if (g->origin.file) {
		*out = g->origin;
		return;
	}
	out->file = g->source;
	out->game = g->number;
	out->line = g->place.line;
	out->offset = g->place.offset;
	out->has_offset = g->source != NULL;
}

/* ---- fingerprint (record.h) ---------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	return h;
}

/* A string, told apart from NULL and from its neighbours. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
	unsigned char mark = s ? 1 : 0;

	h = fnv(h, &mark, 1);
	return s ? fnv(h, s, strlen(s) + 1) : h;
}

uint64_t xqi_record_fingerprint(const struct xqi_record *g)
{
	uint64_t h = 1469598103934665603ull;
	char fen[XQ_FEN_SIZE];
	unsigned char v[4];

	xqi_position_to_fen(&g->start, fen, sizeof(fen));
	h = fnv_str(h, fen);
	for (size_t i = 0; i < g->ntags; i++) {
		h = fnv_str(h, g->tags[i].name);
		h = fnv_str(h, g->tags[i].value);
	}
	v[0] = (unsigned char)g->result;
	v[1] = (unsigned char)g->flags;
	h = fnv(h, v, 2);
	h = fnv_str(h, g->result_text);
	/* Pre-order with "has a child" and "has a sibling" gives the shape. */
	for (uint32_t n = XQI_ROOT; n != XQ_NO_NODE; n = xqi_record_next(g, n)) {
		const struct xqi_node *x = &g->nodes[n];
		v[0] = (unsigned char)(x->move & 0xff);
		v[1] = (unsigned char)(x->move >> 8);
		v[2] = x->child != XQ_NO_NODE;
		v[3] = x->sibling != XQ_NO_NODE;
		h = fnv(h, v, 4);
		h = fnv_str(h, x->comment);
		h = fnv_str(h, x->pre_comment);
		h = fnv(h, &x->nnags, 1);
		if (x->nnags)
			h = fnv(h, x->nags, x->nnags);
	}
	return h;
}

size_t xqi_record_memory(const struct xqi_record *g)
{
	return sizeof(*g) + g->arena.total + g->nodes_alloc * sizeof(*g->nodes) +
	       g->tags_alloc * sizeof(*g->tags);
}

void xqi_record_release(struct xqi_record *g)
{
	xqi_arena_release(&g->arena);
	free(g->tags);
	free(g->nodes);
	memset(g, 0, sizeof(*g));
}

char *xqi_record_strdup(struct xqi_record *g, const char *s, size_t len)
{
	return xqi_arena_strndup(&g->arena, s, len);
}

int xqi_record_add_tag(struct xqi_record *g, const char *name, size_t nlen, const char *value,
		    size_t vlen)
{
	return xqi_record_add_tag_at(g, name, nlen, value, vlen, NULL);
}

int xqi_record_add_tag_at(struct xqi_record *g, const char *name, size_t nlen, const char *value,
		       size_t vlen, const struct xqi_place *place)
{
	struct xqi_tag t;

	if (XQ_ALLOC_GROW(g->tags, g->ntags + 1, g->tags_alloc))
		return XQ_ENOMEM;
	t.name = xqi_record_strdup(g, name, nlen);
	t.value = xqi_record_strdup(g, value, vlen);
	if (!t.name || !t.value)
		return XQ_ENOMEM;
	if (place)
		t.place = *place;
	else
		memset(&t.place, 0, sizeof(t.place));
	g->tags[g->ntags++] = t;
	return 0;
}

int xqi_record_set_tag(struct xqi_record *g, const char *name, const char *value)
{
	for (size_t i = 0; i < g->ntags; i++) {
		if (!strcmp(g->tags[i].name, name)) {
			const char *v = xqi_record_strdup(g, value, strlen(value));
			if (!v)
				return XQ_ENOMEM;
			g->tags[i].value = v;
			return 0;
		}
	}
	return xqi_record_add_tag(g, name, strlen(name), value, strlen(value));
}

const char *xqi_record_tag(const struct xqi_record *g, const char *name)
{
	for (size_t i = 0; i < g->ntags; i++)
		if (!strcmp(g->tags[i].name, name))
			return g->tags[i].value;
	return NULL;
}

int xqi_record_tag_place(const struct xqi_record *g, const char *name, struct xqi_place *out)
{
	for (size_t i = 0; i < g->ntags; i++) {
		if (strcmp(g->tags[i].name, name))
			continue;
		if (!g->tags[i].place.line && !g->tags[i].place.offset)
			return 0;
		*out = g->tags[i].place;
		return 1;
	}
	return 0;
}

int xqi_record_remove_tag(struct xqi_record *g, const char *name)
{
	return (int)xqi_record_remove_tags_after(g, name, 0);
}

size_t xqi_record_remove_tags_after(struct xqi_record *g, const char *name, size_t keep)
{
	size_t j = 0, seen = 0;

	/* One pass, each tag moved once. */
	for (size_t i = 0; i < g->ntags; i++) {
		if (!strcmp(g->tags[i].name, name) && ++seen > keep)
			continue;
		g->tags[j++] = g->tags[i];
	}
	seen = g->ntags - j;
	g->ntags = j;
	return seen;
}

int xqi_record_add_move(struct xqi_record *g, uint32_t parent, xqi_move m, uint32_t *out)
{
	struct xqi_node *n;
	uint32_t idx;

	if (parent >= g->nnodes || g->nnodes >= XQ_NO_NODE - 1)
		return XQ_EINTERNAL;
	if (XQ_ALLOC_GROW(g->nodes, g->nnodes + 1, g->nodes_alloc))
		return XQ_ENOMEM;
	idx = (uint32_t)g->nnodes++;
	n = &g->nodes[idx];
	root_node(n);
	n->move = m;
	n->parent = parent;
	if (g->nodes[parent].child == XQ_NO_NODE)
		g->nodes[parent].child = idx;
	else
		g->nodes[g->nodes[parent].last_child].sibling = idx;
	g->nodes[parent].last_child = idx;
	if (out)
		*out = idx;
	return 0;
}

static int set_str(struct xqi_record *g, const char **field, const char *s, size_t len)
{
	const char *p = xqi_record_strdup(g, s, len);
	if (!p)
		return XQ_ENOMEM;
	*field = p;
	return 0;
}

int xqi_record_set_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len)
{
	return set_str(g, &g->nodes[node].comment, s, len);
}

int xqi_record_set_pre_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len)
{
	return set_str(g, &g->nodes[node].pre_comment, s, len);
}

int xqi_record_set_text(struct xqi_record *g, uint32_t node, const char *s, size_t len)
{
	return set_str(g, &g->nodes[node].text, s, len);
}

int xqi_record_set_start_text(struct xqi_record *g, const char *s, size_t len)
{
	const char *t = xqi_record_strdup(g, s, len);

	if (!t)
		return XQ_ENOMEM;
	g->start_text = t;
	g->flags |= XQI_RECORD_BROKEN;
	return 0;
}

int xqi_record_set_error(struct xqi_record *g, const char *s, size_t len)
{
	return set_str(g, &g->error, s, len);
}

int xqi_record_append_comment(struct xqi_record *g, uint32_t node, const char *s, size_t len)
{
	const char *old = g->nodes[node].comment;
	size_t olen;
	char *p;

	if (!old)
		return xqi_record_set_comment(g, node, s, len);
	olen = strlen(old);
	p = xqi_arena_alloc(&g->arena, olen + 1 + len + 1);
	if (!p)
		return XQ_ENOMEM;
	memcpy(p, old, olen);
	p[olen] = ' ';
	memcpy(p + olen + 1, s, len);
	p[olen + 1 + len] = '\0';
	g->nodes[node].comment = p;
	return 0;
}

int xqi_record_add_nag(struct xqi_record *g, uint32_t node, uint8_t nag)
{
	struct xqi_node *n = &g->nodes[node];
	uint8_t *p;

	if (n->nnags == 255)
		return XQ_ERANGE;
	p = xqi_arena_alloc(&g->arena, (size_t)n->nnags + 1);
	if (!p)
		return XQ_ENOMEM;
	if (n->nnags)
		memcpy(p, n->nags, n->nnags);
	p[n->nnags++] = nag;
	n->nags = p;
	return 0;
}

int xqi_record_add_nag_once(struct xqi_record *g, uint32_t node, uint8_t nag)
{
	const struct xqi_node *n = &g->nodes[node];

	for (unsigned i = 0; i < n->nnags; i++)
		if (n->nags[i] == nag)
			return 0;
	return xqi_record_add_nag(g, node, nag);
}

uint32_t xqi_record_next_ply(const struct xqi_record *g, uint32_t n, uint32_t *ply)
{
	if (g->nodes[n].child != XQ_NO_NODE) {
		(*ply)++;
		return g->nodes[n].child;
	}
	/* Each node is climbed over once in a whole walk. */
	while (n != XQ_NO_NODE) {
		if (g->nodes[n].sibling != XQ_NO_NODE)
			return g->nodes[n].sibling;
		n = g->nodes[n].parent;
		if (n != XQ_NO_NODE)
			(*ply)--;
	}
	return XQ_NO_NODE;
}

uint32_t xqi_record_next(const struct xqi_record *g, uint32_t n)
{
	uint32_t ply = 0;

	return xqi_record_next_ply(g, n, &ply);
}

uint32_t xqi_record_ply(const struct xqi_record *g, uint32_t n)
{
	uint32_t ply = 0;

	while (n != XQI_ROOT && n != XQ_NO_NODE) {
		ply++;
		n = g->nodes[n].parent;
	}
	return ply;
}

uint32_t xqi_record_mainline_end(const struct xqi_record *g)
{
	uint32_t n = XQI_ROOT;

	while (g->nodes[n].child != XQ_NO_NODE)
		n = g->nodes[n].child;
	return n;
}

uint32_t xqi_record_mainline_length(const struct xqi_record *g)
{
	uint32_t len = 0, n = XQI_ROOT;

	while (g->nodes[n].child != XQ_NO_NODE) {
		n = g->nodes[n].child;
		len++;
	}
	return len;
}

void xqi_record_count(const struct xqi_record *g, struct xqi_record_counts *c)
{
	/* Parents always come before their children in the node array, so
	 * one pass in index order gives every node's depth. */
	uint32_t *depth = malloc(g->nnodes * sizeof(*depth));

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < g->nnodes; i++) {
		const struct xqi_node *n = &g->nodes[i];
		if (n->comment || n->pre_comment)
			c->comments++;
		c->nags += n->nnags;
		if (i == XQI_ROOT) {
			if (depth)
				depth[0] = 0;
			continue;
		}
		c->nodes++;
		if (g->nodes[n->parent].child != i)
			c->variations++;
		if (depth) {
			depth[i] = depth[n->parent] + 1;
			if (depth[i] > c->max_depth)
				c->max_depth = depth[i];
		}
	}
	free(depth);
}

void xqi_record_board_at(const struct xqi_record *g, uint32_t n, struct xqi_position *out)
{
	uint32_t stack_small[256], *path = stack_small;
	size_t depth = 0, k;
	struct xqi_undo u;

	*out = g->start;
	/* The path is as long as the ply: counted first, so that it is
	 * allocated once (not grown), and on the stack when short. */
	for (uint32_t m = n; m != XQI_ROOT && m != XQ_NO_NODE; m = g->nodes[m].parent)
		depth++;
	if (depth > sizeof(stack_small) / sizeof(stack_small[0]) &&
	    !(path = malloc(depth * sizeof(*path)))) {
		/* No memory: the same moves, each found again from `n` (slow,
		 * but never another position). */
		for (k = depth; k-- > 0;) {
			uint32_t m = n;
			for (size_t up = 0; up < k; up++)
				m = g->nodes[m].parent;
			xqi_position_make(out, g->nodes[m].move, &u);
		}
		return;
	}
	k = 0;
	for (uint32_t m = n; m != XQI_ROOT && m != XQ_NO_NODE; m = g->nodes[m].parent)
		path[k++] = m;
	while (k > 0)
		xqi_position_make(out, g->nodes[path[--k]].move, &u);
	if (path != stack_small)
		free(path);
}

int xqi_walk_init(struct xqi_walk *w, const struct xqi_record *g)
{
	memset(w, 0, sizeof(*w));
	w->g = g;
	w->node = XQI_ROOT;
	w->cur = g->start;
	w->before = w->after = g->start;
	return 0;
}

static int walk_push(struct xqi_walk *w, uint32_t n)
{
	if (XQ_ALLOC_GROW(w->path, w->depth + 1, w->cap) ||
	    XQ_ALLOC_GROW(w->undo, w->depth + 1, w->undo_cap))
		return XQ_ENOMEM;
	w->before = w->cur;
	xqi_position_make(&w->cur, w->g->nodes[n].move, &w->undo[w->depth]);
	w->path[w->depth++] = n;
	w->after = w->cur;
	w->node = n;
	return 0;
}

int xqi_walk_next(struct xqi_walk *w)
{
	const struct xqi_node *nodes = w->g->nodes;
	uint32_t n;

	if (!w->started) {
		w->started = 1;
		n = nodes[XQI_ROOT].child;
		if (n == XQ_NO_NODE)
			return 0;
		return walk_push(w, n) ? XQ_ENOMEM : 1;
	}
	if (w->depth == 0)
		return 0;
	n = w->path[w->depth - 1];
	if (nodes[n].child != XQ_NO_NODE)
		return walk_push(w, nodes[n].child) ? XQ_ENOMEM : 1;
	/* Climb until a node has a later sibling. */
	while (w->depth > 0) {
		n = w->path[--w->depth];
		xqi_position_unmake(&w->cur, nodes[n].move, &w->undo[w->depth]);
		if (nodes[n].sibling != XQ_NO_NODE)
			return walk_push(w, nodes[n].sibling) ? XQ_ENOMEM : 1;
	}
	return 0;
}

void xqi_walk_release(struct xqi_walk *w)
{
	free(w->path);
	free(w->undo);
	w->path = NULL;
	w->undo = NULL;
	w->depth = w->cap = w->undo_cap = 0;
}

/* ---- the tree in reading order ------------------------------------------------ */

struct xqi_textwalk_frame {
	uint32_t node;  /* the move to give next in this line, or NONE at its end */
	uint32_t sib;   /* the next alternative to give as a variation */
	uint32_t ply;   /* the ply of `node` */
	int state;      /* 0: give `node`; 1: give its alternatives, then go on */
	struct xqi_position before, after;
};

static int text_push(struct xqi_textwalk *t, uint32_t node, uint32_t ply,
		     const struct xqi_position *before)
{
	struct xqi_textwalk_frame *f;

	if (XQ_ALLOC_GROW(t->stack, t->depth + 1, t->cap))
		return XQ_ENOMEM;
	f = &t->stack[t->depth++];
	f->node = node;
	f->sib = XQ_NO_NODE;
	f->ply = ply;
	f->state = 0;
	f->before = *before;
	return 0;
}

int xqi_textwalk_init(struct xqi_textwalk *t, const struct xqi_record *g)
{
	memset(t, 0, sizeof(*t));
	t->g = g;
	t->node = XQ_NO_NODE;
	t->before = g->start;
	return g->nodes[XQI_ROOT].child == XQ_NO_NODE
		       ? 0
		       : text_push(t, g->nodes[XQI_ROOT].child, 1, &g->start);
}

int xqi_textwalk_next(struct xqi_textwalk *t)
{
	const struct xqi_record *g = t->g;

	while (t->depth > 0) {
		struct xqi_textwalk_frame *f = &t->stack[t->depth - 1];
		if (f->state == 0) {
			const struct xqi_node *x;
			struct xqi_undo u;
			if (f->node == XQ_NO_NODE) {
				if (--t->depth > 0)
					return XQI_TEXT_CLOSE;
				continue;
			}
			x = &g->nodes[f->node];
			/* Only a main continuation brings its alternatives along. */
			f->sib = g->nodes[x->parent].child == f->node ? x->sibling : XQ_NO_NODE;
			f->after = f->before;
			xqi_position_make(&f->after, x->move, &u);
			f->state = 1;
			t->node = f->node;
			t->ply = f->ply;
			t->before = f->before;
			return XQI_TEXT_MOVE;
		}
		if (f->sib != XQ_NO_NODE) {
			uint32_t s = f->sib, ply = f->ply;
			struct xqi_position before = f->before;
			f->sib = g->nodes[s].sibling;
			return text_push(t, s, ply, &before) ? XQ_ENOMEM : XQI_TEXT_OPEN;
		}
		f->node = g->nodes[f->node].child;
		f->ply++;
		f->before = f->after;
		f->state = 0;
	}
	return 0;
}

void xqi_textwalk_release(struct xqi_textwalk *t)
{
	free(t->stack);
	t->stack = NULL;
	t->depth = t->cap = 0;
}

static int str_eq(const char *a, const char *b)
{
	if (!a || !*a)
		return !b || !*b;
	return b && !strcmp(a, b);
}

/* The FEN tag's text is not compared: `start` is, and writers regenerate
 * the text from it. */
static int tag_value_eq(const char *name, const char *a, const char *b)
{
	return !strcmp(name, "FEN") || str_eq(a, b);
}

static int by_name(const void *x, const void *y)
{
	const struct xqi_tag_ref *a = x, *b = y;
	int c = strcmp(a->name, b->name);

	return c ? c : (a->index > b->index) - (a->index < b->index);
}

struct xqi_tag_ref *xqi_record_tag_refs(const struct xqi_record *g)
{
	struct xqi_tag_ref *refs;

	if (!g->ntags || !(refs = malloc(g->ntags * sizeof(*refs))))
		return NULL;
	for (size_t i = 0; i < g->ntags; i++) {
		refs[i].name = g->tags[i].name;
		refs[i].index = i;
	}
	qsort(refs, g->ntags, sizeof(*refs), by_name);
	return refs;
}

const struct xqi_tag_ref *xqi_tag_refs_first(const struct xqi_tag_ref *refs, size_t n,
					   const char *name)
{
	size_t lo = 0, hi = n;

	/* The first ref whose name is not below `name`. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(refs[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(refs[lo].name, name) ? &refs[lo] : NULL;
}

/* The value of the first tag of `g` called `name` through its `refs`
 * (xqi_record_tag_refs()), or by a scan when there are none (no memory). */
static const char *tag_by_refs(const struct xqi_record *g, const struct xqi_tag_ref *refs,
			       const char *name)
{
	const struct xqi_tag_ref *t;

	if (!refs)
		return xqi_record_tag(g, name);
	t = xqi_tag_refs_first(refs, g->ntags, name);
	return t ? g->tags[t->index].value : NULL;
}

/*
 * The tags of `a` and `b` in any order: the first of each name has the
 * same value in both (absent counts as empty).  Each name is looked up
 * in the other game's sorted refs, not by a scan of its tags: n log n,
 * where looking up every tag by a scan was quadratic.
 */
static int tags_equal_in_any_order(const struct xqi_record *a, const struct xqi_record *b, char *why,
				   size_t cap)
{
	struct xqi_tag_ref *ra = xqi_record_tag_refs(a), *rb = xqi_record_tag_refs(b);
	int same = 1;

	for (size_t i = 0; same && i < a->ntags; i++) {
		const char *v = tag_by_refs(b, rb, a->tags[i].name);
		if (v ? !tag_value_eq(a->tags[i].name, a->tags[i].value, v)
		      : !str_eq(a->tags[i].value, v)) {
			if (why && cap)
				snprintf(why, cap, "tag %s differs: '%s' and '%s'", a->tags[i].name,
					 a->tags[i].value, v ? v : "(absent)");
			same = 0;
		}
	}
	for (size_t i = 0; same && i < b->ntags; i++)
		if (!tag_by_refs(a, ra, b->tags[i].name) && *b->tags[i].value) {
			if (why && cap)
				snprintf(why, cap, "tag %s only in the second game", b->tags[i].name);
			same = 0;
		}
	free(ra);
	free(rb);
	return same;
}

int xqi_record_equal(const struct xqi_record *a, const struct xqi_record *b, unsigned ignore, char *why,
		  size_t cap)
{
	uint32_t na = XQI_ROOT, nb = XQI_ROOT;
	char fa[XQ_FEN_SIZE], fb[XQ_FEN_SIZE];

#define DIFF(...)                                          \
	do {                                               \
		if (why && cap)                            \
			snprintf(why, cap, __VA_ARGS__);   \
		return 0;                                  \
	} while (0)

	if (!str_eq(a->start_text, b->start_text))
		DIFF("start positions that could not be read differ: '%s' and '%s'",
		     a->start_text ? a->start_text : "(none)", b->start_text ? b->start_text : "(none)");
	xqi_position_to_fen(&a->start, fa, sizeof(fa));
	xqi_position_to_fen(&b->start, fb, sizeof(fb));
	/* Compare the position and side, not the counters, which some formats drop. */
	if (strchr(fa, ' ') && strchr(fb, ' ')) {
		size_t la = (size_t)(strchr(fa, ' ') - fa) + 2, lb = (size_t)(strchr(fb, ' ') - fb) + 2;
		if (la != lb || memcmp(fa, fb, la))
			DIFF("start positions differ: '%s' and '%s'", fa, fb);
	}
	if (!(ignore & XQ_EQUAL_IGNORE_RESULT) && a->result != b->result)
		DIFF("results differ: %s and %s", xqi_result_string(a->result),
		     xqi_result_string(b->result));
	if (!(ignore & XQ_EQUAL_IGNORE_TAGS)) {
		if (ignore & XQ_EQUAL_IGNORE_TAG_ORDER) {
			if (!tags_equal_in_any_order(a, b, why, cap))
				return 0;
		} else {
			if (a->ntags != b->ntags)
				DIFF("%zu tags and %zu tags", a->ntags, b->ntags);
			for (size_t i = 0; i < a->ntags; i++)
				if (strcmp(a->tags[i].name, b->tags[i].name) ||
				    !tag_value_eq(a->tags[i].name, a->tags[i].value, b->tags[i].value))
					DIFF("tag %zu differs: [%s \"%s\"] and [%s \"%s\"]", i + 1,
					     a->tags[i].name, a->tags[i].value, b->tags[i].name,
					     b->tags[i].value);
		}
	}
	/* Walk both trees in lockstep. */
	for (;;) {
		const struct xqi_node *x = &a->nodes[na], *y = &b->nodes[nb];
#define ply xqi_record_ply(a, na)
		if (x->move != y->move) {
			char ma[5], mb[5];
			xqi_move_name(x->move, ma);
			xqi_move_name(y->move, mb);
			DIFF("ply %u: moves differ: %s and %s", ply, ma, mb);
		}
		if (!(ignore & XQ_EQUAL_IGNORE_COMMENTS)) {
			if (!str_eq(x->comment, y->comment))
				DIFF("ply %u: comments differ: '%s' and '%s'", ply,
				     x->comment ? x->comment : "", y->comment ? y->comment : "");
			if (!(ignore & XQ_EQUAL_IGNORE_PRE_COMMENTS) && !str_eq(x->pre_comment, y->pre_comment))
				DIFF("ply %u: comments before the move differ: '%s' and '%s'", ply,
				     x->pre_comment ? x->pre_comment : "",
				     y->pre_comment ? y->pre_comment : "");
		}
		if (!(ignore & XQ_EQUAL_IGNORE_NAGS) &&
		    (x->nnags != y->nnags || (x->nnags && memcmp(x->nags, y->nags, x->nnags))))
			DIFF("ply %u: NAGs differ", ply);
		if ((x->child == XQ_NO_NODE) != (y->child == XQ_NO_NODE))
			DIFF("ply %u: one line ends, the other goes on", ply);
		if (!(ignore & XQ_EQUAL_MAINLINE_ONLY) &&
		    (x->sibling == XQ_NO_NODE) != (y->sibling == XQ_NO_NODE))
			DIFF("ply %u: variations differ", ply + (na != XQI_ROOT ? 0 : 1));
		if (ignore & XQ_EQUAL_MAINLINE_ONLY) {
			na = x->child;
			nb = y->child;
			if (na == XQ_NO_NODE)
				break;
			continue;
		}
		na = xqi_record_next(a, na);
		nb = xqi_record_next(b, nb);
		if (na == XQ_NO_NODE || nb == XQ_NO_NODE) {
			if (na != nb)
				DIFF("trees differ in size");
			break;
		}
	}
#undef ply
#undef DIFF
	return 1;
}

const char *xqi_result_string(enum xqi_result r)
{
	switch (r) {
	case XQI_RESULT_RED_WIN:
		return "1-0";
	case XQI_RESULT_BLACK_WIN:
		return "0-1";
	case XQI_RESULT_DRAW:
		return "1/2-1/2";
	case XQI_RESULT_NONE:
	case XQI_RESULT_UNKNOWN:
		break;
	}
	return "*";
}

/* ---- the script of the move texts (record.h) ------------------------------------- */

int xqi_record_traditional(const struct xqi_record *g)
{
	/* The glyphs of Chinese move text that one script has and the other
	 * not (炮 兵 卒 士 相 平 退 are both's). */
	static const char *const trad[] = {"車", "俥", "硨", "馬", "傌", "碼", "帥", "將", "進", "後"};
	static const char *const simp[] = {"车", "马", "帅", "将", "进", "后"};

	for (size_t n = 1; n < g->nnodes; n++) {
		const unsigned char *t = (const unsigned char *)g->nodes[n].text;
		int cjk = 0;
		if (!t)
			continue;
		for (; *t; t++) {
			if (*t < 0xE0 || !t[1] || !t[2])
				continue;
			cjk = 1;
			for (size_t i = 0; i < sizeof(trad) / sizeof(trad[0]); i++)
				if (!memcmp(t, trad[i], 3))
					return 1;
			for (size_t i = 0; i < sizeof(simp) / sizeof(simp[0]); i++)
				if (!memcmp(t, simp[i], 3))
					return 0;
		}
		if (!cjk)
			return 0; /* moves in another notation than Chinese */
	}
	return 0;
}

/* ---- results in words (record.h) ------------------------------------------------ */

/* What a word of a result says of a side. */
enum { W_WIN, W_LOSS, W_DRAW };
/* Who a word names: a colour, or the side that moves first or second. */
enum { S_RED, S_BLACK, S_FIRST, S_SECOND };

struct word {
	const char *text;
	int what;
};

/* Longest first, where one is the start of another. */
static const struct word zh_sides[] = {
	{"红方", S_RED},	{"紅方", S_RED},      {"红", S_RED},	{"紅", S_RED},
	{"黑方", S_BLACK},      {"黑", S_BLACK},      {"先手", S_FIRST},     {"先", S_FIRST},
	{"后手", S_SECOND},     {"後手", S_SECOND},   {"后", S_SECOND},      {"後", S_SECOND},
};
static const struct word zh_outcomes[] = {
	{"获胜", W_WIN},  {"獲勝", W_WIN},  {"胜利", W_WIN},  {"勝利", W_WIN},  {"胜", W_WIN},
	{"勝", W_WIN},    {"赢", W_WIN},    {"贏", W_WIN},    {"负", W_LOSS},   {"負", W_LOSS},
	{"输", W_LOSS},   {"輸", W_LOSS},   {"败", W_LOSS},   {"敗", W_LOSS},   {"和棋", W_DRAW},
	{"和局", W_DRAW}, {"和", W_DRAW},
};

/* The entry of `set` that `s` starts with (the first that fits), or NULL. */
static const struct word *starts_with(const struct word *set, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(set[i].text);
		if (k <= len && !memcmp(set[i].text, s, k))
			return &set[i];
	}
	return NULL;
}

static int is_word(const char *s, size_t len, const char *w)
{
	return strlen(w) == len && !memcmp(s, w, len);
}

/* The side a word names, as XQI_RED or XQI_BLACK. */
static int side_of(int who, int first)
{
	if (who == S_RED)
		return XQI_RED;
	if (who == S_BLACK)
		return XQI_BLACK;
	return who == S_FIRST ? first : !first;
}

static enum xqi_result outcome(int what, int side)
{
	if (what == W_DRAW)
		return XQI_RESULT_DRAW;
	return (what == W_WIN) == (side == XQI_RED) ? XQI_RESULT_RED_WIN : XQI_RESULT_BLACK_WIN;
}

/* Chinese: [side [先|后|後]] outcome, a draw with no side, or unknown. */
static int zh_word(const char *s, size_t len, int first, enum xqi_result *out)
{
	static const char *const unknown[] = {"未知", "不详", "不詳"};
	static const char *const draws[] = {"和棋", "和局", "和", "平局"};
	const struct word *side, *o;
	size_t k;

	for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		if (is_word(s, len, unknown[i])) {
			*out = XQI_RESULT_UNKNOWN;
			return 1;
		}
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++)
		if (is_word(s, len, draws[i])) {
			*out = XQI_RESULT_DRAW;
			return 1;
		}
	side = starts_with(zh_sides, sizeof(zh_sides) / sizeof(zh_sides[0]), s, len);
	if (!side)
		return -1; /* 胜 or 负 alone: whose? */
	k = strlen(side->text);
	/* 红先胜: red, who moves first, wins (the colour decides). */
	if ((side->what == S_RED || side->what == S_BLACK) && len - k >= 3 &&
	    (!memcmp(s + k, "先", 3) || !memcmp(s + k, "后", 3) || !memcmp(s + k, "後", 3)))
		k += 3;
	o = starts_with(zh_outcomes, sizeof(zh_outcomes) / sizeof(zh_outcomes[0]), s + k, len - k);
	if (!o || strlen(o->text) != len - k)
		return -1;
	*out = outcome(o->what, side_of(side->what, first));
	return 1;
}

/* English, any case, words apart by spaces: "red wins", "black resigned",
 * "draw", "unknown"; a final '.' or '!' is left out. */
static int en_word(const char *s, size_t len, int first, enum xqi_result *out)
{
	static const struct word verbs[] = {
		{"wins", W_WIN},      {"win", W_WIN},       {"won", W_WIN},
		{"loses", W_LOSS},    {"lose", W_LOSS},     {"lost", W_LOSS},
		{"resigns", W_LOSS},  {"resigned", W_LOSS}, {"draws", W_DRAW},
	};
	static const char *const draws[] = {"draw", "drawn", "draw game", "drawn game"};
	char low[24];
	size_t n = 0;
	const char *sp;

	if (len && (s[len - 1] == '.' || s[len - 1] == '!'))
		len--;
	if (len >= sizeof(low))
		return -1;
	for (size_t i = 0; i < len; i++) {
		int c = xq_to_lower((unsigned char)s[i]);
		if (xq_is_space(c)) {
			if (n && low[n - 1] == ' ')
				continue; /* one space for many */
			c = ' ';
		}
		low[n++] = (char)c;
	}
	low[n] = '\0';
	if (!strcmp(low, "unknown")) {
		*out = XQI_RESULT_UNKNOWN;
		return 1;
	}
	for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++)
		if (!strcmp(low, draws[i])) {
			*out = XQI_RESULT_DRAW;
			return 1;
		}
	sp = strchr(low, ' ');
	if (!sp)
		return -1;
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		int who;
		if (strcmp(sp + 1, verbs[i].text))
			continue;
		if ((size_t)(sp - low) == 3 && !memcmp(low, "red", 3))
			who = S_RED;
		else if ((size_t)(sp - low) == 5 && !memcmp(low, "black", 5))
			who = S_BLACK;
		else
			return -1;
		*out = outcome(verbs[i].what, side_of(who, first));
		return 1;
	}
	return -1;
}

int xqi_result_word(const char *s, size_t len, int first, enum xqi_result *out)
{
	enum xqi_result r;

	while (len && xq_is_space((unsigned char)*s))
		s++, len--;
	while (len && xq_is_space((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return -1;
	if (xqi_result_parse(s, len, &r) == 0) {
		*out = r;
		/* ½-½ says a draw, not in PGN's words */
		return (unsigned char)s[0] == 0xC2 ? XQI_RESULT_IS_WORD : XQI_RESULT_IS_STANDARD;
	}
	if ((unsigned char)s[0] >= 0x80 ? zh_word(s, len, first, &r) < 0
					  : en_word(s, len, first, &r) < 0)
		return -1;
	*out = r;
	return XQI_RESULT_IS_WORD;
}

const char *xqi_result_meaning(enum xqi_result r)
{
	switch (r) {
	case XQI_RESULT_RED_WIN:
		return "1-0, red wins";
	case XQI_RESULT_BLACK_WIN:
		return "0-1, black wins";
	case XQI_RESULT_DRAW:
		return "1/2-1/2, a draw";
	case XQI_RESULT_NONE:
	case XQI_RESULT_UNKNOWN:
		break;
	}
	return "*, unknown";
}

int xqi_result_parse(const char *s, size_t len, enum xqi_result *out)
{
	static const struct {
		const char *text;
		enum xqi_result r;
	} tokens[] = {
		{"1-0", XQI_RESULT_RED_WIN},
		{"0-1", XQI_RESULT_BLACK_WIN},
		{"1/2-1/2", XQI_RESULT_DRAW},
		{"\xC2\xBD-\xC2\xBD", XQI_RESULT_DRAW}, /* ½-½ */
		{"*", XQI_RESULT_UNKNOWN},
	};

	for (size_t i = 0; i < sizeof(tokens) / sizeof(tokens[0]); i++) {
		if (strlen(tokens[i].text) == len && !memcmp(tokens[i].text, s, len)) {
			*out = tokens[i].r;
			return 0;
		}
	}
	return -1;
}
