/*
 * result.h — one measured point and its samples: what a benchmark produces and every later
 * layer (writers, store, summary, compare) reads. A run (results/run.h) is a list of these
 * plus the system facts.
 */
#ifndef PLUMB_RESULT_H
#define PLUMB_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "core/side.h"

struct sample {
	double value;       /* in the metric's unit */
	uint64_t iters;     /* operations timed together */
	double elapsed_ns;  /* wall time of the sample as read from the clock (before overhead) */
	int round;          /* interleaved round this sample belongs to (0 when not repeating) */
	/* What else happened during it (side.h); NULL: not read. Out of line because it is 34
	 * numbers and most samples (imported, older or PLUMB_SIDE=off) have none: a sample stays
	 * 40 bytes. The result (or measurement) holding the sample owns it; result_add_sample()
	 * copies it, so a sample copied by value borrows it while its holder lives. */
	struct side_sample *side;
};

/* s's side metrics, or an empty set (have = 0) when none were read. */
const struct side_sample *sample_side(const struct sample *s);

struct result {
	char *metric;       /* registry id (core/metrics.h); imported unknowns keep their own */
	char *params;       /* "key=value key=value": what distinguishes points of one metric */
	double x;           /* series abscissa as lmbench prints it; NAN for a single value */
	double value;       /* the statistic the metric reports (median or minimum) */
	char *unit;
	int version;        /* method version of the metric when measured */
	char *info;         /* "key=value ..." facts about this measurement (page size, seed, ...) */
	struct sample *samples;
	size_t nsamples, cap;
};

struct result_list {
	struct result *v;
	size_t n, cap;
};

struct result *result_list_add(struct result_list *l, const char *metric, const char *params,
			       double x);
/* Append s to r; s.side (when it was read) is copied into memory r owns. */
void result_add_sample(struct result *r, struct sample s);
void result_list_free(struct result_list *l);
void result_free(struct result *r);
/* Copy of value of key in a "k=v k=v" string into buf; returns buf, or NULL when absent. */
char *param_get(const char *params, const char *key, char *buf, size_t len);
/* 1 when two parameter strings name the same point. Equal strings are; beyond that a value
 * naming a scratch file (one plumb or lmbench creates and removes: a path whose last
 * component is lmbench's "XXX" or with a "plumb.*" private directory) is the same whatever
 * the temporary directory was: file=/var/tmp/XXX (lmbench) = file=/tmp/plumb.ID/XXX. */
int params_same(const char *a, const char *b);
/* A hash equal for any two parameter strings params_same() joins. */
uint64_t params_hash(const char *p);
/* 1 when two abscissas are the same point of a series: both NaN (a single value), or equal
 * within 5e-6 plus a millionth of their size. Why not exact: a point is also read back from
 * files, where lmbench printed MiB sizes with 5 decimals (0.00049 for 512 bytes: 1.7e-6 off)
 * and JSON writers may print fewer digits than a double has; a series' neighbouring x differ
 * by far more (lat_mem_rd's smallest step is 512 bytes = 4.9e-4 MiB, its steps above 1 KiB
 * are 1/16 of the size apart), so the tolerance never joins two real points. One rule for
 * run (a step's rounds), compare (runs side by side), summary and report (through compare). */
int x_same(double a, double b);
/* 1 when r is the point (metric, params, x): same metric, params_same(), x_same(). */
int point_same(const struct result *r, const char *metric, const char *params, double x);
/* Append "key=value" facts (printf format) to r->info. */
void result_add_info(struct result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* How far the reported value can be trusted: the half-width of the 95 % confidence interval of
 * the samples' median in % of the median (order statistics, n >= 6), or half the range in % for
 * 2..5 samples; NAN for fewer than 2 samples or a zero median. */
double result_noise_pct(const struct result *r);
/* A result is flagged noisy (summary, compare, run warnings) above this many percent. */
#define NOISY_PCT 5.0
/* The CPU clock a run read before every step moved "too much" above this spread, (P95 - P5) /
 * median in percent: plumb run warns, the summary says so (suite/clock_watch.h). */
#define CLOCK_SPREAD_WARN 3.0
/* A caveat is a reason, other than spread, not to read a result at face value: its samples can
 * be tight while the number still depends on something outside the benchmark. A benchmark
 * adds "caveat=WORD" to the result's info; summary and compare flag such cells as they flag
 * noisy ones. result_caveat() copies WORD into buf and returns it, or NULL when there is none;
 * caveat_text() says in one line what WORD means (WORD itself when plumb does not know it). */
const char *result_caveat(const struct result *r, char *buf, size_t len);
const char *caveat_text(const char *word);
#define CAVEAT_FS_HISTORY "fs-history"

/* Recompute r->value from the samples: stat_dir 0 = median, -1 = minimum, 1 = maximum
 * (metric_stat_dir() gives it for a metric). */
void result_update_value(struct result *r, int stat_dir);

#endif
