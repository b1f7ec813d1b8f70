/*
 * report_c2c.h — lat_c2c's matrix as a heatmap per side (report_c2c.c), for report and plot.
 */
#ifndef PLUMB_REPORT_C2C_H
#define PLUMB_REPORT_C2C_H

#include "analysis/report.h"

/* A heatmap per side that holds lat_c2c results, malloc'd into *out (free with
 * report_charts_free); returns how many. */
size_t report_c2c_charts(const struct side *sides, size_t n, int standalone,
			 struct report_chart **out);
/* 1 when lat_c2c's pairs are few enough (12 a side at most) to be bars as well. */
int report_c2c_bars_too(const struct side *sides, size_t n);

#endif
