#!/bin/sh
# scale.sh [MAX] [OUTDIR] — how compare, summary, import and an lmbench import grow with the
# input: plumb JSON runs of N points (bench/gen_points.sh; N = 1000, 10000, ... up to MAX,
# default 1000000) and lmbench files of N/100 repeated blocks. Prints wall time and maximum
# resident memory (GNU time's %M) per command and size, then each command's log-log slope between
# the two largest sizes (1: linear; 2: quadratic). Needs /usr/bin/time (Debian package time).
# Run from the repository root after make. Temporary files go to OUTDIR (default a fresh
# directory under $TMPDIR, removed at the end).
MAX=${1:-1000000}
OUT=${2:-}
PLUMB=${PLUMB:-$(pwd)/bin/plumb}
[ -x /usr/bin/time ] || { echo "scale.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
if [ -z "$OUT" ]; then
	OUT=$(mktemp -d "${TMPDIR:-/tmp}/plumb-scale.XXXXXX") || exit 2
	trap 'rm -rf "$OUT"' EXIT
	trap 'exit 1' INT TERM
fi
export PLUMB_DB="$OUT/none.db"
# lmbench text: one block of the seed file, repeated (two runs pasted together, many times)
LMB=tests/data/lmbench/seed-goflex-kirkwood.txt

measure() { # measure NAME N FILE_BYTES CMD...: one line "NAME N bytes seconds maxrss_kb"
	name=$1 n=$2 bytes=$3
	shift 3
	/usr/bin/time -f "%e %M" -o "$OUT/t" "$@" >/dev/null 2>"$OUT/err"
	rc=$?
	set -- $(tail -n 1 "$OUT/t")
	[ $rc -eq 0 ] || echo "# $name at $n: exit $rc: $(head -c 200 "$OUT/err")" >&2
	printf '%-14s %9s %11s %8s %9s\n' "$name" "$n" "$bytes" "$1" "$2" | tee -a "$OUT/all"
}

printf '%-14s %9s %11s %8s %9s\n' command points file_bytes seconds maxrss_kb
: >"$OUT/all"
n=1000
while [ "$n" -le "$MAX" ]; do
	sh bench/gen_points.sh "$n" 1 >"$OUT/a.json"
	sh bench/gen_points.sh "$n" 2 1.1 >"$OUT/b.json"
	bytes=$(wc -c <"$OUT/a.json")
	measure compare "$n" "$bytes" "$PLUMB" compare "$OUT/a.json" "$OUT/b.json"
	measure compare-all "$n" "$bytes" "$PLUMB" compare --all "$OUT/a.json" "$OUT/b.json"
	measure summary "$n" "$bytes" "$PLUMB" summary "$OUT/a.json"
	rm -f "$OUT/s.db"
	measure import "$n" "$bytes" "$PLUMB" import --db "$OUT/s.db" "$OUT/a.json"
	measure summary-db "$n" "$bytes" "$PLUMB" summary --db "$OUT/s.db" 1
	rm -f "$OUT/s.db" "$OUT/l.txt"
	k=0
	while [ $k -lt $((n / 100)) ]; do cat "$LMB"; k=$((k + 1)); done >"$OUT/l.txt"
	measure import-lmbench "$n" "$(wc -c <"$OUT/l.txt")" "$PLUMB" import --db "$OUT/s.db" "$OUT/l.txt"
	rm -f "$OUT/s.db" "$OUT/l.txt" "$OUT/a.json" "$OUT/b.json"
	n=$((n * 10))
done
echo "# slope of log(time) and log(memory) against log(points), between the two largest sizes"
awk '{ t[$1, ++c[$1]] = $4; m[$1, c[$1]] = $5; p[$1, c[$1]] = $2 }
	END {
		for (k in c) {
			i = c[k]
			if (i < 2) continue
			lp = log(p[k, i] / p[k, i - 1])
			st = t[k, i - 1] > 0 ? sprintf("%.2f", log(t[k, i] / t[k, i - 1]) / lp) : "-"
			printf "%-14s time %s  memory %.2f\n", k, st, log(m[k, i] / m[k, i - 1]) / lp
		}
	}' "$OUT/all" | sort
