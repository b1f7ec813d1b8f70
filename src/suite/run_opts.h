/*
 * run_opts.h — the options of `plumb run`, parsed and checked before anything runs (a bad
 * option is one line and exit 2, never a lost run at the end). Every option given is also
 * recorded in the run's facts as opt.NAME.
 */
#ifndef PLUMB_RUN_OPTS_H
#define PLUMB_RUN_OPTS_H

#include <stdint.h>
#include "suite/plan.h"
#include "results/io.h"
#include "results/run.h"

enum outfmt { OUT_TEXT, OUT_JSON, OUT_LMBENCH };

/* The default profile's rounds and samples per round. On a shared host the clock and the
 * caches change within seconds; all of one benchmark's samples taken back to back sit in one
 * such moment, so 3 rounds of 3 samples, a minute apart, give a median that moves less from
 * run to run than 7-21 samples taken at once (bench/README.md: 5 runs each way). */
#define DEFAULT_ROUNDS 3
#define DEFAULT_ROUND_SAMPLES 3
/* ...and its cheap system-call, signal and IPC latency steps (STEP_OS_ROUNDS) run in 4 times as
 * many rounds (12): they cost about a second a round, and their run-to-run spread is their
 * rounds' spread (bench/README.md, "Separate runs"), so two runs a side of 12 rounds see a
 * change that two of 3 cannot. */
#define DEFAULT_OS_FACTOR 4

struct run_opts {
	enum profile profile;
	int subset;              /* 0 = all, else SUBSET_HW / SUBSET_OS */
	char *only, *skip;       /* comma lists (malloc'd), checked against the plan later */
	const char *label, *fsdir, *remote, *disk, *cpu, *output, *db;
	uint64_t mem;            /* 0 = derived from the machine */
	int copies, cold, repeat, no_store, dry_run;
	int os_rounds;           /* --os-rounds N (0: not given) */
	int os_factor;           /* STEP_OS_ROUNDS steps run in repeat x os_factor rounds */
	enum outfmt fmt;         /* what goes to stdout */
	enum run_format file_fmt;/* the -o file's format */
	int samples, max_samples;
	double timeout;          /* per step, 0 = from the plan's estimate */
	double time_limit;       /* --time-limit in seconds, 0 = the profile's budget */
};

void run_opts_parse(int argc, char **argv, struct run_opts *o, struct run *run);

#endif
