/*
 * lat_dram_page.c — lat_dram_page: what a load costs more when it opens a new DRAM page (row)
 * than when it reads the row already open — lmbench's estimate, by two pointer chases over
 * the same lines of one buffer far larger than the caches, differing only in their order:
 *   hit   the pages (OS pages, 4 KiB) in a random order; within each page every line, in
 *         bit-reversed order, before the next page: consecutive loads fall in one page, and so
 *         most often in one open DRAM row;
 *   miss  the same pages taken GROUP at a time (-T, 16): line i of each page of the group in
 *         turn, then line i+1 of each: consecutive loads fall in different pages, and so in
 *         rows the controller must open.
 * Both visit every line once per cycle, in the same number of pages at a time for the TLB; the
 * printed figure is miss − hit in nanoseconds per load (the median of the sample-by-sample
 * differences), as lmbench
 * prints it, and both chases are stored (lat_dram_page.hit, .miss).
 * Differences from lmbench: the chain's step is a cache line (-L, default the line size sysfs
 * gives, else 64) where lmbench steps by a pointer (8 bytes), which made 7 loads in 8 hit the
 * L1 cache and spilled the miss order's group (64 KiB) to L2, mixing cache levels into the
 * figure; and the difference is printed as measured where lmbench printed 0.0 whenever hit was
 * not below 0.95 × miss. A virtual machine sees its host's DRAM through the same loads, but
 * the host's page placement scatters a guest's "consecutive" pages: the difference can vanish.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/mem/chase.h"
#include "bench/mem/mem_common.h"
#include "bench/tool.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_DRAM_PAGE_HIT, ROW_LAT_DRAM_PAGE_MISS, ROW_LAT_DRAM_PAGE_DIFF, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define DRAM_DEFAULT_BYTES (64ull << 20)

struct dram_opts {
	int verbose;
	int line;
	int group;
	uint64_t max;
};

/* i with its low nbits bits reversed */
static size_t bitrev(size_t i, int nbits)
{
	size_t r = 0;
	for (int b = 0; b < nbits; b++)
		if (i & ((size_t)1 << b))
			r |= (size_t)1 << (nbits - 1 - b);
	return r;
}

/* Link the slots at base + off[k] (k = 0..n-1) into one cycle in that order; the first. */
static void **link_order(char *base, const size_t *off, size_t n)
{
	for (size_t k = 0; k < n; k++)
		*(void **)(base + off[k]) = base + off[(k + 1) % n];
	return (void **)(base + off[0]);
}

/* The offsets of every line of npages pages (in the order pages[]), hit or miss order. */
static void dram_order(size_t *off, const size_t *pages, size_t npages, size_t page, size_t line,
		       size_t group, int miss)
{
	size_t lines = page / line, k = 0;
	int nbits = 0;
	while (((size_t)1 << nbits) < lines)
		nbits++;
	for (size_t g = 0; g < npages; g += group) {
		size_t gn = npages - g < group ? npages - g : group;
		if (!miss)
			gn = 1, group = 1;
		for (size_t l = 0; l < lines; l++)
			for (size_t p = 0; p < gn; p++)
				off[k++] = pages[g + p] * page + bitrev(l, nbits) * line;
	}
}

static int lat_dram_page(struct tool_ctx *c, int argc, char **argv)
{
	struct dram_opts o = { .group = 16, .max = DRAM_DEFAULT_BYTES };
	struct operands args = options_parse(c, argc, argv, &o);
	if (args.n > 0)
		usage_error(c, "lat_dram_page takes no operands");
	size_t page = (size_t)getpagesize();
	size_t line = o.line ? (size_t)o.line : chase_sysfs_line() ? chase_sysfs_line() : 64;
	if (!chase_pow2(line) || line < sizeof(void *) || line > page)
		usage_error(c, "-L %zu: a power of two from %zu to the page size %zu", line,
			    sizeof(void *), page);
	size_t npages = (size_t)(o.max / page);
	if (npages < (size_t)o.group)
		usage_error(c, "-M: at least %d pages of %zu bytes (one group)", o.group, page);
	mem_check_fits(c, (uint64_t)npages * page);
	struct mem_buf b;
	mem_alloc(&b, npages * page, PAGES_4K);

	size_t *pages = xmalloc(npages * sizeof *pages);
	uint64_t rng = mem_seed();
	for (size_t i = 0; i < npages; i++)
		pages[i] = i;
	for (size_t i = npages - 1; i > 0; i--) {
		size_t j = (size_t)mem_rand_below(&rng, i + 1), t = pages[i];
		pages[i] = pages[j];
		pages[j] = t;
	}
	size_t nslots = npages * (page / line);
	size_t *off = xmalloc(nslots * sizeof *off);
	static const int rows[2] = { ROW_LAT_DRAM_PAGE_HIT, ROW_LAT_DRAM_PAGE_MISS };
	struct measurement m[2];
	char params[64];
	snprintf(params, sizeof params, "line=%zu group=%d", line, o.group);
	for (int miss = 0; miss < 2; miss++) {
		dram_order(off, pages, npages, page, line, (size_t)o.group, miss);
		void **start = link_order(b.p, off, nslots);
		if (mem_chase_measure(&c->timing, b.p, b.len, start, MEM_WARM_SWEEP, &m[miss]) != 0)
			return EXIT_MEASURE;
		struct result *r = record_latency(c, metrics[rows[miss]].id, params, NAN, &m[miss],
						  MEM_CHASE_LOADS);
		result_add_info(r, "bytes=%llu", (unsigned long long)b.len);
		if (o.verbose)
			out_printf(c, "page %s: %.2f nanoseconds\n", miss ? "miss" : "hit", r->value);
	}
	/* the difference, sample by sample (the i-th of each), in ns per load */
	size_t n = m[0].n < m[1].n ? m[0].n : m[1].n;
	struct sample *d = xmalloc(n * sizeof *d);
	for (size_t i = 0; i < n; i++) {
		d[i] = m[1].s[i];
		d[i].value = (m[1].s[i].value - m[0].s[i].value) / MEM_CHASE_LOADS;
	}
	record_values(c, metrics[ROW_LAT_DRAM_PAGE_DIFF].id, params, NAN, d, n);
	free(d);
	measurement_free(&m[0]);
	measurement_free(&m[1]);
	free(off);
	free(pages);
	mem_free(&b);
	return 0;
}

