/*
 * compare_sim_test.c — compare's estimator on synthetic runs whose noise has the structure a
 * shared host gives (docs/compare.md): a drift shared by every metric of a run (or of a round
 * in a `plumb ab` session), a per-metric run effect, round noise with occasional outliers, and
 * known shifts. Measures false discovery rate and power for paired sessions, separate runs with
 * the store's history and separate runs on a fresh store, and the A/A false-failure rate at
 * the strict alpha the end-to-end test uses (tests/cli/ab.sh): the figures go to the test log.
 * Also Student's t against table values.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_est.h"
#include "core/util.h"
#include "test.h"

TEST(t_distribution_table)
{
	CHECK_NEAR(t_crit(0.05, 1), 12.706, 1e-3);
	CHECK_NEAR(t_crit(0.05, 10), 2.228, 1e-3);
	CHECK_NEAR(t_crit(0.01, 5), 4.032, 1e-3);
	CHECK_NEAR(t_crit(0.05, 1e6), 1.960, 1e-3);
	CHECK_NEAR(t_crit(0.001, 6), 5.959, 1e-3);
	CHECK_NEAR(t_two_sided_p(2.228, 10), 0.05, 1e-4);
	CHECK_NEAR(t_two_sided_p(0, 3), 1, 1e-12);
	CHECK_NEAR(t_two_sided_p(2.5, 7.5), t_two_sided_p(-2.5, 7.5), 1e-15);
	/* fractional degrees of freedom (Welch) lie between their neighbours */
	CHECK(t_crit(0.05, 7.5) < t_crit(0.05, 7) && t_crit(0.05, 7.5) > t_crit(0.05, 8));
}

static uint64_t rs = 0x9E3779B97F4A7C15ull;
static double u01(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return ((double)(rs >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(u01())) * cos(2 * M_PI * u01());
}

/* Round noise with a tail: 1 round in 20 is four times as noisy. */
static double round_noise(double sd)
{
	return gauss() * sd * (u01() < 0.05 ? 4 : 1);
}

/* Metrics of the families the end-to-end test runs (syscall, ops, ipc), all lower-is-better. */
static const char *const sim_metrics[] = {
	"lat_syscall.null", "lat_syscall.read", "lat_syscall.write", "lat_syscall.stat",
	"lat_syscall.fstat", "lat_syscall.open", "lat_sig.install", "lat_sig.catch",
	"lat_pipe.latency", "lat_unix.latency", "lat_fifo.latency", "lat_fcntl.latency",
	"lat_sem.latency", "lat_proc.fork", "lat_proc.exec", "lat_proc.procedure",
	"lat_select.file", "lat_ctx.overhead", "lat_tcp.latency", "lat_udp.latency",
};
#define NM (int)(sizeof sim_metrics / sizeof *sim_metrics)

/* A result of the metric: one round per log value (base + drift + noise + shift), 3 samples
 * each. */
static void put_named(struct run *r, const char *metric, const double *logv, int nrounds)
{
	struct result *p = result_list_add(&r->results, metric, "", NAN);
	const struct metric_def *d = metric_find(metric);
	p->unit = xstrdup(d ? d->unit : "us");
	p->version = d ? d->version : 1;
	for (int k = 0; k < nrounds; k++)
		for (int s = 0; s < 3; s++)
			result_add_sample(p, (struct sample){ .value = exp(logv[k] + 0.002 * s), .iters = 1000,
							      .elapsed_ns = 1, .round = k });
	result_update_value(p, metric_stat_dir(d));
}

static void put(struct run *r, int m, const double *logv, int nrounds)
{
	put_named(r, sim_metrics[m], logv, nrounds);
}

struct model {
	double machine_run_sd;  /* drift shared by all metrics of a run (or of a round in ab) */
	double metric_run_sd;   /* a metric's own run-to-run effect */
	double round_sd;        /* round to round within a run */
};

/* One separate run: a drift for the run, an effect per metric, noisy rounds; metrics with
 * index < nshift are shifted by shift (log). */
static struct run *sim_run(const struct model *mo, int rounds, int nshift, double shift)
{
	struct run *r = run_new();
	double g = gauss() * mo->machine_run_sd;
	for (int m = 0; m < NM; m++) {
		double e = gauss() * mo->metric_run_sd, v[16];
		for (int k = 0; k < rounds; k++)
			v[k] = 1 + 0.1 * m + g + e + round_noise(mo->round_sd) + (m < nshift ? shift : 0);
		put(r, m, v, rounds);
	}
	return r;
}

/* One plumb ab session: both sides share each round's drift (they ran back to back). */
static void sim_session(const struct model *mo, int rounds, int nshift, double shift,
			struct run **a, struct run **b, int id)
{
	*a = run_new();
	*b = run_new();
	char sid[32];
	snprintf(sid, sizeof sid, "sim%d", id);
	kv_set(&(*a)->facts, "ab_session", sid);
	kv_set(&(*b)->facts, "ab_session", sid);
	double g[16], e[NM][16];
	for (int k = 0; k < rounds; k++)
		g[k] = gauss() * mo->machine_run_sd;
	for (int m = 0; m < NM; m++)
		for (int k = 0; k < rounds; k++)
			e[m][k] = gauss() * mo->metric_run_sd;
	for (int side = 0; side < 2; side++)
		for (int m = 0; m < NM; m++) {
			double v[16];
			for (int k = 0; k < rounds; k++)
				v[k] = 1 + 0.1 * m + g[k] + e[m][k] + round_noise(mo->round_sd) +
				       (side && m < nshift ? shift : 0);
			put(side ? *b : *a, m, v, rounds);
		}
}

struct tally {
	long verdicts, false_v, true_v, shifted, trials_with_false, max_verdicts, worse_trials;
};

/* Count the table's verdicts: on the first nshift of names (shifted) they are true, elsewhere
 * false. */
static void count_names(const struct cmp_table *t, const char *const *names, int nnames,
			int nshift, struct tally *ty)
{
	long v = 0, f = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_test *ts = &t->rows[i].test[1];
		if (ts->v != V_WORSE && ts->v != V_BETTER)
			continue;
		int m = 0;
		while (m < nnames && strcmp(names[m], t->rows[i].metric) != 0)
			m++;
		v++;
		if (m < nshift)
			ty->true_v++;
		else
			f++;
	}
	ty->verdicts += v;
	ty->false_v += f;
	ty->trials_with_false += f > 0;
	ty->worse_trials += cmp_regressions(t) > 0;
	if (v > ty->max_verdicts)
		ty->max_verdicts = v;
	ty->shifted += nshift;
}

