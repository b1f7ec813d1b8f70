/* side_test.c — side metrics' arithmetic and the PMU probe's plausibility test. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/pmu.h"
#include "core/result.h"
#include "core/side.h"
#include "core/timing.h"
#include "test.h"

TEST(pmu_plausible_bounds)
{
	char why[160];
	/* 4e6 instructions of a 4e6 loop in 1 ms at 2.8 GHz: kept */
	CHECK(pmu_plausible(4e6, 2.8e6, 1e6, 4e6, why, sizeof why) == 1);
	/* a guest that reports a few thousand instructions: refused, saying the count */
	CHECK(pmu_plausible(3000, 2.8e6, 1e6, 4e6, why, sizeof why) == 0);
	CHECK(strstr(why, "instructions 3000") != NULL);
	/* too many instructions, cycles beyond 10 GHz or below 0.2 GHz: refused */
	CHECK(pmu_plausible(9e6, 2.8e6, 1e6, 4e6, why, sizeof why) == 0);
	CHECK(pmu_plausible(4e6, 2e7, 1e6, 4e6, why, sizeof why) == 0);
	CHECK(strstr(why, "GHz") != NULL);
	CHECK(pmu_plausible(4e6, 1e5, 1e6, 4e6, why, sizeof why) == 0);
	/* no calibrated loop (an architecture without one): refused */
	CHECK(pmu_plausible(4e6, 2.8e6, 1e6, 0, why, sizeof why) == 0);
	CHECK(pmu_plausible(NAN, 2.8e6, 1e6, 4e6, why, sizeof why) == 0);
}

TEST(side_per_op_and_names)
{
	struct side_sample s = { .ops = 1000 };
	s.v[SIDE_CS] = 2000;
	s.v[SIDE_FREQ_KHZ] = 2800000;
	s.have = 1u << SIDE_CS | 1u << SIDE_FREQ_KHZ;
	CHECK(side_per_op(&s, SIDE_CS) == 2.0);
	CHECK(side_per_op(&s, SIDE_FREQ_KHZ) == 2800000); /* a level is not divided */
	CHECK(isnan(side_per_op(&s, SIDE_MINFLT)));       /* not read */
	s.ops = 0;
	CHECK(isnan(side_per_op(&s, SIDE_CS)));            /* operations unknown */
	for (int f = 0; f < SIDE_NFIELDS; f++)
		CHECK(side_field_find(side_field_name(f)) == f);
	CHECK(side_field_find("nonsense") == -1);
	CHECK(side_field_is_level(SIDE_IDLE_CPUS) && side_field_is_scale(SIDE_WINDOW_NS));
}

/* a state's residency is a share of the time the CPUs read had over the window, so two CPUs
 * idle half the window in it are 50 %, not 100 %; a file without the window gives none */
TEST(side_idle_share_over_window_and_cpus)
{
	struct side_sample s = { .ops = 10, .idle_states = 2 };
	s.idle_us[0] = 1000;   /* 1 ms: half of 2 CPUs x 1 ms */
	s.idle_us[1] = 0;
	s.v[SIDE_WINDOW_NS] = 1e6;
	s.v[SIDE_IDLE_CPUS] = 2;
	s.have = 1u << SIDE_WINDOW_NS | 1u << SIDE_IDLE_CPUS;
	CHECK(fabs(side_idle_share(&s, 0) - 50) < 1e-9);
	CHECK(side_idle_share(&s, 1) == 0);
	CHECK(isnan(side_idle_share(&s, 2)));           /* no such state */
	CHECK(side_window(&s, 5e5) == 1e6);
	CHECK(side_per_op(&s, SIDE_IDLE_CPUS) == 2);    /* a level, not per operation */
	s.have = 1u << SIDE_IDLE_CPUS;
	CHECK(isnan(side_idle_share(&s, 0)));           /* an older file: no window */
	CHECK(side_window(&s, 5e5) == 5e5);             /* steal over the sample then */
	CHECK(side_window(NULL, 7) == 7);
}

