/*
 * run.c — `plumb run`: the whole suite, unattended. Builds the plan (run_plan.c) for the
 * profile and the machine, runs each step in its own child (run_step.c) so a crash or a hang
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
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/run_opts.h"
#include "cmd/run_clock.h"
#include "cmd/run_fit.h"
#include "cmd/run_noise.h"
#include "cmd/run_plan.h"
#include "cmd/run_step.h"
#include "core/cleanup.h"
#include "core/clock.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"
#include "results/io.h"
#include "results/run.h"
#include "results/store.h"

#define MIB (1024ull * 1024)

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	if (!stop_sig)
		stop_sig = sig;
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

/* ---- families --------------------------------------------------------------------------------- */

static const char *step_family(const struct step *s, const struct tool **t, int *subset)
{
	const struct family *f = NULL;
	const struct tool *tt = tool_find(s->argv[0], &f);
	if (t)
		*t = tt;
	if (tt) {
		if (subset)
			*subset = (int)f->subset;
		return f->name;
	}
	if (subset)
		*subset = (int)s->subset;
	return s->family;
}

struct names {
	const char *v[128];
	int n;
};

static void names_add(struct names *n, const char *s)
{
	for (int i = 0; i < n->n; i++)
		if (strcmp(n->v[i], s) == 0)
			return;
	if (n->n < 128)
		n->v[n->n++] = s;
}

static int names_has(const struct names *n, const char *s)
{
	for (int i = 0; i < n->n; i++)
		if (strcmp(n->v[i], s) == 0)
			return 1;
	return 0;
}

/* Parse a comma list of family names; an unknown name is a usage error listing the valid. */
static void parse_families(const char *opt, char *list, const struct names *valid,
			   struct names *out)
{
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (!*tok)
			continue;
		if (!names_has(valid, tok)) {
			char buf[1024] = "";
			for (int i = 0; i < valid->n; i++)
				snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "",
					 valid->v[i]);
			die(EXIT_USAGE, "%s: unknown family '%s' (valid: %s)", opt, tok, buf);
		}
		names_add(out, tok);
	}
	if (out->n == 0)
		die(EXIT_USAGE, "%s: no family named", opt);
}

/* ---- small helpers ---------------------------------------------------------------------------- */

struct sbuf {
	char *s;
	size_t n, cap;
	int items;
};

static void sb_add(struct sbuf *b, const char *sep, const char *s)
{
	size_t need = b->n + strlen(sep) + strlen(s) + 1;
	if (need > 65536)
		return; /* facts stay readable; the count says how many there were */
	if (need > b->cap) {
		b->cap = need * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	b->n += (size_t)sprintf(b->s + b->n, "%s%s", b->items ? sep : "", s);
	b->items++;
}

static char *iso_now(char *buf, size_t len, int compact)
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm);
	return buf;
}

/* Remove whatever a step left in dir (a killed child cannot clean up), except keep. */
static void sweep(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    (keep && !strcmp(e->d_name, keep)))
			continue;
		char *p = xasprintf("%s/%s", dir, e->d_name);
		remove_tree(p);
		free(p);
	}
	closedir(d);
}

/* $FILE for the file benchmarks when lmdd did not write it (not built, or failed). */
static int make_file(const char *path, uint64_t bytes)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	static char buf[1 << 20];
	for (size_t i = 0; i < sizeof buf; i++)
		buf[i] = (char)('a' + i % 26);
	for (uint64_t left = bytes; left > 0 && !stop_sig;) {
		size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
		ssize_t w = write(fd, buf, n);
		if (w <= 0) {
			close(fd);
			return -1;
		}
		left -= (uint64_t)w;
	}
	close(fd);
	return 0;
}

static void drop_caches(void)
{
	static int warned;
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		if (!warned++)
			run_warn("--cold: cannot drop the page cache: %s", strerror(errno));
	}
	if (fd >= 0)
		close(fd);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGKILL: return "SIGKILL";
	case SIGTERM: return "SIGTERM";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGINT: return "SIGINT";
	default: return "a signal";
	}
}

static void tick(void *p)
{
	progress_draw(p);
}

/* Time-left estimates: the plan's per-step costs, scaled by how long the finished steps of the
 * same tool took against theirs (later sizes, later rounds), else by the run's overall ratio. */