static void count(const struct cmp_table *t, int nshift, struct tally *ty)
{
	count_names(t, sim_metrics, NM, nshift, ty);
}

static void report(const char *what, const struct tally *ty, int trials)
{
	printf("# %s: %d trials, FDR %.3f (%ld false of %ld verdicts), power %.3f, "
	       "trials with a false verdict %.4f, most verdicts in one trial %ld\n",
	       what, trials, ty->verdicts ? (double)ty->false_v / (double)ty->verdicts : 0,
	       ty->false_v, ty->verdicts, ty->shifted ? (double)ty->true_v / (double)ty->shifted : 0,
	       (double)ty->trials_with_false / trials, ty->max_verdicts);
}

/* This host's figures (bench/README.md): runs drift 3 % together and 2 % each, rounds 1.5 %. */
static const struct model host = { 0.03, 0.02, 0.015 };

TEST(compare_sim_paired_fdr_power)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct tally ty = { 0 };
	int trials = 300;
	for (int i = 0; i < trials; i++) {
		struct run *a, *b;
		/* 6 of 20 metrics 15 % slower; 3 rounds (the default) */
		sim_session(&host, 3, 6, log(1.15), &a, &b, i);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 6, &ty);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
	report("paired ab, 3 rounds, 6 of 20 metrics +15 %", &ty, trials);
	CHECK((double)ty.false_v / (double)ty.verdicts <= 0.10);
	CHECK((double)ty.true_v / (double)ty.shifted >= 0.80);
}

TEST(compare_sim_separate_runs_history)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct tally ty = { 0 };
	int trials = 200;
	/* a quieter host: what "run-to-run noise under 5 %" means in item 5 (sd 2 %) */
	const struct model quiet = { 0.015, 0.01, 0.01 };
	for (int i = 0; i < trials; i++) {
		struct run *h[8];
		for (int k = 0; k < 8; k++)
			h[k] = sim_run(&quiet, 3, 0, 0);
		struct run *a = sim_run(&quiet, 3, 0, 0), *b = sim_run(&quiet, 3, 6, log(1.15));
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, h, 8 }, { "B", rb, 1, h, 8 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 6, &ty);
		cmp_free(t);
		for (int k = 0; k < 8; k++)
			run_free(h[k]);
		run_free(a);
		run_free(b);
	}
	report("separate runs, 8 runs of history, 6 of 20 metrics +15 %", &ty, trials);
	CHECK((double)ty.false_v / (double)(ty.verdicts ? ty.verdicts : 1) <= 0.10);
	CHECK((double)ty.true_v / (double)ty.shifted >= 0.5);
}

TEST_SIM(compare_sim_separate_runs_fresh_store)
{
	/* two default runs of one build, no history: the default noise table must keep machine
	 * drift out of the verdicts (item 3: at most 2) */
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct tally ty = { 0 };
	int trials = 1000;
	for (int i = 0; i < trials; i++) {
		struct run *a = sim_run(&host, 3, 0, 0), *b = sim_run(&host, 3, 0, 0);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 0, &ty);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
	report("separate runs A/A, fresh store (default noise)", &ty, trials);
	CHECK(ty.max_verdicts <= 2);
	/* and the same with a 2x slowdown of 6 metrics: still found */
	struct tally t2 = { 0 };
	for (int i = 0; i < 100; i++) {
		struct run *a = sim_run(&host, 3, 0, 0), *b = sim_run(&host, 3, 6, log(2.0));
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 6, &t2);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
	report("separate runs, fresh store, 6 of 20 metrics x2", &t2, 100);
	CHECK((double)t2.true_v / (double)t2.shifted >= 0.95);
}

