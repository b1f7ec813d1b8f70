/*
 * store_pg.c — the results store in a PostgreSQL database, through libpq (store_db.h's backend
 * interface). Named by a libpq URI, postgresql://[user[:password]@]host[:port]/dbname[?...].
 *
 * Many writers at once: each saves in its own transaction; the unique runs.uid and INSERT ... ON
 * CONFLICT DO NOTHING make two copies of one run meet as one; a migration holds an advisory lock
 * so two plumbs never migrate together. A connection lost mid-save (kill -9, network) is rolled
 * back by the server: a run is stored whole or not at all.
 *
 * The schema version lives in a table plumb_meta (name, value); a database with a runs table and
 * no plumb_meta belongs to someone else and is refused.
 *
 * Secrets: the store's name in every message is the URI with its password masked, libpq gets
 * the URI with an '@' in its password encoded (secret.h), and libpq's own messages go through
 * mask() too, which removes any piece of the password wherever it appears (also
 * percent-encoded, and PGPASSWORD's); notices from the server are not printed. Numbers come back as text and are
 * parsed strictly by store.c's typed getters; the client encoding is forced to UTF-8 and text is
 * checked to be UTF-8 anyway (a server may be SQL_ASCII).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "core/util.h"
#include "results/store.h"
#include "results/secret.h"
#include "results/store_db.h"

#ifdef HAVE_PGSQL
#include <libpq-fe.h>

/* 'plmb', the key of the advisory lock a migration holds */
#define PLUMB_LOCK_KEY "1886154082"

int store_pg_built(void) { return 1; }

struct pg {
	PGconn *conn;
	char *secret;     /* the password as libpq sees it, to mask in its messages */
	char *secret_raw; /* as written in the URI (maybe percent-encoded) */
};

static struct pg *pg_of(struct store *s) { return s->conn; }

/* msg with the store's passwords and PGPASSWORD (any substring of them) and every
 * password=VALUE replaced by "***", newlines by "; " (secret.h). */
static void mask(const struct pg *g, const char *msg, char *out, size_t outlen)
{
	const char *sec[] = { g ? g->secret : NULL, g ? g->secret_raw : NULL,
			      getenv("PGPASSWORD"), NULL };
	/* skip the NULLs: mask_secrets stops at the first */
	const char *list[4];
	int n = 0;
	for (int i = 0; i < 3; i++)
		if (sec[i] && *sec[i])
			list[n++] = sec[i];
	list[n] = NULL;
	mask_secrets(msg, list, out, outlen);
	size_t o = strlen(out);
	while (o && out[o - 1] == ' ')
		out[--o] = 0;
}

static int set_err(struct store *s, const char *msg)
{
	mask(pg_of(s), msg, s->dberr, sizeof s->dberr);
	return -1;
}

/* A failed statement: its message, and whether running the transaction again can succeed
 * (40P01 deadlock: two pushes taking the same runs in opposite orders; 40001 serialization;
 * 23505 a unique key taken: another push stored the same run between this one's look and its
 * insert, and the next attempt finds it there). */
static int res_err(struct store *s, PGresult *res)
{
	const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	s->retry = st && (!strcmp(st, "40P01") || !strcmp(st, "40001") || !strcmp(st, "23505"));
	return set_err(s, res ? PQresultErrorMessage(res) : PQerrorMessage(pg_of(s)->conn));
}

static int pg_exec(struct store *s, const char *sql)
{
	PGresult *res = PQexec(pg_of(s)->conn, sql);
	ExecStatusType st = PQresultStatus(res);
	int rc = st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? 0 : -1;
	if (rc)
		res_err(s, res);
	PQclear(res);
	return rc;
}

