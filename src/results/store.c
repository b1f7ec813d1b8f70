/*
 * store.c — the results store: runs, their facts, their results and every sample, in an SQLite
 * file or a PostgreSQL database (schema and its history: docs/store-schema.md). Everything here is
 * written once for both: the statements use $N placeholders and portable SQL, and the backends
 * (store_sqlite.c, store_pg.c, behind store_db.h) only run them.
 *
 * Versioned: opening a store takes it from any older schema version to the current one inside
 * one transaction (store_schema.c holds the steps); a store newer than this plumb is refused.
 * Every write is one transaction, so a run is saved whole or not at all, and the duplicate rule
 * holds under concurrent writers: runs.uid is unique and a run is inserted with ON CONFLICT DO
 * NOTHING, so of two plumbs saving the same run one adds it and the other is told it is there.
 * Every value read back is type- and range-checked (db_int, db_real, db_text).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "core/util.h"
#include "results/formats.h"
#include "results/io.h"
#include "results/store.h"
#include "results/store_db.h"

int store_available(void)
{
	return store_sqlite_built() || store_pg_built();
}

const char *store_name(const struct store *s)
{
	return s->name;
}

/* ---- values in and out ---------------------------------------------------------------------- */

/* Text to store: valid UTF-8 as it is; from an odd file, each invalid byte as U+FFFD, so the
 * store only ever holds text both databases accept and read back (NULL: use s as it is). */
static char *utf8_clean(const char *s)
{
	size_t n = strlen(s);
	if (db_utf8_valid(s, n))
		return NULL;
	char *o = xmalloc(3 * n + 1), *q = o;
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = utf8_seq(p + i);
		if (k) {
			memcpy(q, p + i, k);
			q += k;
			i += k;
		} else {
			memcpy(q, UTF8_REPLACEMENT, 3);
			q += 3;
			i++;
		}
	}
	*q = 0;
	return o;
}

static struct dbval vint(int64_t i) { return (struct dbval){ .t = DB_INT, .i = i }; }
static struct dbval vtext(const char *s) { return (struct dbval){ .t = s ? DB_TEXT : DB_NULL, .s = s }; }
/* NaN is stored as NULL (SQLite does so itself; said here so the reader undoes it). */
static struct dbval vreal(double d) { return (struct dbval){ .t = isnan(d) ? DB_NULL : DB_REAL, .d = d }; }

static int q(struct store *s, const char *sql, const struct dbval *p, int np, struct dbrows *out)
{
	return s->ops->query(s, sql, p, np, out);
}

static int fail_db(struct store *s, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s: %s", s->name, what, s->dberr);
	return -1;
}

/* ---- open, migrate, close ------------------------------------------------------------------- */

static int migrate(struct store *s, int mode, char *err, size_t errlen)
{
	int ver = 0, cur = schema_version_current();
	if (s->ops->version(s, &ver, err, errlen))
		return -1;
	if (ver > cur) {
		snprintf(err, errlen, "%s: store schema %d is newer than this plumb knows (%d); "
			 "use a newer plumb", s->name, ver, cur);
		return -1;
	}
	if (ver == cur)
		return 0;
	if (ver == 0 && mode == STORE_READ && s->ops->dialect == DIALECT_SQLITE) {
		/* an empty file or another program's database: a reader never makes it a store */
		snprintf(err, errlen, "%s: not a plumb results store (an empty file or another "
			 "database); left as it is", s->name);
		return -1;
	}
	if (mode == STORE_READ && s->ops->dialect == DIALECT_SQLITE)
		return 1; /* opened read-only: store_open opens it again to write */
	if (ver == 0 && mode != STORE_CREATE && s->ops->dialect == DIALECT_PG) {
		snprintf(err, errlen, "%s: no plumb results store in this database yet (plumb push "
			 "--to URI or plumb run --db URI creates it)", s->name);
		return -1;
	}
	if (s->ops->exec(s, s->ops->begin_write))
		return fail_db(s, err, errlen, "migration failed");
	if (s->ops->lock_schema(s))
		goto fail;
	/* another plumb may have migrated while we waited for the lock: read again */
	if (s->ops->version(s, &ver, err, errlen))
		goto fail_quiet;
	if (ver >= cur) { /* done by the other plumb (or a newer one: never step back) */
		s->ops->exec(s, "ROLLBACK");
		if (ver == cur)
			return 0;
		snprintf(err, errlen, "%s: store schema %d is newer than this plumb knows (%d); "
			 "use a newer plumb", s->name, ver, cur);
		return -1;
	}
	int from = ver;
	for (int v = ver; v < cur; v++) {
		char *sql = schema_migration(v, s->ops->dialect);
		int rc = s->ops->exec(s, sql);
		free(sql);
		if (rc)
			goto fail;
	}
	if (from > 0 && from < 3 && store_backfill_uids(s, err, errlen))
		goto fail_quiet;
	if (s->ops->set_version(s, cur) || s->ops->exec(s, "COMMIT"))
		goto fail;
	return 0;
fail:
	fail_db(s, err, errlen, "migration failed");
fail_quiet:
	s->ops->exec(s, "ROLLBACK");
	return -1;
}

