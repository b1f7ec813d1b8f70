/*
 * summary_tails.h — `plumb summary --tails`: lat_tail's percentiles as a table (summary_tails.c).
 */
#ifndef PLUMB_SUMMARY_TAILS_H
#define PLUMB_SUMMARY_TAILS_H

#include <stdio.h>
#include "results/run.h"

/* A row per run and lat_tail operation: p50 p90 p99 p99.9 max in microseconds, the worst
 * single operation of the run, and the widest percentile interval. 0, or -1 when no run
 * holds lat_tail results (a line says so). */
int summary_tails(FILE *f, struct run *const *runs, size_t n);

#endif
