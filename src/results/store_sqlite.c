/*
 * store_sqlite.c — the results store in one SQLite file (store_db.h's backend interface).
 *
 * The schema version is PRAGMA user_version and PRAGMA application_id marks the file as plumb's
 * ('plmb'), so another program's database is refused. Several plumb processes at once: a
 * rollback journal, a 60 s busy timeout, and writers in BEGIN IMMEDIATE transactions, so they
 * queue instead of failing; readers open read-only (store_sqlite_open says why). Built without SQLite (make NO_SQLITE=1) opening fails with one message.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/util.h"
#include "results/store.h"
#include "results/store_db.h"

#ifdef HAVE_SQLITE
#include <sqlite3.h>

/* 'plmb': marks the database as a plumb store (PRAGMA application_id). */
#define PLUMB_APP_ID 0x706c6d62

int store_sqlite_built(void) { return 1; }

static sqlite3 *db_of(struct store *s) { return s->conn; }

static int set_err(struct store *s)
{
	snprintf(s->dberr, sizeof s->dberr, "%s", sqlite3_errmsg(db_of(s)));
	return -1;
}

static int lite_exec(struct store *s, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db_of(s), sql, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(s->dberr, sizeof s->dberr, "%s", msg ? msg : sqlite3_errmsg(db_of(s)));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static void bind(sqlite3_stmt *st, int i, const struct dbval *v)
{
	switch (v->t) {
	case DB_INT: sqlite3_bind_int64(st, i, v->i); break;
	case DB_REAL: sqlite3_bind_double(st, i, v->d); break;
	case DB_TEXT: sqlite3_bind_text(st, i, v->s, -1, SQLITE_TRANSIENT); break;
	default: sqlite3_bind_null(st, i); break;
	}
}

static int lite_query(struct store *s, const char *sql, const struct dbval *p, int np,
		      struct dbrows *out)
{
	sqlite3_stmt *st;
	if (out)
		memset(out, 0, sizeof *out);
	if (sqlite3_prepare_v2(db_of(s), sql, -1, &st, NULL) != SQLITE_OK)
		return set_err(s);
	for (int i = 0; i < np; i++)
		bind(st, i + 1, &p[i]);
	size_t ncols = (size_t)sqlite3_column_count(st), cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (!out)
			continue;
		if (out->nrows >= DB_MAX_ROWS) {
			snprintf(s->dberr, sizeof s->dberr, "more than %d rows: not a store plumb wrote",
				 DB_MAX_ROWS);
			sqlite3_finalize(st);
			dbrows_free(out);
			return -1;
		}
		if (out->nrows == cap) {
			cap = cap ? 2 * cap : 16;
			out->v = xrealloc(out->v, cap * ncols * sizeof *out->v);
		}
		struct dbval *row = out->v + out->nrows * ncols;
		for (size_t c = 0; c < ncols; c++) {
			struct dbval *v = &row[c];
			memset(v, 0, sizeof *v);
			switch (sqlite3_column_type(st, (int)c)) {
			case SQLITE_INTEGER:
				v->t = DB_INT;
				v->i = sqlite3_column_int64(st, (int)c);
				break;
			case SQLITE_FLOAT:
				v->t = DB_REAL;
				v->d = sqlite3_column_double(st, (int)c);
				break;
			case SQLITE_TEXT: {
				const unsigned char *t = sqlite3_column_text(st, (int)c);
				size_t n = (size_t)sqlite3_column_bytes(st, (int)c);
				char *copy = xmalloc(n + 1);
				memcpy(copy, t ? (const char *)t : "", n);
				copy[n] = 0;
				v->t = DB_TEXT;
				v->s = copy;
				v->n = n;
				break;
			}
			case SQLITE_NULL: v->t = DB_NULL; break;
			default: v->t = DB_OTHER; break;
			}
		}
		out->nrows++;
		out->ncols = ncols;
	}
	if (out)
		out->ncols = ncols;
	if (rc != SQLITE_DONE) {
		set_err(s);
		sqlite3_finalize(st);
		if (out)
			dbrows_free(out);
		return -1;
	}
	sqlite3_finalize(st);
	return 0;
}

