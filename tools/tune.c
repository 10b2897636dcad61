/*
 * tune.c: tune the built-in engine's evaluation on positions of real
 * games (Texel's method), and write lib/eval_weights.c.
 *
 * Input: lines "FEN<TAB>RESULT" (tools/tune-positions.py writes them:
 * quiet positions of games with a result, RESULT red's score 1, 0.5 or
 * 0).  Each position's features are read once through xqi_eval_trace()
 * (lib/eval.c, the code the search evaluates with), so the model here is
 * exactly the engine's: eval = the features times the weights, middle game
 * and endgame mixed by the phase, an advantage of a side that cannot win
 * divided by 8.  What is minimised is the mean squared error between the
 * game's result and 1 / (1 + exp(-eval / SCALE)), plus a small L2 penalty
 * on the piece-square and term weights (so that a point seldom seen keeps
 * a small value), by full-batch Adam.
 *
 * The uncrossed pawn's material stays at 100 (both phases) and the king's
 * at 0: that anchors the centipawn scale, so SCALE is a property of the
 * data, found first (golden-section search of the error over SCALE with
 * the starting weights), and then written into eval.h by hand as
 * XQI_EVAL_SCALE.  Every 10th block of 100 lines (whole games, mostly) is
 * kept out of the fit and only measured, so overfitting shows.
 *
 * Build and run (from the top of the repository, after `make`):
 *   cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Ilib -Iinclude -o build/tune \
 *      tools/tune.c build/libxq.a -lxml2 -lz -lpthread -lm
 *   tools/tune-positions.py --exclude HELD-OUT.pgn ../shared/corpus/pgn \
 *      ../shared/corpus/xqf > build/positions.tsv
 *   build/tune [--epochs N] [--scale S] build/positions.tsv > lib/eval_weights.c
 * (tools/tune.sh does all of it.)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diagnostic.h"
#include "eval.h"
#include "position.h"

/* One position: its features (index, count) and what mixes them. */
struct sample {
	uint32_t first; /* into the feature arrays */
	uint16_t n;
	uint8_t phase;
	uint8_t no_win; /* bit 0 red cannot win, bit 1 black */
	float result;
	uint8_t held_out;
};

struct data {
	struct sample *s;
	size_t ns, caps;
	uint16_t *fi;
	int16_t *fv;
	size_t nf, capf;
};

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return 0;
	size_t c = *cap ? *cap : 1024;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int read_data(const char *path, struct data *d)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t lineno = 0;

	if (!f)
		return perror(path), -1;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');
		struct xqi_position b;
		struct xq_diagnostic diag;
		struct xqi_eval_trace tr;
		struct sample *s;
		lineno++;
		if (!tab)
			continue;
		xqi_diagnostic_init(&diag);
		if (xqi_position_from_fen(&b, line, (size_t)(tab - line), XQI_FEN_LENIENT_PLACEMENT, &diag) ||
		    xqi_position_in_check(&b))
			continue;
		xqi_eval_trace(&b, &tr);
		if (grow((void **)&d->s, &d->caps, d->ns + 1, sizeof(*d->s)) ||
		    grow((void **)&d->fi, &d->capf, d->nf + XQI_EVAL_FEATURES, sizeof(*d->fi)))
			return fclose(f), -1;
		{
			/* fv has the capacity of fi */
			int16_t *v = realloc(d->fv, d->capf * sizeof(*d->fv));
			if (!v)
				return fclose(f), -1;
			d->fv = v;
		}
		s = &d->s[d->ns++];
		s->first = (uint32_t)d->nf;
		s->n = 0;
		for (int k = 0; k < XQI_EVAL_FEATURES; k++)
			if (tr.f[k]) {
				d->fi[d->nf] = (uint16_t)k;
				d->fv[d->nf++] = tr.f[k];
				s->n++;
			}
		s->phase = (uint8_t)tr.phase;
		s->no_win = (uint8_t)(tr.cannot_win[0] | tr.cannot_win[1] << 1);
		s->result = (float)strtod(tab + 1, NULL);
		s->held_out = (lineno / 100) % 10 == 9;
	}
	fclose(f);
	return 0;
}

