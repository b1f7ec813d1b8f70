/*
 * bw_mem.c — bw_mem: memory bandwidth of simple loops over a buffer of a given size.
 *
 *   bw_mem [-P N -W US -N N] [--pages 4k|thp|huge] SIZE MODE [conflict]
 *
 * Modes as lmbench defines them, on 512-byte blocks of 4-byte ints:
 *   rd wr rdwr cp   one int every 16 bytes (sum / store / sum+store / copy) — "partial"
 *   frd fwr fcp     every word (sum / store / copy); vector code where the CPU has it,
 *                   lmbench's scalar 4-byte loop with --lmbench-loop (method version + 2
 *                   for frd and fwr, + 1 for fcp)
 *   bzero bcopy     libc memset / memcpy of the whole buffer
 * The copy modes use a second buffer (SIZE + 2 KiB); with the `conflict` operand the destination
 * starts 1920 bytes in, as lmbench does. Output: lmbench's `<MB> <MB/s>` line (MB = SIZE/10^6,
 * bytes counted once for copies); with -P N the copies run at once and the figure is their sum.
 *
 * Through the lmbench name only that line is printed (scripts read it with awk '{print $2}');
 * the page size of the timed buffers (read while they are mapped) and the kernel version used are
 * in the JSON and, with `plumb bw_mem`, printed as [KEY: value] lines.
 */
#include <errno.h>
#include <math.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_kern.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_BW_MEM_RD, ROW_BW_MEM_WR, ROW_BW_MEM_RDWR, ROW_BW_MEM_CP, ROW_BW_MEM_FRD,
	ROW_BW_MEM_FWR, ROW_BW_MEM_FCP, ROW_BW_MEM_BZERO, ROW_BW_MEM_BCOPY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

enum bw_mode { M_RD, M_WR, M_RDWR, M_CP, M_FRD, M_FWR, M_FCP, M_BZERO, M_BCOPY };

static const struct {
	const char *name;
	int row;  /* its metric's row in metrics[] */
	int copy; /* needs a second buffer */
} bw_modes[] = {
	[M_RD] = { "rd", ROW_BW_MEM_RD, 0 },
	[M_WR] = { "wr", ROW_BW_MEM_WR, 0 },
	[M_RDWR] = { "rdwr", ROW_BW_MEM_RDWR, 0 },
	[M_CP] = { "cp", ROW_BW_MEM_CP, 1 },
	[M_FRD] = { "frd", ROW_BW_MEM_FRD, 0 },
	[M_FWR] = { "fwr", ROW_BW_MEM_FWR, 0 },
	[M_FCP] = { "fcp", ROW_BW_MEM_FCP, 1 },
	[M_BZERO] = { "bzero", ROW_BW_MEM_BZERO, 0 },
	[M_BCOPY] = { "bcopy", ROW_BW_MEM_BCOPY, 1 },
};
#define NMODES (sizeof bw_modes / sizeof bw_modes[0])

struct bw {
	enum bw_mode mode;
	size_t size;       /* bytes the loop covers (a multiple of 512 for the block modes) */
	int conflict;
	int lmloop;        /* --lmbench-loop: frd/fwr/fcp with lmbench's scalar loops */
	enum mem_pages pages;
	struct mem_buf a, b;
	char *src, *dst;
	const struct mem_kernels *k;
	struct bw_pages *pages_seen; /* shared with -P copies */
};

/* The page size of the buffers really timed, described by the first measuring process to
 * finish (a shared page, so -P copies can tell the parent). */
struct bw_pages {
	int taken;
	char desc[200];
};

/* lmbench's "partial" loops: one int every 16 bytes of each 512-byte block (part_rd is also
 * scale's rd operation: mem_common.h). */
#define E4(f, o) f(o) f(o + 4) f(o + 8) f(o + 12)
#define E32(f) E4(f, 0) E4(f, 16) E4(f, 32) E4(f, 48) E4(f, 64) E4(f, 80) E4(f, 96) E4(f, 112)

uint32_t part_rd(const int32_t *p, size_t blocks)
{
	uint32_t s = 0;
	for (size_t b = 0; b < blocks; b++, p += 128) {
#define RD(o) s += (uint32_t)p[o];
		E32(RD)
#undef RD
	}
	return s;
}

static void part_wr(int32_t *p, size_t blocks)
{
	for (size_t b = 0; b < blocks; b++, p += 128) {
#define WR(o) p[o] = 1;
		E32(WR)
#undef WR
	}
}

