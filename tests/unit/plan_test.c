/* plan_test.c — the suite's cost (issue 12): the plan each profile makes for a machine showing
 * a 32 MiB, 300 MiB or 1 GiB last-level cache (PLUMB_LLC) stays within the profile's budget by
 * the planner's own estimate, and --time-limit budgets are met by thinning the series, then
 * rounds, then whole tools, or refused below the smallest plan. No timing: the cost model. */
#include <stdlib.h>
#include <string.h>
#include "bench/mem/mem_common.h"
#include "suite/fit.h"
#include "suite/run_opts.h"
#include "suite/plan.h"
#include "core/timing.h"
#include "test.h"

#define MIB (1024ull * 1024)

/* What plumb run would plan for an LLC of llc bytes (knee not measured: the largest plan). */
static void cfg_for(struct plan_cfg *c, enum profile prof, uint64_t llc)
{
	char how[300];
	uint64_t want = mem_size_rule(llc, 0, 64ull << 30, how, sizeof how), mem = 8 * MIB;
	while (mem < want)
		mem *= 2;
	int reps = prof == PROF_QUICK ? 5 : prof == PROF_DEFAULT ? DEFAULT_ROUND_SAMPLES
								: TIMING_DEFAULT_REPS;
	memset(c, 0, sizeof *c);
	c->profile = prof;
	c->mem_bytes = mem;
	c->file_bytes = prof == PROF_QUICK ? 16 * MIB : prof == PROF_FULL ? mem : 64 * MIB;
	c->line = 64;
	c->file = "/d/XXX";
	c->fsdir = "/d";
	c->copies = 1;
	c->reps = reps;
	c->sample_scale = 0.1 + 0.9 * reps / (double)TIMING_DEFAULT_REPS;
}

static int rounds_for(enum profile p)
{
	return p == PROF_DEFAULT ? DEFAULT_ROUNDS : 1;
}

TEST(plan_cost_within_budget_for_large_llc)
{
	static const char *llcs[] = { "32M", "300M", "1G" };
	static const uint64_t bytes[] = { 32 * MIB, 300 * MIB, 1024 * MIB };
	const char *old = getenv("PLUMB_LLC");
	for (int i = 0; i < 3; i++) {
		setenv("PLUMB_LLC", llcs[i], 1);
		for (int prof = PROF_QUICK; prof <= PROF_FULL; prof++) {
			struct plan_cfg c;
			cfg_for(&c, (enum profile)prof, bytes[i]);
			CHECK(c.mem_bytes <= MEM_DEFAULT_CAP);
			struct plan p;
			struct plan_fit f = { .budget = plan_budget((enum profile)prof),
					      .rounds_asked = rounds_for((enum profile)prof) };
			plan_fit(&p, &c, NULL, NULL, &f);
			if (!f.fits || f.est > f.budget)
				printf("  LLC %s profile %s: estimate %.0f s, budget %.0f s\n", llcs[i],
				       profile_name((enum profile)prof), f.est, f.budget);
			CHECK(f.fits && f.est <= f.budget);
			CHECK(f.est > 1 && f.rounds >= 1);
			/* what was given up is said; tools only after rounds and sizes */
			if (f.ndropped)
				CHECK(f.rounds == 1 && (f.thinned || prof == PROF_QUICK) && f.dropped[0]);
			/* no step at all is lost from quick's plan on any of these machines */
			if (prof == PROF_QUICK)
				CHECK(f.ndropped == 0);
			plan_free(&p);
		}
	}
	if (old)
		setenv("PLUMB_LLC", old, 1);
	else
		unsetenv("PLUMB_LLC");
}

