/*
 * dhtmlxq_build.c: DhtmlXQ reading: a record's elements into a game (see
 * dhtmlxq.c for the format, dhtmlxq_int.h for what the parts share).
 */
#include "dhtmlxq_int.h"

#include "flattree.h"

/*
 * A lower-case element name as a tag name: the first letter, and the one
 * after a "red" or "black" prefix, upper-cased (redteam -> RedTeam).
 * `out` holds len + 1 bytes.
 */
void xqi_dh_capitalise(char *out, const char *name, size_t len)
{
	memcpy(out, name, len);
	out[len] = '\0';
	out[0] = (char)xq_to_upper((unsigned char)out[0]);
	if (len > 3 && !memcmp(name, "red", 3))
		out[3] = (char)xq_to_upper((unsigned char)out[3]);
	if (len > 5 && !memcmp(name, "black", 5))
		out[5] = (char)xq_to_upper((unsigned char)out[5]);
}

static int tag_of_element(struct xqi_record *g, const char *name, size_t len, const char *value,
			  size_t vlen, const struct xqi_place *at)
{
	char tag[64];

	for (size_t i = 0; i < xqi_dh_ntags; i++)
		if (xqi_dh_name_is(name, len, xqi_dh_tags[i].element))
			return xqi_record_add_tag_at(g, xqi_dh_tags[i].tag, strlen(xqi_dh_tags[i].tag), value,
						  vlen, at);
	/* Names written with capitals (by this writer: DateModified) are kept as they are. */
	for (size_t i = 0; i < len; i++)
		if (name[i] >= 'A' && name[i] <= 'Z')
			return xqi_record_add_tag_at(g, name, len, value, vlen, at);
	if (len >= sizeof(tag))
		return xqi_record_add_tag_at(g, name, len, value, vlen, at);
	xqi_dh_capitalise(tag, name, len);
	return xqi_record_add_tag_at(g, tag, len, value, vlen, at);
}

/* binit: 64 digits, 32 squares in the fixed piece order, "99" absent. */
static int setup_binit(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e,
		       struct xqi_position *b, int quiet)
{
	static const int8_t types[16] = {XQI_ROOK,   XQI_HORSE,  XQI_ELEPHANT, XQI_ADVISOR,
					 XQI_KING,   XQI_ADVISOR, XQI_ELEPHANT, XQI_HORSE,
					 XQI_ROOK,   XQI_CANNON, XQI_CANNON,   XQI_PAWN,
					 XQI_PAWN,   XQI_PAWN,   XQI_PAWN,     XQI_PAWN};
	struct xq_diagnostic d;
	size_t n = 0;
	char digits[64];

	for (size_t i = 0; i < e->vlen; i++) {
		if (xq_is_space((unsigned char)e->val[i]))
			continue;
		if (!xq_is_digit((unsigned char)e->val[i]) || n == 64) {
			struct dh_pos p = xqi_dh_place_in(r, e, i);
			if (!quiet)
				xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				  "[DhtmlXQ_binit] must be 64 digits; no move can be read");
			return -1;
		}
		digits[n++] = e->val[i];
	}
	if (n != 64) {
		struct dh_pos p = xqi_dh_place_in(r, e, 0);
		if (!quiet)
			xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
			  "[DhtmlXQ_binit] has %zu digits, not 64; no move can be read", n);
		return -1;
	}
	xqi_position_clear(b);
	for (int i = 0; i < 32; i++) {
		int x = digits[2 * i] - '0', y = digits[2 * i + 1] - '0';
		if (x == 9 && y == 9)
			continue;
		xqi_diagnostic_init(&d);
		if (x > 8 || xqi_position_put(b, i / 16, types[i % 16], XQI_SQ(x, 9 - y), &d)) {
			struct dh_pos p = xqi_dh_place_in(r, e, 0);
			if (!quiet)
				xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				  "[DhtmlXQ_binit] piece %d at \"%c%c\": %s; no move can be read",
				  i + 1, digits[2 * i], digits[2 * i + 1],
				  x > 8 ? "no such square" : d.msg);
			return -1;
		}
	}
	return 0;
}

/* Four digits at s: the move, or 0. */
static xqi_move digits_move(const char *s)
{
	for (int k = 0; k < 4; k++)
		if (!xq_is_digit((unsigned char)s[k]))
			return 0;
	if (s[0] > '8' || s[2] > '8')
		return 0;
	return XQI_MOVE(XQI_SQ(s[0] - '0', 9 - (s[1] - '0')), XQI_SQ(s[2] - '0', 9 - (s[3] - '0')));
}

