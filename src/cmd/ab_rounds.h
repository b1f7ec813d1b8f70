/*
 * ab_rounds.h — a sequential `plumb ab` session's bookkeeping (ab_rounds.c): each round is run by
 * a fresh worker process per side, whose run (one round) is pooled into the side's session run;
 * which step made which point, so that later rounds run only the steps of undecided points; and
 * the seeded order within each pair.
 */
#ifndef PLUMB_AB_ROUNDS_H
#define PLUMB_AB_ROUNDS_H

#include <stddef.h>
#include <stdint.h>
#include "results/run.h"

/* Add one worker's run (a single round, numbered 0) to the side's session run as round r. */
void ab_pool_round(struct run *acc, const struct run *one, int r);
/* After the last round: each point's value is its metric's statistic over every round, the
 * run's rounds are rounds, and clock_mhz is the median of the workers' (clocks[n]). */
void ab_close_side(struct run *acc, int rounds, const double *clocks, size_t n);

/* Which step made each point: learnt from the results a worker held after each step. */
struct ab_point_map {
	struct ab_point {
		char *metric, *params;
		double x;
		int step;
	} *v;
	size_t n;
};
/* Points [from, to) of run r were made by step. Points already known keep their step. */
void ab_map_points(struct ab_point_map *m, const struct run *r, size_t from, size_t to, int step);
/* The step of a point; -1 when not known. */
int ab_point_step(const struct ab_point_map *m, const char *metric, const char *params, double x);
void ab_map_free(struct ab_point_map *m);

/* xorshift64*: the order of A and B within each pair, reproducible from the recorded seed. */
int ab_coin(uint64_t *state);

/* Fit the next round into `left` seconds, each active step as long as it took (cost): when it
 * does not fit, the dearest active steps stop first (active 0, frozen 1, *nfrozen counted) and
 * the cheap ones go on. A stopped step's points keep their rounds and are judged on them at
 * each later look, at that look's nominal level, below alpha (docs/compare.md, "Sequential
 * sessions"). 0 when a round is to run, -1 when no active step is left. */
int ab_fit_round(int *active, int *frozen, const double *cost, size_t n, double left,
		 size_t *nfrozen);
/* "; N dearest steps stopped for time, the cheaper ran on", or "" when none was. */
const char *ab_frozen_note(size_t nfrozen, char *buf, size_t len);

#endif