static int pg_query(struct store *s, const char *sql, const struct dbval *p, int np,
		    struct dbrows *out)
{
	if (out)
		memset(out, 0, sizeof *out);
	const char **vals = np ? xcalloc((size_t)np, sizeof *vals) : NULL;
	char *nums = np ? xmalloc((size_t)np * 32) : NULL;
	for (int i = 0; i < np; i++) {
		char *b = nums + (size_t)i * 32;
		switch (p[i].t) {
		case DB_INT: snprintf(b, 32, "%lld", (long long)p[i].i); vals[i] = b; break;
		case DB_REAL:
			if (isinf(p[i].d))
				snprintf(b, 32, "%sInfinity", p[i].d < 0 ? "-" : "");
			else
				snprintf(b, 32, "%.17g", p[i].d); /* exact: read back bit for bit */
			vals[i] = b;
			break;
		case DB_TEXT: vals[i] = p[i].s; break;
		default: vals[i] = NULL; break;
		}
	}
	PGresult *res = PQexecParams(pg_of(s)->conn, sql, np, NULL, vals, NULL, NULL, 0);
	free(vals);
	free(nums);
	ExecStatusType st = PQresultStatus(res);
	if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
		res_err(s, res);
		PQclear(res);
		return -1;
	}
	int rows = PQntuples(res), cols = PQnfields(res);
	if (rows < 0 || rows > DB_MAX_ROWS || cols < 0 || cols > 64) {
		snprintf(s->dberr, sizeof s->dberr, "the server sent %d rows of %d columns: too many",
			 rows, cols);
		PQclear(res);
		return -1;
	}
	if (out && rows > 0) {
		out->nrows = (size_t)rows;
		out->ncols = (size_t)cols;
		out->v = xcalloc((size_t)rows * (size_t)cols, sizeof *out->v);
		for (int r = 0; r < rows; r++)
			for (int c = 0; c < cols; c++) {
				struct dbval *v = &out->v[(size_t)r * (size_t)cols + (size_t)c];
				if (PQgetisnull(res, r, c)) {
					v->t = DB_NULL;
				} else if (PQfformat(res, c) != 0) {
					v->t = DB_OTHER; /* binary: never asked for */
				} else {
					size_t n = (size_t)PQgetlength(res, r, c);
					char *t = xmalloc(n + 1);
					memcpy(t, PQgetvalue(res, r, c), n);
					t[n] = 0;
					v->t = DB_TEXT;
					v->s = t;
					v->n = n;
				}
			}
	} else if (out) {
		out->ncols = (size_t)cols;
	}
	PQclear(res);
	return 0;
}

static int pg_version(struct store *s, int *ver, char *err, size_t errlen)
{
	struct dbrows r;
	*ver = 0;
	if (pg_query(s, "SELECT to_regclass('plumb_meta') IS NOT NULL, "
		     "to_regclass('runs') IS NOT NULL", NULL, 0, &r)) {
		snprintf(err, errlen, "%s: cannot read the store: %s", s->name, s->dberr);
		return -1;
	}
	int meta = r.nrows && r.v[0].t == DB_TEXT && !strcmp(r.v[0].s, "t");
	int runs = r.nrows && r.v[1].t == DB_TEXT && !strcmp(r.v[1].s, "t");
	dbrows_free(&r);
	if (!meta) {
		if (runs) {
			snprintf(err, errlen, "%s: not a plumb results store (a table runs that is "
				 "not plumb's)", s->name);
			return -1;
		}
		return 0;
	}
	if (pg_query(s, "SELECT value FROM plumb_meta WHERE name = 'schema_version'", NULL, 0, &r)) {
		snprintf(err, errlen, "%s: cannot read the store: %s", s->name, s->dberr);
		return -1;
	}
	int bad = 0;
	*ver = r.nrows ? (int)db_int(&r, 0, 0, 0, 1000000, &bad) : 0;
	dbrows_free(&r);
	if (bad) {
		snprintf(err, errlen, "%s: not a plumb results store (bad schema version)", s->name);
		return -1;
	}
	return 0;
}

static int pg_set_version(struct store *s, int ver)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "CREATE TABLE IF NOT EXISTS plumb_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
		 "INSERT INTO plumb_meta (name, value) VALUES ('schema_version', '%d') "
		 "ON CONFLICT (name) DO UPDATE SET value = excluded.value", ver);
	return pg_exec(s, sql);
}

static int pg_lock_schema(struct store *s)
{
	return pg_exec(s, "SELECT pg_advisory_xact_lock(" PLUMB_LOCK_KEY ")");
}

/* PostgreSQL enforces the foreign keys itself; say so by counting what would break them. */
static int pg_check(struct store *s, char *err, size_t errlen)
{
	struct dbrows r;
	if (pg_query(s, "SELECT (SELECT count(*) FROM results x WHERE NOT EXISTS "
		     "(SELECT 1 FROM runs u WHERE u.id = x.run_id)) + (SELECT count(*) FROM samples x "
		     "WHERE NOT EXISTS (SELECT 1 FROM results u WHERE u.id = x.result_id))",
		     NULL, 0, &r)) {
		snprintf(err, errlen, "%s: cannot check the store: %s", s->name, s->dberr);
		return -1;
	}
	int bad = 0;
	int64_t n = r.nrows ? db_int(&r, 0, 0, 0, INT64_MAX, &bad) : 0;
	dbrows_free(&r);
	if (n || bad) {
		snprintf(err, errlen, "%s: rows refer to missing runs or results", s->name);
		return -1;
	}
	return 0;
}

