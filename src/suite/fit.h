/*
 * fit.h — the suite's time budget. Every profile has one (quick 32 s, default 150 s, full
 * 14 min: the goals of docs/suite.md with a margin), and `plumb run --time-limit DURATION` sets
 * another. plan_fit() builds the plan and, while its estimate (plan.c's cost model) is over
 * the budget, gives up in this order: sizes (every series thinned to the points lmbench's
 * summary reads; the memory series' top halved down to 64 MiB when that alone is enough), then
 * rounds (down to one), then the memory series' top, then whole tools (the most expensive
 * first, never the last tool of a budget group (plan.h) nor the run's facts). What it gave up
 * is returned so that the run records it: never a silently shortened run.
 */
#ifndef PLUMB_RUN_FIT_H
#define PLUMB_RUN_FIT_H

#include "suite/plan.h"

struct plan_fit {
	double budget;        /* in: seconds */
	int rounds_asked;     /* in: rounds the profile or --repeat asks */
	int rounds;           /* out: rounds kept */
	int thinned;          /* out: series thinned to the summary's sizes */
	uint64_t mem_asked;   /* out: the memory series' top before fitting (c->mem_bytes after) */
	char dropped[1024];   /* out: tools left out, comma-separated ("" = none) */
	int ndropped;
	double est;           /* out: estimated seconds of the plan kept */
	double min_est;       /* out: the smallest plan (thinned, one round, a tool per budget
			       * group) */
	int fits;             /* out: est <= budget */
};

/* The profile's own budget in seconds. */
double plan_budget(enum profile p);
/* Build c's plan into p, fitted to f->budget (c->thin may be set on return). sel says which
 * steps the run keeps (--only, --skip, built in; NULL: all). */
void plan_fit(struct plan *p, struct plan_cfg *c, int (*sel)(const struct step *, void *),
	      void *arg, struct plan_fit *f);
/* "90s", "5m", "1h", "1m30s", "120" (seconds): the seconds, or -1 when it is none of them. */
double parse_duration(const char *s);

#endif
