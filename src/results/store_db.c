/*
 * store_db.c — what the two backends (store_sqlite.c, store_pg.c) share below the store itself
 * (store.c): the default path, rows freed and read (the typed getters), a store closed. The backends call this file and
 * store.c calls them; neither backend calls store.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results/store.h"
#include "results/store_db.h"
#include "core/util.h"

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

void dbrows_free(struct dbrows *r)
{
	for (size_t i = 0; i < r->nrows * r->ncols; i++)
		if (r->v[i].t == DB_TEXT)
			free((char *)r->v[i].s);
	free(r->v);
	memset(r, 0, sizeof *r);
}

/* s holds n bytes and a NUL after them: valid UTF-8 without an embedded NUL (util.h's
 * utf8_seq stops at the NUL, so it never reads past). */
int db_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		size_t k = p[i] ? utf8_seq(p + i) : 0;
		if (!k)
			return 0;
		i += k;
	}
	return 1;
}

int64_t db_int(const struct dbrows *r, size_t row, size_t col, int64_t lo, int64_t hi, int *bad)
{
	const struct dbval *v = &r->v[row * r->ncols + col];
	int64_t x = 0;
	if (v->t == DB_INT) {
		x = v->i;
	} else if (v->t == DB_TEXT) {
		/* PostgreSQL sends numbers as text: all of it must be the number */
		char *end;
		errno = 0;
		long long t = strtoll(v->s, &end, 10);
		if (errno || end == v->s || *end || v->n != strlen(v->s)) {
			*bad = 1;
			return 0;
		}
		x = t;
	} else {
		*bad = 1;
		return 0;
	}
	if (x < lo || x > hi) {
		*bad = 1;
		return 0;
	}
	return x;
}

double db_real(const struct dbrows *r, size_t row, size_t col, int *bad)
{
	const struct dbval *v = &r->v[row * r->ncols + col];
	double d;
	if (v->t == DB_NULL)
		return NAN; /* NaN is stored as NULL */
	if (v->t == DB_REAL) {
		d = v->d;
	} else if (v->t == DB_INT) {
		d = (double)v->i;
	} else if (v->t == DB_TEXT) {
		char *end;
		errno = 0;
		d = strtod(v->s, &end);
		if (end == v->s || *end || v->n != strlen(v->s) || errno == ERANGE) {
			*bad = 1;
			return NAN;
		}
	} else {
		*bad = 1;
		return NAN;
	}
	if (!isfinite(d)) {
		*bad = 1;
		return NAN;
	}
	return d;
}

char *db_text(const struct dbrows *r, size_t row, size_t col, int *bad)
{
	const struct dbval *v = &r->v[row * r->ncols + col];
	if (v->t == DB_NULL)
		return NULL;
	if (v->t != DB_TEXT || v->n > DB_TEXT_MAX || !db_utf8_valid(v->s, v->n)) {
		*bad = 1;
		return NULL;
	}
	return xstrdup(v->s);
}

void store_db_close(struct store *s)
{
	if (!s)
		return;
	s->ops->close(s);
	free(s->name);
	free(s);
}

int store_db_finish(struct store *s, int rc)
{
	if (!rc)
		rc = s->ops->exec(s, "COMMIT");
	if (rc) {
		/* the transaction's own error, not the rollback's, is what the caller reports */
		int retry = s->retry;
		char keep[sizeof s->dberr];
		memcpy(keep, s->dberr, sizeof keep);
		s->ops->exec(s, "ROLLBACK");
		memcpy(s->dberr, keep, sizeof keep);
		s->retry = retry;
	}
	return rc;
}
