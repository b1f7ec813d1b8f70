/*
 * run_cond.h — the conditions a run was measured under that change how its numbers read
 * (run_cond.c): user-mode emulation (the `emulated` fact: the numbers time an emulator on
 * another CPU, not the named architecture's hardware) and other work on the machine (the
 * `contention_max_pct` and `contended_steps` facts, suite/contention.c). Every place a run is
 * shown says them: summary, runs, compare, trend, report and the lmbench export's header.
 */
#ifndef PLUMB_RUN_COND_H
#define PLUMB_RUN_COND_H

#include <stddef.h>
#include "results/run.h"

/* "emulated (qemu-user on x86_64)", or NULL when the run does not say it was emulated. */
const char *run_emulation(const struct run *r, char *buf, size_t len);
/* The largest share of all CPUs other processes used beside one of the run's steps, percent;
 * NaN when the run did not watch (an imported lmbench file, an older plumb). */
double run_contention_pct(const struct run *r);
/* 1 when some step of the run ran beside other work past the limit (contended_steps). */
int run_contended(const struct run *r);
/* Both in a few words for a header or a column: "emulated (qemu-user on x86_64); contended
 * (others up to 45% of the CPUs)", "" when neither. Returns buf. */
const char *run_conditions(const struct run *r, char *buf, size_t len);
/* The same in two words for a column: "emulated", "contended 45%", "emulated, contended",
 * "" when neither. */
const char *run_conditions_short(const struct run *r, char *buf, size_t len);
/* The facts back from run_conditions' words (an lmbench export's "[CONDITIONS: ...]" header read
 * in again), so a re-imported run says them where it is shown; words it does not know are left. */
void run_conditions_back(struct run *r, const char *words);

#endif
