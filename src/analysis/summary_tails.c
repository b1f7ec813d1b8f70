/*
 * summary_tails.c — `plumb summary --tails`: a row per run and lat_tail operation (its params:
 * a --stall-every run is a row of its own), the stored value of each percentile (the median
 * over the blocks, as compare reads it), the worst single operation of the run (the largest
 * block maximum), and how far p99 can be trusted: half the 95 % interval of its median over the
 * blocks, in % (result_noise_pct: order statistics of the blocks' p99s).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary_tails.h"
#include "core/metrics.h"
#include "core/result.h"
#include "core/util.h"

/* The percentiles shown, a column each: the rows whose figure is "tails" (.figure, which also
 * says whose spread and whose worst sample the last two columns show), in the registry's order */
#define QMAX 8

static void cell(FILE *f, double v)
{
	if (!isfinite(v))
		fprintf(f, " %9s", "-");
	else if (fabs(v) < 100)
		fprintf(f, " %9.3f", v);
	else
		fprintf(f, " %9.1f", v);
}

/* The table's head: what it shows, and a column per percentile, the worst operation and the
 * spread. */
static void head(FILE *f, const struct metric_def *const *q, int nq)
{
	const char *sp = "-";
	for (int i = 0; i < nq; i++)
		if (q[i]->figure.spread)
			sp = q[i]->figure.name;
	fprintf(f, "Tail latency (lat_tail), microseconds: each percentile the median over blocks of "
		   "single operations;\nworst = the slowest operation of the run; %s +- = half the "
		   "95%% interval of %s, in %%\n\n%-16s %-10s %-18s", sp, sp, "Run", "Host", "Op");
	for (int i = 0; i < nq; i++)
		fprintf(f, " %9s", q[i]->figure.name);
	char pm[32];
	snprintf(pm, sizeof pm, "%s +-", sp);
	fprintf(f, " %9s %7s\n", "worst", pm);
}

int summary_tails(FILE *f, struct run *const *runs, size_t n)
{
	const struct metric_def *q[QMAX];
	int nq = metric_figure_rows("tails", FIG_POINT, q, QMAX), any = 0;
	for (size_t i = 0; i < n && nq; i++) {
		const struct run *run = runs[i];
		char name[64];
		if (run->label)
			snprintf(name, sizeof name, "%.40s", run->label);
		else if (run->id > 0)
			snprintf(name, sizeof name, "run %ld", run->id);
		else
			snprintf(name, sizeof name, "#%zu", i + 1);
		for (size_t k = 0; k < run->results.n; k++) {
			const struct result *p50 = &run->results.v[k];
			if (strcmp(p50->metric, q[0]->id) != 0)
				continue;
			if (!any++)
				head(f, q, nq);
			char op[32];
			if (!param_get(p50->params, "op", op, sizeof op))
				snprintf(op, sizeof op, "?");
			char what[64];
			char st[24];
			if (param_get(p50->params, "stall_every", st, sizeof st))
				snprintf(what, sizeof what, "%s stall/%s", op, st);
			else
				snprintf(what, sizeof what, "%s", op);
			fprintf(f, "%-16s %-10.10s %-18s", name, run->host ? run->host : "?", what);
			double noise = NAN, worst = NAN;
			for (int j = 0; j < nq; j++) {
				const struct result *r = run_point(run, q[j]->id, p50->params, NAN);
				cell(f, r ? r->value : NAN);
				if (r && q[j]->figure.spread)
					noise = result_noise_pct(r);
				for (size_t s = 0; r && q[j]->figure.worst && s < r->nsamples; s++)
					if (!(r->samples[s].value <= worst))
						worst = r->samples[s].value;
			}
			cell(f, worst);
			if (isfinite(noise))
				fprintf(f, " %6.1f%%\n", noise);
			else
				fprintf(f, " %7s\n", "-");
		}
	}
	if (!any) {
		fprintf(f, "no lat_tail results in %s (plumb run --only lat_tail makes them)\n",
			n == 1 ? "this run" : "these runs");
		return -1;
	}
	return 0;
}
