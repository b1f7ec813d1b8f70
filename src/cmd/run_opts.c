/* run_opts.c — `plumb run`'s options and help (see run_opts.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bench/tool.h"
#include "cmd/commands.h"
#include "cmd/run_fit.h"
#include "cmd/run_opts.h"
#include "results/store.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"

#define MIB (1024ull * 1024)

static void help(void)
{
	command_help(command_find("run"));
	printf("\nFamilies: ");
	int first = 1;
	for (int f = 0; families[f]; f++) {
		printf("%s%s", first ? "" : ", ", families[f]->name);
		first = 0;
	}
	printf(" (and those of benchmarks not built in).\nSee docs/suite.md.\n");
}

static const char *ext(const char *path)
{
	const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
	return dot && (!slash || dot > slash) ? dot : "";
}

enum {
	O_QUICK = 256, O_FULL, O_SUBSET, O_ONLY, O_SKIP, O_LABEL, O_MEM, O_FSDIR, O_REMOTE,
	O_DISK, O_COPIES, O_COLD, O_REPEAT, O_CPU, O_FORMAT, O_DB, O_NOSTORE, O_JSON,
	O_SAMPLES, O_MAXSAMPLES, O_TIMEOUT, O_TIMELIMIT, O_DRYRUN, O_HELP,
};

void run_opts_parse(int argc, char **argv, struct run_opts *o, struct run *run)
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
		{ "time-limit", required_argument, NULL, O_TIMELIMIT },
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
			/* a store URI's password never goes into the run's facts */
			char masked[1024];
			kv_set(&run->facts, key, !strcmp(name, "db") && optarg
				       ? store_mask_uri(optarg, masked, sizeof masked)
				       : optarg ? optarg : "yes");
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
		case O_TIMELIMIT:
			o->time_limit = parse_duration(optarg);
			if (!(o->time_limit >= 1) || o->time_limit > 7 * 86400)
				die(EXIT_USAGE, "--time-limit: '%s' is not a duration (90s, 5m, 1h30m, or seconds)",
				    optarg);
			break;
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