/* The first move of a value (skipping space), or 0. */
static xqi_move first_move(const struct dh_elem *e)
{
	size_t i = 0;

	while (i < e->vlen && xq_is_space((unsigned char)e->val[i]))
		i++;
	return i + 4 <= e->vlen ? digits_move(e->val + i) : 0;
}

/* The moves of a value from byte `from` on. */
static size_t count_moves_from(const struct dh_elem *e, size_t from)
{
	size_t digits = 0;

	for (size_t i = from; i < e->vlen; i++)
		digits += !xq_is_space((unsigned char)e->val[i]);
	return (digits + 3) / 4;
}

static size_t count_moves(const struct dh_elem *e)
{
	return count_moves_from(e, 0);
}

static void hold_diag(const struct xq_diagnostic *d, void *payload)
{
	*(struct xq_diagnostic *)payload = *d;
}

/*
 * A branch's line cut at ply `ply`, `moves` moves from there on: a new cut
 * in r->cuts (*out its index), and `hold` made the sink that puts the next
 * report into it (the caller puts it in r->sink for that report).
 */
static int new_cut(struct dh_reader *r, uint32_t ply, uint64_t moves, size_t *out,
		   struct xqi_sink *hold)
{
	struct dh_cut *c;

	if (XQ_ALLOC_GROW(r->cuts, r->ncuts + 1, r->cuts_cap))
		return XQ_ENOMEM;
	*out = r->ncuts;
	c = &r->cuts[r->ncuts++];
	xqi_diagnostic_init(&c->d);
	c->ply = ply;
	c->moves = moves;
	hold->report = hold_diag;
	hold->payload = &c->d;
	return 0;
}

/* Say every cut, with what it cost (xqi_cut_message()); the game is then
 * XQI_RECORD_CUT. */
static void report_cuts(struct dh_reader *r, struct xqi_record *g)
{
	for (size_t i = 0; i < r->ncuts; i++) {
		struct dh_cut *c = &r->cuts[i];
		g->flags |= XQI_RECORD_CUT;
		if (r->quiet || c->d.code == XQI_D_NONE)
			continue;
		xqi_cut_message(&c->d, 0, (uint32_t)(c->moves > UINT32_MAX ? UINT32_MAX : c->moves), 0);
		xqi_sink_report(r->sink, &c->d);
	}
	r->ncuts = 0;
}

static int push_node(struct dh_reader *r, uint32_t n)
{
	if (XQ_ALLOC_GROW(r->bnodes, r->nbnodes + 1, r->bnodes_cap))
		return XQ_ENOMEM;
	r->bnodes[r->nbnodes++] = n;
	return 0;
}

static int push_ckpt(struct dh_reader *r, const struct xqi_position *b)
{
	if (XQ_ALLOC_GROW(r->ckpt, r->nckpt + 1, r->ckpt_cap))
		return XQ_ENOMEM;
	r->ckpt[r->nckpt++] = *b;
	return 0;
}

/*
 * The position after the first `q` moves of a line that starts at `start`,
 * whose nodes are bnodes[at...] and whose first position in ckpt[] is
 * `first` (NO_CKPT: none kept, the line is replayed from `start`).
 */
static void line_board(const struct dh_reader *r, const struct xqi_record *g, size_t first,
		       const struct xqi_position *start, size_t at, size_t q, struct xqi_position *out)
{
	size_t k = 0;

	*out = *start;
	if (first != NO_CKPT) {
		k = q / CKPT_EVERY * CKPT_EVERY;
		*out = r->ckpt[first + q / CKPT_EVERY];
	}
	for (; k < q; k++) {
		struct xqi_undo u;
		xqi_position_make(out, g->nodes[r->bnodes[at + k]].move, &u);
	}
}

/*
 * Play the moves of `e` from node `attach` (position `b`), the first being
 * ply `ply`; their nodes are appended to r->bnodes.  Stops at the first
 * move that cannot be read or played: on the main line (`cut` NULL) that
 * is reported and the game is broken; in a branch the branch is cut there
 * (*cut, in r->cuts: reported by report_cuts()).  With `ckpt`, the line's
 * positions are kept (CKPT_EVERY) and *ckpt is the first one's index in
 * r->ckpt.
 */
