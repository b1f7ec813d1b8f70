#!/bin/sh
# bisectguard.sh — what `plumb bisect-check --baseline` refuses to judge (docs/bisect.md, "What
# is not judged"): an identical build checked while two busy loops share the machine is never
# "bad" (125 or 0, never 1); a baseline whose facts say another architecture or kernel is not
# judged (125, one line why); a value no measurement gives aborts (128); and a build under test
# that hangs is stopped by the watchdog within its bound (125, one line). The baseline is a run
# made here, its contended_steps fact renamed so that it reads as made on a quiet machine (a
# baseline made beside other work is itself refused: under make test it would be, every time).
. tests/lib.sh

RUNOPTS="--cpu 0 --only lat_syscall.null --repeat 6 --mem 1m"
if ! "$PLUMB" run $RUNOPTS --no-store --format json -o "$T/made.json" >/dev/null 2>"$T/made.err"; then
	fail "bisectguard: baseline run" "$(tail -n 2 "$T/made.err")"
	exit 0
fi
sed 's/"contended_steps"/"was_contended_steps"/' "$T/made.json" >"$T/base.json"

# check ARGS...: bisect-check against FILE with the test's options; rc in $rc, output in $T/out
# (timeout 120: a check that never ends is a failure of this test, not a hung make test)
check_against() {
	f=$1; shift
	timeout 120 "$PLUMB" bisect-check --baseline "$f" --metric lat_syscall.null --min-effect 20 \
		--sessions 1 $RUNOPTS "$@" >"$T/out" 2>&1
	rc=$?
}

# another architecture, another kernel: 125 and the fact that differs, before any judging
sed 's/"arch": "[^"]*"/"arch": "aarch64"/; s/"machine": "[^"]*"/"machine": "aarch64"/' \
	"$T/base.json" >"$T/arm.json"
check_against "$T/arm.json"
if [ $rc -eq 125 ] && grep -q "^bisect-check: .*another machine.*architecture differs.*aarch64" "$T/out" &&
   ! grep -q '^look ' "$T/out"
then pass "bisectguard: an aarch64 baseline is not judged (125)"
else fail "bisectguard: an aarch64 baseline is not judged (125)" "rc=$rc $(tail -n 3 "$T/out")"; fi
sed 's/"kernel": "[^"]*"/"kernel": "2.6.32-other"/' "$T/base.json" >"$T/kern.json"
check_against "$T/kern.json"
if [ $rc -eq 125 ] && grep -q "^bisect-check: .*kernel differs.*2\.6\.32-other" "$T/out"
then pass "bisectguard: another kernel's baseline is not judged (125)"
else fail "bisectguard: another kernel's baseline is not judged (125)" "rc=$rc $(tail -n 3 "$T/out")"; fi

# a value no measurement gives: abort (128), one line naming it
sed 's/"value": [0-9.e+-]*/"value": 1e-300/' "$T/base.json" >"$T/tiny.json"
check_against "$T/tiny.json"
# (refused where the run is read, or by bisect-check's own check: either names it)
if [ $rc -eq 128 ] && grep -Eq 'lat_syscall.null( reads 1e-300|: value 1e-300)' "$T/out"
then pass "bisectguard: an impossible baseline value aborts (128)"
else fail "bisectguard: an impossible baseline value aborts (128)" "rc=$rc $(tail -n 3 "$T/out")"; fi

# two busy loops beside the check of this very build: never "bad" (125, skipped for the load or
# undecided within its looks, or 0, not worse: either is true of an identical build)
sh -c 'while :; do :; done' & h1=$!
sh -c 'while :; do :; done' & h2=$!
check_against "$T/base.json"
kill $h1 $h2; wait $h1 $h2 2>/dev/null
if [ $rc -eq 125 ] || [ $rc -eq 0 ]
then pass "bisectguard: busy loops beside an identical build: $rc, never 1"
else fail "bisectguard: busy loops beside an identical build: never 1" "rc=$rc $(tail -n 3 "$T/out")"; fi

# a build under test that hangs (a wrapper that sleeps): stopped within --time-limit 4, 125
printf '#!/bin/sh\nexec sleep 3007\n' >"$T/sleeper"
chmod +x "$T/sleeper"
t0=$(date +%s)
check_against "$T/base.json" --b "$T/sleeper" --time-limit 4
t=$(($(date +%s) - t0))
if [ $rc -eq 125 ] && [ $t -le 30 ] && grep -q 'stopped by the watchdog' "$T/out" &&
   ! pgrep -f "sleep 3007" >/dev/null 2>&1
then pass "bisectguard: a hung build under test is stopped by the watchdog (${t} s, 125)"
else fail "bisectguard: a hung build under test is stopped by the watchdog" "rc=$rc ${t} s $(tail -n 3 "$T/out")"; fi
