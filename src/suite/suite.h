/*
 * suite.h — what the files of `plumb run` share (suite.c the phases, select.c which steps run,
 * workdir.c the directories, $FILE and the sizes): the run's state in three parts (plan, run,
 * report), each passed to the phases that need it.
 */
#ifndef PLUMB_SUITE_H
#define PLUMB_SUITE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "bench/tool.h"
#include "suite/run_opts.h"
#include "suite/clock_watch.h"
#include "suite/contention.h"
#include "suite/fit.h"
#include "suite/plan.h"
#include "suite/progress.h"

#define MIB (1024ull * 1024)

/* The signal that stops the run (0: none): the parent only notes it (suite.c). */
extern volatile sig_atomic_t suite_stop_sig;

/* A growing list of words, for facts such as the failed steps. */
struct sbuf {
	char *s;
	size_t n, cap;
	int items;
};

/* Family ids and tool names, each once. */
struct names {
	const char *v[128];
	int n;
};

/* Time-left estimates: the plan's per-step costs, scaled by how long the finished steps of the
 * same tool took against theirs (later sizes, later rounds), else by the run's overall ratio. */
struct costs {
	const struct tool *t[128];
	double est[128], real[128];
	int n;
	double est_all, real_all;
};

struct sel {
	const struct step *s;
	const struct tool *t;    /* NULL: not built in (listed by --dry-run only) */
	const char *family;
};

/* `plumb run`'s state in three parts, each passed to the phases that fill or read it (suite.c
 * holds one of each per run).
 * What the run will do: the options, the sizes, the sampling and the steps. workdir.c and
 * select.c fill it before the first step, which reads it (its timing context is the clock
 * watch's too). */
struct suite_plan {
	struct run_opts o;
	uint64_t mem, file_bytes;
	int line, reps;
	int ab_worker;  /* a side of plumb ab: a fresh worker per round */
	char *rundir, *fsrun, *file;
	struct plan plan;
	struct plan_fit fit;
	char mem_how[300];       /* why the memory series goes to mem */
	struct names only, skipf;
	struct sel *sel;
	size_t nsel, last_file;
	struct names absent;     /* benchmarks the plan names that are not built in */
	int nabsent;             /* the steps they would have been */
	struct sbuf skipped;     /* their names, for the facts */
	double est_total;
	struct timing_ctx timing; /* the run's sampling and placement, handed to every step */
};

/* What running the steps gathers: the run and its results, counts, the facts to add at the
 * end, the clock watch, the progress line. */
struct suite_run {
	struct run *run;
	int tty, can_cold;
	int nok, nfailed;
	struct progress prog;
	struct costs costs;
	struct sbuf failed, warnings, times;
	struct sbuf watchdog; /* the steps the watchdog stopped, and why */
	struct clock_watch clock;
	struct contention busy;  /* other work beside each step */
	uint64_t t_start;
};

/* Where the run was kept, for the last lines and the exit status. */
struct suite_report {
	char where[2400];
	long stored_id;          /* its id in the store, 0 when not stored */
	int kept, save_failed;
};

/* sbuf.c */
void sb_add(struct sbuf *b, const char *sep, const char *s);

/* select.c: the plan for the profile fitted to the budget and filtered by --only, --skip and
 * --subset into P->sel; the plan as --dry-run prints it; what the budget cost it, in words. */
void select_steps(struct suite_plan *P);
void print_plan(const struct suite_plan *P);
void fit_desc(const struct suite_plan *P, char *buf, size_t len);

/* workdir.c: the memory and file sizes and the sample counts the children inherit; the
 * private directories and $FILE; a swept step directory; $FILE written; the page cache dropped. */
void set_sizes_and_timing(struct suite_plan *P);
void make_dirs(struct suite_plan *P);
void sweep(const char *dir, const char *keep);
int make_file(const char *path, uint64_t bytes);
void drop_caches(void);

#endif
