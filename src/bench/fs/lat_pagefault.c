/*
 * lat_pagefault.c — lat_pagefault: the cost of a real (major) page fault per page — plumb's own file's
 * pages are evicted before each pass and touched in random order without read-around; a FILE
 * the user names is never evicted (minor faults, and the output says so). docs/files.md.
 */
#define _FILE_OFFSET_BITS 64 /* 64-bit offsets on armhf too: files beyond 2 GiB */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "bench/fs/fs.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/stats.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_PAGEFAULT_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define PF_DEFAULT_SIZE (8u << 20)

struct pf {
	const char *file;
	int fd;
	int evict;           /* drop the file's pages before every pass (our own file only) */
	size_t len, pg, npages;
	size_t *order;       /* pages in random order */
	const volatile unsigned char *map;
	unsigned char *vec;  /* mincore */
	size_t resident_max; /* pages found resident right before a pass */
	long majflt, minflt; /* counted by the kernel during the timed passes */
	uint64_t passes;     /* passes the counts cover */
	struct rusage ru0;
	uint64_t acc;
	/* The steady figure (core/timing.h): after each pass, untimed for lmbench's figure, a
	 * pass of its own over an eighth of the pages, freshly evicted, each touch timed alone. */
	int steady;          /* take it: each touch is its own fault (evicted pages) */
	double clk;          /* the clock's read cost, subtracted per touch */
	double *touch;       /* one steady pass's touches, ns */
	size_t share, next;  /* pages per steady pass; where the next starts in order[] */
	struct steady_sample *st; /* every steady pass's figure, warm-up first */
	size_t nst, capst;
	long st_flt;         /* faults the kernel counted in the steady passes ... */
	uint64_t st_pages;   /* ... over the pages they touched */
};

