/*
 * svg.h — the two kinds of chart the report draws, as standalone SVG (presentation attributes
 * only, generic font family, no external reference), so the same text embeds in the HTML page
 * and stands alone as a .svg file:
 *   line charts (optionally log-2 x axis and log-10 y axis) with vertical markers (cache sizes),
 *   horizontal bar charts, one group of bars per metric, one bar per run: the bar the median,
 *   its value at the bar's end, a thin min–max whisker in a band of its own below the bar.
 */
#ifndef PLUMB_SVG_H
#define PLUMB_SVG_H

#include <stddef.h>
#include <stdio.h>

enum x_kind { X_LINEAR, X_LOG2_MB, X_LOG2 }; /* X_LOG2_MB: x in MB, ticks labelled K/M/G */

struct svg_series {
	char *name;
	double *x, *y;   /* n points, any order (sorted when drawn) */
	size_t n;
	int color;       /* palette index */
	int dash;        /* 0 solid, 1 dashed, 2 dotted, ... */
};

struct svg_marker {
	double x;
	char *label;
};

struct svg_chart {
	const char *title, *xlabel, *ylabel;
	enum x_kind xk;
	int logy;
	struct svg_series *s;
	size_t ns;
	struct svg_marker *m;
	size_t nm;
	int width;       /* 0: 600 */
	int standalone;  /* a file of its own: declares the SVG namespace (SVG inline in HTML does
			  * not, and the report carries no URL-looking text at all) */
};

/* A line chart has at most SVG_TEXT_MAX text elements: the title, axis labels, ticks (at most
 * 14 on x, 13 on y), up to 3 cache markers and a legend of at most SVG_LEGEND_MAX entries (more
 * series are drawn but summed up as "+ N more lines"). */
#define SVG_LEGEND_MAX 16
#define SVG_TEXT_MAX 80
/* A title wraps to at most this many lines (each a text element); only a longer one is cut,
 * with an ellipsis, and the whole of it is in the chart's <title>. */
#define SVG_TITLE_LINES 3
void svg_line_chart(FILE *f, const struct svg_chart *c);

struct svg_bar_group {
	char *name;      /* metric point */
	char *unit;
	double *v, *lo, *hi; /* one per side; NAN = missing */
};

/* standalone: as struct svg_chart's */
void svg_bar_chart(FILE *f, const char *title, char *const *side_names, size_t nsides,
		   const struct svg_bar_group *g, size_t ng, int width, int standalone);

/* svg_bar_chart with the legend's note on the marks said by the caller (what the whisker is). */
void svg_bar_chart_note(FILE *f, const char *title, char *const *side_names, size_t nsides,
			const struct svg_bar_group *g, size_t ng, int width, int standalone,
			const char *note);

/* A chart's frame w x h px and its title (wrapped as the charts' are, which adds height):
 * what a chart drawn elsewhere (report_side.c) starts with. Returns the title's extra height
 * (px) below which the caller draws; the caller closes the </svg>. */
int svg_open(FILE *f, int w, int h, const char *title, int standalone);

/* Colour of palette index i (colour-blind-safe palette, cycles). */
const char *svg_color(int i);

#endif
