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
#include "cmd/ab_worker.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"
#include "suite/fit.h"


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

static void set_time_limit(const char *arg, void *field)
{
	double v = strcmp(arg, "0") == 0 ? 0 : parse_duration(arg);
	if (!(v >= 0) || v > 7 * 86400)
		die(EXIT_USAGE, "--time-limit: '%s' is not a duration (90s, 3m, 1h, or seconds)", arg);
	*(double *)field = v;
}

/* ab's own options; every other word is a run option given to both sides (run_options) */
const struct opt ab_options[] = {
	OPT_STRING(0, "a", struct ab_cli, a, "PREFIX",
		"side A's command line (default: this binary)"),
	OPT_STRING(0, "b", struct ab_cli, b, "PREFIX", "side B's command line (required)"),
	OPT_STRING(0, "label", struct ab_cli, labels, "A,B",
		"the two runs' labels (default A#SESSION,B#SESSION)"),
	OPT_GROUP(struct ab_cli, ca, compare_group),
	OPT_CALLBACK(0, "format", struct ab_cli, fmt, "F", set_format,
		"text (default), markdown, csv or json"),
	OPT_BOOL(0, "fail-on-regression", struct ab_cli, fail,
		"exit 1 when a point of B is significantly worse"),
	OPT_INT(0, "start-timeout", struct ab_cli, start_timeout, "SECONDS", 1, 86400, "seconds",
		"how long a side may take to print its plan before it is stopped (default 120)"),
	OPT_CALLBACK(0, "time-limit", struct ab_cli, time_limit, "D", set_time_limit,
		"after the first rounds, add rounds for the points still undecided while the "
		"session "
		"stays within D (90s, 3m, or seconds; default 180; 0: the first rounds only)"),
	OPT_INT(0, "seed", struct ab_cli, seed, "N", 1, 2147483647, NULL,
		"seed of the order of A and B within each pair "
		"(default: drawn, stored as ab_seed)"),
	OPT_BOOL(0, "no-store", struct ab_cli, no_store, "store neither run"),
	OPT_END,
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
