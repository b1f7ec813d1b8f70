/*
 * timing.h — the timing core: the one way every benchmark is measured.
 *
 * A benchmark describes its operation as a bench_op: setup once per process, then a loop that
 * performs the operation `iters` times, which the core times. measure() then
 *   1. pins the process (cpu.h, by the placement in its timing_ctx), runs setup,
 *   2. calibrates the iteration count until one sample lasts at least the minimum sample time
 *      (the calibration doubles as warm-up), then runs -W microseconds more warm-up,
 *   3. takes -N samples of that fixed count (more, up to a cap, when adaptive stopping is on
 *      and the median's confidence interval is still wide),
 *   4. subtracts the clock's read cost (per sample; never the empty loop's cost, which overlaps
 *      the body on an out-of-order core), and keeps every sample: value (ns per iteration,
 *      the operation and its loop), iterations, and the raw elapsed time,
 *   5. with -P N runs N copies in separate processes, started together after all are
 *      calibrated, and merges their samples (lmbench's benchmp).
 * The steady figure (issue 33): a sample is a batch mean, so it carries every interruption that
 * fell inside it (a neighbour's time slice, a host tick, a migration); on a shared machine that
 * is most of the run-to-run noise. A measurement whose bench_op asks for it (steady = 1) also
 * keeps, per sample, the median of single operations: an operation that lasts STEADY_SPLIT_NS
 * or more is timed alone inside lmbench's own sample (consecutive clock reads, each the end of
 * one operation and the start of the next, so lmbench's figure gains one clock read per
 * operation: under 0.2 %); a shorter one is timed in short batches of at least STEADY_BATCH_NS
 * (most of which see no interruption) in a pass of an eighth of the sample's operations right
 * after it, outside lmbench's span. The clock's read cost is subtracted once per timed
 * operation or batch. record_latency() stores it as the metric's twin "<id>.steady".
 * The benchmark then converts ns/iteration to its metric with record_latency(),
 * record_bandwidth() or record_values() (out.h). No benchmark reads the clock for itself except
 * through timing_now() inside measure()-driven code that times a different span on purpose.
 */
#ifndef PLUMB_TIMING_H
#define PLUMB_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include "core/cpu.h"
#include "core/result.h"
#include "core/side.h"

/* Options shared by every measurement of this process (command line, environment, plumb run). */
struct timing_opts {
	int parallel;          /* -P: copies measured at once (default 1) */
	uint64_t warmup_us;    /* -W: extra warm-up before the first sample */
	int repetitions;       /* -N: samples per copy (0 = default 11) */
	double min_sample_ns;  /* minimum sample length (0 = ENOUGH or the default) */
	int max_samples;       /* adaptive stopping cap (0 = off: exactly repetitions) */
	double target_ci;      /* adaptive: stop when the 95% CI of the median is within this
				  fraction of the median (e.g. 0.01) */
	int round;             /* interleaved round the samples belong to */
};

/* A tool's own sampling defaults (in its descriptor's options, opts.h) or one measurement's
 * (bench_op.sampling). Zero fields are "not set". A tool's defaults yield to the user's -N and
 * to --min-sample or ENOUGH; a bench_op's repetitions are forced (and switch adaptive stopping
 * off), and with `own` its minimum sample and warm-up are forced too (mhz's own sampling). */
struct timing_defaults {
	double min_sample_ns;
	int repetitions;
	uint64_t warmup_us;
	int own;
};

/* Everything a measurement needs besides its operation: the user's sampling choices, the
 * running tool's defaults, where its processes run, which -P copy this process is. A tool's
 * context carries one (tool_ctx.timing, set up once by tool_ctx_init()); the suite keeps one
 * for its clock probes and hands its choices to every step. Nothing of it is global. */
struct timing_ctx {
	struct timing_opts opts;             /* the user's choices only: no tool writes them */
	const struct timing_defaults *tool;  /* the running tool's defaults (set by the option
					      * parser from its descriptor; NULL: none) */
	struct placement place;              /* the CPU placement (cpu.h) */
	int copy;                            /* this process's -P copy (0 in the parent) */
	/* the measurement under way (set by measure() for its duration) */
	const struct timing_defaults *sampling;  /* its bench_op.sampling, or NULL */
	int helpers;                         /* its helper processes per copy */
	/* ENOUGH and TIMING_O, read from the environment at the first measurement (-1: unset) */
	int env_read;
	double env_enough_ns, env_timing_o_ns;
};
/* A context with no choices made: one copy, the default sampling and placement. */
void timing_ctx_init(struct timing_ctx *t);

