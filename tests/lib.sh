# lib.sh — helpers for shell tests. Each check prints one line: PASS name, FAIL name: why, or
# SKIP name: why (only for what the machine cannot do). tests/run.sh counts them.
PLUMB=${PLUMB:-$(pwd)/bin/plumb}
BIN=$(dirname "$PLUMB")
# Short samples: tests check plausibility, never speed.
export ENOUGH=${ENOUGH:-2000}
T=$(mktemp -d "${TMPDIR:-/tmp}/plumb-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
skip() { echo "SKIP $1: $2"; }

# check NAME COND-COMMAND... : PASS when the command succeeds
check() {
	name=$1; shift
	if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name" "$*"; fi
}

# value of field N (1-based) of the first line matching REGEX in FILE
field() { awk -v re="$2" -v n="$3" '$0 ~ re { print $n; exit }' "$1"; }

# true when a < b (numbers, awk)
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
between() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v + 0 >= lo + 0 && v + 0 <= hi + 0) }'; }
isnum() { echo "$1" | grep -Eq '^[0-9]+(\.[0-9]+)?$'; }

# expect_usage NAME CMD...: exits 2 with exactly one line on stderr and nothing on stdout
expect_usage() {
	name=$1; shift
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	lines=$(wc -l <"$T/err")
	if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$T/out" ]; then
		pass "$name"
	else
		fail "$name" "rc=$rc stderr_lines=$lines: $(head -c 200 "$T/err")"
	fi
}

# the CPUs this shell may use (taskset, cpusets), lowest first, one per line: a test that places
# work on CPUs picks them from here, so it also runs where only some CPUs are allowed
allowed_cpus() {
	awk '/^Cpus_allowed_list:/ { n = split($2, r, ","); for (i = 1; i <= n; i++) {
		k = split(r[i], ab, "-"); lo = ab[1]; hi = k > 1 ? ab[2] : ab[1]
		for (c = lo; c <= hi; c++) print c } }' /proc/self/status
}
