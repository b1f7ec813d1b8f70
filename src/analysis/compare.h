/*
 * compare.h — `plumb compare`'s model: runs grouped into sides (one per argument; a label pools
 * every run with it), one row per metric point, each side's rounds, and per non-baseline side a
 * change in percent with its 95 % interval and a verdict (a t test on log values with the run
 * as the unit of noise, or on paired rounds of one `plumb ab` session — compare_est.h —
 * corrected for the number of tests, plus a minimum effect). docs/compare.md explains every choice. The report (report.h)
 * reads the same table for its bar charts and its compare section.
 */
#ifndef PLUMB_COMPARE_H
#define PLUMB_COMPARE_H

#include <stdio.h>
#include "analysis/p_adjust.h"
#include "core/metrics.h"
#include "results/run.h"

/* Fewer rounds than this on a side made of one run: the change is shown, the verdict is "no
 * test" (an imported lmbench file has one value per point and says nothing about its noise). */
#define CMP_MIN_ROUNDS 2

/* compare warns when the sides' median CPU clocks (clock_mhz) differ by more than this. */
#define CLOCK_DIFFERS_PCT 1.0

struct side {
	char *name;          /* the argument as given: file, id or label */
	struct run **runs;   /* borrowed: the caller frees them */
	size_t nruns;
	/* Earlier runs of the same host, build and options (set by the caller, borrowed; may be
	 * empty): their run-to-run spread is the noise assumed for this side. */
	struct run **history;
	size_t nhistory;
};

enum verdict {
	V_WORSE,     /* significantly worse */
	V_BETTER,    /* significantly better */
	V_UNDECIDED, /* tested: neither a change nor sameness shown ("no significant change") */
	V_NOTEST,    /* too few rounds on a side to test */
	V_NEUTRAL,   /* a property of the machine (cache size, MHz): change shown, no verdict */
	V_METHOD,    /* method versions differ: the numbers measure different things */
	V_MISSING,   /* the point is missing on one side */
	V_SAME,      /* tested: the 95 % interval lies within ±min-effect (equivalence test) */
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

/* Which noise a test assumed (compare_est.h): rounds paired within one `plumb ab` session, the
 * store's history of the host's runs, or the default table. */
enum noise_src { NS_NONE, NS_PAIRED, NS_HISTORY, NS_DEFAULT };

/* A change on the log scale, shown in percent: estimate and 95 % interval. */
struct cmp_change {
	double est, lo, hi; /* percent; NAN when not estimated */
	double se, df;      /* of the log ratio */
	double p;           /* two-sided, uncorrected */
};

/* A non-baseline side against the baseline (index 0 is unused). */
struct cmp_test {
	double change;     /* percent: the estimate (ratio of geometric means over runs) */
	double lo, hi;     /* its 95 % interval in percent */
	struct cmp_change raw, eq; /* raw, and at equal clock (eq.est NAN when not applicable) */
	int judged_eq;     /* the verdict was judged at equal clock */
	double p, p_adj;   /* raw and corrected two-sided p of the judged change; NAN: not tested */
	double p_same, p_same_adj; /* raw and corrected p of the equivalence test (two one-sided
				    * tests against ±min-effect, each at alpha/2); NAN: not tested */
	double mde;        /* smallest change this test could flag, percent (NAN: not tested) */
	enum noise_src noise;
	int look;          /* sequential `plumb ab` session: the look (1, 2, ...) that decided it */
	int rounds_used;   /* paired: the pairs of rounds its figures come from */
	int hist_runs;     /* runs of history behind NS_HISTORY (the smaller of the two sides') */
	double noise_pct;  /* the assumed run-to-run noise, percent (largest of the two sides) */
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
	int has_steady;               /* a batch mean whose steady figure (its ".steady" twin,
				       * core/metrics.h) is a row of the table too: the twin is
				       * the judged figure; this row is shown where it changed
				       * (cmp_row_shown) and keeps no `plumb ab` step running */
};

struct cmp_opts {
	double alpha;       /* default 0.05 */
	double min_effect;  /* percent, default 3 */
	enum correction corr; /* default Benjamini-Hochberg */
	int all;            /* every point, not only the summary-level ones */
	int interim;        /* a sequential session still running: judge only the looks reached,
			     * keep the rest of alpha for later (compare_judge.c) */
	int wide;           /* text: every column (noise, detectable, rounds), not 120 columns */
	int side;           /* text: the side metrics of every row, not only the changed ones */
};

/* The most looks a sequential `plumb ab` session makes (docs/compare.md). */
#define CMP_MAX_LOOKS 16

struct cmp_table {
	struct cmp_opts o;
	const struct side *sides; /* borrowed */
	size_t nsides;
	struct cmp_row *rows;
	size_t nrows;
	size_t ntests;      /* tests in the correction's family */
	int seq_looks;      /* a sequential `plumb ab` session: its planned looks (0: not one) */
	int seq_looks_done; /* the looks it reached */
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

/* 1 when the text, markdown and report tables show row r: every row with --all; else not a
 * batch mean whose steady twin is in the table unless the mean itself changed significantly
 * (a change confined to rare slow operations moves the mean, not the median). */
int cmp_row_shown(const struct cmp_table *t, const struct cmp_row *r);
/* Rows that cmp_row_shown() leaves out. */
size_t cmp_rows_hidden(const struct cmp_table *t);

/* Number of rows with a significantly worse verdict. */
size_t cmp_regressions(const struct cmp_table *t);

const char *verdict_name(enum verdict v);
const char *noise_src_name(enum noise_src n);
/* "metric", or "metric params", plus " @x" for series points, into buf. */
const char *cmp_row_name(const struct cmp_row *r, char *buf, size_t len);
/* Compact number for tables (4 significant digits, no exponent for usual magnitudes). */
const char *cmp_fmt_num(double v, char *buf, size_t len);

enum cmp_format { CF_TEXT, CF_MARKDOWN, CF_CSV, CF_JSON };
int cmp_format_parse(const char *s, enum cmp_format *f);
void cmp_print(FILE *f, const struct cmp_table *t, enum cmp_format fmt);
/* compare_answer.c: the answer's first line(s), one a compared side: "B is slower: 6 points
 * worse, +11.0 to +17.0 % (lat_syscall x6); nothing else changed significantly (20 points)". */
void cmp_answer(FILE *f, const struct cmp_table *t);

#endif
