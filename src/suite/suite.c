/*
 * suite.c — `plumb run`: the whole suite, unattended. Builds the plan (plan.c, select.c) for
 * the profile and the machine, runs each step in its own child (step.c) so a crash or a hang
 * costs one benchmark and not the run, records every sample with the system facts and the
 * options into one struct run, then stores it (results/store.h), writes it (results/io.h) and
 * prints the summary (analysis/summary.h). Ctrl-C / SIGTERM stop cleanly: the running child
 * and its helpers die, temporary directories go, what was measured is saved marked incomplete,
 * and the exit status is 128 + the signal. Documented in docs/suite.md.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "analysis/summary.h"
#include "bench/tool.h"
#include "suite/noise.h"
#include "suite/step.h"
#include "suite/run.h"
#include "suite/suite.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/io.h"
#include "results/run.h"
#include "results/store.h"

volatile sig_atomic_t suite_stop_sig;

static void on_stop(int sig)
{
	if (!suite_stop_sig)
		suite_stop_sig = sig;
}

static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define NSTOP ((int)(sizeof stop_sigs / sizeof stop_sigs[0]))

/* The parent only notes the signal; the loop stops the child and saves. The child gets the
 * handlers back that clean up and re-raise. */
static void install_stop_handlers(void)
{
	struct sigaction sa, old[NSTOP];
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigfillset(&sa.sa_mask);
	for (int i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &sa, &old[i]);
	step_set_child_sigactions(old, stop_sigs, NSTOP);
}

/* ---- small helpers ---------------------------------------------------------------------------- */

static char *iso_now(char *buf, size_t len, int compact)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

static void tick(void *p)
{
	progress_draw(p);
}

static void cost_note(struct costs *c, const struct tool *t, double est, double real)
{
	int i;
	for (i = 0; i < c->n && c->t[i] != t; i++)
		;
	if (i == c->n && c->n < 128)
		c->t[c->n++] = t;
	if (i < 128) {
		c->est[i] += est;
		c->real[i] += real;
	}
	c->est_all += est;
	c->real_all += real;
}

static double cost_scale(const struct costs *c, const struct tool *t)
{
	for (int i = 0; i < c->n; i++)
		if (c->t[i] == t && c->est[i] > 0.2)
			return c->real[i] / c->est[i];
	return c->est_all > 2 ? c->real_all / c->est_all : 1.0;
}

/* ---- the run ---------------------------------------------------------------------------------- */

/* The watchdog's bound on a step, in seconds: --timeout, else k x its planner estimate and an
 * allowance for its start (30 + 10 x; the full profile 60 + 20 x), never past --time-limit; how
 * says which. */
static double step_bound(const struct suite_plan *P, const struct step *s, char *how, size_t len)
{
	int full = P->o.profile == PROF_FULL;
	double b = P->o.timeout ? P->o.timeout : full ? 60 + 20 * s->est_s : 30 + 10 * s->est_s;
	if (P->o.timeout)
		snprintf(how, len, "--timeout");
	else
		snprintf(how, len, "%s x its %.1f s estimate", full ? "60 + 20" : "30 + 10", s->est_s);
	if (P->o.time_limit > 0 && b > P->o.time_limit) {
		b = P->o.time_limit;
		snprintf(how, len, "--time-limit");
	}
	return b;
}

/* The step's values no machine gives, left out as they joined the run (step.h): one line. */
static void note_refused(struct suite_run *R, const char *label, const struct step_outcome *oc)
{
	if (!oc->nrefused)
		return;
	char w[600];
	snprintf(w, sizeof w, "%s: left out %d result%s of impossible values: %s%s", label,
		 oc->nrefused, oc->nrefused == 1 ? "" : "s", oc->refused,
		 oc->nrefused > 1 ? ", ..." : "");
	run_warn("%s", w);
	sb_add(&R->warnings, " | ", w);
}

