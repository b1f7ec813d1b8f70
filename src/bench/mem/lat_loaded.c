/*
 * lat_loaded.c — lat_loaded: memory load latency while other CPUs move memory (a plumb tool:
 * lmbench has none; Intel's MLC --loaded_latency and Google's multiload measure the same
 * curve). One CPU walks a random pointer chase through a buffer well past the last-level cache
 * while every other CPU named (the loaders) streams through a buffer of its own, at stepped
 * intensities; each level gives one point of latency against delivered bandwidth.
 *
 *   the chase    one random cycle through every 64-byte line of SIZE (-s; default the memory
 *                tools' largest size: 4 x the last-level cache, at most 256 MiB), built once with
 *                the chain builder lat_mem_rd -t uses (mem_common.c) and walked by the CPU that
 *                measures: 100 dependent loads an iteration, timed by measure(); nothing is
 *                subtracted but the clock's read, once per sample; the figure is the median of
 *                the samples' ns per load
 *   the loaders  one thread per other CPU, pinned there, each on its own buffer (-b; default
 *                the chase's size split among the loaders, at least 8 MiB each) first touched by
 *                the loader itself (so it is local on a NUMA machine); they repeat: one 1 KiB
 *                chunk read (-t read, bw_mem frd's kernel), written (write: fwr) or copied from
 *                the buffer's first half to its second (copy: fcp), then DELAY empty spin
 *                iterations (a dependent decrement: about a cycle each, no pause instruction,
 *                whose cost differs tenfold between cores). DELAY 0 is full speed
 *   the levels   level 0 runs no loader: an idle chase, the same walk lat_mem_rd -t times; level
 *                L > 0 runs every loader with the L-th delay of -d (default 16384 4096 1024
 *                512 256 128 64 0: from a trickle to full speed, the last level always the
 *                heaviest when the list descends)
 *   bandwidth    each loader counts the bytes it read plus those it wrote (a copy counts both
 *                sides, as MLC does: bw_mem counts a copy once) on a line of its own; the
 *                measuring thread reads the counts and the clock around each timed sample, out
 *                of the timing, so delivered bandwidth = bytes moved during the sample / the
 *                sample's wall time, in MB/s (10^6 bytes), one value per latency sample
 * The loaders start before the calibration of each level (calibration and the warm-up then run
 * under the same load) and stop after its last sample. Nothing is smoothed or clamped: a point
 * where the loaders moved less than the one before is printed as measured.
 * Placement: the chase runs on the first CPU of -c LIST, the loaders on the rest; without -c,
 * the chase takes the last CPU this process may use (plumb's default CPU) and the loaders every
 * other. Both are recorded ([Placement: ...] and each result's info). With one CPU there is no
 * load to put beside the chase: refused with one line (exit 3), as lat_c2c refuses.
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
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_kern.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_LOADED_LATENCY, ROW_LAT_LOADED_BANDWIDTH, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define LD_MAX_CPUS 256
#define LD_MAX_LEVELS 33   /* level 0 and up to 32 delays */
#define LD_CHUNK 1024      /* bytes a loader moves between delays (kernels take 512-byte multiples) */
#define LD_LINE 128        /* two 64-byte lines: adjacent-line prefetchers fetch pairs */

enum traffic { T_READ, T_WRITE, T_COPY };
static const char *const traffic_names[] = { "read", "write", "copy", NULL };

struct loader {
	_Alignas(LD_LINE) _Atomic uint64_t bytes; /* written by the loader only */
	_Alignas(LD_LINE) int cpu;
	_Atomic int ready;                        /* 1 running, -1 could not pin */
	pthread_t th;
	struct mem_buf buf;                       /* mapped by the loader on its first level */
	size_t len;
	struct loaded *x;
};

struct bw_span { uint64_t bytes, ns; };

struct loaded {
	_Alignas(LD_LINE) _Atomic int stop;       /* read by every loader each chunk */
	_Alignas(LD_LINE) void **p;               /* where the chase is: it continues */
	int chase_cpu;
	enum traffic traffic;
	enum mem_pages pages;
	uint64_t delay;
	int nrun;                                 /* loaders running this level */
	struct loader *ld;
	const struct mem_kernels *k;
	/* the loaders' bytes and the clock around each timed interval (before/after) */
	uint64_t b0, t0;
	struct bw_span *span;
	size_t nspan, capspan;
};

