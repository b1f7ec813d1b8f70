#!/bin/sh
# bench/proc/scale.sh [TIMES] [MS] — plumb scale against an independent will-it-scale-like loop
# (bench/proc/wis.c, built here with the machine's cc), for null (getppid) and pagefault, at
# 1..N copies (N: the CPUs this shell may use), on the CPUs plumb's default placement uses (the
# last one, then downwards). The two alternate TIMES times (default 5); wis counts over MS ms
# (default 100) per copy count. Prints every figure, then per copy count the medians and each
# one's efficiency (throughput / (copies x its median at 1)). Not part of CI.
set -u
cd "$(dirname "$0")/../.."
n=${1:-5}
ms=${2:-100}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc -O2 -o "$d/wis" bench/proc/wis.c || exit 2
cpus=$(awk '/^Cpus_allowed_list:/ { n = split($2, r, ","); for (i = 1; i <= n; i++) {
	k = split(r[i], ab, "-"); for (c = ab[1]; c <= (k > 1 ? ab[2] : ab[1]); c++) print c } }' /proc/self/status | sort -rn | tr '\n' ' ')
max=$(echo $cpus | wc -w)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); CPUs in placement order: $cpus"
for op in null pagefault; do
	for i in $(seq "$n"); do
		bin/plumb scale -o $op -n "$max" 2>&1 | awk -v op=$op '/^Scale [a-z]+ process copies/ { sub(":", "", $5); print op, "plumb", $5, $6 }' >>"$d/all"
		for k in $(seq "$max"); do
			"$d/wis" $op "$k" "$ms" $cpus | awk -v op=$op '{ print op, "wis", $1, $2 }' >>"$d/all"
		done
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$d/all"
echo
printf '%-10s %6s %14s %14s %10s %10s\n' op copies plumb_ops/s wis_ops/s plumb_eff wis_eff
for op in null pagefault; do
	for k in $(seq "$max"); do
		p=$(awk -v op=$op -v k=$k '$1 == op && $2 == "plumb" && $3 == k { print $4 }' "$d/all" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		w=$(awk -v op=$op -v k=$k '$1 == op && $2 == "wis" && $3 == k { print $4 }' "$d/all" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		[ "$k" -eq 1 ] && { p1=$p; w1=$w; }
		awk -v op=$op -v k=$k -v p=$p -v w=$w -v p1=$p1 -v w1=$w1 'BEGIN {
			printf "%-10s %6d %14.0f %14.0f %10.3f %10.3f\n", op, k, p, w, p / (k * p1), w / (k * w1) }'
	done
done
