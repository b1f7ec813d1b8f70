/*
 * report_c2c.h — lat_c2c's matrix as a heatmap per side (report_c2c.c), for report and plot.
 */
#ifndef PLUMB_REPORT_C2C_H
#define PLUMB_REPORT_C2C_H

#include "analysis/report_util.h"

/* The chart kind "c2c": a heatmap per side that holds lat_c2c results. */
chart_fn report_c2c_charts;
/* 1 when lat_c2c's pairs are few enough (12 a side at most) to be bars as well. */
int report_c2c_bars_too(const struct side *sides, size_t n);

#endif
