/* run_opts.c — `plumb run`'s options and help (see run_opts.h). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/tool.h"
#include "cmd/commands.h"
#include "suite/fit.h"
#include "suite/run_opts.h"
#include "results/store.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"

#define MIB (1024ull * 1024)

static void help(void)
{
	command_help(command_find("run"));
	printf("\n");
	families_help(stdout);
	printf("See docs/suite.md.\n");
}

static const char *ext(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	return dot && (!slash || dot > slash) ? dot : "";
}

/* What the table parses into: run_opts itself, and the words decided after parsing. */
struct run_cli {
	struct run_opts o;
	struct run *run;          /* the facts every option is recorded in */
	int quick, full, timeout;
	const char *format;
};
#define RO(field) offsetof(struct run_cli, o.field)

static void set_subset(const char *arg, void *field)
{
	if (!strcmp(arg, "hardware") || !strcmp(arg, "hw"))
		*(int *)field = SUBSET_HW;
	else if (!strcmp(arg, "os"))
		*(int *)field = SUBSET_OS;
	else
		die(EXIT_USAGE, "--subset: '%s' is not hardware or os", arg);
}

static void set_list(const char *arg, void *field)
{
	char **p = field;
	free(*p);
	*p = xstrdup(arg);
}

static void set_remote(const char *arg, void *field)
{
	if (!*arg || arg[0] == '-')
		die(EXIT_USAGE, "--remote: '%s' is not a host name", arg);
	*(const char **)field = arg;
}

static void set_cpu(const char *arg, void *field)
{
	*(const char **)field = arg;
	struct placement checked; /* refused here, at once; the suite sets up its own */
	cpu_policy_init(&checked, arg);
}

static void set_json(const char *arg, void *field)
{
	*(const char **)field = "json";
}

static void set_time_limit(const char *arg, void *field)
{
	double v = parse_duration(arg);
	if (!(v >= 1) || v > 7 * 86400)
		die(EXIT_USAGE, "--time-limit: '%s' is not a duration (90s, 5m, 1h30m, or seconds)", arg);
	*(double *)field = v;
}

static void set_help(const char *arg, void *field)
{
	help();
	exit(0);
}

static const struct opt_action subset_action = { set_subset, 0 }, list_action = { set_list, 0 },
	remote_action = { set_remote, 0 }, cpu_action = { set_cpu, 0 }, json_action = { set_json, 1 },
	time_limit_action = { set_time_limit, 0 }, help_action = { set_help, 1 };

