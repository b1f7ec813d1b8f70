/*
 * metrics.h — the metric registry (data in metrics.def). Every layer looks metrics up here;
 * none keeps its own list of names.
 */
#ifndef PLUMB_METRICS_H
#define PLUMB_METRICS_H

#include <stdio.h>

enum better { LOWER, HIGHER, NEUTRAL };
/* BEST is lmbench's "minimum": the sample that took least time, which is the smallest value of
 * a lower-is-better metric and the largest of a higher-is-better one (bandwidth, parallelism). */
enum statistic { MEDIAN, BEST };

struct metric_def {
	const char *id;
	const char *unit;
	enum better better;
	enum statistic stat;
	int version;
	const char *line;         /* lmbench line template, NULL = formatted by code */
	const char *xfmt, *vfmt;  /* printf formats, or "bw" / "micromb" */
	const char *series_title; /* header before a series in a results file, or NULL */
	const char *desc;
};

/* What a metric is, for people quoting it (metrics_method.def; docs/metrics.md). */
struct metric_method {
	const char *id;
	const char *work;       /* the unit of work timed and how the value is derived */
	const char *subtracted; /* what is subtracted from the timed span */
	const char *lmbench;    /* how it differs from lmbench 3's operation; "" = the same */
};

extern const struct metric_def metric_table[];
extern const struct metric_method metric_method_table[];
extern const int metric_method_count;
extern const int metric_count;

/* The definition of id, or NULL when plumb does not know it. */
const struct metric_def *metric_find(const char *id);
/* The method description of id, or NULL. */
const struct metric_method *metric_method(const char *id);
/* docs/metrics.md: every metric, its unit of work, subtraction, statistic, version and
 * difference from lmbench, as Markdown. -1 when a metric lacks its description. */
int metrics_doc(FILE *f);
const char *better_name(enum better b);
const char *stat_name(enum statistic s);
/* 1 when the reported statistic of d is the maximum of the samples, -1 the minimum, 0 median. */
int metric_stat_dir(const struct metric_def *d);

#endif
