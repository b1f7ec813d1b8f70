/*
 * mem_cache.c — what the memory hierarchy is made of, measured with pointer chases:
 *   tlb      TLB entries: pages reachable before address translation starts to cost
 *   par_mem  memory-level parallelism: how many independent misses overlap, by size
 *   line     cache line size
 *   cache    every cache level's size and latency (and main memory's), next to what sysfs says
 * All of them take short samples (3 of 1 ms by default) so each finishes in seconds. Chains are
 * random, so prefetchers cannot help; buffers are on 4 KiB pages unless --pages says otherwise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/mem_common.h"
#include "bench/mem_levels.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"

/* The options of line, tlb, par_mem and cache: one struct, a table per tool. */
struct cache_opts {
	int verbose, cost;
	int line;
	uint64_t max;
	const char *pages;
};
#define LINE_OPT { 'L', NULL, OPT_INT, 8, 4096, offsetof(struct cache_opts, line), "LINE", \
		   "line size", "cache line size in bytes (a power of two; default: sysfs's, else 64)", NULL }
#define MAX_OPT(lo, what, help) { 'M', NULL, OPT_SIZE, lo, 1ll << 40, offsetof(struct cache_opts, max), \
				  "BYTES", what, help, NULL }
#define IGNORED_C { 'c', NULL, OPT_IGNORED, 0, 0, 0, NULL, NULL, "accepted for lmbench's sake, no effect", NULL }
#define VERBOSE_OPT(help) { 'v', NULL, OPT_FLAG, 0, 0, offsetof(struct cache_opts, verbose), NULL, NULL, help, NULL }

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* par_mem and cache: check the line size, size the largest buffer (mem_default_bytes() by
 * default: capped by what the machine can give) and allocate it; says how it was sized. */
static uint64_t chase_buffer(struct tool_ctx *c, size_t line, uint64_t max, const char *pages,
			     struct mem_buf *b)
{
	if (!pow2(line))
		usage_error(c, "-L %zu is not a power of two", line);
	char how[160] = "";
	if (!max)
		max = mem_default_bytes(1, 1, how, sizeof how);
	mem_check_fits(c, max);
	mem_alloc(b, max, mem_pages_opt(c, pages));
	mem_page_fact(c, b);
	if (how[0])
		mem_fact(c, NULL, "Largest size", "largest_size", 1, "%.0f MiB = %s",
			 (double)max / 1048576.0, how);
	return max;
}


static size_t sysfs_line(void)
{
	struct cache_level cl[8];
	int n = sys_caches(0, cl, 8);
	return n > 0 && cl[0].line > 0 ? (size_t)cl[0].line : 0;
}

/* ---- line ---------------------------------------------------------------------------------- */

/*
 * A line is what the cache moves and drops as a whole. 512 blocks of 1 KiB (more than the L1,
 * less than the L2) are read into the caches; then the first word of every block is flushed
 * (clflush / dc civac) and a chain visits the word L bytes further in each block, in random
 * order. While L is below the line size that word was flushed with the first one and every load
 * goes to memory; from L = line on it is still cached and the load costs a few ns. The line size
 * is the first L at which a load costs less than a third of what it costs at L = 8.
 * (A chase that loads a block's first word and then the word L further was tried first: on this
 * kind of CPU the adjacent-line prefetcher makes the 64-byte neighbour look like the same line.
 * Two threads sharing a line falsely were tried too: on a busy machine the helper thread is
 * descheduled too often for the bouncing to show.)
 */
#define LINE_BLOCKS 512
#define LINE_BLOCK 1024
struct lf {
	char *base;
	void **start;
	void **p;
};

static void lf_before(uint64_t n, void *arg)
{
	struct lf *f = arg;
	uint64_t s = 0;
	for (size_t o = 0; o < (size_t)LINE_BLOCKS * LINE_BLOCK; o += 16)
		s += *(volatile uint64_t *)(f->base + o);
	sink_u64(s);
	for (size_t i = 0; i < LINE_BLOCKS; i++)
		arch_flush_line(f->base + i * LINE_BLOCK);
	__sync_synchronize();
	f->p = f->start;
}

