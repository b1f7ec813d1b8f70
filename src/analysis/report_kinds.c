/*
 * report_kinds.c — the report's chart kinds, one row each in page order: a kind's name and its
 * function (chart_fn, report_util.h: every one takes the sides and appends its charts, none when
 * the sides hold nothing for it). report_charts() runs them in turn for report and plot. A tool
 * with a chart of its own adds its file (report_NAME.c, defining the function) and its row here;
 * nothing else of the report names it.
 */
#include "analysis/report.h"

chart_fn report_series_charts; /* report.c: memory, context switches, every other series */
chart_fn report_c2c_charts;    /* report_c2c.c: lat_c2c's heatmap per side */
chart_fn report_tails_charts;  /* report_tails.c: lat_tail's percentiles per operation */
chart_fn report_loaded_charts; /* report_loaded.c: lat_loaded's latency against bandwidth */
chart_fn report_bar_charts;    /* report.c: bars of the summary metrics */
chart_fn report_trend_charts;  /* report_trend.c: each metric across a series of 3+ sides */
chart_fn report_side_charts;   /* report_side.c: side metrics beside changed rows, per tool */

static const struct chart_page_row kinds[] = {
	{ .kind = "series", .fn = report_series_charts },
	{ .kind = "c2c", .fn = report_c2c_charts },
	{ .kind = "tails", .fn = report_tails_charts },
	{ .kind = "loaded", .fn = report_loaded_charts },
	{ .kind = "bars", .fn = report_bar_charts },
	{ .kind = "trend", .fn = report_trend_charts },
	{ .kind = "side", .fn = report_side_charts },
	{ 0 },
};

size_t report_charts(const struct side *sides, size_t n, int standalone,
		     struct report_chart **out)
{
	struct charts c = { 0 };
	const struct chart_in in = { .sides = sides, .n = n, .standalone = standalone };
	for (const struct chart_page_row *k = kinds; k->kind; k++)
		k->fn(&c, &in);
	*out = c.v;
	return c.n;
}
