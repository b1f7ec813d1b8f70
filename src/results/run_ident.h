/*
 * run_ident.h — what tells runs apart for a reader (run_ident.c): the architecture, a short
 * name of the build, the scope (--only) and the duration of a run, and the facts that must agree
 * before runs are pooled into one row or one side (summary --per-host, a label in compare).
 */
#ifndef PLUMB_RUN_IDENT_H
#define PLUMB_RUN_IDENT_H

#include <stddef.h>
#include "results/run.h"

/* The run's architecture: its arch fact, else machine (uname -m); NULL when unknown. */
const char *run_arch(const struct run *r);
/* The compiler and its optimisation flags in a few words ("gcc 12.2.0 -O2", "clang 14.0.6 -O0
 * -static"), "-" when the run does not say (an imported lmbench file). Returns buf. */
const char *run_build_short(const struct run *r, char *buf, size_t len);
/* What the run measured: its --only list, else "all" (a plumb run), else "-". */
const char *run_scope(const struct run *r);
/* Seconds from start to end; NaN when either time is unknown. */
double run_duration_s(const struct run *r);
/* "12m05s", "48s", "-". Returns buf. */
const char *run_duration_str(const struct run *r, char *buf, size_t len);

/* How a message names a run given as argument index i: "run 12 (label v1)", "run 12", or for a
 * file's run "file run 2 (label x)". Returns buf. */
const char *run_who(const struct run *r, size_t i, char *buf, size_t len);

/* Whether runs may be pooled: 0 when their architecture, CPU model, build (compiler and
 * flags) and kernel agree (a fact one run lacks is not a difference), else 1 with why set to
 * one line naming the fact and two runs that differ in it ("architecture differs: run 3 has
 * x86_64, run 7 has aarch64"). */
int runs_pool_split(struct run *const *runs, size_t n, char *why, size_t len);
/* Whether runs were measured on different machines: 0 when their architecture, CPU model,
 * kernel (when kernel is nonzero) and emulation agree (a fact one run lacks is no
 * difference), else 1 with why as runs_pool_split says it. A verdict across machines is no
 * verdict on a change (bisect-check, compare and trend --fail-on-regression). */
int runs_machine_split(struct run *const *runs, size_t n, int kernel, char *why, size_t len);

#endif
