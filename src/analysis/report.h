/*
 * report.h — `plumb report`: one self-contained HTML page (inline SVG and CSS, no script, no
 * font or URL from outside): a table of contents, the verdicts when there are several runs,
 * lmbench's summary tables, memory latency and bandwidth versus working-set size, context
 * switch versus processes, every other series, bar charts of the summary metrics with min–max
 * whiskers, the side metrics beside the changed rows (report_side.c), and the runs' system
 * facts. The same charts can be written as separate .svg files (`plumb plot`,
 * `report --svg-dir`); each chart is well-formed XML on its own.
 */
#ifndef PLUMB_REPORT_H
#define PLUMB_REPORT_H

#include <stdio.h>
#include "analysis/compare.h"
#include "analysis/report_util.h"

/* Every chart for these sides, in page order (report_kinds.c: each chart kind's function in
 * turn); standalone adds the SVG namespace for files. Free with report_charts_free. */
size_t report_charts(const struct side *sides, size_t n, int standalone,
		     struct report_chart **out);
/* The whole page. o: the compare options for the compare section (n >= 2). */
void report_html(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o);

#endif