static void lf_loop(uint64_t n, void *arg)
{
	struct lf *f = arg;
	void **p = f->p;
	for (uint64_t i = 0; i < n * LINE_BLOCKS; i++)
		p = (void **)*p;
	f->p = p;
}

/* Detected line size in bytes, 0 when no step was found; costs[] = ns per load for
 * L = 8, 16, ... 512. */
static size_t line_detect(double *costs, int *ncost)
{
	struct mem_buf b;
	mem_alloc(&b, (size_t)LINE_BLOCKS * LINE_BLOCK, PAGES_4K);
	void ***nodes = xmalloc(LINE_BLOCKS * sizeof *nodes);
	int n = 0;
	uint64_t rng = 0x1ead5eed;
	for (size_t L = 8; L <= 512; L *= 2) {
		for (size_t i = 0; i < LINE_BLOCKS; i++)
			nodes[i] = (void **)(b.p + i * LINE_BLOCK + L);
		struct lf f = { .base = b.p, .start = mem_link_random(nodes, LINE_BLOCKS, &rng) };
		/* one pass per sample, right after the flush: never calibrated into many passes */
		struct bench_op op = { .before = lf_before, .loop = lf_loop, .arg = &f,
				       .fixed_iters = 1, .no_parallel = 1 };
		struct measurement m;
		if (measure(&op, &m) != 0)
			break;
		costs[n++] = measurement_stat(&m, 1) / LINE_BLOCKS;
		measurement_free(&m);
	}
	free(nodes);
	*ncost = n;
	mem_free(&b);
	for (int i = 1; i < n; i++)
		if (costs[i] < costs[0] / 3)
			return (size_t)8 << i;
	return 0;
}

/* Short samples (3 of 1 ms) for the derived tools unless -N, ENOUGH or --min-sample say
 * otherwise: they measure many points and keep the fastest. */
static const struct tool_options line_options = {
	.opts = (const struct opt[]){
		VERBOSE_OPT("print a sentence instead of the bare size"),
		{ 'M', NULL, OPT_SIZE, 4096, 1ll << 40, offsetof(struct cache_opts, max), "LEN", NULL,
		  "accepted as lmbench does (checked, no effect)", NULL },
		{ 0 } },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

static int line_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts opt = { 0 };
	mem_options_parse(c, argc, &argv, &line_options, &opt);
	int verbose = opt.verbose;
	if (optind < argc)
		usage_error(c, "unexpected operand '%s'", argv[optind]);
	double costs[16];
	int n = 0;
	size_t line = line_detect(costs, &n);
	size_t sl = sysfs_line();
	if (!line) {
		fprintf(stderr, "line: no line-size step found (flushing a cache line is not supported here?)\n");
		return EXIT_MEASURE;
	}
	struct sample s = { .value = (double)line, .iters = 1 };
	FILE *o = c->out;
	c->out = NULL;
	struct result *r = record_values(c, "line.bytes", "", NAN, &s, 1);
	c->out = o;
	char kv[200] = "";
	for (int i = 0; i < n; i++)
		snprintf(kv + strlen(kv), sizeof kv - strlen(kv), "%s%zu:%.2f", i ? "," : "",
			 (size_t)8 << i, costs[i]);
	mem_fact(c, r, "ns per load by distance", "ns_by_distance", 0, "%s", kv);
	mem_fact(c, r, "sysfs line", "sysfs_line", 0, "%zu", sl);
	if (verbose)
		out_printf(c, "cache line size: %zu bytes\n", line);
	else
		emit_line(c, r);
	return 0;
}

/* ---- tlb ----------------------------------------------------------------------------------- */