static int play_line(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e,
		     uint32_t attach, struct xqi_position *b, uint32_t ply, const char *what,
		     size_t *ckpt, size_t *cut)
{
	const struct xqi_sink *sink = r->sink;
	uint32_t parent = attach;
	size_t i = 0, at = 0, played = 0;
	struct dh_pos p = xqi_dh_place_in(r, e, 0);

	if (ckpt) {
		*ckpt = r->nckpt;
		if (push_ckpt(r, b))
			return XQ_ENOMEM;
	}

	while (i < e->vlen) {
		struct xq_diagnostic d;
		xqi_move m;
		uint32_t n;
		int rc;
		if (xq_is_space((unsigned char)e->val[i])) {
			i++;
			continue;
		}
		/* The place of byte i, from that of the last move (xqi_dh_place_in()
		 * counts from the value's start: quadratic in a long line). */
		if (r->exact)
			xqi_dh_pos_advance(&p, e->val + at, i - at);
		at = i;
		m = i + 4 <= e->vlen ? digits_move(e->val + i) : 0;
		xqi_diagnostic_init(&d);
		if (!m || xqi_move_check(b, m, &d)) {
			/* The main line stops here; a branch is cut (its report held). */
			struct xqi_sink hold;
			size_t k = i;
			while (k < e->vlen && k < i + 4 && !xq_is_space((unsigned char)e->val[k]))
				k++;
			if (cut && new_cut(r, ply, count_moves_from(e, i), cut, &hold))
				return XQ_ENOMEM;
			if (cut)
				r->sink = &hold;
			else
				g->flags |= XQI_RECORD_BROKEN;
			if (!m)
				xqi_dh_report_at(r, g->number, &p, ply, e->val + i, k - i,
					  XQI_D_BAD_MOVE_TEXT, XQ_SEVERITY_ERROR,
					  "%s: '%.*s' is not a move (four digits x1y1x2y2)%s", what,
					  (int)(k - i), e->val + i, cut ? "" : "; the line stops here");
			else
				xqi_dh_report_at(r, g->number, &p, ply, e->val + i, 4, XQI_D_ILLEGAL_MOVE,
					  XQ_SEVERITY_ERROR, "%s: illegal move %.4s: %s%s", what, e->val + i,
					  d.msg, cut ? "" : "; the line stops here");
			r->sink = sink;
			return 0;
		}
		rc = xqi_record_add_move(g, parent, m, &n);
		if (!rc)
			rc = xqi_record_set_text(g, n, e->val + i, 4);
		if (!rc)
			rc = push_node(r, n);
		if (rc)
			return rc;
		g->nodes[n].place.line = p.line;
		g->nodes[n].place.col = p.col;
		g->nodes[n].place.offset = p.off;
		{
			struct xqi_undo u;
			xqi_position_make(b, m, &u);
		}
		if (ckpt && ++played % CKPT_EVERY == 0 && (rc = push_ckpt(r, b)))
			return rc;
		parent = n;
		ply++;
		i += 4;
	}
	return 0;
}