struct costs {
	const struct tool *t[128];
	double est[128], real[128];
	int n;
	double est_all, real_all;
};

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

struct sel {
	const struct step *s;
	const struct tool *t;    /* NULL: not built in (listed by --dry-run only) */
	const char *family;
};

/* Everything one `plumb run` holds, passed from phase to phase. */
struct suite {
	struct run_opts o;
	struct run *run;
	uint64_t mem, file_bytes;
	int line, reps, tty, can_cold;
	char *rundir, *fsrun, *file;
	struct plan plan;
	struct plan_fit fit;
	char mem_how[300];       /* why the memory series goes to mem */
	struct names only, skipf;
	struct sel *sel;
	size_t nsel, last_file;
	struct names absent;
	int nabsent, nok, nfailed;
	double est_total;
	struct progress prog;
	struct costs costs;
	struct sbuf failed, warnings, skipped, times;
	struct clock_watch clock;
	uint64_t t_start;
	char where[1200];        /* where the run was kept, for the last line */
	int kept, save_failed;
};

static void describe_failure(const struct sel *x, const struct step_outcome *oc, char *buf,
			     size_t len)
{
	const char *last = oc->nlines ? oc->lines[oc->nlines - 1] : NULL;
	if (oc->timed_out)
		snprintf(buf, len, "%s: timed out after %.0f s and was killed", x->s->label, oc->seconds);
	else if (oc->status >= 0 && WIFSIGNALED(oc->status))
		snprintf(buf, len, "%s: died of %s%s%s", x->s->label, signame(WTERMSIG(oc->status)),
			 last ? ": " : "", last ? last : "");
	else if (oc->status >= 0 && WIFEXITED(oc->status) && WEXITSTATUS(oc->status))
		snprintf(buf, len, "%s: failed (exit %d)%s%s", x->s->label, WEXITSTATUS(oc->status),
			 last ? ": " : "", last ? last : "");
	else
		snprintf(buf, len, "%s: sent no results%s%s", x->s->label, last ? ": " : "",
			 last ? last : "");
}

/* Sizes from the machine, and the sample counts every child inherits. */
static void set_sizes_and_timing(struct suite *S)
{
	const struct run_opts *o = &S->o;
	if (o->mem)
		snprintf(S->mem_how, sizeof S->mem_how, "--mem");
	else
		S->mem = plan_default_mem(o->copies, !o->dry_run, S->mem_how, sizeof S->mem_how);
	if (o->mem)
		S->mem = o->mem;
	struct cache_level cl[8];
	int cpus[1];
	S->line = 64;
	if (sys_caches(cpu_online(cpus, 1) ? cpus[0] : 0, cl, 8) > 0 && cl[0].line > 0)
		S->line = cl[0].line;
	S->file_bytes = o->profile == PROF_QUICK ? 16 * MIB : o->profile == PROF_FULL ? S->mem : 64 * MIB;
	if (S->file_bytes > S->mem)
		S->file_bytes = S->mem;

	if (o->samples)
		timing.repetitions = o->samples;
	else if (o->profile == PROF_QUICK)
		timing.repetitions = 5;
	if (o->max_samples) {
		timing.max_samples = o->max_samples;
		timing.target_ci = 0.01;
	} else if (o->profile == PROF_FULL) {
		timing.max_samples = 51;
		timing.target_ci = 0.01;
	} else if (o->profile == PROF_DEFAULT && !o->samples && o->repeat > 1) {
		/* Rounds spread each metric's samples over the run (run_opts.h). */
		timing.repetitions = DEFAULT_ROUND_SAMPLES;
	} else if (o->profile == PROF_DEFAULT && !o->samples) {
		/* One round (--repeat 1): spend the budget where the noise is: 7 samples for a
		 * steady metric, up to 21 until the median's 95 % CI is within +-2 % for a noisy one
		 * (the count is in each result). */
		timing.repetitions = 7;
		timing.max_samples = 21;
		timing.target_ci = 0.02;
	}
	S->reps = timing.repetitions ? timing.repetitions : TIMING_DEFAULT_REPS;
}

