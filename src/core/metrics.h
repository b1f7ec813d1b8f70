/*
 * metrics.h — the metric registry (data in metrics.def). Every layer looks metrics up here;
 * none keeps its own list of names.
 */
#ifndef PLUMB_METRICS_H
#define PLUMB_METRICS_H

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

extern const struct metric_def metric_table[];
extern const int metric_count;

/* The definition of id, or NULL when plumb does not know it. */
const struct metric_def *metric_find(const char *id);
const char *better_name(enum better b);
const char *stat_name(enum statistic s);
/* 1 when the reported statistic of d is the maximum of the samples, -1 the minimum, 0 median. */
int metric_stat_dir(const struct metric_def *d);

#endif
