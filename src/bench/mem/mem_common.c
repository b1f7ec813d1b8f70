/*
 * mem_common.c — buffers on an explicit page size, default sizes, long options and random
 * chains shared by the memory benchmarks (see mem_common.h).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_levels.h"
#include "core/arch.h"
#include "core/clock.h"
#include "core/opts.h"
#include "core/sysinfo.h"
#include "core/util.h"

#define HUGE_2M (2u << 20)

int mem_pages_parse(const char *s)
{
	if (strcmp(s, "4k") == 0 || strcmp(s, "4K") == 0)
		return PAGES_4K;
	if (strcmp(s, "thp") == 0)
		return PAGES_THP;
	if (strcmp(s, "huge") == 0 || strcmp(s, "hugetlb") == 0)
		return PAGES_HUGE;
	return -1;
}

void mem_alloc(struct mem_buf *b, size_t len, enum mem_pages pages)
{
	memset(b, 0, sizeof *b);
	b->asked = pages;
	if (len == 0)
		len = 1;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	len = (len + pg - 1) / pg * pg;
	b->len = len;
	if (pages == PAGES_HUGE) {
		size_t ml = (len + HUGE_2M - 1) / HUGE_2M * HUGE_2M;
#ifdef MAP_HUGETLB
		void *m = mmap(NULL, ml, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (m != MAP_FAILED) {
			b->map = m;
			b->map_len = ml;
			b->p = m;
			b->got = PAGES_HUGE;
			memset(b->p, 0, len);
			return;
		}
#endif
		pages = PAGES_THP; /* no hugetlb pages reserved: the nearest thing, reported */
	}
	/* THP needs 2 MiB-aligned ranges: map one huge page more and align inside it. */
	size_t extra = pages == PAGES_THP ? HUGE_2M : 0;
	void *m = mmap(NULL, len + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		die(EXIT_MEASURE, "cannot map %zu bytes: %s", len, strerror(errno));
	b->map = m;
	b->map_len = len + extra;
	uintptr_t a = (uintptr_t)m;
	if (extra)
		a = (a + HUGE_2M - 1) & ~(uintptr_t)(HUGE_2M - 1);
	b->p = (char *)a;
	b->got = pages;
#ifdef MADV_HUGEPAGE
	if (pages == PAGES_THP)
		madvise(b->p, len, MADV_HUGEPAGE);
#endif
#ifdef MADV_NOHUGEPAGE
	if (pages == PAGES_4K)
		madvise(b->p, len, MADV_NOHUGEPAGE);
#endif
	memset(b->p, 0, len); /* fault every page in now, never inside a timed loop */
}

void mem_free(struct mem_buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	memset(b, 0, sizeof *b);
}

/* AnonHugePages (bytes) of the mapping holding p, from /proc/self/smaps; -1 when unknown. */
static long long thp_bytes(const void *p)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	char line[512];
	int in = 0;
	long long v = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (in && strncmp(line, "AnonHugePages:", 14) == 0) {
			v = strtoll(line + 14, NULL, 10) * 1024;
			break;
		}
	}
	fclose(f);
	return v;
}

void mem_page_desc(const struct mem_buf *b, char *buf, size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	const char *fb = b->asked == PAGES_HUGE && b->got != PAGES_HUGE
			 ? ", no hugetlb pages available: fell back to THP" : "";
	if (b->got == PAGES_HUGE) {
		snprintf(buf, len, "2 MiB (hugetlb)");
	} else if (b->got == PAGES_THP) {
		long long h = thp_bytes(b->p);
		if (h < 0)
			snprintf(buf, len, "THP asked, share unknown%s", fb);
		else
			snprintf(buf, len, "%s (THP, %.0f%% of %.3g MiB on 2 MiB pages%s)",
				 h > 0 ? "2 MiB" : "4 KiB", 100.0 * (double)h / (double)b->len,
				 (double)b->len / 1048576.0, fb);
	} else {
		snprintf(buf, len, "%ld KiB (THP off for the buffer)", pg / 1024);
	}
}

