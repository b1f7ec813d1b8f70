/*
 * lat_proc.c — lat_proc: procedure call and process creation.
 *   procedure  a call of a function the compiler may not inline or remove, and the loop around
 *              it: the whole iteration, nothing subtracted (an empty loop overlaps the call on
 *              an out-of-order core; subtracting it made the figure 20-35 % low).
 *   fork       fork(); the child exit()s at once, through the C library as lmbench's does (its
 *              exit path takes ~8 page faults _exit() skips: a quarter more CPU a fork on a
 *              2-vCPU KVM guest, bench/README); the parent waits for it.
 *   exec       fork() + execve() of plumb-hello (lmbench's /tmp/hello: a tiny program that
 *              prints one line) with an empty environment, its stdout on /dev/null.
 *   shell      fork() + execve("/bin/sh", "-c", plumb-hello), empty environment, stdout on
 *              /dev/null.
 * fork, exec and shell fork from plumb-spawn (src/hello/spawn.c), a helper as small as
 * lmbench's lat_proc started once per measuring process: forked from plumb itself the figure
 * carried plumb's image and heap (fork copies page tables), not only the kernel's work. A sample
 * is one command to the helper ("fork N times") and its answer; the pipe round trip (a few
 * microseconds in a 60 ms sample) is inside the timed span, so it can only add.
 * plumb-hello and plumb-spawn sit beside the plumb binary (bin/ in the build tree) or in
 * ../lib/plumb/ once installed; they are found from /proc/self/exe, so nothing is copied to
 * /tmp. A child that fails (exec error) makes the tool exit 3.
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
#include "bench/tool_run.h"
#include "core/arch.h"
#include "core/cleanup.h"
#include "core/sysinfo.h"
#include "core/util.h"

/* The rows of metrics[] (at the end of the file) by name: a result is recorded through its
 * row, never by repeating its id. */
enum { ROW_LAT_PROC_PROCEDURE, ROW_LAT_PROC_FORK, ROW_LAT_PROC_EXEC, ROW_LAT_PROC_SHELL,
	ROW_END };
static const struct metric_def metrics[ROW_END + 1];

/* Slow operations: a sample of at least 60 ms, so 11 samples and calibration take about 1 s
 * and each sample holds many process creations. */
#define PROC_MIN_SAMPLE_NS 60e6