static void describe_failure(const struct suite_plan *P, const struct sel *x,
			     const struct step_outcome *oc, char *buf, size_t len)
{
	const char *last = oc->nlines ? oc->lines[oc->nlines - 1] : NULL;
	char how[64];
	double bound = step_bound(P, x->s, how, sizeof how);
	if (oc->timed_out)
		snprintf(buf, len, "%s: stopped by the watchdog after %.1f s, past its bound of %.0f s "
			 "(%s); its process group was killed", x->s->label, oc->seconds, bound, how);
	else if (oc->status >= 0 && WIFSIGNALED(oc->status))
		snprintf(buf, len, "%s: died of %s%s%s", x->s->label, signal_name(WTERMSIG(oc->status)),
			 last ? ": " : "", last ? last : "");
	else if (oc->status >= 0 && WIFEXITED(oc->status) && WEXITSTATUS(oc->status))
		snprintf(buf, len, "%s: failed (exit %d)%s%s", x->s->label, WEXITSTATUS(oc->status),
			 last ? ": " : "", last ? last : "");
	else
		snprintf(buf, len, "%s: sent no results%s%s", x->s->label, last ? ": " : "",
			 last ? last : "");
}

static void fact_num(struct run *r, const char *key, const char *fmt, double v)
{
	char buf[64];
	snprintf(buf, sizeof buf, fmt, v);
	kv_set(&r->facts, key, buf);
}

/* The run's rounds: the cheap OS latencies (STEP_OS_ROUNDS) run in every one, every other step
 * in the first of each os_factor of them, so that its rounds stay spread over the run. A side
 * of plumb ab has a factor of 1 (select.c): its parent decides every step's rounds. */
static int os_factor(const struct suite_plan *P)
{
	return P->plan.os_factor > 1 ? P->plan.os_factor : 1;
}

static int total_rounds(const struct suite_plan *P)
{
	return P->o.repeat * os_factor(P);
}

static int runs_in(const struct suite_plan *P, size_t i, int round)
{
	return (P->sel[i].s->flags & STEP_OS_ROUNDS) || round % os_factor(P) == 0;
}

/* The run's identity and the facts known before it starts. */
/* The plan is not const here: the placement's description is completed on first use and the
 * clock watch measures through the run's timing context. */
static void record_start(struct suite_plan *P, struct suite_run *R)
{
	struct run *run = R->run;
	char ts[40];
	run->started = xstrdup(iso_now(ts, sizeof ts, 0));
	run->profile = xstrdup(profile_name(P->o.profile));
	run->source = xstrdup("plumb");
	run_set_new_uid(run); /* its identity wherever it is copied to (issue 11 item 6) */
	run->rounds = total_rounds(P);
	if (os_factor(P) > 1) { /* the steps not marked ran in 1 of each os_factor rounds */
		char k[16];
		snprintf(k, sizeof k, "%d", os_factor(P));
		kv_set(&run->facts, "os_round_factor", k);
	}
	if (P->o.label)
		run->label = xstrdup(P->o.label);
	struct fact *facts = xcalloc(SYSINFO_MAX_FACTS, sizeof *facts);
	int nf = sysinfo_facts(facts, SYSINFO_MAX_FACTS);
	for (int i = 0; i < nf; i++)
		kv_set(&run->facts, facts[i].key, facts[i].val);
	free(facts);
	const char *h = kv_get(&run->facts, "hostname");
	run->host = xstrdup(h ? h : "unknown");
	fact_num(run, "copies", "%.0f", P->o.copies);
	fact_num(run, "mem_series_bytes", "%.0f", (double)P->mem);
	kv_set(&run->facts, "mem_series_reason", P->mem_how);
	fact_num(run, "plan_budget_s", "%.0f", P->fit.budget);
	fact_num(run, "plan_estimate_s", "%.0f", P->fit.est);
	char fd[1200];
	fit_desc(P, fd, sizeof fd);
	if (fd[0]) {
		kv_set(&run->facts, "plan_fit", fd);
		run_warn("to fit the %.0f s budget: %s", P->fit.budget, fd);
	}
	fact_num(run, "file_bytes", "%.0f", (double)P->file_bytes);
	fact_num(run, "line_size", "%.0f", P->line);
	fact_num(run, "samples", "%.0f", P->reps);
	if (P->timing.opts.max_samples) {
		fact_num(run, "max_samples", "%.0f", P->timing.opts.max_samples);
		fact_num(run, "target_ci", "%g", P->timing.opts.target_ci);
	}
	kv_set(&run->facts, "placement", cpu_policy_desc(&P->timing.place));
	run_noise_check(run, run_warn, !P->ab_worker);
	R->clock.timing = &P->timing;
	clock_watch_start(&R->clock, run, 8, run_warn);
	if (P->o.remote)
		kv_set(&run->facts, "remote", P->o.remote);
	if (P->o.cold) {
		R->can_cold = geteuid() == 0;
		if (!R->can_cold)
			run_warn("--cold needs root to drop the page cache: file benchmarks run with a warm cache");
		kv_set(&run->facts, "cold", R->can_cold ? "yes" : "no (not root)");
	}
}

