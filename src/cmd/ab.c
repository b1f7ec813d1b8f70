/*
 * ab.c — `plumb ab [run options] [--a 'PREFIX'] --b 'PREFIX' [--label A,B] ...`: one paired
 * A/B session. Each side is a `PREFIX run [run options]` child in worker mode (suite/suite.c,
 * serve_ab): a PREFIX is a command line split on blanks, no shell, whose last word is a plumb
 * binary (a wrapper may come first). This process walks the plan and, for every step of every
 * round, has both sides run it back to back, the side that goes first drawn for each pair, so
 * that what the machine does meanwhile hits both alike. Each round runs on fresh workers, which
 * write their run as plumb JSON (docs/json-schema.md — another plumb version can be a side),
 * pooled into one run per side (ab_rounds.c). The session is sequential (docs/compare.md,
 * "Sequential sessions"): after the first rounds, at looks, only the steps of points still
 * undecided run on, until all are decided or --time-limit ends it. Both runs are stored with
 * their labels, an ab_session fact and the design, and the comparison is printed as `plumb
 * compare` prints it, paired round by round. Exit 1 with --fail-on-regression when a
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
#include "cmd/ab_rounds.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"
#include "suite/fit.h"

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
	int quiet;          /* a later round's worker: its stderr (the start-up warnings the first
			     * round's workers said already) goes to a file in the private directory */
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

/* Run step label on w (when w has it), as round 0 of w's one round; -1 when the worker
 * stopped. *nres: the results w's run holds after it ("done N"), -1 when w did not say (an
 * older plumb) or does not have the step. */
static int run_on(struct worker *w, const char *label, long *nres)
{
	*nres = -1;
	for (size_t i = 0; i < w->nsteps; i++)
		if (strcmp(w->steps[i], label) == 0) {
			fprintf(w->to, "run 0 %zu\n", i);
			fflush(w->to);
			char *l = read_line(w, 0);
			if (!l || strncmp(l, "done", 4) != 0 || (l[4] && l[4] != ' '))
				return -1;
			if (l[4] == ' ')
				*nres = atol(l + 5);
			return 0;
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
	double time_limit;
	int seed;
};

static void set_format(const char *arg, void *field)
{
	if (cmp_format_parse(arg, field))
		die(EXIT_USAGE, "--format: '%s' is not text, markdown, csv or json", arg);
}

static const struct opt_action format_action = { set_format, 0 };

static void set_time_limit(const char *arg, void *field)
{
	double v = strcmp(arg, "0") == 0 ? 0 : parse_duration(arg);
	if (!(v >= 0) || v > 7 * 86400)
		die(EXIT_USAGE, "--time-limit: '%s' is not a duration (90s, 3m, 1h, or seconds)", arg);
	*(double *)field = v;
}

static const struct opt_action time_limit_action = { set_time_limit, 0 };

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
	{ 0, "time-limit", OPT_CUSTOM, 0, 0, offsetof(struct ab_cli, time_limit), "D", NULL,
	  "after the first rounds, add rounds for the points still undecided while the session "
	  "stays within D (90s, 3m, or seconds; default 180; 0: the first rounds only)",
	  &time_limit_action },
	{ 0, "seed", OPT_INT, 1, 2147483647, offsetof(struct ab_cli, seed), "N", NULL,
	  "seed of the order of A and B within each pair (default: drawn, stored as ab_seed)", NULL },
	{ 0, "no-store", OPT_FLAG, 0, 0, offsetof(struct ab_cli, no_store), NULL, NULL,
	  "store neither run", NULL },
	{ 0 },
};

/* ---- the sequential session (docs/compare.md, "Sequential sessions") ---------------------- */

#define AB_TIME_LIMIT 180 /* s: a default session (every family) takes about this on a 2-vCPU guest */
#define AB_SPEND_RHO "2"  /* alpha spent by look k: alpha * (rounds_k / rounds_last)^2 */
static const int look_factor[] = { 1, 2, 4, 8 }; /* looks at these multiples of the first rounds */
#define NLOOKS (int)(sizeof look_factor / sizeof *look_factor)

