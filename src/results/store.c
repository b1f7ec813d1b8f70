/*
 * store.c — the results store: one SQLite database holding runs, their facts, their results and
 * every sample (schema and its history: docs/store-schema.md).
 *
 * Versioned: PRAGMA user_version is the schema version and `migrations` below takes a store from
 * any older version to the current one inside one transaction when it is opened, so a newer plumb
 * opens an older store; a store newer than this plumb is refused with a message. Safe with several
 * plumb processes at once: WAL journal, a busy timeout, and every write in a BEGIN IMMEDIATE
 * transaction (a run is saved whole or not at all).
 *
 * Built without SQLite (make NO_SQLITE=1) every store function fails with one message, and runs
 * travel as files (results/io.h); runs_resolve() still reads files.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/util.h"
#include "results/io.h"
#include "results/formats.h"
#include "results/store.h"

#define NO_SQLITE_MSG "plumb was built without SQLite; use files (-o FILE) instead"

const char *store_default_path(void)
{
	static char path[4096];
	const char *e = getenv("PLUMB_DB");
	if (e && *e)
		return e;
	const char *x = getenv("XDG_DATA_HOME");
	if (x && *x) {
		snprintf(path, sizeof path, "%s/plumb/results.db", x);
		return path;
	}
	const char *h = getenv("HOME");
	snprintf(path, sizeof path, "%s/.local/share/plumb/results.db", h && *h ? h : ".");
	return path;
}

#ifdef HAVE_SQLITE
#include <sqlite3.h>

struct store {
	sqlite3 *db;
	char *path;
};

/* 'plmb': marks the database as a plumb store (PRAGMA application_id). */
#define PLUMB_APP_ID 0x706c6d62

