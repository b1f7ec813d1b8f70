/*
 * bw_file_rd.c — bw_file_rd: re-read bandwidth of a cached file with read() (io_only: one open
 * descriptor, lseek between passes; open2close: opened and closed every pass), every word summed
 * and the sum checked against the file. Also the front bw_mmap_rd shares (bw_rd.h). A FILE
 * operand is only opened O_RDONLY; without one plumb makes its own. docs/files.md.
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
enum { ROW_BW_FILE_RD_IO_ONLY, ROW_BW_FILE_RD_OPEN2CLOSE, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static size_t read_full(int fd, unsigned char *b, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}

/* Read the first size bytes of fd, summing every word. */
static uint64_t read_pass(struct rd *r, int fd)
{
	uint64_t sum = 0;
	for (uint64_t off = 0; off < r->size;) {
		size_t n = r->size - off < r->unit ? (size_t)(r->size - off) : r->unit;
		if (read_full(fd, r->buf, n) != n)
			die(EXIT_MEASURE, "%s: short read at %llu", r->file, (unsigned long long)off);
		sum += fs_sum_words(r->buf, n);
		off += n;
	}
	return sum;
}

int rd_setup(void *a)
{
	struct rd *r = a;
	r->unit = r->size < RD_UNIT ? (size_t)r->size : RD_UNIT;
	r->buf = xmalloc(r->unit + 8);
	r->fd = -1;
	return 0;
}

static void io_only_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		if (lseek(r->fd, 0, SEEK_SET) != 0)
			die(EXIT_MEASURE, "lseek %s: %s", r->file, strerror(errno));
		r->pass_sum = read_pass(r, r->fd);
		r->acc += r->pass_sum;
	}
	KEEP(r->acc);
}

static void file_o2c_loop(uint64_t iters, void *a)
{
	struct rd *r = a;
	for (uint64_t i = 0; i < iters; i++) {
		int fd = fs_open_ro(r->file);
		r->pass_sum = read_pass(r, fd);
		r->acc += r->pass_sum;
		close(fd);
	}
	KEEP(r->acc);
}

static int io_only_setup(void *a)
{
	struct rd *r = a;
	rd_setup(a);
	r->fd = fs_open_ro(r->file);
	return 0;
}

void rd_teardown(void *a)
{
	struct rd *r = a;
	sink_u64(r->acc);
	if (r->map)
		munmap((void *)r->map, (size_t)r->size);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buf);
	r->map = NULL;
	r->buf = NULL;
	r->fd = -1;
}

/* The reference: the file's first size bytes summed byte by byte with pread, in pieces whose
 * boundaries are word-aligned (as the read loop's are). */
static uint64_t reference_sum(const char *file, uint64_t size)
{
	int fd = fs_open_ro(file);
	size_t bs = 1 << 20;
	unsigned char *b = xmalloc(bs);
	uint64_t s = 0;
	for (uint64_t off = 0; off < size;) {
		size_t n = size - off < bs ? (size_t)(size - off) : bs;
		ssize_t got = pread(fd, b, n, (off_t)off);
		if (got != (ssize_t)n)
			die(EXIT_MEASURE, "%s: short read", file);
		s += fs_sum_ref(b, n);
		off += n;
	}
	free(b);
	close(fd);
	return s;
}

