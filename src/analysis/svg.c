/*
 * svg.c — line and bar charts as SVG text (see svg.h). Everything is drawn with presentation
 * attributes and the generic "sans-serif" family: no stylesheet, font or URL outside the file.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/svg.h"
#include "core/escape.h"
#include "core/util.h"

/* Okabe–Ito colours (distinguishable with the common colour-vision deficiencies), then more. */
static const char *const palette[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c564b",
	"#7f7f7f", "#bcbd22", "#17becf", "#9467bd",
};
static const char *const dashes[] = { "", "6,3", "2,3", "8,3,2,3" };


const char *svg_color(int i) { return palette[i % (int)(sizeof palette / sizeof *palette)]; }

/* Where a title of len bytes breaks to fit max bytes a line: after the last space at or
 * before max, else at max (not inside a UTF-8 sequence). */
static size_t title_break(const char *t, size_t len, size_t max)
{
	if (len <= max)
		return len;
	for (size_t k = max; k > max / 2; k--)
		if (t[k] == ' ')
			return k;
	while (max > 0 && ((unsigned char)t[max] & 0xc0) == 0x80)
		max--;
	return max;
}

/* Lines of a title wrapped to the width (about 8.5 px a character in 15 px bold): up to
 * SVG_TITLE_LINES, the last cut with an ellipsis only past that; the whole of it is always in
 * <title>. Returns how many lines the title takes, so the chart can start below them. */
static int title_lines(const char *title, int w, size_t *brk)
{
	size_t max = (size_t)(w - 20) / 17 * 2, len = strlen(title ? title : ""), at = 0;
	int n = 0;
	while (n < SVG_TITLE_LINES) {
		size_t b = at + title_break(title + at, len - at, max);
		brk[n++] = b;
		at = b + (b < len && title[b] == ' ');
		if (b >= len)
			break;
	}
	return n;
}

static int title_extra(const char *title, int w)
{
	size_t brk[SVG_TITLE_LINES];
	return 18 * (title_lines(title, w, brk) - 1);
}

/* The frame and the title; returns the title's extra height beyond one line (px). */
static int open_svg(FILE *f, int w, int h, const char *title, int standalone)
{
	size_t brk[SVG_TITLE_LINES], len = strlen(title ? title : ""), at = 0;
	int lines = title_lines(title, w, brk);
	h += 18 * (lines - 1);
	fprintf(f, "<svg%s viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n",
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", w, h, w, h);
	fputs("<title>", f);
	xml_fputs(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, h);
	for (int i = 0; i < lines; i++) {
		fprintf(f, "<text class=\"title\" x=\"%d\" y=\"%d\" font-size=\"15\" "
			   "font-weight=\"bold\" text-anchor=\"middle\">", w / 2, 20 + 18 * i);
		int cut = i == lines - 1 && brk[i] < len;
		size_t end = brk[i];
		if (cut && end > at) /* room for the ellipsis, not inside a UTF-8 sequence */
			for (end--; end > at && ((unsigned char)title[end] & 0xc0) == 0x80;)
				end--;
		char *part = xasprintf("%.*s%s", (int)(end - at), title + at, cut ? "\xe2\x80\xa6" : "");
		xml_fputs(f, part);
		free(part);
		fputs("</text>\n", f);
		at = brk[i] + (brk[i] < len && title[brk[i]] == ' ');
	}
	return 18 * (lines - 1);
}

/* A "nice" step (1, 2 or 5 × 10^k) giving about n intervals over span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), r = raw / p;
	return (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10) * p;
}

static void size_label(double mb, char *buf, size_t len)
{
	if (mb < 1)
		snprintf(buf, len, "%gK", mb * 1024);
	else if (mb < 1024)
		snprintf(buf, len, "%gM", mb);
	else
		snprintf(buf, len, "%gG", mb / 1024);
}

struct axes {
	double x0, x1, y0, y1;     /* data range (log values for log axes) */
	double px0, px1, py0, py1; /* pixels: left, right, bottom, top */
	enum x_kind xk;
	int logy;
};

static double tx(const struct axes *a, double x)
{
	double v = a->xk == X_LINEAR ? x : log2(x);
	return a->px0 + (v - a->x0) / (a->x1 - a->x0) * (a->px1 - a->px0);
}

static double ty(const struct axes *a, double y)
{
	double v = a->logy ? log10(y) : y;
	return a->py0 - (v - a->y0) / (a->y1 - a->y0) * (a->py0 - a->py1);
}

static int usable(const struct axes *a, double x, double y)
{
	return isfinite(x) && isfinite(y) && (a->xk == X_LINEAR || x > 0) && (!a->logy || y > 0);
}

