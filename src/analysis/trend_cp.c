/*
 * trend_cp.c — change points in a series of levels (trend_cp.h): binary segmentation with a t
 * test, PELT, and the step between two segments. Levels are weighted by the inverse of their
 * variance, so a version measured by more runs counts for more.
 */
#include <math.h>
#include <stdlib.h>
#include "analysis/trend_cp.h"
#include "core/util.h"

/* Weighted sums over [a, b): sum of weights and of weight * level. */
static void wsum(const struct cp_series *s, size_t a, size_t b, double *w, double *wy)
{
	*w = *wy = 0;
	for (size_t i = a; i < b; i++) {
		double wi = 1 / s->var[i];
		*w += wi;
		*wy += wi * s->y[i];
	}
}

struct log_est cp_step(const struct cp_series *s, size_t a, size_t at, size_t b)
{
	struct log_est e = { NAN, NAN, NAN, 0 };
	if (!(a < at && at < b && b <= s->n) || !(s->df > 0))
		return e;
	double wl, wyl, wr, wyr;
	wsum(s, a, at, &wl, &wyl);
	wsum(s, at, b, &wr, &wyr);
	e.mean = wyr / wr - wyl / wl;
	e.var = 1 / wl + 1 / wr;
	e.df = s->df;
	e.ok = isfinite(e.mean) && e.var > 0;
	return e;
}

struct cp_split cp_best_split(const struct cp_series *s, size_t a, size_t b)
{
	struct cp_split best = { 0, 0, 1 };
	if (b < a + 2)
		return best;
	for (size_t at = a + 1; at < b; at++) {
		struct log_est e = cp_step(s, a, at, b);
		if (!e.ok)
			continue;
		double t = e.mean / sqrt(e.var);
		if (fabs(t) > fabs(best.t) || !best.at) {
			best.at = at;
			best.t = t;
		}
	}
	if (!best.at)
		return best;
	double p = t_two_sided_p(best.t, s->df) * (double)(b - a - 1);
	best.p = p < 1 ? p : 1;
	return best;
}

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return (a > b) - (a < b);
}

size_t cp_binseg(const struct cp_series *s, double level, size_t *at, size_t max)
{
	/* segments still to examine: a stack of [a, b) */
	size_t *stk = xmalloc((2 * s->n + 2) * sizeof *stk), top = 0, k = 0;
	stk[top++] = 0;
	stk[top++] = s->n;
	while (top && k < max) {
		size_t b = stk[--top], a = stk[--top];
		struct cp_split sp = cp_best_split(s, a, b);
		if (!sp.at || !(sp.p < level))
			continue;
		at[k++] = sp.at;
		stk[top++] = a;
		stk[top++] = sp.at;
		stk[top++] = sp.at;
		stk[top++] = b;
	}
	free(stk);
	qsort(at, k, sizeof *at, cmp_size);
	return k;
}

size_t cp_pelt(const struct cp_series *s, double penalty, size_t *at, size_t max)
{
	size_t n = s->n;
	if (n < 2)
		return 0;
	/* prefix sums of w, w*y, w*y^2: a segment's cost in O(1) */
	double *W = xcalloc(n + 1, sizeof *W), *WY = xcalloc(n + 1, sizeof *WY);
	double *WYY = xcalloc(n + 1, sizeof *WYY), *F = xcalloc(n + 1, sizeof *F);
	size_t *last = xcalloc(n + 1, sizeof *last), *cand = xmalloc((n + 1) * sizeof *cand);
	for (size_t i = 0; i < n; i++) {
		double w = 1 / s->var[i];
		W[i + 1] = W[i] + w;
		WY[i + 1] = WY[i] + w * s->y[i];
		WYY[i + 1] = WYY[i] + w * s->y[i] * s->y[i];
	}
#define SEG_COST(u, v) (WYY[v] - WYY[u] - (WY[v] - WY[u]) * (WY[v] - WY[u]) / (W[v] - W[u]))
	size_t nc = 0;
	F[0] = -penalty;
	cand[nc++] = 0;
	for (size_t t = 1; t <= n; t++) {
		double bestf = INFINITY;
		size_t bests = 0;
		for (size_t c = 0; c < nc; c++) {
			double f = F[cand[c]] + SEG_COST(cand[c], t) + penalty;
			if (f < bestf) {
				bestf = f;
				bests = cand[c];
			}
		}
		F[t] = bestf;
		last[t] = bests;
		/* pruning: a start that is already worse than the best by the penalty never wins */
		size_t keep = 0;
		for (size_t c = 0; c < nc; c++)
			if (F[cand[c]] + SEG_COST(cand[c], t) <= F[t])
				cand[keep++] = cand[c];
		nc = keep;
		cand[nc++] = t;
	}
#undef SEG_COST
	size_t k = 0;
	for (size_t t = last[n]; t > 0 && k < max; t = last[t])
		at[k++] = t;
	qsort(at, k, sizeof *at, cmp_size);
	free(W);
	free(WY);
	free(WYY);
	free(F);
	free(last);
	free(cand);
	return k;
}