static void *loader_main(void *arg)
{
	struct loader *l = arg;
	struct loaded *x = l->x;
	if (cpu_pin_thread(l->cpu) != 0) {
		atomic_store(&l->ready, -1);
		return NULL;
	}
	if (!l->buf.p) /* first touch on this CPU: local memory on a NUMA machine */
		mem_alloc(&l->buf, l->len, x->pages);
	const struct mem_kernels *k = x->k;
	enum traffic t = x->traffic;
	uint64_t delay = x->delay, moved = atomic_load(&l->bytes), keep = 0;
	/* copy: source the first half, destination the second; a chunk moves twice its size */
	size_t span = t == T_COPY ? l->len / 2 : l->len, off = 0;
	uint64_t per = t == T_COPY ? 2 * LD_CHUNK : LD_CHUNK;
	char *base = l->buf.p;
	atomic_store(&l->ready, 1);
	while (!atomic_load_explicit(&x->stop, memory_order_relaxed)) {
		switch (t) {
		case T_READ: keep += k->frd(base + off, LD_CHUNK); break;
		case T_WRITE: k->fwr(base + off, LD_CHUNK, keep++); break;
		case T_COPY: k->fcp(base + span + off, base + off, LD_CHUNK); break;
		}
		compiler_barrier(); /* the stores must happen every time */
		moved += per;
		atomic_store_explicit(&l->bytes, moved, memory_order_relaxed);
		off += LD_CHUNK;
		if (off + LD_CHUNK > span)
			off = 0;
		for (uint64_t d = delay; d; d--)
			KEEP(d);
	}
	sink_u64(keep);
	return NULL;
}

static uint64_t loader_bytes(const struct loaded *x)
{
	uint64_t s = 0;
	for (int i = 0; i < x->nrun; i++)
		s += atomic_load_explicit(&x->ld[i].bytes, memory_order_relaxed);
	return s;
}

static void stop_loaders(struct loaded *x, int n)
{
	atomic_store(&x->stop, 1);
	for (int i = 0; i < n; i++)
		pthread_join(x->ld[i].th, NULL);
}

/* Once per level: the measuring thread onto the chase CPU, the level's loaders started and
 * running (each has moved a chunk or is about to) before calibration begins. */
static int level_setup(void *arg)
{
	struct loaded *x = arg;
	if (cpu_pin_thread_warn(x->chase_cpu) != 0)
		return -1;
	atomic_store(&x->stop, 0);
	x->nspan = 0;
	for (int i = 0; i < x->nrun; i++) {
		struct loader *l = &x->ld[i];
		atomic_store(&l->ready, 0);
		int e = pthread_create(&l->th, NULL, loader_main, l);
		if (e != 0) {
			stop_loaders(x, i);
			warnx_("pthread_create: %s", strerror(e));
			return -1;
		}
	}
	int bad = -1;
	for (int i = 0; i < x->nrun; i++) {
		while (atomic_load(&x->ld[i].ready) == 0)
			sched_yield();
		if (atomic_load(&x->ld[i].ready) < 0)
			bad = x->ld[i].cpu;
	}
	if (bad >= 0) {
		stop_loaders(x, x->nrun);
		warnx_("CPU %d: cannot run a loader there", bad);
		return -1;
	}
	return 0;
}

static void level_teardown(void *arg)
{
	struct loaded *x = arg;
	stop_loaders(x, x->nrun);
}

static void chase_loop(uint64_t n, void *arg)
{
	struct loaded *x = arg;
	x->p = mem_chase_walk(x->p, n); /* the walk lat_mem_rd -t times (mem_common.c) */
	KEEP(x->p);
}

/* Untimed, around each timed interval: the loaders' bytes and the clock. */
static void span_before(uint64_t iters, void *arg)
{
	struct loaded *x = arg;
	(void)iters;
	x->b0 = loader_bytes(x);
	x->t0 = now_ns();
}

static void span_after(uint64_t iters, void *arg)
{
	struct loaded *x = arg;
	(void)iters;
	uint64_t t1 = now_ns(), b1 = loader_bytes(x);
	if (x->nspan == x->capspan) {
		x->capspan = x->capspan ? 2 * x->capspan : 64;
		x->span = xrealloc(x->span, x->capspan * sizeof *x->span);
	}
	x->span[x->nspan++] = (struct bw_span){ b1 - x->b0, t1 - x->t0 };
}

struct loaded_opts {
	uint64_t size, lsize;
	int traffic;
	const char *cpus, *delays, *pages;
};

/* The CPUs: -c LIST checked against the ones this process may use, else the default order
 * (chase on the last one). Returns the count; cpus[0] is the chase CPU. */
