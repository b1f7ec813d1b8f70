/*
 * lat_fs.c — lat_fs: files created and deleted per second, for sizes 0k 1k 4k 10k (lmbench's
 * lat_fs). Every file lives in plumb's private directory under --fsdir; docs/files.md.
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
enum { ROW_LAT_FS_CREATE, ROW_LAT_FS_DELETE, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* The measurement facts finish() records for record_latency/record_bandwidth, for results made
 * with record_values (rates computed here). */
static void meas_info(struct result *r, const struct measurement *m)
{
	result_add_info(r, "cpu=%d copies=%d iters=%llu min_sample_ns=%.0f", m->cpu, m->parallel,
		 (unsigned long long)m->iters, m->min_sample_ns);
}

#define FS_PER_DIR 100   /* names per directory, as lmbench: directory size stays small */

struct fsb {
	char *base;        /* our private directory */
	size_t size;       /* bytes written to each file */
	char *buf;
	int round;         /* a fresh tree per interval */
	int dfd;           /* the interval's tree */
	int *sub;          /* its subdirectories */
	uint64_t nsub;
	char tree[64];
	/* The steady figure (core/timing.h): after each create sample, untimed for lmbench's
	 * figures, a pass of its own in a fresh tree: an eighth of the sample's files (at least
	 * STEADY_MIN_BATCHES) created, then deleted, each create and each unlink timed alone. */
	double clk;        /* the clock's read cost, subtracted per file */
	double *one;       /* one pass's files, ns */
	struct steady_sample *cr, *del; /* every pass's figures, calibration and warm-up first */
	size_t nst, capst;
};

static void tree_make(struct fsb *f, uint64_t files)
{
	snprintf(f->tree, sizeof f->tree, "t%d.%d", (int)getpid(), f->round++); /* -P copies */
	int bfd = open(f->base, O_RDONLY | O_DIRECTORY);
	if (bfd < 0 || mkdirat(bfd, f->tree, 0700) != 0)
		die(EXIT_MEASURE, "mkdir in %s: %s", f->base, strerror(errno));
	f->dfd = openat(bfd, f->tree, O_RDONLY | O_DIRECTORY);
	close(bfd);
	f->nsub = (files + FS_PER_DIR - 1) / FS_PER_DIR;
	f->sub = xcalloc(f->nsub ? f->nsub : 1, sizeof *f->sub);
	for (uint64_t d = 0; d < f->nsub; d++) {
		char n[24];
		snprintf(n, sizeof n, "%llu", (unsigned long long)d);
		if (mkdirat(f->dfd, n, 0700) != 0 ||
		    (f->sub[d] = openat(f->dfd, n, O_RDONLY | O_DIRECTORY)) < 0)
			die(EXIT_MEASURE, "mkdir in %s: %s", f->base, strerror(errno));
	}
}

static void tree_remove(struct fsb *f)
{
	for (uint64_t d = 0; d < f->nsub; d++)
		close(f->sub[d]);
	free(f->sub);
	f->sub = NULL;
	close(f->dfd);
	char *p = xasprintf("%s/%s", f->base, f->tree);
	remove_tree(p);
	free(p);
}

static void name_of(uint64_t i, char *n)
{
	/* Short decimal names; formatting is a few ns against a create's microseconds. */
	snprintf(n, 24, "%llu", (unsigned long long)(i % FS_PER_DIR));
}

static void create_range(struct fsb *f, uint64_t from, uint64_t to)
{
	char n[24];
	for (uint64_t i = from; i < to; i++) {
		name_of(i, n);
		int fd = openat(f->sub[i / FS_PER_DIR], n, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd < 0)
			die(EXIT_MEASURE, "create in %s: %s", f->base, strerror(errno));
		for (size_t off = 0; off < f->size;) {
			size_t chunk = f->size - off > 128 * 1024 ? 128 * 1024 : f->size - off;
			ssize_t w = write(fd, f->buf, chunk);
			if (w <= 0)
				die(EXIT_MEASURE, "write in %s: %s", f->base, strerror(errno));
			off += (size_t)w;
		}
		close(fd);
	}
}

static void create_files(struct fsb *f, uint64_t iters) { create_range(f, 0, iters); }

static void delete_range(struct fsb *f, uint64_t from, uint64_t to)
{
	char n[24];
	for (uint64_t i = from; i < to; i++) {
		name_of(i, n);
		if (unlinkat(f->sub[i / FS_PER_DIR], n, 0) != 0)
			die(EXIT_MEASURE, "unlink in %s: %s", f->base, strerror(errno));
	}
}

static void delete_files(struct fsb *f, uint64_t iters) { delete_range(f, 0, iters); }

/* Each file of the pass timed alone: consecutive clock reads, each the end of one file and the
 * start of the next, as measure() times single operations (a create or an unlink lasts
 * microseconds, long against a clock read). The pass's median file, ns. */
