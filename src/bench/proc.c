/*
 * proc.c — lat_proc: procedure call and process creation.
 *   procedure  a call of a function the compiler may not inline or remove.
 *   fork       fork(); the child _exit()s at once; the parent waits for it.
 *   exec       fork() + execve() of plumb-hello (lmbench's /tmp/hello: a tiny program that
 *              prints one line) with an empty environment, its stdout on /dev/null.
 *   shell      fork() + execve("/bin/sh", "-c", plumb-hello), empty environment, stdout on
 *              /dev/null.
 * plumb-hello sits beside the plumb binary (bin/plumb-hello in the build tree) or in
 * ../lib/plumb/ once installed; it is found from /proc/self/exe, so nothing is copied to /tmp.
 * Children are forked with plain fork() inside the timed loop (plumb_fork's bookkeeping would be
 * timed too) and each one is waited for before the next iteration, so none outlives an
 * iteration; a child that fails (exec error) makes the tool exit 3.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench/tool.h"
#include "core/arch.h"
#include "core/util.h"

/* Slow operations: a sample of at least 60 ms, so 11 samples and calibration take about 1 s
 * and each sample holds many process creations. */
#define PROC_MIN_SAMPLE_NS 60e6

struct proc {
	const char *path;      /* program execve'd */
	char *const *argv;
	int devnull;
};

static char *const empty_env[] = { NULL };

__attribute__((noinline)) static int procedure(int x)
{
	/* The asm makes the function opaque (not pure), so no call can be folded or dropped. */
	__asm__ __volatile__("" : "+r"(x));
	return x;
}

static void loop_procedure(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++) {
		int r = procedure((int)i);
		KEEP(r);
	}
}

static void reap(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die(EXIT_MEASURE, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		die(EXIT_MEASURE, "a child failed (%s %d)", WIFEXITED(st) ? "exit status" : "signal",
		    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

static void loop_fork(uint64_t n, void *a)
{
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			die(EXIT_MEASURE, "fork: %s", strerror(errno));
		if (pid == 0)
			_exit(0);
		reap(pid);
	}
}

static void loop_exec(uint64_t n, void *a)
{
	struct proc *p = a;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0)
			die(EXIT_MEASURE, "fork: %s", strerror(errno));
		if (pid == 0) {
			dup2(p->devnull, 1);
			execve(p->path, p->argv, empty_env);
			_exit(127);
		}
		reap(pid);
	}
}

/* plumb-hello next to our own binary, or in ../lib/plumb when installed; NULL if absent. */
static char *find_hello(void)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len <= 0)
		return NULL;
	self[len] = 0;
	char *slash = strrchr(self, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	const char *cand[] = { "%s/plumb-hello", "%s/../lib/plumb/plumb-hello" };
	for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
		char *p = xasprintf(cand[i], self);
		if (access(p, X_OK) == 0)
			return p;
		free(p);
	}
	return NULL;
}

/* The path quoted for sh -c (it may contain blanks or quotes). */
static char *sh_quote(const char *s)
{
	size_t n = 3;
	for (const char *p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	char *q = xmalloc(n), *o = q;
	*o++ = '\'';
	for (const char *p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *p;
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

static const struct {
	const char *mode, *metric;
	void (*loop)(uint64_t, void *);
} modes[] = {
	{ "procedure", "lat_proc.procedure", loop_procedure },
	{ "fork", "lat_proc.fork", loop_fork },
	{ "exec", "lat_proc.exec", loop_exec },
	{ "shell", "lat_proc.shell", loop_exec },
};

static int lat_proc(struct tool_ctx *c, int argc, char **argv)
{
	while (tool_getopt(c, argc, argv, "") != -1)
		;
	if (optind >= argc)
		usage_error(c, "missing mode (procedure, fork, exec or shell)");
	const char *mode = argv[optind];
	size_t i;
	for (i = 0; i < sizeof modes / sizeof modes[0]; i++)
		if (strcmp(mode, modes[i].mode) == 0)
			break;
	if (i == sizeof modes / sizeof modes[0])
		usage_error(c, "unknown mode '%s' (procedure, fork, exec or shell)", mode);
	if (argc > optind + 1)
		usage_error(c, "too many operands");

	struct proc p = { .devnull = -1 };
	char *hello = NULL, *cmd = NULL;
	char *exec_argv[2], *sh_argv[4];
	if (i >= 2) {
		hello = find_hello();
		if (!hello)
			die(EXIT_MEASURE, "plumb-hello not found beside %s or in ../lib/plumb/ "
			    "(build it with make)", "/proc/self/exe");
		if ((p.devnull = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0)
			die(EXIT_MEASURE, "/dev/null: %s", strerror(errno));
		if (i == 2) {
			exec_argv[0] = hello;
			exec_argv[1] = NULL;
			p.path = hello;
			p.argv = exec_argv;
		} else {
			cmd = sh_quote(hello);
			sh_argv[0] = "sh";
			sh_argv[1] = "-c";
			sh_argv[2] = cmd;
			sh_argv[3] = NULL;
			p.path = "/bin/sh";
			p.argv = sh_argv;
		}
		loop_exec(1, &p); /* fail now, with a clear message, if it cannot run */
	}
	struct bench_op op = { .loop = modes[i].loop, .arg = &p,
			       .min_sample_ns = i >= 1 ? PROC_MIN_SAMPLE_NS : 0 };
	struct measurement m;
	if (measure(&op, &m) != 0)
		return EXIT_MEASURE;
	struct result *r = record_latency(c, modes[i].metric, "", NAN, &m, 1);
	if (hello) {
		char *kv = xasprintf("program=%s", hello);
		for (char *q = kv; *q; q++)
			if (*q == ' ')
				*q = '_'; /* info is "key=value ..." */
		result_add_info(r, "%s", kv);
		free(kv);
	}
	measurement_free(&m);
	free(hello);
	free(cmd);
	if (p.devnull >= 0)
		close(p.devnull);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_proc", lat_proc, 0, "procedure|fork|exec|shell",
	     "procedure call, fork+exit, fork+execve, fork+/bin/sh -c latency",
	     "exec and shell run plumb-hello (installed beside plumb) with an empty environment and\n"
	     "its output on /dev/null; no /tmp/hello is needed."),
	{ 0 },
};

const struct family fam_proc = { "proc", SUBSET_OS, "procedure calls and process creation", tools };
