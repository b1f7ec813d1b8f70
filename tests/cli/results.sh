# results.sh — the results layer: summary tables against lmbench's own, import of lmbench
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# files and forum threads, JSON and lmbench export round trips, bad input, the SQLite store
# (runs, --delete, --relabel, labels, concurrent writers, the duplicate rule). Store tests SKIP in a NO_SQLITE build.
. tests/lib.sh
D=tests/data/lmbench
DB="$T/store.db"
export PLUMB_DB="$T/default.db" # never touch the user's store

# Mask what lmbench takes from the results file's path: Host (first 9 columns of every row) and
# Description (columns 25-47 of the Basic system parameters rows). Everything else must match.
mask() {
	awk '
	/^$/ { rows = 0; basic = 0; print; next }
	/^Basic system parameters$/ { basic = 1 }
	/^--------- / { rows = 1; print; next }
	rows { $0 = "HOST_____" substr($0, 10)
	       if (basic) $0 = substr($0, 1, 24) sprintf("%23s", "DESC") substr($0, 48) }
	{ print }' "$1"
}

# ---- summary of real lmbench files equals lmbench's own, cell for cell ----------------------
for f in seed-a10-3.0.36-28 seed-goflex-kirkwood lmbench3-x86_64-partial-results; do
	"$PLUMB" summary "$D/$f.txt" >"$T/$f.sum" 2>"$T/$f.err"
	mask "$T/$f.sum" >"$T/$f.got"
	mask "$D/$f.getsummary.txt" >"$T/$f.want"
	if cmp -s "$T/$f.got" "$T/$f.want"; then
		pass "results/summary-matches-lmbench-$f"
	else
		fail "results/summary-matches-lmbench-$f" "$(diff "$T/$f.want" "$T/$f.got" | head -5 | tr '\n' '|')"
	fi
done
# the host column really is the run's host (lmbench used the file name)
check results/summary-host-from-uname grep -q '^T-01      Linux 3.0.36+ ' "$T/seed-a10-3.0.36-28.sum"

# ---- files without a store: export a file to a file, both formats ----------------------------
"$PLUMB" export "$D/seed-a10-3.0.36-28.txt" --format lmbench >"$T/a10.lm" 2>"$T/err"
check results/export-file-to-lmbench grep -q '^\[lmbench3.0 results for Linux T-01' "$T/a10.lm"
"$PLUMB" summary "$T/a10.lm" >"$T/a10.lm.sum"
check results/lmbench-export-reimport-same-summary cmp -s "$T/a10.lm.sum" "$T/seed-a10-3.0.36-28.sum"
"$PLUMB" export "$D/seed-goflex-kirkwood.txt" -o "$T/goflex.json"
check results/export-o-json-by-extension grep -q '"kind": "run"' "$T/goflex.json"
"$PLUMB" summary "$T/goflex.json" >"$T/goflex.json.sum"
check results/json-export-same-summary cmp -s "$T/goflex.json.sum" "$T/seed-goflex-kirkwood.sum"
check results/export-leaves-no-temp-file test -z "$(ls "$T" | grep '\.tmp\.')"

# JSON export → import round-trips every sample exactly (a tool's --json reads as a run): 5 of
# the batch mean and 5 of its steady figure
"$PLUMB" lat_syscall null --json -N 5 >"$T/tool.json"
"$PLUMB" export "$T/tool.json" -o "$T/tool-run.json"
"$PLUMB" export "$T/tool-run.json" -o "$T/tool-run2.json"
samples() { grep -E '"(value|iters|elapsed_ns|round|metric)":' "$1"; }
samples "$T/tool.json" >"$T/s0"
samples "$T/tool-run.json" >"$T/s1"
samples "$T/tool-run2.json" >"$T/s2"
n=$(grep -c elapsed_ns "$T/s1")
if [ "$n" -eq 10 ] && cmp -s "$T/s0" "$T/s1" && cmp -s "$T/s1" "$T/s2"; then
	pass results/json-roundtrip-every-sample
else
	fail results/json-roundtrip-every-sample "samples=$n $(diff "$T/s0" "$T/s1" | head -3 | tr '\n' '|')"
fi

# ---- bad input: one line naming the file, exit 2, never a crash ------------------------------
: >"$T/empty.txt"
head -c 3000 /dev/urandom >"$T/binary.txt"
printf 'hello, this is not a results file\nSimple syscall: 1.0 microseconds\n' >"$T/prose.txt"
head -c 700 "$T/goflex.json" >"$T/truncated.json"
head -n 5 "$D/seed-a10-3.0.36-28.txt" >"$T/headers-only.txt"
printf '{"schema": "plumb/1", "kind": "compare", "results": []}\n' >"$T/kind.json"
printf '{"schema": "plumb/1", "kind": "run", "results": [1,]}\n' >"$T/comma.json"
for f in empty.txt binary.txt prose.txt truncated.json headers-only.txt kind.json comma.json; do
	expect_usage "results/summary-rejects-$f" "$PLUMB" summary "$T/$f"
	check "results/error-names-file-$f" grep -q "$f" "$T/err"
