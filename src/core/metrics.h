/*
 * metrics.h — the metric registry. Every metric is declared once, in the file of the tool that
 * records it (src/bench/FAMILY/TOOL.c, beside its tools[] table), as a `struct metric_def` row
 * written with the macros below; mk/registry.sh collects the files' tables into the registry
 * (build/registry_gen.c) and every layer looks metrics up here: none keeps its own list of
 * names, units, methods or noise.
 */
#ifndef PLUMB_METRICS_H
#define PLUMB_METRICS_H

#include <stddef.h>
#include <stdio.h>

enum better { LOWER, HIGHER, NEUTRAL };
/* BEST is lmbench's "minimum": the sample that took least time, which is the smallest value of
 * a lower-is-better metric and the largest of a higher-is-better one (bandwidth, parallelism). */
enum statistic { MEDIAN, BEST };

/* The run-to-run noise compare assumes for a metric until the store has history of it
 * (bench/README.md, "Run-to-run noise: the default table"). Every figure is measured. */
struct metric_noise {
	const char *group; /* the noise group ("syscall", "ops", ...): metrics whose paired
			    * variances compare pools, and the name in its messages; NULL = none
			    * declared, which the registry's check refuses */
	double run;        /* run-to-run standard deviation of a run's log value, raw */
	double run_eq;     /* the same at equal clock (used when clock) */
	double pair;       /* floor of one paired round's log-ratio sd in `plumb ab` (0: none) */
	double df;         /* what the figures are worth: the runs measured, less one */
	int clock;         /* 1: the cost follows the core clock, so compare also judges it at
			    * equal clock (bench/README.md, "Which metrics follow the clock") */
	double run_effect; /* the part of run (sd) that separates runs beyond their rounds' noise,
			    * measured on runs of many rounds; the rest of run, measured on runs of
			    * NOISE_ROUNDS rounds, is round noise and falls as 1/rounds
			    * (default_run_noise_at). 0: not separated, run holds at any rounds */
};

/* The rounds of the runs the declared run figures were measured on (the default profile's 3). */
#define NOISE_ROUNDS 3

struct metric_def {
	const char *id;           /* stable "tool.what"; never reused for another meaning */
	const char *unit;         /* "us" "ns" "MB/s" "KB/s" "MiB" "MB" "MHz" "bytes" "pages" "x" "/s" "ms" */
	enum better better;       /* a property of the machine, not good or bad */
	enum statistic stat;      /* the statistic lmbench reports for it */
	int version;              /* method version: bumped whenever what it measures changes */
	const char *desc;         /* one line: what it is */
	const char *line;         /* lmbench line: {name} a parameter, %v the value (vfmt), %x the
				   * series abscissa (xfmt); NULL = the tool prints it (out_printf)
				   * and results/lmbench_write.c writes it back */
	const char *xfmt, *vfmt;  /* printf formats, or "bw" (lmbench's "%.6f if < 1 else %.2f"),
				   * or "micromb" (lat_mmap: %.0f if >= 10) */
	const char *series_title; /* the header printed before a series, or NULL */
	const char *work;         /* the unit of work one timed iteration performs, and how the
				   * value is derived from it */
	const char *subtracted;   /* what is subtracted from the timed span */
	const char *lmbench;      /* how it differs from lmbench 3's operation; "" = the same.
				   * Every metric whose version is above 1 says here why. */
	struct metric_noise noise;
	/* The steady figure's noise (STEADY()): a row that declares it has a twin metric
	 * "<id>.steady" in the registry, the median of single operations or short batches within
	 * each sample (core/timing.h, "The steady figure"), which verdicts judge by default.
	 * group NULL: no steady figure (a bandwidth, a figure derived from several latencies). */
	struct metric_noise steady;
	/* In a twin the registry made: the row whose steady figure it is (NULL elsewhere). */
	const struct metric_def *steady_of;
	int place;                /* its place in the registry's order among the rows of files
				   * with the same metric ORDER; 0 = as written (see metric_set) */
};