static int pragma_int(struct store *s, const char *sql, int *v)
{
	struct dbrows r;
	if (lite_query(s, sql, NULL, 0, &r))
		return -1;
	*v = r.nrows && r.v[0].t == DB_INT ? (int)r.v[0].i : 0;
	dbrows_free(&r);
	return 0;
}

static int lite_version(struct store *s, int *ver, char *err, size_t errlen)
{
	int app = 0, tables = 0;
	if (pragma_int(s, "PRAGMA user_version", ver) ||
	    pragma_int(s, "PRAGMA application_id", &app) ||
	    pragma_int(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table'", &tables)) {
		if (sqlite3_errcode(db_of(s)) == SQLITE_NOTADB)
			snprintf(err, errlen, "%s: not a plumb results store (not an SQLite database)",
				 s->name);
		else
			snprintf(err, errlen, "%s: cannot read the store: %s", s->name, s->dberr);
		return -1;
	}
	if ((app && app != PLUMB_APP_ID) || (!app && tables > 0)) {
		snprintf(err, errlen, "%s: not a plumb results store (another program's database)",
			 s->name);
		return -1;
	}
	return 0;
}

static int lite_set_version(struct store *s, int ver)
{
	char sql[96];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d; PRAGMA application_id = %d", ver,
		 PLUMB_APP_ID);
	return lite_exec(s, sql);
}

/* BEGIN IMMEDIATE already holds the write lock: nothing more to take. */
static int lite_lock_schema(struct store *s) { (void)s; return 0; }

static int lite_check(struct store *s, char *err, size_t errlen)
{
	struct dbrows r;
	if (lite_query(s, "PRAGMA integrity_check", NULL, 0, &r)) {
		snprintf(err, errlen, "%s: cannot check the store: %s", s->name, s->dberr);
		return -1;
	}
	int good = r.nrows && r.v[0].t == DB_TEXT && !strcmp(r.v[0].s, "ok");
	if (!good)
		snprintf(err, errlen, "%s: integrity check failed: %s", s->name,
			 r.nrows && r.v[0].t == DB_TEXT ? r.v[0].s : "no answer");
	dbrows_free(&r);
	if (!good)
		return -1;
	if (lite_query(s, "PRAGMA foreign_key_check", NULL, 0, &r)) {
		snprintf(err, errlen, "%s: cannot check the store: %s", s->name, s->dberr);
		return -1;
	}
	size_t n = r.nrows;
	dbrows_free(&r);
	if (n) {
		snprintf(err, errlen, "%s: rows refer to missing runs or results", s->name);
		return -1;
	}
	return 0;
}

static void lite_close(struct store *s)
{
	if (s->conn)
		sqlite3_close(db_of(s));
}

static const struct store_ops lite_ops = {
	.dialect = DIALECT_SQLITE,
	.begin_write = "BEGIN IMMEDIATE",
	.begin_read = "BEGIN",
	.exec = lite_exec,
	.query = lite_query,
	.version = lite_version,
	.set_version = lite_set_version,
	.lock_schema = lite_lock_schema,
	.check = lite_check,
	.close = lite_close,
};

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

/* 1 when the file is in WAL mode (its header's read and write versions are 2). */
static int wal_header(const char *path)
{
	unsigned char h[20];
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	size_t n = fread(h, 1, sizeof h, f);
	fclose(f);
	return n == sizeof h && h[18] == 2 && h[19] == 2;
}

/* Why this user cannot write the store at path (with its journal beside it), or NULL. */
static const char *not_writable(const char *path)
{
	if (access(path, W_OK) != 0)
		return errno == EROFS ? "it is on a read-only file system"
				      : "this user may not write the file";
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = 0;
	else if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof dir, ".");
	if (access(dir, W_OK | X_OK) != 0)
		return "this user may not write its directory (where SQLite keeps the journal)";
	return NULL;
}

