/*
 * store_read.c — reading and managing stored runs, for either database (store_db.h): load one run
 * whole, list runs (with filters), find a label, delete, relabel, check (runs_resolve.c turns
 * a RUN argument into runs, through these).
 *
 * A run is read inside one read transaction, so a concurrent delete cannot leave half a run, and
 * every value is checked on the way in: a store edited by hand or by someone hostile gives a
 * one-line error naming the run, never a wrong number or a crash.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/util.h"
#include "results/formats.h"
#include "results/io.h"
#include "results/run_ident.h"
#include "results/store.h"
#include "results/store_db.h"

#define MAX_ROUNDS 1000000
#define MAX_VERSION 1000000
#define MAX_RESULTS 10000000

static struct dbval vint(int64_t i) { return (struct dbval){ .t = DB_INT, .i = i }; }
static struct dbval vtext(const char *s) { return (struct dbval){ .t = s ? DB_TEXT : DB_NULL, .s = s }; }

static int fail_db(struct store *s, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s: %s", s->name, what, s->dberr);
	return -1;
}

static int hostile(struct store *s, char *err, size_t errlen, const char *table, long id)
{
	snprintf(err, errlen, "%s: run %ld: damaged: a value in %s has the wrong type, is out of "
		 "range or is not UTF-8 text", s->name, id, table);
	return -1;
}

/* A text column cut in SQL one character past the longest value read (DB_TEXT_MAX bytes), so a
 * huge value is refused by db_text() without being fetched whole from the server. */
#define TXT(c) "substr(" c ", 1, 1048577)"
_Static_assert(DB_TEXT_MAX + 1 == 1048577, "TXT() cuts one character past DB_TEXT_MAX");
#define RUN_COLS "id, " TXT("label") ", " TXT("host") ", " TXT("profile") ", " TXT("source") \
	", " TXT("started") ", " TXT("ended") ", incomplete, rounds, " TXT("uid")

/* A runs row (RUN_COLS); NULL with why set when a value is bad. */
static struct run *run_from_row(const struct dbrows *rows, size_t i, char *why, size_t len)
{
	int bad = 0;
	struct run *r = run_new();
	r->id = (long)db_int(rows, i, 0, 1, LONG_MAX, &bad);
	r->label = db_text(rows, i, 1, &bad);
	r->host = db_text(rows, i, 2, &bad);
	r->profile = db_text(rows, i, 3, &bad);
	r->source = db_text(rows, i, 4, &bad);
	r->started = db_text(rows, i, 5, &bad);
	r->ended = db_text(rows, i, 6, &bad);
	r->incomplete = (int)db_int(rows, i, 7, 0, 1, &bad);
	r->rounds = (int)db_int(rows, i, 8, 1, MAX_ROUNDS, &bad);
	r->uid = db_text(rows, i, 9, &bad);
	if (r->uid && !uid_valid(r->uid))
		bad = 1;
	if (bad)
		snprintf(why, len, "damaged: a value in runs has the wrong type, is out of range or "
			 "is not UTF-8 text");
	if (bad || run_check(r, why, len)) {
		run_free(r);
		return NULL;
	}
	return r;
}

/* A bad run's id and uid as the row has them, for the message that names it. */
static const char *row_what(const struct dbrows *rows, size_t i, char *buf, size_t len)
{
	int bad = 0;
	struct run *r = run_new();
	r->id = (long)db_int(rows, i, 0, INT64_MIN, INT64_MAX, &bad);
	bad = 0;
	r->uid = db_text(rows, i, 9, &bad);
	if (r->uid && !uid_valid(r->uid)) {
		free(r->uid);
		r->uid = NULL;
	}
	run_what(r, buf, len);
	run_free(r);
	return buf;
}

static int load_facts(struct store *s, struct run *r, char *err, size_t errlen)
{
	struct dbrows rows;
	struct dbval id = vint(r->id);
	const char *sql = s->ops->dialect == DIALECT_PG
		? "SELECT " TXT("key") ", " TXT("value") " FROM facts WHERE run_id = $1 ORDER BY seq, key"
		: "SELECT " TXT("key") ", " TXT("value") " FROM facts WHERE run_id = $1 ORDER BY seq, rowid";
	if (s->ops->query(s, sql, &id, 1, &rows))
		return fail_db(s, err, errlen, "cannot read the store");
	int bad = 0;
	for (size_t i = 0; i < rows.nrows && !bad; i++) {
		char *k = db_text(&rows, i, 0, &bad), *v = db_text(&rows, i, 1, &bad);
		if (k && v)
			kv_set(&r->facts, k, v);
		else
			bad = 1;
		free(k);
		free(v);
	}
	dbrows_free(&rows);
	return bad ? hostile(s, err, errlen, "facts", r->id) : 0;
}

