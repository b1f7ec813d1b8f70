/*
 * run.h — the suite's entry point: `plumb run` with its options parsed (by the run command,
 * cmd/run.c, with cmd/run_opts.c) into o, run holding what the parser recorded; ab_path: run as
 * a side of `plumb ab` (--ab-worker=PATH). The suite takes o's strings and run over. Returns
 * the exit status; see suite.c and docs/suite.md.
 */
#ifndef PLUMB_SUITE_RUN_H
#define PLUMB_SUITE_RUN_H

#include "results/run.h"
#include "suite/run_opts.h"

int suite_main(const struct run_opts *o, struct run *run, const char *ab_path);

#endif