static int push_branch(struct dh_reader *r, const struct dh_branch *b)
{
	if (XQ_ALLOC_GROW(r->br, r->nbr + 1, r->br_cap))
		return XQ_ENOMEM;
	r->br[r->nbr++] = *b;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	const struct dh_order *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Index in r->br of branch `id` (the first of that id), or (size_t)-1. */
static size_t branch_index(const struct dh_reader *r, uint32_t id)
{
	size_t lo = 0, hi = r->nbr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->order[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nbr && r->order[lo].id == id ? r->order[lo].idx : (size_t)-1;
}

/* Branch `bi` hangs below the move of cut `ci` (or from a branch that
 * does): not read, its moves counted with the cut's. */
static void join_cut(struct dh_reader *r, size_t bi, size_t ci)
{
	struct dh_branch *b = &r->br[bi];

	b->cut = ci;
	b->state = BR_FAILED;
	r->cuts[ci].moves += count_moves(&r->elems[b->elem]);
}

/* Build branch `bi` whose parent is built (or the main line: main_*). */
static int build_branch(struct dh_reader *r, struct xqi_record *g, size_t bi, size_t main_at,
			size_t main_n, size_t main_moves)
{
	struct dh_branch *b = &r->br[bi];
	const struct dh_elem *e = &r->elems[b->elem];
	uint32_t fp, attach;
	size_t at, n, moves, ckpt;
	struct dh_pos p = xqi_dh_place_in(r, e, 0);
	struct xqi_position board;
	char what[64];
	size_t cut = NO_CUT;
	int rc;

	if (b->parent == 0) {
		fp = 1;
		attach = XQI_ROOT;
		at = main_at;
		n = main_n;
		moves = main_moves;
		ckpt = r->main_ckpt;
	} else {
		const struct dh_branch *pb = &r->br[branch_index(r, b->parent)];
		fp = pb->first_ply;
		attach = pb->attach;
		at = pb->nodes_at;
		n = pb->nnodes;
		moves = pb->nmoves;
		ckpt = pb->ckpt;
	}
	if (b->ply < fp || b->ply > fp + moves) {
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
			  "branch %u leaves branch %u at ply %u, but that branch covers plies %u-%zu; "
			  "not read",
			  (unsigned)b->id, (unsigned)b->parent, (unsigned)b->ply, (unsigned)fp,
			  fp + moves);
		g->flags |= XQI_RECORD_BROKEN;
		b->state = BR_FAILED;
		return 0;
	}
	if (b->ply > fp + n && b->parent && r->br[branch_index(r, b->parent)].cut != NO_CUT) {
		/* It hangs below the move its parent branch was cut at: cut too. */
		join_cut(r, bi, r->br[branch_index(r, b->parent)].cut);
		return 0;
	}
	if (b->ply > fp + n) {
		xqi_dh_report_at(r, g->number, &p, b->ply, NULL, 0, XQI_D_ILLEGAL_MOVE, XQ_SEVERITY_ERROR,
			  "branch %u leaves branch %u at ply %u, after the point where that line "
			  "stopped; not read",
			  (unsigned)b->id, (unsigned)b->parent, (unsigned)b->ply);
		g->flags |= XQI_RECORD_BROKEN;
		b->state = BR_FAILED;
		return 0;
	}
	if (b->ply > fp)
		attach = r->bnodes[at + (b->ply - 1 - fp)];
	b->first_ply = b->ply;
	b->attach = attach;
	b->nodes_at = r->nbnodes;
	b->nmoves = count_moves(e);
	if (b->nmoves == 0)
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_EMPTY_GAME, XQ_SEVERITY_NOTE,
			  "branch %u has no moves", (unsigned)b->id);
	if (ckpt != NO_CKPT)
		line_board(r, g, ckpt, &g->start, at, b->ply - fp, &board);
	else
		xqi_record_board_at(g, attach, &board);
	snprintf(what, sizeof(what), "branch %u", (unsigned)b->id);
	rc = play_line(r, g, e, attach, &board, b->ply, what, b->left ? &ckpt : NULL, &cut);
	b = &r->br[bi];
	b->cut = cut;
	b->ckpt = b->left ? ckpt : NO_CKPT;
	b->nnodes = r->nbnodes - b->nodes_at;
	b->state = BR_BUILT;
	return rc;
}

