/*
 * lat_unix.c — lat_unix [-m SIZE]: the round trip of SIZE bytes (default 1) over an AF_UNIX stream
 * socketpair to an echo process and back.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/socket.h>
#include "bench/ipc/ipc.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_UNIX_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static int setup_unix(void *a)
{
	struct ipc *s = a;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		warnx_("socketpair: %s", strerror(errno));
		return -1;
	}
	if ((s->child = ipc_fork_helper(s)) < 0)
		return -1;
	if (s->child == 0) {
		close(sv[0]);
		ipc_echo(sv[1], sv[1], s->buf, s->msize);
	}
	close(sv[1]);
	s->wfd = s->rfd = sv[0];
	ipc_roundtrip(s);
	return 0;
}

struct unix_opts { uint64_t msize; };
static const struct tool_options unix_options = { .opts = (const struct opt[]){
	OPT_SIZE('m', NULL, struct unix_opts, msize, "SIZE", 1, 64 << 20, "message size",
		"bytes sent each way per round trip (default 1)"),
	OPT_END } };

static int lat_unix(struct tool_ctx *c, int argc, char **argv)
{
	struct unix_opts o = { .msize = 1 };
	struct operands args = options_parse(c, argc, argv, &o);
	size_t msize = (size_t)o.msize;
	ipc_no_operands(c, args);
	struct ipc s = { .msize = msize, .buf = xcalloc(1, msize) };
	struct bench_op op = { .setup = setup_unix, .loop = ipc_loop_echo, .teardown = ipc_teardown_echo };
	char params[32] = "";
	if (msize != 1) /* lmbench's line does not show it; the default point keeps no parameter */
		snprintf(params, sizeof params, "msize=%zu", msize);
	int rc = ipc_run(c, &s, &op, metrics[ROW_LAT_UNIX_LATENCY].id, params, 1);
	free(s.buf);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_unix", lat_unix, 0, &unix_options, "[-m SIZE]",
	     "AF_UNIX stream socket round-trip latency (SIZE bytes, default 1)", NULL),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_UNIX_LATENCY] = { .id = "lat_unix.latency",
	  .cells = { { .cell = SUM_UNIX, .read = READ_FIRST } },
	  .summary_note = &one_cpu_note,
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "AF_UNIX stream round trip", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "AF_UNIX sock stream latency: %v microseconds", .vfmt = "%.4f",
	  .work = "SIZE bytes (default 1) over an AF_UNIX socketpair and back: one round trip",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ipc", .run = 0.12, .run_eq = 0.08, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.025 },
	  .steady = { .group = "ipc.steady", .run = 0.165, .run_eq = 0.165, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.11 } },
	{ 0 },
};

const struct tool_file toolfile_lat_unix = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, metrics };