static void spin(uint64_t iters, void *arg)
{
	volatile uint64_t *x = arg;
	for (uint64_t i = 0; i < iters; i++)
		*x += i;
}

/* measure() keeps a side sample with every sample; PLUMB_SIDE=off keeps none */
TEST(side_with_every_sample)
{
	uint64_t x = 0;
	struct bench_op op = { .loop = spin, .arg = &x };
	struct timing_ctx t;
	timing_ctx_init(&t);
	t.opts.repetitions = 3;
	t.opts.min_sample_ns = 2e5;
	cpu_policy_init(&t.place, "none");
	struct measurement m;
	CHECK(measure(&t, &op, &m) == 0);
	CHECK(m.n == 3);
	for (size_t i = 0; i < m.n; i++)
		CHECK(m.s[i].side && m.s[i].side->have & (1u << SIDE_TASK_NS | 1u << SIDE_CS));
	/* the machine's window runs from before a sample's first clock read to after its last */
	for (size_t i = 0; i < m.n; i++)
		CHECK((m.s[i].side->have & 1u << SIDE_WINDOW_NS) &&
		      m.s[i].side->v[SIDE_WINDOW_NS] >= m.s[i].elapsed_ns);
	CHECK(strcmp(m.side_source, "proc") == 0);
	measurement_free(&m);
	setenv("PLUMB_SIDE", "off", 1);
	CHECK(measure(&t, &op, &m) == 0);
	unsetenv("PLUMB_SIDE");
	for (size_t i = 0; i < m.n; i++)
		CHECK(m.s[i].side == NULL);
	CHECK(m.side_source[0] == 0);
	measurement_free(&m);
}

/* the store's text form reads back to the same sample; a bad number is refused */
TEST(side_text_round_trip)
{
	struct side_sample a = { .ops = 592, .idle_states = 2 }, b;
	a.v[SIDE_CS] = 1184;
	a.v[SIDE_TASK_NS] = 2741162.5;
	a.have = 1u << SIDE_CS | 1u << SIDE_TASK_NS;
	a.idle_usage[1] = 7;
	a.idle_us[1] = 1234.25;
	char buf[1024];
	side_encode(&a, buf, sizeof buf);
	CHECK(side_decode(buf, &b) == 0);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	CHECK(side_decode("ops=1 cs=x", &b) == -1);
	CHECK(side_decode("future_field=3 cs=2", &b) == 0 && b.have == 1u << SIDE_CS);
	struct side_sample none = { 0 };
	side_encode(&none, buf, sizeof buf);
	CHECK(buf[0] == 0);
}

/* a sample holds its side metrics out of line: 40 bytes whatever it read; a result keeps its
 * own copy of each, none for a sample that read nothing (freed with the result: ASan) */
TEST(side_out_of_line)
{
	CHECK(sizeof(struct sample) <= 40);
	struct side_sample sd = { .ops = 10, .have = 1u << SIDE_CS };
	sd.v[SIDE_CS] = 20;
	struct result r = { 0 };
	result_add_sample(&r, (struct sample){ .value = 1, .iters = 10, .side = &sd });
	result_add_sample(&r, (struct sample){ .value = 2, .iters = 10 });
	struct side_sample nothing = { .ops = 10 };
	result_add_sample(&r, (struct sample){ .value = 3, .iters = 10, .side = &nothing });
	sd.v[SIDE_CS] = 99; /* the caller's copy changes; the result's does not */
	CHECK(r.samples[0].side && r.samples[0].side != &sd);
	CHECK(side_per_op(r.samples[0].side, SIDE_CS) == 2.0);
	CHECK(r.samples[1].side == NULL && r.samples[2].side == NULL);
	CHECK(sample_side(&r.samples[1])->have == 0);
	result_free(&r);
}
