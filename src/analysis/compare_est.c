/*
 * compare_est.c — compare's estimator (compare_est.h): Student's t from the regularized
 * incomplete beta function, the nested (runs, then rounds) and paired estimates of a change on
 * the log scale, and the default run-to-run noise of a metric and whether its cost follows the
 * core clock, as its tool's file declares them (core/metrics.h; bench/README.md).
 */
#include <math.h>
#include <string.h>
#include "analysis/compare_est.h"
#include "core/metrics.h"
#include "core/stats.h"

/* Continued fraction of the incomplete beta (modified Lentz). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1);
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	double h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m;
		double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* I_x(a, b) */
static double ibeta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double t_two_sided_p(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return ibeta(df / 2, 0.5, df / (df + t * t));
}

double t_crit(double p, double df)
{
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	double lo = 0, hi = 1;
	while (t_two_sided_p(hi, df) > p && hi < 1e12)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-10 * hi; i++) {
		double mid = (lo + hi) / 2;
		if (t_two_sided_p(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double sample_var(const double *v, size_t n)
{
	if (n < 2)
		return NAN;
	double m = 0, s = 0;
	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s / (double)(n - 1);
}

struct log_est est_side(double *const *runs, const size_t *n, size_t k, double prior_sd,
			double prior_df)
{
	struct log_est e = { NAN, NAN, NAN, 0 };
	double means[256], within = 0;
	size_t km = 0, nw = 0;
	for (size_t i = 0; i < k && km < 256; i++) {
		if (!n[i])
			continue;
		double m = 0;
		for (size_t j = 0; j < n[i]; j++)
			m += runs[i][j];
		means[km++] = m / (double)n[i];
		/* the spread of one run's rounds, as the variance of the run's mean: runs differ at
		 * least as much as their rounds' noise alone makes them differ, so it is a floor under
		 * the run-to-run variance — what keeps a run made on a machine busy with other work
		 * from being judged with a quiet machine's noise. (Per run mean, not per round: on the
		 * project's guest the sd of run values is the rounds' sd / sqrt(3), bench/README.md.) */
		double w = sample_var(runs[i], n[i]);
		if (!isnan(w)) {
			within += w / (double)n[i];
			nw++;
		}
	}
	if (!km || !(prior_sd >= 0))
		return e;
	double mean = 0;
	for (size_t i = 0; i < km; i++)
		mean += means[i];
	mean /= (double)km;
	double prior = prior_sd * prior_sd, v_run;
	double df = prior_df;
	if (km >= 2) {
		/* the variance between runs, moderated by the prior (it has few degrees of freedom) */
		double s2 = sample_var(means, km);
		v_run = (prior_df * prior + (double)(km - 1) * s2) / (prior_df + (double)(km - 1));
		df = prior_df + (double)(km - 1);
	} else {
		v_run = prior;
	}
	if (nw && within / (double)nw > v_run)
		v_run = within / (double)nw;
	e.mean = mean;
	e.var = v_run / (double)km;
	e.df = df;
	e.ok = 1;
	return e;
}

struct log_est est_diff(struct log_est a, struct log_est b)
{
	struct log_est e = { NAN, NAN, NAN, 0 };
	if (!a.ok || !b.ok)
		return e;
	e.mean = b.mean - a.mean;
	e.var = a.var + b.var;
	double den = a.var * a.var / a.df + b.var * b.var / b.df;
	e.df = den > 0 ? e.var * e.var / den : a.df + b.df;
	e.ok = 1;
	return e;
}

struct paired_spread paired_trimmed(const double *d, size_t n)
{
	struct paired_spread r = { NAN, NAN, 0 };
	if (n == 0)
		return r;
	double x[256];
	size_t m = n < 256 ? n : 256;
	memcpy(x, d, m * sizeof *x);
	stats_sort(x, m);
	size_t g = m >= PAIRED_TRIM_MIN ? (size_t)floor(PAIRED_TRIM * (double)m) : 0, h = m - 2 * g;
	double c = 0;
	for (size_t i = g; i < m - g; i++)
		c += x[i];
	r.center = c / (double)h;
	if (h < 2)
		return r;
	/* the winsorized sample: each trimmed difference replaced by the nearest one kept */
	for (size_t i = 0; i < g; i++) {
		x[i] = x[g];
		x[m - 1 - i] = x[m - 1 - g];
	}
	double sw2 = sample_var(x, m);
	r.s2 = (double)m * (double)(m - 1) * sw2 / ((double)h * (double)(h - 1));
	r.df = (double)(h - 1);
	return r;
}

struct log_est est_paired(const double *d, size_t n, double prior_var, double prior_df,
			  double floor_var)
{
	struct log_est e = { NAN, NAN, NAN, 0 };
	if (n == 0)
		return e;
	struct paired_spread ps = paired_trimmed(d, n);
	double m = ps.center, s2 = ps.s2, dfo = ps.df;
	if (isnan(prior_var) || prior_var <= 0)
		prior_df = 0;
	if (dfo + prior_df <= 0)
		return e;
	double v = ((dfo ? dfo * s2 : 0) + (prior_df ? prior_df * prior_var : 0)) / (dfo + prior_df);
	if (floor_var > v)
		v = floor_var;
	e.mean = m;
	e.var = v / (double)n;
	e.df = dfo + prior_df;
	e.ok = 1;
	return e;
}

/* digamma and trigamma: recurrence up to 6, then their asymptotic series. */
static double digamma(double x)
{
	double r = 0;
	for (; x < 6; x++)
		r -= 1 / x;
	double f = 1 / (x * x);
	return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f / 252));
}

static double trigamma(double x)
{
	double r = 0;
	for (; x < 6; x++)
		r += 1 / (x * x);
	double f = 1 / (x * x);
	return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f / 42));
}