void mem_fact(struct tool_ctx *c, struct result *r, const char *text_key, const char *json_key,
	      int print, const char *fmt, ...)
{
	char val[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(val, sizeof val, fmt, ap);
	va_end(ap);
	if (print)
		out_printf(c, "[%s: %s]\n", text_key, val);
	FILE *o = c->out;
	c->out = NULL; /* out_fact only stores it now */
	out_fact(c, r, json_key, "%s", val);
	c->out = o;
}

void mem_page_fact(struct tool_ctx *c, const struct mem_buf *b)
{
	char d[200];
	mem_page_desc(b, d, sizeof d);
	mem_fact(c, NULL, "Page size", "page_size", 1, "%s", d);
}

void mem_unshare(void *p, size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	for (size_t o = 0; o < len; o += pg) {
		volatile char *q = (volatile char *)p + o;
		*q = *q;
	}
}

uint64_t mem_usable(void)
{
	uint64_t a = sys_mem_available();
	if (a == 0)
		a = 256ull << 20; /* nothing known: stay modest */
	/* Leave a quarter (and at least 256 MiB) to the rest of the system. */
	uint64_t keep = a / 4 > (256ull << 20) ? a / 4 : (256ull << 20);
	return a > keep ? a - keep : a / 2;
}

void mem_check_fits(struct tool_ctx *c, uint64_t need)
{
	uint64_t u = mem_usable();
	if (need > u)
		die(EXIT_MEASURE, "needs %.0f MiB of memory but only %.0f MiB are available",
		    (double)need / 1048576.0, (double)u / 1048576.0);
	(void)c;
}

/*
 * The default largest working set. Main memory needs a working set well past the *effective*
 * last level: 4 x the last-level cache, when sysfs's size is believable. A guest is often shown
 * its host's whole L3 (300 MiB, 1 GiB) while the cache it really gets ends at a few MiB, and 4 x
 * that reported size made the memory series cost minutes; so when 4 x the reported size would
 * pass MEM_DEFAULT_CAP (or sysfs says nothing) a short random chase finds the knee, and the size
 * is 4 x the knee. MEM_DEFAULT_CAP bounds it whatever the machine; --mem / -M / SIZE go further.
 */
uint64_t mem_size_rule(uint64_t llc, uint64_t knee, uint64_t usable, char *how, size_t howlen)
{
	uint64_t want;
	const double M = 1048576.0;
	if (knee) {
		/* at least MEM_KNEE_FLOOR: a knee measured while other programs share the cache
		 * reads low, and too small a top would end the series inside the real cache */
		want = 4 * knee > MEM_KNEE_FLOOR ? 4 * knee : MEM_KNEE_FLOOR;
		if (llc)
			snprintf(how, howlen, "4 x measured latency knee %.0f MiB (last-level cache "
				 "reported: %.0f MiB)", (double)knee / M, (double)llc / M);
		else
			snprintf(how, howlen, "4 x measured latency knee %.0f MiB (sysfs has no caches, "
				 "nor does another source)", (double)knee / M);
	} else if (llc) {
		want = 4 * llc;
		snprintf(how, howlen, "4 x last-level cache %.0f MiB", (double)llc / M);
	} else {
		want = 32ull << 20;
		snprintf(how, howlen, "32 MiB (no cache size known, no knee measured)");
	}
	if (want > MEM_DEFAULT_CAP) {
		size_t l = strlen(how);
		snprintf(how + l, howlen - l, ", capped at the default cap %.0f MiB (--mem goes further)",
			 (double)MEM_DEFAULT_CAP / M);
		want = MEM_DEFAULT_CAP;
	}
	if (usable && want > usable) {
		size_t l = strlen(how);
		snprintf(how + l, howlen - l, ", capped to %.0f MiB by available memory",
			 (double)usable / M);
		want = usable;
	}
	return want;
}

int mem_needs_knee(uint64_t llc)
{
	return !llc || 4 * llc > MEM_DEFAULT_CAP;
}

uint64_t mem_llc_believed(void)
{
	char src[16];
	uint64_t llc = sys_llc_effective(src, sizeof src);
	return strcmp(src, "measured") && mem_needs_knee(llc) ? 0 : llc;
}

/* ns per load of the random cycle cb holds over its first n lines: a lap to warm (capped: past
 * 64 MiB nearly every load misses whatever the caches held), then 200 000 timed loads. */
static double probe_ns(struct chain_builder *cb, size_t n)
{
	void **p = (void **)cb->base;
	size_t warm = n < (1u << 20) ? n : (1u << 20);
	for (size_t i = 0; i < warm; i++)
		p = *p;
	size_t loads = 200000;
	uint64_t t0 = now_ns();
	for (size_t i = 0; i < loads; i++)
		p = *p;
	uint64_t t1 = now_ns();
	KEEP(p);
	sink_u64((uint64_t)(uintptr_t)p);
	return (double)(t1 - t0) / (double)loads;
}

/* Where no source reports any cache level, the levels of the probe's curve (4 points an octave
 * from 4 KiB) are handed on as PLUMB_MEM_LEVELS, every level but the last (main memory, or a
 * cache whose end the curve did not reach). */
static void keep_levels(const uint64_t *sz, const double *lat, int np)
{
	struct level lv[8];
	int nl = mem_find_levels(sz, lat, np, lv, 8);
	char buf[200] = "";
	size_t o = 0;
	for (int i = 0; i + 1 < nl && o < sizeof buf - 24; i++)
		o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%llu", i ? "," : "",
				      (unsigned long long)lv[i].size);
	if (o)
		setenv("PLUMB_MEM_LEVELS", buf, 1);
}

