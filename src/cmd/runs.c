/* runs.c — `plumb runs`: the runs in the store (id, date, host, label, profile, incomplete),
 * selected with --host H, --label L, --since DATE (all that are given must match), `--delete RUN`
 * / `--relabel RUN TEXT` to manage them (RUN is an id or a label: every run with that label),
 * `--check` to verify the database (SQLite's integrity and foreign-key checks; PostgreSQL
 * enforces its own) and then every run as the other commands read it, naming each one they
 * would skip (store.h: store_check_runs). The store may be an SQLite file or a PostgreSQL URI
 * (--db). Stored text is printed through term_str: a label cannot drive the terminal. */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/escape.h"
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

static void say_bad(struct store *s, const char *what, const char *why, void *ctx)
{
	char line[1024];
	snprintf(line, sizeof line, "%s: %s", what, why);
	term_fputs(stdout, line);
	fputc('\n', stdout);
}

struct runs_cli {
	const char *db, *del, *rel;
	struct run_filter f;
	int check;
};

const struct opt runs_options[] = {
	{ 0, "db", OPT_STRING, 0, 0, offsetof(struct runs_cli, db), "FILE|URI", NULL,
	  "the store: an SQLite file or a postgresql:// URI", NULL },
	{ 0, "host", OPT_STRING, 0, 0, offsetof(struct runs_cli, f.host), "H", NULL,
	  "only runs made on host H", NULL },
	{ 0, "label", OPT_STRING, 0, 0, offsetof(struct runs_cli, f.label), "L", NULL,
	  "only runs labelled L", NULL },
	{ 0, "since", OPT_STRING, 0, 0, offsetof(struct runs_cli, f.since), "DATE", NULL,
	  "only runs started at or after DATE (YYYY-MM-DD[THH:MM:SSZ], UTC)", NULL },
	{ 0, "delete", OPT_STRING, 0, 0, offsetof(struct runs_cli, del), "RUN", NULL,
	  "delete a run and its samples", NULL },
	{ 0, "relabel", OPT_STRING, 0, 0, offsetof(struct runs_cli, rel), "RUN TEXT", NULL,
	  "set a run's label to TEXT (TEXT starting with '-': put it after --)", NULL },
	{ 0, "check", OPT_FLAG, 0, 0, offsetof(struct runs_cli, check), NULL, NULL,
	  "check the store's integrity and name every run that cannot be read", NULL },
	{ 0 },
};

__attribute__((noreturn)) static void runs_bad(const char *cmd, const char *word, int missing)
{
	if (missing && !strcmp(word, "--relabel"))
		die(EXIT_USAGE, "--relabel needs RUN and TEXT (%s)", USAGE);
	if (missing)
		die(EXIT_USAGE, "%s needs a value (%s)", word, USAGE);
	die(EXIT_USAGE, "unknown argument '%s' (%s)", word, USAGE);
}

int cmd_runs(int argc, char **argv)
{
	struct runs_cli a = { 0 };
	static const struct command_options t = { "runs", runs_options, 0, runs_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db, *del = a.del, *rel = a.rel, *text = NULL;
	struct run_filter f = a.f;
	int check = a.check;
	char err[1024];
	/* --relabel's TEXT is the one operand (getopt gives an option one value) */
	if (rel && first == argc)
		die(EXIT_USAGE, "--relabel needs RUN and TEXT (%s)", USAGE);
	if (argc - first > (rel ? 1 : 0))
		die(EXIT_USAGE, "unknown argument '%s' (%s)", argv[rel ? first + 1 : first], USAGE);
	if (rel)
		text = argv[first];
	if (del && rel)
		die(EXIT_USAGE, "--delete and --relabel: one at a time");
	if (f.since && run_since_check(f.since, err, sizeof err))
		die(EXIT_USAGE, "--since: %s", err);
	if ((f.host || f.label || f.since) && (del || rel || check))
		die(EXIT_USAGE, "--host, --label and --since select runs to list; not with --delete, "
		    "--relabel or --check");
	struct store *s = store_open(db, del || rel ? STORE_WRITE : STORE_READ, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (check) {
		if (store_check(s, err, sizeof err))
			die(EXIT_MEASURE, "%s", err);
		/* and every run as the readers read it: what they would skip is named here */
		int bad = store_check_runs(s, say_bad, NULL, err, sizeof err);
		if (bad < 0)
			die(EXIT_MEASURE, "%s", err);
		if (bad)
			die(EXIT_MEASURE, "%s: %d run%s cannot be read (listed above); the others can",
			    store_name(s), bad, bad == 1 ? "" : "s");
		printf("%s: ok\n", store_name(s));
		store_close(s);
		return 0;
	}
	if (rel && run_text_check("the label", text, err, sizeof err))
		die(EXIT_USAGE, "--relabel: %s", err);
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
		/* stored text, escaped: a control character cannot drive the terminal or forge a row */
		char date[80], host[RUN_TEXT_MAX * 4], label[RUN_TEXT_MAX * 4], prof[80];
		printf("%5ld  %-20s  %-16s  %-20s  %-8s %s\n", r->id,
		       term_str(r->started ? r->started : "-", date, sizeof date),
		       term_str(r->host ? r->host : "-", host, sizeof host),
		       term_str(r->label ? r->label : "-", label, sizeof label),
		       term_str(r->profile ? r->profile : "-", prof, sizeof prof),
		       r->incomplete ? "incomplete" : "");
		run_free(list[i]);
	}
	free(list);
	store_close(s);
	return 0;
}
