/*
 * compare_judge.c — the tests of `plumb compare`'s table: for each row and compared side, the
 * change on the log scale with its 95 % interval (compare_est.h: runs as the unit of noise, the
 * store's history or the default noise for a side of one run, paired rounds for one `plumb ab`
 * session), again at equal clock for clock-bound metrics, then the correction over the table,
 * the smallest detectable change and the verdicts. docs/compare.md gives the reasons.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare_priv.h"
#include "core/stats.h"
#include "core/util.h"

/* ---- estimates (compare_est.h) ------------------------------------------------------------ */

/* One side's log round values for a row, grouped by run, with their round ids. */
struct side_logs {
	double *v[256];
	int *ids[256];
	size_t n[256];
	double clock[256]; /* the run's clock_mhz, NAN when unknown */
	size_t k;
};

static size_t result_log_rounds(const struct result *r, double **v, int **ids)
{
	double *vals = NULL;
	size_t n = 0, cap = 0;
	cmp_add_rounds(r, &vals, &n, &cap);
	*ids = xcalloc(n ? n : 1, sizeof **ids);
	if (r->nsamples) {
		/* add_rounds emits one value per distinct round, in increasing round order */
		int *all = xmalloc(r->nsamples * sizeof *all);
		for (size_t i = 0; i < r->nsamples; i++)
			all[i] = r->samples[i].round;
		qsort(all, r->nsamples, sizeof *all, cmp_int);
		size_t k = 0;
		for (size_t i = 0; i < r->nsamples && k < n; i++)
			if (i == 0 || all[i] != all[i - 1])
				(*ids)[k++] = all[i];
		free(all);
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (vals[i] > 0 && isfinite(vals[i])) {
			(*ids)[m] = (*ids)[i];
			vals[m++] = log(vals[i]);
		}
	*v = vals;
	return m;
}

static double run_clock(const struct run *r)
{
	const char *c = kv_get(&r->facts, "clock_mhz");
	return c && atof(c) > 0 ? atof(c) : NAN;
}

static void side_logs_get(struct side_logs *L, struct run *const *runs, size_t nruns,
			  const struct cmp_row *row)
{
	memset(L, 0, sizeof *L);
	for (size_t i = 0; i < nruns && L->k < 256; i++) {
		const struct result *r = cmp_find_point(runs[i], row->metric, row->params, row->x);
		if (!r)
			continue;
		size_t n = result_log_rounds(r, &L->v[L->k], &L->ids[L->k]);
		if (!n) {
			free(L->v[L->k]);
			free(L->ids[L->k]);
			continue;
		}
		L->n[L->k] = n;
		L->clock[L->k] = run_clock(runs[i]);
		L->k++;
	}
}

static void side_logs_free(struct side_logs *L)
{
	for (size_t i = 0; i < L->k; i++) {
		free(L->v[i]);
		free(L->ids[i]);
	}
	L->k = 0;
}

/* Shift every run's values to a common clock: a time per operation times the clock is cycles,
 * a rate divided by it is per cycle. 0 when some run does not know its clock. */
static int side_logs_equal_clock(struct side_logs *L, int higher_better)
{
	for (size_t i = 0; i < L->k; i++)
		if (isnan(L->clock[i]))
			return 0;
	for (size_t i = 0; i < L->k; i++) {
		double a = log(L->clock[i] / 1000.0) * (higher_better ? -1 : 1);
		for (size_t j = 0; j < L->n[i]; j++)
			L->v[i][j] += a;
	}
	return 1;
}

/* The noise a side's history says: the standard deviation of the log run values of the point
 * over the history runs; NAN with fewer than HISTORY_MIN_RUNS runs that have it. */
static double history_sd(const struct side *s, const struct cmp_row *row, int eq, int hb,
			 int *nruns)
{
	struct side_logs L;
	side_logs_get(&L, s->history, s->nhistory, row);
	*nruns = 0;
	if (eq && !side_logs_equal_clock(&L, hb)) {
		side_logs_free(&L);
		return NAN;
	}
	double m[256];
	for (size_t i = 0; i < L.k; i++) {
		double a = 0;
		for (size_t j = 0; j < L.n[i]; j++)
			a += L.v[i][j];
		m[i] = a / (double)L.n[i];
	}
	size_t k = L.k;
	side_logs_free(&L);
	if (k < HISTORY_MIN_RUNS)
		return NAN;
	*nruns = (int)k;
	return sqrt(sample_var(m, k));
}

/* The run-to-run noise assumed for a side on a fresh store. A run's value varies by its run
 * effect (what separates runs beyond their rounds: declared, measured on many-round runs) plus
 * its rounds' variance over their number, which the side's own rounds estimate: so runs of 12
 * rounds are judged sharper than runs of 3, and a run whose rounds were noisy is judged with
 * that noise (bench/README.md, "Separate runs"). Only for a side of two or more runs, whose own
 * spread then weighs in (est_side): a lone run has nothing to show a run effect larger than the
 * declared one, which a drift shared by every metric of a run would turn into a table of false
 * rows. A lone run, a metric that declares no run effect, or a run of one round keep the
 * declared figure, scaled to the side's rounds where the run effect is declared. */
static double fresh_store_noise(const struct side_logs *L, const char *metric, int eq)
{
	double e = L->k >= 2 ? default_run_effect(metric, eq) : 0, w = 0;
	for (size_t i = 0; i < L->k && e > 0; i++) {
		double v = sample_var(L->v[i], L->n[i]);
		if (isnan(v))
			return default_run_noise_at(metric, eq, rounds_harmonic(L->n, L->k));
		w += v / (double)L->n[i];
	}
	if (!(e > 0) || !L->k)
		return default_run_noise_at(metric, eq, rounds_harmonic(L->n, L->k));
	return sqrt(e * e + w / (double)L->k);
}

/* Both sides one run each from one `plumb ab` session (ab_session fact): pair their rounds. */
static int sides_paired(const struct side *a, const struct side *b)
{
	if (a->nruns != 1 || b->nruns != 1 || a->runs[0] == b->runs[0])
		return 0;
	const char *x = kv_get(&a->runs[0]->facts, "ab_session");
	const char *y = kv_get(&b->runs[0]->facts, "ab_session");
	return x && y && *x && strcmp(x, y) == 0;
}

/* The paired differences in increasing round order, with their round ids in rid. */
static size_t paired_diffs(const struct side_logs *a, const struct side_logs *b, double *d,
			   int *rid, size_t max)
{
	size_t n = 0;
	if (a->k != 1 || b->k != 1)
		return 0;
	for (size_t i = 0; i < a->n[0] && n < max; i++)
		for (size_t j = 0; j < b->n[0]; j++)
			if (a->ids[0][i] == b->ids[0][j]) {
				rid[n] = a->ids[0][i];
				d[n++] = b->v[0][j] - a->v[0][i];
				break;
			}
	return n;
}

static struct cmp_change to_change(struct log_est e)
{
	struct cmp_change c = { NAN, NAN, NAN, NAN, NAN, NAN };
	if (!e.ok || !(e.var >= 0) || !(e.df > 0))
		return c;
	c.se = sqrt(e.var);
	c.df = e.df;
	double tc = t_crit(0.05, e.df);
	c.est = expm1(e.mean) * 100;
	c.lo = expm1(e.mean - tc * c.se) * 100;
	c.hi = expm1(e.mean + tc * c.se) * 100;
	c.p = c.se > 0 ? t_two_sided_p(e.mean / c.se, e.df) : (e.mean == 0 ? 1 : 0);
	return c;
}

/* Scratch for one test: the paired differences (raw and at equal clock) with their round ids,
 * used twice because the paired prior is the median over the table's paired rows of a noise group;
 * a look of a sequential session uses the first nuse of them (the rounds before the look). */
struct pending {
	double d[2][256];
	int rid[256];
	size_t nd, nuse;
	int paired, eq_ok;
	double s2[2], df[2]; /* paired_trimmed()'s per-round variance and its degrees of freedom */
};

static void paired_spread_of(struct pending *p, int eq, size_t n)
{
	struct paired_spread ps = paired_trimmed(p->d[eq], n);
	p->s2[eq] = ps.s2;
	p->df[eq] = ps.df;
}

/* Use the differences of rounds before limit (all when limit < 0). */
static void use_rounds(struct pending *p, int limit)
{
	p->nuse = 0;
	while (p->nuse < p->nd && (limit < 0 || p->rid[p->nuse] < limit))
		p->nuse++;
	for (int eq = 0; eq <= p->eq_ok; eq++)
		paired_spread_of(p, eq, p->nuse);
}

static void prepare_test(const struct cmp_table *t, struct cmp_row *row, size_t s,
			 struct pending *pd)
{
	struct cmp_test *ts = &row->test[s];
	int hb = row->def->better == HIGHER;
	int clock = metric_follows_clock(row->metric);
	memset(pd, 0, sizeof *pd);
	pd->s2[0] = pd->s2[1] = NAN;
	for (int eq = 0; eq <= clock; eq++) {
		struct side_logs A, B;
		side_logs_get(&A, t->sides[0].runs, t->sides[0].nruns, row);
		side_logs_get(&B, t->sides[s].runs, t->sides[s].nruns, row);
		if (eq && !(side_logs_equal_clock(&A, hb) && side_logs_equal_clock(&B, hb))) {
			side_logs_free(&A);
			side_logs_free(&B);
			break;
		}
		pd->eq_ok = eq;
		struct cmp_change *out = eq ? &ts->eq : &ts->raw;
		if (sides_paired(&t->sides[0], &t->sides[s])) {
			pd->paired = 1;
			pd->nd = paired_diffs(&A, &B, pd->d[eq], pd->rid, 256);
			pd->nuse = pd->nd;
			paired_spread_of(pd, eq, pd->nd);
			ts->noise = NS_PAIRED;
		} else {
			/* each side's assumed run-to-run noise: its history, else the default */
			double sd[2];
			int nh[2];
			for (int k = 0; k < 2; k++) {
				sd[k] = history_sd(&t->sides[k ? s : 0], row, eq, hb, &nh[k]);
			}
			double df[2];
			int hist = !isnan(sd[0]) && !isnan(sd[1]);
			for (int k = 0; k < 2; k++) {
				if (!hist) {
					sd[k] = fresh_store_noise(k ? &B : &A, row->metric, eq);
					df[k] = default_noise_df(row->metric);
				} else {
					df[k] = nh[k] - 1;
				}
			}
			ts->noise = hist ? NS_HISTORY : NS_DEFAULT;
			ts->hist_runs = hist ? (nh[0] < nh[1] ? nh[0] : nh[1]) : 0;
			ts->noise_pct = expm1(fmax(sd[0], sd[1])) * 100;
			struct log_est a = est_side(A.v, A.n, A.k, sd[0], df[0]);
			struct log_est b = est_side(B.v, B.n, B.k, sd[1], df[1]);
			*out = to_change(est_diff(a, b));
		}
		side_logs_free(&A);
		side_logs_free(&B);
	}
}

/* The prior of a paired row's variance: the median over the table's paired rows of its noise
 * group, and what it is worth (*df: estimated from how much the group's variances spread,
 * prior_df_from_spread(), at most PAIRED_PRIOR_DF). */
static double group_prior(const struct cmp_table *t, const struct pending *pd, size_t npd,
			   const char *metric, int eq, double *df)
{
	const char *group = noise_group(metric);
	double *v = xmalloc((npd + 1) * sizeof *v), *s2 = xmalloc((npd + 1) * sizeof *s2);
	double *dfs = xmalloc((npd + 1) * sizeof *dfs);
	size_t n = 0;
	for (size_t i = 0; i < npd; i++) {
		size_t row = i / t->nsides;
		/* each variance over its chi-square median ratio: the median of a few skewed
		 * sample variances lies ~30 % below the variance (2 degrees of freedom) */
		if (pd[i].paired && !isnan(pd[i].s2[eq]) && pd[i].df[eq] >= 1 &&
		    strcmp(noise_group(t->rows[row].metric), group) == 0) {
			/* in units of the metric's own declared noise: a noise group's metrics
			 * differ in noise (bogomflops 8 times lat_ops' median), and pooling them as
			 * equals would judge the noisy ones with the quiet ones' variance */
			double r = default_run_noise(t->rows[row].metric, 1);
			s2[n] = pd[i].s2[eq] / (r * r);
			dfs[n] = pd[i].df[eq];
			v[n] = s2[n] / chi2_median_ratio(pd[i].df[eq]);
			n++;
		}
	}
	double r = default_run_noise(metric, 1);
	double m = n ? stats_median(v, n) * r * r : NAN;
	*df = prior_df_from_spread(s2, dfs, n, PAIRED_PRIOR_DF);
	free(v);
	free(s2);
	free(dfs);
	return m;
}

/* The equivalence test of a change against ±min_effect percent (two one-sided t tests on the
 * log scale, each at alpha/2, so that uncorrected p < alpha is exactly "the (1 - alpha)
 * interval lies inside ±min_effect": at the default alpha, the 95 % interval shown). */
static double p_equivalent(const struct cmp_change *c, double min_effect)
{
	if (!(min_effect > 0) || isnan(c->est) || isnan(c->se))
		return NAN;
	/* a bound of -100 % or below bounds nothing (no time or rate falls to 0): only the upper
	 * bound is then tested */
	double d = log1p(c->est / 100), hi = log1p(min_effect / 100);
	double lo = min_effect >= 100 ? -INFINITY : log1p(-min_effect / 100);
	if (c->se == 0)
		return d > lo && d < hi ? 0 : 1;
	double p_side[2], t[2] = { (d - lo) / c->se, (hi - d) / c->se };
	for (int k = 0; k < 2; k++) {
		/* one-sided p of "the change lies beyond this bound" */
		double two = t_two_sided_p(t[k], c->df);
		p_side[k] = t[k] > 0 ? two / 2 : 1 - two / 2;
	}
	return fmin(1, 2 * fmax(p_side[0], p_side[1]));
}

/* The sequential design a `plumb ab` session recorded in both runs (docs/compare.md, "Sequential
 * sessions"): the looks (rounds after which the session judged what it had) and the exponent of
 * the alpha-spending function alpha * (rounds / last look)^rho. 0 when the table is not one such
 * session (the usual fixed-sample tests then apply). */
struct seq_design {
	int n, look[CMP_MAX_LOOKS];
	double rho;
};

static int seq_design_of(const struct cmp_table *t, struct seq_design *sd)
{
	if (t->nsides != 2 || !sides_paired(&t->sides[0], &t->sides[1]))
		return 0;
	const struct kv_list *fa = &t->sides[0].runs[0]->facts, *fb = &t->sides[1].runs[0]->facts;
	const char *la = kv_get(fa, "ab_looks"), *lb = kv_get(fb, "ab_looks");
	const char *ra = kv_get(fa, "ab_spend_rho"), *rb = kv_get(fb, "ab_spend_rho");
	if (!la || !lb || !ra || !rb || strcmp(la, lb) || strcmp(ra, rb))
		return 0;
	char *end;
	sd->rho = strtod(ra, &end);
	if (*end || !(sd->rho > 0 && sd->rho <= 10))
		return 0;
	sd->n = 0;
	for (const char *p = la; *p;) {
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > 255 || (sd->n && v <= sd->look[sd->n - 1]) ||
		    sd->n == CMP_MAX_LOOKS || (*end && *end != ','))
			return 0;
		sd->look[sd->n++] = (int)v;
		p = *end ? end + 1 : end;
	}
	return sd->n > 0;
}