/* One step of one round. Returns -1 when the run must stop (a signal). */
/* What a step's outcome says, in the run's counts, warnings, failures and watchdog lines. */
static void note_outcome(const struct suite_plan *P, struct suite_run *R, const struct sel *x,
			 const struct step_outcome *oc, int rc)
{
	note_refused(R, x->s->label, oc);
	if (oc->stopped) {
		/* interrupted: not the step's fault, nothing to report */
	} else if (rc == 0) {
		R->nok++;
		for (int k = 0; k < oc->nlines; k++) {
			char w[600];
			snprintf(w, sizeof w, "%s: %s", x->s->label, oc->lines[k]);
			if (k < 3)
				run_warn("%s", w);
			sb_add(&R->warnings, " | ", w);
		}
	} else {
		char why[800];
		describe_failure(P, x, oc, why, sizeof why);
		run_warn("%s", why);
		sb_add(&R->failed, "; ", why);
		if (oc->timed_out)
			sb_add(&R->watchdog, "; ", why);
		R->nfailed++;
		if (oc->timed_out || (oc->status >= 0 && WIFSIGNALED(oc->status)))
			R->run->incomplete = 1;
	}
}

static int run_one(const struct suite_plan *P, struct suite_run *R, int round, size_t i)
{
	const struct sel *x = &P->sel[i];
	const struct step *s = x->s;
	if ((s->flags & STEP_FILE) && access(P->file, F_OK) != 0 &&
	    make_file(P->file, P->file_bytes) != 0 && !suite_stop_sig)
		run_warn("cannot write %s: %s", P->file, strerror(errno));
	if (suite_stop_sig)
		return -1;
	if (R->can_cold && (s->flags & STEP_COLD))
		drop_caches();

	char label[160];
	if (total_rounds(P) > 1)
		snprintf(label, sizeof label, "round %d/%d: %s", round + 1, total_rounds(P), s->label);
	else
		snprintf(label, sizeof label, "%s", s->label);
	double rest = 0;
	for (int r2 = round; r2 < total_rounds(P); r2++)
		for (size_t k = r2 == round ? i + 1 : 0; k < P->nsel; k++)
			if (runs_in(P, k, r2))
				rest += P->sel[k].s->est_s * cost_scale(&R->costs, P->sel[k].t);
	clock_watch_probe(&R->clock); /* the clock this step starts on (clock_watch.h) */
	progress_start(&R->prog, label, s->est_s * cost_scale(&R->costs, x->t), rest);

	/* argv copy: the tool's getopt permutes it. */
	char **av = xcalloc((size_t)s->argc + 1, sizeof *av);
	for (int k = 0; k < s->argc; k++)
		av[k] = s->argv[k];
	char how[64];
	double timeout = step_bound(P, s, how, sizeof how);
	struct step_env env = {
		.tmpdir = P->rundir, .fsdir = P->fsrun, .timing = &P->timing, .round = round,
		.timeout_s = timeout,
		.stop = &suite_stop_sig, .tick = tick, .tick_arg = &R->prog,
		.remote = (s->flags & STEP_REMOTE) ? P->o.remote : NULL,
	};
	struct step_outcome oc;
	contention_before(&R->busy);
	int rc = step_exec(x->t, s->argc, av, &env, R->run, &oc);
	if (!oc.stopped)
		contention_after(&R->busy, label);
	free(av);
	progress_finish(&R->prog);
	cost_note(&R->costs, x->t, s->est_s, oc.seconds);
	char tm[220];
	snprintf(tm, sizeof tm, "%s=%.2f", s->label, oc.seconds);
	sb_add(&R->times, "; ", tm);
	int stopped = oc.stopped;
	note_outcome(P, R, x, &oc, rc);
	step_outcome_free(&oc);
	/* A killed child cannot clean up after itself. */
	sweep(P->rundir, "XXX");
	if (P->fsrun != P->rundir)
		sweep(P->fsrun, "XXX");
	if (i == P->last_file)
		unlink(P->file);
	return stopped ? -1 : 0;
}

