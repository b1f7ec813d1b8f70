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
#include <math.h>
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
#include "cmd/ab_setup.h"
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
	const char *a, *b, *labels, *json_dir;
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
		"exit 1 when a point of B is significantly worse (4: a side under emulation)"),
	OPT_BOOL(0, "wide", struct ab_cli, ca.o.wide,
		"text: every column (spreads, rounds, change at equal clock, detectable, noise)"),
	OPT_BOOL(0, "side", struct ab_cli, ca.o.side,
		"text: the side metrics per operation of every row (default: of changed rows)"),
	OPT_INT(0, "start-timeout", struct ab_cli, start_timeout, "SECONDS", 1, 86400, "seconds",
		"how long a side may take to print its plan before it is stopped (default 120)"),
	OPT_CALLBACK(0, "time-limit", struct ab_cli, time_limit, "D", set_time_limit,
		"the session's bound, the first rounds included (no step starts that would pass "
		"it); after them, rounds for the points still undecided (90s, 3m, or seconds; "
		"default 180; 0: the first rounds only, unbounded)"),
	OPT_INT(0, "seed", struct ab_cli, seed, "N", 1, 2147483647, NULL,
		"seed of the order of A and B within each pair "
		"(default: drawn, stored as ab_seed)"),
	OPT_BOOL(0, "no-store", struct ab_cli, no_store, "store neither run"),
	OPT_STRING(0, "json-dir", struct ab_cli, json_dir, "DIR",
		"also write the two runs as DIR/A.json and DIR/B.json (plumb JSON)"),
	OPT_END,
};

/* ---- the sequential session (docs/compare.md, "Sequential sessions") ---------------------- */

#define AB_TIME_LIMIT 180 /* s: a default session (every family) takes about this on a 2-vCPU guest */
#define AB_WATCH_SLACK 10 /* s past a side's own step bound before the side is stopped */
#define AB_SPEND_RHO "2"  /* alpha spent by look k: alpha * (rounds_k / rounds_last)^2 */
/* looks at these multiples of the first rounds: 16 (48 rounds by default) because on the 2-vCPU
 * guest a null call's rounds spread 15-20 % and 24 rounds found a +5 % change in about 6 rows
 * of 10 (bench/README.md, "plumb ab: power and A/A rates"); the time limit still bounds it */
static const int look_factor[] = { 1, 2, 4, 8, 16 };
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
	int *frozen;         /* per step: stopped for time (its points judged on what they have) */
	size_t nfrozen;
	double *cost;        /* per step: seconds both sides took in its last round */
	struct ab_point_map map;
	char looks[64], summary[400];
	char watchdog[600];  /* what the watchdog stopped, "" when nothing */
	uint64_t t_start, deadline; /* ns; deadline 0: none (--time-limit 0) */
	int cut;                    /* a round ended early: its next step would pass the deadline */
	size_t ran;                 /* steps run in the last round */
	int tty;                    /* stderr is a terminal: a progress line, rewritten */
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
	ss->frozen = xcalloc(ss->nsteps + 1, sizeof *ss->frozen);
	for (size_t i = 0; i < ss->nsteps; i++)
		ss->active[i] = 1;
}

/* Results of each worker after each step: which step made which point. */
struct step_ends {
	long *n[2];
};

/* The watchdog's bound on side w's step i, in seconds: the side's own bound on it (past which
 * it kills the step and answers) + AB_WATCH_SLACK; from a side that does not say (another plumb
 * version), 60 s + 20 x what the step took both sides last round; never past --time-limit. */
static double step_watch(const struct session *ss, const struct worker *w, size_t i)
{
	double b = 60 + 20 * ss->cost[i];
	for (size_t k = 0; k < w->nsteps; k++)
		if (!strcmp(w->steps[k], ss->steps[i]) && w->bound[k] > 0)
			b = w->bound[k] + AB_WATCH_SLACK;
	return ss->o->time_limit > 0 && b > ss->o->time_limit ? ss->o->time_limit : b;
}

/* The bound on a side's writing its run at the end of a round: a second's work, so a minute,
 * never past --time-limit. */
static double end_watch(const struct session *ss)
{
	return ss->o->time_limit > 0 && ss->o->time_limit < 60 ? ss->o->time_limit : 60;
}

/* Side w stopped: when the watchdog stopped it, the line it said, for the runs' facts. */
static void note_hung(struct session *ss, const struct worker *w)
{
	if (w->hung && !ss->watchdog[0])
		snprintf(ss->watchdog, sizeof ss->watchdog, "%s", w->hung);
}

