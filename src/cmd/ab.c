/*
 * ab.c — `plumb ab [run options] [--a 'PREFIX'] --b 'PREFIX' [--label A,B] ...`: one paired
 * A/B session. Each side is a `PREFIX run [run options]` child in worker mode (suite/suite.c,
 * serve_ab): a PREFIX is a command line split on blanks, no shell, whose last word is a plumb
 * binary (a wrapper may come first). This process walks the plan and, for every step of every
 * round, has both sides run it back to back, A then B in even rounds and B then A in odd ones,
 * so that what the machine does meanwhile hits both alike. At the end each side writes its run
 * as plumb JSON (docs/json-schema.md — another plumb version can be a side), both are stored
 * with their labels and an ab_session fact, and the comparison is printed as `plumb compare`
 * prints it, paired round by round (docs/compare.md). Exit 1 with --fail-on-regression when a
 * point is significantly worse; 2 for usage errors.
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
#include "analysis/compare.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

struct worker {
	const char *name;   /* label */
	pid_t pid;          /* leads its own process group (a wrapper's children go with it) */
	FILE *to;
	int from;           /* its stdout, read through buf with poll: a stop is noticed at once */
	char buf[4096], line[4096];
	size_t nbuf;
	char *path;         /* where it writes its run */
	char **steps;       /* labels of its steps */
	size_t nsteps;
	int rounds;
};

/* Ctrl-C (or SIGTERM, SIGHUP): a flag, seen by every wait of this process (read_line, the
 * waits for the sides); the sides are then asked to stop with SIGTERM, so they remove their own
 * temporary files before they go, and killed if they linger. The sides lead process groups of
 * their own: a signal to the terminal's group reaches this process alone, which stops them. */
