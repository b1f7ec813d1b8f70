/*
 * report_trend.h — the charts of a series (report_trend.c): one per metric across the sides in
 * their order, with the changes `plumb trend` finds. report and plot add them for 3+ sides.
 */
#ifndef PLUMB_REPORT_TREND_H
#define PLUMB_REPORT_TREND_H

#include "analysis/report.h"

/* The charts, malloc'd into *out (free with report_charts_free); returns how many. */
size_t report_trend_charts(const struct side *sides, size_t n, int standalone,
			   struct report_chart **out);

#endif