/* On a terminal, where the session is: rewritten in place, cleared at the end (i: -1). */
static void show_progress(const struct session *ss, int r, long i)
{
	if (!ss->tty)
		return;
	if (i < 0) {
		fputs("\r\033[K", stderr);
		return;
	}
	double t = (double)(now_ns() - ss->t_start) / 1e9;
	char lim[48] = "";
	if (ss->deadline)
		snprintf(lim, sizeof lim, " of at most %.0f s", ss->o->time_limit);
	fprintf(stderr, "\r\033[Kab: round %d, step %ld of %zu (%.40s), %.0f s%s", r + 1, i + 1,
		ss->nsteps, ss->steps[i], t, lim);
	fflush(stderr);
}

/* One round on the two fresh workers: each active step on both sides back to back, the side
 * that goes first drawn for every pair; a step whose last time would pass the deadline ends
 * the round (ss->cut), the steps left unrun on both sides alike. -1 when a side stopped. */
static int session_round(struct session *ss, struct worker *w, struct step_ends *se, int r)
{
	for (size_t i = 0; i < ss->nsteps; i++)
		se->n[0][i] = se->n[1][i] = -1;
	for (size_t i = 0; i < ss->nsteps; i++) {
		if (!ss->active[i])
			continue;
		if (ss->deadline && now_ns() + (uint64_t)(ss->cost[i] * 1e9) > ss->deadline) {
			ss->cut = 1;
			return 0;
		}
		ss->ran = i + 1;
		show_progress(ss, r, (long)i);
		int first = ab_coin(&ss->rng);
		uint64_t t0 = now_ns();
		double b1 = step_watch(ss, &w[first], i), b2 = step_watch(ss, &w[!first], i);
		int who = run_on(&w[first], ss->steps[i], &se->n[first][i], b1) ? first
			  : run_on(&w[!first], ss->steps[i], &se->n[!first][i], b2) ? !first : -1;
		if (who >= 0 || ab_stop) {
			note_hung(ss, &w[first]);
			note_hung(ss, &w[!first]);
			/* a side alive but slow, stopped at the session's own limit: the time limit
			 * ended the session inside a step, what ran before it is kept */
			if (!ab_stop && w[who].salvaged && (who == first ? b1 : b2) >= ss->o->time_limit &&
			    ss->o->time_limit > 0) {
				se->n[0][i] = se->n[1][i] = -1;
				ss->ran = i; /* the steps before it */
				ss->cut = 1;
				return 0;
			}
			return -1;
		}
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
		/* the steady figure is the judged one: its batch mean keeps no step running */
		if (row->test[1].v != V_UNDECIDED || row->has_steady)
			continue;
		open++;
		int st = ab_point_step(&ss->map, row->metric, row->params, row->x);
		if (st >= 0) {
			ss->active[st] = !ss->frozen[st];
		} else {
			/* a point whose step is unknown (a side that does not say): every step */
			for (size_t k = 0; k < ss->nsteps; k++)
				ss->active[k] = !ss->frozen[k];
		}
	}
	cmp_free(t);
	return open;
}

/* Start a side's worker: PREFIX run [args] in worker mode; its start's bound is
 * --start-timeout, and for a later round's worker (its memory size given: no probe) never past
 * --time-limit. */
static void side_start(struct session *ss, struct worker *w, int side, char **args, int n)
{
	int t = ss->o->start_timeout;
	if (w->quiet && ss->o->time_limit > 0 && ss->o->time_limit < t)
		t = (int)ceil(ss->o->time_limit);
	start_worker(w, side ? ss->pb : ss->pa, side ? "--b" : "--a", args, n, ss->dir, t);
}

/* Start fresh workers for round r > 0: the first round's plan, its memory size fixed (the
 * knee probe is not repeated, and both sides keep measuring the same points). */
static void session_restart(struct session *ss, struct worker *w, const char *mem)
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
	for (int s = 0; s < 2; s++)
		side_start(ss, &w[s], s, args, n);
	free(args);
}

/* What a session keeps from round to round (session_run and its parts). */
struct progress {
	int look[NLOOKS];
	int r1;                  /* the first rounds: every step */
	int rounds, pooled, k;   /* rounds complete, rounds pooled, looks reached */
	int stopped, why;        /* why: 0 looks done, 1 every point decided, 2 time limit */
	size_t open;
	double *clocks[2];       /* each round's clock_mhz, per side */
	char mem[32];            /* the first round's memory size, for the later rounds */
	struct step_ends se;
	uint64_t t_start;
	double t_workers;        /* seconds to start the two workers of a later round */
};

