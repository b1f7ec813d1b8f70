/*
 * trend.c — `plumb trend RUN RUN [RUN...]` or `plumb trend --by FACT [SELECTION...]`: each
 * metric across a series of versions (sides in the given order, or the runs grouped and
 * ordered by a recorded fact), each version's level with its 95 % interval and the changes
 * found along the series (analysis/trend.h, docs/trend.md). Exit 1 with --fail-on-regression
 * when a change is worse; 2 for usage and input errors.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trend.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "core/util.h"
#include "results/store.h"

struct trend_cli {
	struct compare_args ca;
	enum cmp_format fmt;
	int all, fail, pool_anyway;
	const char *out, *by;
};

static void set_format(const char *arg, void *field)
{
	if (cmp_format_parse(arg, field))
		die(EXIT_USAGE, "--format: '%s' is not text, markdown, csv or json", arg);
}

static void set_json(const char *arg, void *field)
{
	*(enum cmp_format *)field = CF_JSON;
}

const struct opt trend_options[] = {
	OPT_STRING(0, "by", struct trend_cli, by, "FACT",
		"a version per value of FACT (kernel, build_cc, date, label, ...)"),
	OPT_BOOL(0, "all", struct trend_cli, all,
		"every point of every series (default: the summary-level points)"),
	OPT_BOOL(0, "pool-anyway", struct trend_cli, pool_anyway,
		"pool a version's runs even when their architecture, CPU, build or kernel differ"),
	OPT_GROUP(struct trend_cli, ca, compare_group),
	OPT_CALLBACK(0, "format", struct trend_cli, fmt, "F", set_format,
		"text (default), markdown, csv or json"),
	OPT_CALLBACK_NOARG(0, "json", struct trend_cli, fmt, set_json, "the same as --format json"),
	OPT_BOOL(0, "fail-on-regression", struct trend_cli, fail,
		"exit 1 when a change along the series is worse (4: runs of other machines, or "
		"made beside other work)"),
	OPT_STRING('o', "output", struct trend_cli, out, "FILE", "write to FILE instead of stdout"),
	OPT_END,
};

/* A run's value of the fact --by names: "date" is the day it started, "label" its label,
 * "host" its host, anything else a recorded fact (kernel, build_cc, ...). NULL when it has none. */
static const char *run_fact(const struct run *r, const char *key, char *buf, size_t len)
{
	if (strcmp(key, "label") == 0)
		return r->label && *r->label ? r->label : NULL;
	if (strcmp(key, "host") == 0)
		return r->host && *r->host ? r->host : NULL;
	if (strcmp(key, "date") == 0) {
		if (!r->started || strlen(r->started) < 10)
			return NULL;
		snprintf(buf, len, "%.10s", r->started);
		return buf;
	}
	const char *v = kv_get(&r->facts, key);
	return v && *v ? v : NULL;
}

/* Natural order; names equal to it ("v010", "v10") in byte order, so the order is total. */
static int by_name(const void *a, const void *b)
{
	const char *x = ((const struct side *)a)->name, *y = ((const struct side *)b)->name;
	int c = trend_version_cmp(x, y);
	return c ? c : strcmp(x, y);
}

/* Every run of the given sides (each once: sides_load already dropped a side's duplicates, a run
 * named by two arguments counts once here too), grouped by fact into new sides in natural
 * order of its values. The given sides are freed; their runs move into the new ones. */
