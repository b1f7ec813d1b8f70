#!/bin/sh
# cost.sh — issue 12's before/after: the memory series' cost and numbers with two plumb builds,
# alternated on one machine. Run from the repository root:
#     sh bench/mem/cost.sh OLD_PLUMB [ROUNDS]      (NEW = bin/plumb, or $PLUMB)
# Each round runs `lat_mem_rd -t 128 16` and `par_mem -L 64 -M 128M` with the old build, then
# the new one (the order swaps every round), and prints per build the median wall time and the
# median value at a few sizes of each series, with new/old ratios: the work went down, the
# numbers must not move by more than the runs' own spread.
set -u
OLD=${1:?usage: sh bench/mem/cost.sh OLD_PLUMB [ROUNDS]}
ROUNDS=${2:-5}
NEW=${PLUMB:-bin/plumb}
W=$(mktemp -d "${TMPDIR:-/tmp}/plumb-cost.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
now() { date +%s.%N; }
one() { # build tag
	t0=$(now)
	"$1" lat_mem_rd -t 128 16 >"$W/lat" 2>&1
	t1=$(now)
	"$1" par_mem -L 64 -M 128M >"$W/par" 2>&1
	t2=$(now)
	echo "$2 lat_time $(echo "$t1 - $t0" | bc)" >>"$W/vals"
	echo "$2 par_time $(echo "$t2 - $t1" | bc)" >>"$W/vals"
	# lat_mem_rd: the point nearest each size (MiB); par_mem: sizes in MB
	for s in 0.03125 0.25 1 4 8 16 32 64 128; do
		awk -v s=$s -v t="$2" '/^[0-9]/ { d = $1 - s; if (d < 0) d = -d;
			if (best == "" || d < best) { best = d; v = $2 } }
			END { print t, "lat@" s "MiB", v }' "$W/lat" >>"$W/vals"
	done
	awk -v t="$2" '/^[0-9]/ { printf "%s par@%.3gMB %s\n", t, $1, $2 }' "$W/par" >>"$W/vals"
}
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) -eq 1 ]; then one "$OLD" old; one "$NEW" new; else one "$NEW" new; one "$OLD" old; fi
	echo "round $r done" >&2
done
python3 - "$W/vals" <<'PY'
import sys, statistics, collections
v = collections.defaultdict(lambda: collections.defaultdict(list))
order = []
for line in open(sys.argv[1]):
    b, k, x = line.split()
    if k not in order:
        order.append(k)
    v[k][b].append(float(x))
print(f"{'':16} {'old median':>11} {'new median':>11} {'new/old':>8}   old range / new range")
for k in order:
    o, n = v[k]['old'], v[k]['new']
    mo, mn = statistics.median(o), statistics.median(n)
    print(f"{k:16} {mo:11.3f} {mn:11.3f} {mn / mo if mo else float('nan'):8.2f}   "
          f"{min(o):.3f}-{max(o):.3f} / {min(n):.3f}-{max(n):.3f}")
PY