static int load_results(struct store *s, struct run *r, char *err, size_t errlen)
{
	struct dbrows rows;
	struct dbval id = vint(r->id);
	if (s->ops->query(s, "SELECT seq, " TXT("metric") ", " TXT("params") ", x, value, "
			  TXT("unit") ", method_version, " TXT("info") " FROM results "
			  "WHERE run_id = $1 ORDER BY seq", &id, 1, &rows))
		return fail_db(s, err, errlen, "cannot read the store");
	int bad = rows.nrows > MAX_RESULTS;
	for (size_t i = 0; i < rows.nrows && !bad; i++) {
		/* seq numbers the results 0, 1, ...: the samples below find theirs by it */
		bad |= db_int(&rows, i, 0, 0, MAX_RESULTS, &bad) != (int64_t)i;
		char *m = db_text(&rows, i, 1, &bad), *p = db_text(&rows, i, 2, &bad);
		if (!m || !p)
			bad = 1;
		struct result *res = result_list_add(&r->results, m ? m : "", p ? p : "",
						     db_real(&rows, i, 3, &bad));
		free(m);
		free(p);
		res->value = db_real(&rows, i, 4, &bad);
		res->unit = db_text(&rows, i, 5, &bad);
		res->version = (int)db_int(&rows, i, 6, 0, MAX_VERSION, &bad);
		res->info = db_text(&rows, i, 7, &bad);
	}
	dbrows_free(&rows);
	if (bad)
		return hostile(s, err, errlen, "results", r->id);
	if (s->ops->query(s, "SELECT r.seq, s.value, s.iters, s.elapsed_ns, s.round, s.side "
			  "FROM samples s JOIN results r ON s.result_id = r.id "
			  "WHERE r.run_id = $1 ORDER BY r.seq, s.seq", &id, 1, &rows))
		return fail_db(s, err, errlen, "cannot read the store");
	for (size_t i = 0; i < rows.nrows && !bad; i++) {
		int64_t seq = db_int(&rows, i, 0, 0, (int64_t)r->results.n - 1, &bad);
		struct sample sm = { .value = db_real(&rows, i, 1, &bad),
				     .iters = (uint64_t)db_int(&rows, i, 2, INT64_MIN, INT64_MAX, &bad),
				     .elapsed_ns = db_real(&rows, i, 3, &bad),
				     .round = (int)db_int(&rows, i, 4, 0, MAX_ROUNDS, &bad) };
		char *side = db_text(&rows, i, 5, &bad);
		struct side_sample sd;
		if (side && side_decode(side, &sd) != 0)
			bad = 1;
		else if (side)
			sm.side = &sd; /* copied by result_add_sample */
		free(side);
		if (!bad)
			result_add_sample(&r->results.v[seq], sm);
	}
	dbrows_free(&rows);
	return bad ? hostile(s, err, errlen, "samples", r->id) : 0;
}

struct run *store_load(struct store *s, long id, char *err, size_t errlen)
{
	struct run *r = NULL;
	struct dbrows rows;
	struct dbval v = vint(id);
	/* one read transaction: a concurrent delete cannot leave us half a run */
	if (s->ops->exec(s, s->ops->begin_read)) {
		fail_db(s, err, errlen, "cannot read the store");
		return NULL;
	}
	if (s->ops->query(s, "SELECT " RUN_COLS " FROM runs WHERE id = $1", &v, 1, &rows)) {
		fail_db(s, err, errlen, "cannot read the store");
		goto out;
	}
	char why[256], what[96];
	if (rows.nrows == 0) {
		snprintf(err, errlen, "%s: no run %ld", s->name, id);
	} else if (!(r = run_from_row(&rows, 0, why, sizeof why))) {
		snprintf(err, errlen, "%s: %s: %s", s->name, row_what(&rows, 0, what, sizeof what), why);
	} else if (load_facts(s, r, err, errlen) || load_results(s, r, err, errlen)) {
		run_free(r);
		r = NULL;
	} else if (run_check(r, why, sizeof why)) {
		snprintf(err, errlen, "%s: %s: %s", s->name, run_what(r, what, sizeof what), why);
		run_free(r);
		r = NULL;
	} else if (!r->uid) {
		run_set_content_uid(r); /* a copy of an equal run, left without by migration 3 */
	}
	dbrows_free(&rows);
out:
	s->ops->exec(s, "COMMIT");
	return r;
}

