/*
 * report_side.c — the side metrics (core/side.h, docs/side-metrics.md) in the report, the
 * chart kind "side" (report_kinds.c).
 *
 * Two or more sides: a chart per compared row judged worse or better with compare's default
 * options, as every chart kind judges (the first SIDE_CHARTS of them, in compare's order),
 * beside the verdict: one group per side metric per operation, a bar per side, the bar the
 * median of the side's samples and the whisker its 95 % interval — the figures `plumb
 * compare` prints under the row (compare_side.h). The groups are the
 * metrics that changed with the row, then the scheduler's own (switches, involuntary
 * switches, migrations, task clock, steal) so a reader sees what did not move too.
 *
 * One side: every tool's scheduling picture in one chart — switches per operation, migrations
 * per sample, steal in % of the span the machine's figures cover (window_ns) and task clock in
 * % of a sample's wall time — a row per tool and a common
 * scale per column, so the tool that was disturbed stands out. Each cell is the median over
 * every sample of the tool's results with its 95 % interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare_side.h"
#include "analysis/report_util.h"
#include "analysis/svg.h"
#include "core/escape.h"
#include "core/result.h"
#include "core/side.h"
#include "core/stats.h"
#include "core/util.h"
#include "results/run.h"

#define SIDE_CHARTS 24 /* a page of changed rows is read; more is a table's job (compare) */

static const char CI_NOTE[] = "bar: median of the samples per operation, its value at the "
			      "bar's end; thin line below: its 95 % interval";

/* ---- beside each changed row ------------------------------------------------------------- */

static int core_field(int f)
{
	return f == SIDE_CS || f == SIDE_INVOL_CS || f == SIDE_MIGRATIONS || f == SIDE_TASK_NS ||
	       f == SIDE_STEAL_NS;
}

static const char *fig_unit(const struct cmp_side_fig *g)
{
	size_t l = strlen(g->name);
	if (g->field < 0)
		return l && g->name[l - 1] == '%' ? "% of the sample" : "per op";
	if (side_field_is_level(g->field))
		return "kHz";
	if (g->field == SIDE_TASK_NS || g->field == SIDE_STEAL_NS)
		return "ns per op";
	return g->field == SIDE_IDLE_US ? "us per op" : "per op";
}

/* The groups of row r: per figure kept, each side's median and interval. */
static size_t row_groups(const struct cmp_table *t, const struct cmp_row *r,
			 struct svg_bar_group **out)
{
	size_t n = t->nsides, ng = 0;
	struct svg_bar_group *g = NULL;
	struct cmp_side_fig **f = xcalloc(n, sizeof *f);
	size_t *nf = xcalloc(n, sizeof *nf);
	for (size_t s = 1; s < n; s++)
		nf[s] = cmp_side_figs(t, r, 0, s, 1, &f[s]);
	/* the figures of the first pair name the groups; a figure any pair saw change is kept */
	for (size_t k = 0; n > 1 && k < nf[1]; k++) {
		int changed = 0;
		for (size_t s = 1; s < n; s++)
			for (size_t j = 0; j < nf[s]; j++)
				if (!strcmp(f[s][j].name, f[1][k].name))
					changed |= f[s][j].changed;
		if (!changed && !core_field(f[1][k].field))
			continue;
		g = xrealloc(g, (ng + 1) * sizeof *g);
		struct svg_bar_group *b = &g[ng++];
		b->name = xasprintf("%s%s", f[1][k].name, changed ? ", changed" : "");
		b->unit = (char *)fig_unit(&f[1][k]);
		b->v = xmalloc(n * sizeof *b->v);
		b->lo = xmalloc(n * sizeof *b->lo);
		b->hi = xmalloc(n * sizeof *b->hi);
		b->v[0] = f[1][k].med[0], b->lo[0] = f[1][k].lo[0], b->hi[0] = f[1][k].hi[0];
		for (size_t s = 1; s < n; s++) {
			b->v[s] = b->lo[s] = b->hi[s] = NAN;
			for (size_t j = 0; j < nf[s]; j++)
				if (!strcmp(f[s][j].name, f[1][k].name))
					b->v[s] = f[s][j].med[1], b->lo[s] = f[s][j].lo[1],
					b->hi[s] = f[s][j].hi[1];
		}
	}
	for (size_t s = 0; s < n; s++)
		free(f[s]);
	free(f);
	free(nf);
	*out = g;
	return ng;
}

static void groups_free(struct svg_bar_group *g, size_t ng)
{
	for (size_t k = 0; k < ng; k++) {
		free(g[k].name);
		free(g[k].v);
		free(g[k].lo);
		free(g[k].hi);
	}
	free(g);
}

