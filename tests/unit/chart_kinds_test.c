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
		/* a series is drawn by a chart of some kind */
		if (d->x.kind != X_NONE)
			CHECK(d->chart != NULL);
	}
}