/* The knee: the largest size whose random-chase latency is under half the latency at top, the
 * sizes starting above the level before the last (whose own knee is not the one wanted); 0 when
 * no size is (top is still in a cache: the reported size is believed). About 0.5 s at 256 MiB.
 * With no level reported at all, the curve starts at 4 KiB (0.1 s more) and gives them. */
static uint64_t probe_knee(uint64_t top)
{
	struct cache_level cl[8];
	int nc = sys_caches(0, cl, 8), lastlvl = 0;
	uint64_t below = 0;
	for (int i = 0; i < nc; i++)
		if (cl[i].level > lastlvl)
			lastlvl = cl[i].level;
	for (int i = 0; i < nc; i++)
		if (cl[i].level < lastlvl && cl[i].size > below)
			below = cl[i].size;
	uint64_t from = below ? 2 * below : 1ull << 20;
	if (from < (256u << 10))
		from = 256u << 10;
	struct mem_buf b;
	mem_alloc(&b, top, PAGES_4K);
	struct chain_builder cb;
	chain_begin(&cb, b.p, 64, 0, 12345);
	double lat[96];
	uint64_t sz[96];
	int np = 0;
	if (!nc) /* nothing reported: the small sizes too, finely, for the levels */
		for (int k = 0; k < 4 * 20 && np < 48; k++) {
			uint64_t s = (uint64_t)(4096.0 * pow(2.0, k / 4.0)) / 64 * 64;
			if (s >= from)
				break;
			chain_grow(&cb, (size_t)(s / 64));
			sz[np] = s;
			lat[np] = probe_ns(&cb, (size_t)(s / 64));
			for (int r = 0; r < 2; r++) {
				double v = probe_ns(&cb, (size_t)(s / 64));
				if (v < lat[np])
					lat[np] = v;
			}
			np++;
		}
	for (uint64_t s = from; s <= top && np < 96; s *= 2, np++) {
		chain_grow(&cb, (size_t)(s / 64));
		sz[np] = s;
		/* the lowest of 3: other programs only ever slow a pass down */
		lat[np] = probe_ns(&cb, (size_t)(s / 64));
		for (int k = 0; k < 2; k++) {
			double v = probe_ns(&cb, (size_t)(s / 64));
			if (v < lat[np])
				lat[np] = v;
		}
	}
	uint64_t knee = 0;
	for (int i = 0; i + 1 < np; i++)
		if (lat[i] < 0.5 * lat[np - 1])
			knee = sz[i];
	if (!nc)
		keep_levels(sz, lat, np);
	mem_free(&b);
	return knee;
}

static uint64_t knee_cut;

uint64_t mem_knee_probe_cut(void)
{
	return knee_cut;
}

/* The largest size up to want (halving from it) that one anonymous mapping can get now. */
static uint64_t mappable_bytes(uint64_t want)
{
	for (uint64_t s = want; s >= (1u << 20); s /= 2) {
		void *p = mmap(NULL, (size_t)s, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
			       MAP_NORESERVE, -1, 0);
		if (p != MAP_FAILED) {
			munmap(p, (size_t)s);
			return s;
		}
	}
	return 0;
}

