/* clock_watch.c — the CPU clock through a suite run (see clock_watch.h). */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench/cpu/mhz.h"
#include "suite/clock_watch.h"
#include "core/stats.h"
#include "core/sysinfo.h"
#include "core/util.h"

double clock_watch_probe(struct clock_watch *w)
{
	/* measure() places the caller on the benchmarks' CPU: read the clock there, then give the
	 * suite process its own affinity back. */
	cpu_set_t saved;
	int have = sched_getaffinity(0, sizeof saved, &saved) == 0;
	double v = mhz_quick(w->timing);
	if (have)
		(void)sched_setaffinity(0, sizeof saved, &saved);
	if (!(v > 0))
		return -1;
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->mhz = xrealloc(w->mhz, w->cap * sizeof *w->mhz);
	}
	w->mhz[w->n++] = v;
	return v;
}

double clock_spread_pct(const double *v, size_t n, double *lo, double *med, double *hi)
{
	if (n < 2)
		return NAN;
	/* 5th to 95th percentile: one reading taken while the vCPU was descheduled (seen: 3044
	 * among 547 readings of 3900-4224 MHz) says little about the clock the steps ran on */
	*lo = stats_percentile(v, n, 5);
	*hi = stats_percentile(v, n, 95);
	*med = stats_median(v, n);
	return *med > 0 ? (*hi - *lo) / *med * 100 : NAN;
}

static void fact(struct run *run, const char *key, const char *fmt, double v)
{
	char b[64];
	snprintf(b, sizeof b, fmt, v);
	kv_set(&run->facts, key, b);
}

void clock_watch_start(struct clock_watch *w, struct run *run, int k,
		       void (*warn)(const char *fmt, ...))
{
	for (int i = 0; i < k; i++)
		clock_watch_probe(w);
	w->nstart = w->n;
	double lo, med, hi, sp = clock_spread_pct(w->mhz, w->n, &lo, &med, &hi);
	if (isnan(sp))
		return;
	fact(run, "clock_start_mhz_min", "%.0f", lo); /* P5 and P95, as the spread */
	fact(run, "clock_start_mhz_max", "%.0f", hi);
	fact(run, "clock_start_spread_pct", "%.1f", sp);
	if (sp > CLOCK_SPREAD_WARN)
		warn("the CPU clock moved by %.1f%% (%.0f-%.0f MHz, 5th-95th percentile) within %d "
		     "readings a few ms apart: "
		     "CPU-bound numbers can move as much from run to run", sp, lo, hi, k);
}

void clock_watch_end(struct clock_watch *w, struct run *run, void (*warn)(const char *fmt, ...))
{
	double lo, med, hi, sp = clock_spread_pct(w->mhz, w->n, &lo, &med, &hi);
	if (!isnan(sp) && sys_emulated(NULL, 0, NULL, 0)) {
		/* an emulated chain of adds times the emulator, not a CPU: no clock to judge by */
		fact(run, "clock_mhz_emulated", "%.0f", med);
	} else if (!isnan(sp)) {
		fact(run, "clock_mhz", "%.0f", med);
		fact(run, "clock_mhz_p5", "%.0f", lo);
		fact(run, "clock_mhz_p95", "%.0f", hi);
		fact(run, "clock_mhz_min", "%.0f", stats_min(w->mhz, w->n));
		fact(run, "clock_mhz_max", "%.0f", stats_max(w->mhz, w->n));
		fact(run, "clock_spread_pct", "%.1f", sp);
		fact(run, "clock_readings", "%.0f", (double)w->n);
		if (sp > CLOCK_SPREAD_WARN)
			warn("the CPU clock ranged over %.1f%% during the run (%.0f-%.0f MHz from the 5th "
			     "to the 95th percentile of %zu readings, median %.0f): compare runs with "
			     "several rounds, or on a quieter machine", sp, lo, hi, w->n, med);
	}
	free(w->mhz);
	w->mhz = NULL;
	w->n = w->cap = w->nstart = 0;
}
