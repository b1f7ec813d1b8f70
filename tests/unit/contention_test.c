/* contention_test.c — others' share of the CPUs from two samples (suite/contention.c). */
#include <math.h>
#include <unistd.h>
#include "suite/contention.h"
#include "test.h"

TEST(contention_shares)
{
	/* 2 CPUs for 1 s: 2 s in all; busy 1.5 s of which 0.5 s ours, 0.2 s stolen */
	struct cpu_sample a = { .busy = 100, .steal = 3, .total = 400, .ours = 10, .wall = 5, .ok = 1 };
	struct cpu_sample b = { .busy = 101.5, .steal = 3.2, .total = 402, .ours = 10.5, .wall = 6,
				.ok = 1 };
	double o, s;
	CHECK(contention_shares(&a, &b, &o, &s) == 1);
	CHECK_NEAR(o, 50, 1e-9);
	CHECK_NEAR(s, 10, 1e-9);
	/* our own work is not others' */
	b.ours = 11.5;
	CHECK(contention_shares(&a, &b, &o, &s) == 1 && o == 0);
	/* too short to tell: fewer than 20 clock ticks over all CPUs */
	long hz = sysconf(_SC_CLK_TCK);
	b.total = a.total + 10.0 / (double)hz;
	CHECK(contention_shares(&a, &b, &o, &s) == 0 && o == 0 && s == 0);
	/* a sample that could not be read */
	b.total = 402;
	b.ok = 0;
	CHECK(contention_shares(&a, &b, &o, &s) == 0);
}
