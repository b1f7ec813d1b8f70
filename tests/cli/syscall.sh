# syscall.sh — lat_syscall: output lines, plausibility, usage errors.
. tests/lib.sh
"$BIN/lat_syscall" null 2>"$T/null" >"$T/null.out"
check syscall/symlink-stderr grep -Eq '^Simple syscall: [0-9]+\.[0-9]{4} microseconds$' "$T/null"
check syscall/symlink-stdout-empty test ! -s "$T/null.out"
"$PLUMB" lat_syscall null >"$T/p" 2>&1
check syscall/plumb-stdout grep -Eq '^Simple syscall: [0-9.]+ microseconds$' "$T/p"
for m in read write stat fstat open; do
	"$PLUMB" lat_syscall $m >"$T/$m" 2>&1 || fail "syscall/$m-runs" "exit $?"
done
null=$(field "$T/null" '^Simple syscall' 3)
open=$(field "$T/open" '^Simple open/close' 3)
stat=$(field "$T/stat" '^Simple stat' 3)
# null does less work than stat and open: a law that a busy machine can mask in one pair of
# measurements (each a median of samples taken minutes apart from the other's), so a miss is
# measured again back to back, up to 3 times in all.
cheaper() { # cheaper NAME LINE-REGEX VALUE
	n=1; v=$3; tries="null=$null $1=$v"
	while ! lt "$null" "$v" && [ $n -lt 3 ]; do
		n=$((n + 1))
		null=$("$PLUMB" lat_syscall null 2>&1 | awk '{ print $3; exit }')
		v=$("$PLUMB" lat_syscall "$1" 2>&1 | awk -v re="$2" '$0 ~ re { print $3; exit }')
		tries="$tries; null=$null $1=$v"
	done
	if lt "$null" "$v"; then pass "syscall/null-cheaper-than-$1"; else fail "syscall/null-cheaper-than-$1" "$tries"; fi
}
cheaper open '^Simple open/close' "$open"
cheaper stat '^Simple stat' "$stat"
# a system call costs more than nothing and less than a millisecond anywhere plumb runs
if between "$null" 0.005 1000; then pass syscall/null-plausible; else fail syscall/null-plausible "$null"; fi
# lmbench's extra FILE operand is accepted
echo x >"$T/f"
check syscall/null-with-file "$PLUMB" lat_syscall null "$T/f"
check syscall/open-named-file "$PLUMB" lat_syscall open "$T/f"
# JSON carries every sample: 5 of the batch mean, 5 of its steady figure
"$PLUMB" lat_syscall null --json -N 5 >"$T/j"
n=$(grep -c '"elapsed_ns"' "$T/j")
if [ "$n" -eq 10 ]; then pass syscall/json-samples; else fail syscall/json-samples "got $n samples"; fi
check syscall/json-metric grep -q '"metric": "lat_syscall.null"' "$T/j"
# bad input: one line, exit 2
expect_usage syscall/usage-no-mode "$PLUMB" lat_syscall
expect_usage syscall/usage-bad-mode "$PLUMB" lat_syscall bogus
expect_usage syscall/usage-missing-file "$PLUMB" lat_syscall stat /no/such/file
expect_usage syscall/usage-bad-N "$PLUMB" lat_syscall -N abc null
expect_usage syscall/usage-neg-P "$PLUMB" lat_syscall -P -5 null
expect_usage syscall/usage-absurd-N "$PLUMB" lat_syscall -N 99999999 null
expect_usage syscall/usage-unknown-opt "$PLUMB" lat_syscall -Z null
expect_usage syscall/usage-bad-cpu "$PLUMB" lat_syscall --cpu x null
# -P 2 copies run and report
check syscall/parallel "$PLUMB" lat_syscall -P 2 null
