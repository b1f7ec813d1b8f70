/*
 * run.h — the in-memory model of one run: what `plumb run` measures, what an imported lmbench
 * results file or plumb JSON file holds, what the store keeps, and what summary, compare and
 * report read. One model, written and read by every format:
 *   results/json_write.c, json_read.c     plumb JSON (docs/json-schema.md, "kind": "run")
 *   results/lmbench_write.c, lmbench_read.c   lmbench 3 raw results text
 *   results/store.c                       the SQLite store (docs/store-schema.md)
 */
#ifndef PLUMB_RUN_H
#define PLUMB_RUN_H

#include <stddef.h>
#include "core/result.h"

struct point_index;

struct kv {
	char *key, *val;
};

struct kv_list {
	struct kv *v;
	size_t n, cap;
};

/* Set key (replacing an existing value); get returns NULL when absent. */
void kv_set(struct kv_list *l, const char *key, const char *val);
const char *kv_get(const struct kv_list *l, const char *key);
void kv_free(struct kv_list *l);

/* A run's identity: 32 lowercase hex digits (128 bits), see run_uid.c. */
#define RUN_UID_LEN 32

struct run {
	long id;               /* store id; 0 when not stored */
	char *uid;             /* identity across stores and files (run_uid.c); NULL until set */
	int dup;               /* set by store_save_all: the store already held it (id is that run's) */
	char *label;           /* user's label (--label), may be NULL */
	char *host;            /* hostname the run was made on */
	char *profile;         /* "quick", "default", "full", "tool" or "lmbench" (imported) */
	char *source;          /* "plumb" or "lmbench3"; for imports also the file: "lmbench3:PATH" */
	char *started, *ended; /* ISO 8601 UTC, e.g. 2026-11-30T04:12:00Z */
	int incomplete;        /* stopped early (Ctrl-C, a family failed): what was measured is kept */
	int rounds;            /* interleaved rounds (--repeat), 1 otherwise */
	/* System facts (sysinfo keys), build facts, and the options used as "opt.NAME"; for an
	 * imported lmbench file its [KEY: value] header lines as "lmbench.KEY". */
	struct kv_list facts;
	struct result_list results;
	/* Lookup of results by point, built on first use by run_point() and rebuilt when the
	 * number of results changed; a cache, owned by the run. */
	struct point_index *index;
};

struct run *run_new(void);
void run_free(struct run *r);
/* The result of metric with exactly these params (and x, when x is not NaN), or NULL. */
struct result *run_find(const struct run *r, const char *metric, const char *params, double x);

/* Limits on what a user writes, the same at every entry (a file, a store, --label, --relabel):
 * a label, a host, a fact's name, a metric name or a unit at most RUN_TEXT_MAX bytes; a fact's
 * value, a result's parameters or info at most RUN_FACT_MAX; a start or end time RUN_TIME_MAX. */
#define RUN_TEXT_MAX 256
#define RUN_FACT_MAX 65536
#define RUN_TIME_MAX 64
/* The one test of a run every reader and store writer applies (results/run_check.c): every
 * text within its limit, every number one a measurement can give (value_check: finite, neither
 * zero nor negative unless the metric is a difference, within its unit's plausible range; counts
 * and times not negative, rounds >= 1). 0, or -1 with
 * why set to one line saying what is wrong (the run is not named: see run_what). */
int run_check(const struct run *r, char *why, size_t len);
/* One value of metric (unit: the file's, when plumb does not know the metric): 0, or -1 with why
 * naming the metric, the value and what is wrong with it (run_check.c's rules). */
int value_check(const char *metric, const char *unit, double v, char *why, size_t len);
/* A label or host given on a command line: 0, or -1 with why ("the label is longer ..."). */
int run_text_check(const char *what, const char *s, char *why, size_t len);
/* How messages name a run: "run 12 (uid 0123...)", "run 0123..." (a file's), "a run". */
const char *run_what(const struct run *r, char *buf, size_t len);

/* The first result that is the point (metric, params, x) by point_same(), or NULL: the same
 * answer as scanning results in order, in constant time (core/point_index.h). */
const struct result *run_point(const struct run *r, const char *metric, const char *params,
			       double x);

/* 1 when s is a well-formed uid (RUN_UID_LEN lowercase hex digits). */
int uid_valid(const char *s);
/* A fresh random uid: what `plumb run` gives the run it makes. */
void run_set_new_uid(struct run *r);
/* The uid of a run that came without one: a hash of its content (not label or source). */
void run_set_content_uid(struct run *r);

#endif