static struct side *group_by(struct side *given, size_t ngiven, const char *fact, size_t *nout)
{
	struct side *out = NULL;
	size_t n = 0, lacking = 0;
	for (size_t g = 0; g < ngiven; g++) {
		for (size_t i = 0; i < given[g].nruns; i++) {
			struct run *r = given[g].runs[i];
			int dup = 0;
			for (size_t s = 0; s < n && !dup; s++)
				for (size_t k = 0; k < out[s].nruns && !dup; k++)
					dup = out[s].runs[k] == r || (r->uid && out[s].runs[k]->uid &&
							strcmp(r->uid, out[s].runs[k]->uid) == 0);
			char buf[64];
			const char *v = run_fact(r, fact, buf, sizeof buf);
			if (dup || !v) {
				lacking += !v && !dup;
				run_free(r);
				continue;
			}
			size_t s = 0;
			while (s < n && strcmp(out[s].name, v) != 0)
				s++;
			if (s == n) {
				out = xrealloc(out, (n + 1) * sizeof *out);
				memset(&out[n], 0, sizeof *out);
				out[n++].name = xstrdup(v);
			}
			out[s].runs = xrealloc(out[s].runs, (out[s].nruns + 1) * sizeof *out[s].runs);
			out[s].runs[out[s].nruns++] = r;
		}
		given[g].nruns = 0;
	}
	sides_free(given, ngiven);
	if (lacking) {
		char b[80];
		warnx_("warning: %zu run%s without %s left out", lacking, lacking == 1 ? "" : "s",
		       term_str(fact, b, sizeof b));
	}
	if (n)
		qsort(out, n, sizeof *out, by_name);
	*nout = n;
	return out;
}

/* --by with no argument: every run of the store, as one side. */
static struct side *every_run(const char *db, size_t *n)
{
	char err[512];
	struct store *st = store_open(db, STORE_READ, err, sizeof err);
	if (!st)
		die(EXIT_USAGE, "--by with no RUN reads every stored run: %s", err);
	struct side *s = xcalloc(1, sizeof *s);
	s->name = xstrdup("all");
	if (store_load_where(st, NULL, &s->runs, &s->nruns, err, sizeof err) != 0) {
		store_close(st);
		die(EXIT_USAGE, "%s", err);
	}
	store_close(st);
	*n = 1;
	return s;
}

int cmd_trend(int argc, char **argv)
{
	struct trend_cli a = { .fmt = CF_TEXT };
	cmp_opts_default(&a.ca.o);
	static const struct command_options cli = { "trend", trend_options, 0, compare_bad_option, NULL };
	int first = command_parse(&cli, argc, argv, &a);
	a.ca.o.all = a.all;
	size_t nargs = (size_t)(argc - first), ns;
	struct side *sides;
	if (a.by) {
		if (!*a.by)
			die(EXIT_USAGE, "--by: needs a fact name (kernel, build_cc, date, label, ...)");
		struct side *given = nargs ? sides_load(argv + first, nargs, a.ca.db, 0, &ns)
					   : every_run(a.ca.db, &ns);
		sides = group_by(given, ns, a.by, &ns);
		if (ns < 2) {
			char b[80];
			die(EXIT_USAGE, "--by %s: the runs have %s value of it; a trend needs two or more",
			    term_str(a.by, b, sizeof b), ns ? "one" : "no");
		}
	} else {
		if (nargs < 2)
			die(EXIT_USAGE, "needs at least two RUN arguments (run ids, labels, selections or "
					"files), or --by FACT");
		sides = sides_load(argv + first, nargs, a.ca.db, 0, &ns);
	}
	sides_check_pooling(sides, ns, a.pool_anyway);
	struct trend_table *t = trend_build(sides, ns, &a.ca.o);
	for (size_t i = 0; i < t->cmp->nwarnings; i++)
		warnx_("warning: %s", t->cmp->warnings[i]);
	struct outfile of;
	FILE *f = a.out ? outfile_open_or_die(&of, a.out) : stdout;
	trend_print(f, t, a.fmt);
	if (a.out)
		outfile_commit_or_die(&of);
	int worse = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t k = 0; k < t->rows[i].nch; k++)
			worse |= t->rows[i].ch[k].worse > 0;
	trend_free(t);
	char why[1400];
	int st = a.fail && worse ? 1 : 0;
	if (st && sides_not_judged(sides, ns, why, sizeof why)) {
		warnx_("--fail-on-regression: the worse changes are not taken for a regression: %s "
		       "(exit %d)", why, EXIT_NOT_JUDGED);
		st = EXIT_NOT_JUDGED;
	}
	sides_free(sides, ns);
	return st;
}
