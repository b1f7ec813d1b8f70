/*
 * progress.h — `plumb run`'s progress line and its warnings. On a terminal one line on stderr
 * is redrawn in place: current step, done/total, elapsed, estimated time left (the caller gives
 * the current step's estimate and the rest's, refined from how long finished steps really took
 * against their estimates). Warnings are single lines that
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
	double cur_est;       /* seconds the current step should take */
	double rest;          /* seconds the steps after it should take */
	char cur[96];
};

void progress_init(struct progress *p, int on, int total);
/* A step starts: its label, its estimate and the estimate of everything after it. */
void progress_start(struct progress *p, const char *label, double est, double rest);
void progress_finish(struct progress *p);
void progress_draw(struct progress *p);
void progress_clear(struct progress *p);
/* Estimated seconds left. */
double progress_left(const struct progress *p);
/* "plumb run: ..." on stderr as one line, around the progress line. */
void run_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The progress line run_warn() must clear (NULL: none). */
extern struct progress *progress_current;

#endif