done
expect_usage results/summary-missing-file "$PLUMB" summary "$T/nosuch.txt"
expect_usage results/export-bad-format "$PLUMB" export "$T/goflex.json" --format xml
expect_usage results/export-no-run "$PLUMB" export

# the thread: prose around two blocks gives two runs, prose skipped
"$PLUMB" summary "$D/armhf-kernel-lmbench-thread.txt" >"$T/thread.sum"
n=$(grep -c '^DS02 \|^T-01 ' "$T/thread.sum")
# 11 tables printed for each block (no remote table) = 22 rows
if [ "$n" -eq 22 ]; then pass results/thread-two-runs; else fail results/thread-two-runs "rows=$n"; fi

# ---- pooling counts a run once: a thread quoting the same run twice is one run on its side --------
cat "$D/seed-a10-3.0.36-28.txt" "$D/seed-a10-3.0.36-28.txt" >"$T/twice.txt"
"$PLUMB" compare --wide "$T/twice.txt" "$D/seed-goflex-kirkwood.txt" >"$T/twice.cmp" 2>"$T/twice.err"
# the reader keeps one run of a block repeated in a file (its content uid is the same; issue 34:
# a file of repeated blocks took 15x its size in memory): the summary is that of the one block
"$PLUMB" summary "$T/twice.txt" >"$T/twice.sum" 2>>"$T/twice.err"
"$PLUMB" summary "$D/seed-a10-3.0.36-28.txt" >"$T/once.sum"
check results/pooling-same-run-twice-counted-once cmp -s "$T/twice.sum" "$T/once.sum"
check results/pooling-same-run-counted-once grep -q '^lat_syscall.null .* 0.3456 (1) ' "$T/twice.cmp"

# ---- summary --per-host: one row per host, its runs pooled (each once) -------------------------
. tests/gen_run.sh
gen_run "$T/a1.json" boardA n 1 4
gen_run "$T/a2.json" boardA n 2 4 11111111111111111111111111111111
gen_run "$T/b1.json" boardB n 1 4
"$PLUMB" summary "$T/a1.json" "$T/a2.json" "$T/b1.json" >"$T/ph.all"
"$PLUMB" summary --per-host "$T/a1.json" "$T/a2.json" "$T/b1.json" "$T/a1.json" >"$T/ph.host"
check results/summary-row-per-run test "$(grep -c '^boardA ' "$T/ph.all")" -ge 2
check results/summary-per-host-one-row test "$(sed -n '/^Processor/,/^$/p' "$T/ph.host" | grep -c '^board')" -eq 2
# boardA pools 0.30 and 0.60 us null calls (2 x 18 samples, a1 once): the median is not either run's
check results/summary-per-host-pools grep -Eq '^boardA .* 0\.(4[0-9]|3[1-9]|5[0-9]) ' "$T/ph.host"
"$PLUMB" summary --per-host "$T/b1.json" >"$T/ph.one"
"$PLUMB" summary "$T/b1.json" >"$T/ph.one.plain"
check results/summary-per-host-single-run-unchanged cmp -s "$T/ph.one" "$T/ph.one.plain"

# ---- the store ---------------------------------------------------------------------------------
if "$PLUMB" runs --db "$DB" 2>&1 | grep -q 'without SQLite'; then
	skip results/store "plumb was built without SQLite (make NO_SQLITE=1): store tests skipped"
	expect_usage results/no-sqlite-import-message "$PLUMB" import --db "$DB" "$D/seed-a10-3.0.36-28.txt"
	exit 0
fi

expect_usage results/runs-no-store-yet "$PLUMB" runs --db "$DB"
"$PLUMB" import --db "$DB" "$D/seed-a10-3.0.36-28.txt" "$D/armhf-kernel-lmbench-thread.txt" >"$T/imp" 2>&1
check results/import-ok test "$(grep -c '^run ' "$T/imp")" -eq 3
# the forum thread quotes the seed-a10 run: the same content is stored once, and import says so
check results/import-duplicate-said grep -q '^run 1: already in the store, nothing added' "$T/imp"
"$PLUMB" runs --db "$DB" >"$T/runs"
check results/runs-lists-two test "$(grep -c lmbench "$T/runs")" -eq 2
check results/runs-columns grep -q '^ *id  date *host *label *profile' "$T/runs"
"$PLUMB" summary --db "$DB" 1 >"$T/id1.sum"
check results/summary-by-id cmp -s "$T/id1.sum" "$T/seed-a10-3.0.36-28.sum"
"$PLUMB" summary --db "$DB" >"$T/all.sum"
check results/summary-all-runs test "$(grep -c '^Host  ' "$T/all.sum")" -gt 0
# importing again adds nothing
"$PLUMB" import --db "$DB" "$D/seed-goflex-kirkwood.txt" >"$T/imp2"
check results/import-twice-stores-once grep -q '^run 2: already in the store' "$T/imp2"

