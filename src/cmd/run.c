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
#include <getopt.h>
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

enum outfmt { OUT_TEXT, OUT_JSON, OUT_LMBENCH, OUT_NONE };

struct opts {
	enum profile profile;
	int subset;              /* 0 = all, else SUBSET_HW / SUBSET_OS */
	char *only, *skip;
	const char *label, *fsdir, *remote, *disk, *cpu, *output, *db;
	uint64_t mem;            /* 0 = derived */
	int copies, cold, repeat, no_store, dry_run;
	enum outfmt fmt;         /* what goes to stdout */
	int fmt_given;
	enum run_format file_fmt;
	int samples, max_samples;
	double timeout;
};

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

static void help(void)
{
	printf("usage: plumb run [--quick|--full] [--subset hardware|os] [--only FAM,...] [--skip FAM,...]\n"
	       "                 [--label TEXT] [--mem SIZE] [--fsdir DIR] [--remote HOST[:BASE]]\n"
	       "                 [--disk DEV] [--copies N] [--cold] [--repeat N] [--cpu LIST|none]\n"
	       "                 [--samples N] [--max-samples N] [--timeout SEC]\n"
	       "                 [-o FILE] [--format text|json|lmbench] [--json] [--db FILE] [--no-store]\n"
	       "                 [--dry-run]\n\n"
	       "Runs the benchmark suite unattended, records every sample with the system facts,\n"
	       "stores the run and prints lmbench's summary. Profiles: --quick (about 40 s), default\n"
	       "(about 3 min), --full (lmbench's full size lists). --dry-run prints the plan.\n"
	       "Families: ");
	int first = 1;
	for (int f = 0; families[f]; f++) {
		printf("%s%s", first ? "" : ", ", families[f]->name);
		first = 0;
	}
	printf(" (and those of benchmarks not built in).\nSee docs/suite.md.\n");
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
	if (need > 16384)
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

static const char *ext(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	return dot && (!slash || dot > slash) ? dot : "";
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

/* ---- options ---------------------------------------------------------------------------------- */

enum {
	O_QUICK = 256, O_FULL, O_SUBSET, O_ONLY, O_SKIP, O_LABEL, O_MEM, O_FSDIR, O_REMOTE,
	O_DISK, O_COPIES, O_COLD, O_REPEAT, O_CPU, O_FORMAT, O_DB, O_NOSTORE, O_JSON,
	O_SAMPLES, O_MAXSAMPLES, O_TIMEOUT, O_DRYRUN, O_HELP,
};

static void parse(int argc, char **argv, struct opts *o, struct run *run)
{
	static const struct option lo[] = {
		{ "quick", no_argument, NULL, O_QUICK }, { "full", no_argument, NULL, O_FULL },
		{ "subset", required_argument, NULL, O_SUBSET },
		{ "only", required_argument, NULL, O_ONLY }, { "skip", required_argument, NULL, O_SKIP },
		{ "label", required_argument, NULL, O_LABEL }, { "mem", required_argument, NULL, O_MEM },
		{ "fsdir", required_argument, NULL, O_FSDIR },
		{ "remote", required_argument, NULL, O_REMOTE },
		{ "disk", required_argument, NULL, O_DISK },
		{ "copies", required_argument, NULL, O_COPIES }, { "cold", no_argument, NULL, O_COLD },
		{ "repeat", required_argument, NULL, O_REPEAT }, { "cpu", required_argument, NULL, O_CPU },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, O_FORMAT }, { "db", required_argument, NULL, O_DB },
		{ "no-store", no_argument, NULL, O_NOSTORE }, { "json", no_argument, NULL, O_JSON },
		{ "samples", required_argument, NULL, O_SAMPLES },
		{ "max-samples", required_argument, NULL, O_MAXSAMPLES },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "dry-run", no_argument, NULL, O_DRYRUN }, { "help", no_argument, NULL, O_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int quick = 0, full = 0;
	const char *format = NULL;
	optind = 0;
	opterr = 0;
	for (;;) {
		int ch = getopt_long(argc, argv, ":o:h", lo, NULL);
		if (ch == -1)
			break;
		const char *name = NULL;
		for (int i = 0; lo[i].name; i++)
			if (lo[i].val == ch)
				name = lo[i].name;
		if (name && ch != O_HELP && ch != O_DRYRUN) {
			char key[40];
			snprintf(key, sizeof key, "opt.%s", name);
			kv_set(&run->facts, key, optarg ? optarg : "yes");
		}
		switch (ch) {
		case O_QUICK: quick = 1; break;
		case O_FULL: full = 1; break;
		case O_SUBSET:
			if (!strcmp(optarg, "hardware") || !strcmp(optarg, "hw"))
				o->subset = SUBSET_HW;
			else if (!strcmp(optarg, "os"))
				o->subset = SUBSET_OS;
			else
				die(EXIT_USAGE, "--subset: '%s' is not hardware or os", optarg);
			break;
		case O_ONLY: o->only = xstrdup(optarg); break;
		case O_SKIP: o->skip = xstrdup(optarg); break;
		case O_LABEL: o->label = optarg; break;
		case O_MEM: o->mem = parse_size(optarg, 1 * MIB, 1ull << 50, "--mem"); break;
		case O_FSDIR: o->fsdir = optarg; break;
		case O_REMOTE:
			if (!*optarg || optarg[0] == '-')
				die(EXIT_USAGE, "--remote: '%s' is not a host name", optarg);
			o->remote = optarg;
			break;
		case O_DISK: o->disk = optarg; break;
		case O_COPIES: o->copies = (int)parse_int(optarg, 1, 999, "--copies"); break;
		case O_COLD: o->cold = 1; break;
		case O_REPEAT: o->repeat = (int)parse_int(optarg, 1, 1000, "--repeat"); break;
		case O_CPU: o->cpu = optarg; cpu_policy_init(optarg); break;
		case 'o': o->output = optarg; break;
		case O_FORMAT: format = optarg; break;
		case O_DB: o->db = optarg; break;
		case O_NOSTORE: o->no_store = 1; break;
		case O_JSON: format = "json"; break;
		case O_SAMPLES:
			o->samples = (int)parse_int(optarg, 1, TIMING_MAX_REPS, "--samples");
			break;
		case O_MAXSAMPLES:
			o->max_samples = (int)parse_int(optarg, 1, TIMING_MAX_REPS, "--max-samples");
			break;
		case O_TIMEOUT: o->timeout = (double)parse_int(optarg, 1, 86400, "--timeout"); break;
		case O_DRYRUN: o->dry_run = 1; break;
		case 'h':
		case O_HELP: help(); exit(0);
		case ':': die(EXIT_USAGE, "option %s needs a value (try 'plumb run --help')", argv[optind - 1]);
		default: die(EXIT_USAGE, "unknown option %s (try 'plumb run --help')", argv[optind - 1]);
		}
	}
	if (optind < argc)
		die(EXIT_USAGE, "unexpected argument '%s' (try 'plumb run --help')", argv[optind]);
	if (quick && full)
		die(EXIT_USAGE, "--quick and --full exclude each other");
	o->profile = quick ? PROF_QUICK : full ? PROF_FULL : PROF_DEFAULT;
	if (!o->copies)
		o->copies = 1;
	if (!o->repeat)
		o->repeat = 1;

	/* What goes to stdout, and the file's format. */
	o->fmt = OUT_TEXT;
	if (format) {
		if (!strcmp(format, "json"))
			o->fmt = OUT_JSON;
		else if (!strcmp(format, "lmbench"))
			o->fmt = OUT_LMBENCH;
		else if (!strcmp(format, "text"))
			o->fmt = OUT_TEXT;
		else
			die(EXIT_USAGE, "--format: '%s' is not text, json or lmbench", format);
	}
	if (o->output) {
		const char *e = ext(o->output);
		if (o->fmt == OUT_JSON || (o->fmt == OUT_TEXT && !strcmp(e, ".json")))
			o->file_fmt = FMT_JSON;
		else if (o->fmt == OUT_LMBENCH || (o->fmt == OUT_TEXT && !strcmp(e, ".txt")))
			o->file_fmt = FMT_LMBENCH;
		else
			die(EXIT_USAGE, "-o %s: say --format json or lmbench (or name it .json or .txt)",
			    o->output);
		o->fmt = OUT_TEXT; /* the file gets the run; stdout the summary */
		/* Fail now, not after the run: the directory must be writable. */
		char *dir = xstrdup(o->output), *sl = strrchr(dir, '/');
		if (sl)
			*(sl == dir ? sl + 1 : sl) = 0;
		if (access(sl ? dir : ".", W_OK) != 0)
			die(EXIT_USAGE, "-o %s: cannot write in %s: %s", o->output, sl ? dir : ".",
			    strerror(errno));
		free(dir);
	}
	if (o->fsdir) {
		struct stat st;
		if (stat(o->fsdir, &st) != 0 || !S_ISDIR(st.st_mode) || access(o->fsdir, W_OK) != 0)
			die(EXIT_USAGE, "--fsdir %s: not a writable directory", o->fsdir);
	}
	if (o->disk && access(o->disk, R_OK) != 0)
		die(EXIT_USAGE, "--disk %s: %s", o->disk, strerror(errno));
	if (o->mem) {
		uint64_t avail = sys_mem_available();
		if (avail && o->mem * (uint64_t)o->copies > avail)
			die(EXIT_USAGE, "--mem: %llu MiB x %d copies is more than the %llu MiB available",
			    (unsigned long long)(o->mem / MIB), o->copies,
			    (unsigned long long)(avail / MIB));
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
	const struct tool *t;
	const char *family;
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

int cmd_run(int argc, char **argv)
{
	prog_name = "plumb run";
	struct run *run = run_new();
	struct opts o;
	memset(&o, 0, sizeof o);
	parse(argc, argv, &o, run);

	/* Sizes from the machine. */
	uint64_t mem = o.mem ? o.mem : plan_default_mem(o.copies);
	struct cache_level cl[8];
	int cpus[1];
	int line = 64;
	if (sys_caches(cpu_online(cpus, 1) ? cpus[0] : 0, cl, 8) > 0 && cl[0].line > 0)
		line = cl[0].line;
	uint64_t file_bytes = o.profile == PROF_QUICK ? 16 * MIB : o.profile == PROF_FULL ? mem : 64 * MIB;
	if (file_bytes > mem)
		file_bytes = mem;

	/* Timing for every child (they inherit it). */
	if (o.samples)
		timing.repetitions = o.samples;
	else if (o.profile == PROF_QUICK)
		timing.repetitions = 5;
	if (o.max_samples) {
		timing.max_samples = o.max_samples;
		timing.target_ci = 0.01;
	} else if (o.profile == PROF_FULL) {
		timing.max_samples = 51;
		timing.target_ci = 0.01;
	}
	int reps = timing.repetitions ? timing.repetitions : TIMING_DEFAULT_REPS;

	/* Private directories: the children's TMPDIR, and where file benchmarks work. */
	char *rundir = NULL, *fsrun = NULL, *file = NULL;
	if (!o.dry_run) {
		rundir = private_dir(NULL);
		if (!rundir)
			die(EXIT_MEASURE, "cannot create a temporary directory: %s", strerror(errno));
		fsrun = o.fsdir ? private_dir(o.fsdir) : rundir;
		if (!fsrun)
			die(EXIT_MEASURE, "cannot create a directory in %s: %s", o.fsdir, strerror(errno));
		struct statvfs vf;
		if (statvfs(fsrun, &vf) == 0) {
			uint64_t free_b = (uint64_t)vf.f_bavail * vf.f_frsize;
			if (free_b < 2 * file_bytes) {
				uint64_t f = MIB;
				while (f * 2 <= free_b / 4)
					f *= 2;
				run_warn("only %llu MiB free in %s: file benchmarks use a %llu MiB file",
					 (unsigned long long)(free_b / MIB), fsrun,
					 (unsigned long long)(f / MIB));
				file_bytes = f;
			}
		}
		file = xasprintf("%s/XXX", fsrun);
	}

	struct plan_cfg pc = {
		.profile = o.profile, .mem_bytes = mem, .mem_given = o.mem != 0,
		.file_bytes = file_bytes, .line = line,
		.file = file ? file : "$FSDIR/XXX", .fsdir = fsrun ? fsrun : "$FSDIR",
		.remote = o.remote, .disk = o.disk, .copies = o.copies,
		.sample_scale = 0.3 + 0.7 * (double)reps / TIMING_DEFAULT_REPS,
	};
	struct plan plan;
	plan_build(&plan, &pc);

	/* Family names: the descriptors', and the plan's for tools not built in. */
	struct names valid = { .n = 0 }, only = { .n = 0 }, skipf = { .n = 0 };
	for (int f = 0; families[f]; f++)
		names_add(&valid, families[f]->name);
	for (size_t i = 0; i < plan.n; i++)
		names_add(&valid, step_family(&plan.v[i], NULL, NULL));
	if (o.only)
		parse_families("--only", o.only, &valid, &only);
	if (o.skip)
		parse_families("--skip", o.skip, &valid, &skipf);

	struct sel *sel = xcalloc(plan.n, sizeof *sel);
	size_t nsel = 0;
	double est_total = 0;
	struct names absent = { .n = 0 };
	int nabsent = 0;
	for (size_t i = 0; i < plan.n; i++) {
		const struct step *s = &plan.v[i];
		const struct tool *t;
		int sub;
		const char *fam = step_family(s, &t, &sub);
		if (o.only && !names_has(&only, fam))
			continue;
		if (o.skip && names_has(&skipf, fam))
			continue;
		if (o.subset && !(sub & o.subset) && !(s->flags & STEP_ALWAYS))
			continue;
		if (!t) {
			names_add(&absent, s->argv[0]);
			nabsent++;
			if (!o.dry_run)
				continue;
		}
		sel[nsel].s = s;
		sel[nsel].t = t;
		sel[nsel].family = fam;
		nsel++;
		if (t)
			est_total += s->est_s;
	}

	if (o.dry_run) {
		double all = 0;
		for (size_t i = 0; i < nsel; i++) {
			printf("%-8s %6.1f  %s%s\n", sel[i].family, sel[i].s->est_s, sel[i].s->label,
			       sel[i].t ? "" : "   (not built in: skipped)");
			all += sel[i].s->est_s;
		}
		printf("%zu steps, profile %s, memory series to %llu MiB, file %llu MiB; "
		       "estimated %.0f s x %d round(s) (%.0f s with only the tools built in)\n",
		       nsel, profile_name(o.profile), (unsigned long long)(mem / MIB),
		       (unsigned long long)(file_bytes / MIB), all, o.repeat, est_total * o.repeat);
		plan_free(&plan);
		free(sel);
		run_free(run);
		return 0;
	}

	if (nsel == 0) {
		char buf[1024] = "";
		for (int i = 0; i < absent.n; i++)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? ", " : "", absent.v[i]);
		die(EXIT_MEASURE, "nothing to run: the benchmarks chosen are not built in (%s)",
		    absent.n ? buf : "no step selected");
	}

	/* The run's identity and facts. */
	char ts[40];
	run->started = xstrdup(iso_now(ts, sizeof ts, 0));
	run->profile = xstrdup(profile_name(o.profile));
	run->source = xstrdup("plumb");
	run->rounds = o.repeat;
	if (o.label)
		run->label = xstrdup(o.label);
	struct fact facts[64];
	int nf = sysinfo_facts(facts, 64);
	for (int i = 0; i < nf; i++)
		kv_set(&run->facts, facts[i].key, facts[i].val);
	const char *h = kv_get(&run->facts, "hostname");
	run->host = xstrdup(h ? h : "unknown");
	char v[64];
	snprintf(v, sizeof v, "%d", o.copies);
	kv_set(&run->facts, "copies", v);
	snprintf(v, sizeof v, "%llu", (unsigned long long)mem);
	kv_set(&run->facts, "mem_series_bytes", v);
	snprintf(v, sizeof v, "%llu", (unsigned long long)file_bytes);
	kv_set(&run->facts, "file_bytes", v);
	snprintf(v, sizeof v, "%d", line);
	kv_set(&run->facts, "line_size", v);
	snprintf(v, sizeof v, "%d", reps);
	kv_set(&run->facts, "samples", v);
	if (timing.max_samples) {
		snprintf(v, sizeof v, "%d", timing.max_samples);
		kv_set(&run->facts, "max_samples", v);
		snprintf(v, sizeof v, "%g", timing.target_ci);
		kv_set(&run->facts, "target_ci", v);
	}
	kv_set(&run->facts, "placement", cpu_policy_desc());
	if (o.remote)
		kv_set(&run->facts, "remote", o.remote);

	int tty = isatty(2);
	struct progress prog;
	progress_init(&prog, tty, (int)nsel * o.repeat);
	struct costs costs = { .n = 0 };
	progress_current = &prog;
	install_stop_handlers();

	int can_cold = 0;
	if (o.cold) {
		can_cold = geteuid() == 0;
		if (!can_cold)
			run_warn("--cold needs root to drop the page cache: file benchmarks run with a warm cache");
		kv_set(&run->facts, "cold", can_cold ? "yes" : "no (not root)");
	}

	/* The last step that uses $FILE: the file goes after it, as lmbench deletes it. */
	size_t last_file = (size_t)-1;
	for (size_t i = 0; i < nsel; i++)
		if (sel[i].s->flags & (STEP_FILE | STEP_WRITES_FILE))
			last_file = i;

	struct sbuf failed = { 0 }, warnings = { 0 }, skipped = { 0 };
	for (int i = 0; i < absent.n; i++)
		sb_add(&skipped, ", ", absent.v[i]);
	int nok = 0, nfailed = 0;
	uint64_t t_start = now_ns();
	for (int round = 0; round < o.repeat && !stop_sig; round++) {
		for (size_t i = 0; i < nsel && !stop_sig; i++) {
			const struct sel *x = &sel[i];
			const struct step *s = x->s;
			if ((s->flags & STEP_FILE) && access(file, F_OK) != 0 &&
			    make_file(file, file_bytes) != 0 && !stop_sig)
				run_warn("cannot write %s: %s", file, strerror(errno));
			if (stop_sig)
				break;
			if (can_cold && (s->flags & STEP_COLD))
				drop_caches();
			char label[160];
			if (o.repeat > 1)
				snprintf(label, sizeof label, "round %d/%d: %s", round + 1, o.repeat, s->label);
			else
				snprintf(label, sizeof label, "%s", s->label);
			double rest = 0;
			for (int r2 = round; r2 < o.repeat; r2++)
				for (size_t k = r2 == round ? i + 1 : 0; k < nsel; k++)
					rest += sel[k].s->est_s * cost_scale(&costs, sel[k].t);
			progress_start(&prog, label, s->est_s * cost_scale(&costs, x->t), rest);

			/* argv copy: the tool's getopt permutes it. */
			char **av = xcalloc((size_t)s->argc + 1, sizeof *av);
			for (int k = 0; k < s->argc; k++)
				av[k] = s->argv[k];
			double timeout = o.timeout ? o.timeout
					 : (o.profile == PROF_FULL ? 60 + 20 * s->est_s : 30 + 10 * s->est_s);
			struct step_env env = {
				.tmpdir = rundir, .fsdir = fsrun, .round = round, .timeout_s = timeout,
				.stop = &stop_sig, .tick = tick, .tick_arg = &prog,
			};
			struct step_outcome oc;
			int rc = step_exec(x->t, s->argc, av, &env, run, &oc);
			free(av);
			progress_finish(&prog);
			cost_note(&costs, x->t, s->est_s, oc.seconds);
			if (oc.stopped) {
				step_outcome_free(&oc);
				break;
			}
			if (rc == 0) {
				nok++;
				for (int k = 0; k < oc.nlines; k++) {
					char w[600];
					snprintf(w, sizeof w, "%s: %s", s->label, oc.lines[k]);
					if (k < 3)
						run_warn("%s", w);
					sb_add(&warnings, " | ", w);
				}
			} else {
				char why[800];
				describe_failure(x, &oc, why, sizeof why);
				run_warn("%s", why);
				sb_add(&failed, "; ", why);
				nfailed++;
				if (oc.timed_out || (oc.status >= 0 && WIFSIGNALED(oc.status)))
					run->incomplete = 1;
			}
			step_outcome_free(&oc);
			sweep(rundir, "XXX");
			if (fsrun != rundir)
				sweep(fsrun, "XXX");
			if (i == last_file)
				unlink(file);
		}
	}
	progress_clear(&prog);
	progress_current = NULL;

	/* Facts from what ran. */
	run->ended = xstrdup(iso_now(ts, sizeof ts, 0));
	if (stop_sig) {
		run->incomplete = 1;
		kv_set(&run->facts, "stopped_by", signame(stop_sig));
	}
	for (size_t i = 0; i < run->results.n; i++)
		if (!strcmp(run->results.v[i].metric, "mhz.mhz") && !isnan(run->results.v[i].value)) {
			snprintf(v, sizeof v, "%.0f", run->results.v[i].value);
			kv_set(&run->facts, "mhz", v);
		}
	char steps[160];
	snprintf(steps, sizeof steps, "%d ok, %d failed, %d not built in", nok, nfailed, nabsent);
	kv_set(&run->facts, "steps", steps);
	if (skipped.items)
		kv_set(&run->facts, "not_built_in", skipped.s);
	if (failed.items)
		kv_set(&run->facts, "failed", failed.s);
	if (warnings.items)
		kv_set(&run->facts, "warnings", warnings.s);
	if (absent.n && !stop_sig)
		run_warn("%d benchmark(s) not built in, %d step(s) skipped: %s", absent.n, nabsent,
			 skipped.s);

	/* Keep it: the file asked for, the store, or a file here when the store cannot. */
	char err[512], where[1200] = "";
	int save_failed = 0, kept = 0;
	if (o.output) {
		if (run_save_file(run, o.output, o.file_fmt, err, sizeof err) == 0) {
			kept = 1;
			snprintf(where, sizeof where, "written to %s", o.output);
		} else {
			run_warn("%s", err);
			save_failed = 1;
		}
	}
	if (!o.no_store) {
		struct store *st = store_open(o.db, 1, err, sizeof err);
		if (st && store_save(st, run, err, sizeof err) == 0) {
			kept = 1;
			snprintf(where + strlen(where), sizeof where - strlen(where), "%sstored as run %ld in %s",
				 *where ? ", " : "", run->id, o.db ? o.db : store_default_path());
		} else {
			char fb[300];
			snprintf(fb, sizeof fb, "plumb-run-%s-%s.json", run->host, iso_now(ts, sizeof ts, 1));
			if (!o.output) {
				char err2[512];
				if (run_save_file(run, fb, FMT_JSON, err2, sizeof err2) == 0) {
					kept = 1;
					run_warn("results store unavailable (%s): run saved to ./%s", err, fb);
				} else {
					run_warn("results store unavailable (%s) and %s", err, err2);
					save_failed = 1;
				}
			} else {
				run_warn("results store unavailable: %s", err);
			}
		}
		if (st)
			store_close(st);
	}

	int status = 0;
	if (stop_sig) {
		run_warn("stopped by %s after %zu result(s)%s%s", signame(stop_sig), run->results.n,
			 kept ? "; incomplete run " : "", kept ? where : "");
		status = 128 + stop_sig;
	} else {
		fflush(stderr);
		if (o.fmt == OUT_JSON || o.fmt == OUT_LMBENCH) {
			if ((o.fmt == OUT_JSON ? run_write_json(run, stdout) : run_write_lmbench(run, stdout)) != 0) {
				run_warn("cannot print the run as %s here (writer not available)",
					 o.fmt == OUT_JSON ? "JSON" : "lmbench text");
				save_failed = 1;
			}
		} else {
			struct run *rv[1] = { run };
			summary_print(stdout, rv, 1);
		}
		fflush(stdout);
		if (tty && kept) {
			double el = (double)(now_ns() - t_start) / 1e9;
			run_warn("%zu results in %d:%02d; %s", run->results.n, (int)el / 60, (int)el % 60, where);
		}
		if (save_failed)
			status = EXIT_MEASURE;
	}
	free(failed.s);
	free(warnings.s);
	free(skipped.s);
	free(sel);
	plan_free(&plan);
	run_free(run);
	free(file);
	free(o.only);
	free(o.skip);
	cleanup_run();
	free(rundir);
	if (fsrun != rundir)
		free(fsrun);
	if (stop_sig && stop_sig != SIGQUIT) {
		/* Die of the signal, now that everything is saved and removed: a shell running plumb
		 * in a loop sees the interrupt (WIFSIGNALED) and stops too. SIGQUIT would dump core:
		 * it exits 131 instead. */
		fflush(NULL);
		signal(stop_sig, SIG_DFL);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, stop_sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		raise(stop_sig);
	}
	return status;
}
