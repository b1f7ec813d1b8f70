/*
 * store_schema.c — the results store's schema, written once (docs/store-schema.md): every
 * migration step is one text with a few {WORD} markers where SQLite and PostgreSQL spell a thing
 * differently, and schema_migration() expands it for one of them. Both databases are made by the
 * same steps, so they cannot drift apart.
 *
 * Never edit a released step: add one. The SQLite expansion of steps 0 and 1 is the text the
 * first SQLite-only plumb ran, so old stores and new ones hold the same schema.
 */
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "results/store_db.h"

static const struct {
	const char *word, *sqlite, *pg;
} words[] = {
	/* the run id users type: SQLite never reuses one (AUTOINCREMENT); a PG sequence neither */
	{ "{RUNID}", "INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY" },
	{ "{ROWID}", "INTEGER PRIMARY KEY", "BIGSERIAL PRIMARY KEY" },
	/* SQLite's INTEGER is 64-bit, PG's 32-bit; SQLite's REAL is a double, PG's a float */
	{ "{INT}", "INTEGER", "BIGINT" },
	{ "{REAL}", "REAL", "DOUBLE PRECISION" },
	{ "{NOW}", "(strftime('%Y-%m-%dT%H:%M:%SZ','now'))",
	  "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'))" },
	{ "{WITHOUT_ROWID}", " WITHOUT ROWID", "" },
};

/* migrations[v] takes the schema from version v to v + 1. */
static const char *const migrations[] = {
	/* 0 -> 1: the first schema */
	"CREATE TABLE runs ("
	"  id {RUNID},"
	"  label TEXT, host TEXT, profile TEXT, source TEXT,"
	"  started TEXT, ended TEXT,"
	"  incomplete {INT} NOT NULL DEFAULT 0,"
	"  rounds {INT} NOT NULL DEFAULT 1,"
	"  saved TEXT NOT NULL DEFAULT {NOW});"
	"CREATE TABLE facts ("
	"  run_id {INT} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  key TEXT NOT NULL, value TEXT NOT NULL,"
	"  PRIMARY KEY (run_id, key));"
	"CREATE TABLE results ("
	"  id {ROWID},"
	"  run_id {INT} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	"  seq {INT} NOT NULL,"
	"  metric TEXT NOT NULL, params TEXT NOT NULL DEFAULT '',"
	"  x {REAL}, value {REAL}, unit TEXT,"
	"  method_version {INT} NOT NULL DEFAULT 0, info TEXT);"
	"CREATE TABLE samples ("
	"  result_id {INT} NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
	"  seq {INT} NOT NULL,"
	"  value {REAL}, iters {INT} NOT NULL DEFAULT 0, elapsed_ns {REAL},"
	"  round {INT} NOT NULL DEFAULT 0,"
	"  PRIMARY KEY (result_id, seq)){WITHOUT_ROWID};"
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE INDEX runs_label ON runs(label);",
	/* 1 -> 2: compare and report look one metric up across many runs */
	"CREATE INDEX results_metric ON results(metric, params);",
	/* 2 -> 3: a run's identity, unique in a store (the duplicate rule: run_uid.c); facts keep
	 * their order by seq (PostgreSQL has no rowid); runs are found by host */
	"ALTER TABLE runs ADD COLUMN uid TEXT;"
	"CREATE UNIQUE INDEX runs_uid ON runs(uid);"
	"CREATE INDEX runs_host ON runs(host);"
	"ALTER TABLE facts ADD COLUMN seq {INT};",
};

int schema_version_current(void)
{
	return (int)(sizeof migrations / sizeof migrations[0]);
}

char *schema_migration(int v, enum dialect d)
{
	if (v < 0 || v >= schema_version_current())
		return NULL;
	const char *t = migrations[v];
	size_t cap = strlen(t) * 2 + 256, n = 0;
	char *out = xmalloc(cap);
	while (*t) {
		size_t k = 0, wl = 0;
		const char *rep = NULL;
		for (; k < sizeof words / sizeof words[0] && *t == '{'; k++) {
			wl = strlen(words[k].word);
			if (!strncmp(t, words[k].word, wl)) {
				rep = d == DIALECT_PG ? words[k].pg : words[k].sqlite;
				break;
			}
		}
		if (rep) {
			size_t rl = strlen(rep);
			if (n + rl + 1 > cap)
				out = xrealloc(out, cap = 2 * (n + rl + 1));
			memcpy(out + n, rep, rl);
			n += rl;
			t += wl;
		} else {
			if (n + 2 > cap)
				out = xrealloc(out, cap *= 2);
			out[n++] = *t++;
		}
	}
	out[n] = 0;
	return out;
}
