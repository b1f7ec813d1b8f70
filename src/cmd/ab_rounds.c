/*
 * ab_rounds.c — see ab_rounds.h. A fresh worker per round and side makes whatever one process's
 * layout gives a metric (stack and heap placement, alignment: fixed for a process's life) vary
 * from round to round, where the paired test sees it as noise, instead of a constant offset
 * between the sides that no test within the session can tell from a change of the build.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/ab_rounds.h"
#include "core/metrics.h"
#include "core/stats.h"
#include "core/util.h"

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

void ab_pool_round(struct run *acc, const struct run *one, int r)
{
	for (size_t i = 0; i < one->results.n; i++) {
		const struct result *p = &one->results.v[i];
		struct result *q = run_find(acc, p->metric, p->params, p->x);
		if (q && isnan(p->x) != isnan(q->x))
			q = NULL;
		if (!q) {
			q = result_list_add(&acc->results, p->metric, p->params, p->x);
			q->unit = dup_or_null(p->unit);
			q->version = p->version;
			q->info = dup_or_null(p->info);
		} else if (q->version != p->version) {
			q->version = -1; /* two workers measured it differently: compare says so */
		}
		if (p->nsamples == 0) {
			struct sample s = { .value = p->value, .round = r };
			result_add_sample(q, s);
		}
		for (size_t k = 0; k < p->nsamples; k++) {
			struct sample s = p->samples[k];
			s.round = r;
			result_add_sample(q, s);
		}
	}
	acc->incomplete |= one->incomplete;
	if (one->ended) {
		free(acc->ended);
		acc->ended = xstrdup(one->ended);
	}
}

void ab_close_side(struct run *acc, int rounds, const double *clocks, size_t n)
{
	for (size_t i = 0; i < acc->results.n; i++) {
		struct result *q = &acc->results.v[i];
		if (q->nsamples)
			result_update_value(q, metric_stat_dir(metric_find(q->metric)));
	}
	acc->rounds = rounds > 0 ? rounds : 1;
	double *c = xmalloc((n ? n : 1) * sizeof *c);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (clocks[i] > 0)
			c[k++] = clocks[i];
	if (k) {
		char b[32];
		snprintf(b, sizeof b, "%.0f", stats_median(c, k));
		kv_set(&acc->facts, "clock_mhz", b);
	}
	free(c);
}

void ab_map_points(struct ab_point_map *m, const struct run *r, size_t from, size_t to, int step)
{
	for (size_t i = from; i < to && i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		if (ab_point_step(m, p->metric, p->params, p->x) >= 0)
			continue;
		m->v = xrealloc(m->v, (m->n + 1) * sizeof *m->v);
		m->v[m->n++] = (struct ab_point){ xstrdup(p->metric), xstrdup(p->params ? p->params : ""),
						  p->x, step };
	}
}

int ab_point_step(const struct ab_point_map *m, const char *metric, const char *params, double x)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct ab_point *p = &m->v[i];
		if (strcmp(p->metric, metric) || strcmp(p->params, params ? params : "") ||
		    isnan(p->x) != isnan(x) || (!isnan(x) && p->x != x))
			continue;
		return p->step;
	}
	return -1;
}

void ab_map_free(struct ab_point_map *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->v[i].metric);
		free(m->v[i].params);
	}
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

int ab_coin(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (int)((*s * 0x2545F4914F6CDD1Dull) >> 63);
}

int ab_fit_round(int *active, int *frozen, const double *cost, size_t n, double left,
		 size_t *nfrozen)
{
	for (;;) {
		double next = 0;
		size_t dearest = (size_t)-1;
		for (size_t i = 0; i < n; i++) {
			if (!active[i])
				continue;
			next += cost[i];
			if (dearest == (size_t)-1 || cost[i] > cost[dearest])
				dearest = i;
		}
		if (dearest == (size_t)-1)
			return -1;
		if (next <= left)
			return 0;
		active[dearest] = 0;
		frozen[dearest] = 1;
		(*nfrozen)++;
	}
}

const char *ab_frozen_note(size_t nfrozen, char *buf, size_t len)
{
	if (!nfrozen)
		return "";
	snprintf(buf, len, "; %zu dearest step%s stopped for time, the cheaper ran on", nfrozen,
		 nfrozen == 1 ? "" : "s");
	return buf;
}
