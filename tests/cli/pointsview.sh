#!/bin/sh
# pointsview.sh — the store's `points` view (docs/store-schema.md) on a real SQLite file: one row
# per run, result and round with the run's host, label and facts; a round's value is the median
# of its samples (odd and even counts), min and max beside it; an imported lmbench result (no
# samples) is one round, its value; a store of schema 3 (before the view) is migrated on opening,
# its runs kept. The same view on PostgreSQL is checked in pgstore.sh.
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
. tests/lib.sh
export PLUMB_DB="$T/default.db" # never touch the user's store

if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip pointsview/all "plumb was built without SQLite"
	exit 0
fi
if ! command -v sqlite3 >/dev/null 2>&1; then
	skip pointsview/all "the sqlite3 shell is not installed (needed to query the view)"
	exit 0
fi
DB=$T/store.db
q() { sqlite3 -separator ' ' "$DB" "$1"; }

# round 0: 1 2 10 (median 2); round 1: 6 4 (median 5); round 2: 3 9 3 3 (median 3)
cat >"$T/known.json" <<'EOF'
{"schema": "plumb/1", "kind": "run", "run": {"label": "nightly", "host": "board1",
 "profile": "default", "source": "plumb", "started": "2026-11-01T10:00:00Z",
 "ended": "2026-11-01T10:01:00Z", "incomplete": false, "rounds": 3, "options": {}},
 "system": {"hostname": "board1", "kernel": "6.1.0-test", "os": "Linux",
  "build_cc": "gcc 13.2"},
 "results": [
  {"metric": "lat_syscall.null", "params": {}, "x": "null", "value": 3.0, "unit": "us",
   "method_version": 1, "samples": [
    {"value": 1, "iters": 10, "elapsed_ns": 10, "round": 0},
    {"value": 2, "iters": 10, "elapsed_ns": 20, "round": 0},
    {"value": 10, "iters": 10, "elapsed_ns": 100, "round": 0},
    {"value": 6, "iters": 10, "elapsed_ns": 60, "round": 1},
    {"value": 4, "iters": 10, "elapsed_ns": 40, "round": 1},
    {"value": 3, "iters": 10, "elapsed_ns": 30, "round": 2},
    {"value": 9, "iters": 10, "elapsed_ns": 90, "round": 2},
    {"value": 3, "iters": 10, "elapsed_ns": 30, "round": 2},
    {"value": 3, "iters": 10, "elapsed_ns": 30, "round": 2}]}
 ]}
EOF
"$PLUMB" import --db "$DB" "$T/known.json" >/dev/null 2>"$T/imp.err" ||
	{ fail pointsview/import "$(cat "$T/imp.err")"; exit 0; }
q "SELECT round, samples, value, value_min, value_max, run_value FROM points
   WHERE metric = 'lat_syscall.null' ORDER BY round" >"$T/rounds"
printf '0 3 2.0 1.0 10.0 3.0\n1 2 5.0 4.0 6.0 3.0\n2 4 3.0 3.0 9.0 3.0\n' >"$T/want"
if cmp -s "$T/rounds" "$T/want"
then pass "pointsview: a round's median, min and max"
else fail "pointsview: a round's median, min and max" "$(tr '\n' ';' <"$T/rounds")"; fi
q "SELECT DISTINCT host, label, kernel, build_cc, profile FROM points" >"$T/facts"
if [ "$(cat "$T/facts")" = "board1 nightly 6.1.0-test gcc 13.2 default" ]
then pass "pointsview: host, label and facts"
else fail "pointsview: host, label and facts" "$(cat "$T/facts")"; fi

# an lmbench file: results without samples are one round each, their value
"$PLUMB" import --db "$DB" --label seed tests/data/lmbench/seed-goflex-kirkwood.txt >/dev/null 2>&1
n_res=$(q "SELECT COUNT(*) FROM results r JOIN runs u ON u.id = r.run_id WHERE u.label = 'seed'")
n_pts=$(q "SELECT COUNT(*) FROM points WHERE label = 'seed' AND round = 0 AND samples = 1
	   AND (value = run_value OR (value IS NULL AND run_value IS NULL))")
if [ "$n_res" -gt 0 ] && [ "$n_res" = "$n_pts" ]
then pass "pointsview: an imported lmbench result is one round"
else fail "pointsview: an imported lmbench result is one round" "results $n_res, points $n_pts"; fi

# a store of schema 3 (no view): opened by this plumb, it gains the view and keeps its runs
q "DROP VIEW points; DROP VIEW IF EXISTS annotations; DROP VIEW IF EXISTS series; DROP TABLE IF EXISTS change_points; ALTER TABLE samples DROP COLUMN side; PRAGMA user_version = 3"
before=$(q "SELECT COUNT(*) FROM samples")
"$PLUMB" runs --db "$DB" >/dev/null 2>"$T/mig.err"
after=$(q "SELECT COUNT(*) FROM samples")
ver=$(q "PRAGMA user_version")
npts=$(q "SELECT COUNT(*) FROM points WHERE label = 'nightly'")
if [ "$before" = "$after" ] && [ "$ver" -ge 4 ] && [ "$npts" = 3 ]
then pass "pointsview: a schema 3 store is migrated, nothing lost"
else fail "pointsview: a schema 3 store is migrated, nothing lost" \
	"samples $before -> $after, version $ver, points $npts: $(cat "$T/mig.err")"; fi