uint64_t mem_knee(uint64_t llc)
{
	/* measured once per process tree: plumb run measures it and hands it to its steps, a
	 * tool hands it to its own later calls (0: none found) */
	uint64_t v;
	if (sys_llc_knee(&v))
		return v;
	uint64_t top = llc && 4 * llc < MEM_DEFAULT_CAP ? 4 * llc : MEM_DEFAULT_CAP;
	uint64_t u = mem_usable();
	if (top > u / 2)
		top = u / 2;
	/* what this process may map (ulimit -v, overcommit): half of it, the rest for the chain's
	 * bookkeeping and the program; recorded when it cuts the probe */
	uint64_t m = mappable_bytes(top * 2);
	if (top > m / 2) {
		top = m / 2;
		knee_cut = top;
	}
	v = top < (2u << 20) ? 0 : probe_knee(top);
	char buf[32];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	setenv("PLUMB_MEM_KNEE", buf, 1);
	return v;
}

int mem_warm_by_walk(uint64_t bytes)
{
	static uint64_t eff;
	if (!eff) {
		uint64_t llc = sys_llc_bytes(), k = mem_needs_knee(llc) ? mem_knee(llc) : 0;
		eff = k ? k : llc ? llc : 8ull << 20;
	}
	return bytes <= eff;
}

uint64_t mem_default_bytes(unsigned divisor, unsigned llcs, char *how, size_t howlen)
{
	uint64_t cap = mem_usable() / (divisor ? divisor : 1);
	/* PLUMB_MEM_NO_SYSFS=1 pretends sysfs said nothing (to exercise the measured fallback) */
	const char *nosys = getenv("PLUMB_MEM_NO_SYSFS");
	uint64_t llc = nosys && *nosys && strcmp(nosys, "0") ? 0 : sys_llc_bytes();
	llc *= llcs ? llcs : 1;
	uint64_t knee = mem_needs_knee(llc) ? mem_knee(llc) : 0;
	return mem_size_rule(llc, knee, cap, how, howlen);
}

/* The copied vector lives until the next call or exit (tools keep pointers into it). */
static char **longopts_vec;
static void longopts_free(void)
{
	free(longopts_vec);
	longopts_vec = NULL;
}

enum mem_pages mem_pages_opt(struct tool_ctx *c, const char *value)
{
	if (!value)
		return PAGES_4K;
	int p = mem_pages_parse(value);
	if (p < 0)
		usage_error(c, "--pages: '%s' is not 4k, thp or huge", value);
	return (enum mem_pages)p;
}

struct operands mem_options_parse(struct tool_ctx *c, int argc, char ***argvp, void *dst)
{
	static int registered;
	if (!registered) {
		atexit(longopts_free);
		registered = 1;
	}
	longopts_free();
	char **nv = xcalloc((size_t)argc + 1, sizeof *nv);
	memcpy(nv, *argvp, (size_t)argc * sizeof *nv);
	*argvp = longopts_vec = nv;
	return options_parse(c, argc, nv, dst);
}

uint64_t mem_seed(void)
{
	const char *e = getenv("PLUMB_SEED");
	if (e && *e) {
		char *end;
		unsigned long long v = strtoull(e, &end, 0);
		if (*end == 0 && v)
			return v;
		die(EXIT_USAGE, "PLUMB_SEED: '%s' is not a nonzero integer", e);
	}
	uint64_t s = now_ns() ^ ((uint64_t)getpid() << 32);
	return s ? s : 0x9e3779b97f4a7c15ULL;
}

/*
 * Random chains that grow.  lmbench re-permutes the whole buffer for every size it measures,
 * which costs more than the measurement at large sizes.  plumb builds ONE random cycle per
 * stride, growing it as the sizes grow: slot i joins the cycle by being inserted after a slot j
 * drawn uniformly from the i slots already there (next[i] = next[j]; next[j] = i).  Taking slot
 * i out again gives back the previous cycle, so at every moment the chain is exactly the
 * restriction of the final cycle to the first n slots — and each of the (n-1)! cyclic orders of
 * n slots is equally likely (i positions for slot i times (i-1)! orders before = i!).  Measuring
 * the sizes in increasing order therefore costs one insertion per slot of the largest size in
 * total (O(N)), and every size is walked as one random cycle through all of its lines.
 */
static inline void **slot(struct chain_builder *cb, size_t i)
{
	return (void **)(cb->base + i * cb->stride + cb->off);
}

void chain_begin(struct chain_builder *cb, char *base, size_t stride, size_t off, uint64_t seed)
{
	cb->base = base;
	cb->stride = stride;
	cb->off = off;
	cb->n = 1;
	cb->rng = seed ? seed : 1;
	*slot(cb, 0) = slot(cb, 0);
}

