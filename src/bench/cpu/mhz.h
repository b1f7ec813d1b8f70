/*
 * mhz.h — the clock the core really runs at (turbo included), for the mhz tool and for any code
 * that wants to record it (the suite, reports converting ns to cycles).
 */
#ifndef PLUMB_BENCH_MHZ_H
#define PLUMB_BENCH_MHZ_H

#include "core/timing.h"

struct mhz_estimate {
	double mhz;          /* median over the accepted rounds */
	int mul_cycles;      /* latency of the cross-check multiply, in cycles */
	int rounds_ok;       /* rounds where the add and multiply chains agreed */
	int rounds;          /* rounds measured */
	const char *method;  /* "asm" or "c" (portable chains) */
	double round_mhz[32];/* the accepted rounds' figures */
	unsigned long long round_iters[32];
	double round_elapsed_ns[32];
};

/* Each measures under t (its placement; mhz brings its own sampling). */
/* Measure; 0 on success, -1 when the two chains never agreed well enough (system too busy). */
int mhz_estimate(struct timing_ctx *t, struct mhz_estimate *e);
/* The clock in MHz, or -1 when it cannot be found. Takes well under a second. */
double mhz_measure(struct timing_ctx *t);

/* A cheap reading of the clock right now (about 3 ms): the add chain alone, best of 5 samples of
 * 0.5 ms, no warm-up, no multiply cross-check. For watching the clock move during a suite run,
 * where mhz_measure() has validated the add-per-cycle assumption once. -1 on failure. */
double mhz_quick(struct timing_ctx *t);

#endif
