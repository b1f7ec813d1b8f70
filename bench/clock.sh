#!/bin/bash
# bench/clock.sh [READINGS] [GAP_S] — how fast and how far the CPU clock moves on this machine:
# `plumb mhz` (0.04 s: dependent adds cross-checked with multiplies) on the benchmarks' CPU,
# READINGS times GAP_S seconds apart (default 80 x 0.25 s). Prints the series and its
# min / median / max and spread (max - min) / median. A spread of several percent here means
# any CPU-bound number moves as much between runs, whatever plumb does. Not part of CI.
set -u
cd "$(dirname "$0")/.."
n=${1:-80}; gap=${2:-0.25}
cpu=$(( $(nproc) - 1 ))
for i in $(seq "$n"); do
	taskset -c "$cpu" bin/plumb mhz | awk '{ print $1 }'
	sleep "$gap"
done | awk '{ v[NR] = $1; printf "%s ", $1 } END {
	for (i = 2; i <= NR; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "\n%d readings: min %d, median %d, max %d MHz; spread %.1f %%\n", NR, v[1], med, v[NR], 100 * (v[NR] - v[1]) / med }'
