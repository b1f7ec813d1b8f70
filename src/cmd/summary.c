/* summary.c — `plumb summary [RUN|FILE ...]`: lmbench's summary tables, one row per run (the
 * newest stored run when none is named, every stored run with --all), or with --per-host one row per host, its runs pooled
 * as rounds (results/run_merge.h): the multi-host table of a board wiki. Runs of one host that
 * differ in architecture, CPU model, build or kernel are not pooled unless --pool-anyway says
 * so (results/run_ident.h). RUN is a run id, a label, a selection (store.h: run_filter_parse)
 * or a results file (runs_resolve). --format markdown, html or mediawiki: a facts header above the tables
 * (analysis/summary.h). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "analysis/summary_tails.h"
#include "cmd/commands.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/formats.h"
#include "results/run_ident.h"
#include "results/run_merge.h"
#include "results/store.h"

struct summary_cli {
	const char *db, *format;
	int cells, per_host, pool_anyway, all, tails, noisy;
};

const struct opt summary_options[] = {
	OPT_STRING(0, "db", struct summary_cli, db, "FILE|URI",
		"the store to read runs from (an SQLite file or a postgresql:// URI)"),
	OPT_BOOL(0, "all", struct summary_cli, all,
		"every stored run (without RUN: the newest run)"),
	OPT_BOOL(0, "cells", struct summary_cli, cells,
		"the stored results behind every cell, one a line, tab-separated"),
	OPT_BOOL(0, "per-host", struct summary_cli, per_host,
		"one row per host, its runs pooled as rounds (each run once)"),
	OPT_BOOL(0, "pool-anyway", struct summary_cli, pool_anyway,
		"with --per-host, pool a host's runs even when their architecture, CPU, build "
		"or kernel differ"),
	OPT_BOOL(0, "noisy", struct summary_cli, noisy,
		"under the tables, every noisy or caveat cell (default: the count and the worst 5)"),
	OPT_BOOL(0, "tails", struct summary_cli, tails,
		"lat_tail's percentiles (p50 p90 p99 p99.9 max) per run and operation"),
	OPT_STRING(0, "format", struct summary_cli, format, "F",
		"text (lmbench's, the default), markdown, html or mediawiki: a facts header, then "
		"the tables"),
	OPT_END,
};

__attribute__((noreturn)) static void summary_bad(const char *cmd, const char *word, int missing)
{
	die(EXIT_USAGE, "unknown option '%s' (usage: plumb summary [--db FILE|URI] [--cells] "
	    "[--per-host [--pool-anyway]] [--tails] [--noisy] [--format text|markdown|html|mediawiki] [--all | RUN|FILE ...])", word);
}

/* The newest run of the store: what `plumb summary` alone shows (the run just made). */
static void load_newest(const char *db, struct run ***runs, size_t *n)
{
	char err[512];
	struct store *s = store_open(db, STORE_READ, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	struct run **list = NULL;
	int k = store_list(s, &list, err, sizeof err);
	if (k < 0)
		die(EXIT_USAGE, "%s", err);
	/* the newest that can be read: a damaged run is skipped with a warning, as everywhere */
	for (int i = k - 1; i >= 0 && !*n; i--) {
		struct run *r = store_load(s, list[i]->id, err, sizeof err);
		if (r)
			run_array_push(runs, n, r);
		else
			warnx_("warning: %s; skipped", err);
	}
	for (int i = 0; i < k; i++)
		run_free(list[i]);
	free(list);
	if (!*n)
		die(EXIT_USAGE, "%s: no run to summarise", store_name(s));
	store_close(s);
}

/* --per-host: each host's runs must agree on what makes them comparable, else exit 2 naming
 * the fact (or, with --pool-anyway, a warning saying what was pooled). */
static void check_hosts(struct run **runs, size_t n, int anyway)
{
	struct run **group = xcalloc(n ? n : 1, sizeof *group);
	for (size_t i = 0; i < n; i++) {
		const char *h = runs[i]->host ? runs[i]->host : "?";
		size_t k = 0, before = 0;
		for (size_t j = 0; j < n; j++) {
			const char *g = runs[j]->host ? runs[j]->host : "?";
			before += j < i && !strcmp(g, h);
			if (!strcmp(g, h))
				group[k++] = runs[j];
		}
		char why[1024];
		if (before || !runs_pool_split(group, k, why, sizeof why))
			continue;
		if (!anyway)
			die(EXIT_USAGE, "--per-host: host %s: not pooled, %s (--pool-anyway pools them)",
			    h, why);
		warnx_("warning: --per-host: host %s: pooled anyway, although %s", h, why);
	}
	free(group);
}

int cmd_summary(int argc, char **argv)
{
	struct summary_cli a = { 0 };
	static const struct command_options t = { "summary", summary_options, 0, summary_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db;
	struct run **runs = NULL;
	size_t n = 0;
	char err[512];
	enum summary_format fmt = SUM_TEXT;
	if (a.format && summary_format_parse(a.format, &fmt))
		die(EXIT_USAGE, "--format: '%s' is not text, markdown, html or mediawiki", a.format);
	summary_noisy_all = a.noisy;
	if (a.cells && fmt != SUM_TEXT)
		die(EXIT_USAGE, "--cells and --format: one at a time");
	if (a.tails && (a.cells || fmt != SUM_TEXT))
		die(EXIT_USAGE, "--tails is a text table of its own: not with --cells or --format");
	if (a.pool_anyway && !a.per_host)
		die(EXIT_USAGE, "--pool-anyway goes with --per-host (the only pooling summary does)");
	for (int i = first; i < argc; i++)
		if (runs_resolve(argv[i], db, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
	if (a.all && first < argc)
		die(EXIT_USAGE, "--all or RUN arguments: one or the other");
	if (a.all) {
		struct store *s = store_open(db, STORE_READ, err, sizeof err);
		if (!s || store_load_where(s, NULL, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
		store_close(s);
	} else if (first == argc) {
		load_newest(db, &runs, &n);
	}
	if (a.per_host) {
		check_hosts(runs, n, a.pool_anyway);
		struct run **hosts = NULL;
		size_t nh = runs_merge_by_host(runs, n, &hosts);
		for (size_t i = 0; i < n; i++)
			run_free(runs[i]);
		free(runs);
		runs = hosts;
		n = nh;
	}
	/* host names and OS strings come from the runs as given: print them as valid UTF-8 */
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		die(EXIT_MEASURE, "out of memory");
	if (a.tails)
		summary_tails(m, runs, n);
	else if (a.cells)
		summary_cells(m, runs, n);
	else if (fmt != SUM_TEXT)
		summary_print_doc(m, runs, n, fmt);
	else
		summary_print(m, runs, n);
	fclose(m);
	utf8_fputs(stdout, buf);
	free(buf);
	for (size_t i = 0; i < n; i++)
		run_free(runs[i]);
	free(runs);
	return 0;
}