TEST_SIM(compare_sim_aa_strict_alpha)
{
	/* what tests/cli/ab.sh asserts: plumb ab of a binary against itself passes
	 * --fail-on-regression at --alpha 0.001 --min-effect 10. 5000 sessions with no false
	 * failure put the rate below 1/1000 with 99 % confidence (-ln(0.01)/5000 = 0.0009). */
	struct cmp_opts o;
	cmp_opts_default(&o);
	o.alpha = 0.001;
	o.min_effect = 10;
	struct tally ty = { 0 };
	int trials = 5000;
	for (int i = 0; i < trials; i++) {
		struct run *a, *b;
		sim_session(&host, 3, 0, 0, &a, &b, i);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 0, &ty);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
	report("paired ab A/A, alpha 0.001, min effect 10 %", &ty, trials);
	printf("# A/A false-failure rate at alpha 0.001: %ld of %d sessions\n", ty.worse_trials,
	       trials);
	CHECK(ty.worse_trials == 0);
	/* the same rule still catches what the e2e test injects (system calls made dearer) */
	struct tally t2 = { 0 };
	for (int i = 0; i < 200; i++) {
		struct run *a, *b;
		sim_session(&host, 3, 6, log(1.5), &a, &b, i);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, 6, &t2);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
	report("paired ab, alpha 0.001, min effect 10 %, 6 of 20 metrics +50 %", &t2, 200);
	CHECK((double)t2.true_v / (double)t2.shifted >= 0.9);
}

/* Item 5 of issue 11: two default runs on a fresh store detect a 15 % change in a metric whose
 * run-to-run noise is low. lat_ops is the family measured that quiet (bench/README.md: sd 1.7 %
 * at equal clock on both hosts) while its raw value moves with the clock the guest gets: here
 * each run's clock drifts 4 % (sd) and every lat_ops time is cycles / clock, plus the metric's
 * own run effect (1.5 %) and round noise (1 %). Compare judges these rows at equal clock. */
static const char *const ops_metrics[] = {
	/* the first five: the family's common noise (table 2.5 %); the rest include the
	 * family's noisier metrics (integer_add 5 %, integer_mod 3.5 %) */
	"lat_ops.integer_mul", "lat_ops.integer_div", "lat_ops.int64_add",
	"lat_ops.int64_mul",   "lat_ops.float_mul",   "lat_ops.integer_add",
	"lat_ops.integer_mod", "lat_ops.int64_div",   "lat_ops.float_add",
	"lat_ops.double_add",
};
#define NOPS (int)(sizeof ops_metrics / sizeof *ops_metrics)

static struct run *sim_clock_run(int nshift, double shift)
{
	struct run *r = run_new();
	double clock = 3000 * exp(gauss() * 0.04);
	char c[32];
	snprintf(c, sizeof c, "%.0f", clock);
	kv_set(&r->facts, "clock_mhz", c);
	for (int m = 0; m < NOPS; m++) {
		struct result *p = result_list_add(&r->results, ops_metrics[m], "", NAN);
		const struct metric_def *d = metric_find(ops_metrics[m]);
		p->unit = xstrdup("ns");
		p->version = d ? d->version : 1;
		double e = gauss() * 0.015;
		for (int k = 0; k < 3; k++) {
			double lv = 0.1 * m - log(clock / 3000) + e + round_noise(0.01) +
				    (m < nshift ? shift : 0);
			for (int s = 0; s < 3; s++)
				result_add_sample(p, (struct sample){ .value = exp(lv + 0.002 * s),
								      .iters = 1000, .elapsed_ns = 1, .round = k });
		}
		result_update_value(p, metric_stat_dir(d));
	}
	return r;
}

static void clock_trials(int trials, int nshift, double shift, struct tally *ty, long *judged_eq)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	for (int i = 0; i < trials; i++) {
		struct run *a = sim_clock_run(0, 0), *b = sim_clock_run(nshift, shift);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		for (size_t j = 0; j < t->nrows; j++)
			*judged_eq += t->rows[j].test[1].judged_eq;
		count_names(t, ops_metrics, NOPS, nshift, ty);
		cmp_free(t);
		run_free(a);
		run_free(b);
	}
}

TEST_SIM(compare_sim_two_default_runs_detect_15pct)
{
	struct tally aa = { 0 }, ty = { 0 };
	long eq = 0;
	clock_trials(1000, 0, 0, &aa, &eq);
	report("two runs, fresh store, lat_ops, clock drifting 4 %: A/A", &aa, 1000);
	CHECK(aa.max_verdicts <= 2);
	CHECK(eq == 1000L * NOPS);
	clock_trials(300, 5, log(1.15), &ty, &eq);
	report("two runs, fresh store, lat_ops, clock drifting 4 %: 5 of 10 metrics +15 %", &ty,
	       300);
	CHECK((double)ty.true_v / (double)ty.shifted >= 0.8);
	CHECK((double)ty.false_v / (double)(ty.verdicts ? ty.verdicts : 1) <= 0.10);
}

/* ---- the four answers on paired sessions whose noise has the patterns of a shared host ----
 * Each metric's paired jitter is a share of its figure in the default noise table, off by a
 * factor up to 1.4 either way (the table is only roughly right for one machine); every round
 * has a drift both sides share; the machine drifts steadily within the session too, so the
 * second side of each pair runs a little later; one round in 20 is four times as noisy; and the
 * metrics the table gives a paired floor jump between two levels from one step to the next (as
 * par_ops.int64_add does: 2.7 or 3.9), as often as that floor says. */