static int pick_cpus(struct tool_ctx *c, const char *list, int *cpus)
{
	int allowed[LD_MAX_CPUS], na = cpu_online(allowed, LD_MAX_CPUS);
	if (!list) {
		if (na < 1)
			return 0;
		cpus[0] = allowed[na - 1];
		for (int i = 0; i + 1 < na; i++)
			cpus[i + 1] = allowed[i];
		return na;
	}
	char why[512];
	int n = cpu_list_allowed(list, cpus, LD_MAX_CPUS, allowed, na, why, sizeof why);
	if (n < 0)
		usage_error(c, "-c: %s", why);
	return n;
}

static const uint64_t default_delays[] = { 16384, 4096, 1024, 512, 256, 128, 64, 0 };

/* -d LIST: comma-separated spin counts, one loaded level each. Returns the count. */
static int parse_delays(struct tool_ctx *c, const char *s, uint64_t *d)
{
	if (!s) {
		int n = (int)(sizeof default_delays / sizeof default_delays[0]);
		memcpy(d, default_delays, sizeof default_delays);
		return n;
	}
	int n = 0;
	const char *p = s;
	for (;;) {
		char *end;
		errno = 0;
		if (*p < '0' || *p > '9')
			usage_error(c, "-d: not a list of delays (whole numbers): %s", s);
		unsigned long long v = strtoull(p, &end, 10);
		if (errno || v > 1000000000ull)
			usage_error(c, "-d: delay out of range 0..1000000000: %s", s);
		if (n == LD_MAX_LEVELS - 1)
			usage_error(c, "-d: at most %d delays", LD_MAX_LEVELS - 1);
		d[n++] = v;
		if (*end == 0)
			break;
		if (*end != ',')
			usage_error(c, "-d: not a list of delays (whole numbers): %s", s);
		p = end + 1;
	}
	return n;
}

