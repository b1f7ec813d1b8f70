/*
 * stats.h — order statistics over samples. The median of an even count is the mean of the two
 * middle values (lmbench averages time and count separately; plumb averages the per-op values).
 */
#ifndef PLUMB_STATS_H
#define PLUMB_STATS_H

#include <stddef.h>

void stats_sort(double *v, size_t n);
/* These copy v; v itself is left as it was. NAN for n == 0. */
double stats_median(const double *v, size_t n);
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);
/* Percentile p in [0,100], linear interpolation between closest ranks. */
double stats_percentile(const double *v, size_t n, double p);

/* Distribution-free 95% confidence interval of the median (order statistics, normal
 * approximation of the binomial); lo/hi are sample values. Returns -1 when n < 6. */
int stats_median_ci(const double *v, size_t n, double *lo, double *hi);

#endif