/* 1 when s reads as a libpq keyword/value connection string (host=... password=...): not a
 * file name to create (it would put the password in one), and not a form plumb takes. */
static int conninfo_words(const char *s)
{
	static const char *const keys[] = { "host", "hostaddr", "port", "dbname", "user",
					    "password", "sslmode", NULL };
	for (const char *p = s; *p; p++) {
		if (p != s && p[-1] != ' ' && p[-1] != '\t')
			continue;
		for (int k = 0; keys[k]; k++) {
			size_t n = strlen(keys[k]);
			const char *e = p + n;
			while (*e == ' ')
				e++;
			if (!strncmp(p, keys[k], n) && *e == '=' &&
			    (p != s || strchr(s, ' ') || !strcmp(keys[k], "password")))
				return 1;
		}
	}
	return 0;
}

struct store *store_open(const char *path, int mode, char *err, size_t errlen)
{
	if (!path)
		path = store_default_path();
	if (!store_is_uri(path) && conninfo_words(path)) {
		char shown[1024];
		snprintf(err, errlen, "%s: a PostgreSQL connection string in keyword=value form; "
			 "plumb takes a URI (postgresql://USER:PASSWORD@HOST/DB) or a file name",
			 store_mask_uri(path, shown, sizeof shown));
		return NULL;
	}
	struct store *s = store_is_uri(path) ? store_pg_open(path, mode, err, errlen)
					     : store_sqlite_open(path, mode, err, errlen);
	int rc = s ? migrate(s, mode, err, errlen) : 0;
	if (rc == 1) {
		/* a reader found an older schema: upgrading it is a write (an empty file is refused) */
		store_close(s);
		s = store_sqlite_open(path, STORE_WRITE, err, errlen);
		if (!s) {
			size_t l = strlen(err);
			snprintf(err + l, errlen - l, "; the store needs its schema upgraded once by "
				 "someone who may write it (plumb runs --check --db FILE as its owner)");
			return NULL;
		}
		rc = migrate(s, STORE_WRITE, err, errlen);
	}
	if (s && rc) {
		store_close(s);
		return NULL;
	}
	return s;
}

void store_close(struct store *s)
{
	store_db_close(s);
}

/* ---- save ----------------------------------------------------------------------------------- */

static struct dbval vclean(const char *t, char **keep)
{
	*keep = t ? utf8_clean(t) : NULL;
	return vtext(*keep ? *keep : t);
}

#define SAMPLE_COLS 7
#define SIDE_TEXT 1024 /* a sample's side metrics as text (side_encode) */
#define SAMPLES_PER_INSERT 100

