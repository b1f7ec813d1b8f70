/*
 * bisect.c — `plumb bisect-check --metric M[,M...] --min-effect P (--baseline RUN | --a 'PREFIX')
 * [--b 'PREFIX'] [--sessions N] [run options]`: a predicate for `git bisect run` (docs/bisect.md).
 * It measures the build under test (--b, default this binary) against a baseline — a stored run,
 * label or selection (--baseline), or a baseline binary paired with it in a `plumb ab` session
 * (--a) — and answers in git's words: exit 0 (not worse on every named metric), 1 (worse by at
 * least the minimum effect on one of them) or 125 (undecided after --sessions looks, or not
 * judged: a look or baseline made beside other work, a baseline from another machine, a build
 * under test stopped by the watchdog — bisect_guard.h; git skips the commit). Anything else — a bad option, a side that does not run, a stop — exits 128 or
 * more, which makes git abort the bisect instead of taking it for a verdict (git calls every
 * code from 1 to 127 but 125 "bad"). That is why the work happens in a child process: plumb's
 * usual error codes (2, 3) come out of it, and this process turns them into 128.
 *
 * Each look runs this binary's `run` (--baseline: the build under test alone; its runs pool
 * over the looks) or `ab` (--a: one paired session per look, judged alone), and judges the named
 * metrics with compare's estimator at alpha / sessions, so the looks together keep alpha.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis/compare.h"
#include "analysis/compare_est.h"
#include "cmd/bisect_guard.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"
#include "results/io.h"
#include "results/run.h"

#define BISECT_GOOD 0
#define BISECT_BAD 1
#define BISECT_SKIP 125  /* git: "this commit cannot be tested" */
#define BISECT_ABORT 128 /* git: 128 and up (and < 0) stop the bisect */

struct bisect_cli {
	struct compare_args ca; /* --db --alpha --min-effect --correction */
	const char *metrics, *baseline, *a, *b;
	int sessions, across_kernels;
};

const struct opt bisect_options[] = {
	OPT_STRING(0, "metric", struct bisect_cli, metrics, "M,...",
		"the metrics that decide (lat_syscall.null; a tool name takes all its metrics)"),
	OPT_STRING(0, "baseline", struct bisect_cli, baseline, "RUN",
		"the baseline: a stored label, run id, selection or results file"),
	OPT_STRING(0, "a", struct bisect_cli, a, "PREFIX",
		"or a baseline binary, paired with the build under test in plumb ab sessions"),
	OPT_STRING(0, "b", struct bisect_cli, b, "PREFIX",
		"the build under test's command line (default: this binary)"),
	OPT_BOOL(0, "across-kernels", struct bisect_cli, across_kernels,
		"--baseline: a kernel that differs is what is bisected (default: exit 125)"),
	OPT_INT(0, "sessions", struct bisect_cli, sessions, "N", 1, 20, "looks",
		"at most N measurements before answering 125, undecided (default 3)"),
	OPT_GROUP(struct bisect_cli, ca, bisect_compare_group),
	OPT_END,
};

/* ---- the child that measures: its stop flag, its own child, its directory ----------------- */

static volatile sig_atomic_t stop_sig;
static void on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
}


/* The watchdog's bound on a look (bisect_bound), 0: none; what it is, for the line. */
static double look_bound;
static char look_bound_how[128];

/* Past the bound: the child and everything it started killed (SIGKILL reaches a stopped
 * process too) and reaped; the commit cannot be tested. */
static void watchdog_stop(pid_t pid, const char *what)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	child_wait_bounded(pid, 2000);
	printf("bisect-check: %s did not end within %.0f s (its bound: %s): stopped by the "
	       "watchdog; skip this commit (exit %d)\n", what, look_bound, look_bound_how,
	       BISECT_SKIP);
	fflush(stdout);
	cleanup_run();
	exit(BISECT_SKIP);
}

