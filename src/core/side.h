/*
 * side.h — side metrics: what else happened during each timed sample (docs/side-metrics.md).
 *
 * A side metric is read around each sample, never inside the timed loop: measure() takes a
 * snapshot just before the sample's clock read and one just after its closing read, and keeps
 * the difference with the sample (struct sample.side). They are not metric rows: no compare
 * verdict is taken on them on their own; they say why a verdict's samples moved.
 *
 * What is read (the table and the reasons: docs/side-metrics.md):
 *   - voluntary and involuntary switches, minor and major faults: getrusage of the process
 *     (and the children it reaped);
 *   - task clock and "cs" (all switches): the process's (/proc/self/schedstat, vol + invol)
 *     plus those of its live helpers (registered children, cleanup.h, at most SIDE_HELPERS:
 *     run time and timeslices of /proc/PID/schedstat), so a helper's switches count;
 *   - migrations: se.nr_migrations of /proc/self/sched, where the kernel has it;
 *   - steal time and interrupts: /proc/stat (the whole machine);
 *   - cpuidle usage and residency per state, summed over the CPUs the process may run on
 *     (at most SIDE_IDLE_CPU_MAX, their count kept as idle_cpus), and the current frequency of
 *     the sample's CPU: sysfs;
 *   - cycles, instructions, cache and dTLB misses: hardware events, only when the PMU probe
 *     (pmu.h) accepted them.
 * The process's figures are read at both ends of a sample; the machine's once a sample, at
 * its end, covering the span from the previous sample's end (its length kept as window_ns,
 * so a share of it is taken over the span its figures cover, not over the timed part).
 * PLUMB_SIDE_PERF=on reads switches, migrations, faults and task clock from perf software
 * events instead (inherit: helpers forked by setup count), which are work inside the timed
 * loop (a perf context switched with the task, counters copied at fork): off by default.
 * PLUMB_SIDE=off switches collection off (bench/side.sh measures its cost that way).
 */
#ifndef PLUMB_SIDE_H
#define PLUMB_SIDE_H

#include <stddef.h>
#include <stdint.h>

enum side_field {
	SIDE_VOL_CS,      /* voluntary context switches (getrusage) */
	SIDE_INVOL_CS,    /* involuntary context switches (getrusage) */
	SIDE_CS,          /* all context switches, helpers included (perf; else vol + invol) */
	SIDE_MIGRATIONS,  /* CPU migrations, helpers included (perf only) */
	SIDE_MINFLT,      /* minor page faults */
	SIDE_MAJFLT,      /* major page faults */
	SIDE_TASK_NS,     /* CPU time of the process (and, with perf, its helpers) */
	SIDE_STEAL_NS,    /* time the hypervisor ran something else, all CPUs (/proc/stat) */
	SIDE_IRQS,        /* interrupts, all CPUs (/proc/stat) */
	SIDE_IDLE_USAGE,  /* cpuidle entries, all states */
	SIDE_IDLE_US,     /* cpuidle residency, all states, microseconds */
	SIDE_FREQ_KHZ,    /* the CPU's current frequency at the end of the sample (a level) */
	SIDE_CYCLES,      /* PMU, when the probe accepted it */
	SIDE_INSTRUCTIONS,
	SIDE_CACHE_MISSES,
	SIDE_DTLB_MISSES,
	SIDE_WINDOW_NS,   /* the span the machine's figures cover (from the previous sample's end) */
	SIDE_IDLE_CPUS,   /* CPUs whose cpuidle counters are summed (a level) */
	SIDE_NFIELDS
};
#define SIDE_IDLE_MAX 8   /* cpuidle states kept per sample */
#define SIDE_IDLE_CPU_MAX 2 /* CPUs whose cpuidle counters are summed, at most */
#define SIDE_HELPERS 4    /* live helpers read from /proc/PID/schedstat */

/* One sample's side metrics: the difference of two snapshots (SIDE_FREQ_KHZ: the level read
 * at the end). have: bit (1u << field) when the field was read; zero = none (a sample of a
 * file written without them, or collection off). */
