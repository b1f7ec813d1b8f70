/*
 * cache.c — cache: every cache level's size and latency (and main memory's), measured, next
 * to what the system reports (sysfs, CPUID or sysconf: each named).
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
enum { ROW_CACHE_SIZE, ROW_CACHE_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];


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
		OPT_END },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

/* One cache run: the buffer, the curve it measured and the levels split from it. */
struct cache_run {
	struct tool_ctx *c;
	struct mem_buf b;
	size_t line;
	uint64_t max, seed;
	uint64_t sz[256];
	double ns[256];
	int n;
	struct level lv[8];
	int nl, ncache, last_is_mem;
	struct cache_level sc[8];
	int ns_sys;
};

/* The latency curve: random chase at 512 * (1, 1.25, 1.5, 1.75) * 2^k bytes. 0 or EXIT_MEASURE. */
static int measure_curve(struct cache_run *r)
{
	struct tool_ctx *c = r->c;
	size_t line = r->line;
	struct chain_builder cb;
	/* two sweeps, the lower of the two kept per size: other programs disturb the caches now
	 * and then, which only ever makes a point slower */
	for (int sweep = 0; sweep < 2; sweep++) {
		chain_begin(&cb, r->b.p, line, 0, r->seed + (uint64_t)sweep);
		int k = 0;
		for (uint64_t p2 = 512; p2 <= r->max && k < 252; p2 *= 2)
			for (int q = 4; q < 8; q++) {
				uint64_t s = p2 * (uint64_t)q / 4;
				if (s > r->max || s < line)
					break;
				size_t nlines = (size_t)(s / line);
				chain_grow(&cb, nlines);
				/* past the last level: a sweep, not a walk of nlines misses */
				size_t warm = !mem_warm_by_walk(s) ? MEM_WARM_SWEEP
					      : nlines < (1u << 20) ? nlines : (1u << 20);
				double v = mem_chase_ns(&c->timing, r->b.p, s, (void **)r->b.p, warm);
				if (isnan(v))
					return EXIT_MEASURE;
				if (!sweep || v < r->ns[k])
					r->ns[k] = v;
				r->sz[k++] = s;
			}
		r->n = k;
	}
	return 0;
}

/* Split the curve into levels and decide whether the last one is main memory: it is when the
 * sizes went past twice the largest cache sysfs knows, when its plateau starts past that cache
 * (no cache is larger than the largest there is: a curve made jagged by other work beside it
 * can show a step between the last cache and memory, and the plateau after it is still
 * memory), or when it is far slower (3x, and over 40 ns) than the level before; otherwise -M
 * stopped inside a cache and the last level is that cache. */
static void split_levels(struct cache_run *r)
{
	r->nl = mem_find_levels(r->sz, r->ns, r->n, r->lv, 8);
	r->ns_sys = sys_caches(0, r->sc, 8);
	uint64_t llc_sys = 0;
	for (int k = 0; k < r->ns_sys; k++)
		if (r->sc[k].size > llc_sys)
			llc_sys = r->sc[k].size;
	const struct level *lv = r->lv;
	int nl = r->nl;
	r->last_is_mem = nl > 1 && ((llc_sys && r->max >= 2 * llc_sys) ||
				    (llc_sys && r->sz[lv[nl - 1].first] > llc_sys) ||
				    (lv[nl - 1].ns > 3 * lv[nl - 2].ns && lv[nl - 1].ns > 40));
	r->ncache = r->last_is_mem ? nl - 1 : nl;
}

/* Memory-level parallelism at the middle of level i's plateau; NAN when it cannot say. */
static double level_parallelism(struct cache_run *r, int i, uint64_t seed)
{
	const struct level *lv = &r->lv[i];
	uint64_t mid = r->sz[(lv->first + lv->last) / 2];
	size_t nlines = (size_t)(mid / r->line);
	struct pm_order po;
	pm_order_init(&po, nlines, seed);
	pm_order_link(&po, r->b.p, r->line, nlines);
	double l1ns, par = pm_size(&r->c->timing, r->b.p, r->line, &po, nlines, 8, &l1ns);
	pm_order_free(&po);
	return par;
}

/* Store one value without printing its lmbench line (the tool prints its own lines). */
static void record_quietly(struct tool_ctx *c, const char *metric, const char *params,
			   double value)
{
	struct sample s = { .value = value, .iters = 1 };
	FILE *o = c->out;
	c->out = NULL;
	record_values(c, metric, params, NAN, &s, 1);
	c->out = o;
}

/* The [Ln: ...] fact for a level the curve shows: next to the system's figure, if any. */
static void measured_level_fact(struct cache_run *r, int i)
{
	const struct cache_level *s = NULL;
	for (int k = 0; k < r->ns_sys; k++)
		if (r->sc[k].level == i + 1)
			s = &r->sc[k];
	char a[32], bb[32], key[32], jkey[32];
	fmt_bytes(r->lv[i].size, a, sizeof a);
	snprintf(key, sizeof key, "L%d", i + 1);
	snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", i + 1);
	if (!s) {
		mem_fact(r->c, NULL, key, jkey, 1, "no level %d reported, measured %s", i + 1, a);
		return;
	}
	fmt_bytes(s->size, bb, sizeof bb);
	double ratio = (double)r->lv[i].size / (double)s->size;
	int open_end = i == r->ncache - 1 && !r->last_is_mem; /* -M stopped inside it */
	if (open_end)
		mem_fact(r->c, NULL, key, jkey, 1, "%s %s, measured at least %s (sizes stop "
			 "there: -M)", s->source, bb, a);
	else
		mem_fact(r->c, NULL, key, jkey, 1, "%s %s, measured %s%s", s->source, bb, a,
			 ratio > 2 || ratio < 0.5 ? " -- they disagree (more than 2x apart)" : "");
}

