/*
 * trend.c — builds `plumb trend`'s table (trend.h): compare's rows and cells for the sides in
 * their order, each version's level and interval with the metric's run-to-run noise pooled over
 * the series, the first test of every metric corrected over the table, and the change points of
 * the metrics that pass it. Printing is in trend_fmt.c; the reasons in docs/trend.md.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare_est.h"
#include "analysis/trend.h"
#include "analysis/trend_cp.h"
#include "core/stats.h"
#include "core/util.h"

int trend_version_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			while (*a == '0' && isdigit((unsigned char)a[1]))
				a++;
			while (*b == '0' && isdigit((unsigned char)b[1]))
				b++;
			size_t la = 0, lb = 0;
			while (isdigit((unsigned char)a[la]))
				la++;
			while (isdigit((unsigned char)b[lb]))
				lb++;
			if (la != lb)
				return la < lb ? -1 : 1;
			int c = strncmp(a, b, la);
			if (c)
				return c < 0 ? -1 : 1;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* One version's runs of a point: each run's log round values. */
struct version_logs {
	double **v;
	size_t *n, k;
};

static void version_logs_get(struct version_logs *L, const struct side *s, const struct cmp_row *row)
{
	L->v = xcalloc(s->nruns + 1, sizeof *L->v);
	L->n = xcalloc(s->nruns + 1, sizeof *L->n);
	L->k = 0;
	for (size_t i = 0; i < s->nruns; i++) {
		double *vals;
		size_t n = cmp_round_values(&s->runs[i], 1, row->metric, row->params, row->x, &vals);
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (vals[j] > 0 && isfinite(vals[j]))
				vals[m++] = log(vals[j]);
		if (!m) {
			free(vals);
			continue;
		}
		L->v[L->k] = vals;
		L->n[L->k++] = m;
	}
}

static void version_logs_free(struct version_logs *L)
{
	for (size_t i = 0; i < L->k; i++)
		free(L->v[i]);
	free(L->v);
	free(L->n);
}

static double run_mean(const double *v, size_t n)
{
	double m = 0;
	for (size_t i = 0; i < n; i++)
		m += v[i];
	return m / (double)n;
}

/* The series for one row while it is built: levels of the versions that have the point (idx:
 * their side indices); kept in the row afterwards. */
struct row_series {
	double *y, *var;
	size_t *idx, n;
	struct cp_series s;
};

static enum trend_status row_status(const struct trend_table *t, const struct cmp_row *row)
{
	if (!row->def || row->def->better == NEUTRAL)
		return TS_NEUTRAL;
	int version = -2;
	size_t present = 0;
	for (size_t s = 0; s < t->nsides; s++) {
		const struct cmp_cell *c = &row->cell[s];
		if (!c->present)
			continue;
		present++;
		if (c->version < 0 || (version != -2 && c->version != version))
			return TS_METHOD;
		version = c->version;
	}
	return present < 2 ? TS_FEW : TS_JUDGED;
}

/* A row's run-to-run variance pooled over the series: every version with 2+ runs adds its
 * runs less one degrees of freedom (*dfs; 0 when none has two runs). */
/* Versions a series of one run each needs before its own scatter is its noise. */
#define SCATTER_MIN_VERSIONS 5

/* A series of one run per version (a nightly, a kernel per boot) has no within-version spread,
 * and the default table's figure is a run's noise on some machine, often far from this
 * series' (18.9 % declared where the runs scattered 1 %). Its noise is then the scatter of
 * its versions from successive differences: the mean squared difference over two (von
 * Neumann's estimator). Every difference counts, so runs that sit at two levels (a shared
 * host: bench/README.md, "Trend") or a rare slow run make the noise they are; a median of the
 * differences read the quiet half of such a series and found changes everywhere. A real step
 * adds its square over 2(n-1): the noise is overstated by it, never understated. Variance of a
 * run's log value, or NAN with fewer than SCATTER_MIN_VERSIONS versions; *df what it is worth
 * (for normal data 2(n-1)^2 / (3n-4), about two thirds of the differences). */
static double series_scatter(const struct trend_table *t, const struct cmp_row *row, double *df)
{
	double *y = xmalloc((t->nsides + 1) * sizeof *y);
	size_t n = 0;
	for (size_t s = 0; s < t->nsides; s++) {
		struct version_logs L;
		version_logs_get(&L, &t->sides[s], row);
		if (L.k == 1)
			y[n++] = run_mean(L.v[0], L.n[0]);
		version_logs_free(&L);
	}
	double var = NAN;
	*df = 0;
	if (n >= SCATTER_MIN_VERSIONS) {
		double ss = 0;
		for (size_t i = 0; i + 1 < n; i++)
			ss += (y[i + 1] - y[i]) * (y[i + 1] - y[i]);
		double m = (double)(n - 1);
		var = ss / (2 * m);
		*df = 2 * m * m / (3 * (double)n - 4);
	}
	free(y);
	return var;
}

