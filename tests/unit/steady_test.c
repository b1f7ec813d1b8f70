/*
 * steady_test.c — the steady figure (core/timing.h) against a known truth: an operation whose
 * cost is a law of the code (it spins until the clock has moved), stalled in a known fraction
 * of its operations. The stall moves the batch mean by about its share and leaves the median
 * operation where it was; a slower operation moves both.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/ab_rounds.h"
#include "core/clock.h"
#include "core/timing.h"
#include "test.h"

#define STALL_EVERY 50  /* every 50th operation ... */
/* One operation spins OP_NS, a stall STALL_NS more: +OP_NS an operation on average, +100 %.
 * Under user-mode emulation (tests/cross.sh sets PLUMB_TEST_EMULATED) a clock read costs
 * microseconds, so the operation is ten times longer there to stay long against it. */
static double emu(void)
{
	return getenv("PLUMB_TEST_EMULATED") ? 10 : 1;
}
#define OP_NS ((uint64_t)(1000 * emu()))
#define STALL_NS ((uint64_t)(50000 * emu()))

struct spin {
	uint64_t op_ns, stall_every, count;
};

static void spin_op(uint64_t n, void *a)
{
	struct spin *s = a;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t ns = s->op_ns;
		if (s->stall_every && ++s->count % s->stall_every == 0)
			ns += STALL_NS;
		uint64_t end = now_ns() + ns;
		while (now_ns() < end)
			;
	}
}

/* median batch mean and median steady figure, ns per operation */
static void measure_spin(struct spin *s, double *mean, double *steady)
{
	struct timing_ctx t;
	timing_ctx_init(&t);
	t.opts.min_sample_ns = 5e6;
	t.opts.repetitions = 7;
	struct bench_op op = { .loop = spin_op, .arg = s, .steady = 1 };
	struct measurement m;
	*mean = *steady = NAN;
	CHECK(measure(&t, &op, &m) == 0);
	CHECK(m.steady != NULL);
	if (!m.steady)
		return;
	*mean = measurement_stat(&m, 0);
	*steady = steady_stat(&m);
	measurement_free(&m);
}

TEST(steady_ignores_rare_stalls_mean_does_not)
{
	/* Other work on the machine only adds time to some samples: the law is checked on the
	 * least disturbed of 3 tries (a wrong method is wrong every time). The stalled mean is at
	 * least the work it spins, the operation and its share of the stalls (2000 ns): that
	 * holds on any machine; the median operation stays the operation's 1000 ns. */
	double best_gap = INFINITY, stalled_mean = NAN;
	for (int tries = 0; tries < 3; tries++) {
		struct spin clean = { OP_NS, 0, 0 }, stalled = { OP_NS, STALL_EVERY, 0 };
		double cm, cs, sm, ss;
		measure_spin(&clean, &cm, &cs);
		measure_spin(&stalled, &sm, &ss);
		double gap = fabs(ss - cs) / cs;
		if (gap < best_gap) {
			best_gap = gap;
			stalled_mean = sm;
		}
		if (gap < 0.1)
			break;
		fprintf(stderr, "steady: clean %.0f/%.0f stalled %.0f/%.0f ns (mean/steady), again\n",
			cm, cs, sm, ss);
	}
	CHECK(best_gap < 0.1);                       /* the median operation did not move */
	CHECK(stalled_mean >= 0.95 * (OP_NS + (double)STALL_NS / STALL_EVERY)); /* the mean did */
}

TEST(steady_follows_a_slower_operation)
{
	double best = INFINITY, base_s = NAN, slow_s = NAN;
	for (int tries = 0; tries < 3; tries++) {
		struct spin a = { OP_NS, 0, 0 }, b = { 2 * OP_NS, 0, 0 };
		double am, as, bm, bs;
		measure_spin(&a, &am, &as);
		measure_spin(&b, &bm, &bs);
		double err = fabs(bs / as - 2.0);
		if (err < best) {
			best = err;
			base_s = as;
			slow_s = bs;
		}
		if (err < 0.2 && fabs(bm / am - 2.0) < 0.3)
			break;
	}
	/* twice the work is twice the median operation, as it is twice the mean */
	CHECK(best < 0.2);
	CHECK(base_s >= OP_NS * 0.95 && slow_s >= 2 * OP_NS * 0.95);
}

TEST(steady_single_operations_keep_lmbench_span)
{
	/* an operation of 25 us is timed alone inside lmbench's own sample: every operation of
	 * the sample is one of the steady figure's, lmbench's value is the sample's span over
	 * them (nothing subtracted that could make it less than the work), and the median
	 * operation is the work whatever preempted some of them */
	struct spin s = { 25000, 0, 0 };
	struct timing_ctx t;
	timing_ctx_init(&t);
	t.opts.min_sample_ns = 5e6;
	t.opts.repetitions = 5;
	struct bench_op op = { .loop = spin_op, .arg = &s, .steady = 1 };
	struct measurement m;
	CHECK(measure(&t, &op, &m) == 0);
	CHECK(m.steady != NULL && m.n == 5);
	for (size_t i = 0; m.steady && i < m.n; i++) {
		CHECK(m.steady[i].batch == 1 && m.steady[i].ops == m.s[i].iters);
		CHECK(m.steady[i].elapsed_ns == m.s[i].elapsed_ns);
		CHECK(m.s[i].value >= 25000);
	}
	double steady = steady_stat(&m);
	CHECK(steady >= 25000 * 0.99 && steady < 25000 * 1.5);
	measurement_free(&m);
}

TEST(steady_with_a_fixed_count)
{
	/* lat_sig fixes the count it calibrated for its later rounds: the steady figure is taken
	 * all the same (short batches of an operation of 1 us, after each sample), and it is the
	 * operation */
	struct spin s = { OP_NS, 0, 0 };
	struct timing_ctx t;
	timing_ctx_init(&t);
	t.opts.min_sample_ns = 2e6;
	t.opts.repetitions = 5;
	struct bench_op op = { .loop = spin_op, .arg = &s, .steady = 1,
			       .fixed_iters = 2000000 / OP_NS };
	struct measurement m;
	CHECK(measure(&t, &op, &m) == 0);
	CHECK(m.steady != NULL && m.n == 5 && m.iters == 2000000 / OP_NS);
	double steady = steady_stat(&m);
	CHECK(steady >= (double)OP_NS * 0.99 && steady < (double)OP_NS * 1.5);
	measurement_free(&m);
}

/* plumb ab's time budget (cmd/ab_rounds.c): when the next round does not fit, the dearest
 * active steps stop first and the cheap ones go on. */
TEST(ab_fit_round_stops_the_dearest)
{
	int active[4] = { 1, 1, 0, 1 }, frozen[4] = { 0 };
	const double cost[4] = { 5, 60, 100, 2 };
	size_t nf = 0;
	CHECK(ab_fit_round(active, frozen, cost, 4, 100, &nf) == 0); /* 67 s fits 100 */
	CHECK(nf == 0 && active[1]);
	CHECK(ab_fit_round(active, frozen, cost, 4, 10, &nf) == 0);  /* 7 s fits 10 */
	CHECK(nf == 1 && !active[1] && frozen[1] && active[0] && active[3] && !frozen[2]);
	CHECK(ab_fit_round(active, frozen, cost, 4, 1, &nf) == -1);  /* nothing fits 1 s */
	CHECK(nf == 3 && frozen[0] && frozen[3]);
	char b[96];
	CHECK(strstr(ab_frozen_note(3, b, sizeof b), "3 dearest steps") != NULL);
	CHECK(*ab_frozen_note(0, b, sizeof b) == 0);
}
