/* tails_test.c — lat_tail's views from a made-up run: the report's percentile chart per
 * operation (one per params, a side's line at the median of its blocks, none for a run without
 * lat_tail), and summary --tails' rows (the stored values, the worst block maximum). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report.h"
#include "analysis/report_tails.h"
#include "analysis/summary_tails.h"
#include "results/run.h"
#include "test.h"

static const char *const qm[5] = {
	"lat_tail.p50", "lat_tail.p90", "lat_tail.p99", "lat_tail.p999", "lat_tail.max",
};

/* ops null (0.2 us at p50, x2 each percentile up) and pipe (8 us); 3 blocks, the max's blocks
 * 40, 50 and 3000 us. */
static struct run *tail_run(const char *label)
{
	struct run *r = run_new();
	r->label = strdup(label);
	r->host = strdup("h");
	const char *ops[2] = { "op=null", "op=pipe" };
	double base[2] = { 0.2, 8 };
	for (int o = 0; o < 2; o++)
		for (int q = 0; q < 5; q++) {
			struct result *p = result_list_add(&r->results, qm[q], ops[o], NAN);
			p->unit = strdup("us");
			double v = base[o] * pow(2, q);
			for (int b = 0; b < 3; b++) {
				double s = q == 4 ? (b == 2 ? 3000 : 40 + 10 * b) : v;
				result_add_sample(p, (struct sample){ .value = s, .iters = 5000, .elapsed_ns = s * 5000 });
			}
			p->value = q == 4 ? 50 : v;
		}
	return r;
}

TEST(report_tails_chart_per_op)
{
	struct run *runs[1] = { tail_run("A") };
	struct side side = { .name = "A", .runs = runs, .nruns = 1 };
	struct charts cs = { 0 };
	report_tails_charts(&cs, &(struct chart_in){ .sides = &side, .n = 1 });
	struct report_chart *c = cs.v;
	size_t n = cs.n;
	CHECK(n == 2);
	if (n == 2) {
		CHECK(strcmp(c[0].slug, "tails-op-null") == 0 && strcmp(c[1].slug, "tails-op-pipe") == 0);
		CHECK(strstr(c[0].svg, "op=null") != NULL && strstr(c[0].svg, "percentile in nines") != NULL);
		CHECK(strstr(c[1].svg, ">A") != NULL); /* the side in the legend */
	}
	report_charts_free(c, n);
	run_free(runs[0]);
}

TEST(report_tails_none_without_results)
{
	struct run *r = run_new();
	struct result *p = result_list_add(&r->results, "lat_syscall.null", "", NAN);
	p->value = 0.2;
	struct run *runs[1] = { r };
	struct side side = { .name = "x", .runs = runs, .nruns = 1 };
	struct charts cs = { 0 };
	report_tails_charts(&cs, &(struct chart_in){ .sides = &side, .n = 1 });
	CHECK(cs.n == 0);
	report_charts_free(cs.v, cs.n);
	run_free(r);
}

TEST(summary_tails_rows)
{
	struct run *runs[2] = { tail_run("A"), run_new() };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(summary_tails(f, runs, 1) == 0);
	fclose(f);
	/* null: 0.2 0.4 0.8 1.6 50 (the stored max), worst 3000 (the largest block max) */
	CHECK(strstr(buf, "null") && strstr(buf, "0.200     0.400     0.800     1.600    50.000    3000.0"));
	CHECK(strstr(buf, "pipe") && strstr(buf, "8.000    16.000    32.000    64.000    50.000    3000.0"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(summary_tails(f, runs + 1, 1) == -1);
	fclose(f);
	CHECK(strstr(buf, "no lat_tail results") != NULL);
	free(buf);
	run_free(runs[0]);
	run_free(runs[1]);
}
