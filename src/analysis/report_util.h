/*
 * report_util.h — what the report's chart files share (report_util.c), below all of them: a
 * chart, the growing list of charts every chart function appends to, the one signature of a
 * chart function (chart_fn), and a side's name as legends say it. report_kinds.c lists the
 * chart kinds in page order; report_charts() (report.h) runs them.
 */
#ifndef PLUMB_REPORT_UTIL_H
#define PLUMB_REPORT_UTIL_H

#include <stddef.h>
#include "analysis/compare.h"

struct report_chart {
	char *slug;   /* file name stem: "mem-latency-rand" */
	char *title;
	char *svg;    /* the SVG text */
	int wide;     /* spans the page width */
};

/* The charts made so far, in page order. */
struct charts {
	struct report_chart *v;
	size_t n, cap;
};

/* What every chart function is given: the sides, and whether each SVG stands alone as a file
 * (it then declares the SVG namespace; SVG inline in the page does not). */
struct chart_in {
	const struct side *sides;
	size_t n;
	int standalone;
};

/* A chart kind's function: append its charts (none when the sides hold nothing for it). */
typedef void chart_fn(struct charts *out, const struct chart_in *in);

/* One row of the chart-kind table (report_kinds.c). */
struct chart_page_row {
	const char *kind;
	chart_fn *fn;
};

/* Append a chart: slug and title copied (the slug with every character but letters, digits and
 * '_' made '-', so it can name nothing but itself), svg taken over. */
void chart_add(struct charts *c, const char *slug, const char *title, char *svg, int wide);
void report_charts_free(struct report_chart *c, size_t n);
/* A side as legends and headers name it: its name, the label when that is not the name, and
 * the build in short ("3 v2 (gcc 12.2.0 -O2)"). Free it. */
char *report_side_name(const struct side *s);

#endif
