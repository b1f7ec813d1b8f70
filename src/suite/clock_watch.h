/*
 * clock_watch.h — watch the CPU clock through a suite run. On a shared host the clock the guest
 * gets moves by several percent within seconds (turbo shared with other tenants), and every
 * CPU-bound number moves with it; a benchmark's own samples cannot show that, because they are
 * all taken inside one such moment. So the run reads the clock (bench/cpu/mhz.c's mhz_quick(), on
 * the benchmarks' CPU) a few times at the start and once before every step, records what it saw
 * as facts, and warns when it moved more than a CPU-bound number could be trusted to.
 */
#ifndef PLUMB_RUN_CLOCK_H
#define PLUMB_RUN_CLOCK_H

#include <stddef.h>
#include "core/result.h" /* CLOCK_SPREAD_WARN */
#include "core/timing.h"
#include "results/run.h"

struct clock_watch {
	double *mhz;
	size_t n, cap;
	size_t nstart;     /* the first nstart readings were taken back to back at the start */
	struct timing_ctx *timing; /* where the readings are taken: the benchmarks' placement */
};

/* One reading now; returns it (MHz) or -1. */
double clock_watch_probe(struct clock_watch *w);
/* The start: k readings back to back, recorded as clock_start_* facts; warns when they spread
 * more than CLOCK_SPREAD_WARN. */
void clock_watch_start(struct clock_watch *w, struct run *run, int k,
		       void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2))));
/* The end: clock_mhz (median of every reading), clock_mhz_p5/p95/min/max, clock_spread_pct,
 * clock_readings; warns like the start. Frees the readings. */
void clock_watch_end(struct clock_watch *w, struct run *run,
		     void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2))));
/* (P95 - P5) / median of v[0..n) in percent (*lo = P5, *hi = P95); NAN for n < 2. */
double clock_spread_pct(const double *v, size_t n, double *min, double *med, double *max);

#endif