const struct opt run_options[] = {
	{ 0, "quick", OPT_FLAG, 0, 0, offsetof(struct run_cli, quick), NULL, NULL,
	  "one round of 5 samples per point, small sizes (budget 32 s)", NULL },
	{ 0, "full", OPT_FLAG, 0, 0, offsetof(struct run_cli, full), NULL, NULL,
	  "lmbench's full size lists, 11 samples going on up to 51 (budget 14 min)", NULL },
	{ 0, "subset", OPT_CUSTOM, 0, 0, RO(subset), "S", NULL,
	  "only the hardware or the os benchmarks", &subset_action },
	{ 0, "only", OPT_CUSTOM, 0, 0, RO(only), "FAM,...", NULL,
	  "only these families, tools or steps (TOOL.ARG: lat_syscall.null; see --dry-run)",
	  &list_action },
	{ 0, "skip", OPT_CUSTOM, 0, 0, RO(skip), "FAM,...", NULL, "every family but these", &list_action },
	{ 0, "label", OPT_STRING, 0, 0, RO(label), "TEXT", NULL,
	  "a label stored with the run; compare/report take it for every run with it", NULL },
	{ 0, "mem", OPT_SIZE, MIB, 1ll << 50, RO(mem), "SIZE", NULL,
	  "largest working set of the memory series (k/m/g suffixes)", NULL },
	{ 0, "fsdir", OPT_STRING, 0, 0, RO(fsdir), "DIR", NULL,
	  "where the file benchmarks create their private directory", NULL },
	{ 0, "remote", OPT_CUSTOM, 0, 0, RO(remote), "H[:B]", NULL,
	  "also measure the network against `plumb serve` on host H (ports from B)", &remote_action },
	{ 0, "disk", OPT_STRING, 0, 0, RO(disk), "DEV", NULL,
	  "also measure this block device (seek times, zone bandwidth; read only)", NULL },
	{ 0, "copies", OPT_INT, 1, 999, RO(copies), "N", NULL,
	  "run N copies of each benchmark at once (lmbench's SYNC_MAX)", NULL },
	{ 0, "cold", OPT_FLAG, 0, 0, RO(cold), NULL, NULL,
	  "drop the page cache before each file benchmark (needs root)", NULL },
	{ 0, "repeat", OPT_INT, 1, 1000, RO(repeat), "N", NULL,
	  "N interleaved rounds of the suite (default profile: 3)", NULL },
	{ 0, "cpu", OPT_CUSTOM, 0, 0, RO(cpu), "LIST|none", NULL,
	  "CPUs the benchmarks are pinned to (default: one fixed CPU), none: not pinned", &cpu_action },
	{ 'o', "output", OPT_STRING, 0, 0, RO(output), "FILE", NULL,
	  "also write the run to FILE (.json or .txt, or say --format)", NULL },
	{ 0, "format", OPT_STRING, 0, 0, offsetof(struct run_cli, format), "F", NULL,
	  "stdout (or -o FILE): text summary, json or lmbench results text", NULL },
	{ 0, "db", OPT_STRING, 0, 0, RO(db), "FILE", NULL,
	  "the store (default $PLUMB_DB, else ~/.local/share/plumb/results.db)", NULL },
	{ 0, "no-store", OPT_FLAG, 0, 0, RO(no_store), NULL, NULL, "do not store the run", NULL },
	{ 0, "json", OPT_CUSTOM, 0, 0, offsetof(struct run_cli, format), NULL, NULL,
	  "the same as --format json", &json_action },
	{ 0, "samples", OPT_INT, 1, TIMING_MAX_REPS, RO(samples), "N", NULL,
	  "samples per point (default 3 per round; quick 5; full 11)", NULL },
	{ 0, "max-samples", OPT_INT, 1, TIMING_MAX_REPS, RO(max_samples), "N", NULL,
	  "go on sampling up to N until the median's 95 % interval is within 1 %", NULL },
	{ 0, "timeout", OPT_INT, 1, 86400, offsetof(struct run_cli, timeout), "SEC", NULL,
	  "kill a step that runs longer (default 30 s + 10 x its estimate; full 60 + 20 x)", NULL },
	{ 0, "time-limit", OPT_CUSTOM, 0, 0, RO(time_limit), "D", NULL,
	  "fit the plan to D (90s, 5m, 1h30m; at least 30s): series thinned, then rounds, then "
	  "whole tools, each said in the run's facts", &time_limit_action },
	{ 0, "dry-run", OPT_FLAG, 0, 0, RO(dry_run), NULL, NULL,
	  "print the plan (steps, sizes, estimated time, budget) and exit", NULL },
	{ 'h', "help", OPT_CUSTOM, 0, 0, 0, NULL, NULL, "this help", &help_action },
	{ 0 },
};

/* Every option given goes into the run's facts as opt.NAME (help and --dry-run aside). */
static void record_option(const struct opt *o, const char *arg, void *dst)
{
	if (!o->name || !strcmp(o->name, "help") || !strcmp(o->name, "dry-run"))
		return;
	char key[40];
	snprintf(key, sizeof key, "opt.%s", o->name);
	/* a store URI's password never goes into the run's facts */
	char masked[1024];
	kv_set(&((struct run_cli *)dst)->run->facts, key, !strcmp(o->name, "db") && arg
	       ? store_mask_uri(arg, masked, sizeof masked) : arg ? arg : "yes");
}

__attribute__((noreturn)) static void run_bad(const char *cmd, const char *word, int missing)
{
	if (missing)
		die(EXIT_USAGE, "option %s needs a value (try 'plumb run --help')", word);
	die(EXIT_USAGE, "unknown option %s (try 'plumb run --help')", word);
}

void run_opts_parse(int argc, char **argv, struct run_opts *o, struct run *run)
{
	struct run_cli a = { .o = *o, .run = run };
	static const struct command_options t = { "run", run_options, 0, run_bad, record_option };
	int first = command_parse(&t, argc, argv, &a);
	*o = a.o;
	int quick = a.quick, full = a.full;
	const char *format = a.format;
	if (a.timeout)
		o->timeout = a.timeout;
	if (first < argc)
		die(EXIT_USAGE, "unexpected argument '%s' (try 'plumb run --help')", argv[first]);
	if (quick && full)
		die(EXIT_USAGE, "--quick and --full exclude each other");
	o->profile = quick ? PROF_QUICK : full ? PROF_FULL : PROF_DEFAULT;
	char why[128];
	if (o->label && run_text_check("the label", o->label, why, sizeof why))
		die(EXIT_USAGE, "--label: %s", why);
	if (!o->copies)
		o->copies = 1;
	/* The default profile measures in 3 interleaved rounds: see set_sizes_and_timing(). */
	if (!o->repeat)
		o->repeat = o->profile == PROF_DEFAULT ? DEFAULT_ROUNDS : 1;

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