/* Private directories: the children's TMPDIR, and where file benchmarks work ($FILE). */
static void make_dirs(struct suite *S)
{
	S->rundir = private_dir(NULL);
	if (!S->rundir)
		die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
	S->fsrun = S->o.fsdir ? private_dir(S->o.fsdir) : S->rundir;
	if (!S->fsrun)
		die(EXIT_MEASURE, "cannot create a directory in %s: %s", S->o.fsdir, strerror(errno));
	struct statvfs vf;
	if (statvfs(S->fsrun, &vf) == 0) {
		uint64_t free_b = (uint64_t)vf.f_bavail * vf.f_frsize;
		if (free_b < 2 * S->file_bytes) {
			uint64_t f = MIB;
			while (f * 2 <= free_b / 4)
				f *= 2;
			run_warn("only %llu MiB free in %s: file benchmarks use a %llu MiB file",
				 (unsigned long long)(free_b / MIB), S->fsrun, (unsigned long long)(f / MIB));
			S->file_bytes = f;
		}
	}
	S->file = xasprintf("%s/XXX", S->fsrun);
}

/* Whether the run keeps step s: --only, --skip, --subset. */
static int step_kept(const struct step *s, void *arg)
{
	const struct suite *S = arg;
	const struct run_opts *o = &S->o;
	const struct tool *t;
	int sub;
	const char *fam = step_family(s, &t, &sub);
	if ((o->only && !names_has(&S->only, fam)) || (o->skip && names_has(&S->skipf, fam)))
		return 0;
	if (o->subset && !(sub & o->subset) && !(s->flags & STEP_ALWAYS))
		return 0;
	return 1;
}

/* What the budget counts: the steps kept whose tool is built in. */
static int step_costs(const struct step *s, void *arg)
{
	return step_kept(s, arg) && tool_find(s->argv[0], NULL);
}

/* The plan for the profile, fitted to the budget (run_fit.h), filtered by --only, --skip and
 * --subset; steps whose tool is not built in are counted (and kept for --dry-run). */
static void select_steps(struct suite *S)
{
	const struct run_opts *o = &S->o;
	struct plan_cfg pc = {
		.profile = o->profile, .mem_bytes = S->mem, .mem_given = o->mem != 0,
		.file_bytes = S->file_bytes, .line = S->line,
		.file = S->file ? S->file : "$FSDIR/XXX", .fsdir = S->fsrun ? S->fsrun : "$FSDIR",
		.remote = o->remote, .disk = o->disk, .copies = o->copies,
		/* the estimates are for 11 samples; measured here: 3 samples a round take about a
		 * third of the time (default: 34 s a round against 66 s estimated with 0.3 + 0.7 r/11),
		 * 7 adaptive about two thirds, 11 adaptive to 51 the full time */
		.sample_scale = 0.1 + 0.9 * (double)S->reps / TIMING_DEFAULT_REPS,
		.reps = S->reps,
	};

	/* Family names: the descriptors', and the plan's for tools not built in. */
	struct plan all;
	plan_build(&all, &pc);
	struct names valid = { .n = 0 };
	for (int f = 0; families[f]; f++)
		names_add(&valid, families[f]->name);
	for (size_t i = 0; i < all.n; i++)
		names_add(&valid, step_family(&all.v[i], NULL, NULL));
	if (o->only)
		parse_families("--only", o->only, &valid, &S->only);
	if (o->skip)
		parse_families("--skip", o->skip, &valid, &S->skipf);
	plan_free(&all);

	S->fit.budget = o->time_limit > 0 ? o->time_limit : plan_budget(o->profile);
	S->fit.rounds_asked = o->repeat;
	plan_fit(&S->plan, &pc, step_costs, S, &S->fit);
	if (!S->fit.fits && o->time_limit > 0)
		die(EXIT_USAGE, "--time-limit %.0f s is below the smallest plan, about %.0f s here "
		    "(series thinned, one round, one tool per family)", o->time_limit,
		    S->fit.min_est);
	S->o.repeat = S->fit.rounds;
	S->mem = pc.mem_bytes;

	S->sel = xcalloc(S->plan.n + 1, sizeof *S->sel);
	S->last_file = (size_t)-1;
	for (size_t i = 0; i < S->plan.n; i++) {
		const struct step *s = &S->plan.v[i];
		if (s->dropped || !step_kept(s, S))
			continue;
		const struct tool *t;
		const char *fam = step_family(s, &t, NULL);
		if (!t) {
			names_add(&S->absent, s->argv[0]);
			S->nabsent++;
			if (!o->dry_run)
				continue;
		}
		/* The last step that uses $FILE: the file goes after it, as lmbench deletes it. */
		if (t && (s->flags & (STEP_FILE | STEP_WRITES_FILE)))
			S->last_file = S->nsel;
		S->sel[S->nsel++] = (struct sel){ s, t, fam };
		if (t)
			S->est_total += s->est_s;
	}
	for (int i = 0; i < S->absent.n; i++)
		sb_add(&S->skipped, ", ", S->absent.v[i]);
}

