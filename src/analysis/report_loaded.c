/*
 * report_loaded.c — the loaded-latency curve as MLC draws it: x = the bandwidth lat_loaded's
 * loaders delivered at a level (the row whose .figure is this kind's x), y = the chase's latency
 * at that level (its y), both the median of the side's rounds at that level, as the report's
 * other charts take them; a line per side and parameter set (traffic kind). The two metrics
 * also have their own charts against the level (report.c's generic series); this one joins
 * them, which is the figure people quote ("latency at 80 % of peak bandwidth").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/report_util.h"
#include "analysis/svg.h"
#include "core/metrics.h"
#include "core/stats.h"
#include "core/util.h"

/* The figure's two metrics, found by their rows (.figure = { .kind = "loaded", .role = FIG_Y }
 * and FIG_X): y the latency, x the bandwidth. */
struct pair {
	const char *lat, *bw;
};

/* The median of the rounds of (metric, params, x) on side s; NAN when it has none. */
static double point(const struct side *s, const char *metric, const char *params, double x)
{
	double *v;
	size_t n = cmp_round_values(s->runs, s->nruns, metric, params, x, &v);
	double m = n ? stats_median(v, n) : NAN;
	free(v);
	return m;
}

/* Whether params is already in the list. */
static int seen(char **v, size_t n, const char *p)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], p))
			return 1;
	return 0;
}

/* One side's lines: a series per parameter set, a point per level with both figures. */
static void side_series(const struct side *s, int si, const struct pair *m,
			struct svg_series **out, size_t *ns)
{
	char **params = NULL;
	size_t np = 0;
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = 0; k < s->runs[i]->results.n; k++) {
			const struct result *r = &s->runs[i]->results.v[k];
			if (!isnan(r->x) && !strcmp(r->metric, m->lat) && !seen(params, np, r->params)) {
				params = xrealloc(params, (np + 1) * sizeof *params);
				params[np++] = r->params;
			}
		}
	char *side_name = report_side_name(s);
	for (size_t p = 0; p < np; p++) {
		struct svg_series se = { 0 };
		for (size_t i = 0; i < s->nruns; i++)
			for (size_t k = 0; k < s->runs[i]->results.n; k++) {
				const struct result *r = &s->runs[i]->results.v[k];
				if (isnan(r->x) || strcmp(r->metric, m->lat) || strcmp(r->params, params[p]))
					continue;
				double lat = point(s, m->lat, params[p], r->x),
				       bw = point(s, m->bw, params[p], r->x);
				int dup = 0;
				for (size_t j = 0; j < se.n && !dup; j++)
					dup = se.x[j] == bw && se.y[j] == lat;
				if (dup || isnan(lat) || isnan(bw))
					continue;
				se.x = xrealloc(se.x, (se.n + 1) * sizeof *se.x);
				se.y = xrealloc(se.y, (se.n + 1) * sizeof *se.y);
				se.x[se.n] = bw;
				se.y[se.n++] = lat;
			}
		if (se.n < 2) { /* one level is no curve */
			free(se.x);
			free(se.y);
			continue;
		}
		se.name = *params[p] ? xasprintf("%s %s", side_name, params[p]) : xstrdup(side_name);
		se.color = (int)*ns;
		se.dash = si;
		*out = xrealloc(*out, (*ns + 1) * sizeof **out);
		(*out)[(*ns)++] = se;
	}
	free(side_name);
	free(params);
}

/* The chart kind "loaded" (its line below): one chart when some side holds lat_loaded at two
 * levels or more. */
void report_loaded_charts(struct charts *out, const struct chart_in *in)
{
	const struct metric_def *y, *x;
	if (metric_figure_rows("loaded", FIG_Y, &y, 1) < 1 ||
	    metric_figure_rows("loaded", FIG_X, &x, 1) < 1)
		return;
	const struct pair ids = { .lat = y->id, .bw = x->id };
	struct svg_series *s = NULL;
	size_t ns = 0;
	for (size_t i = 0; i < in->n; i++)
		side_series(&in->sides[i], (int)i, &ids, &s, &ns);
	if (!ns)
		return;
	const char *title = "Loaded latency: memory latency against the bandwidth other CPUs "
			    "delivered (lat_loaded)";
	char xlabel[64];
	snprintf(xlabel, sizeof xlabel, "delivered bandwidth, %s", x->unit);
	struct svg_chart c = { .title = title, .xlabel = xlabel, .ylabel = y->unit, .xk = X_LINEAR,
			       .s = s, .ns = ns, .standalone = in->standalone };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		die(EXIT_MEASURE, "out of memory");
	svg_line_chart(m, &c);
	fclose(m);
	chart_add(out, "loaded-latency", title, buf, 0);
	for (size_t i = 0; i < ns; i++) {
		free(s[i].name);
		free(s[i].x);
		free(s[i].y);
	}
	free(s);
}

const struct chart_kind chart_kind_loaded = { .kind = "loaded", .fn = report_loaded_charts,
	.section = "Loaded latency", .section_id = "loaded" };
