/*
 * compare_test.c — the statistics of `plumb compare` (Holm and BH) checked against hand
 * computations, and the compare table on synthetic runs built directly in C: a run against itself, a known shift, pure noise over many
 * metrics, too few rounds, neutral metrics, method versions, pooling, facts warnings.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_est.h"
#include "analysis/p_adjust.h"
#include "core/util.h"
#include "test.h"

TEST(p_adjust_known)
{
	/* Holm by hand: sorted .005 .01 .03 .04 → ×4 ×3 ×2 ×1 = .02 .03 .06 .04 → running max
	 * .02 .03 .06 .06. BH: ×4/1 ×4/2 ×4/3 ×4/4 = .02 .02 .04 .04 → running min from the top
	 * the same. (R: p.adjust(c(.01,.04,.03,.005), "holm") = .03 .06 .06 .02; "BH" = .02 .04
	 * .04 .02.) */
	double h[] = { 0.01, 0.04, 0.03, 0.005 }, b[] = { 0.01, 0.04, 0.03, 0.005 };
	p_adjust(h, 4, CORR_HOLM);
	CHECK_NEAR(h[0], 0.03, 1e-12);
	CHECK_NEAR(h[1], 0.06, 1e-12);
	CHECK_NEAR(h[2], 0.06, 1e-12);
	CHECK_NEAR(h[3], 0.02, 1e-12);
	p_adjust(b, 4, CORR_BH);
	CHECK_NEAR(b[0], 0.02, 1e-12);
	CHECK_NEAR(b[1], 0.04, 1e-12);
	CHECK_NEAR(b[2], 0.04, 1e-12);
	CHECK_NEAR(b[3], 0.02, 1e-12);
	/* NAN entries are not tests: they do not count and stay NAN */
	double n[] = { 0.01, NAN, 0.02 };
	p_adjust(n, 3, CORR_HOLM);
	CHECK_NEAR(n[0], 0.02, 1e-12);
	CHECK(isnan(n[1]));
	CHECK_NEAR(n[2], 0.02, 1e-12);
	double c[] = { 0.5, 0.9 };
	p_adjust(c, 2, CORR_HOLM); /* capped at 1 */
	CHECK_NEAR(c[0], 1, 1e-12);
	CHECK_NEAR(c[1], 1, 1e-12);
	enum correction k;
	CHECK(correction_parse("bh", &k) == 0 && k == CORR_BH);
	CHECK(correction_parse("bonferroni", &k) == -1);
}

/* ---- synthetic runs ---------------------------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ull;
static double urand(void) /* xorshift64, uniform in [0, 1) */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Add a point whose rounds have these values (each round: 3 samples around the value, the
 * smallest equal to it, the median 1% above, so MIN and MEDIAN metrics both see a shift). */
static struct result *add_point(struct run *r, const char *metric, const char *params, double x,
				const double *rounds, int nrounds)
{
	struct result *p = result_list_add(&r->results, metric, params, x);
	const struct metric_def *d = metric_find(metric);
	p->unit = xstrdup(d ? d->unit : "us");
	p->version = d ? d->version : 1;
	p->info = xstrdup("cpu=1 placement=single:1");
	for (int k = 0; k < nrounds; k++)
		for (int s = 0; s < 3; s++)
			result_add_sample(p, (struct sample){ .value = rounds[k] * (1 + 0.01 * s),
							      .iters = 1000, .elapsed_ns = rounds[k] * 1000,
							      .round = k });
	result_update_value(p, metric_stat_dir(d));
	return p;
}

static void noisy(double *v, int n, double center, double rel)
{
	for (int i = 0; i < n; i++)
		v[i] = center * (1 + rel * (2 * urand() - 1));
}

static struct side one_side(const char *name, struct run **runs, size_t n)
{
	struct side s = { (char *)name, runs, n, NULL, 0 };
	return s;
}

static const struct cmp_row *row_of(const struct cmp_table *t, const char *metric, double x)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (strcmp(t->rows[i].metric, metric) == 0 &&
		    (isnan(x) ? isnan(t->rows[i].x) : t->rows[i].x == x))
			return &t->rows[i];
	return NULL;
}

static size_t count_verdict(const struct cmp_table *t, enum verdict v)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++)
			n += t->rows[i].test[s].v == v;
	return n;
}

