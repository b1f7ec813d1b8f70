/*
 * summary.h — lmbench's summary tables (lmbench 3's scripts/getsummary, behind `make see`) from
 * runs: one row per run, lmbench's layout, column rules and number formatting, with values
 * below 0.001 printed properly where lmbench printed garbage. A table shown at all shows every
 * run's row (blank where a run has no value), and rows that share host and OS name their run
 * in the OS column.
 */
#ifndef PLUMB_SUMMARY_H
#define PLUMB_SUMMARY_H

#include <stdio.h>
#include "results/run.h"

void summary_print(FILE *f, struct run *const *runs, size_t n);
/* The same tables as a document a wiki or a browser takes: a facts header (CPU, measured MHz,
 * kernel, architecture, compiler and flags, memory, date, one row per run), then every table
 * with a row per run (a missing value is "-"), then the notes. Every text from a run escaped
 * for the format (core/escape.h). */
enum summary_format { SUM_TEXT, SUM_MARKDOWN, SUM_HTML, SUM_MEDIAWIKI };
/* Under the tables: every noisy or caveat cell when set, else their count and the worst few
 * (summary --noisy sets it; summary_noisy.c). */
extern int summary_noisy_all;
int summary_format_parse(const char *s, enum summary_format *f); /* 0, or -1 when unknown */
void summary_print_doc(FILE *f, struct run *const *runs, size_t n, enum summary_format fmt);
/* The stored results the tables' cells come from, one line each, tab-separated:
 * run index, metric, params, x, value, samples, noise %, caveat or "-" (for scripts:
 * bench/spread.py). */
void summary_cells(FILE *f, struct run *const *runs, size_t n);

#endif
