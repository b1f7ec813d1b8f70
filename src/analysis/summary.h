/*
 * summary.h — lmbench's summary tables (lmbench 3's scripts/getsummary, behind `make see`) from
 * runs: one row per run, lmbench's layout, column rules and number formatting, with values
 * below 0.001 printed properly where lmbench printed garbage.
 */
#ifndef PLUMB_SUMMARY_H
#define PLUMB_SUMMARY_H

#include <stdio.h>
#include "results/run.h"

void summary_print(FILE *f, struct run *const *runs, size_t n);
/* The stored results the tables' cells come from, one line each, tab-separated:
 * run index, metric, params, x, value, samples, noise %, caveat or "-" (for scripts:
 * bench/spread.py). */
void summary_cells(FILE *f, struct run *const *runs, size_t n);

#endif