/* What the session will cover and how long it may take, before it starts: one line. */
static void announce(const struct session *ss, int r1)
{
	char steps[160] = "";
	size_t l = 0;
	for (size_t i = 0; i < ss->nsteps && i < 3 && l < sizeof steps; i++)
		l += (size_t)snprintf(steps + l, sizeof steps - l, "%s%s", i ? ", " : "", ss->steps[i]);
	if (ss->nsteps > 3 && l < sizeof steps)
		snprintf(steps + l, sizeof steps - l, ", ...");
	if (ss->deadline)
		warnx_("%zu steps (%s) on both sides, %d round%s of every step, then rounds of the "
		       "undecided points; at most %.0f s (--time-limit): a step that would pass it "
		       "is not started", ss->nsteps, steps, r1, r1 == 1 ? "" : "s",
		       ss->o->time_limit);
	else
		warnx_("%zu steps (%s) on both sides, %d round%s of every step (--time-limit 0: "
		       "no more rounds, no time bound)", ss->nsteps, steps, r1, r1 == 1 ? "" : "s");
}

/* The first workers started: their plans give the first rounds, the looks and the steps. */
static void session_begin(struct session *ss, struct worker *w, struct progress *p)
{
	p->t_start = ss->t_start = now_ns();
	if (ss->o->time_limit > 0)
		ss->deadline = ss->t_start + (uint64_t)(ss->o->time_limit * 1e9);
	ss->tty = isatty(2);
	for (int s = 0; s < 2; s++)
		side_start(ss, &w[s], s, ss->runargs, ss->nrun);
	p->r1 = w[0].rounds > w[1].rounds ? w[0].rounds : w[1].rounds;
	if (p->r1 < 1)
		p->r1 = 1;
	size_t l = 0;
	for (int k = 0; k < NLOOKS; k++) {
		p->look[k] = p->r1 * look_factor[k];
		l += (size_t)snprintf(ss->looks + l, sizeof ss->looks - l, "%s%d", k ? "," : "",
				      p->look[k]);
	}
	session_steps(ss, w);
	announce(ss, p->r1);
	p->pooled = 1;
	for (int s = 0; s < 2; s++) {
		p->se.n[s] = xcalloc(ss->nsteps + 1, sizeof(long));
		p->clocks[s] = xcalloc((size_t)p->look[NLOOKS - 1], sizeof(double));
	}
}

/* Round r's worker of side s ended: its run pooled into the side's session run. */
static void collect_side(struct session *ss, struct worker *w, struct run **run, int s, int r,
			 struct progress *p)
{
	struct run *one = finish_worker(&w[s], end_watch(ss));
	note_hung(ss, &w[s]);
	if (ab_stop || !one) {
		run_free(one);
		p->stopped = 1;
		return;
	}
	if (ss->map.n == 0 || r == 0)
		learn_points(ss, one, p->se.n[s]);
	const char *c = kv_get(&one->facts, "clock_mhz");
	p->clocks[s][r] = c ? atof(c) : 0;
	if (!run[s]) {
		/* the first round's run as it is (its samples are round 0): the session's run of
		 * this side, later rounds pooled into it */
		const char *m = kv_get(&one->facts, "mem_series_bytes");
		if (m && !p->mem[0] && strlen(m) < sizeof p->mem)
			snprintf(p->mem, sizeof p->mem, "%s", m);
		run[s] = one;
		return;
	}
	ab_pool_round(run[s], one, r);
	p->pooled = r + 1;
	run_free(one);
}

/* After a complete round: a look when one is due; 0 to go on, 1 to end the session. */
static int after_round(struct session *ss, struct run **run, struct progress *p)
{
	if (p->rounds == p->look[p->k]) {
		p->open = session_look(ss, run);
		p->k++;
		if (!p->open) {
			p->why = 1;
			return 1;
		}
	}
	if (p->rounds < p->r1)
		return 0;
	/* the next round fits the time limit, its dearest undecided steps stopped if need be? */
	double left = ss->o->time_limit - (double)(now_ns() - p->t_start) / 1e9;
	if (ab_fit_round(ss->active, ss->frozen, ss->cost, ss->nsteps, left - p->t_workers,
			 &ss->nfrozen) != 0) {
		p->why = 2;
		return 1;
	}
	return 0;
}

