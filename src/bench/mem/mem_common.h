/*
 * mem_common.h — what the memory benchmarks (bw_mem, lat_mem_rd, tlb, par_mem, line, cache,
 * stream) share: buffers on an explicitly chosen page size, the "4 × last-level cache" default
 * size rule, plumb's own long options, and a random generator whose seed is recorded.
 *
 * Page sizes (--pages):
 *   4k    4 KiB pages; transparent huge pages refused with MADV_NOHUGEPAGE (the default: what
 *         lmbench's valloc() gets on a stock kernel, and reproducible whatever the THP setting)
 *   thp   transparent huge pages asked for with MADV_HUGEPAGE on a 2 MiB-aligned mapping; the
 *         share the kernel really backed with huge pages is read back from /proc/self/smaps
 *   huge  hugetlbfs pages (MAP_HUGETLB); when none are reserved plumb falls back to thp and says
 *         so
 * The page size actually used is reported as a [Page size: ...] fact, never inside a series.
 */
#ifndef PLUMB_MEM_COMMON_H
#define PLUMB_MEM_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include "core/opts.h"
#include "core/out.h"
#include "core/timing.h"

enum mem_pages { PAGES_4K, PAGES_THP, PAGES_HUGE };

struct mem_buf {
	char *p;            /* start of the usable buffer */
	size_t len;         /* usable bytes */
	void *map;          /* the mapping (for munmap) */
	size_t map_len;
	enum mem_pages asked, got;
};

/* bw_mem rd's loop (bw_mem.c): the sum of one int every 16 bytes of blocks 512-byte blocks. */
uint32_t part_rd(const int32_t *p, size_t blocks);

/* Parse "4k", "thp" or "huge"; -1 when it is none of them. */
int mem_pages_parse(const char *s);

/* Map len bytes (page-aligned, zero-filled, every page touched so no fault is timed) on pages of
 * the kind asked. Exits 3 with one line when the memory cannot be had. */
void mem_alloc(struct mem_buf *b, size_t len, enum mem_pages pages);
void mem_free(struct mem_buf *b);
/* "4 KiB", "2 MiB (THP, 100% of 64 MiB)", ... for the [Page size: ...] fact. */
void mem_page_desc(const struct mem_buf *b, char *buf, size_t len);
/* A fact: printed as "[text_key: value]" when print is set, stored under json_key (one word:
 * the JSON facts and result info are "key=value" lists). r = NULL: a header fact. */
