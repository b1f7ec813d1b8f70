/*
 * store_db.h — private to src/results: the small interface the results store (store.c) speaks
 * to its two databases through, SQLite (store_sqlite.c) and PostgreSQL (store_pg.c), and the one
 * schema description both are made from (store_schema.c).
 *
 * store.c writes every statement once, with $1, $2, ... placeholders (both databases read them)
 * and portable SQL (INSERT ... ON CONFLICT, RETURNING). A backend only runs statements, moves
 * values in and out as dbval, and keeps the schema version where its database keeps such things.
 * Every value read back is checked by the typed getters below (db_int, db_real, db_text), so a
 * database edited by hand or by someone hostile is refused with a message, like a bad file.
 */
#ifndef PLUMB_STORE_DB_H
#define PLUMB_STORE_DB_H

#include <stddef.h>
#include <stdint.h>

/* DB_OTHER: a value of a type plumb never stores (a blob, an array): read as an error */
enum dbtype { DB_NULL, DB_INT, DB_REAL, DB_TEXT, DB_OTHER };

struct dbval {
	enum dbtype t;
	int64_t i;
	double d;
	const char *s; /* DB_TEXT: NUL-terminated; owned by the caller (params) or the rows */
	size_t n;      /* DB_TEXT read back: its length in bytes (an embedded NUL is an error) */
};

/* A whole result set, row-major: v[row * ncols + col]. */
struct dbrows {
	size_t nrows, ncols;
	struct dbval *v;
};
void dbrows_free(struct dbrows *r);

enum dialect { DIALECT_SQLITE, DIALECT_PG };

struct store;

struct store_ops {
	enum dialect dialect;
	const char *begin_write; /* a transaction that will write: serialised with other writers */
	const char *begin_read;  /* a transaction that sees one consistent snapshot */
	/* Run sql (one or more statements, no parameters). 0, or -1 with s->dberr set. */
	int (*exec)(struct store *s, const char *sql);
	/* Run one statement with np parameters; out (may be NULL) receives every row. */
	int (*query)(struct store *s, const char *sql, const struct dbval *p, int np,
		     struct dbrows *out);
	/* The schema version (0: empty database); -1 with err set when the database is not a
	 * plumb store. Called inside the migration transaction too. */
	int (*version)(struct store *s, int *ver, char *err, size_t errlen);
	int (*set_version)(struct store *s, int ver);
	/* Keep two plumbs from migrating at once (inside the begin_write transaction). */
	int (*lock_schema)(struct store *s);
	/* The database's own consistency checks. 0, or -1 with err set. */
	int (*check)(struct store *s, char *err, size_t errlen);
	void (*close)(struct store *s);
};

struct store {
	const struct store_ops *ops;
	void *conn;
	char *name;       /* the path, or the URI with its password masked: safe to print */
	char dberr[512];  /* the last database error, already masked */
	int retry;        /* the last error was a deadlock or serialization failure: try again */
};

/* The backends. NULL with err set (naming s->name, never a password). */
struct store *store_sqlite_open(const char *path, int mode, char *err, size_t errlen);
struct store *store_pg_open(const char *uri, int mode, char *err, size_t errlen);
int store_sqlite_built(void);
int store_pg_built(void);
/* Whether s[0..n) (with a NUL after it) is valid UTF-8 without an embedded NUL. */
int db_utf8_valid(const char *s, size_t n);
/* Close a backend's store and free it (NULL: nothing); store_close() is this for callers. */
void store_db_close(struct store *s);
/* The end of a transaction begun with BEGIN: COMMIT when rc is 0, else ROLLBACK with the
 * transaction's error (dberr, retry) kept. Returns rc, or the COMMIT's failure. */
int store_db_finish(struct store *s, int rc);

/* The schema: migration step v (version v -> v + 1) in a dialect, malloc'd; NULL past the end. */
char *schema_migration(int v, enum dialect d);
int schema_version_current(void);

/* Typed reads of a row's column: a wrong type, a number out of [lo, hi], a non-finite real, text
 * that is not UTF-8 or longer than DB_TEXT_MAX: *bad is set (and the value is 0 / NaN / NULL). */
#define DB_TEXT_MAX (1u << 20)
/* A result set larger than this is not one plumb wrote (a run has some 10^5 samples). */
#define DB_MAX_ROWS 50000000
int64_t db_int(const struct dbrows *r, size_t row, size_t col, int64_t lo, int64_t hi, int *bad);
double db_real(const struct dbrows *r, size_t row, size_t col, int *bad); /* NULL reads as NaN */
char *db_text(const struct dbrows *r, size_t row, size_t col, int *bad); /* NULL stays NULL */

/* Inside the migration to schema 3: give every run without a uid its content hash. */
int store_backfill_uids(struct store *s, char *err, size_t errlen);

#endif
