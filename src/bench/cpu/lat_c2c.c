/*
 * lat_c2c.c — lat_c2c: the cost of handing a cache line from one CPU to another and back, for
 * every ordered pair of the CPUs plumb may use (a plumb tool: lmbench has none; Intel's MLC
 * "c2c" and the pingpong tools measure the same). Two threads share one line holding a
 * counter: the measuring thread, pinned to CPU FROM, stores an odd value and spins until it
 * loads the next even one, which the partner thread, pinned to CPU TO, stores as soon as it
 * loads the odd one. One iteration is one round trip: the line goes to TO and back, each way a
 * load that misses and a store that takes the line over. Nothing is subtracted but the
 * clock's read (once per sample); the figure is the median of the samples' ns per round trip.
 * Both orders of a pair are measured (FROM starts, then TO starts), so the matrix printed at
 * the end is symmetric within noise where the hardware is; a CPU with itself is not measured.
 * A guest's vCPUs move between host cores: this project's guest measures one pair at 110 or
 * 530 ns by where the host has them, even within one pair's samples. What each pair shares
 * (core/topology.h) is recorded as `topology` in its info and printed after the lines.
 * The partner spins without a pause instruction (a pause would add its own latency to every
 * hand-over) and checks its stop flag, kept on a line of its own, only while it waits.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/cpu.h"
#include "core/topology.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_C2C_ROUNDTRIP, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define C2C_MAX_CPUS 256
#define LINE 128 /* two 64-byte lines: adjacent-line prefetchers fetch pairs */

struct c2c {
	_Alignas(LINE) _Atomic uint64_t line;   /* the line handed over */
	_Alignas(LINE) _Atomic int stop;        /* the partner's stop flag, on a line of its own */
	_Atomic int ready;
	int from, to;
	pthread_t partner;
};

static void *partner(void *arg)
{
	struct c2c *x = arg;
	if (cpu_pin_thread(x->to) != 0) {
		atomic_store(&x->ready, -1);
		return NULL;
	}
	atomic_store(&x->ready, 1);
	for (;;) {
		uint64_t v = atomic_load_explicit(&x->line, memory_order_acquire);
		if (v & 1)
			atomic_store_explicit(&x->line, v + 1, memory_order_release);
		else if (atomic_load_explicit(&x->stop, memory_order_relaxed))
			return NULL;
	}
}

/* The measuring side: FROM stores odd, waits for TO's even answer. */
static void loop_roundtrip(uint64_t n, void *arg)
{
	struct c2c *x = arg;
	uint64_t v = atomic_load_explicit(&x->line, memory_order_relaxed);
	for (uint64_t i = 0; i < n; i++) {
		atomic_store_explicit(&x->line, v + 1, memory_order_release);
		while (atomic_load_explicit(&x->line, memory_order_acquire) != v + 2)
			;
		v += 2;
	}
}

static int start_pair(void *arg)
{
	struct c2c *x = arg;
	if (cpu_pin_thread_warn(x->from) != 0)
		return -1;
	atomic_store(&x->line, 0);
	atomic_store(&x->stop, 0);
	atomic_store(&x->ready, 0);
	int e = pthread_create(&x->partner, NULL, partner, x);
	if (e != 0) {
		warnx_("pthread_create: %s", strerror(e));
		return -1;
	}
	while (atomic_load(&x->ready) == 0)
		sched_yield();
	if (atomic_load(&x->ready) < 0) {
		pthread_join(x->partner, NULL);
		warnx_("CPU %d: cannot run the partner there", x->to);
		return -1;
	}
	return 0;
}

static void stop_pair(void *arg)
{
	struct c2c *x = arg;
	atomic_store(&x->stop, 1);
	pthread_join(x->partner, NULL);
}

/* The matrix: row = the CPU that starts, column = the partner. */
static void print_matrix(struct tool_ctx *c, const int *cpus, int n, const double *ns)
{
	out_printf(c, "\nround trip, ns (row: the CPU that starts)\n%5s", "");
	for (int b = 0; b < n; b++)
		out_printf(c, " %7d", cpus[b]);
	out_printf(c, "\n");
	for (int a = 0; a < n; a++) {
		out_printf(c, "%5d", cpus[a]);
		for (int b = 0; b < n; b++)
			if (a == b)
				out_printf(c, " %7s", "-");
			else
				out_printf(c, " %7.1f", ns[a * n + b]);
		out_printf(c, "\n");
	}
}

/* What sysfs says of the pairs: a sentence for two CPUs, a matrix of letters for more; nothing
 * when it says nothing (the lines above stand alone). */