struct proc {
	char mode;             /* plumb-spawn's command: f(ork), e(xec), s(hell) */
	char *spawn, *hello, *shell_cmd;
	int to, from;          /* pipes to and from plumb-spawn */
	pid_t pid;
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

/* One timed command to plumb-spawn: n children of the mode's kind, then its answer. */
static void loop_spawn(uint64_t n, void *a)
{
	struct proc *p = a;
	char cmd[48], ans[400];
	int len = snprintf(cmd, sizeof cmd, "%c %llu\n", p->mode, (unsigned long long)n);
	/* a helper that could not start has said why and gone: the write fails (EPIPE), and its
	 * answer is still there to read */
	int wrote = write(p->to, cmd, (size_t)len) == len, werr = errno;
	size_t got = 0;
	while (got + 1 < sizeof ans) {
		ssize_t r = read(p->from, ans + got, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 && !wrote)
			die(EXIT_MEASURE, "plumb-spawn: %s", strerror(werr));
		if (r <= 0)
			die(EXIT_MEASURE, "plumb-spawn exited without an answer");
		if (ans[got++] == '\n')
			break;
	}
	ans[got] = 0;
	if (strcmp(ans, "ok\n") != 0)
		die(EXIT_MEASURE, "plumb-spawn: %.*s", (int)strcspn(ans, "\n"), ans);
}

/* Start plumb-spawn (in each measuring process, after it is placed: the helper and its
 * children inherit the CPU), and check it runs the mode once. */
static int spawn_setup(void *a)
{
	struct proc *p = a;
	int to[2], from[2];
	if (pipe2(to, O_CLOEXEC) || pipe2(from, O_CLOEXEC))
		die(EXIT_MEASURE, "pipe: %s", strerror(errno));
	/* why the helper could not start, made before fork: the child only writes it. Under
	 * qemu-user started by hand the kernel cannot run a binary of the emulated architecture
	 * (ENOEXEC) unless binfmt_misc names the emulator. */
	char why[320];
	int emulated = sys_emulated(NULL, 0, NULL, 0);
	snprintf(why, sizeof why, "%s\n", emulated ?
		 " under user-mode emulation: the kernel runs a binary of the emulated architecture "
		 "only when binfmt_misc names the emulator (Debian: apt-get install "
		 "qemu-user-binfmt; README: on another architecture)" : "");
	pid_t pid = plumb_fork();
	if (pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (pid == 0) {
		/* dup2 onto itself (stdin or stdout were closed) keeps close-on-exec: clear it */
		if (dup2(to[0], 0) < 0 || dup2(from[1], 1) < 0 || fcntl(0, F_SETFD, 0) < 0 ||
		    fcntl(1, F_SETFD, 0) < 0)
			_exit(127);
		char *argv[] = { p->spawn, p->hello, p->shell_cmd, NULL };
		execve(p->spawn, argv, empty_env);
		/* the answer loop_spawn reads: "cannot start it: Exec format error under ..." */
		const char *err = strerror(errno);
		if (write(1, "cannot start it: ", 17) == 17 && write(1, err, strlen(err)) >= 0)
			(void)!write(1, why, strlen(why));
		_exit(127);
	}
	close(to[0]);
	close(from[1]);
	p->to = to[1];
	p->from = from[0];
	p->pid = pid;
	loop_spawn(1, p); /* fail now, with a clear message, if it cannot run */
	return 0;
}

static void spawn_teardown(void *a)
{
	struct proc *p = a;
	close(p->to); /* end of input: the helper exits */
	close(p->from);
	child_wait(p->pid);
}

/* A helper (plumb-hello, plumb-spawn) next to our own binary, or in ../lib/plumb when
 * installed; NULL if absent. */
static char *find_helper(const char *name)
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
	const char *cand[] = { "%s/%s", "%s/../lib/plumb/%s" };
	for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
		char *p = xasprintf(cand[i], self, name);
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

/* key=path in r's info, blanks made '_' (info is "key=value ..."). */
static void path_info(struct result *r, const char *key, const char *path)
{
	char *kv = xasprintf("%s=%s", key, path);
	for (char *q = kv; *q; q++)
		if (*q == ' ')
			*q = '_';
	result_add_info(r, "%s", kv);
	free(kv);
}

static const struct {
	const char *mode;
	int row; /* its metric's row in metrics[] */
	void (*loop)(uint64_t, void *);
} modes[] = {
	{ "procedure", ROW_LAT_PROC_PROCEDURE, loop_procedure },
	{ "fork", ROW_LAT_PROC_FORK, loop_spawn },
	{ "exec", ROW_LAT_PROC_EXEC, loop_spawn },
	{ "shell", ROW_LAT_PROC_SHELL, loop_spawn },
};

static int lat_proc(struct tool_ctx *c, int argc, char **argv)
{
	struct operands args = options_parse(c, argc, argv, NULL);
	size_t i = TOOL_MODE(c, args, modes);
	if (args.n > 1)
		usage_error(c, "too many operands");

	struct proc p = { .to = -1, .from = -1 };
	if (i >= 1) {
		p.mode = "fes"[i - 1];
		p.hello = find_helper("plumb-hello");
		p.spawn = p.hello ? find_helper("plumb-spawn") : NULL;
		if (!p.spawn)
			die(EXIT_MEASURE, "%s not found beside %s or in ../lib/plumb/ (build it with "
			    "make)", p.hello ? "plumb-spawn" : "plumb-hello", "/proc/self/exe");
		p.shell_cmd = sh_quote(p.hello);
	}
	struct bench_op op = { .loop = modes[i].loop, .arg = &p,
			       .setup = i >= 1 ? spawn_setup : NULL,
			       .teardown = i >= 1 ? spawn_teardown : NULL,
			       .min_sample_ns = i >= 1 ? PROC_MIN_SAMPLE_NS : 0,
			       .call_cost = i >= 1 };
	struct result *r = measure_latency(c, &op, metrics[modes[i].row].id, "", NAN, 1);
	if (!r)
		return EXIT_MEASURE;
	if (p.spawn) {
		path_info(r, "forked_from", p.spawn);
		if (i >= 2)
			path_info(r, "program", p.hello);
	}
	free(p.hello);
	free(p.spawn);
	free(p.shell_cmd);
	return 0;
}

static const struct tool tools[] = {
	TOOL("lat_proc", lat_proc, 0, NULL, "procedure|fork|exec|shell",
	     "procedure call, fork+exit, fork+execve, fork+/bin/sh -c latency",
	     "fork, exec and shell fork from plumb-spawn, a helper as small as lmbench's lat_proc\n"
	     "(so plumb's own size is not timed); exec and shell run plumb-hello with an empty\n"
	     "environment and its output on /dev/null. Both are installed beside plumb; no\n"
	     "/tmp/hello is needed. procedure is the call and its loop: nothing subtracted."),
	{ 0 },
};

static const struct metric_def metrics[ROW_END + 1] = {
	[ROW_LAT_PROC_PROCEDURE] = { .id = "lat_proc.procedure",
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "procedure call", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Procedure call: %v microseconds", .vfmt = "%.4f",
	  .work = "one call of an opaque function and its loop, the whole iteration",
	  .subtracted = SUB_CLOCK,
	  .lmbench = "version 2: no empty-loop cost subtracted (it overlaps the call and made the "
		"figure 20-35 % low)",
	  .noise = { .group = "proc", .run = 0.1, .run_eq = 0.1, .df = 19, .clock = FOLLOWS_CLOCK },
	  .steady = { .group = "proc.steady", .run = 0.27, .run_eq = 0.27, .df = 15,
		   .clock = FOLLOWS_CLOCK, .run_effect = 0.185 } },
	[ROW_LAT_PROC_FORK] = { .id = "lat_proc.fork",
	  .cells = { { .cell = SUM_FORK, .read = READ_FIRST } },
	  .summary_note = &one_cpu_note,
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 3,
	  .desc = "fork, child exits, parent waits", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Process fork+exit: %v microseconds", .vfmt = "%.4f",
	  .work = "fork(), the child exit(0)s through the C library, the parent waits; forked from "
		"plumb-spawn, a process as small as lmbench's lat_proc",
	  .subtracted = SUB_CLOCK " (the command round trip to plumb-spawn, microseconds per 60 ms "
		"sample, stays in)",
	  .lmbench = "version 3: lmbench's operation, the child's exit() included (version 2 "
		"_exit()ed, skipping the C library's exit path and its page faults); pinned to one "
		"CPU, where lmbench 3 lets the scheduler start a child on another CPU, behind what "
		"runs there (--cpu none measures that)",
	  .noise = { .group = "proc", .run = 0.12, .run_eq = 0.12, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "proc.steady", .run = 0.1, .run_eq = 0.1, .df = 15,
		   .clock = OWN_PACE } },
	[ROW_LAT_PROC_EXEC] = { .id = "lat_proc.exec",
	  .cells = { { .cell = SUM_EXEC, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "fork + execve of a tiny program", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Process fork+execve: %v microseconds", .vfmt = "%.4f",
	  .work = "fork() + execve() of plumb-hello (empty environment, stdout on /dev/null) + "
		"wait, from plumb-spawn",
	  .subtracted = SUB_CLOCK " (the command round trip stays in)",
	  .lmbench = "version 2: forked from a small helper; plumb-hello found beside plumb, not "
		"/tmp/hello",
	  .noise = { .group = "proc", .run = 0.12, .run_eq = 0.12, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "proc.steady", .run = 0.115, .run_eq = 0.115, .df = 15,
		   .clock = OWN_PACE, .run_effect = 0.04 } },
	[ROW_LAT_PROC_SHELL] = { .id = "lat_proc.shell",
	  .cells = { { .cell = SUM_SH, .read = READ_FIRST } },
	  .unit = "us", .better = LOWER, .stat = MEDIAN, .version = 2,
	  .desc = "fork + /bin/sh -c tiny program", .sign = POSITIVE, .x = { .kind = X_NONE },
	  .line = "Process fork+/bin/sh -c: %v microseconds", .vfmt = "%.4f",
	  .work = "fork() + execve(/bin/sh -c plumb-hello) + wait, from plumb-spawn",
	  .subtracted = SUB_CLOCK " (the command round trip stays in)",
	  .lmbench = "version 2: forked from a small helper; empty environment",
	  .noise = { .group = "proc", .run = 0.12, .run_eq = 0.12, .df = 5, .clock = OWN_PACE },
	  .steady = { .group = "proc.steady", .run = 0.28, .run_eq = 0.28, .df = 15,
		   .clock = OWN_PACE, .run_effect = 0.225 } },
	{ 0 },
};

const struct tool_file toolfile_proc = { "proc", SUBSET_OS, "procedure calls and process creation", tools, metrics };
