/*
 * ipc.c — what the local IPC latency tools (lat_pipe, lat_unix, lat_fifo, lat_fcntl, lat_sem:
 * a file each in this folder) share: the echo helper, the round trip, forking and reaping the
 * helper, and the common front (see ipc.h). Each tool forks one helper in setup (plumb_fork,
 * placed as helper 1) and times one round trip or hand-off per iteration; teardown kills and
 * reaps it, and plumb's cleanup kills it if plumb is interrupted.
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
#include "core/cpu.h"
#include "core/util.h"

/* The helper: send back whatever arrives, until EOF or death. */
__attribute__((noreturn)) void ipc_echo(int rfd, int wfd, char *buf, size_t n)
{
	while (read_in_full(rfd, buf, n) == 0 && write_in_full(wfd, buf, n) == 0)
		;
	_exit(0);
}

void ipc_roundtrip(struct ipc *s)
{
	if (write_in_full(s->wfd, s->buf, s->msize) || read_in_full(s->rfd, s->buf, s->msize))
		die(EXIT_MEASURE, "the echo process is gone (%s)", errno ? strerror(errno) : "EOF");
}

void ipc_loop_echo(uint64_t n, void *a)
{
	struct ipc *s = a;
	for (uint64_t i = 0; i < n; i++)
		ipc_roundtrip(s);
}

void ipc_teardown_child(struct ipc *s)
{
	if (s->child > 0) {
		kill(s->child, SIGKILL);
		child_wait(s->child);
		s->child = 0;
	}
}

void ipc_teardown_echo(void *a)
{
	struct ipc *s = a;
	close(s->wfd);
	if (s->rfd != s->wfd)
		close(s->rfd);
	ipc_teardown_child(s);
}

pid_t ipc_fork_helper(struct ipc *s)
{
	pid_t pid = plumb_fork();
	if (pid < 0)
		warnx_("fork: %s", strerror(errno));
	else if (pid == 0)
		timing_place_helper(s->timing, 1);
	return pid;
}

int ipc_run(struct tool_ctx *c, struct ipc *s, struct bench_op *op, const char *metric,
	    const char *params, double ops)
{
	op->arg = s;
	op->helpers = 1;
	s->timing = &c->timing;
	return measure_latency(c, op, metric, params, NAN, ops) ? 0 : EXIT_MEASURE;
}

void ipc_no_operands(struct tool_ctx *c, struct operands args)
{
	if (args.n > 0)
		usage_error(c, "unexpected operand '%s'", args.v[0]);
}

char ipc_one_byte[1];

char *ipc_tool_dir(struct tool_ctx *c)
{
	char *dir = private_dir(c->fsdir);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a directory under %s: %s",
		    c->fsdir ? c->fsdir : "$TMPDIR", strerror(errno));
	return dir;
}