/* What the budget cost the plan, in words ("" when nothing). */
static void fit_desc(const struct suite *S, char *buf, size_t len)
{
	const struct plan_fit *f = &S->fit;
	buf[0] = 0;
	if (f->thinned)
		snprintf(buf, len, "series thinned to the summary's sizes");
	if (f->mem_asked > S->mem)
		snprintf(buf + strlen(buf), len - strlen(buf), "%smemory series to %llu MiB, not %llu",
			 buf[0] ? "; " : "", (unsigned long long)(S->mem / MIB),
			 (unsigned long long)(f->mem_asked / MIB));
	if (f->rounds < f->rounds_asked)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%d of %d rounds", buf[0] ? "; " : "",
			 f->rounds, f->rounds_asked);
	if (f->ndropped)
		snprintf(buf + strlen(buf), len - strlen(buf), "%stools left out: %s",
			 buf[0] ? "; " : "", f->dropped);
}

static void print_plan(const struct suite *S)
{
	double all = 0;
	for (size_t i = 0; i < S->nsel; i++) {
		const struct sel *x = &S->sel[i];
		printf("%-8s %6.1f  %s%s\n", x->family, x->s->est_s, x->s->label,
		       x->t ? "" : "   (not built in: skipped)");
		all += x->s->est_s;
	}
	char fd[1200];
	fit_desc(S, fd, sizeof fd);
	printf("%zu steps, profile %s, memory series to %llu MiB (%s), file %llu MiB\n"
	       "estimated %.0f s for %d round(s) with the tools built in (%.0f s a round listed), "
	       "budget %.0f s%s%s%s\n",
	       S->nsel, profile_name(S->o.profile), (unsigned long long)(S->mem / MIB), S->mem_how,
	       (unsigned long long)(S->file_bytes / MIB), S->fit.est, S->o.repeat, all,
	       S->fit.budget, S->o.time_limit > 0 ? " (--time-limit)" : " (the profile's)",
	       fd[0] ? ": " : "", fd);
}

static void fact_num(struct run *r, const char *key, const char *fmt, double v)
{
	char buf[64];
	snprintf(buf, sizeof buf, fmt, v);
	kv_set(&r->facts, key, buf);
}

/* The run's identity and the facts known before it starts. */
static void record_start(struct suite *S)
{
	struct run *run = S->run;
	char ts[40];
	run->started = xstrdup(iso_now(ts, sizeof ts, 0));
	run->profile = xstrdup(profile_name(S->o.profile));
	run->source = xstrdup("plumb");
	run_set_new_uid(run); /* its identity wherever it is copied to (issue 11 item 6) */
	run->rounds = S->o.repeat;
	if (S->o.label)
		run->label = xstrdup(S->o.label);
	struct fact facts[64];
	int nf = sysinfo_facts(facts, 64);
	for (int i = 0; i < nf; i++)
		kv_set(&run->facts, facts[i].key, facts[i].val);
	const char *h = kv_get(&run->facts, "hostname");
	run->host = xstrdup(h ? h : "unknown");
	fact_num(run, "copies", "%.0f", S->o.copies);
	fact_num(run, "mem_series_bytes", "%.0f", (double)S->mem);
	kv_set(&run->facts, "mem_series_reason", S->mem_how);
	fact_num(run, "plan_budget_s", "%.0f", S->fit.budget);
	fact_num(run, "plan_estimate_s", "%.0f", S->fit.est);
	char fd[1200];
	fit_desc(S, fd, sizeof fd);
	if (fd[0]) {
		kv_set(&run->facts, "plan_fit", fd);
		run_warn("to fit the %.0f s budget: %s", S->fit.budget, fd);
	}
	fact_num(run, "file_bytes", "%.0f", (double)S->file_bytes);
	fact_num(run, "line_size", "%.0f", S->line);
	fact_num(run, "samples", "%.0f", S->reps);
	if (timing.max_samples) {
		fact_num(run, "max_samples", "%.0f", timing.max_samples);
		fact_num(run, "target_ci", "%g", timing.target_ci);
	}
	kv_set(&run->facts, "placement", cpu_policy_desc());
	run_noise_check(run, run_warn);
	clock_watch_start(&S->clock, run, 8, run_warn);
	if (S->o.remote)
		kv_set(&run->facts, "remote", S->o.remote);
	if (S->o.cold) {
		S->can_cold = geteuid() == 0;
		if (!S->can_cold)
			run_warn("--cold needs root to drop the page cache: file benchmarks run with a warm cache");
		kv_set(&run->facts, "cold", S->can_cold ? "yes" : "no (not root)");
	}
}