/* Yuen's trimmed mean of paired differences (compare_est.h): by hand, and what it is for. */
TEST(paired_trimmed_known)
{
	/* under 10: nothing trimmed, the mean, the sample variance and n - 1 */
	double a[] = { 100, 3, 1, 4, 2 };
	struct paired_spread p = paired_trimmed(a, 5);
	CHECK_NEAR(p.center, 22, 1e-12);
	CHECK_NEAR(p.s2, sample_var(a, 5), 1e-12);
	CHECK_NEAR(p.df, 4, 1e-12);
	CHECK(isnan(paired_trimmed(a, 1).s2));
	/* n = 10, g = 2: kept 3..8 (mean 5.5); winsorized 3 3 3 4 5 6 7 8 8 8 (variance 42.5 / 9);
	 * s2 = n (n - 1) s_w^2 / (h (h - 1)) = 10 * 9 * 42.5 / 9 / 30; df = h - 1 = 5 */
	double b[] = { 100, 3, 1, 4, 2, 5, 7, 6, 9, 8 };
	p = paired_trimmed(b, 10);
	CHECK_NEAR(p.center, 5.5, 1e-12);
	CHECK_NEAR(p.s2, 425.0 / 30, 1e-12);
	CHECK_NEAR(p.df, 5, 1e-12);
	/* 48 pairs, a +3 % change within ±0.5 % jitter; 14 of them straddled a host's two levels,
	 * ±35 % (7 each way): the mean's interval spans both signs, the trimmed one excludes 0 */
	double d[48];
	for (int i = 0; i < 48; i++)
		d[i] = 0.03 + 0.005 * ((i * 7) % 11 - 5) / 5.0 + (i % 7 == 0 ? 0.35 : i % 7 == 3 ? -0.35 : 0);
	p = paired_trimmed(d, 48);
	CHECK(fabs(p.center - 0.03) < 0.005);
	CHECK_NEAR(p.df, 29, 1e-12);
	struct log_est t = est_paired(d, 48, NAN, 0, 0);
	CHECK(t.mean - 2.1 * sqrt(t.var) > 0);
	CHECK(sqrt(sample_var(d, 48) / 48) > 5 * sqrt(t.var));
}