/* The session's end: each side's run closed with its facts, the summary line written. */
static void session_end(struct session *ss, struct run **run, struct progress *p)
{
	char fz[96];
	if (!ab_stop && run[0] && run[1]) {
		if (p->stopped)
			p->rounds = p->pooled; /* a side stopped in the middle of a round */
		for (int s = 0; s < 2; s++) {
			ab_close_side(run[s], p->rounds, p->clocks[s], (size_t)p->rounds);
			session_facts(ss, run[s], s);
			char b[16];
			snprintf(b, sizeof b, "%d", p->rounds);
			kv_set(&run[s]->facts, "ab_rounds", b);
			if (ss->watchdog[0])
				kv_set(&run[s]->facts, "watchdog", ss->watchdog);
		}
	}
	char cut[160] = "";
	if (ss->cut && p->rounds <= p->r1) /* the first rounds did not fit: say how to fit them */
		snprintf(cut, sizeof cut, " in round %d after %zu of %zu steps: raise --time-limit "
			 "or choose families with --only", p->rounds, ss->ran, ss->nsteps);
	snprintf(ss->summary, sizeof ss->summary,
		 "sequential session: %d round(s) on fresh workers, looks at rounds %s, %d reached; "
		 "%s%s%s (%.0f s; order seed %llu)", p->rounds, ss->looks, p->k,
		 ss->watchdog[0] && !ss->cut ? "a side stopped by the watchdog" :
		 p->stopped ? "a side stopped" :
		 p->why == 1 ? "every point decided" : p->why == 2 ? "stopped by --time-limit" :
		 "the last look reached", cut, ab_frozen_note(ss->nfrozen, fz, sizeof fz),
		 (double)(now_ns() - p->t_start) / 1e9, (unsigned long long)ss->seed);
	for (int s = 0; s < 2; s++) {
		free(p->se.n[s]);
		free(p->clocks[s]);
	}
	for (size_t i = 0; i < ss->nsteps; i++)
		free(ss->steps[i]);
	free(ss->steps);
	free(ss->active);
	free(ss->frozen);
	free(ss->cost);
	ab_map_free(&ss->map);
}

/* The whole session: round after round, each on fresh workers; the first rounds run every
 * step; at each look the points still undecided decide what the next rounds run, while the
 * time limit allows. run[2] gets each side's pooled run. Returns 1 when a side stopped. */
static int session_run(struct session *ss, struct worker *w, struct run **run)
{
	struct progress p = { 0 };
	session_begin(ss, w, &p);
	for (int r = 0; r < p.look[NLOOKS - 1]; r++) {
		if (r > 0) {
			uint64_t t0 = now_ns();
			session_restart(ss, w, p.mem[0] ? p.mem : NULL);
			p.t_workers = (double)(now_ns() - t0) / 1e9;
			if (w[0].hung || w[1].hung) { /* the watchdog stopped a start */
				for (int s = 0; s < 2; s++) {
					note_hung(ss, &w[s]);
					run_free(finish_worker(&w[s], end_watch(ss)));
				}
				p.stopped = 1;
				break;
			}
		}
		p.stopped = session_round(ss, w, &p.se, r) != 0;
		show_progress(ss, r, -1);
		if (ab_stop)
			break;
		for (int s = 0; s < 2; s++)
			collect_side(ss, w, run, s, r, &p);
		if (p.stopped || ab_stop)
			break;
		p.rounds = r + 1;
		if (ss->cut) { /* the time limit, inside a round: what ran is kept */
			p.why = 2;
			break;
		}
		if (after_round(ss, run, &p))
			break;
	}
	session_end(ss, run, &p);
	return p.stopped;
}

/* ---- the command ------------------------------------------------------------------------ */

static const char ab_default_labels[] = "A,B";

/* ab's options into o, every other word into runargs (a run option: both sides get it). */
static char **parse_args(int argc, char **argv, struct ab_cli *o, int *nrun)
{
	char **runargs = xcalloc((size_t)argc + 1, sizeof *runargs);
	int used;
	*nrun = 0;
	for (int i = 1; i < argc; i += used) {
		used = 1;
		if (command_word("ab", ab_options, argv, argc, i, o, &used))
			continue;
		if (!strcmp(argv[i], "-o") || !strncmp(argv[i], "--output", 8) ||
		    !strcmp(argv[i], "--json") || !strcmp(argv[i], "--dry-run") ||
		    !strncmp(argv[i], "--ab-worker", 11))
			die(EXIT_USAGE, "%s is not an option of plumb ab (try 'plumb ab --help')", argv[i]);
		runargs[(*nrun)++] = argv[i];
	}
	if (!o->b)
		die(EXIT_USAGE, "needs --b 'PREFIX' (try 'plumb ab --help')");
	return runargs;
}

