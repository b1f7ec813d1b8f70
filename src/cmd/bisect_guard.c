/* bisect_guard.c — what bisect-check refuses to judge (bisect_guard.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/bisect_guard.h"
#include "core/metrics.h"
#include "core/util.h"
#include "results/run_ident.h"
#include "suite/fit.h"

#define WATCH_FACTOR 3.0   /* x the plan's estimate: a loaded machine takes twice as long */
#define WATCH_SLACK_S 60.0 /* start-up: the noise check, the memory probe, a slow exec */
#define VALUE_MIN 1e-9     /* no benchmark's unit gives a value outside these */
#define VALUE_MAX 1e12

const char *bisect_contended(const struct run *r)
{
	const char *c = kv_get(&r->facts, "contended_steps");
	return c && *c ? c : NULL;
}

size_t bisect_quiet_baseline(struct side *base)
{
	size_t k = 0;
	for (size_t i = 0; i < base->nruns; i++) {
		struct run *r = base->runs[i];
		if (!bisect_contended(r)) {
			base->runs[k++] = r;
			continue;
		}
		char who[256];
		printf("baseline %s ran beside other work (%s): left out\n",
		       run_who(r, i, who, sizeof who), bisect_contended(r));
		run_free(r);
	}
	base->nruns = k;
	return k;
}

int bisect_foreign(const struct side *base, struct run *tested, int across_kernels, char *why,
		   size_t len)
{
	size_t n = base->nruns + 1;
	struct run **all = xcalloc(n, sizeof *all);
	memcpy(all, base->runs, base->nruns * sizeof *all);
	all[n - 1] = tested;
	int split = runs_machine_split(all, n, !across_kernels, why, len);
	free(all);
	return split;
}

static int names_metric(char **names, int nnames, const char *metric)
{
	for (int k = 0; k < nnames; k++) {
		size_t n = strlen(names[k]);
		if (!strcmp(names[k], metric) || (!strncmp(names[k], metric, n) && metric[n] == '.'))
			return 1;
	}
	return 0;
}

static int impossible(double v)
{
	return !isfinite(v) || !(v >= VALUE_MIN) || v > VALUE_MAX;
}

int bisect_impossible(const struct side *s, char **names, int nnames, char *why, size_t len)
{
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = 0; k < s->runs[i]->results.n; k++) {
			const struct result *q = &s->runs[i]->results.v[k];
			const struct metric_def *d = metric_find(q->metric);
			if (!names_metric(names, nnames, q->metric) || !d || d->better == NEUTRAL)
				continue;
			double bad = impossible(q->value) ? q->value : NAN;
			for (size_t j = 0; j < q->nsamples && isnan(bad); j++)
				if (impossible(q->samples[j].value))
					bad = q->samples[j].value;
			if (isnan(bad) && !impossible(q->value))
				continue;
			snprintf(why, len, "%s: %s reads %g %s, which no measurement gives (not "
				 "within %g..%g)", s->name, q->metric, bad, q->unit ? q->unit : "",
				 VALUE_MIN, VALUE_MAX);
			return 1;
		}
	return 0;
}

/* --time-limit's seconds among the run options; 0 when not given. */
static double time_limit_arg(char **runargs, int n)
{
	double t = 0;
	for (int i = 0; i < n; i++) {
		const char *v = NULL;
		if (!strcmp(runargs[i], "--time-limit") && i + 1 < n)
			v = runargs[i + 1];
		else if (!strncmp(runargs[i], "--time-limit=", 13))
			v = runargs[i] + 13;
		if (v)
			t = strcmp(v, "0") ? parse_duration(v) : 0;
	}
	return t > 0 ? t : 0;
}

double bisect_bound(const struct side *base, char **runargs, int nrunargs, char *how,
		    size_t len)
{
	double est = 0;
	for (size_t i = 0; i < base->nruns; i++) {
		const char *e = kv_get(&base->runs[i]->facts, "plan_estimate_s");
		double d = run_duration_s(base->runs[i]);
		if (e && atof(e) > est)
			est = atof(e);
		if (!isnan(d) && d > est)
			est = d;
	}
	double bound = WATCH_FACTOR * est + WATCH_SLACK_S, limit = time_limit_arg(runargs, nrunargs);
	snprintf(how, len, "%.0f x the baseline's %.0f s + %.0f s", WATCH_FACTOR, est,
		 WATCH_SLACK_S);
	if (limit > 0 && limit < bound) {
		bound = limit;
		snprintf(how, len, "--time-limit");
	}
	return bound;
}
