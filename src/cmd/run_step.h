/*
 * run_step.h — running one benchmark of the suite in isolation: the tool function runs in a
 * forked child (its own process group, quiet tool_ctx), sends its results back over a pipe in
 * a line protocol, and its stderr/stdout lines are captured. A crash, a hang (per-step timeout)
 * or a stop request (Ctrl-C in the parent) kills the child and its helpers; the run goes on or
 * stops cleanly with what was measured.
 *
 * Protocol (one record per line, fields separated by TABs, \\ \t \n \r escaped as \\\\ \\t
 * \\n \\r):
 *   H  header_info                       the tool's [KEY: value] facts
 *   R  metric params x value unit version info
 *   S  value iters elapsed_ns round      a sample of the last R
 *   E                                    end: every result was sent
 */
#ifndef PLUMB_RUN_STEP_H
#define PLUMB_RUN_STEP_H

#include <signal.h>
#include <stdio.h>
#include "bench/tool.h"
#include "results/run.h"

#define STEP_MAX_LINES 16

struct step_outcome {
	int status;            /* wait status of the child (-1 if unknown) */
	int timed_out;         /* killed after the per-step timeout */
	int stopped;           /* killed because a stop was requested */
	int complete;          /* the child sent its end marker */
	double seconds;        /* wall time */
	size_t nresults;       /* results received */
	int nlines;            /* captured output lines (at most STEP_MAX_LINES kept) */
	int lines_dropped;
	char *lines[STEP_MAX_LINES];
};

struct step_env {
	const char *tmpdir;    /* TMPDIR of the child (a private directory of the run) */
	const char *fsdir;     /* the tool_ctx's fsdir */
	int round;             /* timing.round of the child; every sample is tagged with it */
	double timeout_s;      /* 0 = none */
	volatile sig_atomic_t *stop; /* nonzero: kill the child and return */
	void (*tick)(void *);  /* called a few times a second while the step runs */
	void *tick_arg;
	const char *remote;     /* --remote HOST[:BASE] for a remote step (net_remote_set), or NULL */
};

/* Run tool t with argv (argv[0] = its name) in a child; merge its results into r (samples of
 * a result already in r — same metric, params and x — are appended: that is how rounds
 * accumulate). Returns 0 when the child exited 0 and sent every result. */
int step_exec(const struct tool *t, int argc, char **argv, const struct step_env *env,
	      struct run *r, struct step_outcome *out);
void step_outcome_free(struct step_outcome *o);
/* Signal handlers the child must get back (the parent's own handlers set a flag only). */
void step_set_child_sigactions(const struct sigaction *act, const int *sigs, int n);

/* The protocol, exposed for the unit tests. */
void proto_write(FILE *f, const struct tool_ctx *c);
struct proto_state {
	struct result *cur;    /* result the next S lines belong to */
	size_t cur_idx;
	int have_cur;
	char *header;          /* H line */
	int round;
	int ended;
	size_t nresults;
	size_t *touched;       /* indexes of results that got samples (values recomputed) */
	size_t ntouched, captouched;
};
/* Parse one line (without its newline) into r; 0, or -1 on a malformed line. */
int proto_line(struct proto_state *st, char *line, struct run *r);
/* Recompute the values of the results that got samples from more than one round. */
void proto_finish(struct proto_state *st, struct run *r);
void proto_escape(FILE *f, const char *s);

#endif