/* The red-view evaluation of sample `s` under weights w[2 * f + phase part]. */
static double eval_of(const struct data *d, const struct sample *s, const double *w, double *scale)
{
	double mg = 0, eg = 0, v;

	for (uint32_t k = s->first; k < s->first + s->n; k++) {
		mg += w[2 * d->fi[k]] * d->fv[k];
		eg += w[2 * d->fi[k] + 1] * d->fv[k];
	}
	v = (mg * s->phase + eg * (XQI_EVAL_PHASE_MAX - s->phase)) / XQI_EVAL_PHASE_MAX;
	*scale = ((v > 0 && (s->no_win & 1)) || (v < 0 && (s->no_win & 2))) ? 0.125 : 1.0;
	return v * *scale;
}

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

/* Mean squared error over the samples in (held == 1) or out of the fit. */
static double error(const struct data *d, const double *w, double k, int held)
{
	double sum = 0, sc;
	size_t n = 0;

	for (size_t i = 0; i < d->ns; i++) {
		const struct sample *s = &d->s[i];
		if (s->held_out != held)
			continue;
		double e = sigmoid(eval_of(d, s, w, &sc) / k) - s->result;
		sum += e * e;
		n++;
	}
	return n ? sum / (double)n : 0;
}

/* Fixed weights: the king's material and the pawn's (the scale's anchor). */
static int fixed(int f)
{
	return f == XQI_EF_MATERIAL + XQI_KING || f == XQI_EF_MATERIAL + XQI_PAWN;
}

static double fit_scale(const struct data *d, const double *w)
{
	double a = 50, b = 1000, g = (sqrt(5) - 1) / 2;

	for (int it = 0; it < 60; it++) {
		double c = b - g * (b - a), e = a + g * (b - a);
		if (error(d, w, c, 0) < error(d, w, e, 0))
			b = e;
		else
			a = c;
	}
	return (a + b) / 2;
}

static void tune(const struct data *d, double *w, double k, int epochs, double lambda)
{
	size_t nw = 2 * XQI_EVAL_FEATURES;
	double *g = calloc(nw, sizeof(*g)), *m = calloc(nw, sizeof(*m)), *v = calloc(nw, sizeof(*v));
	const double lr = 1.0, b1 = 0.9, b2 = 0.999;
	size_t ntrain = 0;

	for (size_t i = 0; i < d->ns; i++)
		ntrain += !d->s[i].held_out;
	for (int ep = 1; ep <= epochs; ep++) {
		memset(g, 0, nw * sizeof(*g));
		for (size_t i = 0; i < d->ns; i++) {
			const struct sample *s = &d->s[i];
			double sc, p, c;
			if (s->held_out)
				continue;
			p = sigmoid(eval_of(d, s, w, &sc) / k);
			c = 2 * (p - s->result) * p * (1 - p) / k * sc / XQI_EVAL_PHASE_MAX;
			for (uint32_t j = s->first; j < s->first + s->n; j++) {
				g[2 * d->fi[j]] += c * d->fv[j] * s->phase;
				g[2 * d->fi[j] + 1] += c * d->fv[j] * (XQI_EVAL_PHASE_MAX - s->phase);
			}
		}
		for (size_t f = 0; f < nw; f++) {
			double gr = g[f] / (double)ntrain;
			if (fixed((int)(f / 2)))
				continue;
			if ((int)(f / 2) >= XQI_EF_PST)
				gr += 2 * lambda * w[f];
			m[f] = b1 * m[f] + (1 - b1) * gr;
			v[f] = b2 * v[f] + (1 - b2) * gr * gr;
			w[f] -= lr * (m[f] / (1 - pow(b1, ep))) / (sqrt(v[f] / (1 - pow(b2, ep))) + 1e-12);
		}
		if (ep % 100 == 0)
			fprintf(stderr, "epoch %d: error %.6f fit, %.6f held out\n", ep, error(d, w, k, 0),
				error(d, w, k, 1));
	}
	free(g);
	free(m);
	free(v);
}

static long rnd(double x)
{
	return lround(x);
}

