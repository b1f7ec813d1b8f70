/* runs.c — `plumb runs`: the runs in the store (id, date, host, label, profile, incomplete),
 * selected with --host H, --label L, --since DATE (all that are given must match), `--delete RUN`
 * / `--relabel RUN TEXT` to manage them (RUN is an id or a label: every run with that label),
 * `--check` to verify the database (SQLite's integrity and foreign-key checks; PostgreSQL
 * enforces its own). The store may be an SQLite file or a PostgreSQL URI (--db). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/util.h"
#include "results/store.h"

#define USAGE "usage: plumb runs [--db FILE|URI] [--host H] [--label L] [--since DATE] " \
	"[--delete RUN | --relabel RUN TEXT | --check]"

/* The ids RUN stands for: a number is one id, anything else a label. */
static int ids_of(struct store *s, const char *arg, long **ids)
{
	int digits = *arg != 0;
	for (const char *p = arg; *p; p++)
		digits &= isdigit((unsigned char)*p) != 0;
	if (digits) {
		*ids = xmalloc(sizeof **ids);
		(*ids)[0] = atol(arg);
		return 1;
	}
	return store_find_label(s, arg, ids);
}

int cmd_runs(int argc, char **argv)
{
	const char *db = NULL, *del = NULL, *rel = NULL, *text = NULL;
	struct run_filter f = { 0 };
	int check = 0;
	char err[1024];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char **slot = !strcmp(a, "--db") ? &db : !strcmp(a, "--delete") ? &del
				    : !strcmp(a, "--host") ? &f.host : !strcmp(a, "--label") ? &f.label
				    : !strcmp(a, "--since") ? &f.since : NULL;
		if (slot) {
			if (i + 1 >= argc)
				die(EXIT_USAGE, "%s needs a value (%s)", a, USAGE);
			*slot = argv[++i];
		} else if (!strcmp(a, "--relabel")) {
			if (i + 2 >= argc)
				die(EXIT_USAGE, "--relabel needs RUN and TEXT (%s)", USAGE);
			rel = argv[++i];
			text = argv[++i];
		} else if (!strcmp(a, "--check")) {
			check = 1;
		} else {
			die(EXIT_USAGE, "unknown argument '%s' (%s)", a, USAGE);
		}
	}
	if (del && rel)
		die(EXIT_USAGE, "--delete and --relabel: one at a time");
	if (f.since && run_since_check(f.since, err, sizeof err))
		die(EXIT_USAGE, "--since: %s", err);
	if ((f.host || f.label || f.since) && (del || rel || check))
		die(EXIT_USAGE, "--host, --label and --since select runs to list; not with --delete, "
		    "--relabel or --check");
	struct store *s = store_open(db, 0, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (check) {
		if (store_check(s, err, sizeof err))
			die(EXIT_MEASURE, "%s", err);
		printf("%s: ok\n", store_name(s));
		store_close(s);
		return 0;
	}
	if (del || rel) {
		const char *arg = del ? del : rel;
		long *ids = NULL;
		int n = ids_of(s, arg, &ids);
		if (n == 0)
			die(EXIT_USAGE, "%s: no run with this id or label", arg);
		for (int i = 0; i < n; i++) {
			if (del ? store_delete(s, ids[i], err, sizeof err)
				: store_relabel(s, ids[i], text, err, sizeof err))
				die(EXIT_USAGE, "%s", err);
			printf("%s run %ld\n", del ? "deleted" : "relabelled", ids[i]);
		}
		free(ids);
		store_close(s);
		return 0;
	}
	struct run **list = NULL;
	int n = store_list_where(s, &f, &list, err, sizeof err);
	if (n < 0)
		die(EXIT_USAGE, "%s", err);
	printf("%5s  %-20s  %-16s  %-20s  %-8s %s\n", "id", "date", "host", "label", "profile", "");
	for (int i = 0; i < n; i++) {
		const struct run *r = list[i];
		printf("%5ld  %-20s  %-16s  %-20s  %-8s %s\n", r->id, r->started ? r->started : "-",
		       r->host ? r->host : "-", r->label ? r->label : "-",
		       r->profile ? r->profile : "-", r->incomplete ? "incomplete" : "");
		run_free(list[i]);
	}
	free(list);
	store_close(s);
	return 0;
}