static void data_range(const struct svg_chart *c, struct axes *a)
{
	double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			double x = c->s[i].x[k], y = c->s[i].y[k];
			if (!usable(a, x, y))
				continue;
			xmin = fmin(xmin, x);
			xmax = fmax(xmax, x);
			ymin = fmin(ymin, y);
			ymax = fmax(ymax, y);
		}
	if (!isfinite(xmin)) { /* nothing to draw: an empty frame */
		xmin = 1;
		xmax = 2;
		ymin = 1;
		ymax = 10;
	}
	if (a->xk == X_LINEAR) {
		double st = nice_step(xmax - fmin(0, xmin) > 0 ? xmax - fmin(0, xmin) : 1, 8);
		a->x0 = floor(fmin(0, xmin) / st) * st;
		a->x1 = ceil(xmax / st) * st;
	} else {
		a->x0 = floor(log2(xmin));
		a->x1 = ceil(log2(xmax));
	}
	if (a->x1 <= a->x0)
		a->x1 = a->x0 + 1;
	if (a->logy) {
		a->y0 = floor(log10(ymin));
		a->y1 = ceil(log10(ymax));
		if (a->y1 <= a->y0)
			a->y1 = a->y0 + 1;
	} else {
		double st = nice_step(ymax > 0 ? ymax : 1, 6);
		a->y0 = 0;
		a->y1 = ceil(ymax / st) * st;
		if (a->y1 <= 0)
			a->y1 = 1;
	}
}

static void draw_axes(FILE *f, const struct axes *a, const struct svg_chart *c)
{
	char lab[32];
	/* x ticks */
	if (a->xk == X_LINEAR) {
		double st = nice_step(a->x1 - a->x0, 8);
		for (double v = a->x0; v <= a->x1 + st / 2; v += st) {
			double px = tx(a, v);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				px, a->py0, px, a->py1);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", px,
				a->py0 + 16, v);
		}
	} else {
		int span = (int)(a->x1 - a->x0), step = span > 24 ? 4 : span > 12 ? 2 : 1;
		for (int e = (int)a->x0; e <= (int)a->x1; e += step) {
			double v = pow(2, e), px = tx(a, v);
			if (a->xk == X_LOG2_MB)
				size_label(v, lab, sizeof lab);
			else
				snprintf(lab, sizeof lab, "%g", v);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				px, a->py0, px, a->py1);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", px,
				a->py0 + 16, lab);
		}
	}
	/* y ticks */
	if (a->logy) {
		for (int e = (int)a->y0; e <= (int)a->y1; e++)
			for (int m = 1; m <= 5; m += (m == 1 ? 1 : 3)) { /* 1, 2, 5 */
				if (m > 1 && a->y1 - a->y0 > 4)
					break; /* many decades: one tick each, the text stays bounded */
				double v = m * pow(10, e), py;
				if (log10(v) > a->y1 + 1e-9)
					break;
				py = ty(a, v);
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					   "stroke=\"#e4e4e4\"/>\n", a->px0, py, a->px1, py);
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
					a->px0 - 5, fmax(py + 4, a->py1 + 9), v);
			}
	} else {
		double st = nice_step(a->y1 - a->y0, 6);
		for (double v = a->y0; v <= a->y1 + st / 2; v += st) {
			double py = ty(a, v);
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n",
				a->px0, py, a->px1, py);
			/* the top label is kept inside the frame, clear of the title */
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", a->px0 - 5,
				fmax(py + 4, a->py1 + 9), v);
		}
	}
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#444444\"/>\n", a->px0, a->py1, a->px1 - a->px0, a->py0 - a->py1);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (a->px0 + a->px1) / 2,
		a->py0 + 34);
	xml_fputs(f, c->xlabel);
	fputs("</text>\n", f);
	fprintf(f, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		(a->py0 + a->py1) / 2);
	xml_fputs(f, c->ylabel);
	fputs("</text>\n", f);
}

struct pt {
	double x, y;
};

static int cmp_pt(const void *a, const void *b)
{
	double x = ((const struct pt *)a)->x, y = ((const struct pt *)b)->x;
	return (x > y) - (x < y);
}

static void draw_series(FILE *f, const struct axes *a, const struct svg_series *s)
{
	struct pt *p = xmalloc((s->n ? s->n : 1) * sizeof *p);
	size_t n = 0;
	for (size_t k = 0; k < s->n; k++)
		if (usable(a, s->x[k], s->y[k]))
			p[n++] = (struct pt){ s->x[k], s->y[k] };
	qsort(p, n, sizeof *p, cmp_pt);
	const char *col = svg_color(s->color), *d = dashes[s->dash % 4];
	if (n >= 2) { /* one point is no line: its dot below shows it */
		fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s%s%s points=\"",
			col, *d ? " stroke-dasharray=\"" : "", d, *d ? "\"" : "");
		for (size_t k = 0; k < n; k++)
			fprintf(f, "%s%.1f,%.1f", k ? " " : "", tx(a, p[k].x), ty(a, p[k].y));
		fputs("\"/>\n", f);
	}
	if (n <= 48)
		for (size_t k = 0; k < n; k++)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"%s\"/>\n",
				tx(a, p[k].x), ty(a, p[k].y), col);
	free(p);
}