static volatile sig_atomic_t ab_stop;
static void on_stop(int sig)
{
	if (!ab_stop)
		ab_stop = sig;
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

static struct worker *all_workers; /* both sides, for ab_stopped() */
static char *ab_dir;

/* A stop request arrived: the sides stop, the private directory goes, nothing is stored
 * (half a session pairs with nothing) unless it already was (what says which); the process
 * dies of the signal (exit 128 + signal). */
__attribute__((noreturn)) static void ab_stopped(const char *what)
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
static void check_prefix(const char *prefix, const char *what)
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
static char *read_line(struct worker *w, uint64_t deadline_ns)
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

static void start_worker(struct worker *w, const char *prefix, const char *what, char **runargs,
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
	for (int i = 0; i < n; i++)
		free(av[i]);
	free(av);
	/* its plan: "rounds N", "step LABEL"..., "ready" */
	uint64_t deadline = now_ns() + (uint64_t)start_timeout * 1000000000ull;
	char *l;
	while ((l = read_line(w, deadline)) && strcmp(l, "ready") != 0) {
		if (strncmp(l, "rounds ", 7) == 0)
			w->rounds = atoi(l + 7);
		else if (strncmp(l, "step ", 5) == 0) {
			w->steps = xrealloc(w->steps, (w->nsteps + 1) * sizeof *w->steps);
			w->steps[w->nsteps++] = xstrdup(l + 5);
		}
	}
	if (l)
		return;
	if (ab_stop)
		ab_stopped("nothing stored");
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

/* Run step label of round r on w (when w has it); -1 when the worker stopped. */
static int run_on(struct worker *w, int round, const char *label)
{
	for (size_t i = 0; i < w->nsteps; i++)
		if (strcmp(w->steps[i], label) == 0) {
			if (round >= w->rounds)
				return 0;
			fprintf(w->to, "run %d %zu\n", round, i);
			fflush(w->to);
			char *l = read_line(w, 0);
			return l && strcmp(l, "done") == 0 ? 0 : -1;
		}
	return 0;
}

static struct run *finish_worker(struct worker *w)
{
	fprintf(w->to, "end\n");
	fflush(w->to);
	char *l = read_line(w, 0);
	if (ab_stop)
		ab_stopped("nothing stored");
	int saved = l && strcmp(l, "saved") == 0;
	fclose(w->to);
	close(w->from);
	child_wait_bounded(w->pid, 10 * SIDE_GRACE_MS); /* it exits right after "saved" */
	w->pid = 0;
	if (!saved)
		return NULL;
	char err[512];
	struct run *r = run_read_file(w->path, err, sizeof err);
	if (!r)
		warnx_("side %s: %s", w->name, err);
	unlink(w->path);
	return r;
}

static void free_worker(struct worker *w)
{
	for (size_t i = 0; i < w->nsteps; i++)
		free(w->steps[i]);
	free(w->steps);
	free(w->path);
}

struct ab_cli {
	struct compare_args ca;   /* --db --alpha --min-effect --correction */
	const char *a, *b, *labels;
	enum cmp_format fmt;
	int fail, no_store;
	int start_timeout;
};

static void set_format(const char *arg, void *field)
{
	if (cmp_format_parse(arg, field))
		die(EXIT_USAGE, "--format: '%s' is not text, markdown, csv or json", arg);
}

static const struct opt_action format_action = { set_format, 0 };

/* ab's own options; every other word is a run option given to both sides (run_options) */
const struct opt ab_options[] = {
	{ 0, "a", OPT_STRING, 0, 0, offsetof(struct ab_cli, a), "PREFIX", NULL,
	  "side A's command line (default: this binary)", NULL },
	{ 0, "b", OPT_STRING, 0, 0, offsetof(struct ab_cli, b), "PREFIX", NULL,
	  "side B's command line (required)", NULL },
	{ 0, "label", OPT_STRING, 0, 0, offsetof(struct ab_cli, labels), "A,B", NULL,
	  "the two runs' labels (default A#SESSION,B#SESSION)", NULL },
	{ 0, NULL, OPT_GROUP, 0, 0, offsetof(struct ab_cli, ca), NULL, NULL, NULL, compare_group },
	{ 0, "format", OPT_CUSTOM, 0, 0, offsetof(struct ab_cli, fmt), "F", NULL,
	  "text (default), markdown, csv or json", &format_action },
	{ 0, "fail-on-regression", OPT_FLAG, 0, 0, offsetof(struct ab_cli, fail), NULL, NULL,
	  "exit 1 when a point of B is significantly worse", NULL },
	{ 0, "start-timeout", OPT_INT, 1, 86400, offsetof(struct ab_cli, start_timeout), "SECONDS",
	  "seconds", "how long a side may take to print its plan before it is stopped (default 120)",
	  NULL },
	{ 0, "no-store", OPT_FLAG, 0, 0, offsetof(struct ab_cli, no_store), NULL, NULL,
	  "store neither run", NULL },
	{ 0 },
};

static const char ab_default_labels[] = "A,B";

int cmd_ab(int argc, char **argv)
{
	struct ab_cli o = { .labels = ab_default_labels, .fmt = CF_TEXT, .start_timeout = 120 };
	cmp_opts_default(&o.ca.o);
	char **runargs = xcalloc((size_t)argc + 1, sizeof *runargs);
	int nrun = 0, used;
	for (int i = 1; i < argc; i += used) {
		used = 1;
		if (command_word("ab", ab_options, argv, argc, i, &o, &used))
			continue;
		if (!strcmp(argv[i], "-o") || !strncmp(argv[i], "--output", 8) ||
		    !strcmp(argv[i], "--json") || !strcmp(argv[i], "--dry-run") ||
		    !strncmp(argv[i], "--ab-worker", 11))
			die(EXIT_USAGE, "%s is not an option of plumb ab (try 'plumb ab --help')", argv[i]);
		runargs[nrun++] = argv[i]; /* a run option: both sides get it */
	}
	const char *pa = o.a, *pb = o.b, *labels = o.labels;
	int fail = o.fail, no_store = o.no_store;
	enum cmp_format fmt = o.fmt;
	struct compare_args ca = o.ca;
	if (!pb)
		die(EXIT_USAGE, "needs --b 'PREFIX' (try 'plumb ab --help')");
	char self[4096];
	if (!pa) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0)
			die(EXIT_USAGE, "cannot find this binary (/proc/self/exe): give --a");
		self[n] = 0;
		pa = self;
	}
	char *lab = xstrdup(labels), *comma = strchr(lab, ',');
	if (!comma || comma == lab || !comma[1] || strchr(comma + 1, ','))
		die(EXIT_USAGE, "--label: '%s' is not two labels A,B", labels);
	*comma = 0;
	char why[128];
	if (run_text_check("label A", lab, why, sizeof why) ||
	    run_text_check("label B", comma + 1, why, sizeof why))
		die(EXIT_USAGE, "--label: %s", why);

	/* this binary is running, so side A by default can run: access() of its path would ask
	 * more (every directory above it searchable by this user, which a user given the program
	 * in a directory they cannot list lacks) */
	if (o.a)
		check_prefix(pa, "--a");
	check_prefix(pb, "--b");
	/* the store is tried before the session: one that cannot be written is said at once, not
	 * after minutes of measuring (and never replaced by another place) */
	int no_sqlite = 0;
	if (!no_store) {
		char err[512];
		struct store *st = store_open(ca.db, STORE_CREATE, err, sizeof err);
		if (st) {
			store_close(st);
		} else if (strstr(err, STORE_NO_SQLITE_MSG)) {
			/* a build without SQLite compares the session and says at the end that it
			 * kept nothing (no other place is written either) */
			no_sqlite = 1;
			no_store = 1;
		} else {
			die(EXIT_USAGE, "%s (--no-store runs the session without storing it)", err);
		}
	}
	char *dir = private_dir(NULL);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
	cleanup_init(); /* at exit: no side and no directory left behind */
	cleanup_announce_stops(); /* SIGQUIT: said by the cleanup handler */
	ab_dir = dir;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop; /* no SA_RESTART: a wait returns at once */
	sigfillset(&sa.sa_mask);
	static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (int i = 0; i < 3; i++)
		sigaction(stop_sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	struct worker w[2] = { { .name = lab, .from = -1 }, { .name = comma + 1, .from = -1 } };
	all_workers = w;
	start_worker(&w[0], pa, "--a", runargs, nrun, dir, o.start_timeout);
	start_worker(&w[1], pb, "--b", runargs, nrun, dir, o.start_timeout);
	int rounds = w[0].rounds > w[1].rounds ? w[0].rounds : w[1].rounds;
	int stopped = ab_stop != 0;
	for (int r = 0; r < rounds && !stopped; r++) {
		/* every step of A's plan, then what only B has */
		for (int side = 0; side < 2 && !stopped; side++)
			for (size_t i = 0; i < w[side].nsteps && !stopped; i++) {
				const char *label = w[side].steps[i];
				if (side == 1) {
					int in_a = 0;
					for (size_t k = 0; k < w[0].nsteps && !in_a; k++)
						in_a = strcmp(w[0].steps[k], label) == 0;
					if (in_a)
						continue;
				}
				int first = r % 2; /* A B in even rounds, B A in odd ones */
				if (run_on(&w[first], r, label) || run_on(&w[!first], r, label) || ab_stop)
					stopped = 1;
			}
	}
	if (ab_stop)
		ab_stopped("nothing stored");
	struct run *run[2];
	for (int s = 0; s < 2; s++)
		run[s] = finish_worker(&w[s]);
	if (ab_stop)
		ab_stopped("nothing stored");
	remove_tree(dir);
	path_forget(dir);
	free(dir);
	if (!run[0] || !run[1])
		die(EXIT_MEASURE, "the session did not complete: nothing stored");
	/* the pairing: one session id, each run's side */
	char sid[64];
	snprintf(sid, sizeof sid, "%lx-%lx", (unsigned long)time(NULL), (unsigned long)getpid());
	for (int s = 0; s < 2; s++) {
		free(run[s]->label);
		/* default labels name the session, so two sessions' A runs never pool by label */
		run[s]->label = o.labels == ab_default_labels ? xasprintf("%s#%s", w[s].name, sid)
							      : xstrdup(w[s].name);
		kv_set(&run[s]->facts, "ab_session", sid);
		kv_set(&run[s]->facts, "ab_side", s ? "B" : "A");
		kv_set(&run[s]->facts, "ab_command", s ? pb : pa);
		if (stopped)
			run[s]->incomplete = 1;
	}
	int stored = 0, store_failed = 0;
	if (no_sqlite)
		warnx_("warning: runs not stored: " STORE_NO_SQLITE_MSG);
	if (!no_store) {
		char err[512];
		struct store *st = store_open(ca.db, STORE_CREATE, err, sizeof err);
		if (!st || store_save_all(st, run, 2, err, sizeof err) != 0) {
			/* err names the store; the comparison below is still printed, then exit 3 */
			warnx_("error: the session is not stored: %s", err);
			store_failed = 1;
		} else {
			stored = 1;
			warnx_("stored as runs %ld (%s) and %ld (%s), session %s; plumb report %ld %ld",
			       run[0]->id, run[0]->label, run[1]->id, run[1]->label, sid, run[0]->id,
			       run[1]->id);
		}
		if (st)
			store_close(st);
	}
	if (ab_stop) /* during the save: it is complete (one transaction), the rest is skipped */
		ab_stopped(stored ? "the session was stored, not compared" : "nothing stored");
	struct side sides[2] = { { lab, &run[0], 1, NULL, 0 }, { comma + 1, &run[1], 1, NULL, 0 } };
	struct cmp_table *t = cmp_build(sides, 2, &ca.o);
	for (size_t i = 0; i < t->nwarnings; i++)
		warnx_("warning: %s", t->warnings[i]);
	cmp_print(stdout, t, fmt);
	int status = fail && cmp_regressions(t) > 0 ? 1 : 0;
	cmp_free(t);
	for (int s = 0; s < 2; s++) {
		run_free(run[s]);
		free_worker(&w[s]);
	}
	free(lab);
	free(runargs);
	return stopped || store_failed ? EXIT_MEASURE : status;
}