struct tlb_bufs {
	struct mem_buf pg, cmp;
	size_t line, psz;
	void ***nodes;
};

/* ns per load of a random chain over npages pages (one line each, at varying offsets), and of
 * a compact random chain over the same number of lines. */
static void tlb_point(struct tlb_bufs *t, size_t npages, double *pg_ns, double *cmp_ns)
{
	uint64_t rng = 0x7fb5d329728ea185ULL ^ npages;
	size_t lines_per_page = t->psz / t->line;
	for (size_t i = 0; i < npages; i++)
		t->nodes[i] = (void **)(t->pg.p + i * t->psz + (i % lines_per_page) * t->line);
	void **s1 = mem_link_random(t->nodes, npages, &rng);
	*pg_ns = mem_chase_ns(t->pg.p, npages * t->psz, s1, 2 * npages);
	for (size_t i = 0; i < npages; i++)
		t->nodes[i] = (void **)(t->cmp.p + i * t->line);
	void **s2 = mem_link_random(t->nodes, npages, &rng);
	*cmp_ns = mem_chase_ns(t->cmp.p, npages * t->line, s2, 2 * npages);
}

static const struct tool_options tlb_options = {
	.opts = (const struct opt[]){
		{ 'c', NULL, OPT_FLAG, 0, 0, offsetof(struct cache_opts, cost), NULL, NULL,
		  "also print the cost of a TLB miss", NULL },
		LINE_OPT,
		/* bytes, as lmbench's suite passes it (-M 128M) */
		{ 'M', NULL, OPT_SIZE, 16 * 4096, 1ll << 36, offsetof(struct cache_opts, max), "BYTES", "bytes",
		  "the most memory to spread pages over (default 64 MiB = 16 Ki pages)", NULL },
		MEM_PAGES_OPT(struct cache_opts, pages),
		{ 0 } },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

static int tlb_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = 64 };
	mem_options_parse(c, argc, &argv, &tlb_options, &o);
	int cost = o.cost;
	size_t line = (size_t)o.line, maxpages = o.max ? (size_t)(o.max / (uint64_t)sysconf(_SC_PAGESIZE)) : 16384;
	if (optind < argc)
		usage_error(c, "unexpected operand '%s'", argv[optind]);
	if (!pow2(line))
		usage_error(c, "-L %zu is not a power of two", line);
	struct tlb_bufs t = { .line = line, .psz = (size_t)sysconf(_SC_PAGESIZE) };
	mem_check_fits(c, (uint64_t)maxpages * t.psz);
	mem_alloc(&t.pg, maxpages * t.psz, mem_pages_opt(c, o.pages));
	mem_alloc(&t.cmp, maxpages * line, PAGES_4K);
	t.nodes = xmalloc(maxpages * sizeof *t.nodes);
	mem_page_fact(c, &t.pg);
	/* double until a page chain costs 15% more than the compact one, then bisect */
	size_t lo = 0, hi = 0;
	double pg, cm;
	for (size_t n = 8; n <= maxpages; n *= 2) {
		tlb_point(&t, n, &pg, &cm);
		if (pg > 1.15 * cm) {
			hi = n;
			break;
		}
		lo = n;
	}
	int status = 0;
	if (!hi || !lo) {
		fprintf(stderr, "tlb: no TLB effect found up to %zu pages\n", maxpages);
		status = EXIT_MEASURE;
	} else {
		while (hi - lo > 1) {
			size_t mid = (lo + hi) / 2;
			tlb_point(&t, mid, &pg, &cm);
			if (pg > 1.15 * cm)
				hi = mid;
			else
				lo = mid;
		}
		/* the extra cost of a miss, measured well past the reach */
		size_t far = 4 * hi <= maxpages ? 4 * hi : maxpages;
		tlb_point(&t, far, &pg, &cm);
		struct sample s = { .value = (double)lo, .iters = 1 };
		FILE *o = c->out;
		c->out = NULL;
		struct result *r = record_values(c, "tlb.pages", "", NAN, &s, 1);
		c->out = o;
		mem_fact(c, r, "TLB miss cost", "miss_ns", 0, "%.2f", pg - cm);
		if (cost)
			out_printf(c, "tlb: %zu pages %.5f nanoseconds\n", lo, pg - cm);
		else
			emit_line(c, r);
	}
	free(t.nodes);
	mem_free(&t.pg);
	mem_free(&t.cmp);
	return status;
}