static const char *const ab_metrics[] = {
	"lat_syscall.null",    "lat_syscall.read",    "lat_syscall.write",
	"lat_syscall.stat",    "lat_syscall.fstat",   "lat_syscall.open",
	"lat_sig.install",     "lat_sig.catch",       "lat_sig.prot",
	"lat_pipe.latency",    "lat_unix.latency",    "lat_fifo.latency",
	"lat_fcntl.latency",   "lat_sem.latency",     "lat_proc.fork",
	"lat_proc.exec",       "lat_proc.procedure",  "lat_ops.integer_mul",
	"lat_ops.integer_div", "lat_ops.int64_mul",   "lat_ops.float_mul",
	"lat_ops.double_add",  "lat_ops.integer_add", "lat_ops.float_bogomflops",
	"par_ops.double_add",  "par_ops.float_add",   "par_ops.int64_add",
	"par_ops.integer_bit",
};
#define NAB (int)(sizeof ab_metrics / sizeof *ab_metrics)

struct ab_noise {
	double share;  /* paired jitter of one step: this share of the table's figure */
	double hetero; /* each metric's jitter off the table by up to exp(+-hetero) */
	int rounds;
};

/* One session; shift[m]: the true change of metric m on side B (log, worse for positive on
 * latencies and negative on parallelism: the sign is applied to the value). */
static void ab_session(const struct ab_noise *no, const double *shift, struct run **a,
		       struct run **b, int id)
{
	*a = run_new();
	*b = run_new();
	char sid[32];
	snprintf(sid, sizeof sid, "decide%d", id);
	kv_set(&(*a)->facts, "ab_session", sid);
	kv_set(&(*b)->facts, "ab_session", sid);
	double va[NAB][16], vb[NAB][16], sd[NAB], g[16];
	for (int m = 0; m < NAB; m++)
		sd[m] = no->share * default_run_noise(ab_metrics[m], 1) *
			exp((2 * u01() - 1) * no->hetero);
	for (int k = 0; k < no->rounds; k++)
		g[k] = gauss() * 0.03;
	int step = 0;
	for (int k = 0; k < no->rounds; k++)
		for (int m = 0; m < NAB; m++)
			for (int side = 0; side < 2; side++) {
				/* jump between two levels 3 steps in 10, sized so that the paired sd
				 * is the table's floor */
				double fl = default_pair_noise(ab_metrics[m]);
				double lv = 1 + 0.1 * m + g[k] + round_noise(sd[m]) + 0.0005 * step++;
				if (fl > 0 && u01() < 0.3)
					lv += fl / 0.648;
				if (side)
					lv += shift[m];
				(side ? vb : va)[m][k] = lv;
			}
	for (int m = 0; m < NAB; m++) {
		put_named(*a, ab_metrics[m], va[m], no->rounds);
		put_named(*b, ab_metrics[m], vb[m], no->rounds);
	}
}

struct answers {
	long sessions, false_sessions, tested, same, verdicts, wrong, shifted, found,
		false_same_risk, false_same, rounds;
	long steady, steady_same; /* rows of metrics without two levels (no paired floor) */
};

/* Tally one judged session: a verdict on an unshifted row is false, a `worse` on a shifted row
 * found; a row whose true change exceeds min-effect by more than its interval's half-width is a
 * risk for `same`, and `same` there is false. */
static void ab_tally(const struct cmp_table *t, const double *shift, const struct cmp_opts *o,
		     struct answers *an)
{
	long wrong = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_test *ts = &t->rows[i].test[1];
		int m = 0;
		while (m < NAB && strcmp(ab_metrics[m], t->rows[i].metric) != 0)
			m++;
		if (m == NAB || ts->v == V_NOTEST)
			continue;
		an->tested++;
		an->same += ts->v == V_SAME;
		if (default_pair_noise(ab_metrics[m]) == 0) {
			an->steady++;
			an->steady_same += ts->v == V_SAME;
		}
		int flagged = ts->v == V_WORSE || ts->v == V_BETTER;
		an->verdicts += flagged;
		if (shift[m] == 0)
			wrong += flagged;
		else {
			an->shifted++;
			an->found += ts->v == V_WORSE;
			wrong += ts->v == V_BETTER;
		}
		double half = (ts->hi - ts->lo) / 2, truth = expm1(fabs(shift[m])) * 100;
		if (truth > o->min_effect + half) {
			an->false_same_risk++;
			an->false_same += ts->v == V_SAME;
		}
	}
	an->wrong += wrong;
	an->false_sessions += wrong > 0;
	an->sessions++;
}

static void ab_judge(const struct ab_noise *no, const double *shift, const struct cmp_opts *o,
		     struct answers *an, int id)
{
	struct run *a, *b;
	ab_session(no, shift, &a, &b, id);
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
	struct cmp_table *t = cmp_build(s, 2, o);
	ab_tally(t, shift, o, an);
	cmp_free(t);
	run_free(a);
	run_free(b);
}