/* One level: measure the chase with nrun loaders at delay; record both figures. */
static int run_level(struct tool_ctx *c, struct loaded *x, int level, const char *params,
		     double *lat, double *bw)
{
	struct bench_op op = { .setup = level_setup, .loop = chase_loop, .before = span_before,
			       .after = span_after, .teardown = level_teardown, .arg = x,
			       .no_parallel = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	m.cpu = x->chase_cpu; /* where it ran: setup moved it from the placement's CPU */
	/* the samples are the last m.n timed intervals (calibration and warm-up came first) */
	if (x->nspan < m.n)
		die(EXIT_MEASURE, "internal: %zu bandwidth spans for %zu samples", x->nspan, m.n);
	struct sample *s = xcalloc(m.n, sizeof *s);
	const struct bw_span *sp = x->span + (x->nspan - m.n);
	for (size_t i = 0; i < m.n; i++) {
		s[i] = m.s[i];
		s[i].value = sp[i].ns ? (double)sp[i].bytes * 1e3 / (double)sp[i].ns : 0;
		/* iters stays the chase's count of that interval (a count of 0 means "not timed") */
		s[i].elapsed_ns = (double)sp[i].ns;
	}
	struct result *r = record_latency(c, metrics[ROW_LAT_LOADED_LATENCY].id, params, level, &m, MEM_CHASE_LOADS);
	struct result *rb = record_values(c, metrics[ROW_LAT_LOADED_BANDWIDTH].id, params, level, s, m.n);
	*lat = r->value;
	*bw = rb->value;
	for (int k = 0; k < 2; k++) {
		struct result *q = k ? rb : r;
		result_add_info(q, "level=%d loaders=%d chase_cpu=%d", level, x->nrun, x->chase_cpu);
		if (x->nrun)
			result_add_info(q, "delay=%llu", (unsigned long long)x->delay);
	}
	result_add_info(r, "bandwidth_mbs=%.0f", *bw);
	result_add_info(rb, "latency_ns=%.3f", *lat);
	free(s);
	measurement_free(&m);
	return 0;
}

/* Level 0 (no loader), then one level per delay with every loader, then the table of them;
 * 0, or the status of the first level that failed. */
static int run_levels(struct tool_ctx *c, struct loaded *x, int nl, const uint64_t *delays,
		      int nd, const char *params)
{
	double lat[LD_MAX_LEVELS], bw[LD_MAX_LEVELS];
	int st = 0, levels = nd + 1;
	for (int lv = 0; lv < levels && !st; lv++) {
		x->nrun = lv ? nl : 0;
		x->delay = lv ? delays[lv - 1] : 0;
		st = run_level(c, x, lv, params, &lat[lv], &bw[lv]);
	}
	if (st)
		return st;
	out_printf(c, "\nlevel loaders   delay  delivered MB/s  latency ns\n");
	for (int lv = 0; lv < levels; lv++) {
		char d[24] = "-";
		if (lv)
			snprintf(d, sizeof d, "%llu", (unsigned long long)delays[lv - 1]);
		out_printf(c, "%5d %7d %7s %15.0f %11.2f\n", lv, lv ? nl : 0, d, bw[lv], lat[lv]);
	}
	return 0;
}

static int lat_loaded(struct tool_ctx *c, int argc, char **argv)
{
	struct loaded_opts o = { 0 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	if (args.n > 0)
		usage_error(c, "lat_loaded takes no operands (-s SIZE sets the chase's size)");
	enum mem_pages pages = mem_pages_opt(c, o.pages);
	uint64_t delays[LD_MAX_LEVELS];
	int nd = parse_delays(c, o.delays, delays);
	int cpus[LD_MAX_CPUS], n = pick_cpus(c, o.cpus, cpus);
	if (n < 2)
		die(EXIT_MEASURE, "needs two CPUs, one to chase and one to load: %s",
		    o.cpus ? "-c names fewer" : "this process may use only one");
	c->timing.opts.parallel = 1;
	char how[160] = "";
	uint64_t size = o.size ? o.size : mem_default_bytes(1, 1, how, sizeof how);
	size = size / 64 * 64;
	int nl = n - 1;
	uint64_t lsize = o.lsize ? o.lsize : size / (uint64_t)nl;
	if (!o.lsize && lsize < (8ull << 20))
		lsize = 8ull << 20;
	lsize = lsize / (2 * LD_CHUNK) * (2 * LD_CHUNK);
	mem_check_fits(c, size + (uint64_t)nl * lsize);

	struct loaded *x = aligned_alloc(LD_LINE, sizeof *x);
	struct loader *ld = aligned_alloc(LD_LINE, (size_t)nl * sizeof *ld);
	if (!x || !ld)
		die(EXIT_MEASURE, "out of memory");
	memset(x, 0, sizeof *x);
	memset(ld, 0, (size_t)nl * sizeof *ld);
	x->chase_cpu = cpus[0];
	x->traffic = (enum traffic)o.traffic;
	x->pages = pages;
	x->ld = ld;
	x->k = mem_kernels_best();
	for (int i = 0; i < nl; i++) {
		ld[i].cpu = cpus[i + 1];
		ld[i].len = (size_t)lsize;
		ld[i].x = x;
	}
	/* the chase's memory is touched on its own CPU */
	int e = cpu_pin_thread(x->chase_cpu);
	if (e != 0)
		die(EXIT_MEASURE, "CPU %d: %s", x->chase_cpu, strerror(e));
	struct mem_buf b;
	mem_alloc(&b, (size_t)size, pages);
	mem_page_fact(c, &b);
	uint64_t seed = mem_seed();
	struct chain_builder cb;
	chain_begin(&cb, b.p, 64, 0, seed);
	chain_grow(&cb, (size_t)(size / 64));
	x->p = (void **)b.p;

	char lcpus[512] = "";
	for (int i = 0; i < nl; i++) {
		size_t l = strlen(lcpus);
		snprintf(lcpus + l, sizeof lcpus - l, "%s%d", i ? "," : "", ld[i].cpu);
	}
	mem_fact(c, NULL, "Placement", "placement", 1, "chase on CPU %d, loaders on CPUs %s",
		 x->chase_cpu, lcpus);
	mem_fact(c, NULL, "Chase", "chase", 1, "one random cycle through every 64-byte line of "
		 "%.0f MiB%s%s, seed %#llx", (double)size / 1048576.0, how[0] ? " = " : "", how,
		 (unsigned long long)seed);
	mem_fact(c, NULL, "Loaders", "loader_buffers", 1, "%d x %s of %.0f MiB each, %d-byte chunks, "
		 "%s kernel", nl, traffic_names[o.traffic], (double)lsize / 1048576.0, LD_CHUNK,
		 x->k->name);

	char params[600];
	int plen = snprintf(params, sizeof params, "traffic=%s", traffic_names[o.traffic]);
	if (o.delays) /* other delays are another series: compare never pairs them with these */
		snprintf(params + plen, sizeof params - (size_t)plen, " delays=%s", o.delays);
	int st = run_levels(c, x, nl, delays, nd, params);
	for (int i = 0; i < nl; i++)
		mem_free(&ld[i].buf);
	mem_free(&b);
	free(x->span);
	free(ld);
	free(x);
	return st;
}

/* 7 samples of at least 20 ms a level: a sample holds about 10^5 loads at 150-200 ns, and the
 * loaders' byte counts (a chunk at a time) are exact to a few KiB in each. */
static const struct tool_options loaded_options = {
	.opts = (const struct opt[]){
		OPT_SIZE('s', NULL, struct loaded_opts, size, "SIZE", 4096, 1ll << 40, "chase size",
			 "the chase's working set in bytes (k/m/g; default 4 x the last-level "
			 "cache, at most 256 MiB)"),
		OPT_CHOICE('t', NULL, struct loaded_opts, traffic, "KIND", traffic_names,
			   "the loaders' traffic: read (default), write or copy"),
		OPT_STRING('c', NULL, struct loaded_opts, cpus, "LIST",
			   "CPUs, e.g. 3,0-2: the first chases, the others load (default: every "
			   "CPU plumb may use, the chase on the last)"),
		OPT_STRING('d', NULL, struct loaded_opts, delays, "LIST",
			   "spin iterations between a loader's 1 KiB chunks, one level each "
			   "(default 16384,4096,1024,512,256,128,64,0)"),
		OPT_SIZE('b', NULL, struct loaded_opts, lsize, "SIZE", 2 * LD_CHUNK, 1ll << 40,
			 "loader size", "each loader's buffer in bytes (default the chase's "
			 "size split among the loaders, at least 8 MiB)"),
		MEM_PAGES_OPT(struct loaded_opts, pages),
		OPT_END },
	.timing = { .repetitions = 7, .min_sample_ns = 20e6 },
};

static const struct tool tools[] = {
	TOOL("lat_loaded", lat_loaded, 1, &loaded_options,
	     "[-s SIZE] [-t read|write|copy] [-c LIST] [-d LIST] [-b SIZE] [--pages 4k|thp|huge]",
	     "memory latency while other CPUs stream: the loaded-latency curve",
	     "A random chase on one CPU while every other CPU reads, writes or copies memory at\n"
	     "stepped intensities: level 0 runs no loader (idle latency), each further level one\n"
	     "delay of -d between the loaders' 1 KiB chunks, 0 being full speed. Prints two lines\n"
	     "per level (latency, delivered bandwidth) and a table of them. Median of 7 samples of\n"
	     "at least 20 ms per level. Needs two CPUs. Not in lmbench."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_LOADED_LATENCY] = { .id = "lat_loaded.latency",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "load latency at load level x (0: no loader)",
	  .line = "Loaded latency level %x ({traffic}): %v nanoseconds",
	  .xfmt = "%.0f", .vfmt = "%.2f",
	  .sign = POSITIVE, .x = { .kind = X_LEVEL, .label = "load level (0: no loader)" },
	  .chart = "series", .figure = { .kind = "loaded", .role = FIG_Y },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "100 dependent loads of one random cycle through every line of the chase's "
		 "size, on one CPU while the other CPUs' loaders run at the level's delay; per "
		 "load",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "not an lmbench tool; level 0 is lat_mem_rd -t's walk at one "
		 "size, with the median, not the minimum",
	  /* 8 runs of the defaults back to back on the 2-vCPU guest (2026-12-02, load 1.4): the
	   * standard deviation of log latency 0.04-0.19 by level, 0.097 pooled; x 1.25 */
	  .noise = { .group = "memory", .run = 0.12, .run_eq = 0.12, .df = 7, .clock = OWN_PACE } },
	[ROW_LAT_LOADED_BANDWIDTH] = { .id = "lat_loaded.bandwidth",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "bandwidth the loaders delivered at load level x",
	  .line = "Loaded bandwidth level %x ({traffic}): %v MB/s", .xfmt = "%.0f", .vfmt = "%.0f",
	  .sign = ZERO_OR_MORE, .x = { .kind = X_LEVEL, .label = "load level (0: no loader)" },
	  .chart = "series", .figure = { .kind = "loaded", .role = FIG_X },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "bytes all loaders read plus bytes they wrote (a copy counts both) during one "
		 "timed latency sample, over its wall time",
	  .subtracted = SUB_NOTHING,
	  .lmbench = "not an lmbench tool; a copy counts twice its size, where bw_mem counts once",
	  /* the same 8 runs: log bandwidth 0.06-0.28 by level (a spin's speed moves with the
	   * clock, a loader with its CPU's other work), 0.191 pooled; x 1.25 */
	  .noise = { .group = "membw", .run = 0.24, .run_eq = 0.24, .df = 7, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_loaded = { "loaded", SUBSET_HW, "memory latency under load", tools, metrics };
