/*
 * report_tails.h — lat_tail's percentiles as a chart per operation (report_tails.c).
 */
#ifndef PLUMB_REPORT_TAILS_H
#define PLUMB_REPORT_TAILS_H

#include "analysis/report_util.h"

/* The chart kind "tails": a percentile chart per lat_tail operation the sides hold. */
chart_fn report_tails_charts;

#endif