static void pf_map(struct pf *p)
{
	if (p->map)
		munmap((void *)p->map, p->len);
	/* Unmapped first, then dropped: mapped pages cannot leave the page cache. */
	if (p->evict && posix_fadvise(p->fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
		p->evict = 0;
	void *m = mmap(NULL, p->len, PROT_READ, MAP_SHARED, p->fd, 0);
	if (m == MAP_FAILED)
		die(EXIT_MEASURE, "mmap %s: %s", p->file, strerror(errno));
	/* No read-around: each touched page is its own fault, as the random order intends. */
	madvise(m, p->len, MADV_RANDOM);
	p->map = m;
}

static size_t pf_resident(struct pf *p)
{
	size_t n = 0;
	if (mincore((void *)p->map, p->len, p->vec) != 0)
		return 0;
	for (size_t i = 0; i < p->npages; i++)
		n += p->vec[i] & 1;
	return n;
}

static void pf_before(uint64_t iters, void *a)
{
	struct pf *p = a;
	pf_map(p);
	size_t r = pf_resident(p);
	if (r > p->resident_max)
		p->resident_max = r;
	getrusage(RUSAGE_SELF, &p->ru0);
}

static void pf_loop(uint64_t iters, void *a)
{
	struct pf *p = a;
	uint64_t acc = p->acc;
	for (uint64_t i = 0; i < iters; i++)
		for (size_t k = 0; k < p->npages; k++)
			acc += p->map[p->order[k] * p->pg];
	p->acc = acc;
	KEEP(p->acc);
}

/* One steady pass: the pages evicted and mapped afresh, then `share` of them in lmbench's
 * random order (a different stretch each pass), each touch timed alone: consecutive clock
 * reads, each the end of one touch and the start of the next, as measure() times single
 * operations. A major fault lasts microseconds to milliseconds, long against a clock read
 * (~20 ns). Its figure is ns per pass (the median touch times the pages), as lmbench's is. */
static void pf_steady(struct pf *p)
{
	pf_map(p);
	struct rusage r0, r1;
	getrusage(RUSAGE_SELF, &r0);
	uint64_t acc = p->acc, t0 = now_ns(), prev = t0;
	for (size_t i = 0; i < p->share; i++) {
		acc += p->map[p->order[(p->next + i) % p->npages] * p->pg];
		uint64_t t = now_ns();
		p->touch[i] = (double)(t - prev) - p->clk;
		prev = t;
	}
	getrusage(RUSAGE_SELF, &r1);
	p->acc = acc;
	p->next = (p->next + p->share) % p->npages;
	p->st_flt += (r1.ru_majflt - r0.ru_majflt) + (r1.ru_minflt - r0.ru_minflt);
	p->st_pages += p->share;
	if (p->nst == p->capst) {
		p->capst = p->capst ? 2 * p->capst : 32;
		p->st = xrealloc(p->st, p->capst * sizeof *p->st);
	}
	p->st[p->nst++] = (struct steady_sample){
		stats_median(p->touch, p->share) * (double)p->npages, p->share,
		(double)(prev - t0), 1 };
}

static void pf_after(uint64_t iters, void *a)
{
	struct pf *p = a;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	p->majflt += ru.ru_majflt - p->ru0.ru_majflt;
	p->minflt += ru.ru_minflt - p->ru0.ru_minflt;
	p->passes += iters;
	if (p->steady)
		pf_steady(p);
}

/* The file to fault on: the user's (arg, at least 1 MiB) or a new one of plumb's own, whose
 * path is returned (NULL for the user's). Its size in *size. */
static char *pf_file(struct tool_ctx *c, struct pf *p, const char *arg, uint64_t *size)
{
	if (arg) {
		p->file = arg;
		*size = fs_user_file_size(c, p->file);
		if (*size < (1u << 20))
			die(EXIT_USAGE, "%s: must be at least 1 MiB", p->file);
		return NULL;
	}
	char *dir = fs_private_dir(c);
	*size = PF_DEFAULT_SIZE;
	char *own = fs_make_file(dir, "XXX", *size);
	p->file = own;
	free(dir);
	return own;
}

/* Open the file and order its pages at random (a fixed seed: the same order every run). */
static void pf_pages(struct pf *p, uint64_t size)
{
	if (size > (uint64_t)SIZE_MAX / 2) /* a 32-bit address space maps less */
		size = (uint64_t)SIZE_MAX / 2;
	p->len = (size_t)(size / p->pg * p->pg);
	p->npages = p->len / p->pg;
	p->fd = fs_open_ro(p->file);
	p->order = xmalloc(p->npages * sizeof *p->order);
	p->vec = xmalloc(p->npages + 1);
	for (size_t i = 0; i < p->npages; i++)
		p->order[i] = i;
	uint64_t x = 0x2545F4914F6CDD1Dull;
	for (size_t i = p->npages - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), t = p->order[i];
		p->order[i] = p->order[j];
		p->order[j] = t;
	}
}

/* Print the file system; decide whether the pages can be evicted, and say so when the faults
 * will be minor. The file system's type name. */
static const char *pf_check_evict(struct tool_ctx *c, struct pf *p, const char *own)
{
	char *d = fs_dir_of(p->file);
	const char *fstype = fs_type_name(d);
	int inmem = fs_in_memory(d);
	free(d);
	out_fact(c, NULL, "FSTYPE", "%s", fstype);
	/* Only a file plumb created is evicted; then check that eviction really empties the page
	 * cache before calling the faults "major". */
	p->evict = own != NULL;
	const char *why = NULL;
	if (inmem) {
		why = "tmpfs/ramfs keep every page in memory: no real page fault or cold read is "
		      "possible here; these are minor faults";
	} else if (!p->evict) {
		why = "a file plumb did not create is never evicted: these are minor faults "
		      "(omit FILE for real ones)";
	} else {
		pf_map(p);
		size_t left = pf_resident(p);
		if (left * 10 > p->npages) {
			why = "the file's pages stay in memory after eviction: mostly minor faults";
			p->evict = 0;
		}
	}
	if (why)
		out_fact(c, NULL, "PAGEFAULT", "%s", why);
	p->steady = why == NULL; /* minor faults: no steady figure (pf_steady_setup) */
	return fstype;
}

/* The steady figure is taken when every touch is its own fault: evicted pages, no fault-around.
 * In memory (tmpfs, a user's file) the kernel maps up to 16 cached pages per fault, nearly all
 * of them early in a pass: single touches are then not alike (a fault or almost nothing), and
 * their median is not the per-page cost, so there is none. */
static void pf_steady_setup(struct pf *p)
{
	if (!p->steady)
		return;
	p->clk = clock_overhead_ns();
	p->share = p->npages / STEADY_SHARE;
	if (p->share < STEADY_MIN_BATCHES)
		p->share = STEADY_MIN_BATCHES < p->npages ? STEADY_MIN_BATCHES : p->npages;
	p->touch = xmalloc(p->share * sizeof *p->touch);
}

/* Record the latency per page, with the faults the kernel counted in its info. */
static void pf_record(struct tool_ctx *c, const struct pf *p, struct measurement *m,
		      const char *own, const char *fstype)
{
	char params[600];
	/* Our own file's directory name is random; the parameter names where it lives
	 * (<fsdir>/XXX, like lmbench's $FSDIR/XXX) so runs compare; the real path is in info. */
	if (own) {
		const char *base = c->fsdir && *c->fsdir ? c->fsdir
				 : getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		char sp[512];
		snprintf(params, sizeof params, "file=%s/XXX", stable_path(base, sp, sizeof sp));
	} else {
		snprintf(params, sizeof params, "file=%s", p->file);
	}
	struct result *r = record_latency(c, metrics[ROW_LAT_PAGEFAULT_LATENCY].id, params, NAN, m,
					  (double)p->npages);
	/* Faults were counted around every pass, calibration and warm-up included: per page is
	 * over all of them. Per fault: the time per page touched over the faults per page. */
	double passes = p->passes ? (double)p->passes : 1;
	double fpp = (double)(p->majflt + p->minflt) / passes / (double)p->npages;
	char per_fault[32] = "none";
	if (fpp > 0)
		snprintf(per_fault, sizeof per_fault, "%.4f", r->value / fpp);
	result_add_info(r, "path=%s fstype=%s pages=%zu page_size=%zu evicted=%s resident_before_pass_max=%zu "
		 "majflt_per_page=%.3f minflt_per_page=%.3f faults_per_page=%.3f us_per_fault=%s",
		 p->file, fstype, p->npages, p->pg, p->evict ? "yes" : "no", p->resident_max,
		 p->majflt / passes / (double)p->npages, p->minflt / passes / (double)p->npages, fpp,
		 per_fault);
	if (m->steady)
		result_add_info(r, "steady_faults_per_page=%.3f",
				(double)p->st_flt / (double)(p->st_pages ? p->st_pages : 1));
	else
		result_add_info(r, "steady=none");
}

static int lat_pagefault(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n > 1)
		usage_error(c, "too many operands");
	struct pf p = { .fd = -1 };
	p.pg = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t size;
	char *own = pf_file(c, &p, args.n == 1 ? args.v[0] : NULL, &size);
	pf_pages(&p, size);
	const char *fstype = pf_check_evict(c, &p, own);
	pf_steady_setup(&p);

	/* One iteration = one pass touching every page once; per-page cost = pass / npages. */
	struct bench_op op = { .before = pf_before, .loop = pf_loop, .after = pf_after, .arg = &p,
			       .fixed_iters = 1, .no_parallel = 1 };
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	/* the samples' steady passes are the last m.n (warm-up passes come first) */
	if (p.steady && p.nst >= m.n) {
		m.steady = xmalloc(m.n * sizeof *m.steady);
		memcpy(m.steady, p.st + (p.nst - m.n), m.n * sizeof *m.steady);
	}
	pf_record(c, &p, &m, own, fstype);
	measurement_free(&m);
	munmap((void *)p.map, p.len);
	close(p.fd);
	free(p.order);
	free(p.vec);
	free(p.touch);
	free(p.st);
	free(own);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_pagefault", lat_pagefault, 0, NULL, "[file]",
	     "cost of a real (major) page fault per page, the file's pages evicted before each pass",
	     "Without file plumb creates an 8 MiB file and drops its pages from the page cache\n"
	     "before every pass (checked with mincore): each touch, in random page order and\n"
	     "without read-around, is a major fault. On tmpfs, or with a file plumb did not\n"
	     "create (never evicted), the faults are minor and the output says so. docs/files.md."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_PAGEFAULT_LATENCY] = { .id = "lat_pagefault.latency",
	  .cells = { { .cell = SUM_PAGEFAULT, .read = READ_FAULT } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN,
	  .version = 2,
	  .desc = "file page fault, page evicted first (real fault)",
	  .line = "Pagefaults on {file}: %v microseconds", .vfmt = "%.4f",
	  .sign = POSITIVE, .x = { .kind = X_NONE },
	  .work = "one pass reading a byte of every page of an evicted file in random order "
		"without read-around; per page",
	  .subtracted = SUB_CLOCK " (eviction and mapping happen before each pass, untimed)",
	  .lmbench = "version 2: major faults (lmbench's msync(MS_INVALIDATE) left pages cached: "
		"minor faults); faults counted per page, us_per_fault",
	  .noise = { .group = "file", .run = 0.3, .run_eq = 0.3, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "file.steady", .run = 0.3, .run_eq = 0.3, .df = 5,
		      .clock = OWN_PACE },
	  .steady_how = "the median of single page touches in a pass of its own after lmbench's "
		"(an eighth of the pages, evicted again, each touch timed alone: a major fault is "
		"long against a clock read), times the pages (only where every touch is its own "
		"fault: not on tmpfs or a user's file, info steady=none; declared noise: the "
		"batch mean's, not measured yet)" },
	{ 0 },
};

const struct tool_file toolfile_lat_pagefault = { "files", SUBSET_OS, "file system and VM", tools, metrics };
