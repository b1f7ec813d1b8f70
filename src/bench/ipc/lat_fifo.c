/*
 * lat_fifo.c — lat_fifo: the round trip of 1 byte over a FIFO to an echo process and back over
 * another; the FIFOs live in plumb's private directory only until both ends are open (lmbench
 * used /tmp/lmbench_f*.PID).
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
enum { ROW_LAT_FIFO_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

static void clear_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
}

/*
 * FIFO opening order, chosen so that nobody reads a FIFO that has no writer yet (that read
 * would return EOF) and the parent never blocks on a dead helper:
 *   helper: f1 for reading (non-blocking open), then f2 for writing (waits for our reader);
 *   parent: f1 for writing (retried until the helper's reader exists, watching the helper),
 *           then f2 for reading (waits for the helper's writer, which comes right after).
 */
static int setup_fifo(void *a)
{
	struct ipc *s = a;
	char *f1 = xasprintf("%s/fifo1.%d", s->dir, (int)getpid());
	char *f2 = xasprintf("%s/fifo2.%d", s->dir, (int)getpid());
	int rc = -1;
	if (mkfifo(f1, 0600) || mkfifo(f2, 0600)) {
		warnx_("mkfifo in %s: %s", s->dir, strerror(errno));
		goto out;
	}
	if ((s->child = ipc_fork_helper(s)) < 0)
		goto out;
	if (s->child == 0) {
		int r = open(f1, O_RDONLY | O_NONBLOCK);
		if (r < 0)
			_exit(1);
		clear_nonblock(r);
		int w = open(f2, O_WRONLY);
		if (w < 0)
			_exit(1);
		ipc_echo(r, w, s->buf, s->msize);
	}
	while ((s->wfd = open(f1, O_WRONLY | O_NONBLOCK)) < 0) {
		if (errno != ENXIO && errno != EINTR) {
			warnx_("%s: %s", f1, strerror(errno));
			goto out;
		}
		if (waitpid(s->child, NULL, WNOHANG) == s->child) {
			child_forget(s->child);
			s->child = 0;
			warnx_("the echo process could not open %s", f1);
			goto out;
		}
		usleep(1000);
	}
	clear_nonblock(s->wfd);
	if ((s->rfd = open(f2, O_RDONLY)) < 0) {
		warnx_("%s: %s", f2, strerror(errno));
		goto out;
	}
	ipc_roundtrip(s);
	rc = 0;
out:
	unlink(f1); /* both ends are open: the names are no longer needed */
	unlink(f2);
	free(f1);
	free(f2);
	return rc;
}

static int lat_fifo(struct tool_ctx *c, int argc, char **argv)
{
	ipc_no_operands(c, options_parse(c, argc, argv, NULL));
	char *dir = ipc_tool_dir(c);
	struct ipc s = { .dir = dir, .msize = 1, .buf = ipc_one_byte };
	struct bench_op op = { .setup = setup_fifo, .loop = ipc_loop_echo, .teardown = ipc_teardown_echo };
	int rc = ipc_run(c, &s, &op, metrics[ROW_LAT_FIFO_LATENCY].id, "", 1);
	free(dir);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_fifo", lat_fifo, 0, NULL, "", "FIFO round-trip latency (1 byte) with an echo process",
	     "The FIFOs are made in a private directory under --fsdir and removed once open."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_FIFO_LATENCY] = { .id = "lat_fifo.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "FIFO round trip", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Fifo latency: %v microseconds", .vfmt = "%.4f",
	  .work = "1 byte over a FIFO and back over another: one round trip",
	  .subtracted = SUB_CLOCK, .lmbench = "the FIFOs live in plumb's private directory",
	  .noise = { .group = "ipc", .run = 0.12, .run_eq = 0.085, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.025 },
	  .steady = { .group = "ipc.steady", .run = 0.165, .run_eq = 0.165, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.095 } },
	{ 0 },
};

const struct tool_file toolfile_lat_fifo = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, metrics };
