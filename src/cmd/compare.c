/*
 * compare.c — `plumb compare A B [C ...]`: runs side by side per metric with a verdict judged
 * on rounds (analysis/compare.h, docs/compare.md). A side's runs (a label, a selection) are
 * pooled only when their architecture, CPU model, build and kernel agree (--pool-anyway).
 * Exit 1 with --fail-on-regression when a metric is significantly worse (4 when the sides are
 * other machines or a run was made beside other work: sides_not_judged); 2 for usage and input
 * errors, and for a side that would pool runs that differ.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_junit.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/outfile.h"
#include "core/util.h"
#include "results/run_ident.h"

struct compare_cli {
	struct compare_args ca;     /* --db --alpha --min-effect --correction */
	struct compare_format {
		enum cmp_format fmt;
		int junit;
	} format;
	int all, fail, pool_anyway;
	const char *out;
};

/* --format: junit is written by its own printer, the others by cmp_print */
static void set_format(const char *arg, void *field)
{
	struct compare_format *f = field;
	f->junit = !strcmp(arg, "junit");
	if (!f->junit && cmp_format_parse(arg, &f->fmt))
		die(EXIT_USAGE, "--format: '%s' is not text, markdown, csv, json or junit", arg);
}

static void set_json(const char *arg, void *field)
{
	((struct compare_format *)field)->fmt = CF_JSON;
}

const struct opt compare_options[] = {
	OPT_BOOL(0, "all", struct compare_cli, all,
		"every point of every series (default: the summary-level points)"),
	OPT_GROUP(struct compare_cli, ca, compare_group),
	OPT_CALLBACK(0, "format", struct compare_cli, format, "F", set_format,
		"text (default), markdown, csv, json or junit (JUnit XML for CI)"),
	OPT_CALLBACK_NOARG(0, "json", struct compare_cli, format, set_json,
		"the same as --format json"),
	OPT_BOOL(0, "fail-on-regression", struct compare_cli, fail,
		"exit 1 when a point is significantly worse (4: the sides are other machines, or "
		"a run was made beside other work)"),
	OPT_BOOL(0, "wide", struct compare_cli, ca.o.wide,
		"text: every column (spreads, rounds, change at equal clock, detectable, noise)"),
	OPT_BOOL(0, "side", struct compare_cli, ca.o.side,
		"text: the side metrics per operation of every row (default: of changed rows)"),
	OPT_BOOL(0, "pool-anyway", struct compare_cli, pool_anyway,
		"pool a side's runs even when their architecture, CPU, build or kernel differ"),
	OPT_STRING('o', "output", struct compare_cli, out, "FILE",
		"write to FILE instead of stdout"),
	OPT_END,
};

int cmd_compare(int argc, char **argv)
{
	struct compare_cli a = { .format.fmt = CF_TEXT };
	cmp_opts_default(&a.ca.o);
	static const struct command_options cli = { "compare", compare_options, 0, compare_bad_option, NULL };
	int first = command_parse(&cli, argc, argv, &a);
	struct cmp_opts o = a.ca.o;
	enum cmp_format fmt = a.format.fmt;
	const char *db = a.ca.db, *out = a.out;
	int fail = a.fail, junit = a.format.junit;
	o.all = a.all;
	size_t nargs = (size_t)(argc - first);
	if (nargs < 2)
		die(EXIT_USAGE, "needs at least two RUN arguments (run ids, labels or files)");
	size_t ns;
	struct side *sides = sides_load(argv + first, nargs, db, 0, &ns);
	sides_check_pooling(sides, ns, a.pool_anyway);
	sides_load_history(sides, ns, db);
	struct cmp_table *t = cmp_build(sides, ns, &o);
	for (size_t i = 0; i < t->nwarnings; i++)
		warnx_("warning: %s", t->warnings[i]);
	struct outfile of;
	FILE *f = out ? outfile_open_or_die(&of, out) : stdout;
	if (junit)
		cmp_print_junit(f, t);
	else
		cmp_print(f, t, fmt);
	if (out)
		outfile_commit_or_die(&of);
	int st = fail && cmp_regressions(t) > 0 ? 1 : 0;
	char why[1400];
	if (st && sides_not_judged(sides, ns, why, sizeof why)) {
		warnx_("--fail-on-regression: %zu worse point(s) not taken for a regression: %s "
		       "(exit %d)", cmp_regressions(t), why, EXIT_NOT_JUDGED);
		st = EXIT_NOT_JUDGED;
	}
	cmp_free(t);
	sides_free(sides, ns);
	return st;
}
