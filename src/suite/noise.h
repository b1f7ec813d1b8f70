/* noise.h — the conditions that make numbers noisy, checked and recorded at the start of a run. */
#ifndef PLUMB_RUN_NOISE_H
#define PLUMB_RUN_NOISE_H

#include "results/run.h"

void run_noise_check(struct run *run, void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2))));

#endif
