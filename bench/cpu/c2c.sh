#!/bin/sh
# bench/cpu/c2c.sh [A B] [TIMES] — lat_c2c against an independent loop (bench/cpu/pingpong.c,
# built here with the machine's cc), alternated TIMES (default 5) times for the pair A B
# (default: the first two CPUs this shell may use), both orders. Prints each figure and the
# medians. Not part of CI.
set -u
cd "$(dirname "$0")/../.."
a=${1:-$(taskset -pc $$ 2>/dev/null | sed 's/.*: //' | tr ',' '\n' | sed 's/-.*//' | head -n 1)}
b=${2:-$((a + 1))}
n=${3:-5}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc -O2 -pthread -o "$d/pingpong" bench/cpu/pingpong.c || exit 2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$n"); do
	for o in "$a $b" "$b $a"; do
		set -- $o
		p=$("$d/pingpong" "$1" "$2")
		l=$(bin/plumb lat_c2c -c "$1,$2" 2>&1 | awk -v f="$1" '$6 == f { print $(NF - 1) }')
		echo "$1->$2 pingpong $p lat_c2c $l" | tee -a "$d/all"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
p=$(awk '{ print $3 }' "$d/all" | med)
l=$(awk '{ print $5 }' "$d/all" | med)
echo "medians over $(wc -l <"$d/all") figures each: pingpong $p ns, lat_c2c $l ns (ratio $(awk -v p="$p" -v l="$l" 'BEGIN { printf "%.2f", l / p }'))"
