/*
 * ipc.c — local IPC latency with an echo process: lat_pipe, lat_unix [-m SIZE], lat_fifo,
 * lat_fcntl, lat_sem. Each forks one helper in setup (plumb_fork, placed as helper 1: by
 * default on the measuring process's CPU, see cpu.h) and times one round trip per iteration;
 * teardown kills and reaps it, and plumb's cleanup kills it if plumb is interrupted.
 *   lat_pipe   1 byte over a pipe and back over another
 *   lat_unix   SIZE bytes (default 1) over an AF_UNIX stream socketpair and back
 *   lat_fifo   1 byte over a FIFO and back over another; the FIFOs live in plumb's private
 *              directory only until both ends are open (lmbench used /tmp/lmbench_f*.PID)
 *   lat_fcntl  a POSIX record-lock hand-off (see fcntl below); reported per hand-off, i.e. per
 *              half round trip, as lmbench does (micro(label, 2n))
 *   lat_sem    a SysV semaphore hand-off: post the helper's semaphore, wait on ours; reported
 *              per half round trip, as lmbench
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/cleanup.h"
#include "core/cpu.h"
#include "core/util.h"

struct ipc {
	const char *dir;       /* private directory (fifo, fcntl) */
	size_t msize;          /* bytes each way */
	char *buf;
	int wfd, rfd;          /* our ends */
	int lockfd;            /* fcntl */
	unsigned k;            /* fcntl: position in the three-lock rotation */
	int semid, semidx;     /* sem: the set, and this copy's first semaphore */
	pid_t child;
};

/* The helper: send back whatever arrives, until EOF or death. */
static __attribute__((noreturn)) void echo(int rfd, int wfd, char *buf, size_t n)
{
	while (read_in_full(rfd, buf, n) == 0 && write_in_full(wfd, buf, n) == 0)
		;
	_exit(0);
}

static void roundtrip(struct ipc *s)
{
	if (write_in_full(s->wfd, s->buf, s->msize) || read_in_full(s->rfd, s->buf, s->msize))
		die(EXIT_MEASURE, "the echo process is gone (%s)", errno ? strerror(errno) : "EOF");
}

static void loop_echo(uint64_t n, void *a)
{
	struct ipc *s = a;
	for (uint64_t i = 0; i < n; i++)
		roundtrip(s);
}

static void teardown_child(struct ipc *s)
{
	if (s->child > 0) {
		kill(s->child, SIGKILL);
		child_wait(s->child);
		s->child = 0;
	}
}

static void teardown_echo(void *a)
{
	struct ipc *s = a;
	close(s->wfd);
	if (s->rfd != s->wfd)
		close(s->rfd);
	teardown_child(s);
}

static pid_t fork_helper(void)
{
	pid_t pid = plumb_fork();
	if (pid < 0)
		warnx_("fork: %s", strerror(errno));
	else if (pid == 0)
		timing_place_helper(1);
	return pid;
}

/* ---- pipe, unix, fifo ---------------------------------------------------------------------- */

static int setup_pipe(void *a)
{
	struct ipc *s = a;
	int to[2], from[2];
	if (pipe(to) || pipe(from)) {
		warnx_("pipe: %s", strerror(errno));
		return -1;
	}
	if ((s->child = fork_helper()) < 0)
		return -1;
	if (s->child == 0) {
		close(to[1]);
		close(from[0]);
		echo(to[0], from[1], s->buf, s->msize);
	}
	close(to[0]);
	close(from[1]);
	s->wfd = to[1];
	s->rfd = from[0];
	roundtrip(s); /* warm-up, and proof the helper runs */
	return 0;
}

static int setup_unix(void *a)
{
	struct ipc *s = a;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		warnx_("socketpair: %s", strerror(errno));
		return -1;
	}
	if ((s->child = fork_helper()) < 0)
		return -1;
	if (s->child == 0) {
		close(sv[0]);
		echo(sv[1], sv[1], s->buf, s->msize);
	}
	close(sv[1]);
	s->wfd = s->rfd = sv[0];
	roundtrip(s);
	return 0;
}

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
	if ((s->child = fork_helper()) < 0)
		goto out;
	if (s->child == 0) {
		int r = open(f1, O_RDONLY | O_NONBLOCK);
		if (r < 0)
			_exit(1);
		clear_nonblock(r);
		int w = open(f2, O_WRONLY);
		if (w < 0)
			_exit(1);
		echo(r, w, s->buf, s->msize);
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
	roundtrip(s);
	rc = 0;
out:
	unlink(f1); /* both ends are open: the names are no longer needed */
	unlink(f2);
	free(f1);
	free(f2);
	return rc;
}

/* ---- fcntl: three record locks passed round between two processes ------------------------
 * Bytes 0, 1, 2 of one file are three locks. With k counting iterations (mod 3), the parent
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
	if ((s->child = fork_helper()) < 0)
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
	teardown_child(s);
	close(s->lockfd);
}

/* ---- SysV semaphores ------------------------------------------------------------------------
 * One set for the whole run, made by the tool before measure(): semaphores 2c and 2c+1 serve
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
	s->semidx = 2 * cpu_copy;
	if (semctl(s->semid, s->semidx, SETVAL, 0) || semctl(s->semid, s->semidx + 1, SETVAL, 0)) {
		warnx_("semctl: %s", strerror(errno));
		return -1;
	}
	if ((s->child = fork_helper()) < 0)
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
	teardown_child(a);
}

/* ---- the tools ------------------------------------------------------------------------------ */