/* migrations[i] takes the schema from version i to i + 1. Never edit a released entry: add one. */
static const char *const migrations[] = {
	/* 0 → 1: the first schema */
	"CREATE TABLE runs ("
	"  id INTEGER PRIMARY KEY AUTOINCREMENT,"
	"  label TEXT, host TEXT, profile TEXT, source TEXT,"
	"  started TEXT, ended TEXT,"
	"  incomplete INTEGER NOT NULL DEFAULT 0,"
	"  rounds INTEGER NOT NULL DEFAULT 1,"
	"  saved TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')));"
	"CREATE TABLE facts ("
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL, value TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE results ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  metric TEXT NOT NULL, params TEXT NOT NULL DEFAULT '',"
	"  x REAL, value REAL, unit TEXT,"
	"  method_version INTEGER NOT NULL DEFAULT 0, info TEXT);"
	"CREATE TABLE samples ("
	"  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	"  seq INTEGER NOT NULL,"
	"  value REAL, iters INTEGER NOT NULL DEFAULT 0, elapsed_ns REAL,"
	"  round INTEGER NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (result_id, seq)) WITHOUT ROWID;"
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE INDEX runs_label ON runs(label);",
	/* 1 → 2: compare and report look one metric up across many runs */
	"CREATE INDEX results_metric ON results(metric, params);",
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

static int fail_db(struct store *s, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
	return -1;
}

static int exec(struct store *s, const char *sql, char *err, size_t errlen)
{
	char *msg = NULL;
	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static int pragma_int(struct store *s, const char *sql, int *v)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	int rc = sqlite3_step(st);
	*v = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* Bring the schema to SCHEMA_VERSION, or refuse a store that is not ours or is newer. */
static int migrate(struct store *s, char *err, size_t errlen)
{
	int ver = 0, app = 0, tables = 0;
	if (pragma_int(s, "PRAGMA user_version", &ver) ||
	    pragma_int(s, "PRAGMA application_id", &app) ||
	    pragma_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &tables)) {
		if (sqlite3_errcode(s->db) == SQLITE_NOTADB)
			snprintf(err, errlen, "%s: not a plumb results store (not an SQLite database)",
				 s->path);
		else
			fail_db(s, err, errlen, "cannot read the store");
		return -1;
	}
	if ((app && app != PLUMB_APP_ID) || (!app && tables > 0)) {
		snprintf(err, errlen, "%s: not a plumb results store (another program's database)",
			 s->path);
		return -1;
	}
	if (ver > SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: store schema %d is newer than this plumb knows (%d); "
			 "use a newer plumb", s->path, ver, SCHEMA_VERSION);
		return -1;
	}
	if (ver == SCHEMA_VERSION)
		return 0;
	if (exec(s, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	/* another plumb may have migrated while we waited for the lock: read again */
	if (pragma_int(s, "PRAGMA user_version", &ver))
		goto fail;
	for (int v = ver; v < SCHEMA_VERSION; v++)
		if (exec(s, migrations[v], err, errlen))
			goto fail_quiet;
	char sql[96];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d",
		 SCHEMA_VERSION, PLUMB_APP_ID);
	if (exec(s, sql, err, errlen) || exec(s, "COMMIT", err, errlen))
		goto fail_quiet;
	return 0;
fail:
	fail_db(s, err, errlen, "migration failed");
fail_quiet:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

static void mkdirs(const char *path)
{
	char buf[4096];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(buf, 0755);
			*p = '/';
		}
}

struct store *store_open(const char *path, int create, char *err, size_t errlen)
{
	int dflt = !path;
	if (!path)
		path = store_default_path();
	if (access(path, F_OK) != 0) {
		if (!create) {
			snprintf(err, errlen, "%s: no results store here yet (plumb run or plumb import "
				 "creates it; --db FILE names another)", path);
			return NULL;
		}
		if (dflt)
			mkdirs(path);
	}
	struct store *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open the results store: %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	/* Several plumb processes may write at once: wait for each other instead of failing. */
	sqlite3_busy_timeout(s->db, 60000);
	sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
	sqlite3_exec(s->db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	sqlite3_exec(s->db, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	if (migrate(s, err, errlen)) {
		store_close(s);
		return NULL;
	}
	return s;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->db)
		sqlite3_close(s->db);
	free(s->path);
	free(s);
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* NaN is stored as NULL (SQLite does so itself; said here so the reader undoes it). */
static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? xstrdup((const char *)t) : NULL;
}

static int save_one(struct store *s, struct run *r, sqlite3_stmt *q[4])
{
	sqlite3_stmt *st = q[0];
	sqlite3_reset(st);
	bind_text(st, 1, r->label);
	bind_text(st, 2, r->host);
	bind_text(st, 3, r->profile);
	bind_text(st, 4, r->source);
	bind_text(st, 5, r->started);
	bind_text(st, 6, r->ended);
	sqlite3_bind_int(st, 7, r->incomplete != 0);
	sqlite3_bind_int(st, 8, r->rounds > 0 ? r->rounds : 1);
	if (sqlite3_step(st) != SQLITE_DONE)
		return -1;
	sqlite3_int64 id = sqlite3_last_insert_rowid(s->db);
	for (size_t i = 0; i < r->facts.n; i++) {
		st = q[1];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		bind_text(st, 2, r->facts.v[i].key);
		bind_text(st, 3, r->facts.v[i].val ? r->facts.v[i].val : "");
		if (sqlite3_step(st) != SQLITE_DONE)
			return -1;
	}
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		st = q[2];
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (sqlite3_int64)i);
		bind_text(st, 3, p->metric);
		bind_text(st, 4, p->params ? p->params : "");
		bind_real(st, 5, p->x);
		bind_real(st, 6, p->value);
		bind_text(st, 7, p->unit);
		sqlite3_bind_int(st, 8, p->version);
		bind_text(st, 9, p->info);
		if (sqlite3_step(st) != SQLITE_DONE)
			return -1;
		sqlite3_int64 rid = sqlite3_last_insert_rowid(s->db);
		for (size_t k = 0; k < p->nsamples; k++) {
			const struct sample *sm = &p->samples[k];
			st = q[3];
			sqlite3_reset(st);
			sqlite3_bind_int64(st, 1, rid);
			sqlite3_bind_int64(st, 2, (sqlite3_int64)k);
			bind_real(st, 3, sm->value);
			sqlite3_bind_int64(st, 4, (sqlite3_int64)sm->iters); /* read back as uint64 */
			bind_real(st, 5, sm->elapsed_ns);
			sqlite3_bind_int(st, 6, sm->round);
			if (sqlite3_step(st) != SQLITE_DONE)
				return -1;
		}
	}
	r->id = (long)id;
	return 0;
}

