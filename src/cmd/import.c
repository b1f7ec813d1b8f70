/* import.c — `plumb import FILE...`: read plumb JSON and lmbench 3 results files and save every
 * run they hold in the store, all in one transaction. Every file is read and checked first: one
 * bad file (garbage, empty, truncated, no recognisable result) is reported in one line naming it,
 * exit 2, and nothing is saved. A run the store already holds (same uid: the same plumb run, or
 * the same content of an lmbench file) is not added again, and the line says so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

int cmd_import(int argc, char **argv)
{
	const char *db = NULL, *label = NULL;
	struct run **runs = NULL;
	size_t n = 0, nfiles = 0;
	char err[512];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db") || !strcmp(argv[i], "--label")) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "%s needs a value", argv[i]);
			*(argv[i][2] == 'd' ? &db : &label) = argv[i + 1];
			i++;
		} else if (!strcmp(argv[i], "--")) {
			continue;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			die(EXIT_USAGE, "unknown option '%s' (usage: plumb import [--db FILE] "
			    "[--label TEXT] FILE...)", argv[i]);
		}
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db") || !strcmp(argv[i], "--label")) {
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--"))
			continue;
		nfiles++;
		size_t before = n;
		if (runs_read_file(argv[i], &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
		for (size_t k = before; k < n && label; k++) {
			free(runs[k]->label);
			runs[k]->label = xstrdup(label);
		}
	}
	if (!nfiles)
		die(EXIT_USAGE, "no file to import (usage: plumb import [--db FILE] [--label TEXT] FILE...)");
	struct store *s = store_open(db, 1, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (store_save_all(s, runs, n, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	for (size_t k = 0; k < n; k++) {
		const struct run *r = runs[k];
		const char *src = r->source ? r->source : "";
		const char *colon = strchr(src, ':');
		if (r->dup)
			printf("run %ld: already in the store, nothing added (from %s)\n", r->id,
			       colon ? colon + 1 : src);
		else
			printf("run %ld: %s, %s, %zu results (from %s)\n", r->id,
			       r->host ? r->host : "?",
			       r->label ? r->label : r->profile ? r->profile : "-", r->results.n,
			       colon ? colon + 1 : src);
		run_free(runs[k]);
	}
	free(runs);
	store_close(s);
	return 0;
}
