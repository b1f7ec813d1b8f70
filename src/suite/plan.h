/*
 * plan.h — the suite's definition: which benchmarks `plumb run` runs, in which order, with
 * which arguments, for each profile (quick, default, full). The order follows lmbench 3's
 * scripts/lmbench with its config-time facts (mhz) first; the plan lists every benchmark lmbench
 * runs whether or not its tool is built in: a step whose tool is not registered is skipped at
 * run time with a note.
 */
#ifndef PLUMB_RUN_PLAN_H
#define PLUMB_RUN_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "bench/tool.h"

enum profile { PROF_QUICK, PROF_DEFAULT, PROF_FULL };

enum step_flag {
	STEP_COPIES = 1,      /* takes lmbench's $P (-P N) under --copies */
	STEP_COLD = 2,        /* reads $FILE: drop the page cache first under --cold */
	STEP_FILE = 4,        /* needs the suite's $FILE to exist */
	STEP_WRITES_FILE = 8, /* writes $FILE (lmdd) */
	STEP_ALWAYS = 16,     /* runs under any --subset (config-time facts such as mhz) */
	STEP_REMOTE = 32,     /* measures against the --remote host */
	STEP_EST_FINAL = 64,  /* est_s is already for the plan's sample count (memory steps) */
	STEP_ASKED = 128,     /* runs only when --only names its tool, step or alias (lmbench's
			       * tools outside its suite: no profile's time includes them) */
	STEP_OS_ROUNDS = 256, /* a cheap system-call, signal or IPC latency: runs in every round
			       * of the run, the others in 1 of each os_factor (plan_cfg) */
};

/* A budget group: steps that a time budget may thin but never empties (plan_fit() keeps the
 * cheapest tool of each). A number, not a name: nobody selects steps by it (--only and --skip
 * take families, aliases, tools and steps: bench/tool.h, select.c). */
enum budget_group {
	BG_FACTS, BG_SYSCALL, BG_SELECT, BG_SIGNAL, BG_PROCESS, BG_OPS, BG_IPC, BG_CTX, BG_NET,
	BG_FILE, BG_DISK, BG_MEMORY, BG_STREAM,
};

struct step {
	enum budget_group budget_group;
	enum subset subset;   /* likewise */
	unsigned flags;
	double est_s;         /* estimated seconds with the profile's sample count */
	int argc;
	char **argv;          /* argv[0] is the tool name; malloc'd */
	char *label;          /* "bw_mem 64m frd": for progress lines and notes */
	int dropped;          /* left out by plan_fit() to meet the time budget */
};

struct plan_cfg {
	enum profile profile;
	uint64_t mem_bytes;   /* top of the memory series (lmbench's MB) */
	int mem_given;        /* --mem was given: also pass it to stream */
	uint64_t file_bytes;  /* size of $FILE (file read and mmap series) */
	int line;             /* cache line bytes (lmbench's LINE_SIZE) */
	const char *file;     /* $FILE */
	const char *fsdir;    /* where lat_fs works */
	const char *remote;   /* HOST[:BASE] or NULL */
	const char *disk;     /* device or file for `disk`, or NULL */
	int copies;           /* --copies N (1 = off) */
	double sample_scale;  /* cost scale of the sample count against the default 11 */
	int reps;             /* samples per point the steps take (0: 11): memory steps' cost */
	int thin;             /* series thinned to the points lmbench's summary reads (plan_fit) */
	int mem_cut;          /* plan_fit lowered mem_bytes: stream gets it too (-M 3 x mem) */
	int os_factor;        /* STEP_OS_ROUNDS steps run this many times as many rounds (0: 1) */
};

struct plan {
	struct step *v;
	size_t n, cap;
	int os_factor;        /* from plan_cfg, at least 1 */
};

void plan_build(struct plan *p, const struct plan_cfg *c);
void plan_free(struct plan *p);
const char *profile_name(enum profile p);
/* The default top of the memory series: mem_size_rule() (bench/mem/mem_common.h: 4 x the last
 * level, or 4 x the measured knee when sysfs's size is not believable, at most
 * MEM_DEFAULT_CAP) rounded up to a power of two, at least 8 MiB, at most a quarter of the
 * memory available per copy. measure = 0 (a dry run), where a run would measure the knee:
 * the largest top the run can reach, how saying the range the measurement decides within.
 * how gets the reason. */
uint64_t plan_default_mem(int copies, int measure, char *how, size_t howlen);
/* The rule itself, for a reported last-level cache llc (0: unknown), the knee a run measured
 * (used only where the rule needs one) and room (0: no limit): a dry run's top is never below
 * the run's, and equal to it where no knee is measured. */
uint64_t plan_mem_top(uint64_t llc, uint64_t knee, int measure, uint64_t room, char *how,
		      size_t howlen);
/* Seconds the whole plan should take: every step not dropped whose sel() is true (sel NULL:
 * all), times rounds (STEP_OS_ROUNDS steps times rounds x os_factor), plus the run's own
 * overhead. */
double plan_cost(const struct plan *p, int rounds, int (*sel)(const struct step *, void *),
		 void *arg);
/* "512", "4k", "64m": lmbench's size spelling of n bytes. */
void plan_size_str(uint64_t n, char *buf, size_t len);

#endif