static void answers_report(const char *what, const struct answers *an)
{
	printf("# %s: %ld sessions, sessions with a false verdict %.3f (%ld false of %ld verdicts), "
	       "same %.2f of %ld tested rows, power %.2f (%ld of %ld shifted rows worse), "
	       "same where the change exceeds min-effect + half-width: %ld of %ld\n",
	       what, an->sessions, (double)an->false_sessions / (double)an->sessions, an->wrong,
	       an->verdicts,
	       (double)an->same / (double)(an->tested ? an->tested : 1), an->tested,
	       (double)an->found / (double)(an->shifted ? an->shifted : 1), an->found, an->shifted,
	       an->false_same, an->false_same_risk);
}

TEST_SIM(decide_aa_sessions)
{
	/* A/A: the table's correction promises fewer than one session in twenty with a false row */
	struct cmp_opts o;
	cmp_opts_default(&o);
	double none[NAB] = { 0 };
	struct answers an = { 0 };
	const struct ab_noise no = { 0.35, 0.35, 3 };
	for (int i = 0; i < 400; i++)
		ab_judge(&no, none, &o, &an, i);
	answers_report("paired A/A, 3 rounds, drift, two-level steps, noise off the table", &an);
	CHECK((double)an.false_sessions / (double)an.sessions <= 0.07);
	/* on a quiet machine most rows are decided the same within 3 % (not the two-level ones,
	 * whose floor is 8-19 %, nor bogomflops): 5 rounds, each step's jitter a tenth of the
	 * table's run-to-run figure (1 % for a system call, 0.2 % for lat_ops) */
	struct answers q = { 0 };
	const struct ab_noise quiet = { 0.1, 0.35, 5 };
	for (int i = 0; i < 100; i++)
		ab_judge(&quiet, none, &o, &q, i);
	answers_report("paired A/A, quiet machine, 5 rounds", &q);
	printf("# of which rows without two levels: same %ld of %ld\n", q.steady_same, q.steady);
	CHECK((double)q.steady_same / (double)q.steady >= 0.7);
	CHECK(q.false_sessions <= 10);
}

/* Every other metric worse by size (a ratio - 1), the rest unchanged. */
static void shift_half(double *shift, double size)
{
	for (int m = 0; m < NAB; m++) {
		const struct metric_def *d = metric_find(ab_metrics[m]);
		double s = m % 2 ? 0 : log1p(size);
		shift[m] = d && d->better == HIGHER ? -s : s;
	}
}

TEST_SIM(decide_shifts_power_and_same)
{
	/* known shifts of 3 to 20 % on half the metrics (every other one) */
	struct cmp_opts o;
	cmp_opts_default(&o);
	static const double sizes[] = { 0.03, 0.05, 0.10, 0.20 };
	struct answers all = { 0 };
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		double shift[NAB];
		shift_half(shift, sizes[z]);
		struct answers an = { 0 };
		const struct ab_noise no = { 0.35, 0.35, 3 };
		for (int i = 0; i < 150; i++)
			ab_judge(&no, shift, &o, &an, i);
		char what[96];
		snprintf(what, sizeof what, "paired, 3 rounds, half the metrics %+.0f %%",
			 sizes[z] * 100);
		answers_report(what, &an);
		all.false_same += an.false_same;
		all.false_same_risk += an.false_same_risk;
		/* the correction controls the share of false verdicts among those given */
		CHECK((double)an.wrong / (double)(an.verdicts ? an.verdicts : 1) <= 0.10);
	}
	/* `same` is (almost) never said of a change larger than min-effect plus the half-width */
	CHECK(all.false_same <= 0.05 * (double)all.false_same_risk);
	/* and with 8 rounds, quieter: small changes are found, the rest is same */
	double shift[NAB] = { 0 };
	for (int m = 0; m < NAB; m += 2)
		shift[m] = metric_find(ab_metrics[m])->better == HIGHER ? -log(1.08) : log(1.08);
	struct answers an = { 0 };
	const struct ab_noise q = { 0.15, 0.35, 8 };
	for (int i = 0; i < 100; i++)
		ab_judge(&q, shift, &o, &an, i);
	answers_report("paired, 8 rounds, quiet, half the metrics +8 %", &an);
	CHECK(an.false_same <= 0.05 * (double)(an.false_same_risk ? an.false_same_risk : 1));
	CHECK((double)an.found / (double)an.shifted >= 0.6);
}

TEST(decide_prior_df_from_spread)
{
	/* 60 rows of 3-round variances (2 degrees of freedom) from one true variance: the pooled
	 * figure is worth the most; from variances a hundredfold apart, much less; alone, nothing */
	double s2[60], df[60];
	for (int i = 0; i < 60; i++) {
		double a = gauss(), b = gauss();
		s2[i] = (a * a + b * b) / 2 * 1e-4;
		df[i] = 2;
	}
	CHECK_NEAR(prior_df_from_spread(s2, df, 60, 4), 4, 1e-12);
	for (int i = 0; i < 60; i++)
		s2[i] *= i % 2 ? 10 : 0.1;
	double d = prior_df_from_spread(s2, df, 60, 4);
	printf("# prior worth %.2f degrees of freedom for variances a hundredfold apart\n", d);
	CHECK(d > 0 && d < 1.5);
	CHECK(prior_df_from_spread(s2, df, 2, 4) == 0);
}

