/*
 * push.c — `plumb push RUN... --to URI`: copy runs to another store, typically a lab's shared
 * PostgreSQL database (docs/lab.md). RUN is what summary and compare take: a run id, a label or a
 * selection (host=H,label=L,since=DATE) of the local store (--db, default as everywhere), or a
 * plumb JSON or lmbench results file, so a board without libpq can hand its files to a machine
 * that reaches the database.
 *
 * Each run keeps its uid, host, label, facts and every sample; the store at --to gives it its own
 * id. Idempotent: a run the target already holds (same uid) adds nothing and the line says so,
 * so pushing twice, or from two machines at once, stores once. Every run of one push is saved in
 * one transaction: an interrupted push (Ctrl-C, kill -9, a lost connection) leaves nothing.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "core/cleanup.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/store.h"

#define USAGE "usage: plumb push RUN... --to URI|FILE [--db FILE] [--with-private]"

struct push_cli {
	const char *to, *db;
	int with_private;
};

const struct opt push_options[] = {
	OPT_STRING(0, "to", struct push_cli, to, "URI|FILE",
		"the store to copy to (a postgresql:// URI, or an SQLite file)"),
	OPT_STRING(0, "db", struct push_cli, db, "FILE",
		"the local store RUN ids, labels and selections refer to"),
	OPT_BOOL(0, "with-private", struct push_cli, with_private,
		"also push the kernel command line and this machine's paths (left out by default)"),
	OPT_END,
};

__attribute__((noreturn)) static void push_bad(const char *cmd, const char *word, int missing)
{
	if (missing)
		die(EXIT_USAGE, "%s needs a value (%s)", word, USAGE);
	die(EXIT_USAGE, "unknown option '%s' (%s)", word, USAGE);
}

/* Facts that tell a shared store about this machine rather than the measurement: the kernel
 * command line (root=UUID, addresses, tokens) and local paths (the store, the output file, the
 * file-system directory). Left out of what is pushed unless --with-private; the uid the run
 * already has keeps the push idempotent. */
static int private_fact(const char *key)
{
	static const char *const keys[] = { "cmdline", "opt.db", "opt.output", "opt.fsdir" };
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

static void strip_private(struct run *r)
{
	size_t k = 0;
	for (size_t i = 0; i < r->facts.n; i++) {
		if (private_fact(r->facts.v[i].key)) {
			free(r->facts.v[i].key);
			free(r->facts.v[i].val);
		} else {
			r->facts.v[k++] = r->facts.v[i];
		}
	}
	r->facts.n = k;
	/* an imported file's source names its path here: only its file name goes */
	const char *colon = r->source ? strchr(r->source, ':') : NULL;
	const char *slash = colon ? strrchr(colon, '/') : NULL;
	if (slash) {
		char *n = xasprintf("%.*s%s", (int)(colon + 1 - r->source), r->source, slash + 1);
		free(r->source);
		r->source = n;
	}
}

int cmd_push(int argc, char **argv)
{
	struct push_cli a = { 0 };
	static const struct command_options t = { "push", push_options, 0, push_bad, NULL };
	int first = command_parse(&t, argc, argv, &a);
	const char *db = a.db, *to = a.to;
	char **args = argv + first;
	size_t nargs = (size_t)(argc - first);
	if (!to)
		die(EXIT_USAGE, "--to names the store to push to (%s)", USAGE);
	if (!nargs)
		die(EXIT_USAGE, "no RUN to push (%s)", USAGE);
	/* a stop ends the push at once, saying so: the one transaction is never committed, so
	 * the target keeps nothing of it (SQLite rolls it back, PostgreSQL aborts it) */
	cleanup_announce_stops();
	char err[1024];
	struct run **runs = NULL;
	size_t n = 0;
	for (size_t i = 0; i < nargs; i++)
		if (runs_resolve(args[i], db, &runs, &n, err, sizeof err))
			die(EXIT_USAGE, "%s", err);
	/* the ids each run had where it came from, for the report */
	long *from = xcalloc(n ? n : 1, sizeof *from);
	for (size_t i = 0; i < n; i++) {
		from[i] = runs[i]->id;
		if (!a.with_private)
			strip_private(runs[i]);
	}
	struct store *s = store_open(to, STORE_CREATE, err, sizeof err);
	if (!s)
		die(EXIT_USAGE, "%s", err);
	if (store_save_all(s, runs, n, err, sizeof err))
		die(EXIT_USAGE, "%s", err);
	size_t added = 0;
	for (size_t i = 0; i < n; i++) {
		const struct run *r = runs[i];
		char what[64];
		if (from[i])
			snprintf(what, sizeof what, "run %ld", from[i]);
		else
			snprintf(what, sizeof what, "a run from a file");
		char host[RUN_TEXT_MAX * 4], label[RUN_TEXT_MAX * 4];
		term_str(r->host ? r->host : "?", host, sizeof host);
		term_str(r->label ? r->label : "-", label, sizeof label);
		if (r->dup)
			printf("%s (%s, %s): already there as run %ld, nothing added\n", what, host,
			       label, r->id);
		else
			printf("%s (%s, %s): pushed as run %ld, %zu results\n", what, host, label,
			       r->id, r->results.n);
		added += !r->dup;
		run_free(runs[i]);
	}
	printf("%zu pushed, %zu already there: %s\n", added, n - added, store_name(s));
	free(runs);
	free(from);
	store_close(s);
	return 0;
}
