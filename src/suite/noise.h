/* noise.h — the conditions that make numbers noisy, checked and recorded at the start of a run. */
#ifndef PLUMB_RUN_NOISE_H
#define PLUMB_RUN_NOISE_H

#include "results/run.h"

/* sample_busy: sample the CPUs' busy share for 0.25 s first (not in a side of plumb ab: it
 * starts a fresh worker each round, and the other side's start-up is what it would see) */
void run_noise_check(struct run *run, void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2))),
		     int sample_busy);

#endif
