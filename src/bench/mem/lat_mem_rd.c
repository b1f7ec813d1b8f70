/*
 * lat_mem_rd.c — lat_mem_rd: load latency as the working set grows, by walking a chain of
 * dependent pointers (each load's address is the previous load's value).
 *
 *   lat_mem_rd [-t] [-P N -W US -N N] [--pages 4k|thp|huge] [SIZE_MiB [STRIDE...]]
 *
 * For each stride (default 64 bytes = lmbench's 512/sizeof(void *)), prints "stride=N and then
 * one `%.5f %.3f` line per size (MiB, ns per load) over lmbench's size steps from 512 bytes up to
 * SIZE_MiB; an empty line ends each series when strides were given, as lmbench does.
 *   default chain   slot i points to slot i+1 (stride bytes on): prefetchers see a stream, so
 *                   large sizes show bandwidth more than latency (lmbench's "main memory" at
 *                   7 ns on modern CPUs)
 *   -t              one random cycle through every slot of the size (mem_common.c explains how
 *                   it grows with the size without being rebuilt); prefetchers cannot follow it
 *                   and, on 4 KiB pages, most loads past the TLB's reach also miss the TLB.
 *                   Sizes past the last level are warmed by reading their memory in address
 *                   order (one load a line), not by walking the chain (a dependent miss a
 *                   line); smaller ones by the walk, as before
 * Without SIZE_MiB the largest size is 4 x the last-level cache reported (sysfs, CPUID, sysconf),
 * or 4 x a measured latency knee when none is or it is over MEM_DEFAULT_CAP / 4, at most
 * MEM_DEFAULT_CAP and available memory (mem_common.c), so the curve reaches main memory.
 * With -t (sizes of 8 MiB and more) a [Block-random chase: ...] fact gives the other main-memory
 * figure, random only within 256 KiB blocks (multichase's order), measured at the largest size.
 * The statistic is the minimum of short samples (5 by default), as lmbench takes the minimum.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/mem/mem_common.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_MEM_RD_SEQ, ROW_LAT_MEM_RD_RAND, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* lmbench's size steps: x2 below 1 KiB, +1 KiB below 4 KiB, then 8 steps per doubling. */
size_t lat_next_range(size_t r)
{
	if (r < 1024)
		return r * 2;
	if (r < 4096)
		return r + 1024;
	size_t s = 32 << 10;
	while (s <= r)
		s *= 2;
	return r + s / 16;
}

/*
 * The other main-memory figure: a chase random within 256 KiB blocks, the blocks themselves in
 * random order (multichase's default order). Consecutive loads mostly stay inside one block, so
 * the TLB (and the open DRAM page) keeps up and the figure is lower than the whole-buffer one,
 * which on 4 KiB pages pays a page walk for most loads. Measured once at the largest size,
 * before the series, so both figures are on record. NAN when the size is under 2 blocks.
 */
