/* clock.c — measure the clock's resolution and read cost once per process. */
#include "core/clock.h"

double clock_resolution_ns(void)
{
	static double res;
	if (res > 0)
		return res;
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 200; i++) {
		uint64_t a = now_ns(), b;
		while ((b = now_ns()) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	res = (double)best;
	return res;
}

double clock_overhead_ns(void)
{
	static double ovh = -1;
	if (ovh >= 0)
		return ovh;
	/* Minimum over batches of back-to-back reads: the cost a sample's start/stop pair adds. */
	double best = 1e18;
	for (int round = 0; round < 20; round++) {
		uint64_t t0 = now_ns();
		for (int i = 0; i < 100; i++)
			(void)now_ns();
		uint64_t t1 = now_ns();
		double per = (double)(t1 - t0) / 101.0;
		if (per < best)
			best = per;
	}
	ovh = best;
	return ovh;
}