static uint32_t part_rdwr(int32_t *p, size_t blocks)
{
	uint32_t s = 0;
	for (size_t b = 0; b < blocks; b++, p += 128) {
#define RW(o) s += (uint32_t)p[o]; p[o] = (int32_t)s;
		E32(RW)
#undef RW
	}
	return s;
}

static void part_cp(int32_t *restrict d, const int32_t *restrict s, size_t blocks)
{
	for (size_t b = 0; b < blocks; b++, d += 128, s += 128) {
#define CP(o) d[o] = s[o];
		E32(CP)
#undef CP
	}
}

/* lmbench's full-word loops (--lmbench-loop): 128 4-byte ints a 512-byte block, each access one
 * scalar instruction in the order lmbench's -O build emits them (volatile stores, KEEP after
 * each add: no vector unit, no merged stores). Its reads `sum += p[0]+...+p[127]` are a chain
 * of 128 adds per block, added to the sum once, so blocks overlap in the core; its writes
 * `p[0]=p[1]=...=p[127]=1` store p[127] first, down to p[0] (objdump of lmbench 3 built by
 * gcc 12: 128 add mem,%eax from a fresh register per block; 128 movl $1 from 0x1fc down). On a
 * Zen 4 guest the order matters: one chain through the buffer reads at 0.6x lmbench's, stores
 * upwards write at 7x its (bench/README.md). */
#define E8(f, o) f(o) f(o + 1) f(o + 2) f(o + 3) f(o + 4) f(o + 5) f(o + 6) f(o + 7)
#define E128(f) E8(f, 0) E8(f, 8) E8(f, 16) E8(f, 24) E8(f, 32) E8(f, 40) E8(f, 48) E8(f, 56) \
	E8(f, 64) E8(f, 72) E8(f, 80) E8(f, 88) E8(f, 96) E8(f, 104) E8(f, 112) E8(f, 120)

static uint32_t lm_frd(const int32_t *p, size_t blocks)
{
	uint32_t s = 0;
	for (size_t b = 0; b < blocks; b++, p += 128) {
		/* KEEP after each add: one add with a memory operand each, in the block's chain */
		uint32_t blk = 0;
#define RD(o) blk += (uint32_t)p[o]; KEEP(blk);
		E128(RD)
#undef RD
		s += blk;
	}
	return s;
}

static void lm_fwr(volatile int32_t *p, size_t blocks)
{
	for (size_t b = 0; b < blocks; b++, p += 128) {
#define WR(o) p[127 - (o)] = 1;
		E128(WR)
#undef WR
	}
}

static void lm_fcp(volatile int32_t *d, const volatile int32_t *s, size_t blocks)
{
	for (size_t b = 0; b < blocks; b++, d += 128, s += 128) {
#define CP(o) d[o] = s[o];
		E128(CP)
#undef CP
	}
}

static void bw_loop(uint64_t n, void *arg)
{
	struct bw *w = arg;
	size_t blocks = w->size / 512;
	uint64_t keep = 0;
	for (uint64_t i = 0; i < n; i++) {
		switch (w->mode) {
		case M_RD: keep += part_rd((const int32_t *)w->src, blocks); break;
		case M_WR: part_wr((int32_t *)w->src, blocks); break;
		case M_RDWR: keep += part_rdwr((int32_t *)w->src, blocks); break;
		case M_CP: part_cp((int32_t *)w->dst, (const int32_t *)w->src, blocks); break;
		case M_FRD:
			keep += w->lmloop ? lm_frd((const int32_t *)w->src, blocks) : w->k->frd(w->src, w->size);
			break;
		case M_FWR:
			if (w->lmloop)
				lm_fwr((int32_t *)w->src, blocks);
			else
				w->k->fwr(w->src, w->size, i);
			break;
		case M_FCP:
			if (w->lmloop)
				lm_fcp((int32_t *)w->dst, (const int32_t *)w->src, blocks);
			else
				w->k->fcp(w->dst, w->src, w->size);
			break;
		case M_BZERO: memset(w->src, 0, w->size); break;
		case M_BCOPY: memcpy(w->dst, w->src, w->size); break;
		}
		/* stores and memset/memcpy must happen every time: the buffers are "used" here */
		compiler_barrier();
	}
	sink_u64(keep);
}

/* Buffers belong to the process that measures (each -P copy has its own). */
static int bw_setup(void *arg)
{
	struct bw *w = arg;
	mem_alloc(&w->a, w->size, w->pages);
	w->src = w->a.p;
	if (bw_modes[w->mode].copy) {
		mem_alloc(&w->b, w->size + 2048, w->pages);
		w->dst = w->b.p + (w->conflict ? 1920 : 0);
	}
	/* a source of nonzero words, so a sum cannot be known in advance */
	for (size_t i = 0; i + 4 <= w->size; i += 4)
		*(int32_t *)(w->src + i) = (int32_t)(i >> 2);
	return 0;
}