/* Every sample of one result, SAMPLES_PER_INSERT to a statement (one round trip each). */
static int save_samples(struct store *s, int64_t rid, const struct result *p)
{
	static char *sql[SAMPLES_PER_INSERT + 1]; /* sql[k]: the statement for k rows, made once */
	static char side[SAMPLES_PER_INSERT][SIDE_TEXT];
	struct dbval v[SAMPLES_PER_INSERT * SAMPLE_COLS];
	for (size_t at = 0; at < p->nsamples;) {
		size_t k = p->nsamples - at < SAMPLES_PER_INSERT ? p->nsamples - at : SAMPLES_PER_INSERT;
		if (!sql[k]) {
			size_t cap = 128 + k * 56, n;
			sql[k] = xmalloc(cap);
			n = (size_t)snprintf(sql[k], cap, "INSERT INTO samples (result_id, seq, value, "
					     "iters, elapsed_ns, round, side) VALUES ");
			for (size_t i = 0; i < k; i++) {
				int b = (int)(i * SAMPLE_COLS);
				n += (size_t)snprintf(sql[k] + n, cap - n,
						      "%s($%d, $%d, $%d, $%d, $%d, $%d, $%d)", i ? ", " : "",
						      b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7);
			}
		}
		for (size_t i = 0; i < k; i++) {
			const struct sample *sm = &p->samples[at + i];
			struct dbval *row = v + i * SAMPLE_COLS;
			row[0] = vint(rid);
			row[1] = vint((int64_t)(at + i));
			row[2] = vreal(sm->value);
			row[3] = vint((int64_t)sm->iters); /* uint64 as its int64 bit pattern */
			row[4] = vreal(sm->elapsed_ns);
			row[5] = vint(sm->round);
			side_encode(sample_side(sm), side[i], sizeof side[i]);
			row[6] = side[i][0] ? vtext(side[i]) : (struct dbval){ .t = DB_NULL };
		}
		if (q(s, sql[k], v, (int)(k * SAMPLE_COLS), NULL))
			return -1;
		at += k;
	}
	return 0;
}

/* The id of the stored run with this uid, 0 when there is none, -1 on a database error. */
static int64_t id_of_uid(struct store *s, const char *uid)
{
	struct dbrows rows;
	struct dbval u = vtext(uid);
	int bad = 0;
	if (q(s, "SELECT id FROM runs WHERE uid = $1", &u, 1, &rows))
		return -1;
	int64_t id = rows.nrows ? db_int(&rows, 0, 0, 1, LONG_MAX, &bad) : 0;
	dbrows_free(&rows);
	if (bad) {
		snprintf(s->dberr, sizeof s->dberr, "a bad id for run %s", uid);
		return -1;
	}
	return id;
}

/* Adds r's row to runs: its new id; or 0 when the run is held already (r->id and r->dup set);
 * -1 on an error (s->dberr says which). */
static int64_t add_run_row(struct store *s, struct run *r)
{
	struct dbrows rows;
	char *c[8] = { 0 };
	int bad = 0;
	/* Held already: nothing to add (looked up first so a duplicate does not use up an id). */
	int64_t id = id_of_uid(s, r->uid);
	if (id < 0)
		return -1;
	if (id > 0) {
		r->id = (long)id;
		r->dup = 1;
		return 0;
	}
	struct dbval run[] = {
		vtext(r->uid), vclean(r->label, &c[0]), vclean(r->host, &c[1]),
		vclean(r->profile, &c[2]), vclean(r->source, &c[3]), vclean(r->started, &c[4]),
		vclean(r->ended, &c[5]), vint(r->incomplete != 0),
		vint(r->rounds > 0 ? r->rounds : 1),
	};
	int rc = q(s, "INSERT INTO runs (uid, label, host, profile, source, started, ended, "
		   "incomplete, rounds) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
		   "ON CONFLICT (uid) DO NOTHING RETURNING id", run, 9, &rows);
	for (int i = 0; i < 8; i++)
		free(c[i]);
	if (rc)
		return -1;
	id = rows.nrows ? db_int(&rows, 0, 0, 1, LONG_MAX, &bad) : 0;
	dbrows_free(&rows);
	if (bad) {
		snprintf(s->dberr, sizeof s->dberr, "a bad id for a new run");
		return -1;
	}
	if (id == 0) {
		/* another writer stored the same run since we looked (PostgreSQL: it waited
		 * for that writer's commit) */
		if ((id = id_of_uid(s, r->uid)) <= 0) {
			if (id == 0)
				snprintf(s->dberr, sizeof s->dberr, "run %s: neither added nor found",
					 r->uid);
			return -1;
		}
		r->id = (long)id;
		r->dup = 1;
		return 0;
	}
	return id;
}