/* The session's runs labelled (default labels name the session, so two sessions' A runs
 * never pool by label) and marked incomplete when a side stopped. */
static void label_runs(const struct ab_cli *o, const struct session *ss, struct worker *w,
		       struct run **run, int stopped)
{
	for (int s = 0; s < 2; s++) {
		free(run[s]->label);
		run[s]->label = o->labels == ab_default_labels ? xasprintf("%s#%s", w[s].name, ss->sid)
							       : xstrdup(w[s].name);
		if (stopped)
			run[s]->incomplete = 1;
	}
}

/* The comparison as `plumb compare` prints it; 1 when --fail-on-regression finds a worse point
 * (EXIT_NOT_JUDGED when the sides ran on different machines: an emulated side). */
static int print_comparison(const struct ab_cli *o, char *lab, char *lab_b, struct run **run)
{
	struct side sides[2] = { { lab, &run[0], 1, NULL, 0 }, { lab_b, &run[1], 1, NULL, 0 } };
	struct cmp_table *t = cmp_build(sides, 2, &o->ca.o);
	for (size_t i = 0; i < t->nwarnings; i++)
		warnx_("warning: %s", t->warnings[i]);
	cmp_print(stdout, t, o->fmt);
	int worse = o->fail && cmp_regressions(t) > 0;
	char why[1400];
	if (worse && sides_not_judged(sides, 2, why, sizeof why)) {
		warnx_("--fail-on-regression: %zu worse point(s) not taken for a regression: %s "
		       "(exit %d)", cmp_regressions(t), why, EXIT_NOT_JUDGED);
		worse = EXIT_NOT_JUDGED;
	}
	cmp_free(t);
	return worse;
}

int cmd_ab(int argc, char **argv)
{
	struct ab_cli o = { .labels = ab_default_labels, .fmt = CF_TEXT, .start_timeout = 120,
			    .time_limit = AB_TIME_LIMIT };
	cmp_opts_default(&o.ca.o);
	int nrun;
	char **runargs = parse_args(argc, argv, &o, &nrun);
	char self[4096], *lab;
	const char *pa = ab_side_a(o.a, self, sizeof self);
	char *lab_b = ab_split_labels(o.labels, &lab);
	struct session ss = { .pa = pa, .pb = o.b, .runargs = runargs, .nrun = nrun, .o = &o };
	/* this binary is running, so side A by default can run: access() of its path would ask
	 * more (every directory above it searchable by this user, which a user given the program
	 * in a directory they cannot list lacks) */
	if (o.a)
		check_prefix(pa, "--a");
	check_prefix(o.b, "--b");
	int no_sqlite = ab_store_missing(o.no_store, o.ca.db);
	char *dir = private_dir(NULL);
	if (!dir)
		die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
	ab_dir = dir;
	ab_catch_stops();
	struct worker w[2] = { { .name = lab, .from = -1 }, { .name = lab_b, .from = -1 } };
	all_workers = w;
	char sid[64]; /* the pairing: one session id, each run's side */
	snprintf(sid, sizeof sid, "%lx-%lx", (unsigned long)time(NULL), (unsigned long)getpid());
	ss.sid = sid;
	ss.dir = dir;
	ss.seed = ss.rng = o.seed ? (uint64_t)o.seed
			 : (uint64_t)(now_ns() ^ ((uint64_t)getpid() << 20)) % 2147483647 + 1;
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
	label_runs(&o, &ss, w, run, stopped);
	if (no_sqlite)
		warnx_("warning: runs not stored: " STORE_NO_SQLITE_MSG);
	int stored = no_sqlite || o.no_store ? 0 : ab_store_session(o.ca.db, run, sid);
	if (o.json_dir && ab_write_session(o.json_dir, run) != 0)
		stored = -1;
	if (ab_stop) /* during the save: it is complete (one transaction), the rest is skipped */
		ab_stopped(stored > 0 ? "the session was stored, not compared" : "nothing stored");
	int worse = print_comparison(&o, lab, lab_b, run);
	for (int s = 0; s < 2; s++) {
		run_free(run[s]);
		free_worker(&w[s]);
	}
	free(lab);
	free(runargs);
	return stopped || stored < 0 ? EXIT_MEASURE : worse;
}
