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

const struct opt run_options[] = {
	OPT_BOOL(0, "quick", struct run_cli, quick,
		"one round of 5 samples per point, small sizes (budget 32 s)"),
	OPT_BOOL(0, "full", struct run_cli, full,
		"lmbench's full size lists, 11 samples going on up to 51 (budget 14 min)"),
	OPT_CALLBACK(0, "subset", struct run_cli, o.subset, "S", set_subset,
		"only the hardware or the os benchmarks"),
	OPT_CALLBACK(0, "only", struct run_cli, o.only, "NAME,...", set_list,
		"only these families, aliases, tools or steps (TOOL.ARG: lat_syscall.null)"),
	OPT_CALLBACK(0, "skip", struct run_cli, o.skip, "NAME,...", set_list,
		"every family, alias, tool or step but these"),
	OPT_STRING(0, "label", struct run_cli, o.label, "TEXT",
		"a label stored with the run; compare/report take it for every run with it"),
	OPT_SIZE(0, "mem", struct run_cli, o.mem, "SIZE", MIB, 1ll << 50, NULL,
		"largest working set of the memory series (k/m/g suffixes)"),
	OPT_STRING(0, "fsdir", struct run_cli, o.fsdir, "DIR",
		"where the file benchmarks create their private directory"),
	OPT_CALLBACK(0, "remote", struct run_cli, o.remote, "H[:B]", set_remote,
		"also measure the network against `plumb serve` on host H (ports from B)"),
	OPT_STRING(0, "disk", struct run_cli, o.disk, "DEV",
		"also measure this block device (seek times, zone bandwidth; read only)"),
	OPT_INT(0, "copies", struct run_cli, o.copies, "N", 1, 999, NULL,
		"run N copies of each benchmark at once (lmbench's SYNC_MAX)"),
	OPT_BOOL(0, "cold", struct run_cli, o.cold,
		"drop the page cache before each file benchmark (needs root)"),
	OPT_INT(0, "repeat", struct run_cli, o.repeat, "N", 1, 1000, NULL,
		"N interleaved rounds of the suite (default profile: 3)"),
	OPT_INT(0, "os-rounds", struct run_cli, o.os_rounds, "N", 1, 4000, NULL,
		"rounds of the system-call, signal and IPC latencies (default profile: 12)"),
	OPT_CALLBACK(0, "cpu", struct run_cli, o.cpu, "LIST|none", set_cpu,
		"CPUs the benchmarks are pinned to (default: one fixed CPU), none: not pinned"),
	OPT_STRING('o', "output", struct run_cli, o.output, "FILE",
		"also write the run to FILE (.json or .txt, or say --format)"),
	OPT_STRING(0, "format", struct run_cli, format, "F",
		"stdout (or -o FILE): text summary, json or lmbench results text"),
	OPT_STRING(0, "db", struct run_cli, o.db, "FILE",
		"the store (default $PLUMB_DB, else ~/.local/share/plumb/results.db)"),
	OPT_BOOL(0, "no-store", struct run_cli, o.no_store, "do not store the run"),
	OPT_CALLBACK_NOARG(0, "json", struct run_cli, format, set_json,
		"the same as --format json"),
	OPT_INT(0, "samples", struct run_cli, o.samples, "N", 1, TIMING_MAX_REPS, NULL,
		"samples per point (default 3 per round; quick 5; full 11)"),
	OPT_INT(0, "max-samples", struct run_cli, o.max_samples, "N", 1, TIMING_MAX_REPS, NULL,
		"go on sampling up to N until the median's 95 % interval is within 1 %"),
	OPT_INT(0, "timeout", struct run_cli, timeout, "SEC", 1, 86400, NULL,
		"the watchdog: kill a step that runs longer (default 30 s + 10 x its estimate; "
		"full 60 + 20 x; never past --time-limit)"),
	OPT_CALLBACK(0, "time-limit", struct run_cli, o.time_limit, "D", set_time_limit,
		"fit the plan to D (90s, 5m, 1h30m; at least 30s): series thinned, then rounds, "
		"then "
		"whole tools, each said in the run's facts"),
	OPT_BOOL(0, "dry-run", struct run_cli, o.dry_run,
		"print the plan (steps, sizes, estimated time, budget) and exit"),
	OPT_HELP('h', "help", help, "this help"),
	OPT_END,
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

/* What goes to stdout (--format), and -o's file: its format, and a directory it can be
 * written in, checked before the run. */
static void output_opts(struct run_opts *o, const char *format)
{
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
	int repeat_given = o->repeat != 0;
	if (!o->repeat)
		o->repeat = o->profile == PROF_DEFAULT ? DEFAULT_ROUNDS : 1;
	/* the cheap OS latencies' rounds: a whole number of times the run's, so that every other
	 * step runs in evenly spread rounds among theirs */
	if (o->os_rounds) {
		if (o->os_rounds < o->repeat || o->os_rounds % o->repeat)
			die(EXIT_USAGE, "--os-rounds %d: a multiple of the rounds (%d)", o->os_rounds,
			    o->repeat);
		o->os_factor = o->os_rounds / o->repeat;
	} else {
		o->os_factor = o->profile == PROF_DEFAULT && !repeat_given ? DEFAULT_OS_FACTOR : 1;
	}

	output_opts(o, format);
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
