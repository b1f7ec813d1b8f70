/*
 * report_tails.c — lat_tail's distribution as a percentile chart per operation (params, so a
 * --stall-every run is a chart of its own): x the percentile in "nines", -log10(1 - q), so
 * that p50, p90, p99 and p99.9 fall at 0.3, 1, 2 and 3 and the tail gets the room a linear
 * axis would give the median; the block's maximum is drawn at 4. y the latency on a log
 * scale (a tail is often 100x the median). One line per side: at each percentile the median
 * of the side's samples (blocks) pooled over its runs and rounds, the value compare reads.
 * The bars chart keeps each percentile's interval; this one shows the shape. The percentiles
 * are the rows whose .figure is this kind (core/metrics.h), each at the place its row gives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_tails.h"
#include "analysis/svg.h"
#include "core/metrics.h"
#include "core/result.h"
#include "core/stats.h"
#include "core/util.h"
#include "results/run.h"

/* The percentiles drawn: the rows whose figure is "tails" (.figure, each a point at its
 * percentile in nines), in the registry's order; at most QMAX. */
#define QMAX 8
struct tail_rows {
	const struct metric_def *q[QMAX];
	int n;
};

/* The distinct params of the first percentile's results over every side, in first-seen order. */
static size_t ops_seen(const struct side *sides, size_t n, const char *first, const char ***out)
{
	const char **v = NULL;
	size_t k = 0, cap = 0;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t j = 0; j < sides[s].runs[i]->results.n; j++) {
				const struct result *r = &sides[s].runs[i]->results.v[j];
				if (strcmp(r->metric, first) != 0)
					continue;
				size_t a = 0;
				while (a < k && !params_same(v[a], r->params))
					a++;
				if (a < k)
					continue;
				if (k == cap) {
					cap = cap ? 2 * cap : 8;
					v = xrealloc(v, cap * sizeof *v);
				}
				v[k++] = r->params;
			}
	*out = v;
	return k;
}

/* The median of every sample of (metric, params) on side s; NAN when it has none. */
static double side_median(const struct side *s, const char *metric, const char *params)
{
	double *v = NULL;
	size_t k = 0;
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t j = 0; j < s->runs[i]->results.n; j++) {
			const struct result *r = &s->runs[i]->results.v[j];
			if (strcmp(r->metric, metric) != 0 || !params_same(r->params, params))
				continue;
			v = xrealloc(v, (k + r->nsamples + 1) * sizeof *v);
			for (size_t m = 0; m < r->nsamples; m++)
				v[k++] = r->samples[m].value;
		}
	double med = k ? stats_median(v, k) : NAN;
	free(v);
	return med;
}

/* The x axis' name: each percentile's place and name ("0.3 p50, 1 p90, ..."). */
static void x_label(const struct tail_rows *t, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "percentile in nines:");
	for (int q = 0; q < t->n && at < len; q++)
		at += (size_t)snprintf(buf + at, len - at, "%s %.2g %s", q ? "," : "",
				       t->q[q]->figure.at, t->q[q]->figure.name);
	if (at < len)
		snprintf(buf + at, len - at, " of a block");
}

static char *render(const struct chart_in *in, const struct tail_rows *t, const char *params,
		    const char *title)
{
	const struct side *sides = in->sides;
	size_t n = in->n;
	struct svg_series *ser = xcalloc(n, sizeof *ser);
	size_t ns = 0;
	for (size_t s = 0; s < n; s++) {
		struct svg_series *z = &ser[ns];
		z->x = xmalloc(QMAX * sizeof *z->x);
		z->y = xmalloc(QMAX * sizeof *z->y);
		for (int q = 0; q < t->n; q++) {
			double v = side_median(&sides[s], t->q[q]->id, params);
			if (isfinite(v) && v > 0) { /* a log axis: a value at or below 0 is not drawn */
				z->x[z->n] = t->q[q]->figure.at;
				z->y[z->n++] = v;
			}
		}
		if (!z->n) {
			free(z->x);
			free(z->y);
			z->x = z->y = NULL;
			continue;
		}
		z->name = report_side_name(&sides[s]);
		z->color = (int)s;
		ns++;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		die(1, "out of memory");
	char xlabel[160];
	x_label(t, xlabel, sizeof xlabel);
	struct svg_chart c = { .title = title, .xlabel = xlabel, .ylabel = t->q[0]->unit,
			       .xk = X_LINEAR, .logy = 1, .s = ser, .ns = ns,
			       .standalone = in->standalone };
	svg_line_chart(f, &c);
	fclose(f);
	for (size_t s = 0; s < ns; s++) {
		free(ser[s].name);
		free(ser[s].x);
		free(ser[s].y);
	}
	free(ser);
	return buf;
}

/* The chart kind "tails" (its line below): a percentile chart per lat_tail operation. */
void report_tails_charts(struct charts *out, const struct chart_in *in)
{
	struct tail_rows t;
	t.n = metric_figure_rows("tails", FIG_POINT, t.q, QMAX);
	if (!t.n)
		return;
	const char **ops;
	size_t k = ops_seen(in->sides, in->n, t.q[0]->id, &ops);
	for (size_t i = 0; i < k; i++) {
		char slug[96];
		snprintf(slug, sizeof slug, "tails-%s", ops[i]);
		for (char *p = slug; *p; p++)
			if (*p == ' ' || *p == '=' || *p == '.' || *p == '_')
				*p = '-';
		char *title = xasprintf("Tail latency (lat_tail) %s: percentiles of single operations",
					ops[i]);
		chart_add(out, slug, title, render(in, &t, ops[i], title), 0);
		free(title);
	}
	free(ops);
}

const struct chart_kind chart_kind_tails = { .kind = "tails", .fn = report_tails_charts,
	.section = "Tail latency", .section_id = "tails" };
