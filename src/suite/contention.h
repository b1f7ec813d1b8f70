/*
 * contention.h — other work on the machine during a run, watched step by step, not only at
 * the start (noise.c): before and after each step the CPU time every CPU spent busy and stolen
 * (/proc/stat) and the CPU time of this process and its reaped children (getrusage); what the
 * machine spent beyond ours is other processes' work. A step beside which others used more than
 * CONTENTION_PCT of all CPUs, or the hypervisor stole more than CONTENTION_STEAL_PCT, is
 * marked: the run's facts `contended_steps` (each with the share seen) and
 * `contention_max_pct`, and one warning at the end of the run. Steps too short for the clock
 * ticks /proc/stat counts in are judged together with the steps after them.
 */
#ifndef PLUMB_CONTENTION_H
#define PLUMB_CONTENTION_H

#include "results/run.h"

#define CONTENTION_PCT 10.0
#define CONTENTION_STEAL_PCT 5.0

struct cpu_sample {
	double busy, steal, total; /* seconds summed over all CPUs */
	double ours;               /* this process and its reaped children, seconds */
	double wall;               /* seconds, monotonic */
	int ok;
};

struct contention {
	struct cpu_sample before;
	struct cpu_sample window; /* the steps not judged yet: their own intervals, summed */
	int steps, marked;
	double max_pct, max_steal;
	char *list; /* "label (others 45%, steal 0%); ..." */
	size_t len;
	char *pending; /* labels of the steps in a window not judged yet ("a; b") */
	size_t plen;
	int npending;
};

/* Before a step. */
void contention_before(struct contention *c);
/* After it: marks the step (label) when others' share or steal passed the limits. */
void contention_after(struct contention *c, const char *label);
/* The facts and the warning at the end of the run; frees what c holds. */
void contention_end(struct contention *c, struct run *run,
		    void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2))));
/* The shares of one interval in percent of all CPUs' time: others' work and steal; 0 when the
 * interval is too short to tell (below a few clock ticks). */
int contention_shares(const struct cpu_sample *a, const struct cpu_sample *b, double *others,
		      double *steal);

#endif