static void bw_teardown(void *arg)
{
	struct bw *w = arg;
	if (__sync_bool_compare_and_swap(&w->pages_seen->taken, 0, 1))
		mem_page_desc(&w->a, w->pages_seen->desc, sizeof w->pages_seen->desc);
	mem_free(&w->a);
	mem_free(&w->b);
}

struct bw_mem_opts { const char *pages; int lmloop; };
/* 5 samples: lmbench's TRIES-like count; -N overrides. */
static const struct tool_options bw_mem_options = {
	.opts = (const struct opt[]){ MEM_PAGES_OPT(struct bw_mem_opts, pages),
		OPT_BOOL(0, "lmbench-loop", struct bw_mem_opts, lmloop,
			 "frd/fwr/fcp: lmbench's scalar 4-byte loop (method version + 1)"),
		OPT_END },
	.timing = { .repetitions = 5 },
};

static int bw_mem(struct tool_ctx *c, int argc, char **argv)
{
	struct bw_mem_opts o = { 0 };
	struct operands args = mem_options_parse(c, argc, &argv, &o);
	struct bw w = { .pages = mem_pages_opt(c, o.pages) };
	if (args.n < 2)
		usage_error(c, "needs SIZE and MODE (rd wr rdwr cp frd fwr fcp bzero bcopy)");
	if (args.n > 3)
		usage_error(c, "too many operands");
	uint64_t size = parse_size(args.v[0], 512, 1ull << 40, "size");
	const char *mode = args.v[1];
	size_t m;
	for (m = 0; m < NMODES; m++)
		if (strcmp(bw_modes[m].name, mode) == 0)
			break;
	if (m == NMODES)
		usage_error(c, "unknown mode '%s' (rd wr rdwr cp frd fwr fcp bzero bcopy)", mode);
	w.mode = (enum bw_mode)m;
	w.lmloop = o.lmloop && (m == M_FRD || m == M_FWR || m == M_FCP);
	if (args.n == 3) {
		if (strcmp(args.v[2], "conflict") != 0)
			usage_error(c, "third operand must be 'conflict', not '%s'", args.v[2]);
		w.conflict = 1;
	}
	/* the block loops cover whole 512-byte blocks; libc calls the exact size */
	w.size = m == M_BZERO || m == M_BCOPY ? size : size / 512 * 512;
	int P = c->timing.opts.parallel > 1 ? c->timing.opts.parallel : 1;
	mem_check_fits(c, (uint64_t)P * (bw_modes[m].copy ? 2 * size + 8192 : size + 4096));
	w.k = mem_kernels_best();
	w.pages_seen = mmap(NULL, sizeof *w.pages_seen, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w.pages_seen == MAP_FAILED)
		die(EXIT_MEASURE, "mmap: %s", strerror(errno));
	memset(w.pages_seen, 0, sizeof *w.pages_seen);
	struct bench_op op = { .setup = bw_setup, .loop = bw_loop, .teardown = bw_teardown,
			       .arg = &w };
	struct measurement meas;
	if (measure(&c->timing, &op, &meas) != 0)
		return EXIT_MEASURE;
	/* Facts before the result line: the page size of the buffers that were timed (read in
	 * teardown, while they were still mapped), not of a probe mapping. */
	mem_fact(c, NULL, "Page size", "page_size", !c->via_symlink, "%s",
		 w.pages_seen->taken ? w.pages_seen->desc : "unknown");
	munmap(w.pages_seen, sizeof *w.pages_seen);
	mem_fact(c, NULL, "Kernel", "kernel", !c->via_symlink, "%s", w.lmloop ? "scalar (lmbench's loop)"
		 : m == M_FRD || m == M_FWR || m == M_FCP ? w.k->name
		   : m == M_BZERO || m == M_BCOPY ? "libc" : "scalar (lmbench's loop)");
	char params[64];
	/* the size is the series' abscissa (x), not part of its identity */
	snprintf(params, sizeof params, "%s", w.conflict ? "conflict=1" : "");
	struct result *r = record_bandwidth(c, metrics[bw_modes[m].row].id, params, (double)size / 1e6, &meas,
					    (double)w.size);
	/* lmbench's scalar loop: another operation than the registry's; frd's and fwr's follow
	 * lmbench's order since version + 2 (version + 1: one add chain, stores upwards) */
	if (w.lmloop)
		r->version += m == M_FCP ? 1 : 2;
	measurement_free(&meas);
	return 0;
}