struct session {
	const char *pa, *pb, *dir, *sid;
	char **runargs;
	int nrun;
	const struct ab_cli *o;
	uint64_t seed, rng;
	char **steps;        /* every step of A's plan, then what only B has */
	size_t nsteps;
	int *active;         /* per step: run in the next round */
	double *cost;        /* per step: seconds both sides took in its last round */
	struct ab_point_map map;
	char looks[64], summary[400];
};

/* The facts that make the two runs one sequential session (compare_judge.c replays it). */
static void session_facts(const struct session *ss, struct run *r, int side)
{
	char b[32];
	kv_set(&r->facts, "ab_session", ss->sid);
	kv_set(&r->facts, "ab_side", side ? "B" : "A");
	kv_set(&r->facts, "ab_command", side ? ss->pb : ss->pa);
	kv_set(&r->facts, "ab_looks", ss->looks);
	kv_set(&r->facts, "ab_spend_rho", AB_SPEND_RHO);
	snprintf(b, sizeof b, "%llu", (unsigned long long)ss->seed);
	kv_set(&r->facts, "ab_seed", b);
	snprintf(b, sizeof b, "%.0f", ss->o->time_limit);
	kv_set(&r->facts, "ab_time_limit_s", b);
}

static void session_steps(struct session *ss, const struct worker *w)
{
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < w[side].nsteps; i++) {
			int known = 0;
			for (size_t k = 0; k < ss->nsteps && !known; k++)
				known = strcmp(ss->steps[k], w[side].steps[i]) == 0;
			if (known)
				continue;
			ss->steps = xrealloc(ss->steps, (ss->nsteps + 1) * sizeof *ss->steps);
			ss->steps[ss->nsteps++] = xstrdup(w[side].steps[i]);
		}
	ss->active = xcalloc(ss->nsteps + 1, sizeof *ss->active);
	ss->cost = xcalloc(ss->nsteps + 1, sizeof *ss->cost);
	for (size_t i = 0; i < ss->nsteps; i++)
		ss->active[i] = 1;
}

/* Results of each worker after each step: which step made which point. */
struct step_ends {
	long *n[2];
};

/* One round on the two fresh workers: each active step on both sides back to back, the side
 * that goes first drawn for every pair. -1 when a side stopped. */
static int session_round(struct session *ss, struct worker *w, struct step_ends *se)
{
	for (size_t i = 0; i < ss->nsteps; i++) {
		se->n[0][i] = se->n[1][i] = -1;
		if (!ss->active[i])
			continue;
		int first = ab_coin(&ss->rng);
		uint64_t t0 = now_ns();
		if (run_on(&w[first], ss->steps[i], &se->n[first][i]) ||
		    run_on(&w[!first], ss->steps[i], &se->n[!first][i]) || ab_stop)
			return -1;
		ss->cost[i] = (double)(now_ns() - t0) / 1e9;
	}
	return 0;
}

static void learn_points(struct session *ss, const struct run *r, const long *ends)
{
	long from = 0;
	for (size_t i = 0; i < ss->nsteps; i++) {
		if (ends[i] < 0)
			continue;
		ab_map_points(&ss->map, r, (size_t)from, (size_t)ends[i], (int)i);
		from = ends[i];
	}
}

/* A look: the session judged as it stands (the looks reached); the steps of the points still
 * undecided run on. Returns how many points are undecided. */
