/*
 * bw_mmap_rd.c — bw_mmap_rd: read bandwidth of a mapped cached file (mmap_only: mapped once;
 * open2close: opened, mapped, unmapped and closed every pass), every word summed and the sum
 * checked against the file; the front is bw_file_rd.c's (bw_rd.h). The mapping is PROT_READ.
 */
#define _FILE_OFFSET_BITS 64 /* 64-bit offsets on armhf too: files beyond 2 GiB */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "bench/fs/bw_rd.h"
#include "bench/fs/fs.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_BW_MMAP_RD_MMAP_ONLY, ROW_BW_MMAP_RD_OPEN2CLOSE, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static void mmap_only_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		/* The mapping does not change between passes: the barrier makes the compiler read
		 * it again each time instead of reusing the first pass's sum. */
		compiler_barrier();
		r->pass_sum = fs_sum_words(r->map, (size_t)r->size);
		r->acc += r->pass_sum;
	}
	KEEP(r->acc);
}

static const unsigned char *map_ro(struct rd *r, int fd)
{
	void *p = mmap(NULL, (size_t)r->size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die(EXIT_MEASURE, "mmap %s: %s", r->file, strerror(errno));
	return p;
}

static int mmap_only_setup(void *a)
{
	struct rd *r = a;
	r->fd = fs_open_ro(r->file);
	r->map = map_ro(r, r->fd);
	return 0;
}

static void mmap_o2c_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		int fd = fs_open_ro(r->file);
		const unsigned char *p = map_ro(r, fd);
		r->pass_sum = fs_sum_words(p, (size_t)r->size);
		r->acc += r->pass_sum;
		munmap((void *)p, (size_t)r->size);
		close(fd);
	}
	KEEP(r->acc);
}

static int bw_mmap_rd(struct tool_ctx *c, int argc, char **argv)
{
	static const struct rd_modes md = {
		"mmap_only", mmap_only_setup, mmap_only_loop, rd_setup, mmap_o2c_loop,
		&metrics[ROW_BW_MMAP_RD_MMAP_ONLY], &metrics[ROW_BW_MMAP_RD_OPEN2CLOSE],
	};
	return bw_rd_run(c, argc, argv, &md);
}

static const struct tool tools[] = {
	TOOL("bw_mmap_rd", bw_mmap_rd, 0, NULL, "size mmap_only|open2close [file]",
	     "read bandwidth of a mapped cached file, every word summed",
	     "Prints 'MB MB/s'. The file is mapped read-only; without file plumb creates one."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_MMAP_RD_MMAP_ONLY] = { .id = "bw_mmap_rd.mmap_only",
	  .cells = { { .cell = SUM_MMAPREAD, .read = READ_LAST_X } },
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "read of a mapped cached file",
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "\"Mmap read bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size", .lmbench = LMX_MB },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one pass over a read-only shared mapping, every word summed; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "the sum is checked against the file",
	  .noise = { .group = "file", .run = 0.25, .run_eq = 0.25, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_MMAP_RD_OPEN2CLOSE] = { .id = "bw_mmap_rd.open2close",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "open+mmap+read+munmap",
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "\"Mmap read open2close bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size", .lmbench = LMX_MB },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "open + mmap + sum pass + munmap + close; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "the sum is checked against the file",
	  .noise = { .group = "file", .run = 0.25, .run_eq = 0.25, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_bw_mmap_rd = { "files", SUBSET_OS, "file system and VM", tools, metrics };