static struct steady_sample fs_single(struct fsb *f, uint64_t n,
				      void (*op)(struct fsb *, uint64_t, uint64_t))
{
	uint64_t t0 = now_ns(), prev = t0;
	for (uint64_t i = 0; i < n; i++) {
		op(f, i, i + 1);
		uint64_t t = now_ns();
		f->one[i] = (double)(t - prev) - f->clk;
		prev = t;
	}
	return (struct steady_sample){ stats_median(f->one, n), n, (double)(prev - t0), 1 };
}

static void fs_steady(struct fsb *f, uint64_t iters)
{
	uint64_t n = iters / STEADY_SHARE;
	if (n < STEADY_MIN_BATCHES)
		n = STEADY_MIN_BATCHES < iters ? STEADY_MIN_BATCHES : iters;
	if (n == 0)
		return;
	if (f->nst == f->capst) {
		f->capst = f->capst ? 2 * f->capst : 32;
		f->cr = xrealloc(f->cr, f->capst * sizeof *f->cr);
		f->del = xrealloc(f->del, f->capst * sizeof *f->del);
	}
	f->one = xrealloc(f->one, n * sizeof *f->one);
	tree_make(f, n);
	f->cr[f->nst] = fs_single(f, n, create_range);
	f->del[f->nst] = fs_single(f, n, delete_range);
	f->nst++;
	tree_remove(f);
}

static void cr_before(uint64_t iters, void *a) { tree_make(a, iters); }
static void cr_loop(uint64_t iters, void *a) { create_files(a, iters); }
static void cr_after(uint64_t iters, void *a) { tree_remove(a); }
static void cr_after_steady(uint64_t iters, void *a) { tree_remove(a); fs_steady(a, iters); }
static void del_before(uint64_t iters, void *a) { tree_make(a, iters); create_files(a, iters); }
static void del_loop(uint64_t iters, void *a) { delete_files(a, iters); }

static struct result *record_rate(struct tool_ctx *c, const char *metric, const char *params,
				  const struct measurement *m)
{
	struct sample *s = xcalloc(m->n ? m->n : 1, sizeof *s);
	for (size_t i = 0; i < m->n; i++) {
		s[i] = m->s[i];
		s[i].value = m->s[i].value > 0 ? 1e9 / m->s[i].value : NAN;
	}
	struct result *r = record_values(c, metric, params, NAN, s, m->n);
	meas_info(r, m);
	free(s);
	return r;
}

/* The steady twin of a rate: per sample the files per second of its pass's median file (a
 * time's median turned into a rate is the rate's median), the last m->n passes (the
 * samples'; calibration and warm-up come first). -P copies take theirs in child processes,
 * out of reach here: no twin. */
static void record_steady_rate(struct tool_ctx *c, const char *metric, const char *params,
			       const struct measurement *m, const struct steady_sample *st,
			       size_t nst)
{
	const struct metric_def *t = metric_steady(metric_find(metric));
	if (!t || nst < m->n || m->n == 0)
		return;
	st += nst - m->n;
	struct sample *s = xcalloc(m->n, sizeof *s);
	for (size_t i = 0; i < m->n; i++)
		s[i] = (struct sample){ .value = st[i].value > 0 ? 1e9 / st[i].value : NAN,
					.iters = st[i].ops, .elapsed_ns = st[i].elapsed_ns,
					.round = m->s[i].round };
	struct result *r = record_values(c, t->id, params, NAN, s, m->n);
	result_add_info(r, "steady=single steady_batch=1");
	meas_info(r, m);
	free(s);
}

struct fs_opts { uint64_t size; int size_given, nfiles; };
static const struct tool_options fs_options = { .opts = (const struct opt[]){
	OPT_SIZE('s', NULL, struct fs_opts, size, "size", 0, 1ll << 30, "file size",
		"only this file size (default: 0k 1k 4k 10k)"),
	OPT_INT('n', NULL, struct fs_opts, nfiles, "files", 1, 10000000, "files per interval",
		"files created and deleted per timed interval"),
	OPT_END } };

