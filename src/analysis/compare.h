/*
 * compare.h — `plumb compare`'s model: runs grouped into sides (one per argument; a label pools
 * every run with it), one row per metric point, each side's rounds, and per non-baseline side a
 * change in percent and a verdict (Mann–Whitney U on the rounds, corrected for the number of
 * tests, plus a minimum effect). docs/compare.md explains every choice. The report (report.h)
 * reads the same table for its bar charts and its compare section.
 */
#ifndef PLUMB_COMPARE_H
#define PLUMB_COMPARE_H

#include <stdio.h>
#include "analysis/mwu.h"
#include "core/metrics.h"
#include "results/run.h"

/* Fewer rounds than this on either side: the change is shown, the verdict is "no test". With
 * 3 rounds a side the rank test's smallest p is 0.1, so it could only ever say "same". */
#define CMP_MIN_ROUNDS 4

/* compare warns when the sides' median CPU clocks (clock_mhz) differ by more than this. */
#define CLOCK_DIFFERS_PCT 1.0

struct side {
	char *name;          /* the argument as given: file, id or label */
	struct run **runs;   /* borrowed: the caller frees them */
	size_t nruns;
};

enum verdict {
	V_WORSE,     /* significantly worse */
	V_BETTER,    /* significantly better */
	V_SAME,      /* tested: no significant change (or smaller than --min-effect) */
	V_NOTEST,    /* too few rounds on a side to test */
	V_NEUTRAL,   /* a property of the machine (cache size, MHz): change shown, no verdict */
	V_METHOD,    /* method versions differ: the numbers measure different things */
	V_MISSING,   /* the point is missing on one side */
};

/* One side's figures for one row. */
struct cmp_cell {
	int present;
	double center;     /* median of the round values */
	double lo, hi;     /* min and max of the round values */
	double smin, smax; /* min and max over every sample (the value when there are none) */
	double spread;     /* (hi - lo) / 2 in % of center: "±x%" */
	double *rounds;    /* one value per round: the metric's statistic over its samples */
	size_t nrounds;
	int version;       /* method version; -1 when the side's runs disagree */
	double noise;      /* largest result_noise_pct() of the side's results for the point */
	char caveat[32];   /* a caveat of one of the side's results ("" when none) */
};

/* A non-baseline side against the baseline (index 0 is unused). */
struct cmp_test {
	double change;     /* percent: (side - baseline) / baseline */
	double p, p_adj;   /* raw and corrected two-sided p; NAN when not tested */
	enum verdict v;
};

struct cmp_row {
	char *metric, *params;
	double x;          /* NAN for single-value metrics */
	char *unit;
	const struct metric_def *def; /* NULL for metrics plumb does not know (imported) */
	struct cmp_cell *cell;        /* nsides */
	struct cmp_test *test;        /* nsides, [0] unused */
	size_t order;                 /* position before sorting */
};

struct cmp_opts {
	double alpha;       /* default 0.05 */
	double min_effect;  /* percent, default 3 */
	enum correction corr; /* default Holm */
	int all;            /* every point, not only the summary-level ones */
};

struct cmp_table {
	struct cmp_opts o;
	const struct side *sides; /* borrowed */
	size_t nsides;
	struct cmp_row *rows;
	size_t nrows;
	size_t ntests;      /* tests in the correction's family */
	char **warnings;    /* facts that differ, one line each */
	size_t nwarnings;
};

void cmp_opts_default(struct cmp_opts *o);
/* Build the table (rows sorted: significant changes first). nsides >= 1. */
struct cmp_table *cmp_build(const struct side *sides, size_t nsides, const struct cmp_opts *o);
void cmp_free(struct cmp_table *t);

/* 1 when the point is "summary-level": a single-value metric, or a series point lmbench's
 * summary reads (the largest size of a series; L1/L2 points of lat_mem_rd stride 128; lat_ctx
 * at 2, 8 and 16 processes). largest_x is the largest x of the point's series (compare uses
 * the largest x every side measured). */
int cmp_summary_point(const struct result *r, double largest_x);

/* Round values of point (metric, params, x) pooled over runs into *out (malloc'd); returns
 * the count. A result without samples gives one round: its value. */
size_t cmp_round_values(struct run *const *runs, size_t nruns, const char *metric,
			const char *params, double x, double **out);

/* Number of rows with a significantly worse verdict. */
size_t cmp_regressions(const struct cmp_table *t);

const char *verdict_name(enum verdict v);
/* "metric", or "metric params", plus " @x" for series points, into buf. */
const char *cmp_row_name(const struct cmp_row *r, char *buf, size_t len);
/* Compact number for tables (4 significant digits, no exponent for usual magnitudes). */
const char *cmp_fmt_num(double v, char *buf, size_t len);

enum cmp_format { CF_TEXT, CF_MARKDOWN, CF_CSV, CF_JSON };
int cmp_format_parse(const char *s, enum cmp_format *f);
void cmp_print(FILE *f, const struct cmp_table *t, enum cmp_format fmt);

#endif