static void run_all(const struct suite_plan *P, struct suite_run *R)
{
	R->tty = isatty(2);
	int steps = 0;
	for (int round = 0; round < total_rounds(P); round++)
		for (size_t i = 0; i < P->nsel; i++)
			steps += runs_in(P, i, round);
	progress_init(&R->prog, R->tty, steps);
	progress_current = &R->prog;
	R->t_start = now_ns();
	for (int round = 0; round < total_rounds(P) && !suite_stop_sig; round++)
		for (size_t i = 0; i < P->nsel && !suite_stop_sig; i++)
			if (runs_in(P, i, round) && run_one(P, R, round, i) != 0)
				break;
	progress_clear(&R->prog);
	progress_current = NULL;
}

/* Facts from what ran. */
static void record_end(const struct suite_plan *P, struct suite_run *R)
{
	struct run *run = R->run;
	char ts[40];
	run->ended = xstrdup(iso_now(ts, sizeof ts, 0));
	if (suite_stop_sig) {
		run->incomplete = 1;
		kv_set(&run->facts, "stopped_by", signal_name(suite_stop_sig));
	}
	for (size_t i = 0; i < run->results.n; i++) {
		const struct metric_def *d = metric_find(run->results.v[i].metric);
		if (d && d->run_fact && !isnan(run->results.v[i].value))
			fact_num(run, d->run_fact, d->vfmt, run->results.v[i].value);
	}
	clock_watch_end(&R->clock, run, run_warn);
	contention_end(&R->busy, run, run_warn);
	char steps[160];
	snprintf(steps, sizeof steps, "%d ok, %d failed, %d not built in", R->nok, R->nfailed,
		 P->nabsent);
	kv_set(&run->facts, "steps", steps);
	if (P->skipped.items)
		kv_set(&run->facts, "not_built_in", P->skipped.s);
	if (R->failed.items)
		kv_set(&run->facts, "failed", R->failed.s);
	if (R->warnings.items)
		kv_set(&run->facts, "warnings", R->warnings.s);
	if (R->watchdog.items)
		kv_set(&run->facts, "watchdog", R->watchdog.s);
	if (R->times.items)
		kv_set(&run->facts, "step_seconds", R->times.s); /* where the time goes (bench/) */
	if (P->absent.n && !suite_stop_sig)
		run_warn("%d benchmark(s) not built in, %d step(s) skipped: %s", P->absent.n,
			 P->nabsent, P->skipped.s);
}

/* Where a run goes that the store did not take: ./plumb-run-HOST-DATE.json. 0 when written. */
static int rescue_file(const struct run *run, struct suite_report *K, char *name, size_t namelen,
		       char *err, size_t errlen)
{
	char ts[40];
	snprintf(name, namelen, "plumb-run-%s-%s.json", run->host, iso_now(ts, sizeof ts, 1));
	if (run_save_file(run, name, FMT_JSON, err, errlen))
		return -1;
	K->kept = 1;
	size_t l = strlen(K->where);
	snprintf(K->where + l, sizeof K->where - l, "%swritten to ./%s", l ? ", " : "", name);
	return 0;
}

/*
 * Keep the run: the file asked for, and the store. A plumb built without SQLite has no store:
 * with no -o the run goes to a file here, said in one line (a small board's usual way). A store
 * that exists in this build and fails (not writable, full, unreachable) is an error naming it,
 * exit status 3; so that nothing measured is lost, the run is then also written to a file here
 * when no -o file holds it, and the message says where.
 */