/* ---- par_mem ------------------------------------------------------------------------------- */

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
static double pm_size(char *base, size_t line, const struct pm_order *o, size_t n, int maxk,
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
	double ns_k[PM_MAXK + 1];
	for (int kk = 1; kk <= maxk + 1; kk++) {
		int k = kk > maxk ? 1 : kk;
		struct pm s = { .k = k };
		if (kk > maxk)
			w = 0;
		for (int j = 0; j < k; j++)
			s.p[j] = at[w++];
		struct bench_op op = { .loop = pm_loops[k], .arg = &s };
		struct measurement m;
		if (measure(&op, &m) != 0)
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
		{ 0 } },
	.timing = { .repetitions = 3, .min_sample_ns = 5e5 },
};

static int par_mem(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = sysfs_line() ? (int)sysfs_line() : 64 };
	mem_options_parse(c, argc, &argv, &par_mem_options, &o);
	size_t line = (size_t)o.line;
	uint64_t max = o.max;
	if (optind < argc)
		usage_error(c, "unexpected operand '%s'", argv[optind]);
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
		double lat1, par = pm_size(b.p, line, &ord, n, PM_MAXK, &lat1);
		if (isnan(par)) {
			status = EXIT_MEASURE;
			break;
		}
		struct sample s = { .value = par, .iters = 1 };
		char params[64];
		snprintf(params, sizeof params, "line=%zu", line); /* size: the abscissa */
		record_values(c, "par_mem.parallelism", params, (double)size / 1e6, &s, 1);
	}
	pm_order_free(&ord);
	mem_free(&b);
	return status;
}

/* ---- cache --------------------------------------------------------------------------------- */

static void fmt_bytes(uint64_t v, char *buf, size_t len)
{
	if (v >= (1u << 20) && v % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(v >> 20));
	else if (v >= (1u << 20))
		snprintf(buf, len, "%.2f MiB", (double)v / 1048576.0);
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(v >> 10));
}

