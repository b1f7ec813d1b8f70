/*
 * ab_duet.h — a duet `plumb ab` session (docs/compare.md, "Duet sessions"): sides A and B run
 * each step at the same time, each side pinned whole to a CPU of its own, so that what else
 * the machine does meanwhile hits both alike and the pair's ratio keeps little of it. Only the
 * steps whose work stays on their own CPU take part.
 */
#ifndef PLUMB_AB_DUET_H
#define PLUMB_AB_DUET_H

#include <stddef.h>

/* The two CPUs, A's and B's: the first two this process may use that are not SMT siblings
 * (siblings when no other pair exists, said on stderr). Exits 2 with fewer than two CPUs. */
void duet_pick_cpus(int cpu[2]);
/* Exits 2 on a run option a duet session places itself (--cpu) or cannot pair (--copies). */
void duet_check_runargs(char **runargs, int n);
/* Why step label (its tool the first word) is left out of a duet session; NULL: it takes part. */
const char *duet_left_out(const char *label);

#endif