static double block_chase_ns(struct tool_ctx *c, struct mem_buf *b, size_t bytes,
			     uint64_t seed)
{
	size_t line = 64, blk = 256 << 10, per = blk / line, nb = bytes / blk, n = nb * per;
	if (nb < 2)
		return NAN;
	size_t *ord = xmalloc(n * sizeof *ord), *bo = xmalloc(nb * sizeof *bo);
	uint64_t rng = seed ^ 0xb10c;
	for (size_t i = 0; i < nb; i++)
		bo[i] = i;
	for (size_t i = nb - 1; i > 0; i--) {
		size_t j = (size_t)mem_rand_below(&rng, i + 1), t = bo[i];
		bo[i] = bo[j];
		bo[j] = t;
	}
	for (size_t k = 0; k < nb; k++) {
		size_t *o = ord + k * per;
		for (size_t i = 0; i < per; i++)
			o[i] = bo[k] * per + i;
		for (size_t i = per - 1; i > 0; i--) {
			size_t j = (size_t)mem_rand_below(&rng, i + 1), t = o[i];
			o[i] = o[j];
			o[j] = t;
		}
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(b->p + ord[i] * line) = b->p + ord[(i + 1) % n] * line;
	void **start = (void **)(b->p + ord[0] * line);
	free(ord);
	free(bo);
	return mem_chase_ns(&c->timing, b->p, n * line, start, n);
}

struct lat_mem_opts {
	int random;
	const char *pages;
	uint64_t mem;
};
/* Short samples, minimum statistic: a default sweep takes seconds, not minutes. */
static const struct tool_options lat_mem_options = {
	.opts = (const struct opt[]){
		OPT_BOOL('t', NULL, struct lat_mem_opts, random,
			"one random cycle through every slot (prefetchers cannot follow it)"),
		MEM_PAGES_OPT(struct lat_mem_opts, pages),
		OPT_SIZE(0, "mem", struct lat_mem_opts, mem, "SIZE", 512, 1ll << 44, NULL,
			"the largest size in bytes (k/m/g); every operand is then a stride"),
		OPT_END },
	.timing = { .repetitions = 5, .min_sample_ns = 2e6 },
};

/* The largest size in bytes: --mem, else the SIZE_MiB operand (consumed), else the default
 * (its reason in `how`, for the [Largest size] fact). */
static size_t lat_max_bytes(struct tool_ctx *c, uint64_t mem, struct operands *args, char *how,
			    size_t howlen)
{
	if (mem) /* --mem SIZE (bytes, k/m/g): the largest size; every operand is then a stride */
		return (size_t)mem;
	if (args->n == 0)
		return mem_default_bytes(1, 1, how, howlen);
	char *end;
	double mib = strtod(args->v[0], &end);
	if (end == args->v[0] || *end || !(mib > 0))
		usage_error(c, "size '%s' is not a positive number of MiB", args->v[0]);
	if (mib > 1e7) /* 10 TiB: beyond any machine, and beyond size_t's exact range */
		usage_error(c, "size %s MiB is too large (at most 10000000 MiB)", args->v[0]);
	size_t maxb = (size_t)(mib * 1048576.0);
	if (maxb < 512)
		usage_error(c, "size '%s' MiB is below 512 bytes", args->v[0]);
	args->v++;
	args->n--;
	return maxb;
}

/* The strides: every remaining operand, or lmbench's 512 / sizeof(void *) when none is given.
 * Sets *n to their count. */
static size_t *lat_strides(struct tool_ctx *c, struct operands args, int *n)
{
	int nstrides = args.n;
	size_t *strides = xcalloc((size_t)(nstrides ? nstrides : 1), sizeof *strides);
	for (int i = 0; i < nstrides; i++) {
		long long s = parse_int(args.v[i], (long long)sizeof(void *), 1 << 30, "stride");
		if (s % (long long)sizeof(void *))
			usage_error(c, "stride %lld is not a multiple of %zu bytes", s, sizeof(void *));
		strides[i] = (size_t)s;
	}
	if (!nstrides) {
		strides[0] = 512 / sizeof(void *);
		nstrides = 1;
	}
	*n = nstrides;
	return strides;
}

/* The facts before the series: pages, largest size, the chain (and, with -t at 8 MiB and more,
 * the block-random figure). Returns -t's seed (0 without -t). */
static uint64_t lat_facts(struct tool_ctx *c, struct mem_buf *b, size_t maxb, const char *how,
			  int rnd)
{
	mem_page_fact(c, b);
	if (how[0])
		mem_fact(c, NULL, "Largest size", "largest_size", 1, "%.0f MiB = %s", (double)maxb / 1048576.0, how);
	uint64_t seed = 0;
	if (rnd) {
		seed = mem_seed();
		mem_fact(c, NULL, "Chain", "chain", 1, "one random cycle through every slot of each size (on 4 KiB pages TLB misses"
			 " included: --pages thp leaves most out), seed %#llx",
			 (unsigned long long)seed);
	} else {
		mem_fact(c, NULL, "Chain", "chain", 1, "sequential, stride bytes apart (prefetchers help)");
	}
	if (rnd && maxb >= (8u << 20)) {
		double bns = block_chase_ns(c, b, maxb, seed);
		if (!isnan(bns))
			mem_fact(c, NULL, "Block-random chase", "block_chase_ns", 1,
				 "%.3f ns at %.0f MiB (random within 256 KiB blocks, multichase's order: "
				 "few TLB misses)", bns, (double)maxb / 1048576.0);
	}
	return seed;
}

/* One stride's series: "stride=N, then a `MiB ns` line per size up to maxb. 0 or EXIT_MEASURE. */
static int lat_series(struct tool_ctx *c, struct mem_buf *b, size_t maxb, size_t stride,
		      int rnd, uint64_t seed)
{
	/* -t keeps lmbench's stride even below the line: one slot per line was tried and
	 * changes the numbers (a cycle then revisits a line once a lap, so past a cache it
	 * never hits; 16-byte slots revisit lines at random times: bench/README.md) */
	size_t nmax = maxb / stride;
	struct chain_builder cb;
	if (rnd) {
		chain_begin(&cb, b->p, stride, 0, seed);
	} else {
		for (size_t i = 0; i + 1 < nmax; i++)
			*(void **)(b->p + i * stride) = b->p + (i + 1) * stride;
	}
	out_printf(c, "\"stride=%zu\n", stride);
	for (size_t range = 512; range <= maxb; range = lat_next_range(range)) {
		if (range < stride)
			continue;
		size_t n = range / stride;
		void **last = (void **)(b->p + (n - 1) * stride);
		if (rnd)
			chain_grow(&cb, n);
		else
			*last = b->p; /* close the loop at this size */
		/* -t past the last level warms by a sweep in address order, not a walk of n
		 * dependent misses (mem_common.h) */
		size_t warm = rnd && !mem_warm_by_walk(range) ? MEM_WARM_SWEEP : n;
		struct measurement m;
		if (mem_chase_measure(&c->timing, b->p, n * stride, (void **)b->p, warm, &m) != 0)
			return EXIT_MEASURE;
		char params[64];
		snprintf(params, sizeof params, "stride=%zu", stride); /* size is the abscissa */
		record_latency(c, rnd ? metrics[ROW_LAT_MEM_RD_RAND].id : metrics[ROW_LAT_MEM_RD_SEQ].id, params,
			       (double)range / 1048576.0, &m, MEM_CHASE_LOADS);
		measurement_free(&m);
		if (!rnd && n < nmax)
			*last = b->p + n * stride; /* reopen for the next size */
	}
	return 0;
}

static int lat_mem_rd(struct tool_ctx *c, int argc, char **argv)
{
	struct lat_mem_opts o = { 0 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	enum mem_pages pages = mem_pages_opt(c, o.pages);
	char how[160] = "";
	size_t maxb = lat_max_bytes(c, o.mem, &args, how, sizeof how);
	int explicit_strides = args.n > 0, nstrides;
	size_t *strides = lat_strides(c, args, &nstrides);
	mem_check_fits(c, (uint64_t)maxb * (uint64_t)c->timing.opts.parallel);

	struct mem_buf b;
	mem_alloc(&b, maxb, pages);
	uint64_t seed = lat_facts(c, &b, maxb, how, o.random);
	int status = 0;
	for (int si = 0; si < nstrides && !status; si++) {
		status = lat_series(c, &b, maxb, strides[si], o.random, seed);
		if (explicit_strides)
			out_printf(c, "\n");
	}
	mem_free(&b);
	free(strides);
	return status;
}

static const struct tool tools[] = {
	TOOL("lat_mem_rd", lat_mem_rd, 0, &lat_mem_options, "[-t] [--pages 4k|thp|huge] [--mem SIZE] [SIZE_MiB [STRIDE...]]",
	     "memory load latency by working-set size (sequential or -t random chain)",
	     "Prints \"stride=N, then `MiB ns` lines from 512 bytes to SIZE_MiB in lmbench's steps.\n"
	     "-t walks one random cycle through every slot (seed in the [Chain: ...] line; set\n"
	     "PLUMB_SEED to repeat it). SIZE_MiB defaults to 4 x the last-level cache, or 4 x a\n"
	     "measured latency knee when the reported size is over 64 MiB or unknown, at most\n"
	     "256 MiB and available memory; --mem SIZE (bytes with k/m/g) sets it too, and then\n"
	     "every operand is a stride.\n"
	     "Statistic: minimum of 5 samples of 2 ms per size (-N, ENOUGH, --min-sample change it)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_MEM_RD_SEQ] = { .id = "lat_mem_rd.seq",
	  .cells = {
		{ .cell = SUM_L1, .read = READ_WALK, .params = "stride=128", .x = 1024 / 1048576.0 },
		{ .cell = SUM_L2, .read = READ_WALK, .params = "stride=128", .x = 0.125 },
		{ .cell = SUM_MEM, .read = READ_WALK, .params = "stride=128" },
	  },
	  .unit = "ns", .better = LOWER, .stat = BEST, .version = 1,
	  .desc = "load latency, chain in address order (MiB)",
	  .line = "%x %v", .xfmt = "%.5f", .vfmt = "%.3f",
	  .lmbench_text = { .mode = "Memory load latency", .title = "\"stride=", .param = "stride" },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MIB },
	  .chart = "mem_latency", .chart_slug = "mem-latency-seq",
	  .chart_title = "Memory load latency, sequential chain (lat_mem_rd)",
	  .summary = { .at = SUMMARY_LISTED_OR_LAST, .param = "stride", .param_is = 128,
		      .x = { 0.0009765625, 0.125 }, .tol = 0.03 },
	  .work = "100 dependent loads of a chain in address order, stride bytes apart; per load",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "prefetchers follow it: at large sizes a bandwidth more than a latency, as "
		"lmbench's",
	  .noise = { .group = "memory", .run = 0.21, .run_eq = 0.21, .df = 5, .clock = OWN_PACE } },
	[ROW_LAT_MEM_RD_RAND] = { .id = "lat_mem_rd.rand",
	  .cells = { { .cell = SUM_RND, .read = READ_WALK, .params = "stride=16" } },
	  .unit = "ns", .better = LOWER, .stat = BEST, .version = 2,
	  .desc = "load latency, one random cycle through all lines (MiB)",
	  .line = "%x %v", .xfmt = "%.5f", .vfmt = "%.3f",
	  .lmbench_text = { .mode = "Random load latency", .title = "\"stride=", .param = "stride" },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MIB },
	  .chart = "mem_latency", .chart_slug = "mem-latency-rand",
	  .chart_title = "Memory load latency, random chain (lat_mem_rd -t)",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "100 dependent loads of one random cycle through every stride-slot of the size; "
		"per load",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "version 2: one random cycle through every line of the size, grown with the size "
		"(lmbench builds its random order differently); on 4 KiB pages TLB misses "
		"included",
	  .noise = { .group = "memory", .run = 0.21, .run_eq = 0.21, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_mem_lat = { "memlat", SUBSET_HW, "memory latency (lat_mem_rd)", tools, metrics };