#define TIMING_DEFAULT_REPS 11
#define TIMING_DEFAULT_MIN_NS 5e6   /* 5 ms: 11 samples of a fast op take well under a second */
#define TIMING_MAX_REPS 1000

struct bench_op {
	/* Once per process before timing (helpers forked here); nonzero = cannot measure: the
	 * function has printed why (warnx_). */
	int (*setup)(void *arg);
	/* Perform the operation iters times. Timed. */
	void (*loop)(uint64_t iters, void *arg);
	/* Untimed work before / after each timed interval (may be NULL). */
	void (*before)(uint64_t iters, void *arg);
	void (*after)(uint64_t iters, void *arg);
	/* Once per process after timing (reap helpers, free). */
	void (*teardown)(void *arg);
	void *arg;
	double min_sample_ns;  /* this benchmark's own minimum sample length (0 = none) */
	uint64_t fixed_iters;  /* nonzero: never calibrate, always this many iterations */
	int helpers;           /* helper processes per copy (for placement) */
	int no_parallel;       /* ignore -P (the operation cannot run as copies) */
	int steady;            /* also take the steady figure (above); with fixed_iters the
				* count is taken to fill the minimum sample, as calibrated */
	int call_cost;         /* a call of loop costs more than its iterations (a command round
				* trip to a helper): the steady figure never splits lmbench's
				* sample into calls of one iteration, which would time that cost
				* once per operation; it takes its own pass */
	const struct timing_defaults *sampling;  /* this measurement's own sampling (or NULL) */
};

/* One sample's steady figure: the median operation (ns per iteration), the operations and
 * the wall time of what was timed for it, and the batch (1: single operations). */
struct steady_sample {
	double value;
	uint64_t ops;
	double elapsed_ns;
	uint64_t batch;
};
#define STEADY_SPLIT_NS 20000.0 /* an operation this long is timed alone inside the sample */
#define STEADY_BATCH_NS 400.0   /* a shorter one in batches at least this long ... */
#define STEADY_SHARE 8          /* ... in a pass of 1/STEADY_SHARE of the sample's operations */
#define STEADY_MIN_BATCHES 15
#define STEADY_MAX_BATCHES 4000

struct measurement {
	struct sample *s;      /* value = ns per iteration, the clock's read cost subtracted;
				* their side metrics owned here (measurement_free) */
	struct steady_sample *steady; /* one per sample when the op asked for it, else NULL */
	size_t n;
	uint64_t iters;        /* iterations per sample */
	int parallel;          /* copies that ran */
	double loop_overhead_ns;   /* subtracted per iteration: always 0 (kept for the record) */
	double clock_overhead_ns;  /* subtracted per sample */
	double min_sample_ns;      /* the minimum sample length in force */
	int cpu;               /* CPU the measuring process ran on (-1: not pinned) */
	char side_source[16];  /* how the samples' side metrics were read (side.h; "" none) */
	char idle_names[96];   /* their cpuidle states, joined by ',' */
};

/* Measure op under t. 0 on success; -1 when setup failed or a copy died (a message was
 * printed). */
int measure(struct timing_ctx *t, const struct bench_op *op, struct measurement *m);
void measurement_free(struct measurement *m);
/* ns per iteration of m by the statistic (median or minimum) over all samples. */
double measurement_stat(const struct measurement *m, int use_min);

/* The median of m's steady figures (ns per iteration), NAN when it has none. */
double steady_stat(const struct measurement *m);

/* Pin a helper process (proc = 1..helpers) of t's measurement under way, from inside setup(). */
int timing_place_helper(struct timing_ctx *t, int proc);
/* The minimum sample length in force (ns): --min-sample, ENOUGH, the tool's default or plumb's;
 * never below 1000 clock resolutions. */
double timing_min_sample_ns(struct timing_ctx *t, double op_min);
/* Samples per copy in force: -N, the tool's default or TIMING_DEFAULT_REPS. */
int timing_repetitions(const struct timing_ctx *t);

#endif
