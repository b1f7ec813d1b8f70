/* chart_kinds_test.c — the report's chart kinds as mk/charts.sh collected them: every kind once,
 * in the page order of mk/charts.order (the kinds it does not name where its `*` stands), and
 * every metric row's .chart naming one of them, so no row asks for a chart nobody draws. */
#include <string.h>
#include "analysis/report.h"
#include "test.h"

static int rank_of(const char *kind)
{
	for (int i = 0; chart_kinds[i]; i++)
		if (!strcmp(chart_kinds[i]->kind, kind))
			return i;
	return -1;
}

TEST(chart_kinds_collected)
{
	int n = 0;
	for (; chart_kinds[n]; n++) {
		CHECK(chart_kinds[n]->fn != NULL);
		CHECK(chart_kind_find(chart_kinds[n]->kind) == chart_kinds[n]);
	}
	CHECK(n >= 6);
	/* mk/charts.order: the side metrics first (what else happened), then the memory charts;
	 * the bars and the trend last */
	CHECK(rank_of("side") == 0);
	CHECK(rank_of("mem_latency") == 1);
	CHECK(rank_of("series") > rank_of("ctx_switch"));
	CHECK(rank_of("bars") == n - 2);
	CHECK(rank_of("trend") == n - 1);
	CHECK(chart_kind_find("no such kind") == NULL);
	CHECK(chart_kind_find(NULL) == NULL);
}

TEST(chart_kinds_every_row_drawn)
{
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (d->chart && !chart_kind_find(d->chart)) {
			fprintf(stderr, "%s: .chart = \"%s\" names no chart kind\n", d->id, d->chart);
			CHECK(0);
		}
		if (d->figure.kind && !chart_kind_find(d->figure.kind)) {
			fprintf(stderr, "%s: .figure.kind = \"%s\" names no chart kind\n", d->id,
				d->figure.kind);
			CHECK(0);
		}
		/* a series is drawn by a chart of some kind */
		if (d->x.kind != X_NONE)
			CHECK(d->chart != NULL);
	}
}

/* The figures that join rows find them by their rows: lat_tail's percentiles, a point each in
 * the registry's order with one spread and one worst column, and lat_loaded's pair. */
TEST(chart_kinds_figures_found_by_row)
{
	const struct metric_def *q[8], *x, *y;
	int n = metric_figure_rows("tails", FIG_POINT, q, 8), spread = 0, worst = 0;
	CHECK(n == 5);
	for (int i = 0; i < n; i++) {
		CHECK(q[i]->figure.name != NULL);
		CHECK(i == 0 || q[i]->figure.at > q[i - 1]->figure.at);
		spread += q[i]->figure.spread;
		worst += q[i]->figure.worst;
	}
	CHECK(spread == 1 && worst == 1);
	CHECK(metric_figure_rows("loaded", FIG_X, &x, 1) == 1);
	CHECK(metric_figure_rows("loaded", FIG_Y, &y, 1) == 1);
	CHECK(metric_figure_rows("no such kind", FIG_POINT, q, 8) == 0);
}