int store_find_label(struct store *s, const char *label, long **ids)
{
	struct dbrows rows;
	struct dbval v = vtext(label);
	*ids = NULL;
	if (s->ops->query(s, "SELECT id FROM runs WHERE label = $1 ORDER BY id", &v, 1, &rows))
		return 0;
	int n = 0, bad = 0;
	for (size_t i = 0; i < rows.nrows; i++) {
		long id = (long)db_int(&rows, i, 0, 1, LONG_MAX, &bad);
		if (bad)
			break;
		*ids = xrealloc(*ids, (size_t)(n + 1) * sizeof **ids);
		(*ids)[n++] = id;
	}
	dbrows_free(&rows);
	return n;
}

struct counted {
	store_bad_fn fn;
	void *ctx;
	int *n;
};

static void count_bad(struct store *s, const char *what, const char *why, void *ctx)
{
	struct counted *c = ctx;
	c->fn(s, what, why, c->ctx);
	(*c->n)++;
}

/* The runs rows matching f; a row that is not a run plumb can show is handed to bad. */
static int list_where(struct store *s, const struct run_filter *f, struct run ***runs, char *err,
		      size_t errlen, store_bad_fn bad, void *ctx)
{
	struct dbrows rows;
	struct dbval p[3];
	char sql[512];
	int np = 0;
	size_t n = (size_t)snprintf(sql, sizeof sql, "SELECT " RUN_COLS " FROM runs WHERE 1 = 1");
	if (f && f->host) {
		p[np++] = vtext(f->host);
		n += (size_t)snprintf(sql + n, sizeof sql - n, " AND host = $%d", np);
	}
	if (f && f->label) {
		p[np++] = vtext(f->label);
		n += (size_t)snprintf(sql + n, sizeof sql - n, " AND label = $%d", np);
	}
	if (f && f->since) {
		/* ISO 8601 UTC text orders as time does: a date is the midnight it begins */
		p[np++] = vtext(f->since);
		n += (size_t)snprintf(sql + n, sizeof sql - n, " AND started >= $%d", np);
	}
	snprintf(sql + n, sizeof sql - n, " ORDER BY id");
	*runs = NULL;
	if (s->ops->query(s, sql, p, np, &rows))
		return fail_db(s, err, errlen, "cannot list runs");
	int k = 0, facts = f && (f->facts || f->cc || f->cflags || f->arch);
	for (size_t i = 0; i < rows.nrows; i++) {
		char why[256], what[96];
		struct run *r = run_from_row(&rows, i, why, sizeof why);
		if (!r) {
			/* one bad row is that run's damage, not the store's: the others still list */
			bad(s, row_what(&rows, i, what, sizeof what), why, ctx);
			continue;
		}
		if (facts && load_facts(s, r, why, sizeof why)) {
			bad(s, run_what(r, what, sizeof what), why, ctx);
			run_free(r);
			continue;
		}
		if (facts && !run_filter_facts_match(f, r)) {
			run_free(r);
			continue;
		}
		*runs = xrealloc(*runs, (size_t)(k + 1) * sizeof **runs);
		(*runs)[k++] = r;
	}
	dbrows_free(&rows);
	return k;
}

static void warn_bad(struct store *s, const char *what, const char *why, void *ctx)
{
	warnx_("warning: %s: %s skipped: %s", s->name, what, why);
}

int store_list_where(struct store *s, const struct run_filter *f, struct run ***runs, char *err,
		     size_t errlen)
{
	return list_where(s, f, runs, err, errlen, warn_bad, NULL);
}

int store_list(struct store *s, struct run ***runs, char *err, size_t errlen)
{
	return store_list_where(s, NULL, runs, err, errlen);
}

