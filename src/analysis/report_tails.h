/*
 * report_tails.h — lat_tail's percentiles as a chart per operation (report_tails.c).
 */
#ifndef PLUMB_REPORT_TAILS_H
#define PLUMB_REPORT_TAILS_H

#include "analysis/report.h"

/* Append to *io (have charts, from report_c2c_charts: a malloc'd array) a percentile chart
 * per lat_tail operation the sides hold; returns the new count. */
size_t report_tails_append(size_t have, const struct side *sides, size_t n, int standalone,
			   struct report_chart **io);

#endif