/* Paired rows still undecided: each change estimated from the rounds before limit, its variance
 * moderated with its noise group's (group_prior()). */
static void estimate_paired(struct cmp_table *t, struct pending *pd, size_t npd, int limit)
{
	for (size_t i = 0; i < npd; i++)
		if (pd[i].paired)
			use_rounds(&pd[i], limit);
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++) {
			struct pending *p = &pd[i * t->nsides + s];
			struct cmp_test *ts = &t->rows[i].test[s];
			if (ts->v != V_UNDECIDED || !p->paired)
				continue;
			ts->rounds_used = (int)p->nuse;
			for (int eq = 0; eq <= p->eq_ok; eq++) {
				double df, prior = group_prior(t, pd, npd, t->rows[i].metric, eq, &df);
				struct cmp_change *out = eq ? &ts->eq : &ts->raw;
				double fl = default_pair_noise(t->rows[i].metric);
				*out = to_change(est_paired(p->d[eq], p->nuse, prior, df, fl * fl));
			}
		}
}

/* Each candidate's judged change: at equal clock when the metric follows the clock and both
 * sides know their clock, else raw; both tests (difference and equivalence) read this one.
 * p[] and pe[] get, per row and side, the candidate's p-values for "changed" and "same" (NAN for
 * the others). Returns their number. */
