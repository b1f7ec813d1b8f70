/*
 * ab_worker.c — the sides of a plumb ab session (ab_worker.h): started, driven step by step,
 * read with poll and a deadline, stopped on request, their runs read back.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cmd/ab_worker.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"
#include "results/io.h"

/* Ctrl-C (or SIGTERM, SIGHUP): a flag, seen by every wait of this process (read_line, the
 * waits for the sides); the sides are then asked to stop with SIGTERM, so they remove their own
 * temporary files before they go, and killed if they linger. The sides lead process groups of
 * their own: a signal to the terminal's group reaches this process alone, which stops them. */
volatile sig_atomic_t ab_stop;
void on_stop(int sig)
{
	if (!ab_stop)
		ab_stop = sig;
}

/* Stops to this process: a flag seen by every wait (no SA_RESTART), the sides then stopped. */
void ab_catch_stops(void)
{
	cleanup_init(); /* at exit: no side and no directory left behind */
	cleanup_announce_stops(); /* SIGQUIT: said by the cleanup handler */
	catch_stop_signals(on_stop);
	signal(SIGPIPE, SIG_IGN);
}

#define SIDE_GRACE_MS 1200 /* a side asked to stop has this long before SIGKILL */

static void stop_workers(struct worker *w, int n)
{
	for (int i = 0; i < n; i++)
		if (w[i].pid > 0) {
			/* closing its stdin first: a side blocked reading it sees the end at once */
			fclose(w[i].to);
			kill(-w[i].pid, SIGTERM);
			kill(w[i].pid, SIGTERM);
		}
	for (int i = 0; i < n; i++)
		if (w[i].pid > 0) {
			close(w[i].from);
			child_wait_bounded(w[i].pid, SIDE_GRACE_MS);
			kill(-w[i].pid, SIGKILL); /* anything its wrapper left behind */
			w[i].pid = 0;
		}
}

struct worker *all_workers; /* both sides, for ab_stopped() */
char *ab_dir;

/* A stop request arrived: the sides stop, the private directory goes, nothing is stored
 * (half a session pairs with nothing) unless it already was (what says which); the process
 * dies of the signal (exit 128 + signal). */
void ab_stopped(const char *what)
{
	int sig = ab_stop;
	stop_workers(all_workers, 2);
	remove_tree(ab_dir);
	path_forget(ab_dir);
	warnx_("stopped by %s: %s", signal_name(sig), what);
	exit(die_of_signal(sig));
}

/* Split s on blanks into a NULL-terminated argv with room for extra more entries. */
static char **split_prefix(const char *s, const char *what, int extra, int *n)
{
	char *copy = xstrdup(s);
	char **v = xcalloc(strlen(s) / 2 + 2 + (size_t)extra, sizeof *v);
	*n = 0;
	for (char *t = strtok(copy, " \t\n"); t; t = strtok(NULL, " \t\n"))
		v[(*n)++] = xstrdup(t);
	free(copy);
	if (*n == 0)
		die(EXIT_USAGE, "%s: empty command line", what);
	return v;
}

/* The first word of a PREFIX must be a program we can run: checked before any side starts. */
void check_prefix(const char *prefix, const char *what)
{
	int n;
	char **av = split_prefix(prefix, what, 0, &n);
	int ok = 0;
	if (strchr(av[0], '/')) {
		ok = access(av[0], X_OK) == 0;
	} else {
		const char *path = getenv("PATH");
		char *p = xstrdup(path ? path : "/usr/bin:/bin");
		for (char *d = strtok(p, ":"); d && !ok; d = strtok(NULL, ":")) {
			char *f = xasprintf("%s/%s", *d ? d : ".", av[0]);
			ok = access(f, X_OK) == 0;
			free(f);
		}
		free(p);
	}
	if (!ok)
		die(EXIT_USAGE, "%s: cannot run '%s': not an executable program", what, av[0]);
	for (int i = 0; i < n; i++)
		free(av[i]);
	free(av);
}

/* The next line from a side, without its newline; NULL at its end of output, at a stop
 * request (ab_stop set) or when deadline_ns (0: none) passes. */
char *read_line(struct worker *w, uint64_t deadline_ns)
{
	for (;;) {
		char *nl = memchr(w->buf, '\n', w->nbuf);
		if (nl || w->nbuf == sizeof w->buf) {
			size_t n = nl ? (size_t)(nl - w->buf) : w->nbuf - 1;
			memcpy(w->line, w->buf, n);
			w->line[n] = 0;
			size_t used = nl ? n + 1 : n;
			memmove(w->buf, w->buf + used, w->nbuf - used);
			w->nbuf -= used;
			return w->line;
		}
		if (ab_stop || (deadline_ns && now_ns() > deadline_ns))
			return NULL;
		struct pollfd pf = { .fd = w->from, .events = POLLIN };
		if (poll(&pf, 1, 100) <= 0)
			continue; /* a signal, or nothing yet: the flag and the clock are checked again */
		ssize_t got = read(w->from, w->buf + w->nbuf, sizeof w->buf - w->nbuf);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0)
			return NULL;
		w->nbuf += (size_t)got;
	}
}

