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

static int cache_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = chase_sysfs_line() ? (int)chase_sysfs_line() : 64 };
	mem_options_parse(c, argc, &argv, &o);
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
				mem_fact(c, NULL, key, jkey, 1, "%s %s, measured at least %s (sizes stop "
					 "there: -M)", s->source, bb, a);
			else
				mem_fact(c, NULL, key, jkey, 1, "%s %s, measured %s%s", s->source, bb, a,
					 ratio > 2 || ratio < 0.5 ? " -- they disagree (more than 2x apart)" : "");
		} else {
			char key[32], jkey[32];
			snprintf(key, sizeof key, "L%d", i + 1);
			snprintf(jkey, sizeof jkey, "l%d_sysfs_vs_measured", i + 1);
			mem_fact(c, NULL, key, jkey, 1, "no level %d reported, measured %s", i + 1, a);
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
				mem_fact(c, NULL, key, jkey, 1, "%s %s, not measured (sizes stop at "
					 "%.0f MiB)", sc[k].source, bb, (double)max / 1048576.0);
			else
				mem_fact(c, NULL, key, jkey, 1, "%s %s, no separate plateau "
					 "measured -- they disagree", sc[k].source, bb);
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
	TOOL("cache", cache_tool, 0, &cache_options, "[-v] [-L LINE] [-M LEN] [--pages 4k|thp|huge]",
	     "each cache level's size and latency, next to the reported ones",
	     "Random-chase latency at 4 sizes per doubling up to LEN (default: as lat_mem_rd's\n"
	     "largest size), split into plateaus. Prints lmbench's `L%d cache: ...` and\n"
	     "`Memory latency: ...` lines, and [Ln: SOURCE X, measured Y] facts (SOURCE: sysfs,\n"
	     "cpuid or sysconf), saying so where they disagree. -v also prints the curve it\n"
	     "split, one [Point: BYTES bytes NS ns] line a size."),
	{ 0 },
};

static const struct metric_def metrics[] = {
	{ METRIC("cache.size", "bytes", NEUTRAL, MEDIAN, 1, "cache size of level {level}"),
	  LMBENCH(NULL, NULL, "%.0f", NULL),
	  METHOD("random chases over growing sizes; where the per-load cost steps", SUB_CLOCK,
		"derived from chase latencies"),
	  NOISE("memory", 0.21, 0.21, 0, 5, OWN_PACE) },
	{ METRIC("cache.latency", "ns", LOWER, MEDIAN, 1,
		"load latency of level {level}; level=mem for main memory"),
	  LMBENCH(NULL, NULL, "%.2f", NULL),
	  METHOD("100 dependent random loads within a level's size; per load", SUB_CLOCK, ""),
	  NOISE("memory", 0.21, 0.21, 0, 5, OWN_PACE) },
	{ 0 },
};

const struct tool_file toolfile_cache = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools, 203, { metrics, 135 } };