/* Build every branch, parents before children, each once. */
static int build_branches(struct dh_reader *r, struct xqi_record *g, size_t main_n,
			  size_t main_moves)
{
	size_t *stack;

	if (r->nbr == 0)
		return 0;
	r->order = malloc(r->nbr * sizeof(*r->order));
	stack = malloc(r->nbr * sizeof(*stack));
	if (!r->order || !stack) {
		free(stack);
		return XQ_ENOMEM;
	}
	if (r->nbr > UINT32_MAX) {
		free(stack);
		return XQ_ERANGE;
	}
	for (size_t i = 0; i < r->nbr; i++) {
		r->order[i].id = r->br[i].id;
		r->order[i].idx = (uint32_t)i;
	}
	qsort(r->order, r->nbr, sizeof(*r->order), by_id);
	/* A second branch with an id already used cannot be told apart. */
	for (size_t i = 1; i < r->nbr; i++) {
		struct dh_branch *b = &r->br[r->order[i].idx];
		if (b->id == r->order[i - 1].id && b->id != 0) {
			struct dh_pos p = xqi_dh_place_in(r, &r->elems[b->elem], 0);
			xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
				  "branch id %u is used twice; the second one is not read",
				  (unsigned)b->id);
			g->flags |= XQI_RECORD_BROKEN;
			b->state = BR_FAILED;
		}
	}
	/* Which branches others leave (the first of an id is the one read). */
	for (size_t i = 0; i < r->nbr; i++) {
		r->br[i].ckpt = NO_CKPT;
		r->br[i].cut = NO_CUT;
	}
	for (size_t i = 0; i < r->nbr; i++) {
		size_t pi = r->br[i].parent ? branch_index(r, r->br[i].parent) : (size_t)-1;
		if (pi != (size_t)-1)
			r->br[pi].left = 1;
	}
	for (size_t i = 0; i < r->nbr && r->order[i].id == 0; i++) {
		struct dh_branch *b = &r->br[r->order[i].idx];
		struct dh_pos p = xqi_dh_place_in(r, &r->elems[b->elem], 0);
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
			  "branch id 0 is the main line's; this branch is not read");
		g->flags |= XQI_RECORD_BROKEN;
		b->state = BR_FAILED;
	}
	for (size_t i = 0; i < r->nbr; i++) {
		size_t depth = 0;
		if (r->br[i].state != BR_WAITING)
			continue;
		stack[depth++] = i;
		r->br[i].state = BR_RESOLVING;
		while (depth > 0) {
			size_t bi = stack[depth - 1], pi;
			struct dh_branch *b = &r->br[bi];
			const char *why = NULL;
			int rc;
			pi = b->parent ? branch_index(r, b->parent) : (size_t)-1;
			if (b->parent && pi != (size_t)-1 && r->br[pi].state == BR_WAITING) {
				r->br[pi].state = BR_RESOLVING;
				stack[depth++] = pi;
				continue;
			}
			depth--;
			if (b->parent && pi == (size_t)-1)
				why = "which does not exist";
			else if (b->parent && r->br[pi].state == BR_RESOLVING)
				why = "which leads back to it";
			else if (b->parent && r->br[pi].state == BR_FAILED && r->br[pi].cut != NO_CUT) {
				join_cut(r, bi, r->br[pi].cut);
				continue;
			} else if (b->parent && r->br[pi].state == BR_FAILED)
				why = "which could not be read";
			if (why) {
				struct dh_pos p = xqi_dh_place_in(r, &r->elems[b->elem], 0);
				xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
					  "branch %u hangs from branch %u, %s; not read",
					  (unsigned)b->id, (unsigned)b->parent, why);
				g->flags |= XQI_RECORD_BROKEN;
				b->state = BR_FAILED;
				continue;
			}
			rc = build_branch(r, g, bi, 0, main_n, main_moves);
			if (rc) {
				free(stack);
				return rc;
			}
		}
	}
	free(stack);
	return 0;
}

/* The node comment (B, S) names, or XQ_NO_NODE. */
static uint32_t comment_node(struct dh_reader *r, uint32_t b, uint32_t s, size_t main_n)
{
	const struct dh_branch *br;
	size_t bi;

	if (b == 0) {
		if (s == 0)
			return XQI_ROOT;
		return s <= main_n ? r->bnodes[s - 1] : XQ_NO_NODE;
	}
	bi = branch_index(r, b);
	if (bi == (size_t)-1)
		return XQ_NO_NODE;
	br = &r->br[bi];
	if (br->state != BR_BUILT || s < br->first_ply || s >= br->first_ply + br->nnodes)
		return XQ_NO_NODE;
	return r->bnodes[br->nodes_at + (s - br->first_ply)];
}

/*
 * The position of a [DhtmlXQ_fen].  Its side may be the wrong one (the
 * first move decides), and with the wrong side the FEN can be refused for
 * the side not to move being in check; so a refused FEN is tried once more
 * with the other side before its error is reported.
 */
static int fen_setup(const struct dh_elem *fen, struct xqi_position *b, struct xq_diagnostic *d,
		     int *flipped)
{
	char text[XQ_FEN_SIZE + 8];
	const char *sp = memchr(fen->val, ' ', fen->vlen);
	size_t board = sp ? (size_t)(sp - fen->val) : fen->vlen, rest;
	struct xq_diagnostic d2;

	*flipped = 0;
	if (xqi_position_from_fen(b, fen->val, fen->vlen, XQI_FEN_LENIENT_PLACEMENT, d) == 0)
		return 0;
	*flipped = 1;
	if (board >= XQ_FEN_SIZE)
		return -1;
	/* The board, the other side, and whatever followed the side. */
	memcpy(text, fen->val, board);
	rest = sp && fen->vlen - board >= 2 ? fen->vlen - board - 2 : 0;
	if (rest > XQ_FEN_SIZE - board)
		return -1;
	text[board] = ' ';
	text[board + 1] = sp && board + 1 < fen->vlen && fen->val[board + 1] == 'b' ? 'w' : 'b';
	memcpy(text + board + 2, fen->val + board + 2, rest);
	xqi_diagnostic_init(&d2);
	return xqi_position_from_fen(b, text, board + 2 + rest, XQI_FEN_LENIENT_PLACEMENT, &d2) ? -1 : 0;
}