/* Poll for pid's end; on a stop request ask it to stop (SIGTERM: run and ab remove their own
 * files) and die of the signal once it has gone; past look_bound stop it (watchdog_stop).
 * Returns its wait status. */
static int wait_child(pid_t pid, const char *what)
{
	int st;
	uint64_t deadline = look_bound > 0 ? now_ns() + (uint64_t)(look_bound * 1e9) : 0;
	for (;;) {
		pid_t got = waitpid(pid, &st, WNOHANG);
		if (got == pid) {
			child_forget(pid);
			return st;
		}
		if (got < 0 && errno != EINTR)
			die(EXIT_MEASURE, "waitpid: %s", strerror(errno));
		if (stop_sig) {
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
			child_wait_bounded(pid, 5000);
			warnx_("stopped by %s", signal_name(stop_sig));
			cleanup_run();
			exit(die_of_signal(stop_sig));
		}
		if (deadline && now_ns() > deadline)
			watchdog_stop(pid, what);
		struct timespec ts = { 0, 50 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* Run argv (stdout to /dev/null, stderr to errfile) in its own process group; die with the
 * end of its stderr when it fails. */
static void run_child(char **argv, const char *errfile, const char *what)
{
	fflush(NULL);
	pid_t pid = plumb_fork();
	if (pid < 0)
		die(EXIT_MEASURE, "fork: %s", strerror(errno));
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		int null = open("/dev/null", O_WRONLY);
		int err = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (null < 0 || err < 0)
			_exit(EXIT_MEASURE);
		dup2(null, 1);
		dup2(err, 2);
		execvp(argv[0], argv);
		fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(EXIT_USAGE);
	}
	setpgid(pid, pid);
	int st = wait_child(pid, what);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return;
	/* its last lines say why */
	FILE *f = fopen(errfile, "r");
	char line[1024], last[4][1024];
	int n = 0;
	while (f && fgets(line, sizeof line, f)) {
		memcpy(last[n % 4], line, sizeof line);
		n++;
	}
	if (f)
		fclose(f);
	for (int i = n > 4 ? n - 4 : 0; i < n; i++)
		fputs(last[i % 4], stderr);
	die(WIFEXITED(st) && WEXITSTATUS(st) == EXIT_USAGE ? EXIT_USAGE : EXIT_MEASURE,
	    "%s failed (%s %d)", what, WIFEXITED(st) ? "exit" : "signal",
	    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

/* argv under construction */
struct words {
	char **v;
	int n, cap;
};

static void add(struct words *w, const char *s)
{
	if (w->n + 2 > w->cap)
		w->v = xrealloc(w->v, (size_t)(w->cap = 2 * w->cap + 16) * sizeof *w->v);
	w->v[w->n++] = xstrdup(s);
	w->v[w->n] = NULL;
}

/* A PREFIX: split on blanks, no shell, as plumb ab splits --a and --b. */
static void add_prefix(struct words *w, const char *prefix, const char *what)
{
	char *copy = xstrdup(prefix);
	int before = w->n;
	for (char *t = strtok(copy, " \t\n"); t; t = strtok(NULL, " \t\n"))
		add(w, t);
	free(copy);
	if (w->n == before)
		die(EXIT_USAGE, "%s: empty command line", what);
}

static void free_words(struct words *w)
{
	for (int i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
}

/* ---- judging the named metrics ------------------------------------------------------------ */

enum call { NOT_WORSE, WORSE, UNDECIDED };

static int names_row(const char *name, const char *metric)
{
	size_t n = strlen(name);
	return !strcmp(name, metric) || (!strncmp(name, metric, n) && metric[n] == '.');
}

/* worse: compare's verdict (corrected p < alpha, interval excludes 0, |change| >= min effect).
 * not worse: the one-sided upper bound (lower bound for a bandwidth) at level alpha of the
 * change lies under the minimum effect. Anything else is undecided. */
static enum call judge_row(const struct cmp_row *r, const struct cmp_opts *o)
{
	const struct cmp_test *ts = &r->test[1];
	char name[256];
	cmp_row_name(r, name, sizeof name);
	switch (ts->v) {
	case V_WORSE:
		return WORSE;
	case V_NEUTRAL:
		die(EXIT_USAGE, "%s is a property of the machine or unknown to plumb, never judged: "
		    "name another --metric", name);
	case V_METHOD:
		die(EXIT_USAGE, "%s: the two sides measure it by different methods", name);
	case V_MISSING:
		die(EXIT_USAGE, "%s was not measured on both sides", name);
	case V_NOTEST:
		die(EXIT_USAGE, "%s: a side has fewer than %d rounds (use --repeat 3 or more)", name,
		    CMP_MIN_ROUNDS);
	default:
		break;
	}
	const struct cmp_change *c = ts->judged_eq ? &ts->eq : &ts->raw;
	if (isnan(c->est) || !(c->se > 0) || !(c->df > 0))
		return UNDECIDED;
	double est = log1p(c->est / 100), q = t_crit(2 * o->alpha, c->df) * c->se;
	double m = o->min_effect / 100;
	if (r->def && r->def->better == HIGHER)
		return m >= 1 || est - q > log1p(-m) ? NOT_WORSE : UNDECIDED;
	return est + q < log1p(m) ? NOT_WORSE : UNDECIDED;
}

/* One look: every row of a named metric; prints a line each. */
static enum call judge(const struct side *sides, const struct cmp_opts *o, char **names,
		       int nnames, int look, int looks)
{
	struct cmp_table *t = cmp_build(sides, 2, o);
	int worse = 0, undecided = 0;
	for (int k = 0; k < nnames; k++) {
		int found = 0;
		for (size_t i = 0; i < t->nrows; i++) {
			const struct cmp_row *r = &t->rows[i];
			if (!names_row(names[k], r->metric))
				continue;
			found = 1;
			enum call c = judge_row(r, o);
			worse += c == WORSE;
			/* a batch mean beside its steady figure: the steady figure decides; the mean
			 * counts where it is worse (a change confined to rare slow operations) */
			undecided += c == UNDECIDED && !r->has_steady;
			const struct cmp_test *ts = &r->test[1];
			char name[256];
			printf("look %d/%d: %s %+.1f%% [%+.1f, %+.1f] (%s): %s\n", look, looks,
			       cmp_row_name(r, name, sizeof name), ts->change, ts->lo, ts->hi,
			       noise_src_name(ts->noise),
			       c == WORSE ? "worse" : c == NOT_WORSE ? "not worse" : "undecided");
		}
		if (!found)
			die(EXIT_USAGE, "--metric %s: not measured by either side (do the run options' "
			    "--only families include it? plumb list names the metrics)", names[k]);
	}
	fflush(stdout);
	cmp_free(t);
	return worse ? WORSE : undecided ? UNDECIDED : NOT_WORSE;
}

/* ---- the measuring child ------------------------------------------------------------------ */

/* What the measuring child carries from one look to the next. */
struct bisect_job {
	struct bisect_cli o;
	struct words runargs; /* the run options, passed on to every run or session */
	char *mcopy, **names; /* --metric, split at its commas */
	int nnames;
	char self[4096];
	const char *b;        /* the build under test's command line */
	struct side *base;    /* --baseline: its runs */
	size_t nbase;
	char *dir, *errfile;  /* the private directory; the child's stderr */
	struct cmp_opts co;   /* compare's options at each look's share of alpha */
	struct run **tested;  /* --baseline: the build under test's runs so far */
	size_t ntested;
	char skip[1400];      /* why the commit cannot be tested (exit 125), "" while it can */
};

/* The options: bisect-check's own, refusals of run's that would break the child's run, and
 * every other word kept for the run. Dies on what is missing. */
static void parse_bisect_args(int argc, char **argv, struct bisect_job *j)
{
	struct bisect_cli *o = &j->o;
	int used;
	for (int i = 1; i < argc; i += used) {
		used = 1;
		if (command_word("bisect-check", bisect_options, argv, argc, i, o, &used))
			continue;
		if (!strcmp(argv[i], "-o") || !strncmp(argv[i], "--output", 8) ||
		    !strcmp(argv[i], "--json") || !strncmp(argv[i], "--format", 8) ||
		    !strcmp(argv[i], "--dry-run") || !strncmp(argv[i], "--label", 7) ||
		    !strcmp(argv[i], "--no-store") || !strncmp(argv[i], "--ab-worker", 11))
			die(EXIT_USAGE, "%s is not an option of plumb bisect-check (try 'plumb "
			    "bisect-check --help')", argv[i]);
		add(&j->runargs, argv[i]); /* a run option */
	}
	if (!o->metrics || !*o->metrics)
		die(EXIT_USAGE, "needs --metric M[,M...]: the metrics that decide");
	if (isnan(o->ca.o.min_effect))
		die(EXIT_USAGE, "needs --min-effect P: the smallest slowdown, in percent, that is the "
		    "regression being hunted");
	if (!o->baseline == !o->a)
		die(EXIT_USAGE, "needs one baseline: --baseline RUN (stored) or --a 'PREFIX' (a "
		    "baseline binary)");
	j->mcopy = xstrdup(o->metrics);
	j->names = xcalloc(strlen(j->mcopy) + 1, sizeof *j->names);
	for (char *t = strtok(j->mcopy, ","); t; t = strtok(NULL, ","))
		j->names[j->nnames++] = t;
	if (!j->nnames)
		die(EXIT_USAGE, "--metric: no metric named");
}

/* The run of a look read back, or why it cannot be judged: 1 pooled; 0 made beside other work
 * (left out, the look undecided); -1 measured on another machine than the baseline (j->skip
 * says so). Dies (exit 128) on a value no measurement gives. */
static int judgeable(struct bisect_job *j, struct run *r, int look)
{
	char why[1200];
	if (bisect_foreign(&j->base[0], r, j->o.across_kernels, why, sizeof why)) {
		snprintf(j->skip, sizeof j->skip, "the baseline comes from another machine, so "
			 "this look measures no change: %s%s", why,
			 strstr(why, "kernel") ? " (--across-kernels when the kernel is bisected)"
					       : "");
		return -1;
	}
	struct side one = { .name = (char *)"the build under test", .runs = &r, .nruns = 1 };
	if (bisect_impossible(&one, j->names, j->nnames, why, sizeof why))
		die(EXIT_MEASURE, "%s", why);
	if (bisect_contended(r)) {
		printf("look %d/%d: the build under test ran beside other work (%s): not judged\n",
		       look, j->o.sessions, bisect_contended(r));
		fflush(stdout);
		return 0;
	}
	return 1;
}

/* --baseline: one more run of the build under test, pooled with the earlier looks' runs when
 * it can be judged (judgeable); 1 when the look has something to judge. */
static int look_under_test(struct bisect_job *j, int look, struct side sides[2])
{
	struct words w = { 0 };
	char *out = xasprintf("%s/test-%d.json", j->dir, look);
	add_prefix(&w, j->b, "--b");
	add(&w, "run");
	for (int i = 0; i < j->runargs.n; i++)
		add(&w, j->runargs.v[i]);
	add(&w, "--no-store");
	add(&w, "--format");
	add(&w, "json");
	add(&w, "-o");
	add(&w, out);
	run_child(w.v, j->errfile, "the build under test's run");
	char err[512];
	struct run *r = run_read_file(out, err, sizeof err);
	if (!r)
		die(EXIT_MEASURE, "the build under test's run: %s", err);
	unlink(out);
	free(out);
	free_words(&w);
	int ok = judgeable(j, r, look);
	if (ok <= 0) {
		run_free(r);
		return 0;
	}
	j->tested = xrealloc(j->tested, (j->ntested + 1) * sizeof *j->tested);
	j->tested[j->ntested++] = r;
	sides[0] = j->base[0];
	sides[1] = (struct side){ .name = "under test", .runs = j->tested, .nruns = j->ntested };
	return 1;
}

/* --a: one plumb ab session of the two builds, judged alone. Returns the loaded pair (sides
 * points into it), *npair its length. */
static struct side *look_ab_session(struct bisect_job *j, int look, struct side sides[2],
				    size_t *npair)
{
	struct words w = { 0 };
	char *db = xasprintf("%s/sessions.db", j->dir);
	char *labels = xasprintf("baseline-%d,test-%d", look, look);
	add(&w, j->self);
	add(&w, "ab");
	add(&w, "--a");
	add(&w, j->o.a);
	add(&w, "--b");
	add(&w, j->b);
	add(&w, "--label");
	add(&w, labels);
	add(&w, "--db");
	add(&w, db);
	add(&w, "--format");
	add(&w, "csv");
	/* the session stops adding rounds once its rows are decided at the look's own
	 * alpha and minimum effect; at ab's defaults (a stricter "same") a good commit
	 * on a noisy machine ran every round of its time limit */
	char me[32], al[32];
	snprintf(me, sizeof me, "%g", j->co.min_effect);
	snprintf(al, sizeof al, "%g", j->co.alpha);
	add(&w, "--min-effect");
	add(&w, me);
	add(&w, "--alpha");
	add(&w, al);
	for (int i = 0; i < j->runargs.n; i++)
		add(&w, j->runargs.v[i]);
	run_child(w.v, j->errfile, "the plumb ab session");
	char *args[2] = { labels, strchr(labels, ',') + 1 };
	*strchr(labels, ',') = 0;
	struct side *pair = sides_load(args, 2, db, 0, npair);
	sides[0] = pair[0];
	sides[1] = pair[1];
	free(labels);
	free(db);
	free_words(&w);
	return pair;
}

/* Everything the looks made, and the private directory. */
static void bisect_job_free(struct bisect_job *j)
{
	for (size_t i = 0; i < j->ntested; i++)
		run_free(j->tested[i]);
	free(j->tested);
	if (j->base)
		sides_free(j->base, j->nbase);
	free_words(&j->runargs);
	free(j->errfile);
	free(j->names);
	free(j->mcopy);
	cleanup_run();
	free(j->dir);
}

/* --baseline: its runs, refused when a value is impossible (exit 128), the runs made beside
 * other work left out (none left: j->skip), and the watchdog's bound from its plan. */
static void baseline_load(struct bisect_job *j)
{
	char *arg = (char *)j->o.baseline, why[1200];
	j->base = sides_load(&arg, 1, j->o.ca.db, 0, &j->nbase);
	sides_load_history(j->base, j->nbase, j->o.ca.db);
	if (bisect_impossible(&j->base[0], j->names, j->nnames, why, sizeof why))
		die(EXIT_MEASURE, "the baseline %s", why);
	if (!bisect_quiet_baseline(&j->base[0]))
		snprintf(j->skip, sizeof j->skip, "every run of the baseline ran beside other work: "
			 "its numbers may read slow (measure it again on a quiet machine)");
	look_bound = bisect_bound(&j->base[0], j->runargs.v, j->runargs.n, look_bound_how,
				  sizeof look_bound_how);
}

static int bisect_work(int argc, char **argv)
{
	struct bisect_job j = { .o = { .sessions = 3 } };
	cmp_opts_default(&j.o.ca.o);
	j.o.ca.o.min_effect = NAN; /* the user says what size of regression is hunted */
	parse_bisect_args(argc, argv, &j);
	ssize_t sn = readlink("/proc/self/exe", j.self, sizeof j.self - 1);
	if (sn <= 0)
		die(EXIT_USAGE, "cannot find this binary (/proc/self/exe)");
	j.self[sn] = 0;
	j.b = j.o.b ? j.o.b : j.self;

	/* the baseline first: a wrong label is said before anything is measured */
	if (j.o.baseline)
		baseline_load(&j);
	j.dir = private_dir(NULL);
	if (!j.dir)
		die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
	cleanup_init(); /* at exit: no child and no directory left behind */
	catch_stop_signals(on_stop);
	signal(SIGPIPE, SIG_IGN);

	j.co = j.o.ca.o;
	j.co.alpha = j.o.ca.o.alpha / j.o.sessions; /* the looks share alpha */
	j.errfile = xasprintf("%s/child.err", j.dir);
	enum call c = UNDECIDED;
	for (int look = 1; look <= j.o.sessions && c == UNDECIDED && !j.skip[0]; look++) {
		if (stop_sig) { /* arrived while judging */
			warnx_("stopped by %s", signal_name(stop_sig));
			cleanup_run();
			exit(die_of_signal(stop_sig));
		}
		struct side sides[2];
		memset(sides, 0, sizeof sides);
		size_t npair = 0;
		struct side *pair = NULL;
		int judged = 1;
		if (j.o.baseline)
			judged = look_under_test(&j, look, sides);
		else
			pair = look_ab_session(&j, look, sides, &npair);
		char why[1200];
		for (int k = 0; pair && k < 2; k++)
			if (bisect_impossible(&sides[k], j.names, j.nnames, why, sizeof why))
				die(EXIT_MEASURE, "%s", why);
		if (judged)
			c = judge(sides, &j.co, j.names, j.nnames, look, j.o.sessions);
		if (pair)
			sides_free(pair, npair);
	}
	if (j.skip[0]) {
		printf("bisect-check: %s; skip this commit (exit %d)\n", j.skip, BISECT_SKIP);
		bisect_job_free(&j);
		return BISECT_SKIP;
	}
	bisect_job_free(&j);
	const char *what = c == WORSE ? "bad: worse by at least the minimum effect (exit 1)"
			 : c == NOT_WORSE ? "good: not worse (exit 0)"
					  : "undecided after every look: skip this commit (exit 125)";
	printf("bisect-check: %s\n", what);
	return c == WORSE ? BISECT_BAD : c == NOT_WORSE ? BISECT_GOOD : BISECT_SKIP;
}

/* ---- the parent: git's exit codes --------------------------------------------------------- */

static volatile pid_t worker;
static void pass_stop(int sig)
{
	if (worker > 0)
		kill(worker, sig);
}

int cmd_bisect_check(int argc, char **argv)
{
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		warnx_("fork: %s", strerror(errno));
		return BISECT_ABORT;
	}
	if (pid == 0) {
		/* this process gone (SIGKILL), nothing would stop the measuring */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(BISECT_ABORT);
		exit(bisect_work(argc, argv));
	}
	worker = pid;
	catch_stop_signals(pass_stop); /* a stop sent to this process alone reaches the worker */
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			warnx_("waitpid: %s", strerror(errno));
			return BISECT_ABORT;
		}
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) { /* stopped: say so as run does */
			signal(sig, SIG_DFL);
			return die_of_signal(sig);
		}
		warnx_("the measuring process died of %s: exit %d, so that git bisect run stops",
		       strsignal(sig), BISECT_ABORT);
		return BISECT_ABORT;
	}
	int code = WEXITSTATUS(st);
	if (code == BISECT_GOOD || code == BISECT_BAD || code == BISECT_SKIP)
		return code;
	warnx_("no verdict (exit %d): exit %d, so that git bisect run stops", code, BISECT_ABORT);
	return BISECT_ABORT;
}
