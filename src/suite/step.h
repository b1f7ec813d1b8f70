/*
 * step.h — running one benchmark of the suite in isolation: the tool function runs in a
 * forked child (its own process group, quiet tool_ctx), sends its results back over a pipe in
 * its JSON document, and its stderr/stdout lines are captured. A crash, a hang (per-step timeout)
 * or a stop request (Ctrl-C in the parent) kills the child and its helpers; the run goes on or
 * stops cleanly with what was measured.
 *
 * Protocol: the child writes one plumb JSON document of "kind": "tool" (docs/json-schema.md:
 * the tool's facts and its results with every sample), the same a tool prints with --json;
 * the parent reads it with results/json_read.c. A document that does not parse (a child killed
 * while writing it) counts as no results.
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
	int nrefused;          /* results with values no machine gives (value_check), left out */
	char *refused;         /* the first one's why */
};

struct step_env {
	const char *tmpdir;    /* TMPDIR of the child (a private directory of the run) */
	const char *fsdir;     /* the tool_ctx's fsdir */
	const struct timing_ctx *timing; /* the run's sampling choices and placement (NULL:
					  * the defaults) */
	int round;             /* the child's timing round; every sample is tagged with it */
	double timeout_s;      /* 0 = none */
	volatile sig_atomic_t *stop; /* nonzero: kill the child and return */
	void (*tick)(void *);  /* called a few times a second while the step runs */
	void *tick_arg;
	const char *remote;     /* --remote HOST[:BASE] for a remote step (net_remote_parse), or NULL */
};

/* Run tool t with argv (argv[0] = its name) in a child; merge its results into r (samples of
 * a result already in r — same metric, params and x — are appended: that is how rounds
 * accumulate). Returns 0 when the child exited 0 and sent every result. */
int step_exec(const struct tool *t, int argc, char **argv, const struct step_env *env,
	      struct run *r, struct step_outcome *out);
void step_outcome_free(struct step_outcome *o);
/* Signal handlers the child must get back (the parent's own handlers set a flag only). */
void step_set_child_sigactions(const struct sigaction *act, const int *sigs, int n);

/* The protocol, exposed for the unit tests: write the tool's document; merge a document read
 * back into r, its samples tagged with round (results already in r gain them). 0, or -1 when
 * buf is not a complete plumb JSON document; *nresults: results it held. A value no machine
 * gives (results/run.h: value_check) is left out, and counted in out (NULL: not counted). */
void proto_write(FILE *f, const struct tool_ctx *c);
int proto_merge(const char *buf, size_t len, int round, struct run *r, size_t *nresults,
		struct step_outcome *out);

#endif
