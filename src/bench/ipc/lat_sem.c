/*
 * lat_sem.c — lat_sem: a SysV semaphore hand-off: post the helper's semaphore, wait on ours;
 * reported per half round trip, as lmbench.
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
#include <sys/ipc.h>
#include <sys/sem.h>
#include "bench/ipc/ipc.h"
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/cpu.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_SEM_LATENCY, ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* One set for the whole run, made by the tool before measure(): semaphores 2c and 2c+1 serve
 * -P copy c. The set is a kernel object that outlives a process, so it is removed after the
 * measurement, at exit (atexit) and from SIGINT/SIGTERM/SIGHUP/SIGQUIT: our handler removes it
 * and then hands the signal to the handler it displaced (plumb's cleanup, which kills the
 * helpers and re-raises). Only SIGKILL or a crash can leave it behind (cleanup.h has no hook for
 * kernel objects; `ipcs -s` shows a leftover). */

static volatile int sem_id = -1;
static const int sem_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSIGS (sizeof sem_sigs / sizeof sem_sigs[0])
static struct sigaction sem_prev[NSIGS];

static void sem_remove(void)
{
	int id = sem_id;
	sem_id = -1;
	if (id >= 0)
		semctl(id, 0, IPC_RMID);
}

static void sem_on_signal(int sig)
{
	sem_remove();
	for (size_t i = 0; i < NSIGS; i++)
		if (sem_sigs[i] == sig) {
			if (sem_prev[i].sa_handler == SIG_IGN)
				return;
			if (sem_prev[i].sa_handler != SIG_DFL && !(sem_prev[i].sa_flags & SA_SIGINFO)) {
				sem_prev[i].sa_handler(sig);
				return;
			}
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void sem_guard(int on)
{
	static int registered;
	if (on && !registered) {
		atexit(sem_remove);
		registered = 1;
	}
	for (size_t i = 0; i < NSIGS; i++) {
		if (on) {
			struct sigaction sa;
			memset(&sa, 0, sizeof sa);
			sa.sa_handler = sem_on_signal;
			sigfillset(&sa.sa_mask);
			sigaction(sem_sigs[i], &sa, &sem_prev[i]);
		} else {
			sigaction(sem_sigs[i], &sem_prev[i], NULL);
		}
	}
}

static void sem_op(int id, int idx, int delta)
{
	struct sembuf b = { .sem_num = (unsigned short)idx, .sem_op = (short)delta, .sem_flg = 0 };
	while (semop(id, &b, 1) != 0)
		if (errno != EINTR)
			die(EXIT_MEASURE, "semop: %s", strerror(errno));
}

static void loop_sem(uint64_t n, void *a)
{
	struct ipc *s = a;
	for (uint64_t i = 0; i < n; i++) {
		sem_op(s->semid, s->semidx, 1);      /* wake the helper */
		sem_op(s->semid, s->semidx + 1, -1); /* wait for its answer */
	}
}

static int setup_sem(void *a)
{
	struct ipc *s = a;
	s->semidx = 2 * s->timing->copy;
	if (semctl(s->semid, s->semidx, SETVAL, 0) || semctl(s->semid, s->semidx + 1, SETVAL, 0)) {
		warnx_("semctl: %s", strerror(errno));
		return -1;
	}
	if ((s->child = ipc_fork_helper(s)) < 0)
		return -1;
	if (s->child == 0) {
		/* Let the parent's cleanup handle signals; the helper just dies. */
		for (size_t i = 0; i < NSIGS; i++)
			signal(sem_sigs[i], SIG_DFL);
		struct sembuf wait_ = { .sem_num = (unsigned short)s->semidx, .sem_op = -1 };
		struct sembuf post = { .sem_num = (unsigned short)(s->semidx + 1), .sem_op = 1 };
		for (;;) {
			while (semop(s->semid, &wait_, 1) != 0)
				if (errno != EINTR)
					_exit(1);
			while (semop(s->semid, &post, 1) != 0)
				if (errno != EINTR)
					_exit(1);
		}
	}
	loop_sem(1, s);
	return 0;
}

static void teardown_sem(void *a)
{
	ipc_teardown_child(a);
}

static int lat_sem(struct tool_ctx *c, int argc, char **argv)
{
	ipc_no_operands(c, options_parse(c, argc, argv, NULL));
	int copies = c->timing.opts.parallel > 1 ? c->timing.opts.parallel : 1;
	sem_guard(1); /* before the set exists, so no signal can find it unguarded */
	int id = semget(IPC_PRIVATE, 2 * copies, IPC_CREAT | IPC_EXCL | 0600);
	if (id < 0)
		die(EXIT_MEASURE, "semget (%d semaphores): %s", 2 * copies, strerror(errno));
	sem_id = id;
	struct ipc s = { .semid = id };
	struct bench_op op = { .setup = setup_sem, .loop = loop_sem, .teardown = teardown_sem };
	int rc = ipc_run(c, &s, &op, metrics[ROW_LAT_SEM_LATENCY].id, "", 2);
	sem_remove();
	sem_guard(0);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_sem", lat_sem, 0, NULL, "", "SysV semaphore hand-off latency between two processes",
	     "Reported per hand-off (half a round trip), as lmbench. The semaphore set is removed\n"
	     "at the end, at exit and on SIGINT/SIGTERM/SIGHUP/SIGQUIT."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_SEM_LATENCY] = { .id = "lat_sem.latency",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 1,
	  .desc = "SysV semaphore hand-off", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Semaphore latency: %v microseconds", .vfmt = "%.4f",
	  .work = "a SysV semaphore hand-off with an echo process; per hand-off (half a round trip)",
	  .subtracted = SUB_CLOCK, .lmbench = "",
	  .noise = { .group = "ipc", .run = 0.12, .run_eq = 0.09, .df = 19,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.025 },
	  .steady = { .group = "ipc.steady", .run = 0.195, .run_eq = 0.195, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.135 } },
	{ 0 },
};

const struct tool_file toolfile_lat_sem = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, metrics };
