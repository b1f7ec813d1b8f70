/*
 * csv_write.c — a run as CSV for data tools (`plumb export --format csv`): a header, then one
 * row per sample (a result without samples, as imported from lmbench text, gives one row with
 * its value and an empty round), in the columns
 *     run,host,label,metric,params,x,round,value,unit,better
 * then each sample's own figures and side metrics (core/side.h, docs/side-metrics.md):
 *     iters,elapsed_ns,side_ops,vol_cs,invol_cs,cs,migrations,minflt,majflt,task_ns,
 *     steal_ns,irqs,idle_usage,idle_us,freq_khz,cycles,instructions,cache_misses,dtlb_misses,
 *     window_ns,idle_cpus,idle_states
 * (totals over the sample, not per operation; side_ops the operations they cover; a field not
 * read is empty; idle_states "NAME=USAGE/TIME_US ..." per cpuidle state), so that
 * pandas.read_csv / R's read.csv load it in one call. Text fields go through csv_fputs
 * (core/escape.h: RFC 4180 quoting, control characters and bytes that are not UTF-8 shown
 * visibly); numbers in the shortest form that reads back exactly; an unknown number
 * (x of a single value, a failed sample) is an empty field.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "core/json.h"
#include "core/metrics.h"
#include "core/result.h"
#include "core/side.h"
#include "core/util.h"
#include "results/io.h"

static void num(FILE *f, double v)
{
	char buf[32];
	if (isfinite(v))
		fputs(json_fmt_num(v, buf, sizeof buf), f);
}

/* ",iters,elapsed_ns,side_ops,FIELD...,idle_states" of sample s (all empty without one). */
static void side_cols(FILE *f, const struct result *p, const struct sample *s)
{
	const struct side_sample *sd = s ? sample_side(s) : NULL;
	fputc(',', f);
	if (s)
		fprintf(f, "%llu", (unsigned long long)s->iters);
	fputc(',', f);
	num(f, s ? s->elapsed_ns : NAN);
	fputc(',', f);
	num(f, sd && sd->have && sd->ops > 0 ? sd->ops : NAN);
	for (int k = 0; k < SIDE_NFIELDS; k++) {
		fputc(',', f);
		num(f, sd && sd->have & (1u << k) ? sd->v[k] : NAN);
	}
	fputc(',', f);
	char names[128], text[1024];
	size_t at = 0;
	text[0] = 0;
	const char *nm = sd && sd->idle_states && param_get(p->info, "idle_states", names,
							     sizeof names) ? names : NULL;
	for (uint32_t k = 0; nm && *nm && k < sd->idle_states && at < sizeof text; k++) {
		size_t l = strcspn(nm, ",");
		char u[32], t[32];
		at += (size_t)snprintf(text + at, sizeof text - at, "%s%.*s=%s/%s", k ? " " : "",
				       (int)l, nm, json_fmt_num(sd->idle_usage[k], u, sizeof u),
				       json_fmt_num(sd->idle_us[k], t, sizeof t));
		nm += l + (nm[l] == ',');
	}
	if (text[0])
		csv_fputs(f, text);
}

static void row(FILE *f, const char *run, const struct run *r, const struct result *p,
		const char *better, const struct sample *s)
{
	csv_fputs(f, run);
	fputc(',', f);
	csv_fputs(f, r->host);
	fputc(',', f);
	csv_fputs(f, r->label);
	fputc(',', f);
	csv_fputs(f, p->metric);
	fputc(',', f);
	csv_fputs(f, p->params);
	fputc(',', f);
	num(f, p->x);
	fputc(',', f);
	if (s)
		fprintf(f, "%d", s->round);
	fputc(',', f);
	num(f, s ? s->value : p->value);
	fputc(',', f);
	csv_fputs(f, p->unit);
	fputc(',', f);
	csv_fputs(f, better);
	side_cols(f, p, s);
	fputs("\r\n", f);
}

int run_write_csv(const struct run *r, FILE *f)
{
	/* the run: its store id, else where it came from */
	char *run = r->id ? xasprintf("%ld", r->id) : xstrdup(r->source ? r->source : "");
	fputs("run,host,label,metric,params,x,round,value,unit,better,iters,elapsed_ns,side_ops", f);
	for (int k = 0; k < SIDE_NFIELDS; k++)
		fprintf(f, ",%s", side_field_name(k));
	fputs(",idle_states\r\n", f);
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		const struct metric_def *d = metric_find(p->metric);
		const char *better = d ? better_name(d->better) : "";
		if (!p->nsamples)
			row(f, run, r, p, better, NULL);
		for (size_t k = 0; k < p->nsamples; k++)
			row(f, run, r, p, better, &p->samples[k]);
	}
	free(run);
	fflush(f);
	return ferror(f) ? -1 : 0;
}
