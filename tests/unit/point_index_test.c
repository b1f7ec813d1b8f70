/* point_index_test.c — the point index gives what a scan with point_same() gives, on points
 * made to sit at the edges of the tolerance (x apart by just under and just over it, both
 * signs, NaN, infinity, scratch paths in params). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/point_index.h"
#include "core/result.h"
#include "test.h"

static const char *metrics[] = { "a.x", "b.y" };
static const char *params[] = { "", "stride=16", "file=/tmp/XXX", "file=/var/tmp/plumb.q1/XXX",
				"size=1  stride=16", "size=1 stride=16" };

static double some_x(unsigned *seed, double base)
{
	switch (rand_r(seed) % 8) {
	case 0: return NAN;
	case 1: return base;
	case 2: return base + (5e-6 + 1e-6 * fabs(base)) * 0.999;
	case 3: return base - (5e-6 + 1e-6 * fabs(base)) * 1.001;
	case 4: return -base;
	case 5: return rand_r(seed) % 64 == 0 ? INFINITY : base * 1.5;
	case 6: return 0;
	default: return base * (1 + 1e-6);
	}
}

TEST(point_index_matches_scan)
{
	unsigned seed = 7;
	enum { N = 3000 };
	struct result *r = calloc(N, sizeof *r);
	struct point_index ix;
	pidx_init(&ix, PIDX_POINT);
	double bases[] = { 1e-4, 0.5, 3, 4096, 1e9 };
	for (size_t i = 0; i < N; i++) {
		r[i].metric = (char *)metrics[rand_r(&seed) % 2];
		r[i].params = (char *)params[rand_r(&seed) % 6];
		r[i].x = some_x(&seed, bases[rand_r(&seed) % 5]);
		pidx_add(&ix, r[i].metric, r[i].params, r[i].x, i);
	}
	int bad = 0;
	for (int k = 0; k < 4000 && bad < 5; k++) {
		const char *m = metrics[rand_r(&seed) % 2], *p = params[rand_r(&seed) % 6];
		double x = some_x(&seed, bases[rand_r(&seed) % 5]);
		size_t want = (size_t)-1;
		for (size_t i = 0; i < N && want == (size_t)-1; i++)
			if (point_same(&r[i], m, p, x))
				want = i;
		size_t got = pidx_find(&ix, m, p, x);
		if (got != want) {
			bad++;
			CHECK(got == want);
		}
	}
	pidx_free(&ix);
	pidx_init(&ix, PIDX_SERIES);
	for (size_t i = 0; i < N; i++)
		pidx_add(&ix, r[i].metric, r[i].params, r[i].x, i);
	CHECK(pidx_find(&ix, "a.x", "file=/tmp/plumb.zz/XXX", 12345) ==
	      pidx_find(&ix, "a.x", "file=/tmp/XXX", NAN));
	CHECK(pidx_find(&ix, "c.z", "", 0) == (size_t)-1);
	pidx_free(&ix);
	free(r);
}
