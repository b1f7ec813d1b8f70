/*
 * report_trend.c — the charts of a series for `plumb report` and `plumb plot` (3+ sides): one
 * per metric, the versions in order on the x axis, each version's value with its 95 % interval,
 * every change `plumb trend` finds marked between its two versions with its size. Standalone
 * SVG in the report's style (presentation attributes, a generic font, no script, no external
 * reference), so a wiki or a mailing-list post can take a chart as it is. docs/trend.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_util.h"
#include "analysis/svg.h"
#include "analysis/trend.h"
#include "core/escape.h"
#include "core/util.h"

#define CH_H 320
#define PAD_L 70
#define PAD_R 20
#define PAD_T 56
#define PAD_B 90 /* room for slanted version names */

static void text(FILE *f, double x, double y, const char *anchor, const char *extra,
		 const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s>", x, y, anchor, extra);
	xml_fputs(f, s);
	fputs("</text>\n", f);
}

/* The y range of a row: every value and interval bound, padded a little. */
static void y_range(const struct trend_table *t, const struct trend_row *r, double *lo,
		    double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t s = 0; s < t->nsides; s++) {
		const struct trend_level *lv = &r->lv[s];
		double v[3] = { lv->present ? lv->value : NAN, lv->lo, lv->hi };
		for (int k = 0; k < 3; k++)
			if (isfinite(v[k])) {
				*lo = fmin(*lo, v[k]);
				*hi = fmax(*hi, v[k]);
			}
	}
	double pad = (*hi - *lo) * 0.08;
	if (!(pad > 0))
		pad = fabs(*hi) * 0.1 + 1e-9;
	*lo = *lo - pad < 0 && *lo >= 0 ? 0 : *lo - pad;
	*hi += pad;
}

static double nice(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), q = raw / p;
	return (q < 1.5 ? 1 : q < 3 ? 2 : q < 7 ? 5 : 10) * p;
}

static char *render(const struct trend_table *t, const struct trend_row *r, int standalone)
{
	char *buf = NULL, nb[512], num[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	size_t n = t->nsides;
	int w = PAD_L + PAD_R + (int)(n * 34 < 520 ? 520 : n * 34);
	double pw = w - PAD_L - PAD_R, ph = CH_H - PAD_T - PAD_B, step = pw / (double)n;
	double lo, hi;
	y_range(t, r, &lo, &hi);
	const char *name = cmp_row_name(r->row, nb, sizeof nb);
	fprintf(f, "<svg%s viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n",
		standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "", w, CH_H, w, CH_H);
	fputs("<title>", f);
	xml_fputs(f, name);
	fputs(" across versions</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, CH_H);
	text(f, w / 2.0, 20, "middle", " font-size=\"15\" font-weight=\"bold\"", name);
	char sub[160];
	snprintf(sub, sizeof sub, "%s; value and 95 %% interval per version; %zu change%s found",
		 r->row->unit && *r->row->unit ? r->row->unit : "value", r->nch,
		 r->nch == 1 ? "" : "s");
	text(f, w / 2.0, 38, "middle", " fill=\"#555555\"", sub);
#define Y(v) (PAD_T + ph - ((v) - lo) / (hi - lo) * ph)
#define X(i) (PAD_L + ((double)(i) + 0.5) * step)
	/* y grid and ticks */
	double st = nice(hi - lo, 5);
	for (double v = ceil(lo / st) * st; v <= hi + st * 1e-9; v += st) {
		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>\n",
			PAD_L, Y(v), PAD_L + pw, Y(v));
		text(f, PAD_L - 6, Y(v) + 4, "end", "", cmp_fmt_num(fabs(v) < st * 1e-9 ? 0 : v, num,
								    sizeof num));
	}
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		   "stroke=\"#888888\"/>\n", PAD_L, PAD_T, pw, ph);
	/* changes: a dashed line between the two versions, its size above */
	for (size_t c = 0; c < r->nch; c++) {
		const struct trend_change *ch = &r->ch[c];
		double x = (X(ch->from) + X(ch->at)) / 2;
		const char *col = ch->worse > 0 ? "#d62728" : "#2ca02c";
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			   "stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>\n", x, PAD_T, x, PAD_T + ph, col);
		char lab[64];
		char pe[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
		snprintf(lab, sizeof lab, "%s %% [%s, %s]", pct_str(ch->est, pe), pct_str(ch->lo, pl),
			 pct_str(ch->hi, ph));
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\" "
			   "font-size=\"11\">%s</text>\n", x, PAD_T - 4, col, lab);
	}
	/* versions: interval, value, name */
	const char *col = svg_color(0);
	for (size_t s = 0; s < n; s++) {
		const struct trend_level *lv = &r->lv[s];
		double x = X(s);
		if (isfinite(lv->lo) && isfinite(lv->hi)) {
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
				   "stroke-width=\"1.5\"/>\n", x, Y(lv->lo), x, Y(lv->hi), col);
			for (int k = 0; k < 2; k++)
				fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
					   "stroke=\"%s\"/>\n", x - 4, Y(k ? lv->hi : lv->lo), x + 4,
					Y(k ? lv->hi : lv->lo), col);
		}
		if (lv->present && isfinite(lv->value))
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", x,
				Y(lv->value), col);
		char vn[40];
		term_str(t->sides[s].name, vn, 20);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
			   "transform=\"rotate(-40 %.1f %.1f)\">", x + 4, PAD_T + ph + 14, x + 4,
			PAD_T + ph + 14);
		xml_fputs(f, vn);
		fputs("</text>\n", f);
	}
#undef X
#undef Y
	fputs("</svg>\n", f);
	fclose(f);
	return buf;
}

/* The chart kind "trend" (its line below): for a series of 3 sides or more, a chart per metric
 * present on 2 sides at least. */
void report_trend_charts(struct charts *out, const struct chart_in *in)
{
	if (in->n < 3)
		return;
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct trend_table *t = trend_build(in->sides, in->n, &o);
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_row *r = &t->rows[i];
		size_t present = 0;
		for (size_t s = 0; s < in->n; s++)
			present += r->lv[s].present;
		if (present < 2)
			continue;
		char nb[512];
		cmp_row_name(r->row, nb, sizeof nb);
		char *slug = xasprintf("trend-%s", nb), *title = xasprintf("%s across versions", nb);
		chart_add(out, slug, title, render(t, r, in->standalone), 1);
		free(slug);
		free(title);
	}
	trend_free(t);
}

const struct chart_kind chart_kind_trend = { .kind = "trend", .fn = report_trend_charts,
	.section = "Series across the versions", .section_id = "trend" };
