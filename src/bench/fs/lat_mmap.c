/*
 * lat_mmap.c — lat_mmap: mmap of a file, one byte touched every 16 KiB of its first tenth (or with -r
 * every 160 KiB of all of it), munmap; the faults the kernel really took are recorded. A FILE
 * operand is only mapped PROT_READ; without one plumb makes its own. docs/files.md.
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
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_MMAP_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct mm {
	const char *file;
	int fd;
	size_t size, span, stride;
	uint64_t acc;
	struct rusage ru0;
	uint64_t ops;        /* mappings made while faults were counted */
	long majflt, minflt; /* faults the kernel counted during them */
};

/* Fault counts around every timed interval (untimed): the faults really taken, which on a
 * kernel with large folios are far fewer than the touches. */
static void mm_before(uint64_t iters, void *a)
{
	struct mm *m = a;
	getrusage(RUSAGE_SELF, &m->ru0);
}

static void mm_after(uint64_t iters, void *a)
{
	struct mm *m = a;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	m->majflt += ru.ru_majflt - m->ru0.ru_majflt;
	m->minflt += ru.ru_minflt - m->ru0.ru_minflt;
	m->ops += iters;
}

static void mm_loop(uint64_t iters, void *a)
{
	struct mm *m = a;
	uint64_t acc = m->acc;
	for (uint64_t i = 0; i < iters; i++) {
		volatile unsigned char *p = mmap(NULL, m->size, PROT_READ, MAP_SHARED, m->fd, 0);
		if (p == MAP_FAILED)
			die(EXIT_MEASURE, "mmap %s: %s", m->file, strerror(errno));
		for (size_t off = 0; off < m->span; off += m->stride)
			acc += p[off];
		munmap((void *)p, m->size);
	}
	m->acc = acc;
	KEEP(m->acc);
}

struct mmap_opts { int rnd; };
static const struct tool_options mmap_options = { .opts = (const struct opt[]){
	OPT_BOOL('r', NULL, struct mmap_opts, rnd, "touch the pages in a random order"),
	OPT_END } };

static int lat_mmap(struct tool_ctx *c, int argc, char **argv)
{
	struct mmap_opts o = { 0 };
	struct operands args = options_parse(c, argc, argv, &o);
	int rnd = o.rnd;
	if (args.n < 1)
		usage_error(c, "missing size");
	if (args.n > 2)
		usage_error(c, "too many operands");
	struct mm m = { .fd = -1 };
	m.size = (size_t)parse_size(args.v[0], 320 * 1024, (uint64_t)SIZE_MAX / 2, "size (at least 320k)");
	char *own = NULL;
	if (args.n == 2) {
		m.file = args.v[1];
		if (fs_user_file_size(c, m.file) < m.size)
			die(EXIT_USAGE, "%s: shorter than size %zu", m.file, m.size);
	} else {
		char *dir = fs_private_dir(c);
		m.file = own = fs_make_file(dir, "XXX", m.size);
		free(dir);
	}
	/* lmbench: one byte every 16 KiB of the first tenth, or with -r every 160 KiB of all. */
	m.span = rnd ? m.size : m.size / 10;
	m.stride = rnd ? 160 * 1024 : 16 * 1024;
	m.fd = fs_open_ro(m.file);
	struct bench_op op = { .before = mm_before, .loop = mm_loop, .after = mm_after, .arg = &m,
			       .steady = 1 };
	struct measurement ms;
	if (measure(&c->timing, &op, &ms) != 0)
		return EXIT_MEASURE;
	sink_u64(m.acc);
	char *d = fs_dir_of(m.file);
	struct result *r = record_latency(c, metrics[ROW_LAT_MMAP_LATENCY].id, rnd ? "touch=spread" : "",
					  (double)m.size / 1e6, &ms, 1);
	/* per operation = per mapping; per fault = the operation's time over the faults it took */
	size_t touches = (m.span + m.stride - 1) / m.stride;
	double ops = m.ops ? (double)m.ops : 1, flt = (double)(m.majflt + m.minflt) / ops;
	char per_fault[32] = "none"; /* no fault taken: no cost per fault */
	if (flt > 0)
		snprintf(per_fault, sizeof per_fault, "%.4f", r->value / flt);
	result_add_info(r, "fstype=%s file=%s touches_per_op=%zu faults_per_op=%.3f "
			"majflt_per_op=%.3f minflt_per_op=%.3f us_per_touch=%.4f us_per_fault=%s",
			fs_type_name(d), own ? "own" : m.file, touches, flt, (double)m.majflt / ops,
			(double)m.minflt / ops, r->value / (double)touches, per_fault);
	free(d);
	measurement_free(&ms);
	close(m.fd);
	free(own);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_mmap", lat_mmap, 0, &mmap_options, "[-r] size [file]",
	     "mmap + touch one byte per 16 KiB of the first tenth + munmap",
	     "Prints 'MB microseconds'. -r touches one byte per 160 KiB over the whole size.\n"
	     "The mapping is read-only (lmbench mapped read-write and wrote: method version 2);\n"
	     "without file plumb creates one. The faults the kernel really took (getrusage) are\n"
	     "recorded per mapping and the time per fault (large folios map many pages per fault)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_MMAP_LATENCY] = { .id = "lat_mmap.latency",
	  .cells = { { .cell = SUM_MMAP, .read = READ_LAST_X } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "mmap+touch+munmap of a file",
	  .line = "%x %v", .xfmt = "%.6f", .vfmt = "micromb", .series_title = "\"mappings",
	  .sign = POSITIVE, .x = { .kind = X_OTHER, .label = "mapping size (MB)" },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "mmap of SIZE bytes read-only, a read of one byte every 16 KiB of the first "
		"tenth (-r: every 160 KiB), munmap; per mapping",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "version 2: read-only mapping and reads (lmbench maps read-write shared and "
		"writes); the faults really taken are recorded (faults_per_op, us_per_fault)",
	  .noise = { .group = "file", .run = 0.2, .run_eq = 0.2, .df = 5, .clock = OWN_PACE },
	  /* a mapping lasts tens of microseconds, but the fault counts' hooks around each
	   * interval keep it out of lmbench's sample: single mappings in the pass after it */
	  .steady = { .group = "file.steady", .run = 0.2, .run_eq = 0.2, .df = 5,
		      .clock = OWN_PACE },
	  .steady_how = "the median of single mappings in a pass of an eighth of the sample's "
		"mappings after it (the hooks that count the faults keep them out of lmbench's "
		"sample; declared noise: the batch mean's, not measured yet)" },
	{ 0 },
};

const struct tool_file toolfile_lat_mmap = { "files", SUBSET_OS, "file system and VM", tools, metrics };
