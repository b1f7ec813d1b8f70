/*
 * disk.c — lmbench's `disk DEVICE`: seek times by seek distance and read bandwidth by offset
 * ("zones"), on a block device or a file the user names. READ-ONLY: the path is opened
 * O_RDONLY (with O_DIRECT when the file system accepts it, so reads reach the device), nothing
 * is ever written, and the page cache of a device is not touched (lmbench's flushdisk needed
 * root and BLKFLSBUF; plumb does without).
 *
 * Seeks: one 4 KiB read at positions alternating between the two ends and closing in, so the
 * distances shrink from the whole size to one step; each read is one sample. lmbench printed
 * only points between 1 ms and 1 s; plumb prints every point (a cached or solid-state read is a
 * real figure too). Zones: one 1 MiB read at up to 150 evenly spaced offsets. Each series stops
 * after DISK_BUDGET_S seconds, saying so, so a slow device cannot hang a run.
 */
/* 64-bit file offsets on 32-bit systems too (armhf): files and devices beyond 2 GiB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/fs/fs.h"
#include "bench/tool.h"
#include "core/clock.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_DISK_SEEK, ROW_DISK_ZONE, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define DISK_BLK 4096
#define DISK_ZONE (1u << 20)
#define DISK_SEEKS 250
#define DISK_ZONES 150
#define DISK_BUDGET_S 10

struct dk {
	const char *dev;
	int fd;
	void *buf;
	uint64_t off;
	size_t len;
};

static void dk_read(uint64_t iters, void *a)
{
	struct dk *d = a;
	for (uint64_t i = 0; i < iters; i++) {
		ssize_t r = pread(d->fd, d->buf, d->len, (off_t)d->off);
		if (r != (ssize_t)d->len)
			die(EXIT_MEASURE, "%s: read at %llu: %s", d->dev, (unsigned long long)d->off,
			    r < 0 ? strerror(errno) : "short read");
	}
}

/* Time one read of len bytes at off. */
static int one_read(struct tool_ctx *c, struct dk *d, uint64_t off, size_t len,
		    struct measurement *m)
{
	d->off = off;
	d->len = len;
	struct bench_op op = { .loop = dk_read, .arg = d, .fixed_iters = 1, .no_parallel = 1 };
	return measure(&c->timing, &op, m);
}

/* Open d->dev read-only, with O_DIRECT when both open and a first read accept it; print what
 * is read and how. Its usable size in whole blocks. */
static uint64_t dk_open(struct tool_ctx *c, struct dk *d)
{
	struct stat st;
	if (stat(d->dev, &st) != 0)
		die(EXIT_USAGE, "%s: %s", d->dev, strerror(errno));
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		die(EXIT_USAGE, "%s: not a block device or regular file", d->dev);
	int direct = 1;
	d->fd = open(d->dev, O_RDONLY | O_DIRECT);
	if (d->fd < 0) {
		direct = 0;
		d->fd = open(d->dev, O_RDONLY);
	}
	if (d->fd < 0)
		die(EXIT_USAGE, "%s: %s", d->dev, strerror(errno));
	uint64_t size = (uint64_t)st.st_size;
	if (S_ISBLK(st.st_mode) && ioctl(d->fd, BLKGETSIZE64, &size) != 0)
		die(EXIT_MEASURE, "%s: size: %s", d->dev, strerror(errno));
	size = size / DISK_BLK * DISK_BLK;
	if (size < 2 * DISK_BLK)
		die(EXIT_USAGE, "%s: too small (%llu bytes)", d->dev, (unsigned long long)size);
	if (posix_memalign(&d->buf, DISK_BLK, DISK_ZONE) != 0)
		die(EXIT_MEASURE, "out of memory");
	/* O_DIRECT accepted at open can still be refused at read time (alignment, tmpfs). */
	if (direct && pread(d->fd, d->buf, DISK_BLK, 0) != DISK_BLK) {
		close(d->fd);
		direct = 0;
		d->fd = open(d->dev, O_RDONLY);
		if (d->fd < 0)
			die(EXIT_USAGE, "%s: %s", d->dev, strerror(errno));
	}
	out_fact(c, NULL, "DISK", "%s %s, %.1f MB, %s", d->dev,
		 S_ISBLK(st.st_mode) ? "block device" : "file", (double)size / 1e6,
		 direct ? "O_DIRECT reads" : "buffered reads (O_DIRECT refused): may hit the page cache");
	if (S_ISREG(st.st_mode))
		fs_fact(c, d->dev);
	return size;
}

static int over_budget(uint64_t t0)
{
	return now_ns() - t0 > DISK_BUDGET_S * 1000000000ull;
}

/* Seek times: reads alternating between the two ends, closing in. 1 when the time budget cut
 * the series short, 0 when complete, -1 when a read could not be timed. */