/* Level i (a cache): its fact, its stored size and latency, lmbench's `L%d cache:` line. */
static void report_cache_level(struct cache_run *r, int i)
{
	double par = level_parallelism(r, i, r->seed ^ (uint64_t)(i + 1));
	measured_level_fact(r, i);
	char params[32];
	snprintf(params, sizeof params, "level=%d", i + 1);
	record_quietly(r->c, metrics[ROW_CACHE_SIZE].id, params, (double)r->lv[i].size);
	record_quietly(r->c, metrics[ROW_CACHE_LATENCY].id, params, r->lv[i].ns);
	out_printf(r->c, "L%d cache: %llu bytes %.2f nanoseconds %zu linesize %.2f parallelism\n",
		   i + 1, (unsigned long long)r->lv[i].size, r->lv[i].ns, r->line,
		   isnan(par) ? 1.0 : par);
}

/* The facts for the levels the system reports beyond those measured. */
static void unmeasured_level_facts(struct cache_run *r)
{
	for (int k = 0; k < r->ns_sys; k++) {
		const struct cache_level *s = &r->sc[k];
		if (s->level <= r->ncache)
			continue;
		char bb[32], key[32], jkey[32];
		fmt_bytes(s->size, bb, sizeof bb);
		snprintf(key, sizeof key, "L%d", s->level);
		snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", s->level);
		if (s->size > r->max / 2)
			mem_fact(r->c, NULL, key, jkey, 1, "%s %s, not measured (sizes stop at "
				 "%.0f MiB)", s->source, bb, (double)r->max / 1048576.0);
		else
			mem_fact(r->c, NULL, key, jkey, 1, "%s %s, no separate plateau "
				 "measured -- they disagree", s->source, bb);
	}
}

/* The last level as main memory: stored latency and lmbench's `Memory latency:` line. */
static void report_memory_level(struct cache_run *r)
{
	int i = r->nl - 1;
	double par = level_parallelism(r, i, r->seed ^ 0x99);
	record_quietly(r->c, metrics[ROW_CACHE_LATENCY].id, "level=mem", r->lv[i].ns);
	out_printf(r->c, "Memory latency: %.2f nanoseconds %.2f parallelism\n", r->lv[i].ns,
		   isnan(par) ? 1.0 : par);
}

static int cache_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = chase_sysfs_line() ? (int)chase_sysfs_line() : 64 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
	struct cache_run r = { .c = c, .line = (size_t)o.line };
	r.max = chase_buffer(c, r.line, o.max, o.pages, &r.b);
	r.seed = mem_seed();
	int status = measure_curve(&r);
	if (!status) {
		if (o.verbose)
			for (int k = 0; k < r.n; k++)
				out_printf(c, "[Point: %llu bytes %.3f ns]\n",
					   (unsigned long long)r.sz[k], r.ns[k]);
		split_levels(&r);
		for (int i = 0; i < r.ncache; i++)
			report_cache_level(&r, i);
		unmeasured_level_facts(&r);
		if (r.last_is_mem)
			report_memory_level(&r);
	}
	mem_free(&r.b);
	return status;
}


static const struct tool tools[] = {
	TOOL("cache", cache_tool, 0, &cache_options, "[-v] [-L LINE] [-M LEN] [--pages 4k|thp|huge]",
	     "each cache level's size and latency, next to the reported ones",
	     "Random-chase latency at 4 sizes per doubling up to LEN (default: as lat_mem_rd's\n"
	     "largest size), split into plateaus. Prints lmbench's `L%d cache: ...` and\n"
	     "`Memory latency: ...` lines, and [Ln: SOURCE X, measured Y] facts (SOURCE: sysfs,\n"
	     "cpuid or sysconf), saying so where they disagree. -v also prints the curve it\n"
	     "split, one [Point: BYTES bytes NS ns] line a size."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_CACHE_SIZE] = { .id = "cache.size",
	  .unit = "bytes", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "cache size of level {level}",
	  .line = NULL, .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_CACHE_SIZE },
	  .size_mark = 1, /* the report marks it on memory charts */
	  .work = "random chases over growing sizes; where the per-load cost steps",
	  .subtracted = SUB_CLOCK, .lmbench = "derived from chase latencies",
	  .noise = { .group = "memory", .run = 0.21, .run_eq = 0.21, .df = 5, .clock = OWN_PACE } },
	[ROW_CACHE_LATENCY] = { .id = "cache.latency",
	  .cells = {
		{ .cell = SUM_L1, .read = READ_LEVEL, .params = "level=1" },
		{ .cell = SUM_L2, .read = READ_LEVEL, .params = "level=2" },
	  },
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "load latency of level {level}; level=mem for main memory",
	  .line = NULL, .vfmt = "%.2f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_CACHE_LATENCY },
	  .work = "100 dependent random loads within a level's size; per load",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "memory", .run = 0.21, .run_eq = 0.21, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_cache = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools, metrics };
