/*
 * lat_pipe.c — lat_pipe: the round trip of 1 byte over a pipe to an echo process and back over
 * another.
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
#include "bench/ipc/ipc.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_PIPE_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static int setup_pipe(void *a)
{
	struct ipc *s = a;
	int to[2], from[2];
	if (pipe(to) || pipe(from)) {
		warnx_("pipe: %s", strerror(errno));
		return -1;
	}
	if ((s->child = ipc_fork_helper(s)) < 0)
		return -1;
	if (s->child == 0) {
		close(to[1]);
		close(from[0]);
		ipc_echo(to[0], from[1], s->buf, s->msize);
	}
	close(to[0]);
	close(from[1]);
	s->wfd = to[1];
	s->rfd = from[0];
	ipc_roundtrip(s); /* warm-up, and proof the helper runs */
	return 0;
}

static int lat_pipe(struct tool_ctx *c, int argc, char **argv)
{
	ipc_no_operands(c, options_parse(c, argc, argv, NULL));
	struct ipc s = { .msize = 1, .buf = ipc_one_byte };
	struct bench_op op = { .setup = setup_pipe, .loop = ipc_loop_echo, .teardown = ipc_teardown_echo };
	return ipc_run(c, &s, &op, metrics[ROW_LAT_PIPE_LATENCY].id, "", 1);
}

static const struct tool tools[] = {
	TOOL("lat_pipe", lat_pipe, 0, NULL, "", "pipe round-trip latency (1 byte) with an echo process",
	     NULL),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_PIPE_LATENCY] = { .id = "lat_pipe.latency",
	  .cells = { { .cell = SUM_PIPE, .read = READ_FIRST } },
	  .summary_note = &one_cpu_note,
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "pipe round trip, 1 byte", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Pipe latency: %v microseconds", .vfmt = "%.4f",
	  .work = "1 byte to an echo process over a pipe and back over another: one round trip",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ipc", .run = 0.12, .run_eq = 0.085, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.025 },
	  .steady = { .group = "ipc.steady", .run = 0.165, .run_eq = 0.165, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.1 } },
	{ 0 },
};

const struct tool_file toolfile_ipc = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, metrics };
