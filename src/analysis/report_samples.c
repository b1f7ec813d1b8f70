/*
 * report_samples.c — the chart kind "samples": for a metric whose row asks for it
 * (.chart = "samples") and each of its parameter sets, every sample each side holds, pooled
 * over its runs and rounds and sorted, against its rank (0-100 % of the side's samples: the
 * distribution read sideways, its median at 50). One solid line per side; the steady twin's
 * samples (core/timing.h, "The steady figure"), when the side holds them, dashed beside it.
 * A bar says where a figure is; this says how its samples spread, which for a noisy round trip
 * (lat_epoll) is what a reader doubting a verdict wants to see. It names no tool: the rows that
 * name the kind are its metrics.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_util.h"
#include "analysis/svg.h"
#include "core/util.h"
#include "results/run.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Every finite sample of metric with params in side s, sorted; how many (0: none). */
static size_t side_samples(const struct side *s, const char *metric, const char *params,
			   double **out)
{
	double *v = NULL;
	size_t n = 0;
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = 0; k < s->runs[i]->results.n; k++) {
			const struct result *r = &s->runs[i]->results.v[k];
			if (strcmp(r->metric, metric) || strcmp(r->params, params))
				continue;
			for (size_t j = 0; j < r->nsamples; j++)
				if (isfinite(r->samples[j].value)) {
					v = xrealloc(v, (n + 1) * sizeof *v);
					v[n++] = r->samples[j].value;
				}
		}
	if (n)
		qsort(v, n, sizeof *v, cmp_dbl);
	*out = v;
	return n;
}

/* Append side s's line of metric (none when it holds no sample): x the rank in %, y the value. */
static void add_line(struct svg_series **ser, size_t *ns, const struct side *s, size_t si,
		     const char *metric, const char *params, int steady)
{
	double *y;
	size_t n = side_samples(s, metric, params, &y);
	if (!n)
		return;
	double *x = xmalloc(n * sizeof *x);
	for (size_t i = 0; i < n; i++)
		x[i] = 100.0 * ((double)i + 0.5) / (double)n;
	char *name = report_side_name(s);
	*ser = xrealloc(*ser, (*ns + 1) * sizeof **ser);
	(*ser)[*ns] = (struct svg_series){ .name = steady ? xasprintf("%s steady", name) : xstrdup(name),
					   .x = x, .y = y, .n = n, .color = (int)si, .dash = steady };
	(*ns)++;
	free(name);
}

/* The distinct params of metric over every side, in first-seen order. */
static size_t params_seen(const struct chart_in *in, const char *metric, char ***out)
{
	char **v = NULL;
	size_t n = 0;
	for (size_t s = 0; s < in->n; s++)
		for (size_t i = 0; i < in->sides[s].nruns; i++) {
			const struct result_list *l = &in->sides[s].runs[i]->results;
			for (size_t k = 0; k < l->n; k++) {
				int seen = strcmp(l->v[k].metric, metric) != 0;
				for (size_t j = 0; j < n && !seen; j++)
					seen = !strcmp(v[j], l->v[k].params);
				if (!seen) {
					v = xrealloc(v, (n + 1) * sizeof *v);
					v[n++] = l->v[k].params;
				}
			}
		}
	*out = v;
	return n;
}

static void samples_chart(struct charts *out, const struct chart_in *in,
			  const struct metric_def *d, const char *params)
{
	struct svg_series *ser = NULL;
	size_t ns = 0;
	const struct metric_def *st = metric_steady(d);
	for (size_t s = 0; s < in->n; s++) {
		add_line(&ser, &ns, &in->sides[s], s, d->id, params, 0);
		if (st)
			add_line(&ser, &ns, &in->sides[s], s, st->id, params, 1);
	}
	if (!ns)
		return;
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < ns; i++)
		for (size_t k = 0; k < ser[i].n; k++)
			if (ser[i].y[k] > 0) {
				lo = fmin(lo, ser[i].y[k]);
				hi = fmax(hi, ser[i].y[k]);
			}
	char *title = xasprintf("%s%s%s: %s, every sample sorted%s", d->id, *params ? " " : "",
				params, d->desc, st ? " (its steady figure dashed)" : "");
	char *slug = xasprintf("samples-%s%s%s", d->id, *params ? "-" : "", params);
	struct svg_chart c = { .title = title, .xlabel = "rank among the side's samples (%)",
			       .ylabel = d->unit, .xk = X_LINEAR, .s = ser, .ns = ns,
			       .logy = hi > 0 && hi / lo > 20, .standalone = in->standalone };
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	svg_line_chart(m, &c);
	fclose(m);
	chart_add(out, slug, title, buf, 0);
	free(title);
	free(slug);
	for (size_t i = 0; i < ns; i++) {
		free(ser[i].name);
		free(ser[i].x);
		free(ser[i].y);
	}
	free(ser);
}

/* The chart kind "samples" (its line below): a chart per metric whose row names it and per
 * parameter set the sides hold. */
static void samples_charts(struct charts *out, const struct chart_in *in)
{
	for (int i = 0; metric_at(i); i++) {
		const struct metric_def *d = metric_at(i);
		if (!chart_draws(d, "samples"))
			continue;
		char **params;
		size_t np = params_seen(in, d->id, &params);
		for (size_t p = 0; p < np; p++)
			samples_chart(out, in, d, params[p]);
		free(params);
	}
}

const struct chart_kind chart_kind_samples = { .kind = "samples", .fn = samples_charts,
	.section = "Samples", .section_id = "samples" };