static int dk_seeks(struct tool_ctx *c, struct dk *d, uint64_t size, const char *params)
{
	struct measurement m;
	out_printf(c, "\"Seek times for %s\n", d->dev);
	int npts = DISK_SEEKS;
	if ((uint64_t)npts > size / DISK_BLK / 2)
		npts = (int)(size / DISK_BLK / 2);
	uint64_t step = size / 2 / (uint64_t)npts / DISK_BLK * DISK_BLK;
	if (!step)
		step = DISK_BLK;
	uint64_t end = size - DISK_BLK, prev = 0, t0 = now_ns();
	if (pread(d->fd, d->buf, DISK_BLK, 0) < 0) /* start at the beginning */
		die(EXIT_MEASURE, "%s: %s", d->dev, strerror(errno));
	for (int i = 0; i < npts; i++) {
		uint64_t k = (uint64_t)(i / 2);
		uint64_t pos = i % 2 == 0 ? end - k * step : (k + 1) * step;
		if (pos > end)
			pos = end;
		uint64_t dist = pos > prev ? pos - prev : prev - pos;
		if (one_read(c, d, pos, DISK_BLK, &m) != 0)
			return -1;
		record_latency(c, metrics[ROW_DISK_SEEK].id, params, (double)dist / 1e6, &m, 1);
		measurement_free(&m);
		prev = pos;
		if (over_budget(t0))
			return 1;
	}
	return 0;
}

/* Zone bandwidth: one large read at evenly spaced offsets. 1, 0 or -1 as dk_seeks. */
static int dk_zones(struct tool_ctx *c, struct dk *d, uint64_t size, const char *params)
{
	struct measurement m;
	out_printf(c, "\n\"Zone bandwidth for %s\n", d->dev);
	size_t zl = size < DISK_ZONE ? (size_t)size : DISK_ZONE;
	int nz = (int)(size / DISK_ZONE);
	if (nz > DISK_ZONES)
		nz = DISK_ZONES;
	if (nz < 1)
		nz = 1;
	uint64_t t0 = now_ns();
	for (int i = 0; i < nz; i++) {
		uint64_t off = nz > 1 ? (size - zl) / (uint64_t)(nz - 1) * (uint64_t)i : 0;
		off = off / DISK_BLK * DISK_BLK;
		if (one_read(c, d, off, zl, &m) != 0)
			return -1;
		record_bandwidth(c, metrics[ROW_DISK_ZONE].id, params, (double)off / 1e6, &m, (double)zl);
		measurement_free(&m);
		if (over_budget(t0))
			return 1;
	}
	return 0;
}

static int disk(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	if (args.n != 1)
		usage_error(c, "need exactly one DEVICE or FILE to read");
	struct dk d = { .dev = args.v[0] };
	uint64_t size = dk_open(c, &d);
	char params[600];
	snprintf(params, sizeof params, "dev=%s", d.dev);
	int seeks_cut = dk_seeks(c, &d, size, params);
	if (seeks_cut < 0)
		return EXIT_MEASURE;
	int zones_cut = dk_zones(c, &d, size, params);
	if (zones_cut < 0)
		return EXIT_MEASURE;
	if (seeks_cut || zones_cut) {
		out_printf(c, "\n");
		out_fact(c, NULL, "DISK_CUT", "stopped after %d s per series (%s)", DISK_BUDGET_S,
			 seeks_cut && zones_cut ? "seeks and zones" : seeks_cut ? "seeks" : "zones");
	}
	free(d.buf);
	close(d.fd);
	return 0;
}

static const struct tool tools[] = {
	TOOL("disk", disk, 0, NULL, "DEVICE|FILE",
	     "seek time by distance and read bandwidth by offset, read-only",
	     "Prints \"Seek times for DEV then 'MB ms' lines, an empty line, \"Zone bandwidth for\n"
	     "DEV then 'MB MB/s' lines. Opens DEV read-only (O_DIRECT when possible) and never\n"
	     "writes; every seek point is printed (lmbench kept only 1 ms..1 s). Each series stops\n"
	     "after 10 s. plumb run measures a disk only when one is named."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_DISK_SEEK] = { .id = "disk.seek",
	  .unit = "ms", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "seek time by distance (MB)",
	  .line = "%x %v", .xfmt = "%.01f", .vfmt = "%.02f",
	  .lmbench_text = { .title = "\"Seek times for ", .param = "dev" },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size" }, .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one 4 KiB read (O_DIRECT when possible) at alternating positions; one sample "
		"per read",
	  .subtracted = SUB_NOTHING,
	  .lmbench = "every point printed (lmbench printed 1 ms to 1 s only)",
	  .noise = { .group = "file", .run = 0.2, .run_eq = 0.2, .df = 5, .clock = OWN_PACE } },
	[ROW_DISK_ZONE] = { .id = "disk.zone",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "read bandwidth by offset (MB)",
	  .line = "%x %v", .xfmt = "%.01f", .vfmt = "%.2f",
	  .lmbench_text = { .title = "\"Zone bandwidth for ", .param = "dev" },
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size" }, .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one 1 MiB read at an offset; one sample per read",
	  .subtracted = SUB_NOTHING, .lmbench = "",
	  .noise = { .group = "file", .run = 0.2, .run_eq = 0.2, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_disk = { "disk", SUBSET_HW, "disk seeks and zone bandwidth", tools, metrics };
