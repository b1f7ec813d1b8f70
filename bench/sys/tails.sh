#!/bin/sh
# tails.sh — lat_tail's null and pipe percentiles next to an independent single-call loop
# (bench/sys/tailref.c, built here, written apart from plumb): ROUNDS (default 3) alternations,
# both pinned to the same CPU, 55 000 operations each (lat_tail's 11 blocks of 5000).
# lat_tail: the median over blocks, the clock's read cost subtracted; tailref: pooled over all
# operations, nothing subtracted (its clock pair's median printed to subtract by eye).
# Usage, from the repository root after make: sh bench/sys/tails.sh [ROUNDS] [CPU]
set -e
ROUNDS=${1:-3}; CPU=${2:-1}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
${CC:-cc} -O2 -o "$T/tailref" bench/sys/tailref.c -lm
echo "op source            p50      p90      p99    p99.9      max  (us)"
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	for op in null pipe; do
		bin/plumb lat_tail -o $op --cpu "$CPU" | awk -v op=$op '
			{ v[$3] = $4 } END { printf "%-4s lat_tail    %8s %8s %8s %8s %8s\n", op, v["p50:"], v["p90:"], v["p99:"], v["p99.9:"], v["max:"] }'
		taskset -c "$CPU" "$T/tailref" $op 55000 | awk '
			NR == 1 { printf "%-4s tailref     %8s %8s %8s %8s %8s\n", $1, $2, $3, $4, $5, $6 }
			NR == 2 { printf "     (tailref clock pair %s ns)\n", $2 }'
	done
done
