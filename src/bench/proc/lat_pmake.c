/*
 * lat_pmake.c — lat_pmake: how long JOBS processes, each doing USECS microseconds of work,
 * take to finish together — what a parallel make of JOBS jobs costs beyond the work itself
 * (lmbench's lat_pmake: it models the jobs rather than running make(1), so it needs no
 * compiler and no source tree). For each USECS operand:
 *   1. the work (a chain of dependent loads that stays in the L1 cache) is timed alone, and
 *      the iteration count that lasts USECS is derived from it;
 *   2. one timed iteration forks JOBS children, each does that work and exits, and the parent
 *      waits for all of them.
 * The figure is the time of one such round (us). With JOBS <= the CPUs the machine gives, it
 * is about USECS plus the cost of creating and reaping JOBS processes; past them the work
 * queues. The measuring process is placed as every tool's is (--cpu); the jobs run on every
 * CPU plumb was given, where the kernel puts them, as make's jobs do. Children are forked with plumb_fork(): a stop to plumb alone kills and reaps every
 * job of the round (core/cleanup.c). A job that does not exit 0 makes the tool exit 3.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_PMAKE_TIME, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* Rounds of forks are slow: samples of at least 60 ms, as lat_proc's. */
#define PMAKE_MIN_SAMPLE_NS 60e6
#define MAX_JOBS 1024

struct pmake {
	int jobs;
	uint64_t work_iters;   /* iterations of work() lasting USECS */
	pid_t *pids;
	void *cell;            /* a pointer to itself: the dependent chain */
	cpu_set_t cpus;        /* the CPUs plumb was given, before measure() pinned it */
};

/* Ten dependent loads of one cached word per iteration (lmbench's work()). */
static void work(uint64_t n, void *a)
{
	struct pmake *p = a;
	void **q = p->cell;
	for (uint64_t i = 0; i < n; i++) {
		q = *q; q = *q; q = *q; q = *q; q = *q;
		q = *q; q = *q; q = *q; q = *q; q = *q;
	}
	KEEP(q);
}

static void loop_round(uint64_t n, void *a)
{
	struct pmake *p = a;
	for (uint64_t it = 0; it < n; it++) {
		for (int j = 0; j < p->jobs; j++) {
			p->pids[j] = plumb_fork();
			if (p->pids[j] < 0)
				die(EXIT_MEASURE, "fork: %s", strerror(errno));
			if (p->pids[j] == 0) {
				/* the jobs go where the kernel puts them, as make's do */
				sched_setaffinity(0, sizeof p->cpus, &p->cpus);
				work(p->work_iters, p);
				_exit(0);
			}
		}
		for (int j = 0; j < p->jobs; j++) {
			int st = child_wait(p->pids[j]);
			if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
				die(EXIT_MEASURE, "a job died (%s %d)",
				    st != -1 && WIFSIGNALED(st) ? "signal" : "status",
				    st == -1 ? -1 : WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		}
	}
}

static int lat_pmake(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n < 2)
		usage_error(c, "missing operands: JOBS USECS [USECS...]");
	struct pmake p = { 0 };
	p.jobs = (int)parse_int(args.v[0], 1, MAX_JOBS, "JOBS (processes per round)");
	p.cell = &p.cell;
	if (sched_getaffinity(0, sizeof p.cpus, &p.cpus) != 0)
		die(EXIT_MEASURE, "sched_getaffinity: %s", strerror(errno));
	p.pids = xmalloc((size_t)p.jobs * sizeof *p.pids);
	out_printf(c, "\"pmake jobs=%d\n", p.jobs);
	for (int i = 1; i < args.n; i++) {
		uint64_t usecs = parse_size(args.v[i], 1, 100000000, "USECS (each job's work)");
		struct bench_op wop = { .loop = work, .arg = &p };
		struct measurement wm;
		if (measure(&c->timing, &wop, &wm) != 0)
			return EXIT_MEASURE;
		double ns = measurement_stat(&wm, 1);
		measurement_free(&wm);
		p.work_iters = ns > 0 ? (uint64_t)((double)usecs * 1e3 / ns) + 1 : 1;

		struct bench_op op = { .loop = loop_round, .arg = &p,
				       .min_sample_ns = PMAKE_MIN_SAMPLE_NS };
		struct measurement m;
		if (measure(&c->timing, &op, &m) != 0)
			return EXIT_MEASURE;
		char params[32];
		snprintf(params, sizeof params, "jobs=%d", p.jobs);
		struct result *r = record_latency(c, metrics[ROW_LAT_PMAKE_TIME].id, params, (double)usecs, &m, 1);
		result_add_info(r, "work_ns_per_iter=%.3f", ns / 10);
		measurement_free(&m);
	}
	free(p.pids);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_pmake", lat_pmake, 0, NULL, "JOBS USECS [USECS...]",
	     "JOBS processes of USECS work each, forked and reaped together: a parallel make's cost",
	     "Prints \"pmake jobs=JOBS, then one line per USECS: USECS and the microseconds one round\n"
	     "took. Each job's work is a chain of cached loads calibrated to last USECS; no make(1)\n"
	     "or compiler is run (as lmbench)."),
	{ 0 },
};

/* Default noise: 5 runs on the 2-vCPU guest while other builds and tests shared it (load average
 * 5-6), the log values' standard deviation times 1.25: a busy machine's figure, until quiet runs
 * replace it (bench/README.md says how). */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_PMAKE_TIME] = { .id = "lat_pmake.time",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "fork jobs of x us work each, wait for all",
	  .line = "%x %v", .xfmt = "%.0f", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_OTHER, .label = "work per job (us)" },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one round: fork jobs children, each runs a chain of cached loads calibrated (just "
		"before, alone) to last x microseconds and exits; wait for all",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the jobs may run on every CPU plumb was given (lmbench: where LMBENCH_SCHED puts "
		"them); the median of the samples",
	  .noise = { .group = "proc", .run = 0.235, .run_eq = 0.235, .df = 4, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_pmake = { "pmake", SUBSET_OS, "parallel jobs: fork, work, reap", tools, metrics };
