/*
 * mem_levels.c — levels of a latency curve.
 *
 * A rise is a run of steps that each climb more than 12% (one flatter step is allowed inside
 * when the climb goes on after it) and climb more than 1.5x in all; the points between rises
 * are plateaus, each one's latency the median of its points. A plateau no slower than 1.3x the
 * one before is merged back into it: a rise that falls back was a disturbance, not a cache.
 *
 * A level's capacity is where the curve crosses the geometric mean of its latency and the next
 * level's: the last size before that crossing. Taking the rise's first point instead (what
 * plumb did first) reads a level short whenever the rise is gradual: a cache shared with an
 * SMT sibling or with the TLB's reach starts to miss well before it is full, and a machine
 * under a noisy neighbour once gave an L1 of 20 KiB for a 48 KiB cache that way. For a sharp
 * step (L1 here: 1.0 ns up to 48 KiB, 3.6 ns at 56 KiB) both rules give the same size. The
 * crossing is capped at 2.5x the level's latency, for when a level in between went unseen.
 */
#include <math.h>
#include "bench/mem/mem_levels.h"

static double median_of(const double *v, int a, int b)
{
	double tmp[256];
	int m = 0;
	for (int k = a; k <= b && m < 256; k++)
		tmp[m++] = v[k];
	for (int x = 1; x < m; x++)
		for (int y = x; y > 0 && tmp[y - 1] > tmp[y]; y--) {
			double t = tmp[y];
			tmp[y] = tmp[y - 1];
			tmp[y - 1] = t;
		}
	return m ? tmp[m / 2] : NAN;
}

/* The plateaus: first/last point of each, split at rises. */
static int split_rises(const double *ns, int n, struct level *lv, int max)
{
	int nl = 0, start = 0, i = 0;
	while (i < n - 1 && nl < max - 1) {
		if (!(ns[i + 1] > 1.12 * ns[i])) {
			i++;
			continue;
		}
		int s = i;
		while (i < n - 1 && (ns[i + 1] > 1.12 * ns[i] ||
				     (i + 2 < n && ns[i + 2] > 1.25 * ns[i] && ns[i + 2] > 1.12 * ns[i + 1])))
			i++;
		if (ns[i] > 1.5 * ns[s]) {
			lv[nl].first = start;
			lv[nl].last = s;
			lv[nl].ns = median_of(ns, start, s);
			nl++;
			start = i;
		}
	}
	lv[nl].first = start;
	lv[nl].last = n - 1;
	lv[nl].ns = median_of(ns, start, n - 1);
	return nl + 1;
}

int mem_find_levels(const uint64_t *sz, const double *ns, int n, struct level *lv, int max)
{
	if (n < 1 || max < 1)
		return 0;
	int nl = split_rises(ns, n, lv, max);
	/* merge a plateau into the one before when it is not really slower */
	for (int i = 1; i < nl;) {
		if (lv[i].ns > 1.3 * lv[i - 1].ns) {
			i++;
			continue;
		}
		lv[i - 1].last = lv[i].last;
		lv[i - 1].ns = median_of(ns, lv[i - 1].first, lv[i - 1].last);
		for (int k = i; k < nl - 1; k++)
			lv[k] = lv[k + 1];
		nl--;
	}
	for (int i = 0; i < nl; i++) {
		lv[i].size = sz[lv[i].last];
		if (i == nl - 1)
			continue;
		/* capped at 2.5x the level's own latency: when the next level seen is far slower (a
		 * short shared-cache plateau the host squeezed out, leaving L2 -> memory), the mean
		 * would fall inside the missing level and read L2 as 4 MiB (CI, once) */
		double mid = fmin(sqrt(lv[i].ns * lv[i + 1].ns), 2.5 * lv[i].ns);
		for (int k = lv[i].first; k < lv[i + 1].first; k++)
			if (ns[k] < mid)
				lv[i].size = sz[k];
	}
	return nl;
}
