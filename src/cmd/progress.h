/*
 * progress.h — `plumb run`'s progress line and its warnings. On a terminal one line on stderr
 * is redrawn in place: current step, done/total, elapsed, estimated time left (the plan's cost
 * estimates scaled by how long the finished steps really took). Warnings are single lines that
 * clear the progress line first and redraw it after. Off a terminal there is no progress line.
 */
#ifndef PLUMB_PROGRESS_H
#define PLUMB_PROGRESS_H

#include <stdint.h>

struct progress {
	int on;               /* draw the line (stderr is a terminal) */
	int drawn;            /* something is on the line now */
	uint64_t t0, step_t0; /* run start, current step start (ns) */
	int done, total;
	double est_total;     /* sum of every step's estimate */
	double est_done;      /* estimates of the steps finished */
	double real_done;     /* seconds the finished steps took */
	double cur_est;
	char cur[96];
};

void progress_init(struct progress *p, int on, int total, double est_total);
void progress_start(struct progress *p, const char *label, double est);
void progress_finish(struct progress *p, double est, double seconds);
/* A step that will not run (skipped): its estimate leaves the remaining time. */
void progress_skip(struct progress *p, double est);
void progress_draw(struct progress *p);
void progress_clear(struct progress *p);
/* Estimated seconds left. */
double progress_left(const struct progress *p);
/* "plumb run: ..." on stderr as one line, around the progress line. */
void run_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The progress line run_warn() must clear (NULL: none). */
extern struct progress *progress_current;

#endif