int store_check_runs(struct store *s, store_bad_fn bad, void *ctx, char *err, size_t errlen)
{
	struct run **list = NULL;
	int nbad = 0;
	struct counted c = { bad, ctx, &nbad };
	int k = list_where(s, NULL, &list, err, errlen, count_bad, &c);
	if (k < 0)
		return -1;
	for (int i = 0; i < k; i++) {
		char why[512];
		struct run *r = store_load(s, list[i]->id, why, sizeof why);
		if (!r) {
			/* store_load's message is "STORE: run N ...: why": said here as the run, why */
			const char *p = why;
			size_t nl = strlen(s->name);
			if (!strncmp(p, s->name, nl) && !strncmp(p + nl, ": ", 2))
				p += nl + 2;
			if (!strncmp(p, "run ", 4) && strstr(p, ": "))
				p = strstr(p, ": ") + 2;
			char what[96];
			bad(s, run_what(list[i], what, sizeof what), p, ctx);
			nbad++;
		}
		run_free(r);
		run_free(list[i]);
	}
	free(list);
	return nbad;
}

static int change_run(struct store *s, const char *sql, long id, const char *label, char *err,
		      size_t errlen)
{
	struct dbrows rows;
	struct dbval p[2];
	int np = 0;
	if (label)
		p[np++] = vtext(label);
	p[np++] = vint(id);
	if (s->ops->exec(s, s->ops->begin_write))
		return fail_db(s, err, errlen, "cannot change the run");
	if (s->ops->query(s, sql, p, np, &rows)) {
		fail_db(s, err, errlen, "cannot change the run");
		s->ops->exec(s, "ROLLBACK");
		return -1;
	}
	size_t changed = rows.nrows;
	dbrows_free(&rows);
	if (changed == 0) {
		snprintf(err, errlen, "%s: no run %ld", s->name, id);
		s->ops->exec(s, "ROLLBACK");
		return -1;
	}
	if (s->ops->exec(s, "COMMIT"))
		return fail_db(s, err, errlen, "cannot change the run");
	return 0;
}

int store_delete(struct store *s, long id, char *err, size_t errlen)
{
	return change_run(s, "DELETE FROM runs WHERE id = $1 RETURNING id", id, NULL, err, errlen);
}

int store_relabel(struct store *s, long id, const char *label, char *err, size_t errlen)
{
	return change_run(s, "UPDATE runs SET label = $1 WHERE id = $2 RETURNING id", id, label, err,
			  errlen);
}

int store_check(struct store *s, char *err, size_t errlen)
{
	return s->ops->check(s, err, errlen);
}

/* Runs stored before schema 3 have no uid: give each the hash of its content (run_uid.c), inside
 * the migration's transaction. Two equal runs stored twice keep the first one's. */
int store_backfill_uids(struct store *s, char *err, size_t errlen)
{
	struct dbrows rows;
	if (s->ops->query(s, "SELECT id FROM runs WHERE uid IS NULL ORDER BY id", NULL, 0, &rows))
		return fail_db(s, err, errlen, "migration failed");
	int rc = 0, bad = 0;
	for (size_t i = 0; i < rows.nrows && !rc; i++) {
		long id = (long)db_int(&rows, i, 0, 1, LONG_MAX, &bad);
		if (bad)
			return dbrows_free(&rows), hostile(s, err, errlen, "runs", 0);
		struct dbrows one;
		struct dbval v = vint(id);
		if (s->ops->query(s, "SELECT " RUN_COLS " FROM runs WHERE id = $1", &v, 1, &one)) {
			rc = fail_db(s, err, errlen, "migration failed");
		} else {
			char why[256];
			struct run *h = one.nrows ? run_from_row(&one, 0, why, sizeof why) : NULL;
			dbrows_free(&one);
			if (!h)
				continue; /* a damaged run: the readers skip it, named; it keeps no uid */
			if (!(rc = load_facts(s, h, err, errlen)) &&
			    !(rc = load_results(s, h, err, errlen))) {
				run_set_content_uid(h);
				struct dbval u[] = { vtext(h->uid), vint(id) };
				struct dbrows dup;
				/* an equal run already holds this uid: the later copy keeps none */
				if (s->ops->query(s, "SELECT id FROM runs WHERE uid = $1", u, 1, &dup)) {
					rc = fail_db(s, err, errlen, "migration failed");
				} else {
					size_t taken = dup.nrows;
					dbrows_free(&dup);
					if (!taken && s->ops->query(s, "UPDATE runs SET uid = $1 WHERE id = $2",
								    u, 2, NULL))
						rc = fail_db(s, err, errlen, "migration failed");
				}
			}
			run_free(h);
		}
	}
	dbrows_free(&rows);
	return rc;
}