static const struct tool_options dram_options = { .opts = (const struct opt[]){
	OPT_BOOL('v', NULL, struct dram_opts, verbose, "also print the page-hit and page-miss latencies"),
	OPT_INT('L', NULL, struct dram_opts, line, "LINE", 8, 65536, "line size",
		"bytes between the chain's loads (a power of two; default: the cache line)"),
	OPT_INT('T', NULL, struct dram_opts, group, "PAGES", 2, 4096, "group",
		"pages visited in turn by the miss order (default 16)"),
	OPT_SIZE('M', NULL, struct dram_opts, max, "BYTES", 1 << 20, 1ll << 40, "buffer",
		 "buffer size (default 64m)"),
	OPT_END } };

static const struct tool tools[] = {
	TOOL("lat_dram_page", lat_dram_page, 0, &dram_options, "[-v] [-L LINE] [-T PAGES] [-M BYTES]",
	     "DRAM page (row) miss minus page hit latency, ns per load",
	     "Two chases over the same lines of a 64 MiB buffer: within a page, then across GROUP pages in\n"
	     "turn; prints miss - hit in nanoseconds (-v: both). Both are stored."),
	{ 0 },
};

/* Default noise: 5 runs on the 2-vCPU guest while other builds and tests shared it (load average
 * 5-6), the log values' standard deviation times 1.25: a busy machine's figure, until quiet runs
 * replace it (bench/README.md says how). */
static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_DRAM_PAGE_HIT] = { .id = "lat_dram_page.hit",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "a load in the DRAM page (row) the last one opened",
	  .line = NULL, .vfmt = "%.2f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "one dependent load of a chain over a 64 MiB buffer, a line apart: pages in random "
		"order, every line of a page (bit-reversed order) before the next page",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the step is a cache line where lmbench's is a pointer (8 bytes: 7 loads in 8 then "
		"hit L1)",
	  .noise = { .group = "memory", .run = 0.445, .run_eq = 0.445, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_DRAM_PAGE_MISS] = { .id = "lat_dram_page.miss",
	  .unit = "ns", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "a load in another page than the last",
	  .line = NULL, .vfmt = "%.2f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "the same lines, groups of 16 pages visited in turn: line i of each page, then "
		"line i+1",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "the step is a cache line (lmbench: a pointer, so its group of 64 KiB spilled to L2)",
	  .noise = { .group = "memory", .run = 0.445, .run_eq = 0.445, .df = 4, .clock = OWN_PACE } },
	[ROW_LAT_DRAM_PAGE_DIFF] = { .id = "lat_dram_page.diff",
	  .unit = "ns", .better = NEUTRAL, .stat = MEDIAN, .version = 1,
	  .desc = "page miss minus page hit, per load",
	  .line = "%v", .vfmt = "%f", .sign = ANY_SIGN, .x = { .kind = X_NONE },
	  .work = "lat_dram_page.miss - lat_dram_page.hit, sample by sample",
	  .subtracted = SUB_CLOCK " (in both)",
	  .lmbench = "printed as measured; lmbench printed 0.0 unless hit < 0.95 x miss",
	  .noise = { .group = "memory", .run = 0.445, .run_eq = 0.445, .df = 4, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_lat_dram_page = { "dram", SUBSET_HW, "DRAM page hit and miss latency", tools, metrics };