static size_t candidate_p_values(struct cmp_table *t, double *p, double *pe)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++) {
			struct cmp_test *ts = &t->rows[i].test[s];
			int cand = ts->v == V_UNDECIDED;
			if (cand) {
				ts->p_same = ts->p_same_adj = ts->p = ts->p_adj = NAN;
				ts->judged_eq = !isnan(ts->eq.est);
				const struct cmp_change *c = ts->judged_eq ? &ts->eq : &ts->raw;
				if (isnan(c->p)) {
					ts->v = V_NOTEST;
				} else {
					ts->change = c->est;
					ts->lo = c->lo;
					ts->hi = c->hi;
					ts->p = c->p;
					ts->p_same = p_equivalent(c, t->o.min_effect);
				}
			}
			p[n] = ts->v == V_UNDECIDED && cand ? ts->p : NAN;
			pe[n++] = ts->v == V_UNDECIDED && cand ? ts->p_same : NAN;
		}
	return n;
}

/* The verdicts from the corrected p-values p[] and pe[] (tested of them real): worse or better,
 * same, or still undecided; each tested row's smallest detectable change. */
static void decide_rows(struct cmp_table *t, const double *p, const double *pe, size_t tested,
			double alpha_k, int look)
{
	/* one change alone in the table is flagged when its p is below alpha / tests (the first
	 * step of Holm and of BH alike): the smallest such change, at the test's standard error */
	double m = tested ? (double)tested : 1, scale = t->o.alpha / alpha_k;
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++, n++) {
			struct cmp_row *row = &t->rows[i];
			struct cmp_test *ts = &row->test[s];
			if (ts->v != V_UNDECIDED || isnan(p[n]))
				continue;
			ts->p_same_adj = fmin(1, pe[n] * scale);
			ts->p_adj = fmin(1, p[n] * scale);
			if (isnan(ts->change))
				continue;
			const struct cmp_change *c = ts->judged_eq ? &ts->eq : &ts->raw;
			double alpha1 = t->o.corr == CORR_NONE ? alpha_k : alpha_k / m;
			double tc = t_crit(alpha1, c->df);
			ts->mde = fmax(expm1(tc * c->se) * 100, t->o.min_effect);
			int excludes_zero = ts->lo > 0 || ts->hi < 0;
			if (p[n] < alpha_k && excludes_zero && fabs(ts->change) >= t->o.min_effect) {
				int up = ts->change > 0;
				int good = row->def->better == HIGHER ? up : !up;
				ts->v = good ? V_BETTER : V_WORSE;
				ts->look = look;
			} else if (pe[n] < alpha_k) {
				ts->v = V_SAME;
				ts->look = look;
			}
		}
}

