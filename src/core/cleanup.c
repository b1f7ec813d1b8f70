/*
 * cleanup.c — registries of children and temporary paths, emptied at exit and on signals.
 * The signal path uses only async-signal-safe calls (kill, waitpid, unlinkat, getdents64 via
 * syscall, rmdir), so it can run at any moment of a benchmark.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/cpu.h"
#include "core/util.h"

#define MAXCHILD 512
#define MAXPATHS 64

static pid_t children[MAXCHILD];
static char paths[MAXPATHS][PATH_MAX];
static int path_isdir[MAXPATHS];
static int inited;
volatile int cleanup_signalled;
static pid_t announcer; /* the process that says "stopped by SIGxxx" when a signal ends it */

static void add_child(pid_t pid)
{
	for (int i = 0; i < MAXCHILD; i++)
		if (children[i] == 0) {
			children[i] = pid;
			return;
		}
}

int child_list(pid_t *out, int max)
{
	int n = 0;
	for (int i = 0; i < MAXCHILD && n < max; i++)
		if (children[i] > 0)
			out[n++] = children[i];
	return n;
}

void child_forget(pid_t pid)
{
	for (int i = 0; i < MAXCHILD; i++)
		if (children[i] == pid)
			children[i] = 0;
}

void child_kill_all(void)
{
	for (int i = 0; i < MAXCHILD; i++)
		if (children[i] > 0)
			kill(children[i], SIGKILL);
	for (int i = 0; i < MAXCHILD; i++)
		if (children[i] > 0) {
			while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
				;
			children[i] = 0;
		}
}

int child_wait_bounded(pid_t pid, int grace_ms)
{
	int st;
	for (int waited = 0;; waited += 10) {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			st = -1;
			break;
		}
		if (waited >= grace_ms) {
			kill(-pid, SIGKILL); /* its group, when it leads one: helpers go too */
			kill(pid, SIGKILL);
			return child_wait(pid);
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	child_forget(pid);
	return st;
}

const char *signal_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGHUP: return "SIGHUP";
	case SIGQUIT: return "SIGQUIT";
	case SIGKILL: return "SIGKILL";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGPIPE: return "SIGPIPE";
	case SIGALRM: return "SIGALRM";
	case SIGUSR1: return "SIGUSR1";
	case SIGUSR2: return "SIGUSR2";
	case SIGXCPU: return "SIGXCPU";
	case SIGXFSZ: return "SIGXFSZ";
	case SIGSYS: return "SIGSYS";
	case SIGTRAP: return "SIGTRAP";
	default: return "a signal";
	}
}

void cleanup_announce_stops(void)
{
	cleanup_init();
	announcer = getpid();
}

/* "<prog>: stopped by SIGxxx" with write(2) only: said from the signal handler */
static void say_stopped(int sig)
{
	static volatile sig_atomic_t said;
	if (!announcer || getpid() != announcer || said)
		return;
	said = 1;
	const char *parts[] = { prog_name, ": stopped by ", signal_name(sig), "\n" };
	char buf[256];
	size_t n = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		for (const char *p = parts[i]; *p && n < sizeof buf; p++)
			buf[n++] = *p;
	ssize_t w = write(2, buf, n);
	(void)w;
}

int child_wait(pid_t pid)
{
	int st;
	pid_t r;
	while ((r = waitpid(pid, &st, 0)) < 0 && errno == EINTR)
		;
	child_forget(pid);
	return r < 0 ? -1 : st;
}

pid_t plumb_fork(void)
{
	cleanup_init();
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		memset(children, 0, sizeof children);
		memset(paths, 0, sizeof paths);
		announcer = 0; /* a child dies quietly: its parent says why the command ended */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) /* the parent died before prctl took effect */
			_exit(1);
	} else if (pid > 0) {
		add_child(pid);
	}
	return pid;
}

/* Recursive removal with raw system calls only (usable from a signal handler). */
struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int rm_at(int dirfd, const char *name, int depth)
{
	if (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (depth > 32)
		return -1;
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	char buf[4096];
	long n;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			off += d->d_reclen;
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				rm_at(fd, d->d_name, depth + 1);
		}
	}
	close(fd);
	return unlinkat(dirfd, name, AT_REMOVEDIR);
}

int remove_tree(const char *path)
{
	return rm_at(AT_FDCWD, path, 0);
}

char *stable_path(const char *path, char *buf, size_t len)
{
	size_t o = 0;
	for (const char *p = path; *p && o + 1 < len;) {
		const char *slash = strchr(p, '/');
		size_t cl = slash ? (size_t)(slash - p) : strlen(p);
		const char *comp = p;
		size_t use = cl;
		if (cl == 12 && strncmp(p, "plumb.", 6) == 0) {
			comp = "plumb.*";
			use = 7;
		}
		if (o + use >= len)
			use = len - o - 1;
		memcpy(buf + o, comp, use);
		o += use;
		p += cl;
		if (*p == '/' && o + 1 < len) {
			buf[o++] = '/';
			p++;
		}
	}
	buf[o] = 0;
	return buf;
}

void path_register(const char *path, int is_dir)
{
	cleanup_init();
	for (int i = 0; i < MAXPATHS; i++)
		if (!paths[i][0]) {
			snprintf(paths[i], sizeof paths[i], "%s", path);
			path_isdir[i] = is_dir;
			return;
		}
}

void path_forget(const char *path)
{
	for (int i = 0; i < MAXPATHS; i++)
		if (strcmp(paths[i], path) == 0)
			paths[i][0] = 0;
}

char *private_dir(const char *base)
{
	if (!base || !*base)
		base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char *p = xasprintf("%s/plumb.XXXXXX", base);
	if (!mkdtemp(p)) {
		int e = errno;
		free(p);
		errno = e;
		return NULL;
	}
	path_register(p, 1);
	return p;
}

void cleanup_run(void)
{
	child_kill_all();
	for (int i = MAXPATHS - 1; i >= 0; i--)
		if (paths[i][0]) {
			if (path_isdir[i])
				rm_at(AT_FDCWD, paths[i], 0);
			else
				unlink(paths[i]);
			paths[i][0] = 0;
		}
}

static void on_signal(int sig)
{
	int saved = errno;
	cleanup_signalled = sig;
	cleanup_run();
	say_stopped(sig);
	signal(sig, SIG_DFL);
	errno = saved;
	raise(sig);
}

static void at_exit(void)
{
	cleanup_run();
}

void cleanup_init(void)
{
	if (inited)
		return;
	inited = 1;
	int cpus[1];
	cpu_online(cpus, 1); /* remember the CPUs we may use before anything pins us */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN); /* a dead peer is an error return, not a silent death */
	atexit(at_exit);
}

void catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler; /* no SA_RESTART: a blocking call returns EINTR at once */
	sigfillset(&sa.sa_mask);
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++)
		sigaction(stops[i], &sa, NULL);
}

int die_of_signal(int sig)
{
	if (sig != SIGQUIT) {
		fflush(NULL);
		signal(sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(sig);
	}
	return 128 + sig;
}
