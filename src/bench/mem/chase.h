/*
 * chase.h — what the pointer-chase tools (tlb, par_mem, line, cache: a file each) share: their
 * options (one struct, a table per tool), the chase buffer, the line size sysfs gives, and
 * par_mem's measurement of one size, which cache reuses.
 */
#ifndef PLUMB_BENCH_MEM_CHASE_H
#define PLUMB_BENCH_MEM_CHASE_H

#include <stddef.h>
#include <stdint.h>
#include "bench/mem/mem_common.h"
#include "core/opts.h"

/* The options of line, tlb, par_mem and cache: one struct, a table per tool. */
struct cache_opts {
	int verbose, cost;
	int line;
	uint64_t max;
	const char *pages;
};
/* Option rows the cache tools share (core/opts.h). */
#define LINE_OPT OPT_INT('L', NULL, struct cache_opts, line, "LINE", 8, 4096, "line size", \
	"cache line size in bytes (a power of two; default: sysfs's, else 64)")
#define MAX_OPT(lo, what, help) \
	OPT_SIZE('M', NULL, struct cache_opts, max, "BYTES", lo, 1ll << 40, what, help)
#define IGNORED_C OPT_IGNORED('c', NULL, "accepted for lmbench's sake, no effect")
#define VERBOSE_OPT(help) OPT_BOOL('v', NULL, struct cache_opts, verbose, help)

/* 1 when v is a power of two. */
int chase_pow2(uint64_t v);
/* par_mem and cache: check the line size, size the largest buffer (mem_default_bytes() by
 * default: capped by what the machine can give) and allocate it; says how it was sized. */
uint64_t chase_buffer(struct tool_ctx *c, size_t line, uint64_t max, const char *pages,
		      struct mem_buf *b);
/* The first cache level's line size as reported (sysfs, CPUID, sysconf), 0 when unknown. */
size_t chase_sysfs_line(void);
/* par_mem's figure at n lines of base linked in o's order, walked by 1..maxk chains
 * (par_mem.c); *l1ns gets one chain's time per load. */
double pm_size(char *base, size_t line, const struct pm_order *o, size_t n, int maxk,
	       double *l1ns);

#endif
