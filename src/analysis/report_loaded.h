/*
 * report_loaded.h — the report's loaded-latency chart (report_loaded.c): lat_loaded's latency
 * against the bandwidth its loaders delivered, a line per side and traffic kind.
 */
#ifndef PLUMB_REPORT_LOADED_H
#define PLUMB_REPORT_LOADED_H

#include "analysis/report.h"

/* Append the chart to the array *v of *nv charts (capacity *cap, grown as report.c grows it)
 * when some side holds lat_loaded at two levels or more; nothing otherwise. */
void report_loaded_chart(const struct side *sides, size_t n, struct report_chart **v, size_t *nv,
			 size_t *cap);

#endif