static const struct tool_options cache_options = {
	.opts = (const struct opt[]){
		IGNORED_C,
		VERBOSE_OPT("also print the curve it split, one [Point: BYTES bytes NS ns] line a size"),
		LINE_OPT,
		MAX_OPT(64 << 10, "largest size", "largest size LEN (default: as lat_mem_rd's largest size)"),
		MEM_PAGES_OPT(struct cache_opts, pages),
		{ 0 } },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

static int cache_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = sysfs_line() ? (int)sysfs_line() : 64 };
	mem_options_parse(c, argc, &argv, &cache_options, &o);
	int verbose = o.verbose;
	size_t line = (size_t)o.line;
	uint64_t max = o.max;
	if (optind < argc)
		usage_error(c, "unexpected operand '%s'", argv[optind]);
	struct mem_buf b;
	max = chase_buffer(c, line, max, o.pages, &b);
	/* the latency curve: random chase at 512 * (1, 1.25, 1.5, 1.75) * 2^k bytes */
	uint64_t sz[256];
	double ns[256];
	int n = 0;
	uint64_t seed = mem_seed();
	struct chain_builder cb;
	/* two sweeps, the lower of the two kept per size: other programs disturb the caches now
	 * and then, which only ever makes a point slower */
	for (int sweep = 0; sweep < 2; sweep++) {
		chain_begin(&cb, b.p, line, 0, seed + (uint64_t)sweep);
		int k = 0;
		for (uint64_t p2 = 512; p2 <= max && k < 252; p2 *= 2)
			for (int q = 4; q < 8; q++) {
				uint64_t s = p2 * (uint64_t)q / 4;
				if (s > max || s < line)
					break;
				size_t nlines = (size_t)(s / line);
				chain_grow(&cb, nlines);
				/* past the last level: a sweep, not a walk of nlines misses */
				size_t warm = !mem_warm_by_walk(s) ? MEM_WARM_SWEEP
					      : nlines < (1u << 20) ? nlines : (1u << 20);
				double v = mem_chase_ns(b.p, s, (void **)b.p, warm);
				if (isnan(v)) {
					mem_free(&b);
					return EXIT_MEASURE;
				}
				if (!sweep || v < ns[k])
					ns[k] = v;
				sz[k++] = s;
			}
		n = k;
	}
	if (verbose)
		for (int k = 0; k < n; k++)
			out_printf(c, "[Point: %llu bytes %.3f ns]\n", (unsigned long long)sz[k], ns[k]);
	struct level lv[8];
	int nl = mem_find_levels(sz, ns, n, lv, 8);
	struct cache_level sc[8];
	int ns_sys = sys_caches(0, sc, 8);
	/* The last level is main memory when the sizes went past twice the largest cache sysfs
	 * knows, or when it is far slower (3x, and over 40 ns) than the level before; otherwise
	 * -M stopped inside a cache and the last level is that cache. */
	uint64_t llc_sys = 0;
	for (int k = 0; k < ns_sys; k++)
		if (sc[k].size > llc_sys)
			llc_sys = sc[k].size;
	int last_is_mem = nl > 1 && ((llc_sys && max >= 2 * llc_sys) ||
				     (lv[nl - 1].ns > 3 * lv[nl - 2].ns && lv[nl - 1].ns > 40));
	int ncache = last_is_mem ? nl - 1 : nl;
	char a[32], bb[32];
	for (int i = 0; i < ncache; i++) {
		const struct cache_level *s = NULL;
		for (int k = 0; k < ns_sys; k++)
			if (sc[k].level == i + 1)
				s = &sc[k];
		/* parallelism at the middle of the level's plateau */
		uint64_t mid = sz[(lv[i].first + lv[i].last) / 2];
		struct pm_order po;
		pm_order_init(&po, (size_t)(mid / line), seed ^ (uint64_t)(i + 1));
		pm_order_link(&po, b.p, line, (size_t)(mid / line));
		double l1ns, par = pm_size(b.p, line, &po, (size_t)(mid / line), 8, &l1ns);
		pm_order_free(&po);
		fmt_bytes(lv[i].size, a, sizeof a);
		if (s) {
			fmt_bytes(s->size, bb, sizeof bb);
			double ratio = (double)lv[i].size / (double)s->size;
			char key[32], jkey[32];
			snprintf(key, sizeof key, "L%d", i + 1);
			snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", i + 1);
			int open_end = i == ncache - 1 && !last_is_mem; /* -M stopped inside it */
			if (open_end)
				mem_fact(c, NULL, key, jkey, 1, "sysfs %s, measured at least %s (sizes stop "
					 "there: -M)", bb, a);
			else
				mem_fact(c, NULL, key, jkey, 1, "sysfs %s, measured %s%s", bb, a,
					 ratio > 2 || ratio < 0.5 ? " -- they disagree (more than 2x apart)" : "");
		} else {
			char key[32], jkey[32];
			snprintf(key, sizeof key, "L%d", i + 1);
			snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", i + 1);
			mem_fact(c, NULL, key, jkey, 1, "sysfs has no level %d, measured %s", i + 1, a);
		}
		char params[32];
		snprintf(params, sizeof params, "level=%d", i + 1);
		struct sample s1 = { .value = (double)lv[i].size, .iters = 1 };
		struct sample s2 = { .value = lv[i].ns, .iters = 1 };
		FILE *o = c->out;
		c->out = NULL;
		record_values(c, "cache.size", params, NAN, &s1, 1);
		record_values(c, "cache.latency", params, NAN, &s2, 1);
		c->out = o;
		out_printf(c, "L%d cache: %llu bytes %.2f nanoseconds %zu linesize %.2f parallelism\n",
			   i + 1, (unsigned long long)lv[i].size, lv[i].ns, line, isnan(par) ? 1.0 : par);
	}
	for (int k = 0; k < ns_sys; k++)
		if (sc[k].level > ncache) {
			fmt_bytes(sc[k].size, bb, sizeof bb);
			char key[32], jkey[32];
			snprintf(key, sizeof key, "L%d", sc[k].level);
			snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", sc[k].level);
			if (sc[k].size > max / 2)
				mem_fact(c, NULL, key, jkey, 1, "sysfs %s, not measured (sizes stop at "
					 "%.0f MiB)", bb, (double)max / 1048576.0);
			else
				mem_fact(c, NULL, key, jkey, 1, "sysfs %s, no separate plateau "
					 "measured -- they disagree", bb);
		}
	if (last_is_mem) {
		int i = nl - 1;
		uint64_t mid = sz[(lv[i].first + lv[i].last) / 2];
		struct pm_order po;
		pm_order_init(&po, (size_t)(mid / line), seed ^ 0x99);
		pm_order_link(&po, b.p, line, (size_t)(mid / line));
		double l1ns, par = pm_size(b.p, line, &po, (size_t)(mid / line), 8, &l1ns);
		pm_order_free(&po);
		struct sample s2 = { .value = lv[i].ns, .iters = 1 };
		FILE *o = c->out;
		c->out = NULL;
		record_values(c, "cache.latency", "level=mem", NAN, &s2, 1);
		c->out = o;
		out_printf(c, "Memory latency: %.2f nanoseconds %.2f parallelism\n", lv[i].ns,
			   isnan(par) ? 1.0 : par);
	}
	mem_free(&b);
	return 0;
}