/* One step of one round. Returns -1 when the run must stop (a signal). */
static int run_one(struct suite *S, int round, size_t i)
{
	const struct sel *x = &S->sel[i];
	const struct step *s = x->s;
	if ((s->flags & STEP_FILE) && access(S->file, F_OK) != 0 &&
	    make_file(S->file, S->file_bytes) != 0 && !stop_sig)
		run_warn("cannot write %s: %s", S->file, strerror(errno));
	if (stop_sig)
		return -1;
	if (S->can_cold && (s->flags & STEP_COLD))
		drop_caches();

	char label[160];
	if (S->o.repeat > 1)
		snprintf(label, sizeof label, "round %d/%d: %s", round + 1, S->o.repeat, s->label);
	else
		snprintf(label, sizeof label, "%s", s->label);
	double rest = 0;
	for (int r2 = round; r2 < S->o.repeat; r2++)
		for (size_t k = r2 == round ? i + 1 : 0; k < S->nsel; k++)
			rest += S->sel[k].s->est_s * cost_scale(&S->costs, S->sel[k].t);
	clock_watch_probe(&S->clock); /* the clock this step starts on (run_clock.h) */
	progress_start(&S->prog, label, s->est_s * cost_scale(&S->costs, x->t), rest);

	/* argv copy: the tool's getopt permutes it. */
	char **av = xcalloc((size_t)s->argc + 1, sizeof *av);
	for (int k = 0; k < s->argc; k++)
		av[k] = s->argv[k];
	double timeout = S->o.timeout ? S->o.timeout
			 : S->o.profile == PROF_FULL ? 60 + 20 * s->est_s : 30 + 10 * s->est_s;
	struct step_env env = {
		.tmpdir = S->rundir, .fsdir = S->fsrun, .round = round, .timeout_s = timeout,
		.stop = &stop_sig, .tick = tick, .tick_arg = &S->prog,
		.remote = (s->flags & STEP_REMOTE) ? S->o.remote : NULL,
	};
	struct step_outcome oc;
	int rc = step_exec(x->t, s->argc, av, &env, S->run, &oc);
	free(av);
	progress_finish(&S->prog);
	cost_note(&S->costs, x->t, s->est_s, oc.seconds);
	char tm[220];
	snprintf(tm, sizeof tm, "%s=%.2f", s->label, oc.seconds);
	sb_add(&S->times, "; ", tm);
	int stopped = oc.stopped;
	if (stopped) {
		/* interrupted: not the step's fault, nothing to report */
	} else if (rc == 0) {
		S->nok++;
		for (int k = 0; k < oc.nlines; k++) {
			char w[600];
			snprintf(w, sizeof w, "%s: %s", s->label, oc.lines[k]);
			if (k < 3)
				run_warn("%s", w);
			sb_add(&S->warnings, " | ", w);
		}
	} else {
		char why[800];
		describe_failure(x, &oc, why, sizeof why);
		run_warn("%s", why);
		sb_add(&S->failed, "; ", why);
		S->nfailed++;
		if (oc.timed_out || (oc.status >= 0 && WIFSIGNALED(oc.status)))
			S->run->incomplete = 1;
	}
	step_outcome_free(&oc);
	/* A killed child cannot clean up after itself. */
	sweep(S->rundir, "XXX");
	if (S->fsrun != S->rundir)
		sweep(S->fsrun, "XXX");
	if (i == S->last_file)
		unlink(S->file);
	return stopped ? -1 : 0;
}