static void pg_close(struct store *s)
{
	struct pg *g = pg_of(s);
	if (!g)
		return;
	if (g->conn)
		PQfinish(g->conn);
	free(g->secret);
	free(g->secret_raw);
	free(g);
}

static const struct store_ops pg_ops = {
	.dialect = DIALECT_PG,
	/* one writer at a time, as SQLite's BEGIN IMMEDIATE: two pushes of the same runs in
	 * opposite orders took the runs' unique keys in opposite orders and deadlocked (PostgreSQL
	 * aborts one after deadlock_timeout; with 8 at once some failed all 10 attempts). A push
	 * holds the lock for its one transaction, a fraction of a second. */
	.begin_write = "BEGIN; SELECT pg_advisory_xact_lock(482731465613)",
	.begin_read = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
	.exec = pg_exec,
	.query = pg_query,
	.version = pg_version,
	.set_version = pg_set_version,
	.lock_schema = pg_lock_schema,
	.check = pg_check,
	.close = pg_close,
};

static void quiet_notice(void *arg, const char *msg) { (void)arg, (void)msg; }

struct store *store_pg_open(const char *given, int mode, char *err, size_t errlen)
{
	(void)mode;
	char name[1024];
	struct pg *g = xcalloc(1, sizeof *g);
	g->secret_raw = uri_password(given);
	mask(g, given, name, sizeof name);
	if (uri_two_passwords(given)) {
		snprintf(err, errlen, "%s: the URI gives two passwords (user:PASSWORD@ and "
			 "?password=): give one", name);
		free(g->secret_raw);
		free(g);
		return NULL;
	}
	/* libpq reads the user part as plumb does: an '@' in the password encoded */
	char *uri = uri_for_libpq(given);
	char *perr = NULL;
	PQconninfoOption *opts = PQconninfoParse(uri, &perr);
	if (!opts) {
		char m[512];
		mask(g, perr ? perr : "out of memory", m, sizeof m);
		snprintf(err, errlen, "%s: not a valid PostgreSQL URI: %s", name, m);
		PQfreemem(perr);
		free(g->secret_raw);
		free(g);
		free(uri);
		return NULL;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		if (!strcmp(o->keyword, "password") && o->val && *o->val)
			g->secret = xstrdup(o->val);
	PQconninfoFree(opts);
	/* the password may also be written elsewhere in the URI (as the user name, say) */
	mask(g, given, name, sizeof name);
	struct store *s = xcalloc(1, sizeof *s);
	s->ops = &pg_ops;
	s->conn = g;
	s->name = xstrdup(name);
	/* the URI first so that what follows cannot be overridden: plumb speaks UTF-8 */
	const char *keys[] = { "connect_timeout", "application_name", "dbname", "client_encoding",
			       NULL };
	const char *vals[] = { "30", "plumb", uri, "UTF8", NULL };
	g->conn = PQconnectdbParams(keys, vals, 1);
	free(uri);
	if (!g->conn || PQstatus(g->conn) != CONNECTION_OK) {
		char m[512];
		mask(g, g->conn ? PQerrorMessage(g->conn) : "out of memory", m, sizeof m);
		snprintf(err, errlen, "%s: cannot connect: %s", name, m);
		store_db_close(s);
		return NULL;
	}
	PQsetNoticeProcessor(g->conn, quiet_notice, NULL);
	/* every double bit for bit (the default on PostgreSQL >= 12, needed before) */
	if (pg_exec(s, "SET extra_float_digits = 3; SET client_min_messages = warning")) {
		snprintf(err, errlen, "%s: cannot set up the session: %s", name, s->dberr);
		store_db_close(s);
		return NULL;
	}
	return s;
}

#else /* !HAVE_PGSQL */

int store_pg_built(void) { return 0; }

struct store *store_pg_open(const char *uri, int create, char *err, size_t errlen)
{
	(void)create;
	char name[1024], masked[1024];
	/* masked again as libpq's messages are: the password may also stand elsewhere (as the
	 * user's name, say) */
	char *pw = uri_password(uri);
	const char *secrets[] = { pw, NULL };
	mask_secrets(store_mask_uri(uri, name, sizeof name), secrets, masked, sizeof masked);
	free(pw);
	snprintf(err, errlen, "%s: " STORE_NO_PGSQL_MSG, masked);
	return NULL;
}
#endif
