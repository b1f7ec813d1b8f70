#!/bin/bash
# bench/noise.sh [ROUNDS] [GAP_S] — the machine's own run-to-run noise, measured with trivial
# harnesses next to plumb: each round times the same null system call with `perf bench syscall
# basic` and with plumb, and reads the clock with `plumb mhz`, then waits GAP_S seconds (about
# the spacing of the runs in bench/run.sh's repeatability part). Prints each series and its
# spread (max - min) / median. Not part of CI.
set -u
cd "$(dirname "$0")/.."
rounds=${1:-5}; gap=${2:-45}
for i in $(seq "$rounds"); do
	p=$(taskset -c 1 perf bench syscall basic 2>&1 | awk '/usecs\/op/ { print $1 }')
	q=$(taskset -c 1 bin/plumb lat_syscall null | awk '{ print $3 }')
	m=$(bin/plumb mhz | awk '{ print $1 }')
	echo "$i perf=$p plumb=$q mhz=$m"
	[ "$i" -lt "$rounds" ] && sleep "$gap"
done | tee /dev/stderr | awk '
	{ for (k = 2; k <= NF; k++) { split($k, a, "="); v[a[1]] = v[a[1]] " " a[2] } }
	END { for (n in v) { c = split(v[n], x, " "); asort_(x, c); med = (c % 2) ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2;
	      printf "%-6s spread %.1f %% over %d rounds\n", n, 100 * (x[c] - x[1]) / med, c } }
	function asort_(x, c,   i, j, t) { for (i = 2; i <= c; i++) for (j = i; j > 1 && x[j - 1] + 0 > x[j] + 0; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t } }'