static void keep(const struct run_opts *o, struct run *run, struct suite_report *K)
{
	char err[512], fb[300], err2[512];
	if (o->output) {
		if (run_save_file(run, o->output, o->file_fmt, err, sizeof err) == 0) {
			K->kept = 1;
			snprintf(K->where, sizeof K->where, "written to %s", o->output);
		} else {
			run_warn("%s", err);
			K->save_failed = 1;
		}
	}
	if (o->no_store)
		return;
	struct store *st = store_open(o->db, STORE_CREATE, err, sizeof err);
	if (!st && !o->db && !getenv("PLUMB_DB") && strstr(err, STORE_NO_SQLITE_MSG)) {
		if (o->output)
			return;
		if (rescue_file(run, K, fb, sizeof fb, err2, sizeof err2) == 0) {
			run_warn("no results store in this build: run saved to ./%s", fb);
		} else {
			run_warn("no results store in this build and %s", err2);
			K->save_failed = 1;
		}
		return;
	}
	if (st && store_save(st, run, err, sizeof err) == 0) {
		K->kept = 1;
		size_t l = strlen(K->where);
		/* the id (and label) a user types to reopen the run */
		char lab[RUN_TEXT_MAX * 4 + 16] = "";
		if (run->label)
			snprintf(lab, sizeof lab, " (label %s)", run->label);
		snprintf(K->where + l, sizeof K->where - l, "%sstored as run %ld%s in %s", l ? ", " : "",
			 run->id, lab, store_name(st));
		K->stored_id = run->id;
		store_close(st);
		return;
	}
	if (st)
		store_close(st);
	/* err names the store (store.h) */
	K->save_failed = 1;
	if (o->output && K->kept) {
		run_warn("error: the run is not in the results store: %s; it is in %s only", err,
			 o->output);
	} else if (rescue_file(run, K, fb, sizeof fb, err2, sizeof err2) == 0) {
		run_warn("error: the run is not in the results store: %s; it is saved to ./%s "
			 "instead (plumb import --db STORE ./%s stores it later)", err, fb, fb);
	} else {
		run_warn("error: the run is not in the results store: %s, and %s: it is lost", err,
			 err2);
		K->kept = 0;
	}
}

/* stdout: the summary, or the run as JSON / lmbench text. */
static void report(const struct suite_plan *P, const struct suite_run *R,
		   struct suite_report *K)
{
	struct run *run = R->run;
	fflush(stderr);
	if (P->o.fmt == OUT_JSON || P->o.fmt == OUT_LMBENCH) {
		int json = P->o.fmt == OUT_JSON;
		if ((json ? run_write_json(run, stdout) : run_write_lmbench(run, stdout)) != 0) {
			run_warn("cannot print the run as %s here (writer not available)",
				 json ? "JSON" : "lmbench text");
			K->save_failed = 1;
		}
	} else {
		/* through a buffer, so a label or host name with bytes that are not UTF-8 prints valid */
		struct run *rv[1] = { run };
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (m) {
			summary_print(m, rv, 1);
			fclose(m);
			utf8_fputs(stdout, buf);
			free(buf);
		}
	}
	fflush(stdout);
	/* where the run went, on a terminal or not: its id is what every other command takes */
	char reopen[64] = "";
	if (K->stored_id)
		snprintf(reopen, sizeof reopen, "; plumb report %ld", K->stored_id);
	if (R->tty && K->kept) {
		double el = (double)(now_ns() - R->t_start) / 1e9;
		run_warn("%zu results in %d:%02d; %s%s", run->results.n, (int)el / 60, (int)el % 60,
			 K->where, reopen);
	} else if (K->kept) {
		run_warn("%s%s", K->where, reopen);
	}
}

static void suite_free(struct suite_plan *P, struct suite_run *R)
{
	free(R->failed.s);
	free(R->watchdog.s);
	free(R->warnings.s);
	free(P->skipped.s);
	free(R->times.s);
	free(P->sel);
	plan_free(&P->plan);
	run_free(R->run);
	free(P->file);
	free(P->o.only);
	free(P->o.skip);
	cleanup_run(); /* the private directories (registered) */
	if (P->fsrun != P->rundir)
		free(P->fsrun);
	free(P->rundir);
	free(P);
	free(R);
}

/* `plumb ab`'s side (cmd/ab.c): the parent decides which step of which round runs when, so
 * that both sides run each step back to back. Lines on stdout: "rounds N", "step LABEL" per
 * step, "bound I SECONDS" per step (its watchdog's bound), "ready"; then for each "run ROUND INDEX" read from stdin the step runs and "done N" is
 * written, N the results the run holds so far ("stop" when interrupted). At "end" or end of input the run is written as plumb JSON
 * to path — the documented format the parent reads — and "saved" or "failed" is written. */