/* "file:" URI of path, for sqlite3_open_v2 with SQLITE_OPEN_URI: '%', '?' and '#' escaped. */
static char *file_uri(const char *path, const char *query)
{
	char *u = xmalloc(3 * strlen(path) + strlen(query) + 8), *o = u;
	o += sprintf(o, "file:");
	for (const char *p = path; *p; p++)
		o += strchr("%?#", *p) ? sprintf(o, "%%%02X", (unsigned char)*p)
				       : sprintf(o, "%c", *p);
	sprintf(o, "?%s", query);
	return u;
}

/*
 * Reading opens the file read-only, and a store is kept in rollback-journal mode, where readers
 * only take locks: a reader creates no file, so a store on a read-only file system, or another
 * user's store in a shared (sticky) directory, can be read and its owner is never locked out by
 * a side file the reader made. A store still in WAL mode (written by an older plumb) that this
 * user cannot write is read as immutable: without locks, as the file is (see docs/results.md).
 * Writing needs the file and its directory writable, said in one line naming the store.
 */
struct store *store_sqlite_open(const char *path, int mode, char *err, size_t errlen)
{
	char shown[1024]; /* a path holding "password=..." is shown masked too */
	store_mask_uri(path, shown, sizeof shown);
	int exists = access(path, F_OK) == 0;
	if (!exists) {
		if (mode != STORE_CREATE) {
			snprintf(err, errlen, "%s: no results store here yet (plumb run or plumb import "
				 "creates it; --db FILE names another)", shown);
			return NULL;
		}
		if (!strcmp(path, store_default_path()))
			mkdirs(path);
	}
	const char *why = mode != STORE_READ && exists ? not_writable(path) : NULL;
	if (why) {
		snprintf(err, errlen, "%s: cannot write the results store: %s (reading it works; "
			 "--db FILE names a store to write)", shown, why);
		return NULL;
	}
	struct store *s = xcalloc(1, sizeof *s);
	s->ops = &lite_ops;
	s->name = xstrdup(shown);
	sqlite3 *db = NULL;
	int flags = mode == STORE_READ ? SQLITE_OPEN_READONLY
		  : SQLITE_OPEN_READWRITE | (mode == STORE_CREATE ? SQLITE_OPEN_CREATE : 0);
	char *uri = NULL;
	if (mode == STORE_READ && wal_header(path) && access(path, W_OK) != 0) {
		uri = file_uri(path, "immutable=1");
		flags |= SQLITE_OPEN_URI;
	}
	int rc = sqlite3_open_v2(uri ? uri : path, &db, flags, NULL);
	free(uri);
	s->conn = db;
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot open the results store: %s%s", shown,
			 db ? sqlite3_errmsg(db) : "out of memory",
			 mode == STORE_CREATE && !exists ? " (is its directory writable?)" : "");
		store_db_close(s);
		return NULL;
	}
	/* Several plumb processes may use the store at once: wait for each other, not fail. */
	sqlite3_busy_timeout(db, 60000);
	if (mode != STORE_READ) {
		if (sqlite3_db_readonly(db, "main") == 1) {
			snprintf(err, errlen, "%s: cannot write the results store: it opened read-only",
				 shown);
			store_db_close(s);
			return NULL;
		}
		/* a store in WAL mode leaves it: needs no other connection, else tried next time */
		sqlite3_exec(db, "PRAGMA journal_mode = DELETE", NULL, NULL, NULL);
		sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	}
	return s;
}

#else /* !HAVE_SQLITE */

int store_sqlite_built(void) { return 0; }

struct store *store_sqlite_open(const char *path, int mode, char *err, size_t errlen)
{
	(void)path, (void)mode;
	snprintf(err, errlen, STORE_NO_SQLITE_MSG);
	return NULL;
}
#endif