static double row_pooled(const struct trend_table *t, const struct cmp_row *row, double *dfs,
			 double *rounds)
{
	double sum = 0, inv = 0;
	size_t nr = 0;
	*dfs = 0;
	for (size_t s = 0; s < t->nsides; s++) {
		struct version_logs L;
		version_logs_get(&L, &t->sides[s], row);
		for (size_t i = 0; i < L.k; i++, nr++)
			inv += 1 / (double)L.n[i];
		if (L.k >= 2) {
			double m[256];
			size_t k = L.k < 256 ? L.k : 256;
			for (size_t i = 0; i < k; i++)
				m[i] = run_mean(L.v[i], L.n[i]);
			sum += (double)(k - 1) * sample_var(m, k);
			*dfs += (double)(k - 1);
		}
		version_logs_free(&L);
	}
	/* the runs' rounds (harmonic mean): the default noise of a run depends on them */
	*rounds = nr ? (double)nr / inv : 0;
	return *dfs > 0 ? sum / *dfs : NAN;
}

/* How much noisier than the default table the host was while it made this series: the median
 * over the table's rows of each row's pooled variance in units of its metric's default
 * variance, over the median's bias for its degrees of freedom; never below 1 (the table is the
 * floor: it is already generous for a quiet host). 1 with fewer than 3 rows that pool. A busy
 * host makes every metric noisier at once, and the default table alone would then be a prior
 * far too small for a series of few runs (docs/trend.md, "Noise"). */
static double table_noise_scale(const struct trend_table *t, const double *pooled,
				const double *dfs, const double *rounds)
{
	double *r = xmalloc((t->nrows + 1) * sizeof *r), *d = xmalloc((t->nrows + 1) * sizeof *d);
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		if (dfs[i] > 0 && t->rows[i].status == TS_JUDGED) {
			double sd0 = default_run_noise_at(t->rows[i].row->metric, 0, rounds[i]);
			r[n] = pooled[i] / (sd0 * sd0);
			d[n++] = dfs[i];
		}
	double scale = 1;
	if (n >= 3) {
		double md = stats_median(d, n);
		scale = stats_median(r, n) / chi2_median_ratio(md);
	}
	free(r);
	free(d);
	return scale > 1 ? scale : 1;
}

/* Levels, intervals and the cp_series of a row: the pooled variance moderated by the prior
 * (the default table's figure times the table's scale, worth the table's degrees of freedom),
 * as compare moderates a side with its prior. */
static void row_levels(struct trend_table *t, struct trend_row *tr, struct row_series *rs,
		       double pooled, double dfs, double rounds, double scale)
{
	const struct cmp_row *row = tr->row;
	struct version_logs *L = xcalloc(t->nsides, sizeof *L);
	for (size_t s = 0; s < t->nsides; s++)
		version_logs_get(&L[s], &t->sides[s], row);
	double sd0 = default_run_noise_at(row->metric, 0, rounds);
	double d0 = default_noise_df(row->metric);
	double prior = sd0 * sd0 * scale;
	double v = (d0 * prior + (dfs > 0 ? dfs * pooled : 0)) / (d0 + dfs), df = d0 + dfs;
	double sdf, scatter = dfs > 0 ? NAN : series_scatter(t, row, &sdf);
	tr->from_scatter = scatter > 0;
	if (tr->from_scatter) {
		v = scatter;
		df = sdf;
	}
	tr->noise_pct = expm1(sqrt(v)) * 100;
	tr->noise_df = df;
	tr->pooled_df = (int)dfs;
	double tc = t_crit(0.05, df);
	rs->y = xcalloc(t->nsides, sizeof *rs->y);
	rs->var = xcalloc(t->nsides, sizeof *rs->var);
	rs->idx = xcalloc(t->nsides, sizeof *rs->idx);
	rs->n = 0;
	for (size_t s = 0; s < t->nsides; s++) {
		struct trend_level *lv = &tr->lv[s];
		const struct cmp_cell *c = &row->cell[s];
		lv->value = c->present ? c->center : NAN;
		lv->lo = lv->hi = NAN;
		lv->present = c->present;
		lv->nruns = L[s].k;
		/* the version's own runs weigh in once more inside est_side; with the series'
		 * degrees of freedom behind the prior that is a small share (docs/trend.md) */
		struct log_est e = est_side(L[s].v, L[s].n, L[s].k, sqrt(v), df);
		if (e.ok && e.var > 0) {
			lv->lo = exp(e.mean - tc * sqrt(e.var));
			lv->hi = exp(e.mean + tc * sqrt(e.var));
			rs->y[rs->n] = e.mean;
			rs->var[rs->n] = e.var;
			rs->idx[rs->n++] = s;
		}
		version_logs_free(&L[s]);
	}
	free(L);
	rs->s = (struct cp_series){ rs->n, rs->y, rs->var, df };
}

