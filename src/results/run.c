/* run.c — the run model: facts as key/value pairs, results as core/result.h points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "core/point_index.h"
#include "results/run.h"

void kv_set(struct kv_list *l, const char *key, const char *val)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0) {
			free(l->v[i].val);
			l->v[i].val = xstrdup(val);
			return;
		}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 32;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n].key = xstrdup(key);
	l->v[l->n].val = xstrdup(val);
	l->n++;
}

const char *kv_get(const struct kv_list *l, const char *key)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].key, key) == 0)
			return l->v[i].val;
	return NULL;
}

void kv_free(struct kv_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].key);
		free(l->v[i].val);
	}
	free(l->v);
	memset(l, 0, sizeof *l);
}

struct run *run_new(void)
{
	struct run *r = xcalloc(1, sizeof *r);
	r->rounds = 1;
	return r;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	free(r->uid);
	free(r->label);
	free(r->host);
	free(r->profile);
	free(r->source);
	free(r->started);
	free(r->ended);
	kv_free(&r->facts);
	result_list_free(&r->results);
	if (r->index)
		pidx_free(r->index);
	free(r->index);
	free(r);
}

const struct result *run_point(const struct run *r, const char *metric, const char *params,
			       double x)
{
	/* the index is a cache: building it changes nothing a reader of the run can see */
	struct run *w = (struct run *)r;
	if (!w->index || w->index->n != r->results.n) {
		if (!w->index)
			w->index = xmalloc(sizeof *w->index);
		else
			pidx_free(w->index);
		pidx_init(w->index, PIDX_POINT);
		for (size_t i = 0; i < r->results.n; i++)
			pidx_add(w->index, r->results.v[i].metric, r->results.v[i].params,
				 r->results.v[i].x, i);
	}
	size_t i = pidx_find(r->index, metric, params, x);
	return i < r->results.n ? &r->results.v[i] : NULL;
}

struct result *run_find(const struct run *r, const char *metric, const char *params, double x)
{
	for (size_t i = 0; i < r->results.n; i++) {
		struct result *p = &r->results.v[i];
		if (strcmp(p->metric, metric) == 0 && strcmp(p->params, params ? params : "") == 0 &&
		    (isnan(x) || p->x == x))
			return p;
	}
	return NULL;
}
