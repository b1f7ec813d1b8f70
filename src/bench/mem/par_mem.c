/*
 * par_mem.c — par_mem: memory-level parallelism, how many independent misses overlap, by size;
 * also pm_size(), which cache uses for each level.
 * A pointer chase (chase.h): short samples (3 of 1 ms by default) so it finishes in seconds;
 * chains are random, so prefetchers cannot help; buffers are on 4 KiB pages unless --pages
 * says otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/mem/chase.h"
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_levels.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_PAR_MEM_PARALLELISM, ROW_END };
static const struct metric_def metrics[ROW_END + 1];


#define PM_MAXK 16
struct pm {
	int k;
	void **p[PM_MAXK];
};

/* k chains walked in one loop; one function per k so the pointers live in registers. */
#define PM_LOOP(K)                                                                 \
	static void pm_loop_##K(uint64_t n, void *arg)                             \
	{                                                                          \
		struct pm *s = arg;                                                \
		void **p[K];                                                       \
		for (int j = 0; j < K; j++)                                        \
			p[j] = s->p[j];                                            \
		for (uint64_t i = 0; i < n; i++) {                                 \
			_Pragma("GCC unroll 16") for (int j = 0; j < K; j++)       \
				p[j] = (void **)*p[j];                             \
			_Pragma("GCC unroll 16") for (int j = 0; j < K; j++)       \
				p[j] = (void **)*p[j];                             \
		}                                                                  \
		for (int j = 0; j < K; j++)                                        \
			s->p[j] = p[j];                                            \
	}
PM_LOOP(1) PM_LOOP(2) PM_LOOP(3) PM_LOOP(4) PM_LOOP(5) PM_LOOP(6) PM_LOOP(7) PM_LOOP(8)
PM_LOOP(9) PM_LOOP(10) PM_LOOP(11) PM_LOOP(12) PM_LOOP(13) PM_LOOP(14) PM_LOOP(15) PM_LOOP(16)
static void (*const pm_loops[PM_MAXK + 1])(uint64_t, void *) = {
	NULL, pm_loop_1, pm_loop_2, pm_loop_3, pm_loop_4, pm_loop_5, pm_loop_6, pm_loop_7,
	pm_loop_8, pm_loop_9, pm_loop_10, pm_loop_11, pm_loop_12, pm_loop_13, pm_loop_14,
	pm_loop_15, pm_loop_16,
};

/*
 * The order of par_mem's cycles: one random permutation of every line of the buffer, made once
 * per run. The cycle at size n visits the lines below n in the permutation's order — a uniformly
 * random cyclic order of them, and the restriction of the next size's cycle, as chain_grow()'s
 * would be — and, since that order is known, the k walkers start at evenly spaced points of it
 * without walking the cycle to find them (lmbench walks it with ~136 comparisons a step; that
 * was most of par_mem's time at large sizes). Linking n lines is n independent stores.
 */
void pm_order_init(struct pm_order *o, size_t nall, uint64_t seed)
{
	o->nall = nall;
	o->perm = xmalloc(nall * sizeof *o->perm);
	o->ord = xmalloc(nall * sizeof *o->ord);
	uint64_t rng = seed ? seed : 1;
	for (size_t i = 0; i < nall; i++)
		o->perm[i] = (uint32_t)i;
	for (size_t i = nall - 1; i > 0; i--) {
		size_t j = (size_t)mem_rand_below(&rng, i + 1);
		uint32_t t = o->perm[i];
		o->perm[i] = o->perm[j];
		o->perm[j] = t;
	}
}

/* Link the cycle through lines [0, n) of base; o->ord[0..n) gets their order. */
void pm_order_link(struct pm_order *o, char *base, size_t line, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < o->nall && m < n; i++)
		if (o->perm[i] < n)
			o->ord[m++] = o->perm[i];
	for (size_t i = 0; i < n; i++)
		*(void **)(base + (size_t)o->ord[i] * line) = base + (size_t)o->ord[(i + 1) % n] * line;
}

void pm_order_free(struct pm_order *o)
{
	free(o->perm);
	free(o->ord);
}

/* Parallelism at one size: the chain through the first n lines is one random cycle (linked by
 * pm_order_link); k walkers start at evenly spaced points of it. Returns max over k of (ns per
 * load with one walker) / (ns per load with k), and the one-walker ns. */
