/*
 * line.c — line: the cache line size, measured (see below) and printed next to sysfs's.
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
enum { ROW_LINE_BYTES, ROW_END };
static const struct metric_def metrics[ROW_END + 1];


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
static size_t line_detect(struct tool_ctx *c, double *costs, int *ncost)
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
		if (measure(&c->timing, &op, &m) != 0)
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
		OPT_SIZE('M', NULL, struct cache_opts, max, "LEN", 4096, 1ll << 40, NULL,
			"accepted as lmbench does (checked, no effect)"),
		OPT_END },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

static int line_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts opt = { 0 };
	struct operands args = mem_options_parse(c, argc, &argv, &opt);
	int verbose = opt.verbose;
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
	double costs[16];
	int n = 0;
	size_t line = line_detect(c, costs, &n);
	size_t sl = chase_sysfs_line();
	if (!line) {
		fprintf(stderr, "line: no line-size step found (flushing a cache line is not supported here?)\n");
		return EXIT_MEASURE;
	}
	struct sample s = { .value = (double)line, .iters = 1 };
	FILE *o = c->out;
	c->out = NULL;
	struct result *r = record_values(c, metrics[ROW_LINE_BYTES].id, "", NAN, &s, 1);
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


static const struct tool tools[] = {
	TOOL("line", line_tool, 1, &line_options, "[-v] [-M LEN]",
	     "cache line size",
	     "Flushes the first word of cached 1 KiB blocks and loads the word L bytes further:\n"
	     "the first L at which that load still hits is the line size. Prints the size\n"
	     "(-v: a sentence)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LINE_BYTES] = { .id = "line.bytes",
	  .cells = { { .cell = SUM_LINE, .read = READ_HEADER } },
	  .unit = "bytes", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "cache line size",
	  .line = "%v", .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .header = "LINE_SIZE" },
	  .work = "chases at growing distances over flushed blocks; the distance where the cost "
		"per load steps",
	  .subtracted = SUB_CLOCK, .lmbench = "derived from chase latencies",
	  .noise = NOISE_UNMEASURED },
	{ 0 },
};

const struct tool_file toolfile_line = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools, metrics };