static char *row_title(const struct cmp_table *t, const struct cmp_row *r)
{
	char nm[256];
	cmp_row_name(r, nm, sizeof nm);
	if (t->nsides != 2)
		return xasprintf("Side metrics beside %s (changed against %s)", nm, t->sides[0].name);
	const struct cmp_test *ts = &r->test[1];
	return xasprintf("Side metrics beside %s: %s, %+.1f %%", nm, verdict_name(ts->v),
			 ts->change);
}

static void changed_rows(struct charts *out, const struct chart_in *in)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(in->sides, in->n, &o);
	char **names = xcalloc(in->n, sizeof *names);
	for (size_t s = 0; s < in->n; s++)
		names[s] = report_side_name(&in->sides[s]);
	for (size_t i = 0, drawn = 0; i < t->nrows && drawn < SIDE_CHARTS; i++) {
		const struct cmp_row *r = &t->rows[i];
		if (!cmp_row_shown(t, r) || !cmp_side_judged(r, t->nsides))
			continue;
		struct svg_bar_group *g;
		size_t ng = row_groups(t, r, &g);
		if (!ng)
			continue;
		char *title = row_title(t, r), nm[256], *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		if (!m)
			die(1, "out of memory");
		svg_bar_chart_note(m, title, names, in->n, g, ng, 1000, in->standalone, CI_NOTE);
		fclose(m);
		char *slug = xasprintf("side-%s", cmp_row_name(r, nm, sizeof nm));
		chart_add(out, slug, title, buf, 1);
		free(slug);
		free(title);
		groups_free(g, ng);
		drawn++;
	}
	for (size_t s = 0; s < in->n; s++)
		free(names[s]);
	free(names);
	cmp_free(t);
}

/* ---- one run: every tool ----------------------------------------------------------------- */

#define NCOL 4
static const char *const col_name[NCOL] = {
	"switches per op", "migrations per sample", "steal, % of window", "task clock, % of wall",
};

/* A sample's figure for column c; NAN when it was not read. */
static double cell_value(const struct sample *sm, int c)
{
	const struct side_sample *s = sample_side(sm);
	int f = c == 0 ? SIDE_CS : c == 1 ? SIDE_MIGRATIONS : c == 2 ? SIDE_STEAL_NS : SIDE_TASK_NS;
	if (!(s->have & (1u << f)))
		return NAN;
	if (c == 0)
		return side_per_op(s, f);
	if (c == 1)
		return s->v[f];
	/* steal is the machine's, over the span its figures cover; the task clock the sample's */
	double wall = c == 2 ? side_window(s, sm->elapsed_ns) : sm->elapsed_ns;
	return wall > 0 ? 100 * s->v[f] / wall : NAN;
}

struct tool_row {
	char name[48];
	double *v[NCOL];
	size_t n[NCOL];
	double med[NCOL], lo[NCOL], hi[NCOL];
};

static struct tool_row *tool_of(struct tool_row **rows, size_t *nrows, const char *metric)
{
	char name[48];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(metric, "."), metric);
	for (size_t k = 0; k < *nrows; k++)
		if (!strcmp((*rows)[k].name, name))
			return &(*rows)[k];
	*rows = xrealloc(*rows, (*nrows + 1) * sizeof **rows);
	struct tool_row *t = &(*rows)[(*nrows)++];
	memset(t, 0, sizeof *t);
	memcpy(t->name, name, sizeof name);
	return t;
}

/* Every tool with side metrics on side s, in first-seen order, its cells filled. */
static size_t tool_rows(const struct side *s, struct tool_row **out)
{
	struct tool_row *rows = NULL;
	size_t nrows = 0;
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t j = 0; j < s->runs[i]->results.n; j++) {
			const struct result *r = &s->runs[i]->results.v[j];
			for (size_t k = 0; k < r->nsamples; k++) {
				if (!r->samples[k].side)
					continue;
				struct tool_row *t = tool_of(&rows, &nrows, r->metric);
				for (int c = 0; c < NCOL; c++) {
					double v = cell_value(&r->samples[k], c);
					if (isnan(v))
						continue;
					t->v[c] = xrealloc(t->v[c], (t->n[c] + 1) * sizeof *t->v[c]);
					t->v[c][t->n[c]++] = v;
				}
			}
		}
	for (size_t k = 0; k < nrows; k++)
		for (int c = 0; c < NCOL; c++) {
			struct tool_row *t = &rows[k];
			t->med[c] = t->n[c] ? stats_median(t->v[c], t->n[c]) : NAN;
			if (!t->n[c] || stats_median_ci(t->v[c], t->n[c], &t->lo[c], &t->hi[c]) != 0)
				t->lo[c] = t->hi[c] = NAN;
			free(t->v[c]);
		}
	*out = rows;
	return nrows;
}