/* One pass of tests: every row still undecided (a candidate) is estimated — a paired row from its
 * rounds before limit (all when limit < 0) — and tested at level alpha_k, corrected over the
 * candidates; the rows it decides keep their verdict and figures. p-values are reported on the
 * scale of the table's alpha (times alpha / alpha_k), so that "p < alpha" stays the rule a reader
 * applies. look: 1, 2, ... for a sequential session's looks, 0 otherwise. Returns the candidates. */
static size_t judge_pass(struct cmp_table *t, struct pending *pd, size_t npd, int limit,
			 double alpha_k, int look)
{
	estimate_paired(t, pd, npd, limit);
	size_t np = t->nrows * t->nsides + 1;
	double *p = xmalloc(np * sizeof *p), *pe = xmalloc(np * sizeof *pe);
	size_t n = candidate_p_values(t, p, pe);
	size_t tested = 0;
	for (size_t i = 0; i < n; i++)
		tested += !isnan(p[i]);
	/* the same correction over the same tests for both claims: "changed" and "same" are each
	 * controlled as the table's differences are (docs/compare.md, "The verdict") */
	p_adjust(p, n, t->o.corr);
	p_adjust(pe, n, t->o.corr);
	decide_rows(t, p, pe, tested, alpha_k, look);
	free(p);
	free(pe);
	return tested;
}