/* A metric row, in a tool file's `const struct metric_def metrics[]` (ended by { 0 }):
 *   { METRIC(id, unit, better, statistic, version, description),
 *     LMBENCH(line, xfmt, vfmt, series_title),
 *     METHOD(work, subtracted, difference from lmbench),
 *     NOISE(group, run, run_eq, pair, df, FOLLOWS_CLOCK or OWN_PACE) }, or NOISE_R(..., effect) */
#define METRIC(id_, unit_, better_, stat_, version_, desc_)                                     \
	.id = id_, .unit = unit_, .better = better_, .stat = stat_, .version = version_, .desc = desc_
#define LMBENCH(line_, xfmt_, vfmt_, title_)                                                    \
	.line = line_, .xfmt = xfmt_, .vfmt = vfmt_, .series_title = title_
#define METHOD(work_, subtracted_, lmbench_)                                                    \
	.work = work_, .subtracted = subtracted_, .lmbench = lmbench_
/* No run effect declared (0): the declared run-to-run figure is used as measured. */
#define NOISE(group_, run_, run_eq_, pair_, df_, clock_)                                        \
	.noise = { group_, run_, run_eq_, pair_, df_, clock_, 0 }
/* The same with the run effect measured apart (struct metric_noise, run_effect). */
#define NOISE_R(group_, run_, run_eq_, pair_, df_, clock_, effect_)                             \
	.noise = { group_, run_, run_eq_, pair_, df_, clock_, effect_ }
/* The steady twin's noise, measured as the row's own (bench/README.md, "Steady figures"). */
#define STEADY(group_, run_, run_eq_, pair_, df_, clock_, effect_)                              \
	.steady = { group_, run_, run_eq_, pair_, df_, clock_, effect_ }
/* The suffix of a steady twin's id. */
#define STEADY_SUFFIX ".steady"
#define FOLLOWS_CLOCK 1
#define OWN_PACE 0
/* Not measured yet: the conservative figure compare has always assumed for such a metric. */
#define NOISE_UNMEASURED NOISE("other", 0.20, 0.20, 0, 4, OWN_PACE)
/* What most metrics subtract: no empty-loop cost is ever subtracted (core/timing.c). */
#define SUB_CLOCK "the clock's read cost, once per sample"
#define SUB_NOTHING "nothing (one pass is timed whole)"

/* One file's metrics, in its descriptor (bench/tool.h). The registry lists every file's rows by
 * ascending order, then place (or the row's position when place is 0): the order of
 * docs/metrics.md, `plumb list --json` and report pages. Two files share an order only when
 * their rows interleave by place (lat_ops and par_ops). */
struct metric_set {
	const struct metric_def *defs; /* ends with a zeroed row */
	int order;
};

/* Generated by mk/registry.sh (build/registry_gen.c): every tool file's set, and every tool
 * with the set of its file; both end with a zeroed entry. */
extern const struct metric_set *const metric_sets[];
struct metric_owner {
	const char *tool;
	const struct metric_set *set;
};
extern const struct metric_owner metric_owners[];

/* The i-th metric of the registry in its order, or NULL past the last. */
const struct metric_def *metric_at(int i);
/* How many metrics the registry has. */
int metric_total(void);
/* The definition of id, or NULL when plumb does not know it. */
const struct metric_def *metric_find(const char *id);
/* Whether tool may record id: 0, or -1 with why (id unknown, declared by another tool's file,
 * or declared without noise). A tool plumb does not know (a test's) may record any known id. */
int metric_check_record(const char *tool, const char *id, char *why, size_t len);
/* Whether the rows of s are complete (id, unit, version, description, method, noise): 0, or -1
 * with why. */
int metric_set_check(const struct metric_set *s, char *why, size_t len);
/* docs/metrics.md: every metric, its unit of work, subtraction, statistic, version and
 * difference from lmbench, as Markdown. -1 when a metric lacks its method. */
int metrics_doc(FILE *f);
const char *better_name(enum better b);
const char *stat_name(enum statistic s);
/* The steady twin of d (the metric "<d->id>.steady"), or NULL when d declares none. */
const struct metric_def *metric_steady(const struct metric_def *d);
/* 1 when the reported statistic of d is the maximum of the samples, -1 the minimum, 0 median. */
int metric_stat_dir(const struct metric_def *d);

#endif