/* ---- RUN arguments -------------------------------------------------------------------------- */

int run_filter_parse(const char *arg, struct run_filter *f, char *err, size_t errlen)
{
	memset(f, 0, sizeof *f);
	if (!strchr(arg, '=') || strchr(arg, '/'))
		return 0;
	char *copy = xstrdup(arg), *save = NULL;
	f->buf = copy;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '=');
		if (!eq || eq == t || !eq[1])
			goto bad;
		*eq = 0;
		const char **slot = !strcmp(t, "host") ? &f->host : !strcmp(t, "label") ? &f->label
				    : !strcmp(t, "since") ? &f->since : !strcmp(t, "cc") ? &f->cc
				    : !strcmp(t, "cflags") ? &f->cflags : !strcmp(t, "arch") ? &f->arch
				    : NULL;
		if (!slot || *slot)
			goto bad;
		*slot = eq + 1;
	}
	if (f->since && run_since_check(f->since, err, errlen))
		goto fail;
	return 1;
bad:
	snprintf(err, errlen, "%s: a selection is host=H, label=L, since=DATE, cc=C, cflags=F and "
		 "arch=A joined by commas", arg);
fail:
	free(copy);
	memset(f, 0, sizeof *f);
	return -1;
}

/* Whether every blank-separated word of want is a word of have. */
static int words_in(const char *want, const char *have)
{
	char *copy = xstrdup(want), *save = NULL;
	int all = 1;
	for (char *w = strtok_r(copy, " \t", &save); w && all; w = strtok_r(NULL, " \t", &save)) {
		size_t l = strlen(w);
		int found = 0;
		for (const char *p = have; !found && (p = strstr(p, w)); p++)
			found = (p == have || isspace((unsigned char)p[-1])) &&
				(!p[l] || isspace((unsigned char)p[l]));
		all = found;
	}
	free(copy);
	return all;
}

int run_filter_facts_match(const struct run_filter *f, const struct run *r)
{
	const char *cc = kv_get(&r->facts, "build_cc"), *fl = kv_get(&r->facts, "build_cflags");
	const char *arch = kv_get(&r->facts, "arch");
	if (!arch)
		arch = kv_get(&r->facts, "machine");
	char shortcc[256];
	if (f->cc && !(cc && (strstr(cc, f->cc) ||
			      strstr(run_build_short(r, shortcc, sizeof shortcc), f->cc))))
		return 0;
	if (f->cflags && !(fl && words_in(f->cflags, fl)))
		return 0;
	return !f->arch || (arch && !strcmp(arch, f->arch));
}

int run_since_check(const char *d, char *err, size_t errlen)
{
	/* YYYY-MM-DD, optionally THH:MM[:SS][Z]: compared as text with the runs' ISO 8601 times */
	static const char pat[] = "dddd-dd-dd";
	size_t n = strlen(d);
	int ok = n >= 10;
	for (size_t i = 0; ok && i < 10; i++)
		ok = pat[i] == 'd' ? isdigit((unsigned char)d[i]) != 0 : d[i] == pat[i];
	for (size_t i = 10; ok && i < n; i++)
		ok = isdigit((unsigned char)d[i]) || d[i] == 'T' || d[i] == ':' || d[i] == 'Z';
	if (ok && n > 20)
		ok = 0;
	if (!ok)
		snprintf(err, errlen, "'%s' is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, UTC)", d);
	return ok ? 0 : -1;
}

/* Every run of a store matching a selection or a label, whole. */
static int load_all(struct store *s, const struct run_filter *f, struct run ***runs, size_t *n,
		    char *err, size_t errlen)
{
	struct run **list = NULL;
	int k = store_list_where(s, f, &list, err, errlen);
	if (k < 0)
		return -1;
	for (int i = 0; i < k; i++) {
		char why[512];
		struct run *r = store_load(s, list[i]->id, why, sizeof why);
		if (r)
			run_array_push(runs, n, r); /* a run that cannot be read is skipped, named */
		else
			warnx_("warning: %s; skipped", why);
		run_free(list[i]);
	}
	free(list);
	return 0;
}

int store_load_where(struct store *s, const struct run_filter *f, struct run ***runs, size_t *n,
		     char *err, size_t errlen)
{
	return load_all(s, f, runs, n, err, errlen);
}

void run_filter_free(struct run_filter *f)
{
	free(f->buf);
	memset(f, 0, sizeof *f);
}