static const struct tool tools[] = {
	TOOL("bw_mem", bw_mem, 0, &bw_mem_options, "[--pages 4k|thp|huge] [--lmbench-loop] SIZE rd|wr|rdwr|cp|frd|fwr|fcp|bzero|bcopy [conflict]",
	     "memory bandwidth of read, write and copy loops over SIZE bytes",
	     "SIZE takes k/m/g suffixes (at least 512). rd/wr/rdwr/cp touch one int every 16 bytes\n"
	     "(lmbench's partial loops); frd/fwr/fcp every word with the widest vector unit found\n"
	     "(avx512, avx2 or portable C), with --lmbench-loop lmbench's scalar 4-byte loop;\n"
	     "bzero/bcopy call libc. -P N: N copies, aggregate MB/s.\n"
	     "Default 5 samples, median (-N changes it)."),
	{ 0 },
};

/* A row's description, and its chart (the kind "mem_bandwidth": analysis/report.c), titled
 * with it */
#define BW_DESC(op, what)                                                                       \
	.desc = what, .chart = "mem_bandwidth", .chart_slug = "bw-mem-" op,                      \
	.chart_title = "Memory bandwidth, bw_mem " op ": " what

/* Under lmbench's summary tables, where a run's Bcopy (hand), Mem read and Mem write came from. */
static const struct summary_note vector_loops = {
	.text = "Bcopy (hand), Mem read, Mem write: bw_mem fcp, frd, fwr with the widest vector unit; "
		"lmbench 3's are scalar 4-byte loops, up to 5x lower on the same machine "
		"(bw_mem --lmbench-loop measures them)."
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_MEM_RD] = { .id = "bw_mem.rd",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("rd", "read one int per 16 bytes"),
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "Memory partial read bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass summing one int per 16 bytes of the buffer; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_WR] = { .id = "bw_mem.wr",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("wr", "write one int per 16 bytes"),
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "Memory partial write bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass storing one int per 16 bytes; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_RDWR] = { .id = "bw_mem.rdwr",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("rdwr", "read+write one int per 16 bytes"),
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "Memory partial read/write bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass reading and storing one int per 16 bytes; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_CP] = { .id = "bw_mem.cp",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("cp", "copy one int per 16 bytes"),
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "\"unrolled partial bcopy unaligned",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass copying one int per 16 bytes; bytes (counted once) / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_FRD] = { .id = "bw_mem.frd",
	  .cells = { { .cell = SUM_MEMRD, .read = READ_LAST_X } },
	  .summary_note = &vector_loops,
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("frd", "read every word"),
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "Memory read bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass summing every word; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "vector code where the CPU has it; lmbench's is one 4-byte add chain (1.8x slower "
		"on a Xeon guest); --lmbench-loop runs it (method version + 2)",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_FWR] = { .id = "bw_mem.fwr",
	  .cells = { { .cell = SUM_MEMWR, .read = READ_LAST_X } },
	  .summary_note = &vector_loops,
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("fwr", "write every word"),
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "Memory write bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass storing every word; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "vector code where the CPU has it; lmbench's stores 4 bytes an instruction (5x slower "
		"on a Xeon guest); --lmbench-loop runs it (method version + 2)",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_FCP] = { .id = "bw_mem.fcp",
	  .cells = { { .cell = SUM_BCOPY_HAND, .read = READ_LAST_X } },
	  .summary_note = &vector_loops,
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("fcp", "copy every word"),
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "\"unrolled bcopy unaligned",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass copying every word; bytes (counted once) / time",
	  .subtracted = SUB_CLOCK, .lmbench = "vector code where the CPU has it; lmbench's copies 4 bytes an instruction; "
		"--lmbench-loop runs it (method version + 1)",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_BZERO] = { .id = "bw_mem.bzero",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("bzero", "libc memset"),
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "Memory bzero bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one libc memset of the buffer; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MEM_BCOPY] = { .id = "bw_mem.bcopy",
	  .cells = { { .cell = SUM_BCOPY_LIBC, .read = READ_LAST_X, .params = "!conflict" } },
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  BW_DESC("bcopy",
		  "libc memcpy (conflict=1: destination offset 1920 bytes, lmbench's \"aligned\")"),
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "\"libc bcopy unaligned",
	  .lmbench_text = { .title = "\"libc bcopy aligned", .param = "conflict", .whole = 1 },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "working set", .was_param = "size",
					  .lmbench = LMX_MB },
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one libc memcpy of the buffer; bytes (counted once) / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "membw", .run = 0.19, .run_eq = 0.19, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_mem_bw = { "memory", SUBSET_HW, "memory bandwidth (bw_mem)", tools, metrics };
