/* summary.c — `plumb summary [RUN|FILE ...]`: lmbench's summary tables, one row per run (every run
 * in the store when none is named), or with --per-host one row per host, its runs pooled as
 * rounds (results/run_merge.h): the multi-host table of a board wiki. RUN is a run id, a label,
 * a selection host=H,label=L,since=DATE or a results file (runs_resolve). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary.h"
#include "cmd/commands.h"
#include "core/util.h"
#include "results/run_merge.h"
#include "results/store.h"

int cmd_summary(int argc, char **argv)
{
	const char *db = NULL;
	struct run **runs = NULL;
	size_t n = 0;
	char err[512];
	int named = 0, cells = 0, per_host = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cells")) {
			cells = 1;
		} else if (!strcmp(argv[i], "--per-host")) {
			per_host = 1;
		} else if (!strcmp(argv[i], "--db") && i + 1 < argc) {
			db = argv[++i];
		} else if (!strncmp(argv[i], "--db=", 5)) {
			db = argv[i] + 5;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			die(EXIT_USAGE, "unknown option '%s' (usage: plumb summary [--db FILE|URI] [--cells] [--per-host] [RUN|FILE ...])",
			    argv[i]);
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db")) {
			i++;
			continue;
		}
		if (!strncmp(argv[i], "--db=", 5) || !strcmp(argv[i], "--cells") ||
		    !strcmp(argv[i], "--per-host"))
			continue;
		named++;
		if (runs_resolve(argv[i], db, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
	}
	if (!named) {
		struct store *s = store_open(db, 0, err, sizeof err);
		if (!s)
			die(EXIT_USAGE, "%s", err);
		struct run **list = NULL;
		int k = store_list(s, &list, err, sizeof err);
		if (k < 0)
			die(EXIT_USAGE, "%s", err);
		for (int i = 0; i < k; i++) {
			struct run *r = store_load(s, list[i]->id, err, sizeof err);
			if (!r)
				die(EXIT_USAGE, "%s", err);
			runs = realloc(runs, (n + 1) * sizeof *runs);
			runs[n++] = r;
			run_free(list[i]);
		}
		free(list);
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
	utf8_fputs(stdout, buf, 0);
	free(buf);
	for (size_t i = 0; i < n; i++)
		run_free(runs[i]);
	free(runs);
	return 0;
}
