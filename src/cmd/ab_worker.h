/*
 * ab_worker.h — the two sides of a plumb ab session: each a `PREFIX run --ab-worker` child
 * leading its own process group, driven one step at a time over pipes, read with poll so that a
 * stop request (ab_stop) is noticed in every wait.
 */
#ifndef PLUMB_AB_WORKER_H
#define PLUMB_AB_WORKER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "results/io.h"

struct worker {
	const char *name;   /* label */
	pid_t pid;          /* leads its own process group (a wrapper's children go with it) */
	FILE *to;
	int from;           /* its stdout, read through buf with poll: a stop is noticed at once */
	char buf[4096], line[4096];
	size_t nbuf;
	char *path;         /* where it writes its run */
	char **steps;       /* labels of its steps */
	double *bound;      /* per step: the side's own watchdog bound, s (0: not said) */
	size_t nsteps;
	char *hung;         /* what the watchdog stopped it at, NULL while it answers */
	int salvaged;       /* stopped by the watchdog mid-step, it wrote the run of the steps
			     * before (path): finish_worker returns it */
	int rounds;
	int quiet;          /* a later round's worker: its stderr (the start-up warnings the first
			     * round's workers said already) goes to a file in the private directory */
};

/* The stop request (a signal number, 0: none), set by on_stop (the session's handler for
 * SIGINT, SIGTERM and SIGHUP, installed without SA_RESTART). */
extern volatile sig_atomic_t ab_stop;
void on_stop(int sig);
/* on_stop for SIGINT, SIGTERM and SIGHUP (the cleanup handler's for the rest), SIGPIPE ignored. */
void ab_catch_stops(void);
/* What ab_stopped() cleans up: both sides, the private directory. */
extern struct worker *all_workers;
extern char *ab_dir;
/* A stop request arrived: the sides stop, the private directory goes; dies of the signal. */
__attribute__((noreturn)) void ab_stopped(const char *what);

/* Exits 2 unless PREFIX's program (its first word) can be run. */
void check_prefix(const char *prefix, const char *what);
/* The next line from a side; NULL at its end, at a stop request or when deadline_ns passes. */
char *read_line(struct worker *w, uint64_t deadline_ns);
/* Start a side (PREFIX run [runargs] in worker mode) and read its plan; exits on failure. */
void start_worker(struct worker *w, const char *prefix, const char *what, char **runargs,
		  int nrun, const char *dir, int start_timeout);
/* Have the side run one step; *nres: its results so far (-1: not said). 0 ok, -1 failed.
 * bound_s > 0: the watchdog's bound; a side that has not answered by then is killed with its
 * process group and reaped, w->hung says so (one line, also said on stderr). */
int run_on(struct worker *w, const char *label, long *nres, double bound_s);
/* End the side and read its run (NULL when it failed); a side that has not written it within
 * bound_s is stopped as by run_on's watchdog. */
struct run *finish_worker(struct worker *w, double bound_s);
void free_worker(struct worker *w);

#endif