static void num_text(double v, char *buf, size_t len)
{
	double a = fabs(v);
	snprintf(buf, len, a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : a == 0 ? "0" :
			   "%.3g", v);
}

/* Geometry of the per-tool chart, px. */
enum { W = 1000, LABEL_W = 190, COL_W = (W - LABEL_W - 10) / NCOL, BAR_MAX = COL_W - 62,
       BAR_H = 12, ROW_H = 28 };

/* One cell at column c, row top y: bar, whisker below it, value at the bar's end. */
static void cell(FILE *f, const struct tool_row *t, int c, double vmax, double y)
{
	double v = t->med[c], x = LABEL_W + (double)c * COL_W;
	if (isnan(v))
		return;
	double bw = v > 0 && vmax > 0 ? v / vmax * BAR_MAX : 0;
	fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
		   "fill=\"%s\" fill-opacity=\"0.85\"/>\n", x, y, bw, BAR_H, svg_color(c));
	if (!isnan(t->lo[c]) && t->hi[c] > t->lo[c] && vmax > 0) {
		double l = x + fmax(t->lo[c], 0) / vmax * BAR_MAX, r = x + t->hi[c] / vmax * BAR_MAX;
		double wy = y + BAR_H + 5;
		fprintf(f, "<path class=\"whisker\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\" "
			   "stroke=\"#222222\" stroke-width=\"1\" fill=\"none\"/>\n", l, wy, r, l,
			wy - 2.5, wy + 2.5, r, wy - 2.5, wy + 2.5);
	}
	char val[32];
	num_text(v, val, sizeof val);
	fprintf(f, "<text class=\"value\" x=\"%.1f\" y=\"%.1f\" font-size=\"11\">%s</text>\n",
		x + bw + 4, y + BAR_H - 2.0, val);
}

static char *tools_svg(const struct tool_row *rows, size_t n, const char *title, int standalone)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		die(1, "out of memory");
	int top = 36 + svg_open(f, W, 36 + 44 + (int)n * ROW_H + 6, title, standalone);
	fprintf(f, "<text class=\"note\" x=\"10\" y=\"%d\" fill=\"#444444\">", top + 4);
	xml_fputs(f, "median over each tool's samples, its value at the bar's end; thin line "
		  "below: its 95 % interval; steal counts every CPU of the machine");
	fputs("</text>\n", f);
	for (int c = 0; c < NCOL; c++)
		fprintf(f, "<text class=\"colhead\" x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n",
			LABEL_W + c * COL_W, top + 26, col_name[c]);
	double vmax[NCOL] = { 0 };
	for (size_t k = 0; k < n; k++)
		for (int c = 0; c < NCOL; c++) {
			if (!isnan(rows[k].hi[c]))
				vmax[c] = fmax(vmax[c], rows[k].hi[c]);
			if (!isnan(rows[k].med[c]))
				vmax[c] = fmax(vmax[c], rows[k].med[c]);
		}
	for (size_t k = 0; k < n; k++) {
		double y = top + 40 + (double)k * ROW_H;
		if (k % 2 == 0)
			fprintf(f, "<rect x=\"0\" y=\"%.1f\" width=\"%d\" height=\"%d\" "
				   "fill=\"#f4f6f8\"/>\n", y - 4, W, ROW_H);
		fprintf(f, "<text class=\"point\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">",
			LABEL_W - 10, y + BAR_H - 1.0);
		xml_fputs(f, rows[k].name);
		fputs("</text>\n", f);
		for (int c = 0; c < NCOL; c++)
			cell(f, &rows[k], c, vmax[c], y);
	}
	fputs("</svg>\n", f);
	fclose(f);
	return buf;
}

static void per_tool(struct charts *out, const struct chart_in *in)
{
	struct tool_row *rows;
	size_t n = tool_rows(&in->sides[0], &rows);
	if (n) {
		char *name = report_side_name(&in->sides[0]);
		char *title = xasprintf("Side metrics per tool: what else ran during the samples "
					"of %s", name);
		chart_add(out, "side-tools", title, tools_svg(rows, n, title, in->standalone), 1);
		free(title);
		free(name);
	}
	free(rows);
}

/* The chart kind "side" (report_kinds.c). */
static void report_side_charts(struct charts *out, const struct chart_in *in)
{
	if (in->n == 1)
		per_tool(out, in);
	else if (in->n > 1)
		changed_rows(out, in);
}

const struct chart_kind chart_kind_side = { .kind = "side", .fn = report_side_charts,
	.section = "Side metrics: what else happened during the samples", .section_id = "side" };