double pm_size(struct timing_ctx *t, char *base, size_t line, const struct pm_order *o, size_t n, int maxk,
		      double *lat1)
{
	/* the walkers' starts: position j*n/k of the cycle for every k and j */
	void **at[PM_MAXK * PM_MAXK];
	int nw = 0;
	for (int k = 1; k <= maxk; k++)
		for (int j = 0; j < k; j++)
			at[nw++] = (void **)(base + (size_t)o->ord[n * (size_t)j / (size_t)k] * line);
	double base_ns = 0, best = 1;
	int w = 0;
	/* one chain is measured first and again last: on a busy machine the caches it relies on
	 * may have been disturbed during one of them, and the better of the two is the baseline */
	double ns_k[PM_MAXK + 1] = { 0 };
	for (int kk = 1; kk <= maxk + 1; kk++) {
		int k = kk > maxk ? 1 : kk;
		struct pm s = { .k = k };
		if (kk > maxk)
			w = 0;
		for (int j = 0; j < k; j++)
			s.p[j] = at[w++];
		struct bench_op op = { .loop = pm_loops[k], .arg = &s };
		struct measurement m;
		if (measure(t, &op, &m) != 0)
			return NAN;
		double ns = measurement_stat(&m, 1) / (2.0 * k); /* per load */
		measurement_free(&m);
		if (kk <= maxk)
			ns_k[k] = ns;
		else if (ns < ns_k[1])
			ns_k[1] = ns;
	}
	base_ns = ns_k[1];
	for (int k = 2; k <= maxk; k++)
		if (ns_k[k] > 0 && base_ns / ns_k[k] > best)
			best = base_ns / ns_k[k];
	*lat1 = base_ns;
	return best;
}

/* 3 samples of 0.5 ms: a size's 16 chain counts are each timed */
static const struct tool_options par_mem_options = {
	.opts = (const struct opt[]){
		IGNORED_C,
		LINE_OPT,
		MAX_OPT(4096, "largest size", "largest size (default: as lat_mem_rd's largest size)"),
		MEM_PAGES_OPT(struct cache_opts, pages),
		OPT_END },
	.timing = { .repetitions = 3, .min_sample_ns = 5e5 },
};

static int par_mem(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = chase_sysfs_line() ? (int)chase_sysfs_line() : 64 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	size_t line = (size_t)o.line;
	uint64_t max = o.max;
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
	struct mem_buf b;
	max = chase_buffer(c, line, max, o.pages, &b);
	uint64_t seed = mem_seed();
	mem_fact(c, NULL, "Chain", "chain", 1, "one random cycle through every line, seed %#llx",
		 (unsigned long long)seed);
	if (max / line > UINT32_MAX)
		usage_error(c, "-M: more than 2^32 lines of %zu bytes", line);
	struct pm_order ord;
	pm_order_init(&ord, (size_t)(max / line), seed);
	int status = 0;
	for (uint64_t size = 16 * line; size <= max; size *= 2) {
		size_t n = (size_t)(size / line);
		pm_order_link(&ord, b.p, line, n);
		double lat1, par = pm_size(&c->timing, b.p, line, &ord, n, PM_MAXK, &lat1);
		if (isnan(par)) {
			status = EXIT_MEASURE;
			break;
		}
		struct sample s = { .value = par, .iters = 1 };
		char params[64];
		snprintf(params, sizeof params, "line=%zu", line); /* size: the abscissa */
		record_values(c, metrics[ROW_PAR_MEM_PARALLELISM].id, params, (double)size / 1e6, &s, 1);
	}
	pm_order_free(&ord);
	mem_free(&b);
	return status;
}


static const struct tool tools[] = {
	TOOL("par_mem", par_mem, 0, &par_mem_options, "[-L LINE] [-M MAX] [--pages 4k|thp|huge]",
	     "memory-level parallelism by size: independent chains walked together",
	     "Prints `MB parallelism` for sizes from 16 lines doubling to MAX (default: as\n"
	     "lat_mem_rd's largest size).\n"
	     "Parallelism = ns per load with one chain / ns per load with k chains, max over\n"
	     "k = 2..16."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_PAR_MEM_PARALLELISM] = { .id = "par_mem.parallelism",
	  .cells = { { .cell = SUM_MEMPAR, .read = READ_LAST_X } },
	  .unit = "x", .better = HIGHER, .stat = MEDIAN, .version = 2,
	  .desc = "memory-level parallelism by size (MB)",
	  .line = "%x %v",
	  .xfmt = "%.6f", .vfmt = "%.2f", .series_title = "Memory load parallelism",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size", .was_param = "size",
					  .lmbench = LMX_MB6 },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "k random chains walked at once, 2k loads per iteration; ns per load with one / "
		"with k, the largest over k",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "version 2: no empty-loop cost subtracted (2 loads per iteration: it was up to "
		"~15 % of a cached load)",
	  .noise = { .group = "memory", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_par_mem = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools, metrics };