/* The y with trigamma(y) = v (trigamma decreases): bisection on log y. */
static double trigamma_inverse(double v)
{
	double lo = log(1e-6), hi = log(1e8);
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (trigamma(exp(mid)) > v)
			lo = mid;
		else
			hi = mid;
	}
	return exp((lo + hi) / 2);
}

double prior_df_from_spread(const double *s2, const double *df, size_t n, double cap)
{
	double e[1024], tri = 0;
	size_t k = 0;
	for (size_t i = 0; i < n && k < 1024; i++)
		if (s2[i] > 0 && df[i] > 0 && isfinite(s2[i])) {
			e[k++] = log(s2[i]) - digamma(df[i] / 2) + log(df[i] / 2);
			tri += trigamma(df[i] / 2);
		}
	if (k < 3)
		return 0;
	/* what the log variances spread beyond their sampling noise is the spread of the rows'
	 * true variances: the wider, the less a group's figure says about one row */
	double extra = sample_var(e, k) - tri / (double)k;
	if (!(extra > 0))
		return cap;
	double d0 = 2 * trigamma_inverse(extra);
	return d0 < cap ? d0 : cap;
}

/* The default noise of a metric is declared with it, in its tool's file (core/metrics.h,
 * struct metric_noise; bench/README.md, "Run-to-run noise: the default table", says how each
 * figure was measured). A metric plumb does not know (an imported id) gets the conservative
 * figure every unmeasured metric declares (NOISE_UNMEASURED). */
static const struct metric_noise unknown_noise = { "other", 0.20, 0.20, 0, 4, 0, 0 };

static const struct metric_noise *noise_of(const char *metric)
{
	const struct metric_def *d = metric_find(metric);
	return d && d->noise.group ? &d->noise : &unknown_noise;
}

double default_run_noise(const char *metric, int equal_clock)
{
	const struct metric_noise *f = noise_of(metric);
	return equal_clock && f->clock ? f->run_eq : f->run;
}

double default_run_noise_at(const char *metric, int equal_clock, double rounds)
{
	double sd = default_run_noise(metric, equal_clock);
	double e = noise_of(metric)->run_effect;
	if (!(e > 0) || !(rounds > 0))
		return sd;
	/* var(run mean) = run effect^2 + round variance / rounds; the declared figure is that
	 * at NOISE_ROUNDS rounds (bench/README.md, "Separate runs") */
	double e2 = e * e < sd * sd ? e * e : sd * sd;
	return sqrt(e2 + (sd * sd - e2) * NOISE_ROUNDS / rounds);
}

double default_run_effect(const char *metric, int equal_clock)
{
	double sd = default_run_noise(metric, equal_clock), e = noise_of(metric)->run_effect;
	return e > 0 ? (e < sd ? e : sd) : 0;
}

double rounds_harmonic(const size_t *n, size_t k)
{
	double inv = 0;
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (n[i]) {
			inv += 1 / (double)n[i];
			m++;
		}
	return m ? (double)m / inv : 0;
}

double default_noise_df(const char *metric)
{
	return noise_of(metric)->df;
}

double default_pair_noise(const char *metric)
{
	return noise_of(metric)->pair;
}

/* The median of a chi-square variable with nu degrees of freedom, over nu (Wilson–Hilferty):
 * 0.70 for nu = 2. The median of sample variances with nu degrees of freedom is this fraction of
 * the variance they estimate. */
double chi2_median_ratio(double nu)
{
	if (!(nu > 0))
		return NAN;
	double a = 1 - 2 / (9 * nu);
	return a * a * a;
}

const char *noise_group(const char *metric)
{
	return noise_of(metric)->group;
}

int metric_follows_clock(const char *metric)
{
	return noise_of(metric)->clock;
}
