/*
 * store.h — the results store: an SQLite database (schema in docs/store-schema.md, versioned,
 * migrated forward on open). Default path: $PLUMB_DB, else $XDG_DATA_HOME/plumb/results.db, else
 * ~/.local/share/plumb/results.db. Built without SQLite (make NO_SQLITE=1) every function fails
 * with a message saying so, and files (io.h) are the way to keep runs.
 */
#ifndef PLUMB_STORE_H
#define PLUMB_STORE_H

#include <stddef.h>
#include "results/run.h"

struct store;

const char *store_default_path(void);
/* Open (creating when create is set) the store at path (NULL: default). NULL with err set. */
struct store *store_open(const char *path, int create, char *err, size_t errlen);
void store_close(struct store *s);
/* Save r in one transaction; sets r->id. 0, or -1 with err set (the store is unchanged). */
int store_save(struct store *s, struct run *r, char *err, size_t errlen);
/* Added by the results layer: save several runs in one transaction (all or none; plumb import
 * uses it so a failed import leaves the store as it was). */
int store_save_all(struct store *s, struct run *const *runs, size_t n, char *err, size_t errlen);
/* PRAGMA integrity_check and foreign_key_check: 0 when the store is sound, else -1 with err. */
int store_check(struct store *s, char *err, size_t errlen);
/* 1 when plumb was built with SQLite. */
int store_available(void);
/* Load run id. NULL with err set. */
struct run *store_load(struct store *s, long id, char *err, size_t errlen);
/* Ids of the runs with this label, oldest first; returns the count (ids malloc'd). */
int store_find_label(struct store *s, const char *label, long **ids);
/* Every run without its results (for `plumb runs`), oldest first. */
int store_list(struct store *s, struct run ***runs, char *err, size_t errlen);
int store_delete(struct store *s, long id, char *err, size_t errlen);
int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen);

/* Resolve a RUN argument for summary, compare, report, export: a file path (read with io.h), a
 * run id, or a label (every run with it). Appends to *runs / *n. 0, or -1 with err set.
 * db: the --db path or NULL. */
int runs_resolve(const char *arg, const char *db, struct run ***runs, size_t *n, char *err,
		 size_t errlen);

#endif
