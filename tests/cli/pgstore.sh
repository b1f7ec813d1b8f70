# pgstore.sh — the PostgreSQL store against a real server this test starts itself (pg_server.sh:
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# initdb into a temporary directory, Unix socket only, removed at the end): run -> push ->
# runs/summary/compare/report/plot/export on the server; pushing twice stores once; concurrent
# pushes lose nothing; a push killed mid-way leaves nothing; the URI's password never shows;
# hostile values in the database are refused. SKIPs where libpq or the server is missing.
. tests/lib.sh
. tests/gen_run.sh
. tests/pg_server.sh
D=tests/data/lmbench
L="$T/local.db"
export PLUMB_DB="$T/default.db" # never touch the user's store
SECRET=Pw-S3cret-xyzzy

if "$PLUMB" runs --db "postgresql://x:$SECRET@%2Fnonexistent/x" 2>&1 | grep -q 'without libpq'; then
	skip pgstore/all "plumb was built without libpq (make NO_PGSQL=1 or no libpq-dev): PostgreSQL tests skipped"
	exit 0
fi
if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip pgstore/all "plumb was built without SQLite: this test pushes from a local SQLite store"
	exit 0
fi
if ! pg_start; then
	skip pgstore/all "$PG_WHY"
	exit 0
fi
trap 'pg_stop; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
U="$PG_URI"
OUT="$T/all-output" # every line plumb prints in this test, to search for the password
: >"$OUT"
p() { "$PLUMB" "$@" 2>&1 | tee -a "$OUT"; } # plumb, its output kept

# ---- run -> push -> read it all back ------------------------------------------------------------
"$PLUMB" run --quick --only syscall --label nightly --db "$L" >/dev/null 2>&1
check pgstore/local-run-stored test "$("$PLUMB" runs --db "$L" | grep -c nightly)" -eq 1
"$PLUMB" import --db "$L" "$D/seed-a10-3.0.36-28.txt" "$D/seed-goflex-kirkwood.txt" >/dev/null
# --with-private: everything, the kernel command line and local paths too (stores.sh checks
# that a push without it leaves them out)
p push 1 2 3 --db "$L" --to "$U" --with-private >"$T/push1"
check pgstore/push-adds-three grep -q '^3 pushed, 0 already there' "$T/push1"
p push nightly 2 "$D/seed-goflex-kirkwood.txt" --db "$L" --to "$U" >"$T/push2"
check pgstore/push-twice-stores-once grep -q '^0 pushed, 3 already there' "$T/push2"
check pgstore/server-holds-three test "$(pg_sql 'SELECT count(*) FROM runs')" -eq 3
p runs --db "$U" >"$T/runs"
check pgstore/runs-lists-host-and-label grep -q '^ *1 .*nightly' "$T/runs"
for id in 1 2 3; do
	"$PLUMB" export "$id" --db "$L" -o "$T/l$id.json" 2>>"$OUT"
	"$PLUMB" export "$id" --db "$U" -o "$T/p$id.json" 2>>"$OUT"
	# the same document but for the store id: host, label, uid, facts and every sample kept
	grep -v '"id":' "$T/l$id.json" >"$T/l$id.cmp"
	grep -v '"id":' "$T/p$id.json" >"$T/p$id.cmp"
	check "pgstore/push-keeps-everything-run$id" cmp -s "$T/l$id.cmp" "$T/p$id.cmp"