static size_t session_look(struct session *ss, struct run **acc)
{
	struct run *ra[1] = { acc[0] }, *rb[1] = { acc[1] };
	struct side sides[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
	struct cmp_opts co = ss->o->ca.o;
	co.interim = 1;
	for (int s = 0; s < 2; s++)
		session_facts(ss, acc[s], s);
	struct cmp_table *t = cmp_build(sides, 2, &co);
	for (size_t i = 0; i < ss->nsteps; i++)
		ss->active[i] = 0;
	size_t open = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_row *row = &t->rows[i];
		if (row->test[1].v != V_UNDECIDED)
			continue;
		open++;
		int st = ab_point_step(&ss->map, row->metric, row->params, row->x);
		if (st >= 0) {
			ss->active[st] = 1;
		} else {
			/* a point whose step is unknown (a side that does not say): every step */
			for (size_t k = 0; k < ss->nsteps; k++)
				ss->active[k] = 1;
		}
	}
	cmp_free(t);
	return open;
}

/* Start fresh workers for round r > 0: the first round's plan, its memory size fixed (the
 * knee probe is not repeated, and both sides keep measuring the same points). */
static void session_start(struct session *ss, struct worker *w, const char *mem)
{
	char **args = xcalloc((size_t)ss->nrun + 3, sizeof *args);
	int n = 0, has_mem = 0;
	for (int i = 0; i < ss->nrun; i++) {
		args[n++] = ss->runargs[i];
		has_mem |= strcmp(ss->runargs[i], "--mem") == 0 ||
			   strncmp(ss->runargs[i], "--mem=", 6) == 0;
	}
	if (!has_mem && mem) {
		args[n++] = (char *)"--mem";
		args[n++] = (char *)mem;
	}
	for (int s = 0; s < 2; s++) {
		const char *name = w[s].name;
		free_worker(&w[s]);
		memset(&w[s], 0, sizeof w[s]);
		w[s].name = name;
		w[s].from = -1;
		w[s].quiet = 1;
	}
	start_worker(&w[0], ss->pa, "--a", args, n, ss->dir, ss->o->start_timeout);
	start_worker(&w[1], ss->pb, "--b", args, n, ss->dir, ss->o->start_timeout);
	free(args);
}

/* The whole session: round after round, each on fresh workers; the first rounds run every
 * step; at each look the points still undecided decide what the next rounds run, while the
 * time limit allows. run[2] gets each side's pooled run. Returns 1 when a side stopped. */
