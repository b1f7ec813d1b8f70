/* import.c — `plumb import FILE...`: read plumb JSON and lmbench 3 results files and save every
 * run they hold in the store, all in one transaction. Every file is read and checked first: one
 * bad file (garbage, empty, truncated, no recognisable result) is reported in one line naming it,
 * exit 2, and nothing is saved. A run the store already holds (same uid: the same plumb run, or
 * the same content of an lmbench file) is not added again, and the line says so. */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/io.h"
#include "results/store.h"

struct import_cli {
	const char *db, *label;
};

const struct opt import_options[] = {
	OPT_STRING(0, "db", struct import_cli, db, "FILE", "the store to import into"),
	OPT_STRING(0, "label", struct import_cli, label, "TEXT", "label every imported run"),
	OPT_END,
};

__attribute__((noreturn)) static void import_bad(const char *cmd, const char *word, int missing)
{
	if (missing)
		die(EXIT_USAGE, "%s needs a value", word);
	die(EXIT_USAGE, "unknown option '%s' (usage: plumb import [--db FILE] [--label TEXT] FILE...)", word);
}

int cmd_import(int argc, char **argv)
{
	struct import_cli a = { 0 };
	static const struct command_options t = { "import", import_options, 0, import_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db, *label = a.label;
	struct run **runs = NULL;
	size_t n = 0, nfiles = 0;
	char err[512];
	if (label && run_text_check("the label", label, err, sizeof err))
		die(EXIT_USAGE, "--label: %s", err);
	for (int i = first; i < argc; i++) {
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
	struct store *s = store_open(db, STORE_CREATE, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (store_save_all(s, runs, n, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	for (size_t k = 0; k < n;) {
		const struct run *r = runs[k];
		const char *src = r->source ? r->source : "";
		const char *colon = strchr(src, ':');
		char from[PATH_MAX * 4], host[RUN_TEXT_MAX * 4], label[RUN_TEXT_MAX * 4];
		term_str(colon ? colon + 1 : src, from, sizeof from);
		/* runs of one file the store holds already: one line for them all, not one a block */
		size_t same = 0;
		while (k + same < n && runs[k + same]->dup &&
		       !strcmp(runs[k + same]->source ? runs[k + same]->source : "", src))
			same++;
		if (same > 1)
			printf("%zu runs already in the store (runs %ld to %ld), nothing added (from %s)\n",
			       same, runs[k]->id, runs[k + same - 1]->id, from);
		else if (r->dup)
			printf("run %ld: already in the store, nothing added (from %s)\n", r->id, from);
		else
			printf("run %ld: %s, %s, %zu results (from %s)\n", r->id,
			       term_str(r->host ? r->host : "?", host, sizeof host),
			       term_str(r->label ? r->label : r->profile ? r->profile : "-", label,
					sizeof label), r->results.n, from);
		size_t step = same > 1 ? same : 1;
		for (size_t i = 0; i < step; i++)
			run_free(runs[k + i]);
		k += step;
	}
	free(runs);
	store_close(s);
	return 0;
}
