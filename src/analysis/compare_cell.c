/*
 * compare_cell.c — one side's cell of a compare row: the side's round values of a point (one
 * per round, by the metric's statistic) and what the cell shows of them (centre, range,
 * spread, noise, caveat, method version). Below both compare.c (the rows) and
 * compare_judge.c (the tests), which read cells and never each other's internals.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_cell.h"
#include "core/stats.h"
#include "core/util.h"

const struct result *cmp_find_point(const struct run *run, const char *metric,
				       const char *params, double x)
{
	return run_point(run, metric, params, x);
}

int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Append r's round values to *v (grown as needed): one per distinct sample.round. */
void cmp_add_rounds(const struct result *r, double **v, size_t *n, size_t *cap)
{
	const struct metric_def *d = metric_find(r->metric);
	int stat_dir = metric_stat_dir(d);
	size_t want = r->nsamples ? r->nsamples : 1;
	if (*n + want > *cap) {
		*cap = (*n + want) * 2;
		*v = xrealloc(*v, *cap * sizeof **v);
	}
	if (r->nsamples == 0) {
		(*v)[(*n)++] = r->value;
		return;
	}
	int *ids = xmalloc(r->nsamples * sizeof *ids);
	double *vals = xmalloc(r->nsamples * sizeof *vals);
	for (size_t i = 0; i < r->nsamples; i++)
		ids[i] = r->samples[i].round;
	qsort(ids, r->nsamples, sizeof *ids, cmp_int);
	for (size_t i = 0; i < r->nsamples; i++) {
		if (i > 0 && ids[i] == ids[i - 1])
			continue;
		size_t k = 0;
		for (size_t j = 0; j < r->nsamples; j++)
			if (r->samples[j].round == ids[i])
				vals[k++] = r->samples[j].value;
		(*v)[(*n)++] = stat_dir < 0 ? stats_min(vals, k)
			     : stat_dir > 0 ? stats_max(vals, k) : stats_median(vals, k);
	}
	free(ids);
	free(vals);
}

size_t cmp_round_values(struct run *const *runs, size_t nruns, const char *metric,
			const char *params, double x, double **out)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	for (size_t i = 0; i < nruns; i++) {
		const struct result *r = cmp_find_point(runs[i], metric, params, x);
		if (r)
			cmp_add_rounds(r, out, &n, &cap);
	}
	return n;
}

void cmp_fill_cell(struct cmp_cell *c, const struct side *s, const struct cmp_row *row)
{
	memset(c, 0, sizeof *c);
	c->center = c->lo = c->hi = c->spread = c->smin = c->smax = c->noise = NAN;
	c->version = 0;
	c->nrounds = cmp_round_values(s->runs, s->nruns, row->metric, row->params, row->x,
				      &c->rounds);
	if (c->nrounds == 0)
		return;
	c->present = 1;
	c->center = stats_median(c->rounds, c->nrounds);
	c->lo = stats_min(c->rounds, c->nrounds);
	c->hi = stats_max(c->rounds, c->nrounds);
	if (c->nrounds >= 2 && c->center != 0)
		c->spread = (c->hi - c->lo) / 2 / fabs(c->center) * 100;
	int first = 1;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct result *r = cmp_find_point(s->runs[i], row->metric, row->params, row->x);
		if (!r)
			continue;
		if (first)
			c->version = r->version;
		else if (c->version != r->version)
			c->version = -1;
		first = 0;
		double nz = result_noise_pct(r);
		if (!isnan(nz) && (isnan(c->noise) || nz > c->noise))
			c->noise = nz;
		char cv[32];
		if (result_caveat(r, cv, sizeof cv))
			snprintf(c->caveat, sizeof c->caveat, "%s", cv);
		if (r->nsamples == 0) {
			c->smin = isnan(c->smin) ? r->value : fmin(c->smin, r->value);
			c->smax = isnan(c->smax) ? r->value : fmax(c->smax, r->value);
		}
		for (size_t k = 0; k < r->nsamples; k++) {
			double v = r->samples[k].value;
			c->smin = isnan(c->smin) ? v : fmin(c->smin, v);
			c->smax = isnan(c->smax) ? v : fmax(c->smax, v);
		}
	}
}

/* compare.h: a value as every table prints it (here, below every file that formats one). */
const char *cmp_fmt_num(double v, char *buf, size_t len)
{
	double a = fabs(v);
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (a >= 1e7)
		snprintf(buf, len, "%.4g", v); /* 4 digits, as below: 9e9 is "9e+09", not 10 digits */
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 100)
		snprintf(buf, len, "%.1f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.2f", v);
	else if (a >= 1 || a == 0)
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

/* compare.h: a row as every output names it. */
const char *cmp_row_name(const struct cmp_row *r, char *buf, size_t len)
{
	char x[48] = "";
	if (!isnan(r->x))
		snprintf(x, sizeof x, " @%g", r->x);
	snprintf(buf, len, "%s%s%s%s", r->metric, *r->params ? " " : "", r->params, x);
	return buf;
}
