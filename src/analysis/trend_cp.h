/*
 * trend_cp.h — change points in one metric's series of levels (docs/trend.md, "Change
 * points"): each version's level on the log scale with the variance of that level (the run is
 * the unit of noise, so it is the series' run-to-run variance over the version's runs) and the
 * degrees of freedom of that noise estimate. Two methods: binary segmentation with a t test
 * (what `plumb trend` uses: it gives p-values, which the table's correction needs) and PELT with
 * a penalty (kept for the comparison in docs/trend.md and its unit test).
 */
#ifndef PLUMB_TREND_CP_H
#define PLUMB_TREND_CP_H

#include <stddef.h>
#include "analysis/compare_est.h"

struct cp_series {
	size_t n;          /* versions, every one with a level */
	const double *y;   /* level of version i (mean log value) */
	const double *var; /* variance of y[i] (> 0) */
	double df;         /* degrees of freedom of the noise behind var */
};

/* The best single split of versions [a, b): at is the first version of the new level; t the
 * Welch-free t of (right level - left level), each side's level the inverse-variance weighted
 * mean of its versions; p its two-sided p times the b - a - 1 candidate positions (Bonferroni
 * over the positions: the largest of many t's is not one t), at most 1. p = 1 with fewer than
 * two versions. */
struct cp_split {
	size_t at;
	double t, p;
};
struct cp_split cp_best_split(const struct cp_series *s, size_t a, size_t b);

/* Binary segmentation: split [0, n) at its best split while its p < level, then each part
 * likewise. Writes the change positions in increasing order to at (at most max); returns how
 * many. */
size_t cp_binseg(const struct cp_series *s, double level, size_t *at, size_t max);

/* PELT (pruned optimal partitioning): the segmentation that minimizes the sum over segments of
 * the weighted squared deviations from the segment's level (in units of each version's
 * variance) plus penalty per change. Same output as cp_binseg. */
size_t cp_pelt(const struct cp_series *s, double penalty, size_t *at, size_t max);

/* The step at version `at` between segments [a, at) and [at, b): right level - left level on
 * the log scale, its variance and degrees of freedom (s->df). */
struct log_est cp_step(const struct cp_series *s, size_t a, size_t at, size_t b);

#endif