struct side_sample {
	uint32_t have;
	uint32_t idle_states;              /* per-state figures kept (0..SIDE_IDLE_MAX) */
	double ops;                        /* operations the sample timed (0: unknown) */
	double v[SIDE_NFIELDS];
	double idle_usage[SIDE_IDLE_MAX];  /* per cpuidle state, in the order of idle_names */
	double idle_us[SIDE_IDLE_MAX];
};

/* A heap copy of s, or NULL when s is NULL or read nothing (have = 0). */
struct side_sample *side_dup(const struct side_sample *s);

/* The JSON key of a field ("vol_cs", "invol_cs", "cs", "migrations", "minflt", "majflt",
 * "task_ns", "steal_ns", "irqs", "idle_usage", "idle_us", "freq_khz", "cycles",
 * "instructions", "cache_misses", "dtlb_misses", "window_ns", "idle_cpus"); side_field_find()
 * the reverse (-1). */
const char *side_field_name(int f);
int side_field_find(const char *name);
/* 1 for a level (frequency, idle CPUs), 0 for a count that per_op divides by the operations. */
int side_field_is_level(int f);
/* 1 for a field that only scales others (window_ns, idle_cpus): stored, never shown as a
 * figure of its own. */
int side_field_is_scale(int f);
/* The share (%) of the idle CPUs' time that state k's residency took in sample s: residency
 * over window_ns × idle_cpus; NAN without both (files written before they were kept). */
double side_idle_share(const struct side_sample *s, uint32_t k);
/* The span sample s's machine figures (steal, interrupts, cpuidle) cover: window_ns where it
 * was kept, else the sample's own elapsed_ns (files written before it was). */
double side_window(const struct side_sample *s, double elapsed_ns);

/* A snapshot: absolute counters. */
struct side_snap {
	uint32_t have, idle_states;
	double v[SIDE_NFIELDS];
	double idle_usage[SIDE_IDLE_MAX], idle_us[SIDE_IDLE_MAX];
};

/* What the process reads; opened once per measuring process, before the operation's setup. */
struct side_probe {
	int on;
	int perf[5];                  /* cs, migrations, minflt, majflt, task clock (-1: none) */
	int hw[4];                    /* cycles, instructions, cache, dTLB misses (-1: none) */
	int stat_fd, freq_fd, schedstat_fd, sched_fd;
	int idle_fd[SIDE_IDLE_CPU_MAX][SIDE_IDLE_MAX][2]; /* usage, time */
	int idle_cpus, idle_states;
	char source[16];              /* "proc", "perf" or "off" */
	char idle_names[96];          /* the states' names joined by ',' ("POLL,C1") */
	struct side_snap start, last; /* the sample's start; the previous sample's end */
	int have_last;
	int nhelpers, helper_fd[SIDE_HELPERS];
	long helper_pid[SIDE_HELPERS];
};

/* Open the counters for this process (cpu: the CPU it was placed on, -1 none). Never fails:
 * what cannot be opened is left out. */
void side_open(struct side_probe *p, int cpu);
/* Right before a sample's first clock read, and right after its last: *out is the sample's
 * side metrics (have = 0 when collection is off). */
void side_begin(struct side_probe *p);
void side_end(struct side_probe *p, struct side_sample *out);
void side_close(struct side_probe *p);
/* p's source and cpuidle state names into source[16] and idle_names[96] ("" when off). */
void side_meta(const struct side_probe *p, char *source, char *idle_names);
/* A sample's side metrics as one line of text for the store: "ops=N FIELD=V ... idle0=U/T
 * ..." (idleK: state K's usage and residency); "" when none were read. side_decode() reads it
 * back (unknown words are skipped); -1 on a malformed number. */
void side_encode(const struct side_sample *s, char *buf, size_t len);
int side_decode(const char *text, struct side_sample *s);
/* Per operation of a sample: v / ops for a count, the value for a level; NAN when not read or
 * the operations are unknown. */
double side_per_op(const struct side_sample *s, int f);

#endif