/* How many series the legend names: all of them up to SVG_LEGEND_MAX, else one slot fewer
 * for the "+ N more lines" note. */
static size_t legend_entries(size_t ns)
{
	return ns <= SVG_LEGEND_MAX ? ns : SVG_LEGEND_MAX - 1;
}

void svg_line_chart(FILE *f, const struct svg_chart *c)
{
	int w = c->width ? c->width : 600;
	/* legend columns as wide as the longest name (about 6.6 px per character at 12 px) */
	size_t longest = 1, shown = legend_entries(c->ns);
	for (size_t i = 0; i < shown; i++)
		if (strlen(c->s[i].name) > longest)
			longest = strlen(c->s[i].name);
	int colw = 40 + (int)(longest * 6.6), cols = (w - 64) / colw > 0 ? (w - 64) / colw : 1;
	size_t slots = shown + (shown < c->ns); /* "+ N more" takes a slot */
	int legend_rows = (int)((slots + (size_t)cols - 1) / (size_t)cols);
	int plot_h = 300, h = 40 + plot_h + 44 + legend_rows * 18 + 8;
	struct axes a = { .xk = c->xk, .logy = c->logy };
	a.px0 = 64;
	a.px1 = w - 16;
	a.py1 = 36 + title_extra(c->title, w);
	a.py0 = a.py1 + plot_h;
	data_range(c, &a);
	open_svg(f, w, h, c->title, c->standalone);
	draw_axes(f, &a, c);
	for (size_t i = 0; i < c->nm; i++) {
		double x = c->m[i].x;
		if (!(x > 0) || (a.xk != X_LINEAR && (log2(x) < a.x0 || log2(x) > a.x1)))
			continue;
		double px = tx(&a, x);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#888888\" "
			   "stroke-dasharray=\"4,4\"/>\n", px, a.py0, px, a.py1);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#555555\">", px + 3,
			a.py1 + 12 + 11 * (double)(i % 3));
		xml_fputs(f, c->m[i].label);
		fputs("</text>\n", f);
	}
	for (size_t i = 0; i < c->ns; i++)
		draw_series(f, &a, &c->s[i]);
	/* legend below the plot, at most SVG_LEGEND_MAX entries */
	for (size_t i = 0; i < shown; i++) {
		double lx = 64 + (double)(i % (size_t)cols) * colw;
		double ly = a.py0 + 52 + (double)(i / (size_t)cols) * 18;
		const char *d = dashes[c->s[i].dash % 4];
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"2\"%s%s%s/>\n", lx, ly - 4, lx + 24, ly - 4,
			svg_color(c->s[i].color), *d ? " stroke-dasharray=\"" : "", d, *d ? "\"" : "");
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", lx + 30, ly);
		xml_fputs(f, c->s[i].name);
		fputs("</text>\n", f);
	}
	if (shown < c->ns)
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#555555\">+ %zu more lines</text>\n",
			64 + (double)(shown % (size_t)cols) * colw,
			a.py0 + 52 + (double)(shown / (size_t)cols) * 18, c->ns - shown);
	fputs("</svg>\n", f);
}

static void fmt_val(double v, char *buf, size_t len)
{
	double a = fabs(v);
	snprintf(buf, len, a >= 1000 ? "%.0f" : a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" :
			   "%.4g", v);
}

/* Text width estimate at 11-12 px sans-serif: about 6.6 px a character (digits a little less). */
static double text_w(const char *t) { return 6.6 * (double)strlen(t); }

/* A bar chart's measures, in px. */
struct bar_layout {
	int w, bar_h, label_w, right, band, group_h;
};

/* The legend from y top - 2: one entry per side, wrapped to rows, then the note on the marks. */
static void bar_legend(FILE *f, const struct bar_layout *L, char *const *side_names,
		       size_t nsides, int top, const char *note)
{
	int label_w = L->label_w;
	double lx = label_w, ly = top - 2;
	for (size_t s = 0; s < nsides; s++) {
		double ew = 20 + text_w(side_names[s]) + 24;
		if (lx > label_w && lx + ew > L->w - 10) {
			lx = label_w;
			ly += 18;
		}
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
			lx, ly, svg_color((int)s));
		fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", lx + 20, ly + 9);
		xml_fputs(f, side_names[s]);
		fputs("</text>\n", f);
		lx += ew;
	}
	ly += 18;
	/* the note on the marks, with a sample whisker drawn as in the chart */
	fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"24\" height=\"8\" fill=\"#999999\"/>\n",
		label_w, ly);
	fprintf(f, "<path d=\"M%d %.1fH%dM%d %.1fV%.1fM%d %.1fV%.1f\" stroke=\"#222222\" "
		   "stroke-width=\"1\" fill=\"none\"/>\n", label_w + 4, ly + 11, label_w + 30,
		label_w + 4, ly + 9, ly + 13, label_w + 30, ly + 9, ly + 13);
	fprintf(f, "<text class=\"note\" x=\"%d\" y=\"%.1f\" fill=\"#444444\">", label_w + 38,
		ly + 9);
	xml_fputs(f, note);
	fputs("</text>\n", f);
}