TEST(plan_time_limit_fits)
{
	const char *old = getenv("PLUMB_LLC");
	setenv("PLUMB_LLC", "1G", 1);
	static const double budgets[] = { 30, 45, 90, 300, 600 };
	for (int prof = PROF_QUICK; prof <= PROF_FULL; prof++)
		for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
			struct plan_cfg c;
			cfg_for(&c, (enum profile)prof, 1024 * MIB);
			struct plan p;
			struct plan_fit f = { .budget = budgets[b], .rounds_asked = 5 };
			plan_fit(&p, &c, NULL, NULL, &f);
			/* any budget of 30 s or more is met */
			CHECK(f.fits && f.est <= budgets[b]);
			CHECK(f.min_est <= 30);
			/* the order: sizes before rounds, rounds before tools */
			if (f.rounds < 5)
				CHECK(f.thinned || prof == PROF_QUICK);
			if (f.ndropped)
				CHECK(f.rounds == 1 && strlen(f.dropped) > 0);
			size_t kept = 0, mhz = 0;
			for (size_t i = 0; i < p.n; i++)
				if (!p.v[i].dropped) {
					kept++;
					mhz += !strcmp(p.v[i].argv[0], "mhz");
				}
			CHECK(kept > 0 && mhz == 1); /* the facts are never dropped */
			plan_free(&p);
		}
	/* a budget below the smallest plan is not met, and the minimum is known */
	struct plan_cfg c;
	cfg_for(&c, PROF_DEFAULT, 1024 * MIB);
	struct plan p;
	struct plan_fit f = { .budget = 2, .rounds_asked = 3 };
	plan_fit(&p, &c, NULL, NULL, &f);
	CHECK(!f.fits && f.min_est > 2 && f.ndropped > 0 && f.rounds == 1 && f.thinned);
	plan_free(&p);
	/* a generous budget changes nothing */
	struct plan_fit g = { .budget = 1e6, .rounds_asked = 3 };
	cfg_for(&c, PROF_DEFAULT, 32 * MIB);
	plan_fit(&p, &c, NULL, NULL, &g);
	CHECK(g.fits && !g.thinned && g.rounds == 3 && g.ndropped == 0);
	plan_free(&p);
	if (old)
		setenv("PLUMB_LLC", old, 1);
	else
		unsetenv("PLUMB_LLC");
}

TEST(plan_mem_size_rule)
{
	char how[300];
	/* 4 x a believable LLC */
	CHECK(mem_size_rule(32 * MIB, 0, 0, how, sizeof how) == 128 * MIB);
	CHECK(strstr(how, "4 x last-level cache 32 MiB") != NULL);
	/* a huge reported LLC: the cap wins, and says so */
	CHECK(mem_size_rule(1024 * MIB, 0, 0, how, sizeof how) == MEM_DEFAULT_CAP);
	CHECK(strstr(how, "cap") != NULL);
	CHECK(mem_needs_knee(300 * MIB) && !mem_needs_knee(32 * MIB) && mem_needs_knee(0));
	/* a measured knee rules over the reported size */
	CHECK(mem_size_rule(300 * MIB, 24 * MIB, 0, how, sizeof how) == 96 * MIB);
	CHECK(strstr(how, "knee 24 MiB") != NULL && strstr(how, "300 MiB") != NULL);
	/* a knee read low on a busy machine: not below the floor */
	CHECK(mem_size_rule(300 * MIB, 2 * MIB, 0, how, sizeof how) == MEM_KNEE_FLOOR);
	/* available memory wins over everything */
	CHECK(mem_size_rule(32 * MIB, 0, 50 * MIB, how, sizeof how) == 50 * MIB);
	CHECK(strstr(how, "available memory") != NULL);
}

TEST(plan_parse_duration)
{
	CHECK_NEAR(parse_duration("90s"), 90, 0);
	CHECK_NEAR(parse_duration("5m"), 300, 0);
	CHECK_NEAR(parse_duration("1h30m"), 5400, 0);
	CHECK_NEAR(parse_duration("120"), 120, 0);
	CHECK(parse_duration("") < 0 && parse_duration("5x") < 0 && parse_duration("m") < 0 &&
	      parse_duration("-5s") < 0);
}

/* The dry run prints what the run does: where a run measures the latency knee first, the dry
 * run's top is the largest the run can reach and says the range; elsewhere the two agree. */
TEST(plan_dry_run_mem_matches_run)
{
	const uint64_t M = 1ull << 20;
	const uint64_t llcs[] = { 0, 8 * M, 48 * M, 1024 * M };
	const uint64_t knees[] = { 4 * M, 16 * M, 40 * M, 100 * M };
	const uint64_t rooms[] = { 0, 128 * M, 4096 * M };
	for (size_t r = 0; r < 3; r++)
		for (size_t l = 0; l < 4; l++) {
			char how[256];
			uint64_t dry = plan_mem_top(llcs[l], 0, 0, rooms[r], how, sizeof how);
			int ranged = strstr(how, "between") != NULL;
			for (size_t k = 0; k < 4; k++) {
				char how2[256];
				uint64_t run = plan_mem_top(llcs[l], knees[k], 1, rooms[r], how2, sizeof how2);
				CHECK(run <= dry);
				if (!mem_needs_knee(llcs[l]))
					CHECK(run == dry && !ranged);
				else if (run != dry)
					CHECK(ranged);
			}
		}
	/* no cache size known (qemu-user, some boards): not 32 MiB while the run goes to 64 */
	char how[256];
	CHECK(plan_mem_top(0, 0, 0, 0, how, sizeof how) >= MEM_KNEE_FLOOR);
}