static int session_run(struct session *ss, struct worker *w, struct run **run)
{
	uint64_t t_start = now_ns();
	start_worker(&w[0], ss->pa, "--a", ss->runargs, ss->nrun, ss->dir, ss->o->start_timeout);
	start_worker(&w[1], ss->pb, "--b", ss->runargs, ss->nrun, ss->dir, ss->o->start_timeout);
	int r1 = w[0].rounds > w[1].rounds ? w[0].rounds : w[1].rounds;
	if (r1 < 1)
		r1 = 1;
	int look[NLOOKS];
	size_t l = 0;
	for (int k = 0; k < NLOOKS; k++) {
		look[k] = r1 * look_factor[k];
		l += (size_t)snprintf(ss->looks + l, sizeof ss->looks - l, "%s%d", k ? "," : "", look[k]);
	}
	session_steps(ss, w);
	struct step_ends se = { { xcalloc(ss->nsteps + 1, sizeof(long)),
				  xcalloc(ss->nsteps + 1, sizeof(long)) } };
	double *clocks[2] = { xcalloc((size_t)look[NLOOKS - 1], sizeof(double)),
			      xcalloc((size_t)look[NLOOKS - 1], sizeof(double)) };
	char mem[32] = "";
	int stopped = 0, rounds = 0, pooled = 1, k = 0, why = 0; /* why: 0 looks done, 1 decided, 2 time */
	double t_workers = 0; /* seconds to start the two workers of a later round */
	size_t open = 0;
	for (int r = 0; r < look[NLOOKS - 1]; r++) {
		if (r > 0) {
			uint64_t t0 = now_ns();
			session_start(ss, w, mem[0] ? mem : NULL);
			t_workers = (double)(now_ns() - t0) / 1e9;
		}
		stopped = session_round(ss, w, &se) != 0;
		if (ab_stop)
			break;
		for (int s = 0; s < 2; s++) {
			struct run *one = finish_worker(&w[s]);
			if (ab_stop || !one) {
				run_free(one);
				stopped = 1;
				continue;
			}
			if (ss->map.n == 0 || r == 0)
				learn_points(ss, one, se.n[s]);
			const char *c = kv_get(&one->facts, "clock_mhz");
			clocks[s][r] = c ? atof(c) : 0;
			if (!run[s]) {
				/* the first round's run as it is (its samples are round 0): the
				 * session's run of this side, later rounds pooled into it */
				const char *m = kv_get(&one->facts, "mem_series_bytes");
				if (m && !mem[0] && strlen(m) < sizeof mem)
					snprintf(mem, sizeof mem, "%s", m);
				run[s] = one;
				continue;
			}
			ab_pool_round(run[s], one, r);
			pooled = r + 1;
			run_free(one);
		}
		if (stopped || ab_stop)
			break;
		rounds = r + 1;
		if (rounds == look[k]) {
			open = session_look(ss, run);
			k++;
			if (!open) {
				why = 1;
				break;
			}
		}
		if (rounds >= r1) {
			/* the next round fits the time limit? its steps as long as they took last */
			double next = t_workers;
			for (size_t i = 0; i < ss->nsteps; i++)
				next += ss->active[i] ? ss->cost[i] : 0;
			if ((double)(now_ns() - t_start) / 1e9 + next > ss->o->time_limit) {
				why = 2;
				break;
			}
		}
	}
	if (!ab_stop && run[0] && run[1]) {
		if (stopped)
			rounds = pooled; /* a side stopped in the middle of a round */
		for (int s = 0; s < 2; s++) {
			ab_close_side(run[s], rounds, clocks[s], (size_t)rounds);
			session_facts(ss, run[s], s);
			char b[16];
			snprintf(b, sizeof b, "%d", rounds);
			kv_set(&run[s]->facts, "ab_rounds", b);
		}
	}
	snprintf(ss->summary, sizeof ss->summary,
		 "sequential session: %d round(s) on fresh workers, looks at rounds %s, %d reached; %s "
		 "(%.0f s; order seed %llu)", rounds, ss->looks, k,
		 why == 1 ? "every point decided" : why == 2 ? "stopped by --time-limit" :
		 "the last look reached", (double)(now_ns() - t_start) / 1e9,
		 (unsigned long long)ss->seed);
	free(se.n[0]);
	free(se.n[1]);
	free(clocks[0]);
	free(clocks[1]);
	for (size_t i = 0; i < ss->nsteps; i++)
		free(ss->steps[i]);
	free(ss->steps);
	free(ss->active);
	free(ss->cost);
	ab_map_free(&ss->map);
	return stopped;
}

static const char ab_default_labels[] = "A,B";

int cmd_ab(int argc, char **argv)
{
	struct ab_cli o = { .labels = ab_default_labels, .fmt = CF_TEXT, .start_timeout = 120,
			    .time_limit = AB_TIME_LIMIT };
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
	/* the pairing: one session id, each run's side */
	char sid[64];
	snprintf(sid, sizeof sid, "%lx-%lx", (unsigned long)time(NULL), (unsigned long)getpid());
	uint64_t seed = o.seed ? (uint64_t)o.seed
			       : (uint64_t)(now_ns() ^ ((uint64_t)getpid() << 20)) % 2147483647 + 1;
	struct session ss = { .pa = pa, .pb = pb, .runargs = runargs, .nrun = nrun, .dir = dir,
			      .o = &o, .sid = sid, .seed = seed, .rng = seed };
	struct run *run[2] = { NULL, NULL };
	int stopped = session_run(&ss, w, run);
	if (ab_stop)
		ab_stopped("nothing stored");
	remove_tree(dir);
	path_forget(dir);
	free(dir);
	if (!run[0] || !run[1])
		die(EXIT_MEASURE, "the session did not complete: nothing stored");
	warnx_("%s", ss.summary);
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