done
"$PLUMB" summary --db "$L" 2 3 >"$T/sum.l" 2>&1
p summary --db "$U" 2 3 >"$T/sum.p"
check pgstore/summary-same-as-sqlite cmp -s "$T/sum.l" "$T/sum.p"
p compare --db "$U" 2 3 >"$T/cmp.p"
"$PLUMB" compare --db "$L" 2 3 >"$T/cmp.l" 2>&1
check pgstore/compare-same-as-sqlite cmp -s "$T/cmp.l" "$T/cmp.p"
# plumb trend reads the server as it reads SQLite: the same series by ids, and by host
p trend --db "$U" 1 2 3 >"$T/trend.p"
"$PLUMB" trend --db "$L" 1 2 3 >"$T/trend.l" 2>&1
check pgstore/trend-same-as-sqlite cmp -s "$T/trend.l" "$T/trend.p"
p trend --db "$U" --by host --format csv >"$T/trendh.p"
"$PLUMB" trend --db "$L" --by host --format csv >"$T/trendh.l" 2>&1
check pgstore/trend-by-host-same-as-sqlite cmp -s "$T/trendh.l" "$T/trendh.p"
p report --db "$U" 2 3 -o "$T/r.html" >/dev/null
check pgstore/report grep -q 'DS02' "$T/r.html"
p plot --db "$U" 2 3 -d "$T/svg" >/dev/null
check pgstore/plot test -n "$(ls "$T/svg" 2>/dev/null)"
check pgstore/check "$PLUMB" runs --db "$U" --check
# the points view (docs/store-schema.md): one row per result and round, as in SQLite; every
# round's median lies within its min and max, and the rounds hold every sample
pts=$(pg_sql "SELECT count(*) FROM points WHERE label = 'nightly'")
ord=$(pg_sql "SELECT count(*) FROM points WHERE label = 'nightly' AND value >= value_min
	AND value <= value_max AND kernel IS NOT NULL")
nsm=$(pg_sql "SELECT sum(samples) FROM points WHERE label = 'nightly'")
all=$(pg_sql "SELECT count(*) FROM samples s JOIN results r ON r.id = s.result_id
	JOIN runs u ON u.id = r.run_id WHERE u.label = 'nightly'")
if [ -n "$pts" ] && [ "$pts" -gt 0 ] && [ "$pts" = "$ord" ] && [ "$nsm" = "$all" ]
then pass pgstore/points-view
else fail pgstore/points-view "rows $pts ordered $ord samples $nsm of $all"; fi
# a round's median on PostgreSQL is percentile_cont (schema 5, O(n log n)): odd and even counts
# (round 0: 1 2 10, median 2; round 1: 6 4, median 5), and a store of schema 4 is migrated
awk 'BEGIN { printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {\"uid\": \"%032x\", \"label\": \"medians\", \"host\": \"m\", \"profile\": \"default\", \"source\": \"plumb\", \"started\": \"2026-11-01T10:00:00Z\", \"ended\": \"2026-11-01T10:01:00Z\", \"incomplete\": false, \"rounds\": 2, \"options\": {}}, \"system\": {\"hostname\": \"m\"}, \"results\": [{\"metric\": \"lat_syscall.null\", \"params\": {}, \"x\": \"null\", \"value\": 3, \"unit\": \"us\", \"method_version\": 1, \"samples\": [", 77
	n = split("1:0 2:0 10:0 6:1 4:1", v, " ")
	for (i = 1; i <= n; i++) { split(v[i], a, ":"); printf "%s{\"value\": %s, \"iters\": 10, \"elapsed_ns\": %d, \"round\": %s}", (i > 1) ? "," : "", a[1], a[1] * 10, a[2] }
	printf "]}]}\n" }' >"$T/medians.json"
pg_sql "UPDATE plumb_meta SET value = '4' WHERE name = 'schema_version'" >/dev/null
"$PLUMB" import --db "$U" "$T/medians.json" >/dev/null 2>>"$OUT"
med=$(pg_sql "SELECT round || '=' || value FROM points WHERE label = 'medians' ORDER BY round" | tr '\n' ' ')
def=$(pg_sql "SELECT pg_get_viewdef('points')" | grep -c percentile_cont)
ver=$(pg_sql "SELECT value FROM plumb_meta WHERE name = 'schema_version'")
if [ "$med" = "0=2 1=5 " ] && [ "$def" -ge 1 ] && [ "$ver" -ge 5 ]; then pass pgstore/points-median-sorted
else fail pgstore/points-median-sorted "medians '$med', percentile_cont $def, schema $ver"; fi
# selections: runs --host/--label/--since and a compare side host=H,label=L
p runs --db "$U" --host DS02 >"$T/sel1"
check pgstore/runs-host test "$(grep -c '^ *[0-9]' "$T/sel1")" -eq 1
p runs --db "$U" --label nightly --since 2020-01-01 >"$T/sel2"
check pgstore/runs-label-since test "$(grep -c '^ *[0-9]' "$T/sel2")" -eq 1
p runs --db "$U" --since 2999-01-01 >"$T/sel3"
check pgstore/runs-since-future-none test "$(grep -c '^ *[0-9]' "$T/sel3")" -eq 0
p compare --db "$U" host=T-01 host=DS02 --format csv | sed 's/host=T-01/2/g; s/host=DS02/3/g' >"$T/cmp.sel"
"$PLUMB" compare --db "$U" 2 3 --format csv >"$T/cmp.ids" 2>&1
check pgstore/compare-host-sides cmp -s "$T/cmp.ids" "$T/cmp.sel"
expect_usage pgstore/runs-bad-since "$PLUMB" runs --db "$U" --since yesterday
expect_usage pgstore/bad-selection "$PLUMB" compare --db "$U" host=DS02 colour=red

# PLUMB_DB may be the URI
check pgstore/plumb-db-env-uri sh -c "PLUMB_DB='$U' '$PLUMB' runs | grep -q nightly"

# ---- concurrent pushes from several processes: nothing lost, each run once ------------------------
for i in 1 2 3 4 5 6; do
	gen_run "$T/c$i.json" "board$i" conc 1 40
done
gen_run "$T/shared.json" shared conc 1 40 0123456789abcdef0123456789abcdef
for i in 1 2 3 4 5 6; do
	"$PLUMB" push "$T/c$i.json" "$T/shared.json" --to "$U" >"$T/cp$i" 2>&1 &
done
wait
check pgstore/concurrent-all-landed test "$(pg_sql "SELECT count(*) FROM runs WHERE label = 'conc'")" -eq 7
check pgstore/concurrent-shared-once test "$(grep -h -c 'already there as run' "$T"/cp? | awk '{ s += $1 } END { print s }')" -eq 5
check pgstore/concurrent-every-sample test "$(pg_sql "SELECT count(*) FROM samples s JOIN results r ON s.result_id = r.id JOIN runs u ON r.run_id = u.id WHERE u.label = 'conc'")" -eq $((7 * 40 * 18))
cat "$T"/cp? >>"$OUT"
# the same runs in opposite orders at once (writers that could deadlock): each stored once
for i in 1 2 3; do
	gen_run "$T/x$i.json" "cross$i" cross 1 40
done
for k in 1 2 3 4; do
	"$PLUMB" push "$T/x1.json" "$T/x2.json" "$T/x3.json" --to "$U" >"$T/xa$k" 2>&1 &
	"$PLUMB" push "$T/x3.json" "$T/x2.json" "$T/x1.json" --to "$U" >"$T/xb$k" 2>&1 &
done
wait
check pgstore/opposite-orders-each-once test "$(pg_sql "SELECT count(*) FROM runs WHERE label = 'cross'")" -eq 3
n=$(cat "$T"/xa? "$T"/xb? | grep -c '^0 pushed, 3 already there\|^[1-3] pushed')
if [ "$n" -eq 8 ]; then pass pgstore/opposite-orders-all-succeed
else fail pgstore/opposite-orders-all-succeed "$n of 8 pushes said they pushed or found all 3: $(cat "$T"/xa? "$T"/xb? | grep -v '^0 pushed, 3 already there\|^[1-3] pushed' | head -c 600 | tr '\n' '|')"; fi
cat "$T"/xa? "$T"/xb? >>"$OUT"

# ---- a push killed mid-way leaves nothing half-written ---------------------------------------
gen_run "$T/big.json" bigboard big 1 6000 fedcba9876543210fedcba9876543210
before=$(pg_sql 'SELECT count(*) FROM samples')
"$PLUMB" push "$T/big.json" --to "$U" >/dev/null 2>&1 &
pid=$!
seen=0
for i in $(seq 1 600); do
	n=$(pg_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'plumb' AND xact_start IS NOT NULL")
	if [ "${n:-0}" -gt 0 ]; then seen=1; break; fi
	kill -0 $pid 2>/dev/null || break
	sleep 0.05
done
sleep 0.3
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
for i in $(seq 1 100); do # the server rolls back once it sees the connection gone
	[ "$(pg_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'plumb'")" -eq 0 ] && break
	sleep 0.1
done
if [ $seen -eq 0 ]; then
	skip pgstore/killed-push "the push ended before it could be caught mid-transaction"
else
	check pgstore/killed-push-no-run test "$(pg_sql "SELECT count(*) FROM runs WHERE label = 'big'")" -eq 0
	check pgstore/killed-push-no-samples test "$(pg_sql 'SELECT count(*) FROM samples')" -eq "$before"
fi
p push "$T/big.json" --to "$U" >"$T/bigpush"
check pgstore/big-push-whole test "$(pg_sql "SELECT count(*) FROM samples s JOIN results r ON s.result_id = r.id JOIN runs u ON r.run_id = u.id WHERE u.label = 'big'")" -eq $((6000 * 18))

# ---- the password never shows --------------------------------------------------------------------
"$PLUMB" run --quick --only syscall --label viadb --db "$U" >>"$OUT" 2>&1
check pgstore/run-stores-on-server test "$(pg_sql "SELECT count(*) FROM runs WHERE label = 'viadb'")" -eq 1
check pgstore/facts-mask-password test "$(pg_sql "SELECT count(*) FROM facts WHERE value LIKE '%$SECRET%'")" -eq 0
check pgstore/facts-keep-masked-uri test "$(pg_sql "SELECT count(*) FROM facts WHERE key = 'opt.db' AND value LIKE '%:***@%'")" -eq 1
SOCK=$(printf '%s' "$PG_DIR/sock" | sed 's|/|%2F|g')
for uri in "postgresql://plumb:$SECRET@%2Fnonexistent/plumbtest" \
	"postgres://plumb@$SOCK/plumbtest?password=$SECRET&sslmode=bogus" \
	"postgresql://$SECRET:$SECRET@$SOCK/nosuchdb" \
	"postgresql://plumb:$SECRET@$SOCK/nosuchdb"; do
	"$PLUMB" runs --db "$uri" >"$T/o" 2>"$T/e"
	rc=$?
	cat "$T/o" "$T/e" >>"$OUT"
	if [ $rc -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && ! grep -q "$SECRET" "$T/e"; then
		pass "pgstore/error-masks-password"
	else
		fail "pgstore/error-masks-password" "rc=$rc $(sed "s/$SECRET/<SECRET>/g" "$T/e" | head -c 300)"
	fi
done
check pgstore/libpq-error-masked grep -q 'role "\*\*\*"' "$OUT"
# a password as users write it: an unencoded '@' (libpq alone would cut it at the first '@' and
# print the rest as a host name), spaces and quotes, a keyword/value string, PGPASSWORD
AT="postgresql://plumb:Se@cret9x@$SOCK/plumbtest"
"$PLUMB" runs --db "$AT" >"$T/o" 2>&1
rc=$?
cat "$T/o" >>"$OUT"
check pgstore/unencoded-at-password-connects test $rc -eq 0
p push "$T/big.json" --to "$AT" >/dev/null
p runs --db "postgresql://plumb:Se@cret9x@$SOCK/nosuchdb" >/dev/null
p runs --db "postgresql://plumb:s3 cr\"et9'q@$SOCK/nosuchdb" >/dev/null
p runs --db "postgresql://plumb:s3%20cr%22et9@$SOCK/nosuchdb" >/dev/null
p runs --db "host=$PG_DIR/sock dbname=plumbtest password='s3 cr\"et9 q'" >/dev/null
PGPASSWORD=Pgenv5ecret p runs --db "postgresql://plumb@$SOCK/nosuchdb" >/dev/null
check pgstore/other-password-forms-masked test "$(grep -a -c -e cret9 -e 'Se@c' -e 's3 cr' -e 's3%20' -e Pgenv "$OUT")" -eq 0
if grep -q "$SECRET" "$OUT"; then
	fail pgstore/no-password-in-any-output "$(grep -c "$SECRET" "$OUT") lines"
else
	pass pgstore/no-password-in-any-output
fi

# ---- hostile values in the database are refused, one line (exit 2 for a run named by id) --------
"$PG_BIN/createdb" -h "$PG_DIR/sock" -U plumb -E SQL_ASCII -T template0 hostile >/dev/null 2>&1
H="postgresql://plumb@$SOCK/hostile"
"$PLUMB" push "$T/c1.json" --to "$H" >/dev/null 2>&1
hsql() { "$PG_BIN/psql" -X -q -t -A -h "$PG_DIR/sock" -U plumb -d hostile -c "$1" >/dev/null 2>&1; }
# a damaged run is skipped by the listing, one warning naming it; named by its id it is refused
expect_skipped() {
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q 'run 1 .*skipped' "$T/err" &&
		! grep -q '^ *1 ' "$T/out"; then
		pass "$name"
	else
		fail "$name" "rc=$rc $(head -c 200 "$T/err")"
	fi
}
hsql "UPDATE runs SET host = E'board\\xff\\xfe'"
expect_usage pgstore/hostile-not-utf8 "$PLUMB" runs --db "$H"
hsql "UPDATE runs SET host = 'board1', rounds = 5000000000"
name=pgstore/hostile-huge-value expect_skipped "$PLUMB" runs --db "$H"
expect_usage pgstore/hostile-huge-value-by-id "$PLUMB" export 1 --db "$H"
hsql "UPDATE runs SET rounds = 6; UPDATE results SET value = 'Infinity' WHERE seq = 0"
expect_usage pgstore/hostile-infinity "$PLUMB" export 1 --db "$H"
hsql "ALTER TABLE results ALTER COLUMN value TYPE text; UPDATE results SET value = 'lots' WHERE seq = 0"
expect_usage pgstore/hostile-wrong-type "$PLUMB" summary --db "$H" 1
hsql "UPDATE results SET value = '1.5'; UPDATE runs SET uid = 'not-a-uid'"
name=pgstore/hostile-bad-uid expect_skipped "$PLUMB" runs --db "$H"
# a database that is someone else's: refused, not written to
"$PG_BIN/createdb" -h "$PG_DIR/sock" -U plumb other >/dev/null 2>&1
"$PG_BIN/psql" -X -q -h "$PG_DIR/sock" -U plumb -d other -c "CREATE TABLE runs (x int)" >/dev/null 2>&1
expect_usage pgstore/foreign-database-refused "$PLUMB" push "$T/c1.json" --to "postgresql://plumb@$SOCK/other"
expect_usage pgstore/read-needs-a-store "$PLUMB" runs --db "postgresql://plumb@$SOCK/postgres"
