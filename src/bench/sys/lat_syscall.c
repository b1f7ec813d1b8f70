/*
 * lat_syscall.c — lat_syscall: the cost of entering the kernel for the simplest calls.
 *   null   getppid()                 read   read 1 byte from /dev/zero
 *   write  write 1 byte to /dev/null stat   stat() of FILE
 *   fstat  fstat() of FILE           open   open(FILE)+close()
 * Without FILE, stat/fstat/open use a small file plumb creates in its private directory
 * (lmbench's suite does the same with $FSDIR/lmbench).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/tool.h"
#include "bench/tool_run.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_SYSCALL_NULL, ROW_LAT_SYSCALL_READ, ROW_LAT_SYSCALL_WRITE, ROW_LAT_SYSCALL_STAT,
	ROW_LAT_SYSCALL_FSTAT, ROW_LAT_SYSCALL_OPEN, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

struct sc {
	const char *file;
	int fd;
};

static void loop_null(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++)
		(void)getppid();
}

static void loop_read(uint64_t n, void *a)
{
	struct sc *s = a;
	char c;
	for (uint64_t i = 0; i < n; i++)
		if (read(s->fd, &c, 1) != 1)
			abort();
}

static void loop_write(uint64_t n, void *a)
{
	struct sc *s = a;
	char c = 0;
	for (uint64_t i = 0; i < n; i++)
		if (write(s->fd, &c, 1) != 1)
			abort();
}

static void loop_stat(uint64_t n, void *a)
{
	struct sc *s = a;
	struct stat st;
	for (uint64_t i = 0; i < n; i++)
		if (stat(s->file, &st) != 0)
			abort();
}

static void loop_fstat(uint64_t n, void *a)
{
	struct sc *s = a;
	struct stat st;
	for (uint64_t i = 0; i < n; i++)
		if (fstat(s->fd, &st) != 0)
			abort();
}

static void loop_open(uint64_t n, void *a)
{
	struct sc *s = a;
	for (uint64_t i = 0; i < n; i++) {
		int fd = open(s->file, O_RDONLY);
		if (fd < 0)
			abort();
		close(fd);
	}
}

static const struct {
	const char *mode;
	int row; /* its metric's row in metrics[] */
	void (*loop)(uint64_t, void *);
	int needs_file, fd_flags;
	const char *fd_path;
} modes[] = {
	{ "null", ROW_LAT_SYSCALL_NULL, loop_null, 0, 0, NULL },
	{ "read", ROW_LAT_SYSCALL_READ, loop_read, 0, O_RDONLY, "/dev/zero" },
	{ "write", ROW_LAT_SYSCALL_WRITE, loop_write, 0, O_WRONLY, "/dev/null" },
	{ "stat", ROW_LAT_SYSCALL_STAT, loop_stat, 1, 0, NULL },
	{ "fstat", ROW_LAT_SYSCALL_FSTAT, loop_fstat, 1, O_RDONLY, NULL },
	{ "open", ROW_LAT_SYSCALL_OPEN, loop_open, 1, 0, NULL },
};

/* A small file of our own for stat/fstat/open when the user names none. */
static char *own_file(struct tool_ctx *c)
{
	char *dir = private_dir(c->fsdir);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a directory under %s: %s",
		    c->fsdir ? c->fsdir : "$TMPDIR", strerror(errno));
	char *f = xasprintf("%s/lmbench", dir);
	int fd = open(f, O_CREAT | O_EXCL | O_WRONLY, 0600);
	if (fd < 0 || write(fd, "plumb\n", 6) != 6)
		die(EXIT_MEASURE, "cannot create %s: %s", f, strerror(errno));
	close(fd);
	free(dir);
	return f;
}

static int lat_syscall(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	size_t i = TOOL_MODE(c, args, modes);
	struct sc s = { .file = args.n > 1 ? args.v[1] : NULL, .fd = -1 };
	if (args.n > 2)
		usage_error(c, "too many operands");
	char *owned = NULL;
	if (modes[i].needs_file) {
		struct stat st;
		if (!s.file)
			s.file = owned = own_file(c);
		else if (stat(s.file, &st) != 0)
			die(EXIT_USAGE, "%s: %s", s.file, strerror(errno));
	}
	const char *fdp = modes[i].fd_path ? modes[i].fd_path : modes[i].mode[0] == 'f' ? s.file : NULL;
	if (fdp && (s.fd = open(fdp, modes[i].fd_flags)) < 0)
		die(EXIT_MEASURE, "%s: %s", fdp, strerror(errno));
	struct bench_op op = { .loop = modes[i].loop, .arg = &s };
	struct result *r = measure_latency(c, &op, metrics[modes[i].row].id, "", NAN, 1);
	if (!r)
		return EXIT_MEASURE;
	if (modes[i].needs_file) {
		result_add_info(r, "file=%s", s.file);
	}
	if (s.fd >= 0)
		close(s.fd);
	free(owned);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_syscall", lat_syscall, 0, NULL, "null|read|write|stat|fstat|open [FILE]",
	     "system call latency: null, 1-byte read/write, stat, fstat, open+close",
	     "FILE defaults to a small file plumb creates under --fsdir (stat, fstat, open)."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_SYSCALL_NULL] = { .id = "lat_syscall.null",
	  .cells = { { .cell = SUM_SYSCALL, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "null system call (getppid)", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple syscall: %v microseconds", .vfmt = "%.4f",
	  .work = "one getppid() call and its loop", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.105, .run_eq = 0.105, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.125, .run_eq = 0.125, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.065 } },
	[ROW_LAT_SYSCALL_READ] = { .id = "lat_syscall.read",
	  .cells = { { .cell = SUM_READ, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "read 1 byte from /dev/zero", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple read: %v microseconds", .vfmt = "%.4f",
	  .work = "one read() of 1 byte from /dev/zero and its loop",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.1, .run_eq = 0.1, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.135, .run_eq = 0.135, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.06 } },
	[ROW_LAT_SYSCALL_WRITE] = { .id = "lat_syscall.write",
	  .cells = { { .cell = SUM_WRITE, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "write 1 byte to /dev/null", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple write: %v microseconds", .vfmt = "%.4f",
	  .work = "one write() of 1 byte to /dev/null and its loop",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.09, .run_eq = 0.09, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.11, .run_eq = 0.11, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.045 } },
	[ROW_LAT_SYSCALL_STAT] = { .id = "lat_syscall.stat",
	  .cells = { { .cell = SUM_STAT, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "stat() of a file", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple stat: %v microseconds", .vfmt = "%.4f",
	  .work = "one stat() of a small file and its loop", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.095, .run_eq = 0.095, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.2, .run_eq = 0.2, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.08 } },
	[ROW_LAT_SYSCALL_FSTAT] = { .id = "lat_syscall.fstat",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "fstat() of an open file", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple fstat: %v microseconds", .vfmt = "%.4f",
	  .work = "one fstat() of an open file and its loop", .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.075, .run_eq = 0.075, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.155, .run_eq = 0.155, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.095 } },
	[ROW_LAT_SYSCALL_OPEN] = { .id = "lat_syscall.open",
	  .cells = { { .cell = SUM_OPENCLOSE, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "open()+close() of a file", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Simple open/close: %v microseconds", .vfmt = "%.4f",
	  .work = "one open() + close() of a small file and its loop",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "syscall", .run = 0.065, .run_eq = 0.065, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.04 },
	  .steady = { .group = "syscall.steady", .run = 0.17, .run_eq = 0.17, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.07 } },
	{ 0 },
};

const struct tool_file toolfile_syscall = { "syscall", SUBSET_OS, "system calls", tools, metrics };
