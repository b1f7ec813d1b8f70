/*
 * bisect_guard.h — what `plumb bisect-check` refuses to judge (bisect_guard.c): a baseline from
 * another machine, runs made beside other work, values no benchmark can give, and a look that
 * does not end within the bound its plan sets. Each gives git an answer that is not a verdict:
 * 125 (skip) or 128 (abort), with one line saying why.
 */
#ifndef PLUMB_BISECT_GUARD_H
#define PLUMB_BISECT_GUARD_H

#include <stddef.h>
#include "analysis/compare.h"
#include "results/run.h"

/* The steps a run marked as run beside other work (its contended_steps fact), or NULL. */
const char *bisect_contended(const struct run *r);
/* Drop the baseline's runs made beside other work (said in one line each); how many remain. */
size_t bisect_quiet_baseline(struct side *base);
/* 1 when the build under test's run was measured on another machine than the baseline's runs
 * (architecture, CPU model, emulation; the kernel unless across_kernels), why set. */
int bisect_foreign(const struct side *base, struct run *tested, int across_kernels, char *why,
		   size_t len);
/* 1 when a value of a named metric is impossible (not finite, not above 0, outside
 * 1e-9..1e12 of its unit), why naming it. */
int bisect_impossible(const struct side *s, char **names, int nnames, char *why, size_t len);
/* The watchdog's bound for one run of the build under test, in seconds: 3 x the baseline's
 * plan estimate or duration (the larger) + 60 s, never past the run options' --time-limit;
 * how says where it came from. */
double bisect_bound(const struct side *base, char **runargs, int nrunargs, char *how,
		    size_t len);

#endif
