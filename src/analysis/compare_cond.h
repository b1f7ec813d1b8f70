/*
 * compare_cond.h — warnings about how the sides were measured (compare_cond.c), for compare,
 * trend and report: sides that ran beside different amounts of other work (each plumb run
 * records the largest share of the CPUs other processes took during one of its steps,
 * suite/contention.c), and sides measured in separate blocks of time (no run of one side
 * between the first and last of another's). Either way a change of the machine reads as a
 * change between the sides; the remedy is to interleave them (plumb ab, or alternating runs).
 * And a side measured under user-mode emulation is named: its numbers are an emulator's.
 */
#ifndef PLUMB_COMPARE_COND_H
#define PLUMB_COMPARE_COND_H

#include "analysis/compare.h"

/* Others' share of the CPUs (percent points) two sides may differ by before it is said. */
#define COND_CONTENTION_DIFF_PCT 10.0

/* Each warning, malloc'd, given to add (which takes it). */
void cmp_cond_warnings(const struct side *sides, size_t n, void (*add)(void *ctx, char *w),
		       void *ctx);

#endif
