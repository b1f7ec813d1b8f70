/*
 * csv_write.c — a run as CSV for data tools (`plumb export --format csv`): a header, then one
 * row per sample (a result without samples, as imported from lmbench text, gives one row with
 * its value and an empty round), in the columns
 *     run,host,label,metric,params,x,round,value,unit,better
 * so that pandas.read_csv / R's read.csv load it in one call. Text fields go through csv_fputs
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
#include "core/util.h"
#include "results/io.h"

static void num(FILE *f, double v)
{
	char buf[32];
	if (isfinite(v))
		fputs(json_fmt_num(v, buf, sizeof buf), f);
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
	fputs("\r\n", f);
}

int run_write_csv(const struct run *r, FILE *f)
{
	/* the run: its store id, else where it came from */
	char *run = r->id ? xasprintf("%ld", r->id) : xstrdup(r->source ? r->source : "");
	fputs("run,host,label,metric,params,x,round,value,unit,better\r\n", f);
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