/* Whether every row still undecided has a pair of rounds at or after round limit - 1: the
 * session reached this look for all of them. */
static int look_reached(const struct cmp_table *t, const struct pending *pd, int limit)
{
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++) {
			const struct pending *p = &pd[i * t->nsides + s];
			if (t->rows[i].test[s].v != V_UNDECIDED || !p->paired)
				continue;
			if (!p->nd || p->rid[p->nd - 1] < limit - 1)
				return 0;
		}
	return 1;
}

void cmp_judge(struct cmp_table *t)
{
	size_t npd = t->nrows * t->nsides;
	struct pending *pd = xcalloc(npd + 1, sizeof *pd);
	for (size_t i = 0; i < t->nrows; i++) {
		struct cmp_row *row = &t->rows[i];
		row->cell = xcalloc(t->nsides, sizeof *row->cell);
		row->test = xcalloc(t->nsides, sizeof *row->test);
		for (size_t s = 0; s < t->nsides; s++)
			cmp_fill_cell(&row->cell[s], &t->sides[s], row);
		const struct cmp_cell *b = &row->cell[0];
		for (size_t s = 1; s < t->nsides; s++) {
			struct cmp_test *ts = &row->test[s];
			const struct cmp_cell *c = &row->cell[s];
			ts->change = ts->lo = ts->hi = ts->p = ts->p_adj = ts->mde = NAN;
			ts->p_same = ts->p_same_adj = ts->noise_pct = NAN;
			ts->raw = ts->eq = (struct cmp_change){ NAN, NAN, NAN, NAN, NAN, NAN };
			if (!b->present || !c->present) {
				ts->v = V_MISSING;
				continue;
			}
			/* a ratio of two values only means something when both are on the same side of
			 * zero, the base above it (a difference metric can come out at or below zero) */
			if (b->center > 0 && c->center >= 0)
				ts->change = (c->center - b->center) / b->center * 100;
			if (b->version != c->version || b->version < 0)
				ts->v = V_METHOD;
			else if (!row->def || row->def->better == NEUTRAL)
				ts->v = V_NEUTRAL;
			else if ((t->sides[0].nruns < 2 && b->nrounds < CMP_MIN_ROUNDS) ||
				 (t->sides[s].nruns < 2 && c->nrounds < CMP_MIN_ROUNDS))
				ts->v = V_NOTEST;
			else {
				ts->v = V_UNDECIDED;
				prepare_test(t, row, s, &pd[i * t->nsides + s]);
			}
		}
	}
	struct seq_design sd;
	if (!seq_design_of(t, &sd)) {
		t->ntests = judge_pass(t, pd, npd, -1, t->o.alpha, 0);
		free(pd);
		return;
	}
	/* a sequential session: its looks replayed in order, each spending its share of alpha on
	 * the rows still undecided, from the rounds before it; a session that stopped before its
	 * last look (the time limit) spends what is left on all its rounds at once — unless the
	 * session is still going (interim), which only wants the looks it reached */
	double spent = 0;
	t->seq_looks = sd.n;
	for (int k = 0; k < sd.n; k++) {
		if (!look_reached(t, pd, sd.look[k])) {
			if (!t->o.interim) {
				size_t m = judge_pass(t, pd, npd, -1, t->o.alpha - spent, k + 1);
				if (!t->ntests)
					t->ntests = m;
			}
			break;
		}
		double ak = t->o.alpha * pow((double)sd.look[k] / sd.look[sd.n - 1], sd.rho) - spent;
		size_t m = judge_pass(t, pd, npd, sd.look[k], ak, k + 1);
		if (!t->ntests)
			t->ntests = m;
		spent += ak;
		t->seq_looks_done = k + 1;
		if (!m)
			break;
	}
	free(pd);
}