static void run_all(struct suite *S)
{
	S->tty = isatty(2);
	progress_init(&S->prog, S->tty, (int)S->nsel * S->o.repeat);
	progress_current = &S->prog;
	S->t_start = now_ns();
	for (int round = 0; round < S->o.repeat && !stop_sig; round++)
		for (size_t i = 0; i < S->nsel && !stop_sig; i++)
			if (run_one(S, round, i) != 0)
				break;
	progress_clear(&S->prog);
	progress_current = NULL;
}

/* Facts from what ran. */
static void record_end(struct suite *S)
{
	struct run *run = S->run;
	char ts[40];
	run->ended = xstrdup(iso_now(ts, sizeof ts, 0));
	if (stop_sig) {
		run->incomplete = 1;
		kv_set(&run->facts, "stopped_by", signame(stop_sig));
	}
	for (size_t i = 0; i < run->results.n; i++)
		if (!strcmp(run->results.v[i].metric, "mhz.mhz") && !isnan(run->results.v[i].value))
			fact_num(run, "mhz", "%.0f", run->results.v[i].value);
	clock_watch_end(&S->clock, run, run_warn);
	char steps[160];
	snprintf(steps, sizeof steps, "%d ok, %d failed, %d not built in", S->nok, S->nfailed,
		 S->nabsent);
	kv_set(&run->facts, "steps", steps);
	if (S->skipped.items)
		kv_set(&run->facts, "not_built_in", S->skipped.s);
	if (S->failed.items)
		kv_set(&run->facts, "failed", S->failed.s);
	if (S->warnings.items)
		kv_set(&run->facts, "warnings", S->warnings.s);
	if (S->times.items)
		kv_set(&run->facts, "step_seconds", S->times.s); /* where the time goes (bench/) */
	if (S->absent.n && !stop_sig)
		run_warn("%d benchmark(s) not built in, %d step(s) skipped: %s", S->absent.n,
			 S->nabsent, S->skipped.s);
}

/* Keep the run: the file asked for, the store, or a file here when the store cannot. */
static void keep(struct suite *S)
{
	const struct run_opts *o = &S->o;
	struct run *run = S->run;
	char err[512];
	if (o->output) {
		if (run_save_file(run, o->output, o->file_fmt, err, sizeof err) == 0) {
			S->kept = 1;
			snprintf(S->where, sizeof S->where, "written to %s", o->output);
		} else {
			run_warn("%s", err);
			S->save_failed = 1;
		}
	}
	if (o->no_store)
		return;
	struct store *st = store_open(o->db, 1, err, sizeof err);
	if (st && store_save(st, run, err, sizeof err) == 0) {
		S->kept = 1;
		size_t l = strlen(S->where);
		snprintf(S->where + l, sizeof S->where - l, "%sstored as run %ld in %s", l ? ", " : "",
			 run->id, store_name(st));
	} else if (o->output) {
		run_warn("results store unavailable: %s", err);
	} else {
		char ts[40], fb[300], err2[512];
		snprintf(fb, sizeof fb, "plumb-run-%s-%s.json", run->host, iso_now(ts, sizeof ts, 1));
		if (run_save_file(run, fb, FMT_JSON, err2, sizeof err2) == 0) {
			S->kept = 1;
			snprintf(S->where, sizeof S->where, "written to ./%s", fb);
			run_warn("results store unavailable (%s): run saved to ./%s", err, fb);
		} else {
			run_warn("results store unavailable (%s) and %s", err, err2);
			S->save_failed = 1;
		}
	}
	if (st)
		store_close(st);
}

/* stdout: the summary, or the run as JSON / lmbench text. */
static void report(struct suite *S)
{
	struct run *run = S->run;
	fflush(stderr);
	if (S->o.fmt == OUT_JSON || S->o.fmt == OUT_LMBENCH) {
		int json = S->o.fmt == OUT_JSON;
		if ((json ? run_write_json(run, stdout) : run_write_lmbench(run, stdout)) != 0) {
			run_warn("cannot print the run as %s here (writer not available)",
				 json ? "JSON" : "lmbench text");
			S->save_failed = 1;
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
			utf8_fputs(stdout, buf, 0);
			free(buf);
		}
	}
	fflush(stdout);
	if (S->tty && S->kept) {
		double el = (double)(now_ns() - S->t_start) / 1e9;
		run_warn("%zu results in %d:%02d; %s", run->results.n, (int)el / 60, (int)el % 60,
			 S->where);
	}
}