TEST(compare_run_with_itself)
{
	struct run *a = run_new();
	double v[8];
	noisy(v, 8, 0.13, 0.05);
	add_point(a, "lat_syscall.null", "", NAN, v, 8);
	noisy(v, 8, 12000, 0.05);
	add_point(a, "bw_mem.frd", "", 512, v, 8);
	struct run *runs[] = { a };
	struct side s[2] = { one_side("A", runs, 1), one_side("A", runs, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	CHECK(t->nrows == 2);
	CHECK(t->ntests == 2);
	CHECK(count_verdict(t, V_UNDECIDED) == 2);
	CHECK(cmp_regressions(t) == 0);
	for (size_t i = 0; i < t->nrows; i++)
		CHECK_NEAR(t->rows[i].test[1].change, 0, 1e-12);
	CHECK(t->nwarnings == 0);
	cmp_free(t);
	run_free(a);
}

TEST(compare_known_shift)
{
	struct run *a = run_new(), *b = run_new();
	double v[8];
	/* +20 % latency → worse; +20 % bandwidth → better; -20 % latency → better */
	noisy(v, 8, 0.13, 0.03);
	add_point(a, "lat_syscall.null", "", NAN, v, 8);
	noisy(v, 8, 0.13 * 1.2, 0.03);
	add_point(b, "lat_syscall.null", "", NAN, v, 8);
	noisy(v, 8, 10000, 0.03);
	add_point(a, "bw_mem.frd", "", 512, v, 8);
	noisy(v, 8, 12000, 0.03);
	add_point(b, "bw_mem.frd", "", 512, v, 8);
	noisy(v, 8, 100, 0.03);
	add_point(a, "lat_mem_rd.rand", "stride=16", 256, v, 8);
	noisy(v, 8, 80, 0.03);
	add_point(b, "lat_mem_rd.rand", "stride=16", 256, v, 8);
	/* the store's history says this host's runs move about 2 % from run to run */
	struct run *h[6];
	for (int k = 0; k < 6; k++) {
		h[k] = run_new();
		double dr = 1 + 0.02 * (2 * urand() - 1);
		noisy(v, 8, 0.13 * dr, 0.01);
		add_point(h[k], "lat_syscall.null", "", NAN, v, 8);
		noisy(v, 8, 10000 * dr, 0.01);
		add_point(h[k], "bw_mem.frd", "", 512, v, 8);
		noisy(v, 8, 100 * dr, 0.01);
		add_point(h[k], "lat_mem_rd.rand", "stride=16", 256, v, 8);
	}
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("old", ra, 1), one_side("new", rb, 1) };
	s[0].history = s[1].history = h;
	s[0].nhistory = s[1].nhistory = 6;
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	const struct cmp_row *r = row_of(t, "lat_syscall.null", NAN);
	CHECK(r && r->test[1].v == V_WORSE && r->test[1].noise == NS_HISTORY);
	CHECK(r && r->test[1].lo > 0 && r->test[1].lo < r->test[1].change &&
	      r->test[1].hi > r->test[1].change);
	CHECK(r && r->test[1].change > 10 && r->test[1].change < 30);
	CHECK(r && r->cell[0].nrounds == 8 && r->cell[1].nrounds == 8);
	r = row_of(t, "bw_mem.frd", 512);
	CHECK(r && r->test[1].v == V_BETTER);
	r = row_of(t, "lat_mem_rd.rand", 256);
	CHECK(r && r->test[1].v == V_BETTER && r->test[1].change < 0);
	CHECK(cmp_regressions(t) == 1);
	/* sorted: the worse row first */
	CHECK(t->nrows == 3 && t->rows[0].test[1].v == V_WORSE);
	cmp_free(t);
	/* without history the default noise (5 % for a syscall, 12 % for bw_mem) is assumed: the
	 * same data can no longer tell 20 % on bw_mem from drift, and says so */
	s[0].nhistory = s[1].nhistory = 0;
	t = cmp_build(s, 2, &o);
	r = row_of(t, "bw_mem.frd", 512);
	CHECK(r && r->test[1].v == V_UNDECIDED && r->test[1].noise == NS_DEFAULT &&
	      r->test[1].mde > 20);
	cmp_free(t);
	for (int k = 0; k < 6; k++)
		run_free(h[k]);
	run_free(a);
	run_free(b);
}

TEST(compare_noise_no_false_alarms)
{
	/* ~100 metrics, the same distribution on both sides (±5 % uniform noise), 8 rounds each:
	 * with Holm at 0.05 the chance of even one false "significant" row is at most 5 %. */
	struct run *a = run_new(), *b = run_new();
	size_t nm = 0;
	for (int i = 0; metric_at(i) && nm < 100; i++) {
		const struct metric_def *d = metric_at(i);
		if (d->better == NEUTRAL)
			continue;
		double v[8];
		noisy(v, 8, 5.0 + i, 0.05);
		add_point(a, d->id, "", NAN, v, 8);
		noisy(v, 8, 5.0 + i, 0.05);
		add_point(b, d->id, "", NAN, v, 8);
		nm++;
	}
	CHECK(nm >= 90);
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("a", ra, 1), one_side("b", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	CHECK(t->ntests == nm);
	size_t sig = count_verdict(t, V_WORSE) + count_verdict(t, V_BETTER);
	CHECK(sig <= 1);
	/* without any correction about 5 % of the tests would be "significant" at 0.05 before the
	 * effect threshold: the correction is what keeps the page clean */
	o.corr = CORR_NONE;
	o.min_effect = 0;
	struct cmp_table *u = cmp_build(s, 2, &o);
	size_t raw = count_verdict(u, V_WORSE) + count_verdict(u, V_BETTER);
	CHECK(raw <= 20);
	cmp_free(u);
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(compare_min_effect)
{
	/* a clean, complete separation of 2 %: significant, but below the 3 % default effect, and
	 * its interval lies within ±3 %: the same within the minimum effect */
	struct run *a = run_new(), *b = run_new();
	double va[8], vb[8];
	for (int i = 0; i < 8; i++) {
		va[i] = 100 + 0.1 * i;
		vb[i] = 102 + 0.1 * i;
	}
	add_point(a, "lat_pipe.latency", "", NAN, va, 8);
	add_point(b, "lat_pipe.latency", "", NAN, vb, 8);
	/* one plumb ab session: the rounds pair up */
	kv_set(&a->facts, "ab_session", "s1");
	kv_set(&b->facts, "ab_session", "s1");
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("a", ra, 1), one_side("b", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	CHECK(t->rows[0].test[1].v == V_SAME);
	CHECK(t->rows[0].test[1].p_adj < 0.001 && t->rows[0].test[1].p_same_adj < 0.05);
	CHECK(t->rows[0].test[1].lo > -3 && t->rows[0].test[1].hi < 3);
	cmp_free(t);
	o.min_effect = 1;
	t = cmp_build(s, 2, &o);
	CHECK(t->rows[0].test[1].v == V_WORSE);
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(compare_no_test_neutral_method)
{
	struct run *a = run_new(), *b = run_new();
	double one[] = { 0.2 }, one2[] = { 0.3 }, v[8], w[8];
	/* imported lmbench: one value, no samples, method version 0 */
	struct result *p = result_list_add(&a->results, "lat_syscall.read", "", NAN);
	p->value = 0.25;
	p->unit = xstrdup("us");
	p->version = 1;
	add_point(b, "lat_syscall.read", "", NAN, one2, 1);
	add_point(a, "lat_syscall.write", "", NAN, one, 1);
	add_point(b, "lat_syscall.write", "", NAN, one2, 1);
	noisy(v, 8, 64, 0.0);
	noisy(w, 8, 128, 0.0);
	add_point(a, "line.bytes", "", NAN, v, 8);
	add_point(b, "line.bytes", "", NAN, w, 8);
	noisy(v, 8, 1, 0.01);
	noisy(w, 8, 2, 0.01);
	add_point(a, "stream.add", "", NAN, v, 8)->version = 0;
	add_point(b, "stream.add", "", NAN, w, 8);
	add_point(a, "lat_sig.catch", "", NAN, v, 8);
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("a", ra, 1), one_side("b", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	const struct cmp_row *r = row_of(t, "lat_syscall.read", NAN);
	CHECK(r && r->test[1].v == V_NOTEST && r->cell[0].nrounds == 1);
	CHECK(r && fabs(r->test[1].change - 21.2) < 1e-9); /* 0.25 → median 0.303 */
	r = row_of(t, "lat_syscall.write", NAN);
	CHECK(r && r->test[1].v == V_NOTEST && fabs(r->test[1].change - 50) < 1e-9);
	r = row_of(t, "line.bytes", NAN);
	CHECK(r && r->test[1].v == V_NEUTRAL && fabs(r->test[1].change - 100) < 1e-9);
	r = row_of(t, "stream.add", NAN);
	CHECK(r && r->test[1].v == V_METHOD);
	r = row_of(t, "lat_sig.catch", NAN);
	CHECK(r && r->test[1].v == V_MISSING);
	CHECK(t->ntests == 0);
	CHECK(cmp_regressions(t) == 0);
	CHECK(t->nwarnings == 1 && strstr(t->warnings[0], "method"));
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(compare_rounds_and_pooling)
{
	/* rounds come from sample.round; MIN metrics take each round's minimum */
	struct run *a = run_new(), *b = run_new();
	double r4[] = { 10, 11, 12, 13 };
	add_point(a, "lat_mem_rd.rand", "stride=16", 64, r4, 4);  /* MIN */
	add_point(a, "lat_syscall.null", "", NAN, r4, 4);         /* MEDIAN: ×1.01 */
	add_point(b, "lat_mem_rd.rand", "stride=16", 64, r4, 4);
	double *v;
	struct run *ra[] = { a };
	size_t n = cmp_round_values(ra, 1, "lat_mem_rd.rand", "stride=16", 64, &v);
	CHECK(n == 4);
	CHECK_NEAR(v[0], 10, 1e-12);
	CHECK_NEAR(v[3], 13, 1e-12);
	free(v);
	n = cmp_round_values(ra, 1, "lat_syscall.null", "", NAN, &v);
	CHECK(n == 4);
	CHECK_NEAR(v[1], 11 * 1.01, 1e-12);
	free(v);
	/* a label pools: two runs of 4 rounds = 8 rounds */
	struct run *pool[] = { a, b };
	n = cmp_round_values(pool, 2, "lat_mem_rd.rand", "stride=16", 64, &v);
	CHECK(n == 8);
	free(v);
	struct side s[2] = { one_side("label", pool, 2), one_side("a", ra, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	const struct cmp_row *r = row_of(t, "lat_mem_rd.rand", 64);
	CHECK(r && r->cell[0].nrounds == 8 && r->cell[1].nrounds == 4);
	CHECK(r && fabs(r->cell[1].spread - 1.5 / 11.5 * 100) < 1e-9); /* (13-10)/2 / 11.5 */
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(compare_summary_points)
{
	struct run *a = run_new();
	double r1[] = { 1 };
	double sizes[] = { 0.00098, 0.00195, 0.125, 0.25, 64 };
	for (int i = 0; i < 5; i++) {
		add_point(a, "lat_mem_rd.seq", "stride=128", sizes[i], r1, 1);
		add_point(a, "lat_mem_rd.seq", "stride=16", sizes[i], r1, 1);
		add_point(a, "bw_mem.frd", "", sizes[i], r1, 1);
	}
	for (int p = 2; p <= 32; p *= 2)
		add_point(a, "lat_ctx.switch", "size=16", p, r1, 1);
	add_point(a, "lat_syscall.null", "", NAN, r1, 1);
	struct run *ra[] = { a };
	struct side s[2] = { one_side("a", ra, 1), one_side("b", ra, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	/* seq stride=128: 1 KiB, 128 KiB, largest = 3; stride=16: largest; frd: largest;
	 * ctx: 2, 8, 16; syscall: 1 → 9 rows */
	CHECK(t->nrows == 9);
	CHECK(row_of(t, "lat_mem_rd.seq", 0.125) != NULL);
	CHECK(row_of(t, "bw_mem.frd", 0.125) == NULL);
	CHECK(row_of(t, "lat_ctx.switch", 4) == NULL && row_of(t, "lat_ctx.switch", 8) != NULL);
	cmp_free(t);
	o.all = 1;
	t = cmp_build(s, 2, &o);
	CHECK(t->nrows == 5 * 3 + 5 + 1);
	cmp_free(t);
	run_free(a);
}

TEST(compare_fact_warnings)
{
	struct run *a = run_new(), *b = run_new();
	double r1[] = { 1 };
	add_point(a, "lat_syscall.null", "", NAN, r1, 1);
	add_point(b, "lat_syscall.null", "", NAN, r1, 1);
	kv_set(&a->facts, "governor", "performance");
	kv_set(&b->facts, "governor", "powersave");
	kv_set(&a->facts, "cpu_model", "X");
	kv_set(&b->facts, "cpu_model", "X");
	kv_set(&a->facts, "kernel", "6.1"); /* expected to differ: no warning */
	kv_set(&b->facts, "kernel", "6.2");
	free(b->results.v[0].info);
	b->results.v[0].info = xstrdup("cpu=0 placement=none");
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("A", ra, 1), one_side("B", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	CHECK(t->nwarnings == 2);
	CHECK(t->nwarnings >= 1 &&
	      strcmp(t->warnings[0], "governor differs: A=performance; B=powersave") == 0);
	CHECK(t->nwarnings >= 2 && strstr(t->warnings[1], "placement differs"));
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(compare_print_formats)
{
	struct run *a = run_new(), *b = run_new();
	double v[8];
	noisy(v, 8, 0.13, 0.02);
	add_point(a, "lat_syscall.null", "", NAN, v, 8);
	noisy(v, 8, 0.26, 0.02);
	add_point(b, "lat_syscall.null", "", NAN, v, 8);
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("A", ra, 1), one_side("B", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	char *buf = NULL;
	size_t len = 0;
	for (int f = CF_TEXT; f <= CF_JSON; f++) {
		FILE *m = open_memstream(&buf, &len);
		cmp_print(m, t, (enum cmp_format)f);
		fclose(m);
		CHECK(strstr(buf, "worse") != NULL);
		CHECK(strstr(buf, "lat_syscall.null") != NULL);
		if (f == CF_CSV)
			CHECK(strncmp(buf, "metric,params,x,unit,side,", 26) == 0);
		if (f == CF_JSON)
			CHECK(strstr(buf, "\"kind\": \"compare\"") || strstr(buf, "\"kind\":\"compare\""));
		free(buf);
		buf = NULL;
	}
	cmp_free(t);
	run_free(a);
	run_free(b);
}

/* ---- report ------------------------------------------------------------------------------- */

#include "analysis/report.h"

/* A plausible run: latency and bandwidth steps at the caches, context switches, some single
 * values; scale > 1 makes everything slower. 8 rounds each (4 could not pass Holm over ~20
 * tests: 2/70 x 20 > 0.05, see docs/compare.md). */
static struct run *synthetic_run(const char *label, double scale)
{
	struct run *r = run_new();
	r->label = xstrdup(label);
	r->host = xstrdup("vm");
	r->profile = xstrdup("quick");
	r->rounds = 8;
	kv_set(&r->facts, "cpu_model", "Synthetic CPU");
	kv_set(&r->facts, "cache_l1d", "49152");
	kv_set(&r->facts, "cache_l2", "1048576");
	kv_set(&r->facts, "cache_l3", "33554432");
	kv_set(&r->facts, "kernel", scale > 1 ? "6.2" : "6.1");
	kv_set(&r->facts, "build_cc", "cc (Debian 12.2.0-14+deb12u1) 12.2.0");
	kv_set(&r->facts, "build_cflags", scale > 1 ? "-O0 -g" : "-O2 -g");
	double v[8];
	for (double mb = 1.0 / 1024; mb <= 256; mb *= 2) {
		double kb = mb * 1024;
		double lat = kb <= 48 ? 1.2 : kb <= 1024 ? 4.1 : kb <= 32768 ? 14 : 95;
		const int strides[] = { 16, 64, 128 };
		for (int s = 0; s < 3; s++) {
			char p[32];
			snprintf(p, sizeof p, "stride=%d", strides[s]);
			noisy(v, 8, scale * lat * (0.5 + 0.25 * s), 0.02);
			add_point(r, "lat_mem_rd.seq", p, mb, v, 8);
		}
		noisy(v, 8, scale * lat * 1.1, 0.02);
		add_point(r, "lat_mem_rd.rand", "stride=16", mb, v, 8);
		double bw = kb <= 48 ? 60000 : kb <= 1024 ? 35000 : kb <= 32768 ? 20000 : 9000;
		noisy(v, 8, bw / scale, 0.03);
		add_point(r, "bw_mem.frd", "", mb, v, 8);
		noisy(v, 8, bw / scale * 0.7, 0.03);
		add_point(r, "bw_mem.fwr", "", mb, v, 8);
	}
	/* a series plumb does not know, named too long for one title line */
	for (double x = 1; x <= 8; x *= 2) {
		noisy(v, 8, scale * x, 0.02);
		add_point(r, "imported_tool.a_very_long_series_name_from_another_suite_that_wraps_on_a_second_line", "",
			  x, v, 8);
	}
	const int procs[] = { 2, 4, 8, 16, 24, 32 };
	const int sizes[] = { 0, 16, 64 };
	for (int s = 0; s < 3; s++)
		for (int k = 0; k < 6; k++) {
			char p[32];
			snprintf(p, sizeof p, "size=%d", sizes[s]);
			noisy(v, 8, scale * (2 + sizes[s] * 0.05 + procs[k] * 0.02 * (1 + sizes[s] / 16.0)),
			      0.03);
			add_point(r, "lat_ctx.switch", p, procs[k], v, 8);
		}
	static const char *const single[] = { "lat_syscall.null", "lat_syscall.read",
					      "lat_syscall.stat", "lat_proc.fork", "lat_proc.exec",
					      "lat_pipe.latency", "bw_pipe.bandwidth", "stream.triad" };
	static const double base[] = { 0.13, 0.2, 0.6, 120, 400, 5.5, 3000, 15000 };
	for (int i = 0; i < 8; i++) {
		int bw = strstr(single[i], "bw_") || strstr(single[i], "stream");
		noisy(v, 8, bw ? base[i] / scale : base[i] * scale, 0.04);
		add_point(r, single[i], "", NAN, v, 8);
	}
	return r;
}

/* Everything the page must not contain: any reference to something outside itself. */
static int self_contained(const char *html)
{
	static const char *const bad[] = { "http://", "https://", "<script", "@import", "url(",
					   "<link", "src=", NULL };
	for (int i = 0; bad[i]; i++)
		if (strstr(html, bad[i]))
			return 0;
	return 1;
}

TEST(report_synthetic)
{
	struct run *a = synthetic_run("before", 1), *b = synthetic_run("after", 2.0);
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("before", ra, 1), one_side("after", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	report_html(m, s, 2, &o);
	fclose(m);
	CHECK(len > 20000);
	CHECK(self_contained(buf));
	CHECK(strstr(buf, "<h2 id=\"verdicts\">") != NULL); /* the verdicts open the page */
	CHECK(strstr(buf, "Memory load latency, random chain") != NULL);
	CHECK(strstr(buf, "bw_mem frd") != NULL);
	CHECK(strstr(buf, "Context switch time") != NULL);
	CHECK(strstr(buf, "L1d 48K") != NULL && strstr(buf, "L3 32M") != NULL);
	CHECK(strstr(buf, "@media print") != NULL);
	CHECK(strstr(buf, "class=\"v worse\"") != NULL); /* 2x slower, 8 rounds each */
	/* legends and headers name the build; a table of contents; the summary before the charts */
	CHECK(strstr(buf, "after (gcc 12.2.0 -O0)") != NULL);
	CHECK(strstr(buf, "id=\"contents\"") != NULL);
	CHECK(strstr(buf, "id=\"summary\"") && strstr(buf, "id=\"latency\"") &&
	      strstr(buf, "id=\"summary\"") < strstr(buf, "id=\"latency\""));
	CHECK(strstr(buf, "one line per size in\xe2\x80\xa6") == NULL);
	const char *out = getenv("PLUMB_REPORT_OUT");
	if (out) { /* tests/cli/report.sh renders this page in a browser */
		FILE *f = fopen(out, "w");
		CHECK(f != NULL);
		if (f) {
			fputs(buf, f);
			fclose(f);
		}
	}
	free(buf);
	/* standalone charts declare the SVG namespace; one side alone has no compare section */
	struct report_chart *c;
	size_t nc = report_charts(s, 2, 1, &c);
	CHECK(nc >= 6);
	for (size_t i = 0; i < nc; i++)
		CHECK(strncmp(c[i].svg, "<svg xmlns=", 11) == 0);
	report_charts_free(c, nc);
	m = open_memstream(&buf, &len);
	report_html(m, s, 1, &o);
	fclose(m);
	CHECK(strstr(buf, "id=\"compare\"") == NULL && self_contained(buf));
	free(buf);
	run_free(a);
	run_free(b);
}

TEST(compare_last_common_point)
{
	/* runs made with different size lists: the last point both measured is compared */
	struct run *a = run_new(), *b = run_new();
	double r1[] = { 100 }, r2[] = { 90 };
	for (double x = 1; x <= 128; x *= 2) {
		add_point(a, "bw_mem.frd", "", x, r1, 1);
		if (x <= 64)
			add_point(b, "bw_mem.frd", "", x, r2, 1);
	}
	struct run *ra[] = { a }, *rb[] = { b };
	struct side s[2] = { one_side("a", ra, 1), one_side("b", rb, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 2, &o);
	CHECK(t->nrows == 1);
	CHECK(t->nrows == 1 && t->rows[0].x == 64 && t->rows[0].test[1].v == V_NOTEST);
	cmp_free(t);
	run_free(a);
	run_free(b);
}

TEST(report_three_sides_pooled)
{
	struct run *a = synthetic_run("a", 1), *b1 = synthetic_run("b", 1.5),
		   *b2 = synthetic_run("b", 1.5), *c = synthetic_run("c", 0.6);
	struct run *ra[] = { a }, *rb[] = { b1, b2 }, *rc[] = { c };
	struct side s[3] = { one_side("a", ra, 1), one_side("b", rb, 2), one_side("c", rc, 1) };
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(s, 3, &o);
	const struct cmp_row *r = row_of(t, "lat_syscall.null", NAN);
	CHECK(r && r->cell[1].nrounds == 16 && r->cell[2].nrounds == 8);
	CHECK(r && r->test[1].v == V_WORSE && r->test[2].v == V_BETTER);
	cmp_free(t);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	report_html(m, s, 3, &o);
	fclose(m);
	CHECK(self_contained(buf) && strstr(buf, "</html>") != NULL);
	free(buf);
	run_free(a);
	run_free(b1);
	run_free(b2);
	run_free(c);
}