/* Common front of bw_file_rd and bw_mmap_rd: "size mode [file]". */
int bw_rd_run(struct tool_ctx *c, int argc, char **argv, const struct rd_modes *md)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	const char *m1 = md->only;
	if (args.n < 2)
		usage_error(c, "usage: size %s|open2close [file]", m1);
	if (args.n > 3)
		usage_error(c, "too many operands");
	struct rd r = { .fd = -1 };
	r.size = parse_size(args.v[0], 512, (uint64_t)SIZE_MAX / 2, "size (at least 512 bytes)");
	const char *mode = args.v[1];
	int o2c;
	if (!strcmp(mode, m1))
		o2c = 0;
	else if (!strcmp(mode, "open2close"))
		o2c = 1;
	else
		usage_error(c, "unknown mode '%s' (%s or open2close)", mode, m1);
	char *own = NULL;
	if (args.n == 3) {
		r.file = args.v[2];
		uint64_t fsz = fs_user_file_size(c, r.file);
		if (fsz < r.size)
			die(EXIT_USAGE, "%s: %llu bytes, shorter than size %llu", r.file,
			    (unsigned long long)fsz, (unsigned long long)r.size);
	} else {
		char *dir = fs_private_dir(c);
		r.file = own = fs_make_file(dir, "XXX", r.size);
		free(dir);
	}
	char *d = fs_dir_of(r.file);
	const char *fstype = fs_type_name(d);
	free(d);
	struct bench_op op = { .arg = &r, .teardown = rd_teardown };
	op.setup = o2c ? md->o2c_setup : md->only_setup;
	op.loop = o2c ? md->o2c_loop : md->only_loop;
	struct measurement m;
	if (measure(&c->timing, &op, &m) != 0)
		return EXIT_MEASURE;
	/* The loop's sum of one pass must be the file's: every byte was read, none invented.
	 * (With -P the copies ran elsewhere: check one pass here.) */
	if (m.parallel > 1 || !r.pass_sum) {
		struct measurement one;
		struct bench_op o1 = op;
		static const struct timing_defaults one_pass = { .repetitions = 1 };
		o1.fixed_iters = 1;
		o1.no_parallel = 1;
		o1.sampling = &one_pass;
		if (measure(&c->timing, &o1, &one) == 0)
			measurement_free(&one);
	}
	uint64_t want = reference_sum(r.file, r.size);
	if (r.pass_sum != want)
		die(EXIT_MEASURE, "%s: the bytes read do not match the file (sum %llx, expected %llx)",
		    r.file, (unsigned long long)r.pass_sum, (unsigned long long)want);
	const char *metric = (o2c ? md->metric_o2c : md->metric_only)->id;
	struct result *res = record_bandwidth(c, metric, "", (double)r.size / 1e6, &m, (double)r.size);
	result_add_info(res, "fstype=%s file=%s bytes_per_pass=%llu checksum=verified sum=%llx", fstype,
		 own ? "own" : r.file, (unsigned long long)r.size, (unsigned long long)want);
	measurement_free(&m);
	free(own);
	return 0;
}

static int bw_file_rd(struct tool_ctx *c, int argc, char **argv)
{
	static const struct rd_modes md = {
		"io_only", io_only_setup, io_only_loop, rd_setup, file_o2c_loop,
		&metrics[ROW_BW_FILE_RD_IO_ONLY], &metrics[ROW_BW_FILE_RD_OPEN2CLOSE],
	};
	return bw_rd_run(c, argc, argv, &md);
}

static const struct tool tools[] = {
	TOOL("bw_file_rd", bw_file_rd, 0, NULL, "size io_only|open2close [file]",
	     "re-read bandwidth of a cached file with read(), every word summed",
	     "Prints 'MB MB/s'. Without file, plumb creates one of size bytes in its private\n"
	     "directory; a named file is only read. The bytes summed are checked against the file."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_FILE_RD_IO_ONLY] = { .id = "bw_file_rd.io_only",
	  .cells = { { .cell = SUM_REREAD, .read = READ_LAST_X } },
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "re-read of a cached file with read()",
	  .line = "%x %v", .xfmt = "bw", .vfmt = "bw", .series_title = "\"read bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size", .lmbench = LMX_MB },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "one read() pass over the cached file in 64 KiB reads, every word summed; bytes "
		"/ time",
	  .subtracted = SUB_CLOCK, .lmbench = "the sum is checked against the file",
	  .noise = { .group = "file", .run = 0.15, .run_eq = 0.15, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_FILE_RD_OPEN2CLOSE] = { .id = "bw_file_rd.open2close",
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN,
	  .version = 1,
	  .desc = "open+read+close of a cached file",
	  .line = "%x %v",
	  .xfmt = "bw", .vfmt = "bw", .series_title = "\"read open2close bandwidth",
	  .sign = POSITIVE, .x = { .kind = X_SIZE, .label = "size", .lmbench = LMX_MB },
	  .chart = "series",
	  .summary = { .at = SUMMARY_LAST },
	  .work = "open + read pass + close, every word summed; bytes / time",
	  .subtracted = SUB_CLOCK, .lmbench = "the sum is checked against the file",
	  .noise = { .group = "file", .run = 0.15, .run_eq = 0.15, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_bw_file_rd = { "files", SUBSET_OS, "file system and VM", tools, metrics };
