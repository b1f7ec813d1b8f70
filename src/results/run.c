/* run.c — the run model: facts as key/value pairs, results as core/result.h points. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
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
	free(r);
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
