/*
 * cpu.h — CPU placement. Every benchmark process asks cpu_place(p, copy, proc, nprocs) where it
 * should run: copy = which -P copy, proc = 0 for the measuring process and 1.. for its helpers
 * (the echo child of lat_pipe, the ring of lat_ctx), nprocs = number of helpers.
 *
 * Policies (first that applies):
 *   --cpu none          no pinning (lmbench's DEFAULT)
 *   --cpu LIST          e.g. "1" or "0,1" or "0-3": process k of copy c goes to
 *                       LIST[(c * (nprocs + 1) + k) % len]; one CPU = everything on it
 *   LMBENCH_SCHED       DEFAULT SINGLE BALANCED BALANCED_SPREAD UNIQUE UNIQUE_SPREAD
 *                       "CUSTOM list" "CUSTOM_UNIQUE list", with lmbench's meaning
 *   plumb's default     "single": a copy and all its helpers share one CPU, the last online
 *                       one (CPU 0 takes most interrupts); copies go to distinct CPUs from the
 *                       last downwards. Sharing one CPU makes IPC and context-switch figures
 *                       repeatable (no cross-CPU wake-up and idle-exit latency); use
 *                       --cpu 0,1 to measure them spread over two CPUs.
 */
#ifndef PLUMB_CPU_H
#define PLUMB_CPU_H

#define CPU_MAX 1024

/* A placement policy and its CPUs. It travels in the context of whoever measures (timing.h's
 * struct timing_ctx); all zero means "not chosen yet": the first question settles it from
 * LMBENCH_SCHED or plumb's default. */
struct placement {
	int policy;
	int list[CPU_MAX], nlist;
	char desc[256];
};

/* Set the policy from a --cpu argument (NULL: LMBENCH_SCHED or the default). Exits 2 on a
 * malformed list. */
void cpu_policy_init(struct placement *p, const char *cpu_opt);
/* CPU that process proc of copy c would run on, or -1 for "not pinned". */
int cpu_for(struct placement *p, int copy, int proc, int nprocs);
/* Pin the calling thread accordingly; returns the CPU or -1. */
int cpu_place(struct placement *p, int copy, int proc, int nprocs);
/* Description of the policy in force, recorded with results ("single:1", "list:0,1", ...). */
const char *cpu_policy_desc(struct placement *p);
/* Pin the calling thread (not the process) to one CPU; 0 or an errno value. For tools whose
 * threads each need their own CPU (lat_c2c, lat_loaded). */
int cpu_pin_thread(int cpu);
/* The same, for a measurement's setup: 0, or -1 with one line saying why ("CPU 3: Invalid
 * argument"), the prologue of lat_c2c's and lat_loaded's timed threads. */
int cpu_pin_thread_warn(int cpu);
/* Online CPUs in ascending order; returns the count. */
int cpu_online(int *cpus, int max);
/* Short description of a CPU's kind ("capacity=1024", "part=0xd08"), "" when unknown: on
 * big.LITTLE boards the core type matters. */
const char *cpu_kind(int cpu);
/* Parse a CPU list such as "0,2-4" into out (at most max); returns the count or -1. */
int cpu_parse_list(const char *s, int *out, int max);
/* A CPU list the user gave (lat_c2c's and lat_loaded's -c) into cpus (at most max): each one of
 * allowed[0..na), none twice. The count, or -1 with why in one line ("CPU 9 is not online or
 * not allowed here"). */
int cpu_list_allowed(const char *list, int *cpus, int max, const int *allowed, int na,
		     char *why, size_t len);

#endif
