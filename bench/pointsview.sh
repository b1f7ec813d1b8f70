#!/bin/sh
# pointsview.sh [RUNS] — the cost of the store's `points` view on a real PostgreSQL server
# (started and removed here, as tests/pg_server.sh starts the tests' one), issue 34 item 4:
#   1. one run whose one result holds 1,000 / 4,000 / 16,000 samples in one round: the time of
#      `SELECT value FROM points WHERE run_id = N` (median of 3), and its ratio to the 1,000-sample
#      case. Sorting a round is O(n log n): 16x the samples should cost ~20x, not 256x.
#   2. RUNS runs (default 600) of 4 results x 18 samples: `SELECT count(value) FROM points`.
# Each figure is taken for the view plumb makes (schema 5, percentile_cont) and for the view
# of schema 4 (correlated subqueries, recreated here as points_v4) in the same database.
# From the repository root, after `make`. Prints a table; nothing is asserted.
set -u
RUNS=${1:-600}
PLUMB=${PLUMB:-bin/plumb}
T=$(mktemp -d "${TMPDIR:-/tmp}/plumb-pv.XXXXXX")
. tests/pg_server.sh
trap 'pg_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
pg_start || { echo "pointsview.sh: $PG_WHY" >&2; exit 1; }
U=$PG_URI

# one run, one result, N samples in round 0
one_round() {
	awk -v n="$1" 'BEGIN {
		srand(n)
		printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {\"uid\": \"%032x\", \"label\": \"round%d\", \"host\": \"bench\", \"profile\": \"default\", \"source\": \"plumb\", \"started\": \"2026-12-03T10:00:00Z\", \"ended\": \"2026-12-03T10:01:00Z\", \"incomplete\": false, \"rounds\": 1, \"options\": {}},\n", n, n
		printf "\"system\": {\"hostname\": \"bench\"}, \"results\": [{\"metric\": \"lat_syscall.null\", \"params\": {}, \"x\": \"null\", \"value\": 0.3, \"unit\": \"us\", \"method_version\": 1, \"samples\": ["
		for (i = 0; i < n; i++)
			printf "%s{\"value\": %.6f, \"iters\": 1000, \"elapsed_ns\": 300000, \"round\": 0}", i ? "," : "", 0.3 * (1 + 0.1 * rand())
		printf "]}]}\n"
	}'
}

for n in 1000 4000 16000; do
	one_round $n >"$T/r$n.json"
	"$PLUMB" import --db "$U" "$T/r$n.json" >/dev/null || exit 1
done
. tests/gen_run.sh
i=0
while [ $i -lt "$RUNS" ]; do
	gen_run "$T/m.json" "board$((i % 7))" "many" 1 4 "$(printf '%032x' $((100000 + i)))"
	"$PLUMB" import --db "$U" "$T/m.json" >/dev/null || exit 1
	i=$((i + 1))
done

# the schema-4 view beside it, for the before/after figures (store_schema.c, step 3 -> 4)
python3 - "$T/v4.sql" <<'EOF'
import sys
v = """CREATE VIEW points_v4 AS SELECT
  r.id AS run_id, r.uid AS run_uid, r.host AS host, r.label AS label,
  r.profile AS profile, r.started AS started, r.incomplete AS incomplete,
  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'kernel') AS kernel,
  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'cpu_model') AS cpu_model,
  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cc') AS build_cc,
  (SELECT f.value FROM facts f WHERE f.run_id = r.id AND f.key = 'build_cflags')
    AS build_cflags,
  res.metric AS metric, res.params AS params, res.x AS x, res.unit AS unit,
  res.method_version AS method_version,
  COALESCE(g.round, 0) AS round, COALESCE(g.samples, 1) AS samples,
  CASE WHEN g.result_id IS NULL THEN res.value ELSE
   ((SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id
      AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t
      WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)
      >= g.samples)
   + (SELECT MIN(s.value) FROM samples s WHERE s.result_id = g.result_id
      AND s.round = g.round AND 2 * (SELECT COUNT(*) FROM samples t
      WHERE t.result_id = s.result_id AND t.round = s.round AND t.value <= s.value)
      >= g.samples + 1)) / 2 END AS value,
  COALESCE(g.value_min, res.value) AS value_min,
  COALESCE(g.value_max, res.value) AS value_max,
  res.value AS run_value
 FROM runs r JOIN results res ON res.run_id = r.id
 LEFT JOIN (SELECT result_id, round, COUNT(value) AS samples, MIN(value) AS value_min,
   MAX(value) AS value_max FROM samples GROUP BY result_id, round) g
  ON g.result_id = res.id"""
open(sys.argv[1], 'w').write(v)
EOF
pg_sql "$(cat "$T/v4.sql")" >/dev/null

# seconds of one query, median of 3
qtime() {
	for k in 1 2 3; do
		s=$(date +%s%N)
		pg_sql "$1" >/dev/null
		e=$(date +%s%N)
		echo $(( (e - s) / 1000 ))
	done | sort -n | sed -n 2p | awk '{ printf "%.4f", $1 / 1e6 }'
}
echo "samples in a round | points (schema 5) s | ratio to 1,000 | points_v4 (schema 4) s | ratio to 1,000"
b5= b4=
for n in 1000 4000 16000; do
	id=$(pg_sql "SELECT id FROM runs WHERE label = 'round$n'")
	t5=$(qtime "SELECT value FROM points WHERE run_id = $id")
	if [ "$n" = 16000 ] && [ "${SKIP_V4_16K:-0}" = 1 ]; then t4=skipped
	else t4=$(qtime "SELECT value FROM points_v4 WHERE run_id = $id"); fi
	[ -z "$b5" ] && b5=$t5 b4=$t4
	r5=$(awk -v a="$t5" -v b="$b5" 'BEGIN { printf "%.1f", a / b }')
	r4=$(awk -v a="$t4" -v b="$b4" 'BEGIN { if (a + 0 > 0) printf "%.1f", a / b; else print "-" }')
	echo "$n | $t5 | $r5 | $t4 | $r4"
done
nruns=$(pg_sql "SELECT count(*) FROM runs")
echo "count(value) over $nruns runs: points $(qtime 'SELECT count(value) FROM points') s," \
	"points_v4 $(qtime 'SELECT count(value) FROM points_v4') s"