static void write_weights(const double *w, size_t nfit, size_t nheld, double k, double e0,
			  double e1, double h0, double h1)
{
	static const char *const names[XQI_PIECE_TYPES] = {"king", "advisor", "elephant", "horse",
							   "rook", "cannon", "pawn"};

	printf("/*\n * eval_weights.c: the weights of the evaluation (eval.h), as tools/tune.c\n"
	       " * wrote them: do not edit by hand, tune again (tools/tune.sh).\n *\n"
	       " * Tuned on %zu quiet positions of real games with a result (the shared\n"
	       " * corpus less every copy of the held-out games: tools/tune-positions.py),\n"
	       " * %zu more kept out of the fit; logistic scale %.1f (XQI_EVAL_SCALE);\n"
	       " * mean squared error %.5f -> %.5f on the fit, %.5f -> %.5f kept out.\n */\n",
	       nfit, nheld, k, e0, e1, h0, h1);
	printf("#include \"eval.h\"\n\nconst struct xqi_eval_weight xqi_eval_weights[XQI_EVAL_FEATURES] = {\n");
	printf("\t/* material: king, advisor, elephant, horse, rook, cannon, pawn */\n\t[XQI_EF_MATERIAL] =\n\t");
	for (int t = 0; t < XQI_PIECE_TYPES; t++)
		printf("{%ld, %ld},%s", rnd(w[2 * t]), rnd(w[2 * t + 1]), t + 1 < XQI_PIECE_TYPES ? " " : "\n");
	for (int t = 0; t < XQI_PIECE_TYPES; t++) {
		printf("\t/* piece-square, %s: ranks 0-9 from its own side, files a-e */\n"
		       "\t[XQI_EF_PST + %d * XQI_EVAL_PST_POINTS] =\n",
		       names[t], t);
		for (int r = 0; r < 10; r++) {
			printf("\t");
			for (int f = 0; f < 5; f++) {
				int i = XQI_EF_PST + t * XQI_EVAL_PST_POINTS + r * 5 + f;
				printf("{%ld, %ld},%s", rnd(w[2 * i]), rnd(w[2 * i + 1]), f < 4 ? " " : "\n");
			}
		}
	}
	printf("\t/* terms */\n");
	for (int f = XQI_EF_TERMS; f < XQI_EVAL_FEATURES; f++) {
		char name[64];
		xqi_eval_feature_name(f, name, sizeof(name));
		printf("\t[XQI_EF_%s] = {%ld, %ld},\n", name, rnd(w[2 * f]), rnd(w[2 * f + 1]));
	}
	printf("};\n");
}

int main(int argc, char **argv)
{
	struct data d;
	double w[2 * XQI_EVAL_FEATURES], k = 0, lambda = 1e-7, e0, h0;
	int epochs = 1000, i = 1;
	size_t held = 0;

	memset(&d, 0, sizeof(d));
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--epochs"))
			epochs = (int)strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--scale"))
			k = strtod(argv[i + 1], NULL);
		else if (!strcmp(argv[i], "--lambda"))
			lambda = strtod(argv[i + 1], NULL);
		else
			return fprintf(stderr, "unknown option %s\n", argv[i]), 2;
	}
	if (i + 1 != argc)
		return fprintf(stderr, "usage: tune [--epochs N] [--scale S] [--lambda L] POSITIONS\n"), 2;
	if (read_data(argv[i], &d))
		return 3;
	for (size_t j = 0; j < d.ns; j++)
		held += d.s[j].held_out;
	for (int f = 0; f < XQI_EVAL_FEATURES; f++) {
		w[2 * f] = xqi_eval_weights[f].mg;
		w[2 * f + 1] = xqi_eval_weights[f].eg;
	}
	if (k <= 0)
		k = fit_scale(&d, w);
	e0 = error(&d, w, k, 0);
	h0 = error(&d, w, k, 1);
	fprintf(stderr, "%zu positions (%zu held out), scale %.1f, error %.6f fit %.6f held out\n", d.ns,
		held, k, e0, h0);
	tune(&d, w, k, epochs, lambda);
	fprintf(stderr, "scale refit on the tuned weights: %.1f\n", fit_scale(&d, w));
	write_weights(w, d.ns - held, held, k, e0, error(&d, w, k, 0), h0, error(&d, w, k, 1));
	free(d.s);
	free(d.fi);
	free(d.fv);
	return 0;
}
