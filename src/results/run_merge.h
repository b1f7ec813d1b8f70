/*
 * run_merge.h — many runs into one run per host (run_merge.c), for lmbench's multi-host tables:
 * one row per board however many runs of it a store holds.
 */
#ifndef PLUMB_RUN_MERGE_H
#define PLUMB_RUN_MERGE_H

#include <stddef.h>
#include "results/run.h"

/* One new run per distinct host of runs (in order of first appearance), pooling that host's runs
 * as rounds (each run once, by uid). *out is malloc'd; returns its length. runs are unchanged. */
size_t runs_merge_by_host(struct run *const *runs, size_t n, struct run ***out);

#endif