static void suite_free(struct suite *S)
{
	free(S->failed.s);
	free(S->warnings.s);
	free(S->skipped.s);
	free(S->times.s);
	free(S->sel);
	plan_free(&S->plan);
	run_free(S->run);
	free(S->file);
	free(S->o.only);
	free(S->o.skip);
	cleanup_run(); /* the private directories (registered) */
	if (S->fsrun != S->rundir)
		free(S->fsrun);
	free(S->rundir);
}

/* `plumb ab`'s side (cmd/ab.c): the parent decides which step of which round runs when, so
 * that both sides run each step back to back. Lines on stdout: "rounds N", "step LABEL" per
 * step, "ready"; then for each "run ROUND INDEX" read from stdin the step runs and "done" is
 * written ("stop" when interrupted). At "end" or end of input the run is written as plumb JSON
 * to path — the documented format the parent reads — and "saved" or "failed" is written. */
static int serve_ab(struct suite *S, const char *path)
{
	FILE *in = stdin, *out = stdout;
	fprintf(out, "rounds %d\n", S->o.repeat);
	for (size_t i = 0; i < S->nsel; i++)
		fprintf(out, "step %s\n", S->sel[i].s->label);
	fprintf(out, "ready\n");
	fflush(out);
	progress_init(&S->prog, 0, (int)S->nsel * S->o.repeat);
	S->t_start = now_ns();
	char line[256];
	while (!stop_sig && fgets(line, sizeof line, in)) {
		int round;
		size_t idx;
		if (sscanf(line, "run %d %zu", &round, &idx) == 2 && idx < S->nsel && round >= 0 &&
		    round < S->o.repeat) {
			int rc = run_one(S, round, idx);
			fprintf(out, "%s\n", rc ? "stop" : "done");
			fflush(out);
		} else {
			break; /* "end" */
		}
	}
	record_end(S);
	char err[512];
	int ok = run_save_file(S->run, path, FMT_JSON, err, sizeof err) == 0;
	if (!ok)
		run_warn("%s", err);
	fprintf(out, "%s\n", ok ? "saved" : "failed");
	fflush(out);
	return ok ? 0 : EXIT_MEASURE;
}

/* Die of the signal, now that everything is saved and removed: a shell running plumb in a loop
 * sees the interrupt (WIFSIGNALED) and stops too. SIGQUIT would dump core: it exits 131. */
static int die_of_signal(int sig)
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

int cmd_run(int argc, char **argv)
{
	prog_name = "plumb run";
	static struct suite S; /* large; one per process */
	memset(&S, 0, sizeof S);
	/* --ab-worker=PATH: a side of `plumb ab` (not in --help: plumb ab passes it) */
	const char *ab_path = NULL;
	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], "--ab-worker=", 12) == 0) {
			ab_path = argv[i] + 12;
			memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof *argv);
			argc--;
			break;
		}
	S.run = run_new();
	run_opts_parse(argc, argv, &S.o, S.run);
	if (ab_path) {
		if (S.o.output || S.o.fmt != OUT_TEXT || S.o.dry_run)
			die(EXIT_USAGE, "plumb ab: -o, --format, --json and --dry-run are not run options "
					"here");
		S.o.no_store = 1;
	}
	set_sizes_and_timing(&S);
	if (!S.o.dry_run)
		make_dirs(&S);
	select_steps(&S);
	if (S.o.dry_run) {
		print_plan(&S);
		suite_free(&S);
		return 0;
	}
	if (S.nsel == 0)
		die(EXIT_MEASURE, "nothing to run: the benchmarks chosen are not built in (%s)",
		    S.skipped.items ? S.skipped.s : "no step selected");

	record_start(&S);
	install_stop_handlers();
	if (ab_path) {
		int st = serve_ab(&S, ab_path);
		suite_free(&S);
		return stop_sig ? die_of_signal(stop_sig) : st;
	}
	run_all(&S);
	record_end(&S);
	keep(&S);
	int status = 0;
	if (stop_sig)
		run_warn("stopped by %s after %zu result(s)%s%s", signame(stop_sig), S.run->results.n,
			 S.kept ? "; incomplete run " : "", S.kept ? S.where : "");
	else
		report(&S);
	if (S.save_failed)
		status = EXIT_MEASURE;
	suite_free(&S);
	return stop_sig ? die_of_signal(stop_sig) : status;
}