static const struct tool tools[] = {
	TOOL("tlb", tlb_tool, 0, "[-c] [-L LINE] [-M BYTES] [--pages 4k|thp|huge]",
	     "TLB entries: pages a chain can touch before translation misses cost",
	     "Compares a random chain over N pages (one line each) with a compact chain over N\n"
	     "lines; the first count where pages cost 15% more is bisected.\n"
	     "THP (--pages thp) would hide the TLB."),
	TOOL("par_mem", par_mem, 0, "[-L LINE] [-M MAX] [--pages 4k|thp|huge]",
	     "memory-level parallelism by size: independent chains walked together",
	     "Prints `MB parallelism` for sizes from 16 lines doubling to MAX (default: as\n"
	     "lat_mem_rd's largest size).\n"
	     "Parallelism = ns per load with one chain / ns per load with k chains, max over\n"
	     "k = 2..16."),
	TOOL("line", line_tool, 1, "[-v] [-M LEN]",
	     "cache line size",
	     "Flushes the first word of cached 1 KiB blocks and loads the word L bytes further:\n"
	     "the first L at which that load still hits is the line size. Prints the size\n"
	     "(-v: a sentence)."),
	TOOL("cache", cache_tool, 0, "[-v] [-L LINE] [-M LEN] [--pages 4k|thp|huge]",
	     "each cache level's size and latency, next to sysfs",
	     "Random-chase latency at 4 sizes per doubling up to LEN (default: as lat_mem_rd's\n"
	     "largest size), split into plateaus. Prints lmbench's `L%d cache: ...` and\n"
	     "`Memory latency: ...` lines, and [Ln: sysfs X, measured Y] facts, saying so where\n"
	     "they disagree. -v also prints the curve it split, one [Point: BYTES bytes NS ns]\n"
	     "line a size."),
	{ 0 },
};

const struct family fam_mem_cache = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools };
