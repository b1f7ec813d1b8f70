#!/bin/sh
# grafana.sh — the store's dashboard views (docs/lab.md, "Grafana"; docs/store-schema.md): the
# view `series` (time, value, metric, host, label) and `plumb annotate`, which writes trend's
# change points per host into change_points, shown by the view `annotations` (time, timeend,
# text, tags). Two synthetic hosts of six labels × two runs (values made here, not measured):
# board1 steps +50 % from v4 on, board2 is A/A. Exactly one annotation, at board1's step between
# v3's last run and v4's first, also when the runs were stored newest first; none for board2; a
# second annotate writes the same rows. On a real PostgreSQL server this test starts
# (pg_server.sh) and on SQLite; the password of the URI never shows. SKIPs where libpq, the
# server, SQLite or the sqlite3 shell is missing.
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
. tests/lib.sh
. tests/pg_server.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
SECRET=Pw-S3cret-xyzzy

# step_run FILE HOST LABEL STARTED FACTOR SEED: one run of lat_syscall.null, 3 rounds of 5
# samples spread ±2 % around FACTOR µs (a fixed pseudo-random sequence from SEED)
step_run() {
	awk -v host="$2" -v label="$3" -v started="$4" -v f="$5" -v seed="$6" 'BEGIN {
		s = seed
		printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {\"label\": \"%s\", ", label
		printf "\"host\": \"%s\", \"profile\": \"default\", \"source\": \"plumb\", ", host
		printf "\"started\": \"%s\", \"ended\": \"%s\", \"incomplete\": false, ", started, started
		printf "\"rounds\": 3, \"options\": {}},\n\"system\": {\"hostname\": \"%s\", ", host
		printf "\"kernel\": \"6.1.0-test\", \"os\": \"Linux\", \"arch\": \"x86_64\"},\n"
		printf "\"results\": [{\"metric\": \"lat_syscall.null\", \"params\": {}, \"value\": %.4f, ", f
		printf "\"unit\": \"us\", \"method_version\": 1, \"samples\": ["
		sep = ""
		for (r = 0; r < 3; r++)
			for (k = 0; k < 5; k++) {
				s = (s * 1103515245 + 12345) % 2147483648
				v = f * (1 + 0.04 * (s / 2147483648 - 0.5))
				printf "%s{\"value\": %.5f, \"iters\": 1000, \"elapsed_ns\": %.1f, \"round\": %d}", sep, v, v * 1e6, r
				sep = ", "
			}
		printf "]}]}\n"
	}' >"$1"
}
mkdir "$T/runs"
for h in board1 board2; do
	off=0
	[ $h = board2 ] && off=500
	for v in 1 2 3 4 5 6; do
		for k in 1 2; do
			f=1.0
			[ $h = board1 ] && [ $v -ge 4 ] && f=1.5
			step_run "$T/runs/$h-$v-$k.json" $h v$v "2026-11-0${v}T1${k}:00:00Z" $f \
				$((v * 10 + k + off))
		done
	done
done
# the step: from v3's last run (2026-11-03 12:00) to v4's first (2026-11-04 11:00), Unix seconds
FROM=$(date -u -d 2026-11-03T12:00:00Z +%s 2>/dev/null || echo 1793707200)
TO=$(date -u -d 2026-11-04T11:00:00Z +%s 2>/dev/null || echo 1793790000)
WANT="$FROM $TO v3 v4 worse plumb,worse,lat_syscall.null,board1"

# ---- SQLite ---------------------------------------------------------------------------------------
if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip grafana/sqlite "plumb was built without SQLite"
elif ! command -v sqlite3 >/dev/null 2>&1; then
	skip grafana/sqlite "the sqlite3 shell is not installed (needed to query the views)"
else
	S="$T/store.db"
	qs() { sqlite3 -separator ' ' "$S" "$1"; }
	"$PLUMB" import --db "$S" "$T"/runs/*.json >/dev/null 2>"$T/imp.err" ||
		fail grafana/sqlite-import "$(cat "$T/imp.err")"
	got=$(qs "SELECT time, value, metric, host, label FROM series
		  WHERE host = 'board1' AND label = 'v4' ORDER BY time LIMIT 1")
	if [ "$got" = "$TO 1.5 lat_syscall.null board1 v4" ]
	then pass "grafana/sqlite: series, a run's time (Unix seconds) and value"
	else fail "grafana/sqlite: series, a run's time (Unix seconds) and value" "$got"; fi
	"$PLUMB" annotate --db "$S" >"$T/ann.out" 2>"$T/ann.err"; rc=$?
	got=$(qs "SELECT time, timeend, label_from, label_to, direction, tags FROM annotations")
	if [ $rc -eq 0 ] && [ "$got" = "$WANT" ] && grep -q '^1 change point in 2 series of 2 hosts' "$T/ann.out"
	then pass "grafana/sqlite: one annotation at the step, none for the A/A host"
	else fail "grafana/sqlite: one annotation at the step, none for the A/A host" \
		"rc=$rc [$got] $(cat "$T/ann.out" "$T/ann.err" | tr '\n' ' ')"; fi
	# an older store (schema 5) gains the views when opened
	# (and the later steps' column, so that the store is the one schema 5 made)
	qs "DROP VIEW annotations; DROP VIEW series; DROP TABLE change_points; DROP VIEW IF EXISTS points; ALTER TABLE samples DROP COLUMN side; PRAGMA user_version = 5"
	"$PLUMB" runs --db "$S" >/dev/null 2>&1
	if [ "$(qs 'PRAGMA user_version')" -ge 6 ] && [ "$(qs 'SELECT COUNT(*) FROM series')" = 24 ] &&
	   [ "$(qs 'SELECT COUNT(*) FROM annotations')" = 0 ]
	then pass "grafana/sqlite: a schema 5 store gains the views"
	else fail "grafana/sqlite: a schema 5 store gains the views" "version $(qs 'PRAGMA user_version')"; fi
fi
expect_usage "grafana/annotate-argument" "$PLUMB" annotate --db "$T/store.db" board1
expect_usage "grafana/annotate-no-store" "$PLUMB" annotate --db "$T/none/absent.db"

# ---- PostgreSQL -----------------------------------------------------------------------------------
pg_start_or_skip grafana/pg || exit 0
U="$PG_URI"
OUT="$T/all-output"
# pushed newest first: the store's order is not the series' order, the start times are
"$PLUMB" push $(ls "$T"/runs/*.json | sort -r) --to "$U" >>"$OUT" 2>&1 ||
	fail grafana/pg-push "$(tail -n 1 "$OUT")"
got=$(pg_sql "SELECT extract(epoch FROM time)::bigint, value, metric, host, label FROM series
	      WHERE host = 'board1' AND label = 'v4' ORDER BY time LIMIT 1" | tr '|' ' ')
if [ "$got" = "$TO 1.5 lat_syscall.null board1 v4" ] &&
   [ "$(pg_sql "SELECT pg_typeof(time) FROM series LIMIT 1")" = "timestamp with time zone" ]
then pass "grafana/pg: series, a run's time (timestamptz) and value"
else fail "grafana/pg: series, a run's time (timestamptz) and value" "$got"; fi
ann() {
	pg_sql "SELECT extract(epoch FROM time)::bigint, extract(epoch FROM timeend)::bigint,
		label_from, label_to, direction, tags FROM annotations" | tr '|' ' '
}
"$PLUMB" annotate --db "$U" >"$T/pg.out" 2>"$T/pg.err"; rc=$?
cat "$T/pg.out" "$T/pg.err" >>"$OUT"
got=$(ann)
if [ $rc -eq 0 ] && [ "$got" = "$WANT" ]
then pass "grafana/pg: one annotation at the step, none for the A/A host"
else fail "grafana/pg: one annotation at the step, none for the A/A host" \
	"rc=$rc [$got] $(cat "$T/pg.out" "$T/pg.err" | tr '\n' ' ')"; fi
text=$(pg_sql "SELECT text FROM annotations")
case $text in
"lat_syscall.null: +"*" between v3 and v4 (worse) on board1") pass "grafana/pg: the annotation's text" ;;
*) fail "grafana/pg: the annotation's text" "$text" ;;
esac
# idempotent: again, with a quiet cron line, the same rows and nothing printed
"$PLUMB" annotate --db "$U" -q >"$T/pg2.out" 2>&1; rc=$?
cat "$T/pg2.out" >>"$OUT"
if [ $rc -eq 0 ] && [ "$(ann)" = "$WANT" ] && [ ! -s "$T/pg2.out" ]
then pass "grafana/pg: annotate again writes the same rows"
else fail "grafana/pg: annotate again writes the same rows" "rc=$rc [$(ann)] $(cat "$T/pg2.out")"; fi
grep -q "$SECRET" "$OUT" && fail grafana/pg-password "the URI's password was printed" ||
	pass "grafana/pg: the password never shows"
grep -q '\*\*\*' "$T/pg.out" && pass "grafana/pg: the store named with its password masked" ||
	fail "grafana/pg: the store named with its password masked" "$(cat "$T/pg.out")"