/*
 * With both a FEN and a binit (xqkit writes both when black moves first),
 * the FEN decides, but a binit that holds the same placement gives each
 * piece its slot: which of two rooks is the first rook is written in the
 * binit only, and a game read back must write the same binit again.
 */
static void slots_from_binit(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *binit,
			     struct xqi_position *b)
{
	struct xqi_position slots;

	if (setup_binit(r, g, binit, &slots, 1))
		return;
	for (int sq = 0; sq < 256; sq++)
		if (xqi_kind_of_id[b->sq[sq]] != xqi_kind_of_id[slots.sq[sq]])
			return;
	memcpy(b->sq, slots.sq, sizeof(b->sq));
	memcpy(b->pc, slots.pc, sizeof(b->pc));
}

/* The start position: fen, else binit, else the standard one.  1: unusable. */
static int setup(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *binit,
		 const struct dh_elem *fen, xqi_move first)
{
	struct xqi_position b;
	struct xq_diagnostic d;
	int stated = -1, flipped = 0; /* the side the FEN says, when it says one */

	xqi_position_start(&b);
	if (fen) {
		xqi_diagnostic_init(&d);
		if (fen_setup(fen, &b, &d, &flipped)) {
			struct dh_pos p = xqi_dh_place_in(r, fen, d.place.col ? d.place.col - 1 : 0);
			xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
				  "[DhtmlXQ_fen]: %s; no move can be read", d.msg);
			return 1;
		}
		if (memchr(fen->val, ' ', fen->vlen))
			stated = flipped ? !b.side : b.side;
		if (binit)
			slots_from_binit(r, g, binit, &b);
	} else if (binit && setup_binit(r, g, binit, &b, 0)) {
		return 1;
	}
	if (first) {
		int kind = xqi_position_kind(&b, XQI_MOVE_FROM(first));
		if (kind && XQI_KIND_SIDE(kind) != b.side)
			b.side = (uint8_t)XQI_KIND_SIDE(kind);
	}
	if (stated >= 0 && stated != b.side) {
		struct dh_pos p = xqi_dh_place_in(r, fen, 0);
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SIDE_TO_MOVE, XQ_SEVERITY_NOTE,
			  "[DhtmlXQ_fen] says %s moves, but %s; %s moves",
			  stated == XQI_RED ? "red" : "black",
			  first && xqi_position_kind(&b, XQI_MOVE_FROM(first))
				  ? "the first move decides"
				  : "the other king would be in check",
			  b.side == XQI_RED ? "red" : "black");
	}
	b.key = xqi_position_compute_key(&b);
	xqi_diagnostic_init(&d);
	if (xqi_position_validate(&b, XQI_FEN_LENIENT_PLACEMENT, &d)) {
		const struct dh_elem *e = fen ? fen : binit;
		struct dh_pos p = e ? xqi_dh_place_in(r, e, 0) : r->rec_at;
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_FEN, XQ_SEVERITY_ERROR,
			  "start position: %s; no move can be read", d.msg);
		return 1;
	}
	g->start = b;
	return 0;
}

/*
 * [DhtmlXQ_result]: its word kept as the record wrote it (result_text)
 * and the Result tag; what the word says is read by read_result() once
 * the side that moves first is known (先胜).
 */
