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
	/* a column step that may meet its column (a PostgreSQL store set back a version by hand,
	 * as tests/cli/pgstore.sh does, replays it); SQLite's ALTER has no IF NOT EXISTS */
	{ "{ADD_COLUMN}", "ADD COLUMN", "ADD COLUMN IF NOT EXISTS" },
	/* a round's median in the points view (step 4 -> 5): PostgreSQL's ordered-set aggregate
	 * sorts each round once (O(n log n)); SQLite has none, and keeps the correlated form of
	 * step 3 -> 4 (window functions would need SQLite 3.25) */
	{ "{ROUND_MEDIAN}", "",
	  ", percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS median" },
	{ "{MEDIAN_OF_G}",
	  "((SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id"
	  "   AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t"
	  "   WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)"
	  "   >= g.samples)"
	  " + (SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id"
	  "   AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t"
	  "   WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)"
	  "   >= g.samples + 1)) / 2",
	  "g.median" },
	/* step 5 -> 6, the dashboard views: a time Grafana reads from plumb's ISO 8601 text.
	 * PostgreSQL: a timestamptz, NULL for text that is not plumb's form (a hand edit must not
	 * break every panel's query); SQLite: Unix seconds (strftime gives NULL for bad text), which
	 * its Grafana data source reads as a time */
	{ "{TIME_STARTED}", "CAST(strftime('%s', r.started) AS INTEGER)",
	  "CASE WHEN r.started ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'"
	  " THEN CAST(r.started AS timestamptz) END" },
	{ "{TIME_CP}", "CAST(strftime('%s', c.time_from) AS INTEGER)",
	  "CASE WHEN c.time_from ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'"
	  " THEN CAST(c.time_from AS timestamptz) END" },
	{ "{TIMEEND_CP}", "CAST(strftime('%s', c.time_to) AS INTEGER)",
	  "CASE WHEN c.time_to ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'"
	  " THEN CAST(c.time_to AS timestamptz) END" },
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
	/* 3 -> 4: a view of points for SQL dashboards (docs/store-schema.md, "The points view"):
	 * one row per run, result and round, with the run's host, label and a few facts. Written
	 * without window functions (older SQLite lacks them): a round's median is the mean of its
	 * lower and upper median, each the smallest value with at least half the values at or
	 * below it. A result without samples (an imported lmbench file) is one round, its value. */
	"CREATE VIEW points AS SELECT"
	"  r.id AS run_id, r.uid AS run_uid, r.host AS host, r.label AS label,"
	"  r.profile AS profile, r.started AS started, r.incomplete AS incomplete,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'kernel') AS kernel,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'cpu_model') AS cpu_model,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cc') AS build_cc,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cflags')"
	"    AS build_cflags,"
	"  res.metric AS metric, res.params AS params, res.x AS x, res.unit AS unit,"
	"  res.method_version AS method_version,"
	"  COALESCE(g.round, 0) AS round, COALESCE(g.samples, 1) AS samples,"
	"  CASE WHEN g.result_id IS NULL THEN res.value ELSE"
	"   ((SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id"
	"      AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t"
	"      WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)"
	"      >= g.samples)"
	"   + (SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id"
	"      AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t"
	"      WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)"
	"      >= g.samples + 1)) / 2 END AS value,"
	"  COALESCE(g.value_min, res.value) AS value_min,"
	"  COALESCE(g.value_max, res.value) AS value_max,"
	"  res.value AS run_value"
	" FROM runs r JOIN results res ON res.run_id = r.id"
	" LEFT JOIN (SELECT result_id, round, COUNT(value) AS samples, MIN(value) AS value_min,"
	"   MAX(value) AS value_max FROM samples GROUP BY result_id, round) g"
	"  ON g.result_id = res.id;",
	/* 4 -> 5: the same view, its round median no longer quadratic on PostgreSQL: 16,000
	 * samples in a round cost 53 s a query through the correlated subqueries (issue 34;
	 * bench/pointsview.sh measures it). Columns and values as in step 3 -> 4. */
	"DROP VIEW IF EXISTS points;"
	"CREATE VIEW points AS SELECT"
	"  r.id AS run_id, r.uid AS run_uid, r.host AS host, r.label AS label,"
	"  r.profile AS profile, r.started AS started, r.incomplete AS incomplete,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'kernel') AS kernel,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'cpu_model') AS cpu_model,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cc') AS build_cc,"
	"  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cflags')"
	"    AS build_cflags,"
	"  res.metric AS metric, res.params AS params, res.x AS x, res.unit AS unit,"
	"  res.method_version AS method_version,"
	"  COALESCE(g.round, 0) AS round, COALESCE(g.samples, 1) AS samples,"
	"  CASE WHEN g.result_id IS NULL THEN res.value ELSE {MEDIAN_OF_G} END AS value,"
	"  COALESCE(g.value_min, res.value) AS value_min,"
	"  COALESCE(g.value_max, res.value) AS value_max,"
	"  res.value AS run_value"
	" FROM runs r JOIN results res ON res.run_id = r.id"
	" LEFT JOIN (SELECT result_id, round, COUNT(value) AS samples, MIN(value) AS value_min,"
	"   MAX(value) AS value_max{ROUND_MEDIAN} FROM samples GROUP BY result_id, round) g"
	"  ON g.result_id = res.id;",
	/* 5 -> 6: what a Grafana panel reads without code (docs/lab.md, "Grafana"): the view
	 * `series`, a point per run with the time Grafana wants; the table `change_points`, which
	 * `plumb annotate` fills with trend's change points per host and metric series (versions:
	 * the host's labels in time order), and the view `annotations` over it in the columns of a
	 * Grafana annotation query (time, timeend, text, tags). Self-contained: it reads only the
	 * tables of step 0 -> 1; and it may run again over its own result (a store whose version
	 * was set back by hand, as the tests do), so what it makes is dropped or kept first. */
	"DROP VIEW IF EXISTS annotations;"
	"DROP VIEW IF EXISTS series;"
	"CREATE VIEW series AS SELECT"
	"  {TIME_STARTED} AS time, res.value AS value, res.metric AS metric,"
	"  r.host AS host, r.label AS label, res.params AS params, res.x AS x,"
	"  res.unit AS unit, r.id AS run_id, r.started AS started, r.incomplete AS incomplete"
	" FROM runs r JOIN results res ON res.run_id = r.id WHERE r.started IS NOT NULL;"
	"CREATE TABLE IF NOT EXISTS change_points ("
	"  id {ROWID},"
	"  host TEXT NOT NULL, metric TEXT NOT NULL, params TEXT NOT NULL DEFAULT '',"
	"  x {REAL}, unit TEXT,"
	"  label_from TEXT NOT NULL, label_to TEXT NOT NULL,"
	"  time_from TEXT NOT NULL, time_to TEXT NOT NULL,"
	"  change_pct {REAL} NOT NULL, lo {REAL}, hi {REAL}, p {REAL},"
	"  direction TEXT NOT NULL, text TEXT NOT NULL, tags TEXT NOT NULL,"
	"  found TEXT NOT NULL DEFAULT {NOW});"
	"CREATE INDEX IF NOT EXISTS change_points_host ON change_points(host, metric);"
	"CREATE VIEW annotations AS SELECT"
	"  {TIME_CP} AS time, {TIMEEND_CP} AS timeend, c.text AS text, c.tags AS tags,"
	"  c.host AS host, c.metric AS metric, c.params AS params, c.x AS x,"
	"  c.label_from AS label_from, c.label_to AS label_to, c.change_pct AS change_pct,"
	"  c.direction AS direction"
	" FROM change_points c;",
	/* 6 -> 7: each sample's side metrics (core/side.h, docs/side-metrics.md), one line of
	 * text ("ops=N cs=V ..."); NULL for a sample without them */
	"ALTER TABLE samples {ADD_COLUMN} side TEXT;",
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
