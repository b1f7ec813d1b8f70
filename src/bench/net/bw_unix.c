/*
 * bw_unix.c — bw_unix (an AF_UNIX socketpair) and bw_pipe (a pipe), one front for both: a
 * forked child writes XFER-byte chunks as fast as it can, the timed operation reads BYTES in
 * reads of that size; bandwidth = BYTES / time. The child is placed by the helper rule of
 * cpu.h, by default on the reader's CPU.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "bench/net/net.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/timing.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_BW_UNIX_BANDWIDTH, ROW_BW_PIPE_BANDWIDTH, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

#define DEF_MSG (64u << 10) /* the default transfer size, lmbench's */

struct bwl {
	int is_pipe;
	int rfd;
	pid_t child;
	size_t xfer;
	uint64_t bytes;
	char *buf;
	struct timing_ctx *timing; /* the measurement's: where the writer goes */
};

static int bwl_setup(void *a)
{
	struct bwl *b = a;
	int fds[2];
	if (b->is_pipe ? pipe2(fds, O_CLOEXEC) : socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds)) {
		warnx_("%s: %s", b->is_pipe ? "pipe" : "socketpair", strerror(errno));
		return -1;
	}
	b->child = plumb_fork();
	if (b->child < 0) {
		warnx_("fork: %s", strerror(errno));
		return -1;
	}
	if (b->child == 0) {
		timing_place_helper(b->timing, 1);
		close(fds[0]);
		char *buf = xcalloc(1, b->xfer);
		while (write_in_full(fds[1], buf, b->xfer) == 0)
			;
		_exit(0);
	}
	close(fds[1]);
	b->rfd = fds[0];
	/* lmbench reads into a buffer 128 bytes past a page start (not page-aligned on purpose). */
	b->buf = xcalloc(1, b->xfer + 128);
	net_read_move(b->rfd, b->buf + 128, b->xfer, b->bytes, b->is_pipe ? "bw_pipe" : "bw_unix");
	return 0;
}

static void bwl_loop(uint64_t n, void *a)
{
	struct bwl *b = a;
	for (uint64_t i = 0; i < n; i++)
		net_read_move(b->rfd, b->buf + 128, b->xfer, b->bytes, b->is_pipe ? "bw_pipe" : "bw_unix");
}

static void bwl_teardown(void *a)
{
	struct bwl *b = a;
	close(b->rfd);
	if (b->child > 0) {
		kill(b->child, SIGKILL);
		child_wait(b->child);
	}
	free(b->buf);
}

struct bwl_opts { uint64_t xfer, bytes; };
static const struct tool_options bwl_options = { .opts = (const struct opt[]){
	OPT_SIZE('m', NULL, struct bwl_opts, xfer, "XFER", 1, NET_MAX_MSG, "transfer size",
		"bytes per write() of the child (default 64 KiB)"),
	OPT_SIZE('M', NULL, struct bwl_opts, bytes, "BYTES", 1, 1 << 30, "bytes per operation",
		"bytes read per timed operation (default 10 MiB)"),
	OPT_END } };

static int bw_local(struct tool_ctx *c, int argc, char **argv, int is_pipe)
{
	struct bwl_opts o = { .xfer = DEF_MSG, .bytes = 10u << 20 };
	struct operands args = options_parse(c, argc, argv, &o);
	struct bwl b = { .is_pipe = is_pipe, .xfer = (size_t)o.xfer, .bytes = o.bytes,
			 .timing = &c->timing };
	/* lmbench's bw_unix also took the byte count as an operand. */
	int used = 0;
	if (!is_pipe && args.n > 0)
		b.bytes = parse_size(args.v[used++], 1, 1ull << 30, "BYTES");
	if (args.n > used)
		usage_error(c, "too many operands");
	struct bench_op op = { .setup = bwl_setup, .loop = bwl_loop, .teardown = bwl_teardown,
			       .arg = &b, .helpers = 1 };
	struct result *r = measure_bandwidth(c, &op, is_pipe ? metrics[ROW_BW_PIPE_BANDWIDTH].id : metrics[ROW_BW_UNIX_BANDWIDTH].id,
					     "", NAN, (double)b.bytes);
	if (!r)
		return EXIT_MEASURE;
	result_add_info(r, "xfer=%zu bytes=%llu", b.xfer, (unsigned long long)b.bytes);
	return 0;
}

static int bw_unix(struct tool_ctx *c, int argc, char **argv)
{
	return bw_local(c, argc, argv, 0);
}

static int bw_pipe(struct tool_ctx *c, int argc, char **argv)
{
	return bw_local(c, argc, argv, 1);
}

static const struct tool tools[] = {
	TOOL("bw_unix", bw_unix, 0, &bwl_options, "[-m XFER] [-M BYTES] [BYTES]",
	     "AF_UNIX stream bandwidth: a child writes XFER-byte chunks, BYTES read per operation",
	     "XFER defaults to 64 KiB, BYTES to 10 MiB. Unlike lmbench, -M changes the figure\n"
	     "(lmbench always divided 10 MiB by the time)."),
	TOOL("bw_pipe", bw_pipe, 0, &bwl_options, "[-m XFER] [-M BYTES]",
	     "pipe bandwidth: a child writes XFER-byte chunks, BYTES read per operation",
	     "XFER defaults to 64 KiB, BYTES to 10 MiB."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_BW_UNIX_BANDWIDTH] = { .id = "bw_unix.bandwidth",
	  .cells = { { .cell = SUM_BW_UNIX, .read = READ_FIRST } },
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "AF_UNIX stream bandwidth", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "AF_UNIX sock stream bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "reading MOVE bytes from an AF_UNIX sender; MOVE / time",
	  .subtracted = SUB_CLOCK, .lmbench = "honours -M",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	[ROW_BW_PIPE_BANDWIDTH] = { .id = "bw_pipe.bandwidth",
	  .cells = { { .cell = SUM_BW_PIPE, .read = READ_FIRST } },
	  .unit = "MB/s", .better = HIGHER, .stat = MEDIAN, .version = 1,
	  .desc = "pipe bandwidth", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Pipe bandwidth: %v MB/sec", .vfmt = "%.2f",
	  .work = "reading MOVE bytes from a pipe sender; MOVE / time",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "net", .run = 0.14, .run_eq = 0.14, .df = 5, .clock = OWN_PACE } },
	{ 0 },
};

const struct tool_file toolfile_bw_unix = { "netbw", SUBSET_OS, "socket and pipe bandwidth", tools, metrics };
