/*
 * lat_fcntl.c — lat_fcntl: a POSIX record-lock hand-off between two processes (see below), reported
 * per hand-off, i.e. per half round trip, as lmbench does (micro(label, 2n)).
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
enum { ROW_LAT_FCNTL_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* Three record locks passed round between two processes: Bytes 0, 1, 2 of one file are three locks. With k counting iterations (mod 3), the parent
 * holds k and k+1 and the helper holds k+2. Parent: unlock k, lock k+2 (waits). Helper: lock k
 * (waits), unlock k+2. So each iteration is two hand-offs, each a lock release waking the
 * process blocked on it: a round trip. Nobody ever waits for a lock the other is waiting for,
 * so the kernel's deadlock detection has nothing to find. */

static int set_lock(int fd, unsigned byte, short type, int wait)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = byte, .l_len = 1 };
	int r;
	while ((r = fcntl(fd, wait ? F_SETLKW : F_SETLK, &fl)) < 0 && errno == EINTR)
		;
	return r;
}

static void lock_or_die(int fd, unsigned byte, short type, int wait)
{
	if (set_lock(fd, byte, type, wait) != 0)
		die(EXIT_MEASURE, "fcntl lock: %s", strerror(errno));
}

static void loop_fcntl(uint64_t n, void *a)
{
	struct ipc *s = a;
	for (uint64_t i = 0; i < n; i++) {
		lock_or_die(s->lockfd, s->k % 3, F_UNLCK, 0);
		lock_or_die(s->lockfd, (s->k + 2) % 3, F_WRLCK, 1);
		s->k++;
	}
}

static int setup_fcntl(void *a)
{
	struct ipc *s = a;
	char *f = xasprintf("%s/lock.%d", s->dir, (int)getpid());
	int sync[2] = { -1, -1 };
	s->lockfd = open(f, O_RDWR | O_CREAT | O_EXCL, 0600);
	int e = errno;
	unlink(f); /* the locks work as well on an unlinked file: nothing to leave behind */
	free(f);
	if (s->lockfd < 0) {
		warnx_("lock file in %s: %s", s->dir, strerror(e));
		return -1;
	}
	if (pipe(sync)) {
		warnx_("pipe: %s", strerror(errno));
		return -1;
	}
	/* Record locks belong to a process and are not inherited: take ours before forking. */
	if (set_lock(s->lockfd, 0, F_WRLCK, 0) || set_lock(s->lockfd, 1, F_WRLCK, 0)) {
		warnx_("fcntl lock: %s", strerror(errno));
		return -1;
	}
	if ((s->child = ipc_fork_helper(s)) < 0)
		return -1;
	if (s->child == 0) {
		close(sync[0]);
		if (set_lock(s->lockfd, 2, F_WRLCK, 1) || write(sync[1], "", 1) != 1)
			_exit(1);
		close(sync[1]);
		for (unsigned k = 0;; k++)
			if (set_lock(s->lockfd, k % 3, F_WRLCK, 1) ||
			    set_lock(s->lockfd, (k + 2) % 3, F_UNLCK, 0))
				_exit(1);
	}
	close(sync[1]);
	char c;
	int ok = read_in_full(sync[0], &c, 1) == 0;
	close(sync[0]);
	if (!ok) {
		warnx_("the lock helper failed to start");
		return -1;
	}
	s->k = 0;
	loop_fcntl(1, s);
	return 0;
}

static void teardown_fcntl(void *a)
{
	struct ipc *s = a;
	ipc_teardown_child(s);
	close(s->lockfd);
}

static int lat_fcntl(struct tool_ctx *c, int argc, char **argv)
{
	ipc_no_operands(c, options_parse(c, argc, argv, NULL));
	char *dir = ipc_tool_dir(c);
	struct ipc s = { .dir = dir };
	struct bench_op op = { .setup = setup_fcntl, .loop = loop_fcntl, .teardown = teardown_fcntl };
	int rc = ipc_run(c, &s, &op, metrics[ROW_LAT_FCNTL_LATENCY].id, "", 2);
	free(dir);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_fcntl", lat_fcntl, 0, NULL, "", "fcntl() record-lock hand-off latency between two processes",
	     "Reported per hand-off (half a round trip), as lmbench."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_FCNTL_LATENCY] = { .id = "lat_fcntl.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "fcntl lock hand-off", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Fcntl lock latency: %v microseconds", .vfmt = "%.4f",
	  .work = "a POSIX record-lock hand-off with an echo process; per hand-off (half a round "
		"trip)",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ipc", .run = 0.12, .run_eq = 0.095, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.025 },
	  .steady = { .group = "ipc.steady", .run = 0.175, .run_eq = 0.175, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.115 } },
	{ 0 },
};

const struct tool_file toolfile_lat_fcntl = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, metrics };
