#!/bin/sh
# ab.sh — `plumb ab` end to end on this machine, restricted to the cheap syscall and ops
# families: usage errors (one line, exit 2); this binary against itself passes
# --fail-on-regression at a strict alpha (0.001, min effect 10 %: that such a session fails
# less than once in 1000 is shown by tests/unit/compare_sim_test.c); this binary against itself
# under bin/slowsys (every system call several times dearer, nothing else; alpha 0.01, min effect
# 25 %) flags the system-call metrics worse and no lat_ops/par_ops metric; the stored pair
# compares paired afterwards.
. tests/lib.sh

expect_usage "ab: no --b" "$PLUMB" ab --only syscall
expect_usage "ab: bad label" "$PLUMB" ab --b "$PLUMB" --label A
expect_usage "ab: -o refused" "$PLUMB" ab --b "$PLUMB" -o x.json
expect_usage "ab: bad alpha" "$PLUMB" ab --b "$PLUMB" --alpha 7
expect_usage "ab: empty prefix" "$PLUMB" ab --b " "
expect_usage "ab: bad run option" "$PLUMB" ab --b "$PLUMB" --frobnicate
expect_usage "ab: side not a program" "$PLUMB" ab --b "$T/no-such-plumb" --only syscall

# Ctrl-C: both sides stop, nothing is stored, no temporary directory is left, exit 130
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" "$PLUMB" ab --only syscall,ops --b "$PLUMB" --db "$T/int.db" >/dev/null 2>"$T/int.err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
sleep 1
left=$(ls -A "$T/tmp")
if [ $rc -eq 130 ] && [ -z "$left" ] && grep -q 'nothing stored' "$T/int.err" &&
   ! "$PLUMB" runs --db "$T/int.db" 2>/dev/null | grep -q '^ *[0-9]'
then pass "ab: Ctrl-C stops both sides cleanly"
else fail "ab: Ctrl-C stops both sides cleanly" "rc=$rc left=[$left] $(tail -n2 "$T/int.err")"; fi

STRICT="--alpha 0.001 --min-effect 10"
# CPU 0: plumb's default placement is the highest CPU, where every other plumb on a shared
# machine (other test suites) runs too; the verdicts need rounds that are not preempted by them
CPU="--cpu 0"
DB=$T/store.db

"$PLUMB" ab $CPU --only syscall,ops --repeat 5 --b "$PLUMB" --db "$DB" $STRICT --fail-on-regression \
	>"$T/aa.out" 2>"$T/aa.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^lat_syscall.null ' "$T/aa.out" && grep -q 'paired rounds' "$T/aa.out" &&
   tail -n1 "$T/aa.out" | grep -q '^0 worse, '
then pass "ab: A/A passes --fail-on-regression"
else fail "ab: A/A passes --fail-on-regression" "rc=$rc $(grep -E 'worse|better' "$T/aa.out" | head -5) $(tail -n3 "$T/aa.err")"; fi

# a later compare of the stored labels uses the session's pairing
if "$PLUMB" runs --db "$DB" >/dev/null 2>&1; then
	# the session's default labels (A#SESSION, B#SESSION) as its last line names them
	labs=$(sed -n 's/.*stored as runs [0-9]* (\([^)]*\)) and [0-9]* (\([^)]*\)).*/\1 \2/p' "$T/aa.err")
	"$PLUMB" compare --db "$DB" $labs >"$T/later.out" 2>&1
	if grep '^lat_syscall.null ' "$T/later.out" | grep -q 'paired rounds'
	then pass "ab: compare A B afterwards is paired"
	else fail "ab: compare A B afterwards is paired" "$(head -n8 "$T/later.out")"; fi
else
	skip "ab: compare A B afterwards is paired" "built without SQLite: no store"
fi

SLOW=$(dirname "$PLUMB")/slowsys
if [ ! -x "$SLOW" ]; then
	skip "ab: slower system calls are flagged" "bin/slowsys not built (make test builds it)"
	exit 0
fi
if ! "$SLOW" 1 true 2>"$T/slow.err"; then
	skip "ab: slower system calls are flagged" "no seccomp filters here: $(cat "$T/slow.err")"
	exit 0
fi
# the injected cost (4 filters of 4096 instructions, a few us a call) is several times a null
# call; 8 rounds give the paired test its degrees of freedom on a busy host. alpha 0.01 and a
# 25 % minimum effect: strict enough that par_ops, which swings by tens of percent when other
# work preempts it, stays unflagged, loose enough for BH over 40 tests to pass the calls
"$PLUMB" ab $CPU --only syscall,ops --repeat 8 --b "$SLOW 4 $PLUMB" --no-store --alpha 0.01 \
	--min-effect 25 --fail-on-regression >"$T/slow.out" 2>"$T/slow.err"
rc=$?
bad=""
for m in null read write fstat; do
	grep "^lat_syscall.$m " "$T/slow.out" | grep -q ' worse ' || bad="$bad lat_syscall.$m-not-worse"
done
if grep -E '^(lat_ops|par_ops)\.' "$T/slow.out" | grep -Eq ' (worse|better) \('; then
	bad="$bad ops-flagged"
fi
if [ $rc -eq 1 ] && [ -z "$bad" ]
then pass "ab: slower system calls are flagged, nothing else"
else fail "ab: slower system calls are flagged, nothing else" "rc=$rc$bad $(grep -E '^lat_syscall|worse|better' "$T/slow.out" | head -8)"; fi
