/*
 * trend.h — `plumb trend`'s model: sides in a given order (versions: kernels, compilers,
 * boards), one row per metric point, each version's level with its 95 % interval and the
 * changes found along the series (docs/trend.md). The run is the unit of noise: a metric's
 * run-to-run noise is pooled over every version with two or more runs and moderated by the
 * default table (compare_est.h), changes are found by binary segmentation with a t test
 * (trend_cp.h), and the table's false changes are controlled over metrics (BH over each
 * metric's first test, then the metrics it selects split at the level it reached).
 */
#ifndef PLUMB_TREND_H
#define PLUMB_TREND_H

#include <stdio.h>
#include "analysis/compare.h"
#include "analysis/trend_cp.h"

/* One version of one metric point. */
struct trend_level {
	int present;
	size_t nruns;
	double value;     /* median of the version's round values, as compare shows it */
	double lo, hi;    /* 95 % interval of the version's level (geometric mean over its runs) */
};

/* A change of level: versions [.., at) then [at, ..). */
struct trend_change {
	size_t at;        /* index of the first version of the new level (a side index) */
	size_t from;      /* index of the last version before it that has the point */
	double est, lo, hi; /* percent, 95 % interval */
	double p;         /* two-sided p of the step between the two segments (uncorrected) */
	int worse;        /* 1 worse, -1 better, 0 a property without direction */
};

enum trend_status {
	TS_JUDGED,        /* searched for changes */
	TS_NEUTRAL,       /* a property of the machine (cache size): levels shown, not judged */
	TS_METHOD,        /* method versions differ along the series */
	TS_FEW,           /* present in fewer than 2 versions */
};

struct trend_row {
	const struct cmp_row *row; /* metric, params, x, unit, def, cells (borrowed from cmp) */
	struct trend_level *lv;    /* nsides */
	enum trend_status status;
	double noise_pct;          /* the run-to-run noise judged with, percent */
	double noise_df;           /* its degrees of freedom: the default table's + the series' */
	int pooled_df;             /* of which from the series (versions with 2+ runs) */
	int from_scatter;          /* one run per version: the noise is the series' own scatter
				    * (successive differences), the default table not used */
	double p_first, p_adj;     /* the whole series' best split, and corrected over the table */
	struct trend_change *ch;
	size_t nch;
	/* the series searched: levels of the versions that have the point (idx: their side
	 * indices), for the charts and for comparing methods on the same input */
	struct cp_series series;
	size_t *idx;
};

struct trend_table {
	struct cmp_opts o;
	struct cmp_table *cmp;     /* rows and cells; its warnings (facts that differ) */
	const struct side *sides;  /* borrowed */
	size_t nsides;
	struct trend_row *rows;    /* in the runs' order */
	size_t nrows;
	size_t ntested;            /* rows judged (the correction's family) */
	size_t nselected;          /* rows whose first test passed the correction */
	double level;              /* the level each selected row's further splits were tested at */
	size_t nchanges;
	double noise_scale;        /* the table's noise over the default table's (>= 1) */
};

struct trend_table *trend_build(const struct side *sides, size_t nsides, const struct cmp_opts *o);
void trend_free(struct trend_table *t);

/* Natural order of fact values ("6.9" < "6.10" < "6.10.1", "gcc-9" < "gcc-12"): digit runs
 * compare as numbers, everything else byte by byte. */
int trend_version_cmp(const char *a, const char *b);

/* The formats of compare (cmp_format_parse reads --format) but junit. */
void trend_print(FILE *f, const struct trend_table *t, enum cmp_format fmt);
/* "metric: +12.4 % [+9.1, +15.8] between A and B" (names escaped for a terminal) into buf. */
const char *trend_change_text(const struct trend_table *t, const struct trend_row *r,
			      const struct trend_change *c, char *buf, size_t len);

#endif
