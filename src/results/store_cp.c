/*
 * store_cp.c — the store's change points (schema step 5 -> 6, docs/store-schema.md): the rows
 * `plumb annotate` finds, written over the ones it found before in one transaction, so the
 * `annotations` view a Grafana panel reads always shows one complete search. Speaks to the
 * databases through store_db.h only; store.c and the backends never call it.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "results/store.h"
#include "results/store_db.h"

static struct dbval t_(const char *s)
{
	return (struct dbval){ .t = s ? DB_TEXT : DB_NULL, .s = s };
}

static struct dbval r_(double d)
{
	return (struct dbval){ .t = isfinite(d) ? DB_REAL : DB_NULL, .d = d };
}

static const char insert_sql[] =
	"INSERT INTO change_points (host, metric, params, x, unit, label_from, label_to, time_from,"
	" time_to, change_pct, lo, hi, p, direction, text, tags)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";

/* One attempt: the old rows out, the new ones in, one transaction. */
static int put_once(struct store *s, const struct change_point *c, size_t n)
{
	s->retry = 0;
	if (s->ops->exec(s, s->ops->begin_write))
		return -1;
	int rc = s->ops->exec(s, "DELETE FROM change_points");
	for (size_t i = 0; i < n && !rc; i++) {
		const struct change_point *k = &c[i];
		struct dbval p[16] = { t_(k->host), t_(k->metric), t_(k->params ? k->params : ""),
				       r_(k->x), t_(k->unit), t_(k->label_from), t_(k->label_to),
				       t_(k->time_from), t_(k->time_to), r_(k->change_pct), r_(k->lo),
				       r_(k->hi), r_(k->p), t_(k->direction), t_(k->text),
				       t_(k->tags) };
		rc = s->ops->query(s, insert_sql, p, 16, NULL);
	}
	rc = store_db_finish(s, rc);
	return rc;
}

int store_put_change_points(struct store *s, const struct change_point *c, size_t n, char *err,
			    size_t errlen)
{
	for (int attempt = 0;; attempt++) {
		if (put_once(s, c, n) == 0)
			return 0;
		if (!s->retry || attempt == 9) {
			snprintf(err, errlen, "%s: cannot write the change points: %s", s->name,
				 s->dberr);
			return -1;
		}
		struct timespec ts = { 0, (long)(1 + attempt) * 20000000L };
		nanosleep(&ts, NULL);
	}
}