/* The run's facts, in their order, under its new id. */
static int save_facts(struct store *s, int64_t id, const struct run *r)
{
	char *c[2];
	for (size_t i = 0; i < r->facts.n; i++) {
		struct dbval f[] = { vint(id), vclean(r->facts.v[i].key, &c[0]),
				     vclean(r->facts.v[i].val ? r->facts.v[i].val : "", &c[1]),
				     vint((int64_t)i) };
		int rc = q(s, "INSERT INTO facts (run_id, key, value, seq) VALUES ($1, $2, $3, $4) "
			   "ON CONFLICT (run_id, key) DO UPDATE SET value = excluded.value", f, 4, NULL);
		free(c[0]);
		free(c[1]);
		if (rc)
			return -1;
	}
	return 0;
}

/* The run's results, each with its samples, under its new id. */
static int save_results(struct store *s, int64_t id, const struct run *r)
{
	struct dbrows rows;
	char *c[4];
	int bad = 0;
	for (size_t i = 0; i < r->results.n; i++) {
		const struct result *p = &r->results.v[i];
		struct dbval v[] = { vint(id), vint((int64_t)i), vclean(p->metric, &c[0]),
				     vclean(p->params ? p->params : "", &c[1]), vreal(p->x),
				     vreal(p->value), vclean(p->unit, &c[2]), vint(p->version),
				     vclean(p->info, &c[3]) };
		int rc = q(s, "INSERT INTO results (run_id, seq, metric, params, x, value, unit, "
			   "method_version, info) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
			   "RETURNING id", v, 9, &rows);
		for (int k = 0; k < 4; k++)
			free(c[k]);
		if (rc)
			return -1;
		int64_t rid = rows.nrows ? db_int(&rows, 0, 0, 1, LONG_MAX, &bad) : 0;
		dbrows_free(&rows);
		if (!rid) {
			snprintf(s->dberr, sizeof s->dberr, "no id for a new result");
			return -1;
		}
		if (save_samples(s, rid, p))
			return -1;
	}
	return 0;
}

static int save_one(struct store *s, struct run *r)
{
	if (!r->uid)
		run_set_content_uid(r);
	int64_t id = add_run_row(s, r);
	if (id <= 0)
		return (int)id;
	if (save_facts(s, id, r) || save_results(s, id, r))
		return -1;
	r->id = (long)id;
	r->dup = 0;
	return 0;
}

/* One attempt: every run in one transaction. */
static int save_all_once(struct store *s, struct run *const *runs, size_t n)
{
	s->retry = 0;
	if (s->ops->exec(s, s->ops->begin_write))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++)
		rc = save_one(s, runs[i]);
	rc = store_db_finish(s, rc);
	if (rc) {
		for (size_t i = 0; i < n; i++)
			runs[i]->id = 0, runs[i]->dup = 0;
	}
	return rc;
}

int store_save_all(struct store *s, struct run *const *runs, size_t n, char *err, size_t errlen)
{
	/* what no reader would show is not stored: one check, the readers' own */
	for (size_t i = 0; i < n; i++) {
		char why[256], what[96];
		if (run_check(runs[i], why, sizeof why)) {
			snprintf(err, errlen, "%s: %s: %s; nothing saved", s->name,
				 run_what(runs[i], what, sizeof what), why);
			return -1;
		}
	}
	/* A deadlock between two writers saving the same runs in another order costs one of them
	 * its transaction; the next attempt finds what the other stored. */
	for (int attempt = 0;; attempt++) {
		if (save_all_once(s, runs, n) == 0)
			return 0;
		if (!s->retry || attempt == 9)
			return fail_db(s, err, errlen, "cannot save the run");
		struct timespec ts = { 0, (long)(1 + attempt) * 20000000L };
		nanosleep(&ts, NULL);
	}
}

int store_save(struct store *s, struct run *r, char *err, size_t errlen)
{
	return store_save_all(s, &r, 1, err, errlen);
}