int store_save_all(struct store *s, struct run *const *runs, size_t n, char *err, size_t errlen)
{
	static const char *sql[4] = {
		"INSERT INTO runs (label, host, profile, source, started, ended, incomplete, rounds) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
		"INSERT OR REPLACE INTO facts (run_id, key, value) VALUES (?, ?, ?)",
		"INSERT INTO results (run_id, seq, metric, params, x, value, unit, method_version, "
		"info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		"INSERT INTO samples (result_id, seq, value, iters, elapsed_ns, round) "
		"VALUES (?, ?, ?, ?, ?, ?)",
	};
	sqlite3_stmt *q[4] = { 0 };
	if (exec(s, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	int rc = 0;
	for (int i = 0; i < 4 && !rc; i++)
		if (sqlite3_prepare_v2(s->db, sql[i], -1, &q[i], NULL) != SQLITE_OK)
			rc = -1;
	for (size_t i = 0; i < n && !rc; i++)
		rc = save_one(s, runs[i], q);
	if (rc)
		fail_db(s, err, errlen, "cannot save the run");
	for (int i = 0; i < 4; i++)
		sqlite3_finalize(q[i]);
	if (!rc && exec(s, "COMMIT", err, errlen))
		rc = -1;
	if (rc) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		for (size_t i = 0; i < n; i++)
			runs[i]->id = 0;
	}
	return rc;
}

int store_save(struct store *s, struct run *r, char *err, size_t errlen)
{
	return store_save_all(s, &r, 1, err, errlen);
}

static struct run *run_from_row(sqlite3_stmt *st)
{
	struct run *r = run_new();
	r->id = (long)sqlite3_column_int64(st, 0);
	r->label = col_text(st, 1);
	r->host = col_text(st, 2);
	r->profile = col_text(st, 3);
	r->source = col_text(st, 4);
	r->started = col_text(st, 5);
	r->ended = col_text(st, 6);
	r->incomplete = sqlite3_column_int(st, 7);
	r->rounds = sqlite3_column_int(st, 8);
	return r;
}

#define RUN_COLS "id, label, host, profile, source, started, ended, incomplete, rounds"

struct run *store_load(struct store *s, long id, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	struct run *r = NULL;
	/* one read transaction: a concurrent delete cannot leave us half a run */
	if (exec(s, "BEGIN", err, errlen))
		return NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT " RUN_COLS " FROM runs WHERE id = ?", -1, &st,
			       NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		r = run_from_row(st);
	sqlite3_finalize(st);
	st = NULL;
	if (!r) {
		if (rc != SQLITE_DONE)
			goto dberr;
		snprintf(err, errlen, "%s: no run %ld", s->path, id);
		goto out;
	}
	if (sqlite3_prepare_v2(s->db, "SELECT key, value FROM facts WHERE run_id = ? ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		kv_set(&r->facts, (const char *)sqlite3_column_text(st, 0),
		       sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		goto dberr;
	if (sqlite3_prepare_v2(s->db, "SELECT metric, params, x, value, unit, method_version, info "
			       "FROM results WHERE run_id = ? ORDER BY seq", -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *m = (const char *)sqlite3_column_text(st, 0);
		const char *p = (const char *)sqlite3_column_text(st, 1);
		struct result *res = result_list_add(&r->results, m ? m : "", p ? p : "",
						     col_real(st, 2));
		res->value = col_real(st, 3);
		res->unit = col_text(st, 4);
		res->version = sqlite3_column_int(st, 5);
		res->info = col_text(st, 6);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		goto dberr;
	if (sqlite3_prepare_v2(s->db, "SELECT r.seq, s.value, s.iters, s.elapsed_ns, s.round "
			       "FROM samples s JOIN results r ON s.result_id = r.id "
			       "WHERE r.run_id = ? ORDER BY r.seq, s.seq", -1, &st, NULL) != SQLITE_OK)
		goto dberr;
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite3_int64 seq = sqlite3_column_int64(st, 0);
		if (seq < 0 || (size_t)seq >= r->results.n)
			continue;
		struct sample sm = { .value = col_real(st, 1),
				     .iters = (uint64_t)sqlite3_column_int64(st, 2),
				     .elapsed_ns = col_real(st, 3),
				     .round = sqlite3_column_int(st, 4) };
		result_add_sample(&r->results.v[seq], sm);
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc != SQLITE_DONE)
		goto dberr;
	goto out;
dberr:
	fail_db(s, err, errlen, "cannot read the store");
	sqlite3_finalize(st);
	run_free(r);
	r = NULL;
out:
	sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	return r;
}

int store_find_label(struct store *s, const char *label, long **ids)
{
	sqlite3_stmt *st;
	*ids = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT id FROM runs WHERE label = ? ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK)
		return 0;
	bind_text(st, 1, label);
	int n = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		*ids = xrealloc(*ids, (size_t)(n + 1) * sizeof **ids);
		(*ids)[n++] = (long)sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	return n;
}

int store_list(struct store *s, struct run ***runs, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	*runs = NULL;
	if (sqlite3_prepare_v2(s->db, "SELECT " RUN_COLS " FROM runs ORDER BY id", -1, &st, NULL) !=
	    SQLITE_OK)
		return fail_db(s, err, errlen, "cannot list runs");
	int n = 0, rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*runs = xrealloc(*runs, (size_t)(n + 1) * sizeof **runs);
		(*runs)[n++] = run_from_row(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		for (int i = 0; i < n; i++)
			run_free((*runs)[i]);
		free(*runs);
		*runs = NULL;
		return fail_db(s, err, errlen, "cannot list runs");
	}
	return n;
}

static int change_run(struct store *s, const char *sql, long id, const char *label, char *err,
		      size_t errlen)
{
	sqlite3_stmt *st;
	if (exec(s, "BEGIN IMMEDIATE", err, errlen))
		return -1;
	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail_db(s, err, errlen, "cannot change the run");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	int i = 1;
	if (label)
		bind_text(st, i++, label);
	sqlite3_bind_int64(st, i, id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		fail_db(s, err, errlen, "cannot change the run");
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (sqlite3_changes(s->db) == 0) {
		snprintf(err, errlen, "%s: no run %ld", s->path, id);
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return exec(s, "COMMIT", err, errlen);
}

int store_delete(struct store *s, long id, char *err, size_t errlen)
{
	return change_run(s, "DELETE FROM runs WHERE id = ?", id, NULL, err, errlen);
}

int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen)
{
	return change_run(s, "UPDATE runs SET label = ? WHERE id = ?", id, label, err, errlen);
}

int store_check(struct store *s, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(s->db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, errlen, "cannot check the store");
	int rc = sqlite3_step(st);
	const char *t = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	int good = t && !strcmp(t, "ok");
	if (!good)
		snprintf(err, errlen, "%s: integrity check failed: %s", s->path,
			 t ? t : sqlite3_errmsg(s->db));
	sqlite3_finalize(st);
	if (!good)
		return -1;
	if (sqlite3_prepare_v2(s->db, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return fail_db(s, err, errlen, "cannot check the store");
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "%s: rows refer to missing runs or results", s->path);
		return -1;
	}
	return 0;
}

#else /* !HAVE_SQLITE: the store is absent, files remain */

struct store *store_open(const char *path, int create, char *err, size_t errlen)
{
	(void)path, (void)create;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return NULL;
}
void store_close(struct store *s) { (void)s; }
int store_save_all(struct store *s, struct run *const *runs, size_t n, char *err, size_t errlen)
{
	(void)s, (void)runs, (void)n;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return -1;
}
int store_save(struct store *s, struct run *r, char *err, size_t errlen)
{
	return store_save_all(s, &r, 1, err, errlen);
}
struct run *store_load(struct store *s, long id, char *err, size_t errlen)
{
	(void)s, (void)id;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return NULL;
}
int store_find_label(struct store *s, const char *label, long **ids)
{
	(void)s, (void)label;
	*ids = NULL;
	return 0;
}
int store_list(struct store *s, struct run ***runs, char *err, size_t errlen)
{
	(void)s;
	*runs = NULL;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return -1;
}
int store_delete(struct store *s, long id, char *err, size_t errlen)
{
	(void)s, (void)id;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return -1;
}
int store_check(struct store *s, char *err, size_t errlen)
{
	(void)s;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return -1;
}
int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen)
{
	(void)s, (void)id, (void)label;
	snprintf(err, errlen, NO_SQLITE_MSG);
	return -1;
}
#endif

int store_available(void)
{
#ifdef HAVE_SQLITE
	return 1;
#else
	return 0;
#endif
}

static int all_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

int runs_resolve(const char *arg, const char *db, struct run ***runs, size_t *n, char *err,
		 size_t errlen)
{
	struct stat st;
	errno = 0;
	if (stat(arg, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return runs_read_file(arg, runs, n, err, errlen);
		snprintf(err, errlen, "%s: is a directory, not a results file", arg);
		return -1;
	}
	const char *ext = strrchr(arg, '.');
	if (strchr(arg, '/') || (ext && (!strcmp(ext, ".json") || !strcmp(ext, ".txt")))) {
		snprintf(err, errlen, "%s: %s", arg, strerror(errno ? errno : ENOENT));
		return -1;
	}
	if (!store_available()) {
		snprintf(err, errlen, "%s: no such file, and " NO_SQLITE_MSG, arg);
		return -1;
	}
	struct store *s = store_open(db, 0, err, errlen);
	if (!s)
		return -1;
	int rc = 0;
	if (all_digits(arg)) {
		struct run *r = store_load(s, atol(arg), err, errlen);
		if (r)
			run_array_push(runs, n, r);
		else
			rc = -1;
	} else {
		long *ids = NULL;
		int k = store_find_label(s, arg, &ids);
		if (k == 0) {
			snprintf(err, errlen, "%s: no such file, run id or label in %s", arg,
				 db ? db : store_default_path());
			rc = -1;
		}
		for (int i = 0; i < k && !rc; i++) {
			struct run *r = store_load(s, ids[i], err, errlen);
			if (r)
				run_array_push(runs, n, r);
			else
				rc = -1;
		}
		free(ids);
	}
	store_close(s);
	return rc;
}