static int serve_ab(const struct suite_plan *P, struct suite_run *R, const char *path)
{
	FILE *in = stdin, *out = stdout;
	fprintf(out, "rounds %d\n", P->o.repeat);
	for (size_t i = 0; i < P->nsel; i++)
		fprintf(out, "step %s\n", P->sel[i].s->label);
	/* each step's watchdog bound here, so that the parent's outlasts it (a parent of another
	 * version ignores these lines) */
	for (size_t i = 0; i < P->nsel; i++) {
		char how[64];
		fprintf(out, "bound %zu %.1f\n", i, step_bound(P, P->sel[i].s, how, sizeof how));
	}
	fprintf(out, "ready\n");
	fflush(out);
	progress_init(&R->prog, 0, (int)P->nsel * P->o.repeat);
	R->t_start = now_ns();
	char line[256];
	while (!suite_stop_sig && fgets(line, sizeof line, in)) {
		int round;
		size_t idx;
		if (sscanf(line, "run %d %zu", &round, &idx) == 2 && idx < P->nsel && round >= 0 &&
		    round < P->o.repeat) {
			int rc = run_one(P, R, round, idx);
			/* "done N": the run's results so far, so that the parent knows which
			 * points the step made (a parent that wants "done" alone reads a word) */
			if (rc)
				fprintf(out, "stop\n");
			else
				fprintf(out, "done %zu\n", R->run->results.n);
			fflush(out);
		} else {
			break; /* "end" */
		}
	}
	record_end(P, R);
	char err[512];
	int ok = run_save_file(R->run, path, FMT_JSON, err, sizeof err) == 0;
	if (!ok)
		run_warn("%s", err);
	fprintf(out, "%s\n", ok ? "saved" : "failed");
	fflush(out);
	return ok ? 0 : EXIT_MEASURE;
}

int suite_main(const struct run_opts *o, struct run *run, const char *ab_path)
{
	/* the run's three parts, each passed to the phases that read or fill it */
	struct suite_plan *P = xcalloc(1, sizeof *P);
	struct suite_run *R = xcalloc(1, sizeof *R);
	struct suite_report K = { 0 };
	P->o = *o;
	R->run = run;
	/* Until the steps run (planning, the knee probe, the noise check) a stop ends the run
	 * from the cleanup handler, which says so; a side of ab stays quiet (ab says it). */
	if (!ab_path)
		cleanup_announce_stops();
	else
		cleanup_init();
	P->ab_worker = ab_path != NULL;
	if (ab_path) {
		if (P->o.output || P->o.fmt != OUT_TEXT || P->o.dry_run)
			die(EXIT_USAGE, "plumb ab: -o, --format, --json and --dry-run are not run options "
					"here");
		P->o.no_store = 1;
	}
	set_sizes_and_timing(P);
	if (!P->o.dry_run)
		make_dirs(P);
	select_steps(P);
	if (P->o.dry_run) {
		print_plan(P);
		suite_free(P, R);
		return 0;
	}
	if (P->nsel == 0)
		die(EXIT_MEASURE, "nothing to run: the benchmarks chosen are not built in (%s)",
		    P->skipped.items ? P->skipped.s : "no step selected");

	record_start(P, R);
	install_stop_handlers();
	if (ab_path) {
		int st = serve_ab(P, R, ab_path);
		suite_free(P, R);
		return suite_stop_sig ? die_of_signal(suite_stop_sig) : st;
	}
	run_all(P, R);
	record_end(P, R);
	keep(&P->o, R->run, &K);
	int status = 0, said = suite_stop_sig != 0;
	if (suite_stop_sig)
		run_warn("stopped by %s after %zu result(s)%s%s", signal_name(suite_stop_sig), R->run->results.n,
			 K.kept ? "; incomplete run " : "", K.kept ? K.where : "");
	else
		report(P, R, &K);
	if (suite_stop_sig && !said) /* while the finished run was saved or printed */
		run_warn("stopped by %s; the run was complete%s%s", signal_name(suite_stop_sig),
			 K.kept ? " and " : "", K.kept ? K.where : "");
	if (K.save_failed)
		status = EXIT_MEASURE;
	suite_free(P, R);
	return suite_stop_sig ? die_of_signal(suite_stop_sig) : status;
}

