/*
 * compare_est.h — the estimator behind compare's verdicts (docs/compare.md, "The estimate"):
 * changes are estimated on the log scale, so a change and its interval are ratios; a side's
 * value is the mean over its runs of each run's mean log round value, because the run — not the
 * round — is the unit of noise on a shared host. Two sides from one `plumb ab` session are
 * paired round by round instead. Also here: Student's t distribution (p-values, quantiles), the
 * run-to-run noise plumb assumes for a metric when the store knows nothing better, and which
 * metrics follow the CPU clock.
 */
#ifndef PLUMB_COMPARE_EST_H
#define PLUMB_COMPARE_EST_H

#include <stddef.h>

/* Two-sided p of |T| >= |t| with df degrees of freedom (df may be fractional, > 0). */
double t_two_sided_p(double t, double df);
/* The t with two-sided p = p (0 < p < 1). */
double t_crit(double p, double df);

/* A side's estimate on the log scale: mean, variance of the mean, degrees of freedom. */
struct log_est {
	double mean, var, df;
	int ok;
};

/* Unpaired side: runs[i] holds the log round values of run i (n[i] of them), k runs.
 * prior_sd: the run-to-run standard deviation (log scale) assumed from the store's history or
 * the default table, worth prior_df degrees of freedom. The variance of a run's own rounds is a
 * floor under the run-to-run variance once divided by the run's rounds (the variance of the run's
 * mean that round noise alone gives). */
struct log_est est_side(double *const *runs, const size_t *n, size_t k, double prior_sd,
			double prior_df);
/* Difference b - a with Welch–Satterthwaite degrees of freedom. */
struct log_est est_diff(struct log_est a, struct log_est b);
/* The centre and spread of paired differences, robust to a minority of pairs whose two halves
 * fell on different levels of the machine (a host that flips between two speeds every few
 * hundred ms puts some pairs ±30 % apart while the rest agree within 1 %): Yuen's trimmed mean.
 * From PAIRED_TRIM_MIN differences on, g = floor(PAIRED_TRIM n) of the smallest and of the largest
 * are trimmed, h = n - 2g kept; center is the mean of the kept ones, s2 the per-round variance that
 * gives its standard error (s2 / n = (n - 1) s_w^2 / (h (h - 1)), s_w^2 the winsorized sample
 * variance) and df = h - 1. Below it (g = 0) they are the mean, the sample variance and n - 1:
 * trimming 2 of 5 costs 2 of 4 degrees of freedom, and a few rounds cannot tell a straddling
 * pair from noise anyway. df 0 and s2 NAN for n < 2. */
struct paired_spread {
	double center, s2, df;
};
struct paired_spread paired_trimmed(const double *d, size_t n);
/* The share of the paired differences trimmed at each end (Yuen's 20 %), from how many on. */
#define PAIRED_TRIM 0.2
#define PAIRED_TRIM_MIN 10

/* Paired: d[i] = log b_i - log a_i for rounds run back to back, summarized by paired_trimmed();
 * the variance of d is moderated
 * with prior_var (worth prior_df degrees of freedom: the median over the table's paired rows of
 * the same noise group, each in units of its metric's default noise, corrected for the median's bias;
 * prior_df from prior_df_from_spread()) and never below floor_var (the metric's paired noise on a
 * quiet machine, default_pair_noise() squared). */
struct log_est est_paired(const double *d, size_t n, double prior_var, double prior_df,
			  double floor_var);

/* Sample variance (n - 1); NAN for n < 2. */
double sample_var(const double *v, size_t n);

/* The conservative run-to-run noise (standard deviation of log run values, i.e. roughly a
 * fraction: 0.04 = 4 %) plumb assumes for a metric without history, of its raw value or (when
 * equal_clock and the metric follows the clock) of its value at equal clock, from the table in
 * metric's declaration (core/metrics.h; bench/README.md, "Run-to-run noise"). */
double default_run_noise(const char *metric, int equal_clock);
/* The same for a run of `rounds` rounds (for a side, the harmonic mean of its runs' rounds;
 * <= 0: as declared): a metric that declares its run effect keeps that part whole and scales
 * the rest, round noise measured at NOISE_ROUNDS rounds, by NOISE_ROUNDS / rounds. */
double default_run_noise_at(const char *metric, int equal_clock, double rounds);
/* The run effect the metric declares (sd of log run values that rounds do not see), at most
 * its default_run_noise(); 0 when it declares none. */
double default_run_effect(const char *metric, int equal_clock);
/* The harmonic mean of n[0..k-1] (the rounds of a side's runs), 0 when k is 0. */
double rounds_harmonic(const size_t *n, size_t k);
/* The degrees of freedom default_run_noise() is worth for the metric: the runs its figure was
 * measured over, less one. */
double default_noise_df(const char *metric);
/* The standard deviation of one paired round's log ratio below which compare never assumes a
 * `plumb ab` row's noise (0 for most metrics), from the same table. */
double default_pair_noise(const char *metric);
/* The median of chi-square(nu) / nu: how far the median of sample variances with nu degrees of
 * freedom falls below the variance they estimate. */
double chi2_median_ratio(double nu);
/* The metric's noise group ("syscall", "ops", ...; "other" for an unknown metric): metrics
 * whose paired variances are pooled, and the name in messages. */
const char *noise_group(const char *metric);
/* 1 when the metric's cost follows the core clock (bench/README.md, "Which metrics follow the
 * clock"): compare also judges it at equal clock. */
int metric_follows_clock(const char *metric);

/* The degrees of freedom a pooled prior of variances is worth for one row (the empirical-Bayes
 * estimate of limma's moderated t): s2[i] are the rows' sample variances with df[i] degrees of
 * freedom each; their log values spread by sampling alone by trigamma(df/2), and whatever they
 * spread beyond that is the spread of the rows' true variances, which makes the pooled figure
 * worth less. 0 with fewer than 3 usable rows (nothing to pool), at most cap. */
double prior_df_from_spread(const double *s2, const double *df, size_t n, double cap);

/* Runs of history a side needs before the store's noise replaces the default. */
#define HISTORY_MIN_RUNS 4
/* The most degrees of freedom the pooled prior of paired variances is worth. */
#define PAIRED_PRIOR_DF 4.0

#endif