/* ---- sequential sessions (docs/compare.md, "Sequential sessions") ----
 * The session `plumb ab` runs: looks after 3, 6, 12, 24 and 48 rounds; at each look the rows still
 * undecided get rounds up to the next one, the others stop; a time limit may end the session
 * after an earlier look. Each step's noise is ab_session()'s (drift shared by a round, steady
 * drift through the session, a noisy round in 20, two-level steps, noise off the table), plus a
 * per-process offset: each round's pair of fresh workers gives each side its own offset, a
 * noise of the round (off_const: one offset per side for the whole session instead, as one
 * worker per side gave). */
#define SEQ_R 48
static const int seq_looks[] = { 3, 6, 12, 24, 48 };
#define SEQ_NLOOKS 5

struct seq_noise {
	double share, hetero, off_sd;
	int off_const, last_look; /* last_look: the time limit ends the session after this look */
	int freeze;               /* from the second look on, every other undecided metric gets no
				   * more rounds (its step, the dearest, stopped for time: ab.c) */
};

static void seq_put(struct run *r, double v[][SEQ_R], const int *nr)
{
	for (int m = 0; m < NAB; m++)
		put_named(r, ab_metrics[m], v[m], nr[m]);
}

static void seq_session(const struct seq_noise *no, const double *shift, const struct cmp_opts *o,
			struct answers *an, int id)
{
	static double va[NAB][SEQ_R], vb[NAB][SEQ_R];
	double sd[NAB], g[SEQ_R], off[2][NAB];
	for (int m = 0; m < NAB; m++) {
		sd[m] = no->share * default_run_noise(ab_metrics[m], 1) * exp((2 * u01() - 1) * no->hetero);
		off[0][m] = gauss() * no->off_sd;
		off[1][m] = gauss() * no->off_sd;
	}
	for (int k = 0; k < SEQ_R; k++)
		g[k] = gauss() * 0.03;
	int step = 0;
	for (int k = 0; k < SEQ_R; k++)
		for (int m = 0; m < NAB; m++)
			for (int side = 0; side < 2; side++) {
				double fl = default_pair_noise(ab_metrics[m]);
				double lv = 1 + 0.1 * m + g[k] + round_noise(sd[m]) + 0.0005 * step++;
				if (fl > 0 && u01() < 0.3)
					lv += fl / 0.648;
				lv += no->off_const ? off[side][m] : gauss() * no->off_sd;
				if (side)
					lv += shift[m];
				(side ? vb : va)[m][k] = lv;
			}
	int nr[NAB], active[NAB], frozen[NAB];
	for (int m = 0; m < NAB; m++)
		active[m] = 1, nr[m] = 0, frozen[m] = 0;
	char sid[32];
	snprintf(sid, sizeof sid, "seq%d", id);
	struct cmp_table *t = NULL;
	struct run *a = NULL, *b = NULL;
	for (int k = 0; k < SEQ_NLOOKS; k++) {
		for (int m = 0; m < NAB; m++)
			if (active[m] && !frozen[m])
				nr[m] = seq_looks[k];
		run_free(a);
		run_free(b);
		cmp_free(t);
		a = run_new();
		b = run_new();
		struct run *both[2] = { a, b };
		for (int s = 0; s < 2; s++) {
			kv_set(&both[s]->facts, "ab_session", sid);
			kv_set(&both[s]->facts, "ab_looks", "3,6,12,24,48");
			kv_set(&both[s]->facts, "ab_spend_rho", "2");
		}
		seq_put(a, va, nr);
		seq_put(b, vb, nr);
		struct run *ra[] = { a }, *rb[] = { b };
		struct side sides[2] = { { "A", ra, 1, NULL, 0 }, { "B", rb, 1, NULL, 0 } };
		struct cmp_opts oi = *o;
		int last = k == SEQ_NLOOKS - 1 || seq_looks[k] == no->last_look;
		oi.interim = !last;
		t = cmp_build(sides, 2, &oi);
		if (last)
			break;
		int open = 0;
		for (int m = 0; m < NAB; m++)
			active[m] = 0;
		for (size_t i = 0; i < t->nrows; i++)
			if (t->rows[i].test[1].v == V_UNDECIDED)
				for (int m = 0; m < NAB; m++)
					if (!strcmp(ab_metrics[m], t->rows[i].metric))
						active[m] = 1, open += !frozen[m];
		for (int m = 0; no->freeze && k >= 1 && m < NAB; m += 2)
			if (active[m] && !frozen[m])
				frozen[m] = 1, open--;
		if (!open) {
			/* every row decided: the final judgment is the same table, without interim */
			cmp_free(t);
			t = cmp_build(sides, 2, o);
			break;
		}
	}
	for (int m = 0; m < NAB; m++)
		an->rounds += nr[m];
	ab_tally(t, shift, o, an);
	cmp_free(t);
	run_free(a);
	run_free(b);
}

static void seq_report(const char *what, const struct answers *an)
{
	answers_report(what, an);
	printf("#   mean rounds per row %.1f (a fixed design of 48 rounds: 48)\n",
	       (double)an->rounds / (double)(an->tested ? an->tested : 1));
}