void mem_fact(struct tool_ctx *c, struct result *r, const char *text_key, const char *json_key,
	      int print, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Print the page-size fact (header, and in the JSON facts). */
void mem_page_fact(struct tool_ctx *c, const struct mem_buf *b);
/* With -P the copies are forked after the parent filled the buffer: write one word of every
 * page of [p, p+len) back to itself so this process gets private pages (copy-on-write broken),
 * as separate lmbench processes would have. */
void mem_unshare(void *p, size_t len);

/* Bytes a memory benchmark may use: sys_mem_available() less a margin. */
uint64_t mem_usable(void);
/* Exit 3 with one line when need bytes are more than mem_usable(). */
void mem_check_fits(struct tool_ctx *c, uint64_t need);
/* The default largest working set (mem_common.c explains the rule): 4 x the last-level cache
 * (llc bytes, all instances in use summed; 0 unknown), or 4 x the measured latency knee when
 * one was measured (knee != 0; at least MEM_KNEE_FLOOR then), at most MEM_DEFAULT_CAP and
 * usable. *how says why, naming the
 * cap when it won. Pure: suite/plan.c and the unit tests use it. */
#define MEM_DEFAULT_CAP (256ull << 20)
#define MEM_KNEE_FLOOR (64ull << 20)
uint64_t mem_size_rule(uint64_t llc, uint64_t knee, uint64_t usable, char *how, size_t howlen);
/* 1 when the rule wants the knee measured: nothing known, or 4 x llc above the cap. */
int mem_needs_knee(uint64_t llc);
/* The last level to believe: the effective size (sys_llc_effective()) when a knee was measured
 * or the reported size is believable (mem_needs_knee() says no); 0 when unknown, or too large
 * to believe and not measured. */
uint64_t mem_llc_believed(void);
/* The knee (bytes; 0 = none below the largest size probed): PLUMB_MEM_KNEE from the
 * environment (plumb run measures once for its steps), else a random chase of about 0.5 s. */
uint64_t mem_knee(uint64_t llc);
/* The size the knee probe was cut to because this process may not map more (ulimit -v), or 0. */
uint64_t mem_knee_probe_cut(void);
/* mem_size_rule() for this machine: sysfs's (or PLUMB_LLC's) last level times llcs instances,
 * the knee measured when needed, capped by mem_usable()/divisor. */
uint64_t mem_default_bytes(unsigned divisor, unsigned llcs, char *how, size_t howlen);

/* The --pages row of a memory tool's options table, written once: the value goes as text into
 * the const char * `field` of `type`; mem_pages_opt() reads it after parsing (NULL: 4k). */
#define MEM_PAGES_HELP "page size: 4k (default, THP off), thp, or huge (hugetlb; thp when none are reserved)"
#define MEM_PAGES_OPT(type, field) \
	OPT_STRING(0, "pages", type, field, "4k|thp|huge", MEM_PAGES_HELP)
enum mem_pages mem_pages_opt(struct tool_ctx *c, const char *value);
/* options_parse() on a copy of argv (freed at exit): getopt permutes what it parses, and the
 * JSON document records the command line as it was given. The operands point into the copy. */
struct operands mem_options_parse(struct tool_ctx *c, int argc, char ***argv, void *dst);

/* STREAM's validation (stream.c's, kept in mem_common.c): how many of x[0..n) differ from want
 * by more than McCalpin's relative 1e-13; *first = index of the first wrong one. */
size_t stream_check(const double *x, size_t n, double want, size_t *first);

/* Measure a pointer chase starting at start (measure(): calibrated samples of MEM_CHASE_LOADS
 * dependent loads per iteration; the walk continues across samples). Before timing, each
 * measuring process walks warm loads (capped at twice the LLC's lines, 4 Mi without sysfs) to fill the caches and, with -P, first
 * gives itself private pages for [base, base+len). 0 on success. */
#define MEM_CHASE_LOADS 100
/* The chase itself, the one kernel of every tool that times this walk (lat_mem_rd,
 * lat_dram_page, lat_loaded, the knee): n times MEM_CHASE_LOADS dependent loads from p, each
 * the address of the next; returns where the walk stands. */
void **mem_chase_walk(void **p, uint64_t n);
/* warm = MEM_WARM_SWEEP: instead of walking the chain, read [base, base+len) in address order
 * (one load per 64 bytes, up to twice the LLC): the same lines cached for a fraction of the
 * time, where a random chain's walk is one dependent miss per line (lat_mem_rd -t). */
#define MEM_WARM_SWEEP ((size_t)-1)
/* Whether a chain over bytes is warmed by walking it (it fits the effective last level: the
 * walk leaves the caches as lmbench's does, and is cheap there) rather than by the sweep (past
 * the last level, where a walk is a dependent miss a line and what it leaves barely matters). */
int mem_warm_by_walk(uint64_t bytes);
int mem_chase_measure(struct timing_ctx *t, char *base, size_t len, void **start, size_t warm,
		      struct measurement *m);
/* Minimum ns per load of such a chase (NAN when it could not be measured). */
double mem_chase_ns(struct timing_ctx *t, char *base, size_t len, void **start, size_t warm);
/* Link the n addresses of nodes into one random cycle (Fisher-Yates on the array, then each
 * node points to the next); returns the first node of the cycle. */
void **mem_link_random(void ***nodes, size_t n, uint64_t *rng);

/* lmbench's lat_mem_rd size steps: the size after r (mem_lat.c). */
size_t lat_next_range(size_t r);

/* A small fast generator (xorshift64*), seeded explicitly so a chain can be rebuilt. */
static inline uint64_t mem_rand(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ULL;
}
/* Uniform in [0, n) (n > 0), with Lemire's multiply-shift (bias < n / 2^64: nil here). 32-bit
 * targets have no 128-bit type: the modulo there has the same negligible bias for n << 2^64. */
static inline uint64_t mem_rand_below(uint64_t *s, uint64_t n)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)mem_rand(s) * n) >> 64);
#else
	return mem_rand(s) % n;
#endif
}
/* A seed: PLUMB_SEED from the environment, else the clock. */
uint64_t mem_seed(void);

/* Random cyclic chains of pointers (lat_mem_rd -t, par_mem, cache, tlb): see mem_common.c. */
struct chain_builder {
	char *base;
	size_t stride;      /* bytes between slots */
	size_t off;         /* byte offset of the pointer inside its slot */
	size_t n;           /* slots linked so far */
	uint64_t rng;
};
/* Start a random cycle over slot 0 alone. */
void chain_begin(struct chain_builder *cb, char *base, size_t stride, size_t off, uint64_t seed);
/* Grow the cycle to the first n slots, keeping it a uniformly random cycle of them. */
void chain_grow(struct chain_builder *cb, size_t n);

/* par_mem's cycles (bench/mem/par_mem.c): one random permutation of nall lines made once; each size's
 * cycle visits the lines below n in its order, and ord[0..n) says where each one is. */
struct pm_order {
	uint32_t *perm, *ord;    /* all lines in random order; this size's lines in that order */
	size_t nall;
};
void pm_order_init(struct pm_order *o, size_t nall, uint64_t seed);
/* Link the cycle through lines [0, n) of base (line bytes apart); o->ord[0..n) their order. */
void pm_order_link(struct pm_order *o, char *base, size_t line, size_t n);
void pm_order_free(struct pm_order *o);

#endif
