/*
 * tlb.c — tlb: TLB entries, the pages a chain can touch before address translation starts to
 * cost.
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
enum { ROW_TLB_PAGES, ROW_END };
static const struct metric_def metrics[ROW_END + 1];


struct tlb_bufs {
	struct mem_buf pg, cmp;
	size_t line, psz;
	void ***nodes;
};

/* ns per load of a random chain over npages pages (one line each, at varying offsets), and of
 * a compact random chain over the same number of lines. */
static void tlb_point(struct tool_ctx *c, struct tlb_bufs *t, size_t npages, double *pg_ns,
		      double *cmp_ns)
{
	uint64_t rng = 0x7fb5d329728ea185ULL ^ npages;
	size_t lines_per_page = t->psz / t->line;
	for (size_t i = 0; i < npages; i++)
		t->nodes[i] = (void **)(t->pg.p + i * t->psz + (i % lines_per_page) * t->line);
	void **s1 = mem_link_random(t->nodes, npages, &rng);
	*pg_ns = mem_chase_ns(&c->timing, t->pg.p, npages * t->psz, s1, 2 * npages);
	for (size_t i = 0; i < npages; i++)
		t->nodes[i] = (void **)(t->cmp.p + i * t->line);
	void **s2 = mem_link_random(t->nodes, npages, &rng);
	*cmp_ns = mem_chase_ns(&c->timing, t->cmp.p, npages * t->line, s2, 2 * npages);
}

/* Whether npages are past the TLB's reach: pages cost 15% more than the compact chain in 3
 * measurements of 3 (a real step is there every time, a busy moment is not). */
static int tlb_past_reach(struct tool_ctx *c, struct tlb_bufs *t, size_t npages, double *pg,
			  double *cm)
{
	for (int i = 0; i < 3; i++) {
		tlb_point(c, t, npages, pg, cm);
		if (!(*pg > 1.15 * *cm))
			return 0;
	}
	return 1;
}

static const struct tool_options tlb_options = {
	.opts = (const struct opt[]){
		OPT_BOOL('c', NULL, struct cache_opts, cost, "also print the cost of a TLB miss"),
		LINE_OPT,
		/* bytes, as lmbench's suite passes it (-M 128M) */
		OPT_SIZE('M', NULL, struct cache_opts, max, "BYTES", 16 * 4096, 1ll << 36, "bytes",
			"the most memory to spread pages over (default 64 MiB = 16 Ki pages)"),
		MEM_PAGES_OPT(struct cache_opts, pages),
		OPT_END },
	.timing = { .repetitions = 3, .min_sample_ns = 1e6 },
};

static int tlb_tool(struct tool_ctx *c, int argc, char **argv)
{
	struct cache_opts o = { .line = 64 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	int cost = o.cost;
	size_t line = (size_t)o.line, maxpages = o.max ? (size_t)(o.max / (uint64_t)sysconf(_SC_PAGESIZE)) : 16384;
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
	if (!chase_pow2(line))
		usage_error(c, "-L %zu is not a power of two", line);
	struct tlb_bufs t = { .line = line, .psz = (size_t)sysconf(_SC_PAGESIZE) };
	mem_check_fits(c, (uint64_t)maxpages * t.psz);
	mem_alloc(&t.pg, maxpages * t.psz, mem_pages_opt(c, o.pages));
	mem_alloc(&t.cmp, maxpages * line, PAGES_4K);
	t.nodes = xmalloc(maxpages * sizeof *t.nodes);
	mem_page_fact(c, &t.pg);
	/* double until a page chain costs 15% more than the compact one, then bisect; a step
	 * that looks past the reach counts only when 3 measurements in a row say so: other work
	 * only adds time, and under load one measurement of a few pages (or two) can be slowed by
	 * that much, which made a count of 8 look past the reach (issue 34) */
	size_t lo = 0, hi = 0;
	double pg, cm;
	for (size_t n = 8; n <= maxpages; n *= 2) {
		if (tlb_past_reach(c, &t, n, &pg, &cm)) {
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
			if (tlb_past_reach(c, &t, mid, &pg, &cm))
				hi = mid;
			else
				lo = mid;
		}
		/* the extra cost of a miss, measured well past the reach */
		size_t far = 4 * hi <= maxpages ? 4 * hi : maxpages;
		tlb_point(c, &t, far, &pg, &cm);
		struct sample s = { .value = (double)lo, .iters = 1 };
		FILE *o = c->out;
		c->out = NULL;
		struct result *r = record_values(c, metrics[ROW_TLB_PAGES].id, "", NAN, &s, 1);
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


static const struct tool tools[] = {
	TOOL("tlb", tlb_tool, 0, &tlb_options, "[-c] [-L LINE] [-M BYTES] [--pages 4k|thp|huge]",
	     "TLB entries: pages a chain can touch before translation misses cost",
	     "Compares a random chain over N pages (one line each) with a compact chain over N\n"
	     "lines; the first count where pages cost 15% more is bisected.\n"
	     "THP (--pages thp) would hide the TLB."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_TLB_PAGES] = { .id = "tlb.pages",
	  .cells = { { .cell = SUM_TLB, .read = READ_FIRST } },
	  .unit = "pages", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "TLB entries (pages reachable without a TLB miss)",
	  .line = "tlb: %v pages", .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "random chains over growing page counts; the count before the per-load cost "
		"steps up",
	  .subtracted = SUB_CLOCK, .lmbench = "derived from chase latencies",
	  .noise = { .group = "memory", .run = 0.17, .run_eq = 0.17, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_tlb = { "caches", SUBSET_HW, "TLB, parallelism, line, caches", tools, metrics };
