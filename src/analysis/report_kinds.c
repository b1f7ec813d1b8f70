/*
 * report_kinds.c — report_charts(): the report's chart kinds run in turn, in page order, for
 * report and plot. The kinds are not listed here: each is declared by the file that draws it
 * (report_util.h, struct chart_kind) and mk/charts.sh collects them into chart_kinds[]
 * (build/charts_gen.c) in the order of mk/charts.order. Every kind's function takes the sides
 * and appends its charts, none when the sides hold nothing for it.
 */
#include "analysis/report.h"

size_t report_charts(const struct side *sides, size_t n, int standalone,
		     struct report_chart **out)
{
	struct charts c = { 0 };
	const struct chart_in in = { .sides = sides, .n = n, .standalone = standalone };
	for (size_t k = 0; chart_kinds[k]; k++) {
		size_t from = c.n;
		chart_kinds[k]->fn(&c, &in);
		for (size_t i = from; i < c.n; i++)
			c.v[i].kind = chart_kinds[k]; /* the page's section (report_page.c) */
	}
	*out = c.v;
	return c.n;
}
