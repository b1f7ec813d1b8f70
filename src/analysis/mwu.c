/*
 * mwu.c — Mann–Whitney U with an exact null distribution for small samples without ties and the
 * tie-corrected normal approximation otherwise; Holm and Benjamini–Hochberg adjustments.
 * See mwu.h for what each function promises and docs/compare.md for how compare uses them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/mwu.h"
#include "core/util.h"

struct tagged {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;
	return a < b ? -1 : a > b;
}

/* Counts of U = 0..n*m under the null hypothesis (every arrangement of the n + m values equally
 * likely). f(i, j, u) = f(i-1, j, u-j) + f(i, j-1, u): the largest of the i + j values comes
 * either from the first sample (it beats all j values of the second) or from the second.
 * Returns a malloc'd array of n*m + 1 counts. */
static double *u_counts(size_t n, size_t m)
{
	size_t umax = n * m, w = umax + 1;
	double *prev = xcalloc((m + 1) * w, sizeof *prev);
	double *cur = xcalloc((m + 1) * w, sizeof *cur);
	for (size_t j = 0; j <= m; j++)
		prev[j * w] = 1; /* i = 0: one arrangement, U = 0 */
	for (size_t i = 1; i <= n; i++) {
		memset(cur, 0, (m + 1) * w * sizeof *cur);
		cur[0] = 1; /* j = 0 */
		for (size_t j = 1; j <= m; j++)
			for (size_t u = 0; u <= i * j; u++) {
				double c = cur[(j - 1) * w + u];
				if (u >= j)
					c += prev[j * w + u - j];
				cur[j * w + u] = c;
			}
		double *t = prev;
		prev = cur;
		cur = t;
	}
	double *out = xmalloc(w * sizeof *out);
	memcpy(out, prev + m * w, w * sizeof *out);
	free(prev);
	free(cur);
	return out;
}

double mwu_exact_p(double u, size_t n, size_t m)
{
	if (n == 0 || m == 0 || n > MWU_EXACT_MAX || m > MWU_EXACT_MAX)
		return NAN;
	double *f = u_counts(n, m);
	double total = 0, lo = 0, hi = 0;
	for (size_t k = 0; k <= n * m; k++) {
		total += f[k];
		if (k <= u + 1e-9)
			lo += f[k];
		if (k + 1e-9 >= u)
			hi += f[k];
	}
	free(f);
	double p = 2 * fmin(lo, hi) / total;
	return p > 1 ? 1 : p;
}

double mwu_min_p(size_t n, size_t m)
{
	/* 2 / C(n+m, n), computed as a running product to stay in range */
	double c = 1;
	for (size_t k = 1; k <= n; k++)
		c = c * (double)(m + k) / (double)k;
	double p = 2 / c;
	return p > 1 ? 1 : p;
}

struct mwu mwu_test(const double *a, size_t n, const double *b, size_t m)
{
	struct mwu r = { .u = NAN, .p = NAN };
	if (n == 0 || m == 0)
		return r;
	size_t N = n + m;
	struct tagged *t = xmalloc(N * sizeof *t);
	for (size_t i = 0; i < n; i++)
		t[i] = (struct tagged){ a[i], 0 };
	for (size_t j = 0; j < m; j++)
		t[n + j] = (struct tagged){ b[j], 1 };
	qsort(t, N, sizeof *t, cmp_tagged);

	/* Mid-ranks; the rank sum of the first sample gives U; tie groups give the correction. */
	double ranksum = 0, tie_term = 0;
	for (size_t i = 0; i < N;) {
		size_t j = i;
		while (j + 1 < N && t[j + 1].v == t[i].v)
			j++;
		double rank = (double)(i + j) / 2 + 1, g = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			if (t[k].side == 0)
				ranksum += rank;
		if (g > 1) {
			r.ties = 1;
			tie_term += g * g * g - g;
		}
		i = j + 1;
	}
	free(t);
	r.u = ranksum - (double)n * (double)(n + 1) / 2;

	if (!r.ties && n <= MWU_EXACT_MAX && m <= MWU_EXACT_MAX) {
		r.exact = 1;
		r.p = mwu_exact_p(r.u, n, m);
		return r;
	}
	double nm = (double)n * (double)m, dN = (double)N;
	double var = nm / 12 * ((dN + 1) - tie_term / (dN * (dN - 1)));
	if (var <= 0) { /* every value equal: no evidence of any difference */
		r.p = 1;
		return r;
	}
	double z = (fabs(r.u - nm / 2) - 0.5) / sqrt(var); /* continuity correction */
	if (z < 0)
		z = 0;
	r.p = erfc(z / sqrt(2));
	if (r.p > 1)
		r.p = 1;
	return r;
}

struct idx {
	double p;
	size_t i;
};

static int cmp_idx(const void *x, const void *y)
{
	double a = ((const struct idx *)x)->p, b = ((const struct idx *)y)->p;
	return a < b ? -1 : a > b;
}

void p_adjust(double *p, size_t k, enum correction c)
{
	if (c == CORR_NONE || k == 0)
		return;
	struct idx *s = xmalloc(k * sizeof *s);
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (!isnan(p[i]))
			s[m++] = (struct idx){ p[i], i };
	qsort(s, m, sizeof *s, cmp_idx);
	if (c == CORR_HOLM) {
		/* step down: the j-th smallest is multiplied by (m - j), never below the previous */
		double run = 0;
		for (size_t j = 0; j < m; j++) {
			double v = fmin(1, (double)(m - j) * s[j].p);
			run = fmax(run, v);
			p[s[j].i] = run;
		}
	} else {
		/* step up: the j-th smallest (1-based) times m / j, never above the next one's */
		double run = 1;
		for (size_t j = m; j-- > 0;) {
			double v = fmin(1, (double)m / (double)(j + 1) * s[j].p);
			run = fmin(run, v);
			p[s[j].i] = run;
		}
	}
	free(s);
}

int correction_parse(const char *s, enum correction *c)
{
	if (strcmp(s, "holm") == 0)
		*c = CORR_HOLM;
	else if (strcmp(s, "bh") == 0)
		*c = CORR_BH;
	else if (strcmp(s, "none") == 0)
		*c = CORR_NONE;
	else
		return -1;
	return 0;
}

const char *correction_name(enum correction c)
{
	return c == CORR_HOLM ? "holm" : c == CORR_BH ? "bh" : "none";
}
