#!/bin/sh
# run.sh — run every test: the unit tests, then each tests/cli/*.sh. Prints failures and skips,
# keeps the whole log in build/test.log, and ends with "N passed, N failed[, N skipped]".
# TESTS="syscall core" sh tests/run.sh runs only the scripts whose names contain those words.
cd "$(dirname "$0")/.." || exit 2
log=build/test.log
mkdir -p build
: >"$log"
run() {
	echo "### $*" >>"$log"
	"$@" >>"$log" 2>&1
	echo "### exit $?" >>"$log"
}
[ -n "$TESTS" ] || run bin/unit-tests
for t in tests/cli/*.sh; do
	if [ -n "$TESTS" ]; then
		want=0
		for w in $TESTS; do case "$t" in *"$w"*) want=1 ;; esac; done
		[ $want = 1 ] || continue
	fi
	run timeout 600 sh "$t"
done
grep -E '^(FAIL|SKIP) ' "$log"
p=$(grep -c '^PASS ' "$log"); f=$(grep -c '^FAIL ' "$log"); s=$(grep -c '^SKIP ' "$log")
# A script that died without reporting is a failure too.
crashed=$(grep -c '^### exit [1-9]' "$log")
if [ "$crashed" -gt 0 ] && [ "$f" -eq 0 ]; then
	echo "FAIL a test program exited non-zero without a FAIL line (see $log)"
	f=$((f + 1))
fi
if [ "$s" -gt 0 ]; then
	echo "$p passed, $f failed, $s skipped"
else
	echo "$p passed, $f failed"
fi
[ "$f" -eq 0 ]
