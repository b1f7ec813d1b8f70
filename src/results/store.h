/*
 * store.h — the results store: an SQLite file or a PostgreSQL database named by a libpq URI
 * (postgresql://... or postgres://...), one schema for both (docs/store-schema.md, versioned,
 * migrated forward on open). Default: $PLUMB_DB (a path or a URI), else
 * $XDG_DATA_HOME/plumb/results.db, else ~/.local/share/plumb/results.db. Built without SQLite
 * (make NO_SQLITE=1) or libpq (NO_PGSQL=1), opening that kind of store fails with a message
 * saying so, and files (io.h) are the way to keep runs.
 *
 * The duplicate rule: a run's uid (run.h) is unique in a store; saving a run the store holds
 * adds nothing and marks the run dup (its id is then the stored run's).
 */
#ifndef PLUMB_STORE_H
#define PLUMB_STORE_H

#include <stddef.h>
#include "results/run.h"

struct store;

#define STORE_NO_SQLITE_MSG "plumb was built without SQLite; use files (-o FILE) instead"
#define STORE_NO_PGSQL_MSG "plumb was built without libpq (PostgreSQL); push from a plumb that has it"

const char *store_default_path(void);
/* 1 when s is a PostgreSQL URI rather than a file path. */
int store_is_uri(const char *s);
/* A store's name for messages: its path, or its URI with the password masked. */
const char *store_name(const struct store *s);
/* Copy uri into out with any password (user:PASSWORD@, password=... in a URI's query or in
 * keyword/value form, in any string) replaced by "***" (results/secret.h). Returns out. */
char *store_mask_uri(const char *uri, char *out, size_t outlen);
/* How a store is opened. STORE_READ writes nothing and creates nothing (so a store on a
 * read-only file system, or one the user may read but not write, can be read, and a reader
 * leaves no file behind that its owner could not write); STORE_WRITE needs a store that exists
 * and that this user may write; STORE_CREATE creates it when it does not exist. */
enum store_mode { STORE_READ = 0, STORE_CREATE = 1, STORE_WRITE = 2 };
/* Open the store at path (NULL: default) in mode (enum store_mode). NULL with err set, naming
 * the store. */
struct store *store_open(const char *path, int mode, char *err, size_t errlen);
void store_close(struct store *s);
/* Save r in one transaction; sets r->id. 0, or -1 with err set (the store is unchanged). */
int store_save(struct store *s, struct run *r, char *err, size_t errlen);
/* Added by the results layer: save several runs in one transaction (all or none; plumb import
 * uses it so a failed import leaves the store as it was). */
int store_save_all(struct store *s, struct run *const *runs, size_t n, char *err, size_t errlen);
/* PRAGMA integrity_check and foreign_key_check: 0 when the store is sound, else -1 with err. */
int store_check(struct store *s, char *err, size_t errlen);
/* 1 when plumb was built with SQLite or libpq. */
int store_available(void);
/* Load run id. NULL with err set (also for a run that fails run_check: the message names it). */
struct run *store_load(struct store *s, long id, char *err, size_t errlen);
/* Ids of the runs with this label, oldest first; returns the count (ids malloc'd). */
int store_find_label(struct store *s, const char *label, long **ids);
/* Every run without its results (for `plumb runs`), oldest first. */
int store_list(struct store *s, struct run ***runs, char *err, size_t errlen);
/* A run the store holds but plumb cannot show (a value of the wrong type, out of range, not
 * UTF-8, past a limit of run_check): the readers skip it and warn, naming it; one bad run never
 * hides the others. store_check_runs hands each such run to bad (what: "run 12 (uid ...)",
 * why: one line) and returns how many there were, or -1 with err set. */
typedef void (*store_bad_fn)(struct store *s, const char *what, const char *why, void *ctx);
int store_check_runs(struct store *s, store_bad_fn bad, void *ctx, char *err, size_t errlen);
/* Selections of runs: every field that is set must match (since: started at or after; cc: the
 * text appears in the build_cc fact; cflags: each blank-separated word is one of the
 * build_cflags fact's; arch: the arch fact, else machine, equals it). facts: the listed runs
 * carry their facts (always so when cc, cflags or arch is set). */
struct run_filter {
	const char *host, *label, *since, *cc, *cflags, *arch;
	int facts;
	char *buf; /* owned by run_filter_parse */
};
/* 1 when r's facts pass f's cc, cflags and arch (each set one must match). */
int run_filter_facts_match(const struct run_filter *f, const struct run *r);
int store_list_where(struct store *s, const struct run_filter *f, struct run ***runs, char *err,
		     size_t errlen);
/* "host=H,label=L,since=DATE,cc=C,cflags=F,arch=A" (any of them, in any order) into f: 1 when
 * arg is a selection, 0 when it is not one (no '='), -1 with err set when it is malformed. */
/* Every run matching f (NULL: all), whole, appended to *runs / *n; bad runs skipped with a
 * warning. 0, or -1 with err set when the store cannot be read. */
int store_load_where(struct store *s, const struct run_filter *f, struct run ***runs, size_t *n,
		     char *err, size_t errlen);
int run_filter_parse(const char *arg, struct run_filter *f, char *err, size_t errlen);
void run_filter_free(struct run_filter *f);
/* 0 when d is a date plumb can select by (YYYY-MM-DD[THH:MM[:SS]][Z]), else -1 with err set. */
int run_since_check(const char *d, char *err, size_t errlen);
int store_delete(struct store *s, long id, char *err, size_t errlen);
int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen);

/* A change point of a host's metric series (plumb annotate): between the versions (labels)
 * label_from and label_to, time_from the last start of the old level's runs and time_to the
 * first of the new one's (ISO 8601 UTC); text and tags as a Grafana annotation shows them. */
struct change_point {
	const char *host, *metric, *params, *unit, *label_from, *label_to, *time_from, *time_to;
	double x, change_pct, lo, hi, p; /* NaN: none */
	const char *direction;           /* "worse", "better" or "changed" */
	const char *text, *tags;
};
/* Replace the store's change points with these n (schema 6, the annotations view), in one
 * transaction. 0, or -1 with err set (the old ones are then kept). */
int store_put_change_points(struct store *s, const struct change_point *c, size_t n, char *err,
			    size_t errlen);

/* Resolve a RUN argument for summary, compare, report, export, push: a file path (read with
 * io.h), a run id, a label (every run with it) or a selection (run_filter_parse). Appends
 * to *runs / *n. 0, or -1 with err set. db: the --db path or URI, or NULL. */
int runs_resolve(const char *arg, const char *db, struct run ***runs, size_t *n, char *err,
		 size_t errlen);

#endif
