/*
 * clock.h — the one clock every measurement reads: CLOCK_MONOTONIC in nanoseconds (vDSO, no
 * system call on Linux), and what it costs and resolves, measured rather than assumed.
 */
#ifndef PLUMB_CLOCK_H
#define PLUMB_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Smallest non-zero step seen between two reads (ns); measured once, cached. */
double clock_resolution_ns(void);
/* Cost of one timed interval's pair of reads (ns); measured once, cached. */
double clock_overhead_ns(void);

#endif