/* One group (i counts from 0, for the shading) at y: its name and unit, each side's band. */
static void bar_group(FILE *f, const struct bar_layout *L, const struct svg_bar_group *g,
		      size_t i, size_t nsides, double y)
{
	double px0 = L->label_w, pw = L->w - L->label_w - L->right, vmax = 0;
	int bar_h = L->bar_h;
	for (size_t s = 0; s < nsides; s++) {
		vmax = fmax(vmax, isnan(g->hi[s]) ? 0 : g->hi[s]);
		vmax = fmax(vmax, isnan(g->v[s]) ? 0 : g->v[s]);
	}
	if (i % 2 == 0)
		fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#f4f6f8\"/>\n",
			y - 4, L->w, L->group_h);
	fprintf(f, "<text class=\"point\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", L->label_w - 8,
		y + L->group_h / 2.0);
	xml_fputs(f, g->name);
	fprintf(f, " (");
	xml_fputs(f, g->unit);
	fputs(")</text>\n", f);
	for (size_t s = 0; s < nsides; s++) {
		double by = y + (double)s * L->band, v = g->v[s];
		if (isnan(v) || vmax <= 0)
			continue;
		double bw = v > 0 ? v / vmax * pw : 0;
		fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			   "fill=\"%s\" fill-opacity=\"0.85\"/>\n", px0, by, bw, bar_h,
			svg_color((int)s));
		double lo = g->lo[s], hi = g->hi[s];
		if (!isnan(lo) && !isnan(hi) && hi > lo) {
			double l = px0 + fmax(lo, 0) / vmax * pw, r = px0 + hi / vmax * pw;
			double wy = by + bar_h + 5;
			fprintf(f, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f "
				   "%.1fV%.1f\" stroke=\"#222222\" stroke-width=\"1\" fill=\"none\"/>\n",
				l, wy, r, l, wy - 2.5, wy + 2.5, r, wy - 2.5, wy + 2.5);
		}
		char val[32];
		fmt_val(v, val, sizeof val);
		fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n",
			px0 + bw + 4, by + bar_h - 2.0, val);
	}
}

/* Each side's bar is a band: the bar (the median) with its value printed just past the bar's
 * end, and below it, in a band of its own, a thin whisker with caps from min to max — so the
 * printed value can never sit at the whisker's end and be read as the maximum. */
void svg_bar_chart(FILE *f, const char *title, char *const *side_names, size_t nsides,
		   const struct svg_bar_group *g, size_t ng, int width, int standalone)
{
	svg_bar_chart_note(f, title, side_names, nsides, g, ng, width, standalone,
			   "bar: median, its value printed at the bar's end; thin line below: "
			   "min\xe2\x80\x93max");
}

int svg_open(FILE *f, int w, int h, const char *title, int standalone)
{
	return open_svg(f, w, h, title, standalone);
}

void svg_bar_chart_note(FILE *f, const char *title, char *const *side_names, size_t nsides,
			const struct svg_bar_group *g, size_t ng, int width, int standalone,
			const char *note)
{
	struct bar_layout L = { .w = width ? width : 1000, .bar_h = 12, .label_w = 300,
				.right = 130 };
	L.band = L.bar_h + 10;
	L.group_h = (int)nsides * L.band + 8;
	/* the legend's rows, for the height */
	double lx = L.label_w;
	int rows = 1;
	for (size_t s = 0; s < nsides; s++) {
		double ew = 20 + text_w(side_names[s]) + 24;
		if (lx > L.label_w && lx + ew > L.w - 10) {
			lx = L.label_w;
			rows++;
		}
		lx += ew;
	}
	int top = 36 + title_extra(title, L.w);
	int legend_h = rows * 18 + 22, h0 = top + legend_h + (int)ng * L.group_h + 10;
	open_svg(f, L.w, h0 - title_extra(title, L.w), title, standalone);
	bar_legend(f, &L, side_names, nsides, top, note);
	for (size_t i = 0; i < ng; i++)
		bar_group(f, &L, &g[i], i, nsides, top + legend_h + (double)i * L.group_h);
	fputs("</svg>\n", f);
}