static int run(struct tool_ctx *c, struct ipc *s, struct bench_op *op, const char *metric,
	       const char *params, double ops)
{
	op->arg = s;
	op->helpers = 1;
	struct measurement m;
	if (measure(op, &m) != 0)
		return EXIT_MEASURE;
	record_latency(c, metric, params, NAN, &m, ops);
	measurement_free(&m);
	return 0;
}

static void no_operands(struct tool_ctx *c, int argc, char **argv)
{
	if (optind < argc)
		usage_error(c, "unexpected operand '%s'", argv[optind]);
}

static char one_byte[1];

static int lat_pipe(struct tool_ctx *c, int argc, char **argv)
{
	options_parse(c, argc, argv, NULL, NULL);
	no_operands(c, argc, argv);
	struct ipc s = { .msize = 1, .buf = one_byte };
	struct bench_op op = { .setup = setup_pipe, .loop = loop_echo, .teardown = teardown_echo };
	return run(c, &s, &op, "lat_pipe.latency", "", 1);
}

struct unix_opts { uint64_t msize; };
static const struct tool_options unix_options = { .opts = (const struct opt[]){
	{ 'm', NULL, OPT_SIZE, 1, 64 << 20, offsetof(struct unix_opts, msize), "SIZE",
	  "message size", "bytes sent each way per round trip (default 1)", NULL },
	{ 0 } } };

static int lat_unix(struct tool_ctx *c, int argc, char **argv)
{
	struct unix_opts o = { .msize = 1 };
	options_parse(c, argc, argv, &unix_options, &o);
	size_t msize = (size_t)o.msize;
	no_operands(c, argc, argv);
	struct ipc s = { .msize = msize, .buf = xcalloc(1, msize) };
	struct bench_op op = { .setup = setup_unix, .loop = loop_echo, .teardown = teardown_echo };
	char params[32] = "";
	if (msize != 1) /* lmbench's line does not show it; the default point keeps no parameter */
		snprintf(params, sizeof params, "msize=%zu", msize);
	int rc = run(c, &s, &op, "lat_unix.latency", params, 1);
	free(s.buf);
	return rc;
}

static char *tool_dir(struct tool_ctx *c)
{
	char *dir = private_dir(c->fsdir);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a directory under %s: %s",
		    c->fsdir ? c->fsdir : "$TMPDIR", strerror(errno));
	return dir;
}

static int lat_fifo(struct tool_ctx *c, int argc, char **argv)
{
	options_parse(c, argc, argv, NULL, NULL);
	no_operands(c, argc, argv);
	char *dir = tool_dir(c);
	struct ipc s = { .dir = dir, .msize = 1, .buf = one_byte };
	struct bench_op op = { .setup = setup_fifo, .loop = loop_echo, .teardown = teardown_echo };
	int rc = run(c, &s, &op, "lat_fifo.latency", "", 1);
	free(dir);
	return rc;
}

static int lat_fcntl(struct tool_ctx *c, int argc, char **argv)
{
	options_parse(c, argc, argv, NULL, NULL);
	no_operands(c, argc, argv);
	char *dir = tool_dir(c);
	struct ipc s = { .dir = dir };
	struct bench_op op = { .setup = setup_fcntl, .loop = loop_fcntl, .teardown = teardown_fcntl };
	int rc = run(c, &s, &op, "lat_fcntl.latency", "", 2);
	free(dir);
	return rc;
}

static int lat_sem(struct tool_ctx *c, int argc, char **argv)
{
	options_parse(c, argc, argv, NULL, NULL);
	no_operands(c, argc, argv);
	int copies = timing.parallel > 1 ? timing.parallel : 1;
	sem_guard(1); /* before the set exists, so no signal can find it unguarded */
	int id = semget(IPC_PRIVATE, 2 * copies, IPC_CREAT | IPC_EXCL | 0600);
	if (id < 0)
		die(EXIT_MEASURE, "semget (%d semaphores): %s", 2 * copies, strerror(errno));
	sem_id = id;
	struct ipc s = { .semid = id };
	struct bench_op op = { .setup = setup_sem, .loop = loop_sem, .teardown = teardown_sem };
	int rc = run(c, &s, &op, "lat_sem.latency", "", 2);
	sem_remove();
	sem_guard(0);
	return rc;
}

static const struct tool tools[] = {
	TOOL("lat_pipe", lat_pipe, 0, "", "pipe round-trip latency (1 byte) with an echo process",
	     NULL),
	TOOL("lat_unix", lat_unix, 0, "[-m SIZE]",
	     "AF_UNIX stream socket round-trip latency (SIZE bytes, default 1)", NULL),
	TOOL("lat_fifo", lat_fifo, 0, "", "FIFO round-trip latency (1 byte) with an echo process",
	     "The FIFOs are made in a private directory under --fsdir and removed once open."),
	TOOL("lat_fcntl", lat_fcntl, 0, "", "fcntl() record-lock hand-off latency between two processes",
	     "Reported per hand-off (half a round trip), as lmbench."),
	TOOL("lat_sem", lat_sem, 0, "", "SysV semaphore hand-off latency between two processes",
	     "Reported per hand-off (half a round trip), as lmbench. The semaphore set is removed\n"
	     "at the end, at exit and on SIGINT/SIGTERM/SIGHUP/SIGQUIT."),
	{ 0 },
};

const struct family fam_ipc = { "ipc", SUBSET_OS, "local IPC latency: pipe, AF_UNIX, FIFO, locks, semaphores", tools, 50 };
