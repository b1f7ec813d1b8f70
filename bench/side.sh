#!/bin/bash
# bench/side.sh [ROUNDS] — what side metrics cost (docs/side-metrics.md): first the CPU time of
# one sample's reads (bench/side_cost.c, built here against build/core), then each tool below run
# ROUNDS times with collection on and with PLUMB_SIDE=off, alternated, the order swapped every
# round. Prints per tool the median wall time of a run and of its headline figure for both,
# their ratios (on / off), and the off runs' own spread ((max - min) / median) as the noise a
# headline ratio must be read against. Not part of CI.
set -u
cd "$(dirname "$0")/.."
rounds=${1:-5}
out=$(mktemp -d "${TMPDIR:-/tmp}/plumb-side.XXXXXX")
trap 'rm -rf "$out"' EXIT
# the cost itself: a sample's two reads, CPU time per sample alone and with one helper, on
# the last CPU (plumb's default placement), against the default minimum sample (5 ms)
cpu=$(( $(nproc) - 1 ))
# against the build's library: the linker takes the objects the reads need, whatever they are
${CC:-cc} -O2 -D_GNU_SOURCE -Isrc -Ibuild -o "$out/side_cost" bench/side_cost.c build/libplumb.a \
	-lm -lpthread 2>"$out/cc.err" || { cat "$out/cc.err"; exit 1; }
for k in 1 2 3 4 5; do taskset -c "$cpu" "$out/side_cost" 2000 1; done | awk '{ print; a[NR] = $2; h[NR] = $4 } END {
	n = asort(a); asort(h)
	printf "median of %d: %.1f us alone, %.1f us with a helper = %.2f %% / %.2f %% of a 5 ms sample\n", n, a[(n + 1) / 2], h[(n + 1) / 2], a[(n + 1) / 2] / 50, h[(n + 1) / 2] / 50 }'
tools=("lat_syscall null" "lat_pipe" "lat_proc fork" "lat_ctx -s 0 2" "bw_mem 8m rd")
run() { # run ON|OFF I TOOL...
	local mode=$1 i=$2; shift 2
	local t0 t1 v
	t0=$(date +%s%N)
	if [ "$mode" = on ]; then v=$(bin/plumb "$@" 2>&1 | tail -1)
	else v=$(PLUMB_SIDE=off bin/plumb "$@" 2>&1 | tail -1); fi
	t1=$(date +%s%N)
	# the headline: the last number of the tool's last line
	echo "$(( (t1 - t0) / 1000 )) $(echo "$v" | awk '{ for (k = NF; k > 0; k--) if ($k ~ /^[0-9.]+$/) { print $k; exit } }')" \
		>>"$out/$mode.$i"
}
for r in $(seq "$rounds"); do
	for i in "${!tools[@]}"; do
		# shellcheck disable=SC2086
		if [ $((r % 2)) -eq 1 ]; then run on "$i" ${tools[$i]}; run off "$i" ${tools[$i]}
		else run off "$i" ${tools[$i]}; run on "$i" ${tools[$i]}; fi
	done
done
med() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf "%-18s %9s %9s %6s  %11s %11s %6s %8s\n" tool "wall on" "wall off" ratio "value on" "value off" ratio "noise %"
for i in "${!tools[@]}"; do
	won=$(awk '{ print $1 / 1000 }' "$out/on.$i" | med); woff=$(awk '{ print $1 / 1000 }' "$out/off.$i" | med)
	von=$(awk '{ print $2 }' "$out/on.$i" | med); voff=$(awk '{ print $2 }' "$out/off.$i" | med)
	noise=$(awk '{ print $2 }' "$out/off.$i" | sort -g | awk -v m="$voff" '{ v[NR] = $1 } END { printf "%.1f", 100 * (v[NR] - v[1]) / m }')
	awk -v t="${tools[$i]}" -v a="$won" -v b="$woff" -v c="$von" -v d="$voff" -v n="$noise" 'BEGIN {
		printf "%-18s %7.0fms %7.0fms %6.3f  %11.4f %11.4f %6.3f %8s\n", t, a, b, a / b, c, d, c / d, n }'
done
echo "$rounds rounds; load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
