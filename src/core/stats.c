/* stats.c — median, minimum, percentiles; small and exact, used on every metric. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/stats.h"
#include "core/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
}

static double *sorted_copy(const double *v, size_t n)
{
	double *c = xmalloc((n ? n : 1) * sizeof *c);
	memcpy(c, v, n * sizeof *c);
	stats_sort(c, n);
	return c;
}

double stats_percentile(const double *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double *c = sorted_copy(v, n);
	double pos = p / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);
	double r = c[lo] + (c[hi] - c[lo]) * (pos - (double)lo);
	free(c);
	return r;
}

double stats_median(const double *v, size_t n)
{
	return stats_percentile(v, n, 50.0);
}

double stats_min(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	if (n == 0)
		return NAN;
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

int stats_median_ci(const double *v, size_t n, double *lo, double *hi)
{
	if (n < 6)
		return -1;
	double *c = sorted_copy(v, n);
	double half = 1.96 * sqrt((double)n) / 2.0;
	long j = (long)floor((double)n / 2.0 - half), k = (long)ceil((double)n / 2.0 + half);
	if (j < 0)
		j = 0;
	if (k > (long)n - 1)
		k = (long)n - 1;
	*lo = c[j];
	*hi = c[k];
	free(c);
	return 0;
}
