/*
 * run_merge.c — one run per host out of many (run_merge.h): what `plumb summary --per-host` and
 * `plumb report --per-host` show, lmbench's multi-host tables with one row per board (as a board
 * wiki or a forum thread lays them out) when a shared store holds many runs of each board.
 *
 * A host's runs are pooled as rounds: every sample of a point from every run, each run's rounds
 * kept apart (renumbered after the previous run's), and the point's value recomputed from all of
 * them with the metric's own statistic (median, or best for lmbench's best-of metrics); a host
 * with one run keeps that run's values. A run is counted once (by uid). The pooled run keeps the newest run's facts and says how many runs it
 * stands for in the fact "pooled_runs".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/metrics.h"
#include "core/util.h"
#include "results/run_merge.h"

static const char *host_of(const struct run *r) { return r->host ? r->host : "?"; }

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

/* Add r's results into m, r's rounds numbered from base. */
static void pool(struct run *m, const struct run *r, int base)
{
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		struct result *q = run_find(m, p->metric, p->params, p->x);
		if (q && isnan(p->x) != isnan(q->x))
			q = NULL;
		if (!q) {
			q = result_list_add(&m->results, p->metric, p->params, p->x);
			q->unit = dup_or_null(p->unit);
			q->version = p->version;
			q->info = dup_or_null(p->info);
		} else if (q->version != p->version) {
			q->version = -1; /* the runs measured it differently: compare will say so */
		}
		if (p->nsamples == 0) {
			struct sample s = { .value = p->value, .round = base };
			result_add_sample(q, s);
		}
		for (size_t k = 0; k < p->nsamples; k++) {
			struct sample s = p->samples[k];
			s.round += base;
			result_add_sample(q, s);
		}
	}
}

size_t runs_merge_by_host(struct run *const *runs, size_t n, struct run ***out)
{
	*out = NULL;
	size_t nout = 0;
	char **seen = xcalloc(n ? n : 1, sizeof *seen); /* uids pooled so far */
	size_t nseen = 0;
	int *done = xcalloc(n ? n : 1, sizeof *done);
	for (size_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		struct run *m = run_new();
		m->host = xstrdup(host_of(runs[i]));
		m->rounds = 0;
		size_t pooled = 0;
		const struct run *newest = NULL;
		for (size_t k = i; k < n; k++) {
			const struct run *r = runs[k];
			if (done[k] || strcmp(host_of(r), m->host))
				continue;
			done[k] = 1;
			int dup = 0;
			for (size_t s = 0; s < nseen && r->uid && !dup; s++)
				dup = !strcmp(seen[s], r->uid);
			if (dup)
				continue;
			if (r->uid)
				seen[nseen++] = r->uid;
			if (!newest)
				m->label = dup_or_null(r->label);
			else if (m->label && (!r->label || strcmp(m->label, r->label))) {
				free(m->label);
				m->label = NULL;
			}
			pool(m, r, m->rounds);
			m->rounds += r->rounds > 0 ? r->rounds : 1;
			if (!newest || (r->started && (!newest->started ||
						       strcmp(r->started, newest->started) >= 0)))
				newest = r;
			m->incomplete |= r->incomplete;
			pooled++;
		}
		if (!newest) {
			run_free(m);
			continue;
		}
		m->profile = dup_or_null(newest->profile);
		m->source = dup_or_null(newest->source);
		m->started = dup_or_null(newest->started);
		m->ended = dup_or_null(newest->ended);
		for (size_t f = 0; f < newest->facts.n; f++)
			kv_set(&m->facts, newest->facts.v[f].key, newest->facts.v[f].val);
		char b[32];
		snprintf(b, sizeof b, "%zu", pooled);
		kv_set(&m->facts, "pooled_runs", b);
		for (size_t r = 0; r < m->results.n; r++) {
			struct result *q = &m->results.v[r];
			/* one run: its values as they are (an import's value need not be its samples'
			 * statistic); several: the statistic over all of them */
			const struct result *p = pooled == 1 ? run_find(newest, q->metric, q->params, q->x)
							     : NULL;
			if (p)
				q->value = p->value;
			else
				result_update_value(q, metric_stat_dir(metric_find(q->metric)));
		}
		*out = xrealloc(*out, (nout + 1) * sizeof **out);
		(*out)[nout++] = m;
	}
	free(seen);
	free(done);
	return nout;
}