static int set_result(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e)
{
	const char *s;
	size_t len;
	int rc = xqi_dh_value_text(r, g->number, e, 0);

	if (rc)
		return rc;
	s = r->tmp.ptr;
	len = r->tmp.len;
	while (len && xq_is_space((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && xq_is_space((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return 0;
	g->result = XQI_RESULT_UNKNOWN;
	if (!(g->result_text = xqi_record_strdup(g, s, len)))
		return XQ_ENOMEM;
	return xqi_record_add_tag(g, "Result", 6, s, len);
}

/* The result the word of [DhtmlXQ_result] `e` says (set_result() kept it),
 * its Result tag made the standard one, and a note of the reading. */
static int read_result(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e)
{
	const char *w = g->result_text, *std;
	struct dh_pos p;
	enum xqi_result res;

	if (!e || !w)
		return 0;
	p = xqi_dh_place_in(r, e, 0);
	if (xqi_dh_result_word(w, strlen(w), g->start.side, &res) != 0) {
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_NO_RESULT, XQ_SEVERITY_NOTE,
			  "result '%s' is not a result word this reader knows; kept as the "
			  "Result tag, the result is unknown",
			  w);
		return 0;
	}
	g->result = res;
	std = xqi_result_string(res);
	if (!strcmp(std, w)) {
		g->result_text = NULL;
		return 0;
	}
	xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_BAD_TAG, XQ_SEVERITY_NOTE,
		  "result '%s' is read as %s", w, xqi_result_meaning(res));
	return xqi_record_set_tag(g, "Result", std);
}

static int attach_comment(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e,
			  uint32_t b, uint32_t s, size_t main_n)
{
	uint32_t node = comment_node(r, b, s, main_n);
	const char *old;
	int rc = xqi_dh_value_text(r, g->number, e, 1);

	if (rc || r->tmp.len == 0)
		return rc;
	if (node == XQ_NO_NODE) {
		struct dh_pos p = xqi_dh_place_in(r, e, 0);
		xqi_dh_report_at(r, g->number, &p, s, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
			  "[DhtmlXQ_%.*s] is for ply %u of %s %u, which has no move that was read; "
			  "comment not kept: '%.*s'",
			  (int)e->nlen, e->name, (unsigned)s, b ? "branch" : "line", (unsigned)b,
			  xqi_dh_excerpt_len(r->tmp.ptr, r->tmp.len), r->tmp.ptr);
		return 0;
	}
	old = g->nodes[node].comment;
	if (old) {
		/* Two comments for one move: keep both, a line apart. */
		xq_buf_reset(&r->tmp2);
		if (xq_buf_adds(&r->tmp2, old) || xq_buf_addc(&r->tmp2, '\n') ||
		    xq_buf_add(&r->tmp2, r->tmp.ptr, r->tmp.len))
			return XQ_ENOMEM;
		return xqi_record_set_comment(g, node, r->tmp2.ptr, r->tmp2.len);
	}
	return xqi_record_set_comment(g, node, r->tmp.ptr, r->tmp.len);
}

/* An element that holds a tag (or nothing to keep). */
static int take_tag(struct dh_reader *r, struct xqi_record *g, const struct dh_elem *e)
{
	struct dh_pos p = xqi_dh_place_in(r, e, 0);
	int rc;

	if (e->vlen == 0)
		return 0;
	if (xqi_dh_name_is(e->name, e->nlen, "FEN")) {
		/* Not a tag: the start position is [DhtmlXQ_binit] or
		 * [DhtmlXQ_fen], which is what a writer gives back, so a FEN
		 * tag read here would be lost on the way round. */
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
				"[DhtmlXQ_FEN] not read: the start position is [DhtmlXQ_binit] or "
				"[DhtmlXQ_fen]");
		return 0;
	}
	rc = xqi_dh_value_text(r, g->number, e, 0);
	if (!rc && r->tmp.len) {
		/* Where the value starts, when the reader knows it exactly. */
		struct xqi_place at = {p.off, p.line, p.col};
		rc = tag_of_element(g, e->name, e->nlen, r->tmp.ptr, r->tmp.len,
				    r->exact ? &at : NULL);
	}
	return rc;
}

/* The scratch of the last record, emptied for the next. */
static void clear_record(struct dh_reader *r)
{
	r->nbr = 0;
	r->nbnodes = 0;
	r->ncuts = 0;
	r->nckpt = 0;
	r->main_ckpt = NO_CKPT;
	free(r->order);
	r->order = NULL;
}

/* Every commentS and commentB_S, to its node (`main_n` moves of the main
 * line were read). */
static int attach_comments(struct dh_reader *r, struct xqi_record *g, size_t main_n)
{
	int rc = 0;

	for (size_t i = 0; i < r->nelems && !rc; i++) {
		const struct dh_elem *e = &r->elems[i];
		uint32_t ids[2];
		int n;
		if (e->nlen <= 7 || memcmp(e->name, "comment", 7))
			continue;
		n = xqi_dh_parse_ids(e->name + 7, e->nlen - 7, ids, 2);
		if (n == 1)
			rc = attach_comment(r, g, e, 0, ids[0], main_n);
		else if (n == 2)
			rc = attach_comment(r, g, e, ids[0], ids[1], main_n);
	}
	return rc;
}

/* Element `i`, a move_P_S_B: a branch to build, or reported. */
static int take_branch(struct dh_reader *r, struct xqi_record *g, size_t i)
{
	const struct dh_elem *e = &r->elems[i];
	struct dh_branch b;
	uint32_t ids[3];

	if (xqi_dh_parse_ids(e->name + 5, e->nlen - 5, ids, 3) != 3) {
		struct dh_pos p = xqi_dh_place_in(r, e, 0);
		xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_ERROR,
			  "[DhtmlXQ_%.*s] is not move_P_S_B; its moves are not read",
			  (int)e->nlen, e->name);
		g->flags |= XQI_RECORD_BROKEN;
		return 0;
	}
	memset(&b, 0, sizeof(b));
	b.parent = ids[0];
	b.ply = ids[1];
	b.id = ids[2];
	b.elem = i;
	b.state = BR_WAITING;
	return push_branch(r, &b);
}

/* Make a game of the elements in r->elems. */
int xqi_dh_build_game(struct dh_reader *r, struct xqi_record *g)
{
	const struct dh_elem *binit = NULL, *fen = NULL, *moves = NULL, *result = NULL;
	size_t main_n = 0, main_moves = 0;
	xqi_move first = 0;
	int rc = 0;

	clear_record(r);
	/* Pass 1: tags, and find the structural elements. */
	for (size_t i = 0; i < r->nelems && !rc; i++) {
		const struct dh_elem *e = &r->elems[i];
		const struct dh_elem **slot = NULL;
		uint32_t ids[3];
		if (xqi_dh_name_is(e->name, e->nlen, "binit"))
			slot = &binit;
		else if (xqi_dh_name_is(e->name, e->nlen, "fen"))
			slot = &fen;
		else if (xqi_dh_name_is(e->name, e->nlen, "movelist"))
			slot = &moves;
		else if (xqi_dh_name_is(e->name, e->nlen, "result"))
			slot = &result;
		if (slot) {
			if (*slot) {
				struct dh_pos p = xqi_dh_place_in(r, e, 0);
				xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
					  "a second [DhtmlXQ_%.*s] in one record; not read",
					  (int)e->nlen, e->name);
				continue;
			}
			*slot = e;
			if (slot == &result)
				rc = set_result(r, g, e);
			continue;
		}
		if (e->nlen > 5 && !memcmp(e->name, "move_", 5)) {
			rc = take_branch(r, g, i);
			continue;
		}
		if (e->nlen > 7 && !memcmp(e->name, "comment", 7)) {
			int n = xqi_dh_parse_ids(e->name + 7, e->nlen - 7, ids, 2);
			if (n < 1) {
				struct dh_pos p = xqi_dh_place_in(r, e, 0);
				xqi_dh_report_at(r, g->number, &p, 0, NULL, 0, XQI_D_SYNTAX, XQ_SEVERITY_WARNING,
					  "[DhtmlXQ_%.*s] is not commentS or commentB_S; not read",
					  (int)e->nlen, e->name);
			}
			continue;
		}
		rc = take_tag(r, g, e);
	}
	if (rc)
		return rc;
	/* The first move decides the side to move. */
	if (moves)
		first = first_move(moves);
	for (size_t i = 0; !first && i < r->nbr; i++)
		if (r->br[i].parent == 0 && r->br[i].ply == 1)
			first = first_move(&r->elems[r->br[i].elem]);
	if (setup(r, g, binit, fen, first)) {
		/* No move can be placed; the game comment still belongs to the game. */
		g->flags |= XQI_RECORD_BROKEN | XQI_RECORD_EMPTY;
		rc = read_result(r, g, result);
		for (size_t i = 0; i < r->nelems && !rc; i++)
			if (xqi_dh_name_is(r->elems[i].name, r->elems[i].nlen, "comment0"))
				rc = attach_comment(r, g, &r->elems[i], 0, 0, 0);
		return rc;
	}
	if ((rc = read_result(r, g, result)))
		return rc;
	if (moves) {
		struct xqi_position b = g->start;
		int left = 0;
		for (size_t i = 0; i < r->nbr && !left; i++)
			left = r->br[i].parent == 0;
		main_moves = count_moves(moves);
		rc = play_line(r, g, moves, XQI_ROOT, &b, 1, "movelist",
			       left ? &r->main_ckpt : NULL, NULL);
		main_n = r->nbnodes;
	}
	if (!rc)
		rc = build_branches(r, g, main_n, main_moves);
	report_cuts(r, g);
	if (!rc)
		rc = attach_comments(r, g, main_n);
	if (g->nnodes == 1)
		g->flags |= XQI_RECORD_EMPTY;
	return rc;
}