/* n A/A sessions of noise no, reported as what; the share of sessions with a false row. */
static double seq_aa(const struct seq_noise *no, int n, const char *what, struct answers *an)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	double none[NAB] = { 0 };
	for (int i = 0; i < n; i++)
		seq_session(no, none, &o, an, i);
	seq_report(what, an);
	return (double)an->false_sessions / (double)an->sessions;
}

TEST_SIM(decide_sequential_aa)
{
	/* stopping when decided keeps the table's promise: fewer than 1 session in 20 with a false
	 * row (alpha spent over the looks, each look corrected over the rows it tests) */
	struct answers an = { 0 }, cut = { 0 }, one = { 0 }, q = { 0 };
	const struct seq_noise no = { 0.35, 0.35, 0.01, 0, 48, 0 };
	CHECK(seq_aa(&no, 200, "sequential A/A, fresh workers (process offset 1 % per round), "
		     "looks 3/6/12/24/48", &an) <= 0.07);
	/* the time limit ends the session after the look at 6 rounds: what is left of alpha is spent
	 * on the rounds there are */
	const struct seq_noise nc = { 0.35, 0.35, 0.01, 0, 6, 0 };
	CHECK(seq_aa(&nc, 200, "sequential A/A, ended by the time limit after 6 rounds", &cut) <= 0.07);
	/* the dearest undecided steps stopped for time from the second look on (every other
	 * metric): their rows are judged at each later look on the rounds they have */
	struct answers fz = { 0 };
	const struct seq_noise nf = { 0.35, 0.35, 0.01, 0, 48, 1 };
	CHECK(seq_aa(&nf, 200, "sequential A/A, half the undecided steps stopped for time after "
		     "look 2", &fz) <= 0.07);
	/* one worker per side for the whole session: its offset is a change no test within the
	 * session can tell from the build's, and more rounds only make it surer */
	const struct seq_noise n1 = { 0.35, 0.35, 0.01, 1, 48, 0 };
	seq_aa(&n1, 200, "sequential A/A, one worker per side (constant offset 1 %)", &one);
	CHECK(one.false_sessions > an.false_sessions);
	/* a quiet machine: most rows end `same` */
	const struct seq_noise nq = { 0.1, 0.35, 0.002, 0, 48, 0 };
	seq_aa(&nq, 100, "sequential A/A, quiet machine", &q);
	printf("#   of which rows without two levels: same %ld of %ld\n", q.steady_same, q.steady);
	CHECK((double)q.steady_same / (double)q.steady >= 0.8);
}

TEST_SIM(decide_sequential_power)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	static const double sizes[] = { 0.03, 0.05, 0.10, 0.20 };
	struct answers all = { 0 };
	for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++) {
		double shift[NAB];
		shift_half(shift, sizes[z]);
		struct answers an = { 0 };
		const struct seq_noise no = { 0.35, 0.35, 0.01, 0, 48, 0 };
		for (int i = 0; i < 100; i++)
			seq_session(&no, shift, &o, &an, 1000 + i);
		char what[96];
		snprintf(what, sizeof what, "sequential, half the metrics %+.0f %%", sizes[z] * 100);
		seq_report(what, &an);
		all.false_same += an.false_same;
		all.false_same_risk += an.false_same_risk;
		CHECK((double)an.wrong / (double)(an.verdicts ? an.verdicts : 1) <= 0.10);
		if (sizes[z] >= 0.10)
			CHECK((double)an.found / (double)an.shifted >= 0.6);
	}
	printf("# sequential: same where the change exceeds min-effect + half-width: %ld of %ld\n",
	       all.false_same, all.false_same_risk);
	CHECK(all.false_same <= 0.05 * (double)(all.false_same_risk ? all.false_same_risk : 1));
}

/* ---- two default runs a side on a fresh store, the cheap OS latencies in 12 rounds ----
 * The default profile runs the system-call, signal and IPC latencies (the first 13 of
 * sim_metrics) in 12 rounds and the rest in 3 (docs/suite.md). Their declared noise was
 * measured on 3-round runs; most of it is round noise, which 12 rounds shrink: compare takes
 * the declared run effect plus the side's own round variance over its rounds
 * (fresh_store_noise in compare_judge.c). The noise is what the quiet guest showed
 * (bench/README.md, "Separate runs"): rounds 7.5 % with a tail (about 10 % in all), a run
 * effect of 2.5 % (2 % per metric, 1.5 % shared by the run; the guest's pooled 3.1 % for system
 * calls, 1.8 % for IPC); a host whose run effect is each metric's declared one; and runs that
 * drift 3 % together. */
#define OS12 13
static struct run *sim_run_os12(const struct model *mo, int nshift, double shift)
{
	struct run *r = run_new();
	double g = gauss() * mo->machine_run_sd;
	for (int m = 0; m < NM; m++) {
		int rounds = m < OS12 ? 12 : 3;
		/* metric_run_sd < 0: each 12-round metric's run effect is the one it declares */
		const struct metric_def *d = metric_find(sim_metrics[m]);
		double sd = mo->metric_run_sd >= 0 ? mo->metric_run_sd
			    : m < OS12 && d ? d->noise.run_effect : 0.02;
		double e = gauss() * sd, v[16];
		for (int k = 0; k < rounds; k++)
			v[k] = 1 + 0.1 * m + g + e + round_noise(mo->round_sd) + (m < nshift ? shift : 0);
		put(r, m, v, rounds);
	}
	return r;
}

