/*
 * report.h — `plumb report`: one self-contained HTML page (inline SVG and CSS, no script, no
 * font or URL from outside): the verdicts when there are several runs, memory latency and
 * bandwidth versus working-set size, context switch versus processes, every other series, bar
 * charts of the summary metrics with min–max whiskers, lmbench's summary tables, and the runs'
 * system facts. The same charts can be written as separate .svg files (`plumb plot`,
 * `report --svg-dir`); each chart is well-formed XML on its own.
 */
#ifndef PLUMB_REPORT_H
#define PLUMB_REPORT_H

#include <stdio.h>
#include "analysis/compare.h"

struct report_chart {
	char *slug;   /* file name stem: "mem-latency-rand" */
	char *title;
	char *svg;    /* the SVG text */
	int wide;     /* spans the page width */
};

/* Every chart for these sides, in page order; standalone adds the SVG namespace for files. */
size_t report_charts(const struct side *sides, size_t n, int standalone,
		     struct report_chart **out);
void report_charts_free(struct report_chart *c, size_t n);
/* The whole page. o: the compare options for the compare section (n >= 2). */
void report_html(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o);

#endif