static void print_topology(struct tool_ctx *c, const int *cpus, int n)
{
	int known = 0;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++)
			known |= a != b && *cpu_pair_topology(cpus[a], cpus[b]);
	if (!known)
		return;
	if (n == 2) {
		out_printf(c, "CPU %d and CPU %d: %s (sysfs)\n", cpus[0], cpus[1],
			   topology_words(cpu_pair_topology(cpus[0], cpus[1])));
		return;
	}
	out_printf(c, "\ntopology (sysfs): C same core, K same cluster, L same last-level cache,\n"
		      "P same package, X other package, ? unknown\n%5s", "");
	for (int b = 0; b < n; b++)
		out_printf(c, " %3d", cpus[b]);
	out_printf(c, "\n");
	for (int a = 0; a < n; a++) {
		out_printf(c, "%5d", cpus[a]);
		for (int b = 0; b < n; b++) {
			const char *t = cpu_pair_topology(cpus[a], cpus[b]);
			char l = a == b ? '-' : !strcmp(t, "core") ? 'C' : !strcmp(t, "cluster") ? 'K'
				: !strcmp(t, "llc") ? 'L' : !strcmp(t, "package") ? 'P'
				: !strcmp(t, "other-package") ? 'X' : '?';
			out_printf(c, " %3c", l);
		}
		out_printf(c, "\n");
	}
}

struct c2c_opts {
	const char *cpus;
};

static int lat_c2c(struct tool_ctx *c, int argc, char **argv)
{
	struct c2c_opts o = { NULL };
	struct operands args = options_parse(c, argc, argv, &o);
	if (args.n > 0)
		usage_error(c, "lat_c2c takes no operands (-c LIST chooses the CPUs)");
	int allowed[C2C_MAX_CPUS], nallowed = cpu_online(allowed, C2C_MAX_CPUS);
	int cpus[C2C_MAX_CPUS], n = nallowed;
	memcpy(cpus, allowed, sizeof cpus);
	char why[512];
	if (o.cpus && (n = cpu_list_allowed(o.cpus, cpus, C2C_MAX_CPUS, allowed, nallowed, why,
					    sizeof why)) < 0)
		usage_error(c, "-c: %s", why);
	if (n < 2)
		die(EXIT_MEASURE, "needs two CPUs: %s", o.cpus ? "-c names fewer"
							   : "this process may use only one");
	c->timing.opts.parallel = 1;
	double *ns = xcalloc((size_t)n * (size_t)n, sizeof *ns);
	struct c2c *x = aligned_alloc(LINE, sizeof *x);
	if (!x)
		die(EXIT_MEASURE, "out of memory");
	int st = 0;
	for (int a = 0; a < n && !st; a++)
		for (int b = 0; b < n && !st; b++) {
			if (a == b)
				continue;
			memset(x, 0, sizeof *x);
			x->from = cpus[a];
			x->to = cpus[b];
			struct bench_op op = { .setup = start_pair, .loop = loop_roundtrip,
					       .teardown = stop_pair, .arg = x, .no_parallel = 1,
					       };
			struct measurement m;
			if (measure(&c->timing, &op, &m) != 0) {
				st = EXIT_MEASURE;
				break;
			}
			m.cpu = x->from; /* where it ran: setup moved it from the placement's CPU */
			char params[48];
			snprintf(params, sizeof params, "from=%d to=%d", x->from, x->to);
			struct result *r = record_latency(c, metrics[ROW_LAT_C2C_ROUNDTRIP].id, params, NAN, &m, 1);
			ns[a * n + b] = r->value;
			const char *topo = cpu_pair_topology(x->from, x->to);
			result_add_info(r, "from_kind=%s to_kind=%s%s%s", cpu_kind(x->from),
					cpu_kind(x->to), *topo ? " topology=" : "", topo);
			measurement_free(&m);
		}
	if (!st && n > 2)
		print_matrix(c, cpus, n, ns);
	if (!st)
		print_topology(c, cpus, n);
	free(x);
	free(ns);
	return st;
}

/* By default (-N and --min-sample override it) 5 samples of at least 2 ms a pair: a 64-CPU
 * machine's 4032 pairs take under a minute, and a round trip (50-500 ns) is timed thousands of
 * times a sample. */
static const struct tool_options c2c_options = {
	.opts = (const struct opt[]){
		OPT_STRING('c', NULL, struct c2c_opts, cpus, "LIST",
			   "the CPUs to pair, e.g. 0,2-5 (default: every CPU plumb may use)"),
		OPT_END },
	.timing = { .repetitions = 5, .min_sample_ns = 2e6 },
};

static const struct tool tools[] = {
	TOOL("lat_c2c", lat_c2c, 1, &c2c_options, "[-c LIST]",
	     "core to core: a cache line handed to another CPU and back, every ordered pair",
	     "Prints one line per ordered pair (FROM starts the round trip, TO answers), and with more\n"
	     "than two CPUs a matrix of them, then what each pair shares (core, cluster, last-level\n"
	     "cache, package) where sysfs says. One iteration is one round trip of a line holding a\n"
	     "counter; the median of 5 samples of at least 2 ms per pair. Not in lmbench."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_C2C_ROUNDTRIP] = { .id = "lat_c2c.roundtrip",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "a cache line from CPU `from` to CPU `to` and back",
	  .line = "Cache line round trip CPU {from} to CPU {to}: %v nanoseconds", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_NONE }, .chart = "c2c",
	  .work = "one round trip: FROM stores an odd count to a shared line and spins until TO's "
		"thread, spinning on its own CPU, has stored the next even one",
	  .subtracted = SUB_CLOCK, .lmbench = "not an lmbench tool",
	  .noise = NOISE_UNMEASURED },
	{ 0 },
};

const struct tool_file toolfile_lat_c2c = { "c2c", SUBSET_HW, "core to core: cache line round trips", tools, metrics };