# a failed import (one good file, one bad) leaves the store as it was
cp "$DB" "$T/before.db" 2>/dev/null
"$PLUMB" runs --db "$DB" >"$T/runs.before"
for f in empty.txt binary.txt prose.txt truncated.json headers-only.txt; do
	expect_usage "results/import-rejects-$f" "$PLUMB" import --db "$DB" "$D/lmbench3-x86_64-partial-results.txt" "$T/$f"
done
"$PLUMB" runs --db "$DB" >"$T/runs.after"
check results/failed-import-store-unchanged cmp -s "$T/runs.before" "$T/runs.after"

# labels: import with one, resolve it, relabel, delete (DS03: the goflex run on another host)
sed 's/results for Linux DS02 /results for Linux DS03 /' "$D/seed-goflex-kirkwood.txt" >"$T/goflex-ds03.txt"
"$PLUMB" import --db "$DB" --label kernel-a "$T/goflex-ds03.txt" "$D/lmbench3-x86_64-partial-results.txt" >/dev/null
"$PLUMB" summary --db "$DB" kernel-a >"$T/label.sum"
check results/label-resolves-all-runs test "$(grep -c '^DS03 \|^vm ' "$T/label.sum")" -ge 3
check results/label-is-description grep -q 'kernel-a' "$T/label.sum"
"$PLUMB" runs --db "$DB" --relabel 4 kernel-b >/dev/null
"$PLUMB" runs --db "$DB" >"$T/runs2"
check results/relabel grep -q '^ *4 .*kernel-b' "$T/runs2"
"$PLUMB" runs --db "$DB" --delete kernel-a >/dev/null
"$PLUMB" runs --db "$DB" >"$T/runs3"
check results/delete-by-label test "$(grep -c kernel-a "$T/runs3")" -eq 0
"$PLUMB" runs --db "$DB" --delete 1 >/dev/null
check results/delete-by-id test "$(grep -c '^ *1 ' "$T/runs3")" -eq 1 -a -z "$("$PLUMB" runs --db "$DB" | grep '^ *1 ')"
expect_usage results/delete-unknown "$PLUMB" runs --db "$DB" --delete 999
expect_usage results/unknown-label "$PLUMB" summary --db "$DB" no-such-label

# export a stored run both ways; the JSON carries the run's uid, so importing it back adds nothing
"$PLUMB" export 2 --db "$DB" -o "$T/r2.json"
"$PLUMB" export 2 --db "$DB" --format lmbench -o "$T/r2.txt"
check results/export-json-has-uid grep -Eq '"uid": "[0-9a-f]{32}"' "$T/r2.json"
"$PLUMB" import --db "$DB" "$T/r2.json" >"$T/imp3"
check results/reimport-exported-json-is-duplicate grep -q '^run 2: already in the store' "$T/imp3"
"$PLUMB" summary --db "$DB" 2 >"$T/r2a"
"$PLUMB" summary "$T/r2.json" >"$T/r2b"
check results/store-json-roundtrip-summary cmp -s "$T/r2a" "$T/r2b"
# file -> another store -> file keeps every sample
"$PLUMB" import --db "$T/other.db" "$T/r2.json" "$T/r2.txt" >/dev/null
"$PLUMB" export 1 --db "$T/other.db" -o "$T/r2-again.json"
samples "$T/r2.json" >"$T/e1"
samples "$T/r2-again.json" >"$T/e2"
check results/store-roundtrip-every-sample cmp -s "$T/e1" "$T/e2"
check results/store-roundtrip-keeps-uid test "$(grep '"uid"' "$T/r2.json")" = "$(grep '"uid"' "$T/r2-again.json")"

# four plumb processes writing at once: every distinct run lands once, the database stays sound
C="$T/conc.db"
for i in 1 2 3 4; do
	sed "s/results for Linux DS02 /results for Linux DS1$i /" "$D/seed-goflex-kirkwood.txt" >"$T/conc$i.txt"
	"$PLUMB" import --db "$C" "$D/seed-a10-3.0.36-28.txt" "$T/conc$i.txt" >"$T/c$i" 2>&1 &
done
wait
n=$("$PLUMB" runs --db "$C" | grep -c lmbench)
if [ "$n" -eq 5 ]; then pass results/concurrent-writers-all-land-once; else fail results/concurrent-writers-all-land-once "runs=$n $(cat "$T"/c? | grep -v '^run' | head -2)"; fi
check results/concurrent-duplicates-said test "$(cat "$T"/c? | grep -c 'already in the store')" -eq 3
check results/concurrent-integrity "$PLUMB" runs --db "$C" --check
if command -v sqlite3 >/dev/null 2>&1; then
	check results/concurrent-sqlite-integrity test "$(sqlite3 "$C" 'PRAGMA integrity_check')" = ok
	check results/schema-versioned test "$(sqlite3 "$C" 'PRAGMA user_version')" -ge 3
fi

# not a store: one line, exit 2
printf 'not a database, just text that is long enough to look like one......' >"$T/bad.db"
expect_usage results/not-a-store "$PLUMB" runs --db "$T/bad.db"
