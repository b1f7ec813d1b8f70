#!/bin/sh
# run.sh — run every test: the unit tests, then each tests/cli/*.sh. Prints failures and skips,
# keeps the whole log in build/test.log (with the seconds each script took), prints the slowest
# scripts, and ends with "N passed, N failed[, N skipped]".
# Scripts that time nothing (a line "# lane: parallel" near their top) run in a second lane beside
# the timing scripts (the unit tests time, so they are in the first): their checks are laws that hold on a busy machine (the
# busy-machine stage of .ci/run proves the timing scripts hold beside them), and the whole stays
# within 5 minutes on a 2-CPU machine.
# TESTS="syscall core" sh tests/run.sh runs only the scripts whose names contain those words
# (and bin/unit-tests when one word is "unit-tests").
cd "$(dirname "$0")/.." || exit 2
log=build/test.log
times=build/test-times
mkdir -p build
: >"$log"
: >"$times"
now() { date +%s; }
parts=build/test-parts
rm -rf "$parts"
mkdir -p "$parts"
n=0
# run CMD...: one part of the log, build/test-parts/NNN, numbered in the order of the scripts
run() {
	n=$((n + 1))
	part=$parts/$(printf %03d $n)
	{
		echo "### $*"
		t0=$(now)
		"$@" 2>&1
		rc=$?
		t=$(($(now) - t0))
		echo "### exit $rc"
		echo "### seconds $t"
	} >"$part" 2>&1
	echo "$t $*" >>"$times"
}
parallel_safe() { head -n 15 "$1" | grep -q '^# lane: parallel'; }
start=$(now)
# Where no cache size is known (or one too large to believe: a guest shown its host's L3), every
# plumb run and every memory tool without a size first measures the latency knee, for seconds.
# plumb run measures it once and hands it to its steps in PLUMB_MEM_KNEE; the tests do the same:
# measured here once, before any script (tests/cli/memory.sh still measures it itself).
if [ -z "${PLUMB_MEM_KNEE+set}" ] && bin/plumb run --dry-run 2>/dev/null | grep -q 'knee'; then
	knee=$(PLUMB_MEM_NO_SYSFS=1 ENOUGH=1000 bin/plumb stream -N 1 2>&1 |
		sed -n 's/.*4 x measured latency knee \([0-9][0-9]*\) MiB.*/\1/p' | head -n 1)
	if [ -n "$knee" ]; then
		export PLUMB_MEM_KNEE="${knee}M"
		echo "### latency knee measured once for every script: PLUMB_MEM_KNEE=$PLUMB_MEM_KNEE ($(($(now) - start)) s)" >>"$log"
	fi
fi
# the unit tests run with every script, or when TESTS names "unit-tests"
wanted() {
	[ -n "$TESTS" ] || return 0
	for w in $TESTS; do case "$1" in *"$w"*) return 0 ;; esac; done
	return 1
}
# the unit tests time too (calibration, clock): first, in the timing lane; their simulations
# (bin/unit-tests --sims: seconds of arithmetic) in the other
case " $TESTS " in "  " | *" unit-tests "*) run bin/unit-tests --no-sims ;; esac
(
	n=500
	# the simulations time nothing
	case " $TESTS " in "  " | *" unit-tests "*) run bin/unit-tests --sims ;; esac
	for t in tests/cli/*.sh; do
		wanted "$t" && parallel_safe "$t" && run timeout 600 sh "$t"
	done
) &
# at a lower priority, so the timing scripts get a CPU when they want one; not the lowest: on a
# machine busy with other work the lane still gets its share (at nice 19 beside a CPU hog it
# had 1.5 % of a CPU)
renice -n 10 -p $! >/dev/null 2>&1
lane=$!
# a stop reaches the second lane too
trap 'kill $lane 2>/dev/null; exit 130' INT TERM HUP
for t in tests/cli/*.sh; do
	wanted "$t" && ! parallel_safe "$t" && run timeout 600 sh "$t"
done
wait $lane
trap - INT TERM HUP
cat "$parts"/* >>"$log"
total=$(($(now) - start))
grep -E '^(FAIL|SKIP) ' "$log"
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
# A script that died without reporting is a failure too.
crashed=$(grep -c '^### exit [1-9]' "$log")
if [ "$crashed" -gt 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL a test program exited non-zero without a FAIL line (see $log)"
	f=$((f + 1))
fi
# The slowest scripts, so a test that grows is noticed (the whole must stay within 5 minutes on
# a 2-CPU machine).
{
	echo "### seconds per script, slowest first (total $total s)"
	sort -rn "$times" | sed 's/timeout 600 sh //'
} >>"$log"
echo "slowest: $(sort -rn "$times" | head -n 5 | sed 's/timeout 600 sh tests\/cli\///; s/ /s /' | tr '\n' ' ')(total $total s; per script in $log)"
if [ "$s" -gt 0 ]; then
	echo "$p passed, $f failed, $s skipped"
else
	echo "$p passed, $f failed"
fi
[ "$f" -eq 0 ]
