#!/bin/sh
# contention.sh — plumb run watches for other work step by step, not only at its start: a CPU
# hog started while a small run is going (one per CPU, after the run's first steps) must be seen
# — the run's contended_steps fact names steps, and a warning says so at the end. Whether a
# quiet machine stays unmarked is not asserted: a shared test machine is rarely quiet, and
# marking that is the point.
. tests/lib.sh
export TMPDIR="$T/tmp"
mkdir -p "$TMPDIR"

ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ -r /proc/stat ] || { skip "contention: hog seen" "no /proc/stat on this machine"; exit 0; }
# full-length samples (not the tests' short ones) and two rounds: a run of a few seconds
unset ENOUGH
"$PLUMB" run --quick --only syscall --repeat 2 --no-store --format json -o "$T/run.json" \
	>/dev/null 2>"$T/err" &
run=$!
# mid-run: once the run has written its private directory and its first step is under way
i=0
while [ $i -lt 100 ] && kill -0 $run 2>/dev/null && [ -z "$(ls "$TMPDIR" 2>/dev/null)" ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.3
kill -0 $run 2>/dev/null && alive=1 || alive=0
hogs=""
k=0
while [ $k -lt "$ncpu" ]; do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
	k=$((k + 1))
done
wait $run; rc=$?
for h in $hogs; do kill "$h" 2>/dev/null; done
for h in $hogs; do wait "$h" 2>/dev/null; done
if [ $rc -ne 0 ] || [ ! -s "$T/run.json" ]; then
	fail "contention: hog seen" "the run failed (rc=$rc): $(tail -n 2 "$T/err")"
	exit 0
fi
if grep -q '"contended_steps": *"[^"]' "$T/run.json" && grep -q 'steps ran beside other work' "$T/err"; then
	pass "contention: hog seen"
elif [ $alive -eq 0 ]; then
	fail "contention: hog seen" "the run ended before the hog started"
elif ! grep -q '"contention_max_pct"' "$T/run.json"; then
	skip "contention: hog seen" "every step was shorter than /proc/stat's clock ticks can time"
else
	fail "contention: hog seen" "no step marked: $(grep -o '"contention_max_pct": *"[^"]*"' "$T/run.json")"
fi
check "contention: fact in the run" grep -q '"contention_max_pct"' "$T/run.json"