static int lat_fs(struct tool_ctx *c, int argc, char **argv)
{
	struct fs_opts o = { .size = UINT64_MAX };
	struct operands args = options_parse(c, argc, argv, &o);
	long long one_size = o.size == UINT64_MAX ? -1 : (long long)o.size, nfiles = o.nfiles;
	if (args.n > 1)
		usage_error(c, "too many operands (one directory at most)");
	if (args.n > 0) {
		struct stat st;
		if (stat(args.v[0], &st) != 0 || !S_ISDIR(st.st_mode))
			die(EXIT_USAGE, "%s: not a directory", args.v[0]);
		c->fsdir = args.v[0];
	}
	struct fsb f = { 0 };
	f.clk = clock_overhead_ns();
	f.base = fs_private_dir(c);
	fs_fact(c, f.base);
	int history = fs_ext4_nojournal(f.base);
	if (history) { /* the sentence on screen, the word in the facts */
		out_printf(c, "[FS caveat: %s]\n", caveat_text(CAVEAT_FS_HISTORY));
		FILE *o = c->out;
		c->out = NULL;
		out_fact(c, NULL, "FS_caveat", "%s", CAVEAT_FS_HISTORY);
		c->out = o;
	}
	static const long long defaults[] = { 0, 1024, 4096, 10240 };
	int nsizes = one_size >= 0 ? 1 : 4;
	for (int k = 0; k < nsizes; k++) {
		f.size = (size_t)(one_size >= 0 ? one_size : defaults[k]);
		f.buf = xcalloc(1, f.size < 128 * 1024 ? f.size + 1 : 128 * 1024);
		memset(f.buf, 'p', f.size < 128 * 1024 ? f.size : 128 * 1024);
		char params[48];
		snprintf(params, sizeof params, "size=%zu", f.size);
		struct bench_op cr = { .before = cr_before, .loop = cr_loop, .after = cr_after_steady,
				       .arg = &f, .fixed_iters = (uint64_t)nfiles };
		struct bench_op del = { .before = del_before, .loop = del_loop, .after = cr_after,
					.arg = &f, .fixed_iters = (uint64_t)nfiles };
		struct measurement mc, md;
		if (measure(&c->timing, &cr, &mc) != 0 || measure(&c->timing, &del, &md) != 0)
			return EXIT_MEASURE;
		struct result *rc = record_rate(c, metrics[ROW_LAT_FS_CREATE].id, params, &mc);
		struct result *rd = record_rate(c, metrics[ROW_LAT_FS_DELETE].id, params, &md);
		if (history)
			result_add_info(rc, "caveat=%s", CAVEAT_FS_HISTORY);
		record_steady_rate(c, metrics[ROW_LAT_FS_CREATE].id, params, &mc, f.cr, f.nst);
		record_steady_rate(c, metrics[ROW_LAT_FS_DELETE].id, params, &mc, f.del, f.nst);
		f.nst = 0;
		out_printf(c, "%zuk\t%llu\t%.0f\t%.0f\n", f.size >> 10, (unsigned long long)mc.iters,
			   rc->value, rd->value);
		measurement_free(&mc);
		measurement_free(&md);
		free(f.buf);
	}
	free(f.one);
	free(f.cr);
	free(f.del);
	free(f.base); /* the directory itself goes at exit (cleanup.h) */
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_fs", lat_fs, 0, &fs_options, "[-s size] [-n files] [dir]",
	     "file creations and deletions per second (sizes 0k 1k 4k 10k)",
	     "Prints 'SIZEk FILES CREATES/s DELETES/s' per size. Files go in a private directory\n"
	     "under dir (or --fsdir, $TMPDIR, /tmp), at most 100 per directory, removed after."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_FS_CREATE] = { .id = "lat_fs.create",
	  .cells = {
		{ .cell = SUM_FS_C0, .read = READ_RATE_US, .params = "size=0" },
		{ .cell = SUM_FS_C10, .read = READ_RATE_US, .params = "size=10240" },
	  },
	  .unit = "/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "files created per second (size=bytes)",
	  .line = NULL, .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_FS_CREATE },
	  .work = "creating files (open O_CREAT|O_EXCL, write SIZE bytes, close), at most 100 per "
		"directory; files / time",
	  .subtracted = SUB_CLOCK " (directories made and removed outside the timing)",
	  .lmbench = "",
	  .noise = { .group = "file", .run = 0.35, .run_eq = 0.35, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "file.steady", .run = 0.35, .run_eq = 0.35, .df = 5,
		      .clock = OWN_PACE },
	  .steady_how = "files per second of the median single file in a pass of its own after "
		"each create sample (an eighth of its files, at least 15, in a fresh tree, each create "
		"timed alone: it lasts microseconds, long against a clock read; none with -P); "
		"higher is better "
		"(declared noise: the batch mean's, not measured yet)", },
	[ROW_LAT_FS_DELETE] = { .id = "lat_fs.delete",
	  .cells = {
		{ .cell = SUM_FS_D0, .read = READ_RATE_US, .params = "size=0" },
		{ .cell = SUM_FS_D10, .read = READ_RATE_US, .params = "size=10240" },
	  },
	  .unit = "/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "files deleted per second (size=bytes)",
	  .line = NULL, .vfmt = "%.0f", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .lmbench_text = { .block = LMB_FS_DELETE },
	  .work = "unlinking those files; files / time", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "file", .run = 0.35, .run_eq = 0.35, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "file.steady", .run = 0.35, .run_eq = 0.35, .df = 5,
		      .clock = OWN_PACE },
	  .steady_how = "files per second of the median single file in a pass of its own after "
		"each create sample (an eighth of its files, at least 15, in a fresh tree, each "
		"unlink, after the creates, timed alone: it lasts microseconds, long against a "
		"clock read; none with -P); higher is better "
		"(declared noise: the batch mean's, not measured yet)", },
	{ 0 },
};

const struct tool_file toolfile_lat_fs = { "files", SUBSET_OS, "file system and VM", tools, metrics };
