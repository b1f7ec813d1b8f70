/* report_c2c_test.c — lat_c2c's heatmap from a made-up run: a cell per ordered pair with its
 * tooltip, the diagonal grey and unmeasured, the slow block darker than the fast one, letters
 * from the recorded topology, the median over a side's runs, no bar chart for 30 pairs but
 * bars for 2; hostile text in a label escaped. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report.h"
#include "analysis/report_c2c.h"
#include "results/run.h"
#include "test.h"

/* CPUs 0-5 in two blocks (0-2, 3-5) sharing a last-level cache: 100 ns within, 500 across,
 * times scale. */
static struct run *c2c_run(double scale, const char *label)
{
	struct run *r = run_new();
	r->label = strdup(label);
	r->host = strdup("h");
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++) {
			if (a == b)
				continue;
			char par[32];
			snprintf(par, sizeof par, "from=%d to=%d", a, b);
			struct result *p = result_list_add(&r->results, "lat_c2c.roundtrip", par, NAN);
			int same = a / 3 == b / 3;
			p->value = (same ? 100 : 500) * scale;
			p->unit = strdup("ns");
			p->info = strdup(same ? "cpu=0 topology=llc" : "cpu=0 topology=package");
			result_add_sample(p, (struct sample){ .value = p->value, .iters = 1000,
							      .elapsed_ns = p->value * 1000 });
		}
	return r;
}

/* The fill of the rect whose tooltip starts with want. */
static int fill_of(const char *svg, const char *want, char *out)
{
	const char *t = strstr(svg, want);
	if (!t)
		return 0;
	const char *rect = t;
	while (rect > svg && strncmp(rect, "<rect", 5) != 0)
		rect--;
	const char *f = strstr(rect, "fill=\"#");
	if (!f || f > t)
		return 0;
	memcpy(out, f + 6, 7);
	out[7] = 0;
	return 1;
}

static int lightness(const char *hex)
{
	unsigned r, g, b;
	return sscanf(hex, "#%2x%2x%2x", &r, &g, &b) == 3 ? (int)(r + g + b) : -1;
}

TEST(report_c2c_heatmap)
{
	/* two runs on one side, 1.0x and 1.2x: the cell is their median (1.1x) */
	struct run *runs[2] = { c2c_run(1.0, "six <cpus>\x1b[2J"), c2c_run(1.2, "six") };
	struct side side = { .name = "six <cpus>\x1b[2J", .runs = runs, .nruns = 2 };
	struct charts cs = { 0 };
	report_c2c_charts(&cs, &(struct chart_in){ .sides = &side, .n = 1, .standalone = 1 });
	struct report_chart *c = cs.v;
	size_t n = cs.n;
	CHECK(n == 1);
	if (n == 1) {
		const char *svg = c[0].svg;
		size_t titles = 0;
		for (const char *p = svg; (p = strstr(p, "and back: ")); p++)
			titles++;
		CHECK(titles == 30);
		CHECK(strstr(svg, "CPU 0 to CPU 1 and back: 110.0 ns, same last-level cache") != NULL);
		CHECK(strstr(svg, "CPU 4 to CPU 1 and back: 550.0 ns, same package") != NULL);
		CHECK(strstr(svg, "CPU 2 to CPU 2") == NULL);
		char fast[8], slow[8];
		CHECK(fill_of(svg, "<title>CPU 0 to CPU 1 ", fast) && fill_of(svg, "<title>CPU 0 to CPU 4 ", slow));
		CHECK(lightness(fast) > lightness(slow));
		CHECK(strstr(svg, ">110 L<") != NULL && strstr(svg, ">550 P<") != NULL);
		CHECK(strstr(svg, "\x1b") == NULL && strstr(svg, "<cpus>") == NULL);
		CHECK(strstr(svg, "xmlns=") != NULL);
	}
	report_charts_free(c, n);
	CHECK(report_c2c_bars_too(&side, 1) == 0);
	run_free(runs[0]);
	run_free(runs[1]);
}

TEST(report_c2c_none_without_results)
{
	struct run *r = run_new();
	struct result *p = result_list_add(&r->results, "lat_syscall.null", "", NAN);
	p->value = 0.2;
	struct run *runs[1] = { r };
	struct side side = { .name = "x", .runs = runs, .nruns = 1 };
	struct charts cs = { 0 };
	report_c2c_charts(&cs, &(struct chart_in){ .sides = &side, .n = 1 });
	CHECK(cs.n == 0);
	report_charts_free(cs.v, cs.n);
	CHECK(report_c2c_bars_too(&side, 1) == 1);
	run_free(r);
}