void chain_grow(struct chain_builder *cb, size_t n)
{
	for (size_t i = cb->n; i < n; i++) {
		void **j = slot(cb, mem_rand_below(&cb->rng, i));
		void **s = slot(cb, i);
		*s = *j;
		*j = s;
	}
	if (n > cb->n)
		cb->n = n;
}

/* ---- pointer chases ------------------------------------------------------------------------ */

struct chase {
	char *base;
	size_t len, warm;
	void **p;          /* where the walk is: it continues across samples */
	int copies;        /* -P copies: each unshares its pages in setup */
};

void **mem_chase_walk(void **p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
#define L1 p = (void **)*p;
#define L10 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1
		L10 L10 L10 L10 L10 L10 L10 L10 L10 L10 /* MEM_CHASE_LOADS */
#undef L10
#undef L1
	}
	return p;
}

static void chase_loop(uint64_t n, void *arg)
{
	struct chase *ch = arg;
	ch->p = mem_chase_walk(ch->p, n);
}

/*
 * How many loads the warm-up walk takes at most. Its job is to leave the caches holding chain
 * lines, as they will in the timed loop; once the chain is far larger than the last-level cache
 * nearly every load brings in a new line, so twice the LLC's lines (64-byte lines assumed:
 * smaller counts fewer loads than needed only with bigger lines) put every cache in its steady
 * state and a longer walk changes nothing but the run time (it was 90 % of lat_mem_rd -t 128's
 * time with a fixed 4 Mi loads). Without sysfs, the old 4 Mi.
 */
static size_t warm_cap(void)
{
	static size_t cap;
	if (!cap) {
		uint64_t llc = sys_llc_bytes();
		cap = 4u << 20;
		if (llc && 2 * llc / 64 < cap)
			cap = 2 * llc / 64 > (64u << 10) ? (size_t)(2 * llc / 64) : (64u << 10);
	}
	return cap;
}

static int chase_setup(void *arg)
{
	struct chase *ch = arg;
	/* -P copies were forked after the chain was built: give each its own pages */
	if (ch->copies)
		mem_unshare(ch->base, ch->len);
	if (ch->warm == MEM_WARM_SWEEP) {
		/* read the chain's memory in address order, one load a line: the prefetchers make
		 * that a few ms where a walk of the chain took n dependent misses (beyond twice the
		 * LLC nothing stays cached, so the sweep stops there) */
		size_t len = ch->len, cap = 64 * warm_cap();
		if (len > cap)
			len = cap;
		uint64_t sum = 0;
		for (size_t o = 0; o < len; o += 64)
			sum += *(volatile const unsigned char *)(ch->base + o);
		sink_u64(sum);
		return 0;
	}
	size_t n = ch->warm < warm_cap() ? ch->warm : warm_cap();
	void **p = ch->p;
	for (size_t i = 0; i < n; i++)
		p = (void **)*p;
	ch->p = p;
	sink_u64((uint64_t)(uintptr_t)p);
	return 0;
}

int mem_chase_measure(struct timing_ctx *t, char *base, size_t len, void **start, size_t warm,
		      struct measurement *m)
{
	struct chase ch = { base, len, warm, start, t->opts.parallel > 1 };
	struct bench_op op = { .setup = chase_setup, .loop = chase_loop, .arg = &ch };
	return measure(t, &op, m);
}

double mem_chase_ns(struct timing_ctx *t, char *base, size_t len, void **start, size_t warm)
{
	struct measurement m;
	if (mem_chase_measure(t, base, len, start, warm, &m) != 0)
		return NAN;
	double v = measurement_stat(&m, 1) / MEM_CHASE_LOADS;
	measurement_free(&m);
	return v;
}

void **mem_link_random(void ***nodes, size_t n, uint64_t *rng)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)mem_rand_below(rng, i + 1);
		void **t = nodes[i];
		nodes[i] = nodes[j];
		nodes[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		*nodes[i] = nodes[(i + 1) % n];
	return nodes[0];
}

/* STREAM's validation (stream.c): every element of x equal to want within McCalpin's relative
 * 1e-13? Returns the count of wrong ones; *first gets the index of the first. */
size_t stream_check(const double *x, size_t n, double want, size_t *first)
{
	size_t bad = 0;
	double tol = 1e-13 * fabs(want);
	for (size_t i = 0; i < n; i++)
		if (!(fabs(x[i] - want) <= tol)) {
			if (!bad && first)
				*first = i;
			bad++;
		}
	return bad;
}