/* Fork and exec av as side w in its own process group, its stdin and stdout piped to us
 * (w->to, w->from); with w->quiet its stderr goes to DIR/NAME.err. */
static void spawn_side(struct worker *w, char **av, const char *what, const char *dir)
{
	/* close-on-exec: side B must not inherit the write end of side A's stdin, or closing it
	 * would never reach A while B lives (a stop then waited for A forever) */
	int in[2], out[2];
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		die(EXIT_MEASURE, "pipe: %s", strerror(errno));
	fflush(NULL);
	w->pid = plumb_fork(); /* dies with us; killed and reaped on Ctrl-C (cleanup.h) */
	if (w->pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (w->pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL); /* a side handles its signals as any plumb run does */
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		dup2(in[0], 0);
		dup2(out[1], 1);
		if (w->quiet) {
			char *ef = xasprintf("%s/%s.err", dir, w->name);
			int fd = open(ef, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
			if (fd >= 0)
				dup2(fd, 2);
		}
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execvp(av[0], av);
		fprintf(stderr, "plumb ab: %s: cannot run %s: %s\n", what, av[0], strerror(errno));
		_exit(EXIT_USAGE);
	}
	setpgid(w->pid, w->pid); /* also done by the side: whichever runs first */
	close(in[0]);
	close(out[1]);
	w->to = fdopen(in[1], "w");
	w->from = out[0];
}

/* The watchdog: a side that did not answer within its bound is killed, all of its process
 * group (SIGKILL: a stopped side too), and reaped. */
static void watchdog_stop(struct worker *w, const char *label, double bound_s, uint64_t t0)
{
	kill(-w->pid, SIGKILL);
	kill(w->pid, SIGKILL);
	child_wait_bounded(w->pid, SIDE_GRACE_MS);
	w->pid = 0;
	w->hung = xasprintf("side %s did not answer step '%s' within %.0f s (%.1f s waited), past "
			    "its watchdog bound: stopped, its process group killed", w->name, label,
			    bound_s, (double)(now_ns() - t0) / 1e9);
	warnx_("%s", w->hung);
}

#define SALVAGE_MS 3000 /* a side asked to stop mid-step: its step's child ends within 0.5 s */

/* The watchdog at a step a side is still running (alive, only slow): asked to stop as plumb run
 * stops on SIGTERM, it ends the step and writes the run of the steps before it ("stop", then
 * "saved"), which w->salvaged keeps for finish_worker. A side that does not say so within
 * SALVAGE_MS (stopped with SIGSTOP, hung) is killed by watchdog_stop. */
static void watchdog_step(struct worker *w, const char *label, double bound_s, uint64_t t0)
{
	kill(-w->pid, SIGTERM);
	uint64_t end = now_ns() + SALVAGE_MS * 1000000ull;
	char *l;
	while ((l = read_line(w, end)) && strcmp(l, "saved") && strcmp(l, "failed"))
		;
	if (!l || strcmp(l, "saved")) {
		watchdog_stop(w, label, bound_s, t0);
		return;
	}
	child_wait_bounded(w->pid, SIDE_GRACE_MS);
	kill(-w->pid, SIGKILL); /* anything its wrapper left behind */
	w->pid = 0;
	w->salvaged = 1;
	w->hung = xasprintf("side %s did not finish step '%s' within %.0f s (%.1f s waited), past "
			    "its watchdog bound: stopped there, the steps before it kept", w->name,
			    label, bound_s, (double)(now_ns() - t0) / 1e9);
	warnx_("%s", w->hung);
}

/* The side's plan: "rounds N", "step LABEL"..., "ready"; dies saying why when it does not come
 * within start_timeout seconds or the side ends first. */
static void read_plan(struct worker *w, const char *prefix, int start_timeout)
{
	uint64_t deadline = now_ns() + (uint64_t)start_timeout * 1000000000ull;
	char *l;
	while ((l = read_line(w, deadline)) && strcmp(l, "ready") != 0) {
		if (strncmp(l, "rounds ", 7) == 0)
			w->rounds = atoi(l + 7);
		else if (strncmp(l, "step ", 5) == 0) {
			w->steps = xrealloc(w->steps, (w->nsteps + 1) * sizeof *w->steps);
			w->bound = xrealloc(w->bound, (w->nsteps + 1) * sizeof *w->bound);
			w->bound[w->nsteps] = 0;
			w->steps[w->nsteps++] = xstrdup(l + 5);
		} else if (strncmp(l, "bound ", 6) == 0) {
			size_t i;
			double b;
			if (sscanf(l + 6, "%zu %lf", &i, &b) == 2 && i < w->nsteps && b > 0 && b < 1e7)
				w->bound[i] = b;
		}
	}
	if (l)
		return;
	if (ab_stop)
		ab_stopped("nothing stored");
	if (now_ns() > deadline && w->quiet) {
		/* a later round's side: the session ends with the rounds it has */
		watchdog_stop(w, "start (print its plan)", start_timeout,
			      deadline - (uint64_t)start_timeout * 1000000000ull);
		return;
	}
	if (now_ns() > deadline) {
		stop_workers(all_workers, 2);
		die(EXIT_MEASURE, "side %s (%s) did not print its plan within %d s (--start-timeout): "
		    "stopped", w->name, prefix, start_timeout);
	}
	/* its output ended: it exited, or will (its stdin closed) */
	fclose(w->to);
	close(w->from);
	int st = child_wait_bounded(w->pid, SIDE_GRACE_MS);
	if (st < 0)
		st = EXIT_MEASURE << 8;
	w->pid = 0;
	if (ab_stop)
		ab_stopped("nothing stored"); /* it died of the same signal as this process (sent to both) */
	/* a bad run option: the side said so in one line already */
	if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_USAGE)
		exit(EXIT_USAGE);
	die(EXIT_MEASURE, "side %s (%s) did not start (exit %d)", w->name, prefix,
	    WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

void start_worker(struct worker *w, const char *prefix, const char *what, char **runargs,
			 int nrun, const char *dir, int start_timeout)
{
	int n;
	char **av = split_prefix(prefix, what, nrun + 3, &n);
	av[n++] = xstrdup("run");
	for (int i = 0; i < nrun; i++)
		av[n++] = xstrdup(runargs[i]);
	w->path = xasprintf("%s/%s.json", dir, w->name);
	av[n++] = xasprintf("--ab-worker=%s", w->path);
	av[n] = NULL;
	spawn_side(w, av, what, dir);
	for (int i = 0; i < n; i++)
		free(av[i]);
	free(av);
	read_plan(w, prefix, start_timeout);
}

/* Run step label on w (when w has it), as round 0 of w's one round; -1 when the worker
 * stopped. *nres: the results w's run holds after it ("done N"), -1 when w did not say (an
 * older plumb) or does not have the step. */
int run_on(struct worker *w, const char *label, long *nres, double bound_s)
{
	*nres = -1;
	for (size_t i = 0; i < w->nsteps; i++)
		if (strcmp(w->steps[i], label) == 0) {
			fprintf(w->to, "run 0 %zu\n", i);
			fflush(w->to);
			uint64_t t0 = now_ns();
			char *l = read_line(w, bound_s > 0 ? t0 + (uint64_t)(bound_s * 1e9) : 0);
			if (!l && !ab_stop && bound_s > 0 && now_ns() > t0 + (uint64_t)(bound_s * 1e9))
				watchdog_step(w, label, bound_s, t0);
			if (!l || strncmp(l, "done", 4) != 0 || (l[4] && l[4] != ' '))
				return -1;
			if (l[4] == ' ')
				*nres = atol(l + 5);
			return 0;
		}
	return 0;
}

/* The run side w wrote, read and its file removed; NULL (said) when it does not read. */
static struct run *read_side_run(struct worker *w)
{
	char err[512];
	struct run *r = run_read_file(w->path, err, sizeof err);
	if (!r)
		warnx_("side %s: %s", w->name, err);
	unlink(w->path);
	return r;
}

struct run *finish_worker(struct worker *w, double bound_s)
{
	if (w->pid <= 0) { /* stopped by the watchdog: its run when it wrote one, else nothing */
		fclose(w->to);
		close(w->from);
		return w->salvaged ? read_side_run(w) : NULL;
	}
	fprintf(w->to, "end\n");
	fflush(w->to);
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)(bound_s * 1e9);
	char *l = read_line(w, end);
	if (!l && !ab_stop && now_ns() > end)
		watchdog_stop(w, "end (write the run)", bound_s, t0);
	if (w->pid <= 0) {
		fclose(w->to);
		close(w->from);
		return NULL;
	}
	if (ab_stop)
		ab_stopped("nothing stored");
	int saved = l && strcmp(l, "saved") == 0;
	fclose(w->to);
	close(w->from);
	child_wait_bounded(w->pid, 10 * SIDE_GRACE_MS); /* it exits right after "saved" */
	w->pid = 0;
	return saved ? read_side_run(w) : NULL;
}

void free_worker(struct worker *w)
{
	for (size_t i = 0; i < w->nsteps; i++)
		free(w->steps[i]);
	free(w->steps);
	free(w->bound);
	free(w->path);
	free(w->hung);
}