/* The changes of a selected row: binary segmentation at the table's level, each step then
 * estimated between its neighbouring segments; a step is reported when its 95 % interval
 * excludes 0 and it is at least the minimum effect. */
static void row_changes(struct trend_table *t, struct trend_row *tr, const struct row_series *rs)
{
	size_t *at = xmalloc((rs->n + 1) * sizeof *at);
	size_t k = cp_binseg(&rs->s, t->level, at, rs->n);
	tr->ch = xcalloc(k + 1, sizeof *tr->ch);
	double tc = t_crit(0.05, rs->s.df);
	for (size_t j = 0; j < k; j++) {
		size_t a = j ? at[j - 1] : 0, b = j + 1 < k ? at[j + 1] : rs->n;
		struct log_est e = cp_step(&rs->s, a, at[j], b);
		if (!e.ok)
			continue;
		double se = sqrt(e.var);
		struct trend_change c = { rs->idx[at[j]], rs->idx[at[j] - 1], expm1(e.mean) * 100,
					  expm1(e.mean - tc * se) * 100, expm1(e.mean + tc * se) * 100,
					  t_two_sided_p(e.mean / se, e.df), 0 };
		if (!(c.lo > 0 || c.hi < 0) || fabs(c.est) < t->o.min_effect)
			continue;
		int up = c.est > 0;
		c.worse = (tr->row->def->better == HIGHER ? !up : up) ? 1 : -1;
		tr->ch[tr->nch++] = c;
	}
	t->nchanges += tr->nch;
	free(at);
}

static int by_order(const void *a, const void *b)
{
	const struct cmp_row *x = a, *y = b;
	return (x->order > y->order) - (x->order < y->order);
}

struct trend_table *trend_build(const struct side *sides, size_t nsides, const struct cmp_opts *o)
{
	struct trend_table *t = xcalloc(1, sizeof *t);
	t->o = *o;
	t->sides = sides;
	t->nsides = nsides;
	t->cmp = cmp_build(sides, nsides, o);
	if (t->cmp->nrows)
		qsort(t->cmp->rows, t->cmp->nrows, sizeof *t->cmp->rows, by_order);
	t->nrows = t->cmp->nrows;
	t->rows = xcalloc(t->nrows + 1, sizeof *t->rows);
	struct row_series *rs = xcalloc(t->nrows + 1, sizeof *rs);
	double *p = xmalloc((t->nrows + 1) * sizeof *p);
	double *pooled = xmalloc((t->nrows + 1) * sizeof *pooled);
	double *dfs = xmalloc((t->nrows + 1) * sizeof *dfs);
	double *rounds = xmalloc((t->nrows + 1) * sizeof *rounds);
	for (size_t i = 0; i < t->nrows; i++) {
		struct trend_row *tr = &t->rows[i];
		tr->row = &t->cmp->rows[i];
		tr->lv = xcalloc(nsides, sizeof *tr->lv);
		tr->status = row_status(t, tr->row);
		pooled[i] = row_pooled(t, tr->row, &dfs[i], &rounds[i]);
	}
	t->noise_scale = table_noise_scale(t, pooled, dfs, rounds);
	for (size_t i = 0; i < t->nrows; i++) {
		struct trend_row *tr = &t->rows[i];
		row_levels(t, tr, &rs[i], pooled[i], dfs[i], rounds[i], t->noise_scale);
		tr->p_first = tr->p_adj = NAN;
		if (tr->status == TS_JUDGED && rs[i].n >= 2)
			tr->p_first = cp_best_split(&rs[i].s, 0, rs[i].n).p;
		else if (tr->status == TS_JUDGED)
			tr->status = TS_FEW;
		p[i] = tr->p_first;
		t->ntested += !isnan(p[i]);
	}
	/* the first test of each metric, corrected over the table; the metrics it selects are
	 * split further at alpha x selected / tested (Benjamini and Bogomolov's level for testing
	 * within selected families: docs/trend.md) */
	p_adjust(p, t->nrows, o->corr);
	for (size_t i = 0; i < t->nrows; i++) {
		t->rows[i].p_adj = p[i];
		t->nselected += p[i] < o->alpha;
	}
	t->level = o->corr == CORR_NONE || !t->ntested ? o->alpha
		 : o->alpha * (double)t->nselected / (double)t->ntested;
	for (size_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].p_adj < o->alpha)
			row_changes(t, &t->rows[i], &rs[i]);
		t->rows[i].series = rs[i].s;
		t->rows[i].idx = rs[i].idx;
	}
	free(rs);
	free(p);
	free(pooled);
	free(dfs);
	free(rounds);
	return t;
}

void trend_free(struct trend_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows; i++) {
		free(t->rows[i].lv);
		free(t->rows[i].ch);
		free((double *)t->rows[i].series.y);
		free((double *)t->rows[i].series.var);
		free(t->rows[i].idx);
	}
	free(t->rows);
	cmp_free(t->cmp);
	free(t);
}