static void os12_trials(const struct model *mo, int trials, int nshift, double shift,
			struct tally *ty)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	for (int i = 0; i < trials; i++) {
		struct run *ra[2], *rb[2];
		for (int k = 0; k < 2; k++) {
			ra[k] = sim_run_os12(mo, 0, 0);
			rb[k] = sim_run_os12(mo, nshift, shift);
		}
		struct side s[2] = { { "A", ra, 2, NULL, 0 }, { "B", rb, 2, NULL, 0 } };
		struct cmp_table *t = cmp_build(s, 2, &o);
		count(t, nshift, ty);
		cmp_free(t);
		for (int k = 0; k < 2; k++) {
			run_free(ra[k]);
			run_free(rb[k]);
		}
	}
}

TEST(compare_default_noise_follows_rounds)
{
	/* the declared figure holds at its own rounds, round noise shrinks beyond them, the run
	 * effect never does, and a metric without a declared run effect keeps its figure */
	double d = default_run_noise("lat_syscall.null", 0);
	const struct metric_def *m = metric_find("lat_syscall.null");
	CHECK(m && m->noise.run_effect > 0);
	double e = m ? m->noise.run_effect : 0;
	CHECK_NEAR(default_run_noise_at("lat_syscall.null", 0, NOISE_ROUNDS), d, 1e-12);
	CHECK_NEAR(default_run_noise_at("lat_syscall.null", 0, 0), d, 1e-12);
	CHECK_NEAR(default_run_noise_at("lat_syscall.null", 0, 12),
		   sqrt(e * e + (d * d - e * e) * NOISE_ROUNDS / 12), 1e-12);
	CHECK(default_run_noise_at("lat_syscall.null", 0, 1e9) >= e * 0.999);
	CHECK(default_run_noise_at("lat_syscall.null", 0, 1) > d);
	CHECK_NEAR(default_run_noise_at("lat_ops.int64_mul", 0, 12),
		   default_run_noise("lat_ops.int64_mul", 0), 1e-12);
	size_t n[] = { 12, 12, 3 };
	CHECK_NEAR(rounds_harmonic(n, 3), 3 / (2.0 / 12 + 1.0 / 3), 1e-12);
	CHECK_NEAR(rounds_harmonic(n, 0), 0, 0);
}

TEST_SIM(compare_sim_two_runs_a_side_os_rounds)
{
	const struct model quiet12 = { 0.015, 0.02, 0.075 };
	const struct model effect_at_table = { 0, -1, 0.075 }, shared3 = { 0.03, 0.01, 0.075 };
	struct tally aa = { 0 }, aa2 = { 0 }, aa3 = { 0 }, ty = { 0 }, ty10 = { 0 }, ty20 = { 0 };
	os12_trials(&quiet12, 1000, 0, 0, &aa);
	report("2 + 2 runs, fresh store, OS latencies in 12 rounds: A/A", &aa, 1000);
	os12_trials(&effect_at_table, 1000, 0, 0, &aa2);
	report("2 + 2 runs, fresh store, run effects at the declared figures: A/A", &aa2, 1000);
	os12_trials(&shared3, 1000, 0, 0, &aa3);
	report("2 + 2 runs, fresh store, runs drifting 3 % together: A/A", &aa3, 1000);
	os12_trials(&quiet12, 300, 6, log(1.15), &ty);
	report("2 + 2 runs, fresh store, OS latencies in 12 rounds: 6 system calls +15 %", &ty,
	       300);
	os12_trials(&quiet12, 300, 6, log(1.10), &ty10);
	report("2 + 2 runs, fresh store, OS latencies in 12 rounds: 6 system calls +10 %", &ty10,
	       300);
	os12_trials(&quiet12, 300, 6, log(1.20), &ty20);
	report("2 + 2 runs, fresh store, OS latencies in 12 rounds: 6 system calls +20 %", &ty20,
	       300);
	/* the correction's promise: few tables with a false verdict, none with many */
	CHECK((double)aa.trials_with_false / 1000 <= 0.05);
	CHECK((double)aa2.trials_with_false / 1000 <= 0.05);
	CHECK(aa.max_verdicts <= 2 && aa2.max_verdicts <= 2);
	/* a drift every metric of a run shares moves them together: as rare, but in clusters
	 * (positive dependence keeps Benjamini-Hochberg's promise, not the size of a table's
	 * false rows); the guest's shared part was 2.7 % (bench/README.md) */
	CHECK((double)aa3.trials_with_false / 1000 <= 0.05);
	/* the simulated rounds have a heavier tail than the guest's (real runs: 89 % at +15 %,
	 * bench/README.md); with 3-round figures whatever the rounds it was 13 % at +15 % */
	CHECK((double)ty.true_v / (double)ty.shifted >= 0.5);
	CHECK((double)ty20.true_v / (double)ty20.shifted >= 0.8);
	CHECK((double)ty.false_v / (double)(ty.verdicts ? ty.verdicts : 1) <= 0.10);
}
