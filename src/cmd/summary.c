/* summary.c — `plumb summary [RUN|FILE ...]`: lmbench's summary tables, one row per run (every run
 * in the store when none is named), or with --per-host one row per host, its runs pooled as
 * rounds (results/run_merge.h): the multi-host table of a board wiki. RUN is a run id, a label,
 * a selection host=H,label=L,since=DATE or a results file (runs_resolve). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "cmd/commands.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/run_merge.h"
#include "results/store.h"

struct summary_cli {
	const char *db;
	int cells, per_host;
};

const struct opt summary_options[] = {
	{ 0, "db", OPT_STRING, 0, 0, offsetof(struct summary_cli, db), "FILE|URI", NULL,
	  "the store to read runs from (an SQLite file or a postgresql:// URI)", NULL },
	{ 0, "cells", OPT_FLAG, 0, 0, offsetof(struct summary_cli, cells), NULL, NULL,
	  "the stored results behind every cell, one a line, tab-separated", NULL },
	{ 0, "per-host", OPT_FLAG, 0, 0, offsetof(struct summary_cli, per_host), NULL, NULL,
	  "one row per host, its runs pooled as rounds (each run once)", NULL },
	{ 0 },
};

__attribute__((noreturn)) static void summary_bad(const char *cmd, const char *word, int missing)
{
	die(EXIT_USAGE, "unknown option '%s' (usage: plumb summary [--db FILE|URI] [--cells] [--per-host] [RUN|FILE ...])",
	    word);
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
	int named = 0, cells = a.cells, per_host = a.per_host;
	for (int i = first; i < argc; i++) {
		named++;
		if (runs_resolve(argv[i], db, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
	}
	if (!named) {
		struct store *s = store_open(db, STORE_READ, err, sizeof err);
		if (!s)
			die(EXIT_USAGE, "%s", err);
		if (store_load_where(s, NULL, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
		store_close(s);
	}
	if (per_host) {
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
	if (cells)
		summary_cells(m, runs, n);
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
