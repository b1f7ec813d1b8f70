#!/bin/sh
# bench/mem/loaded.sh [A B] [ROUNDS] [SIZE_MiB] — lat_loaded against an independent MLC-like loop
# (bench/mem/loaded_ref.c, built here with the machine's cc, written apart from lat_loaded):
# both chase on CPU A, idle and while CPU B reads its own buffer at full speed; alternated
# ROUNDS (default 5) times; SIZE_MiB (default 128) for the chase and the reader each. Prints
# each round's figures (idle ns, loaded ns, reader MB/s: ref first, then plumb) and the
# medians. Not part of CI.
set -u
cd "$(dirname "$0")/../.."
a=${1:-1}
b=${2:-0}
n=${3:-5}
mib=${4:-128}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cc -O2 -pthread -o "$d/loaded_ref" bench/mem/loaded_ref.c || exit 2
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$n"); do
	r=$("$d/loaded_ref" "$a" "$b" "$mib" | awk '/^idle/ { i = $2 } /^loaded/ { l = $2; w = $3 } END { print i, l, w }')
	p=$(bin/plumb lat_loaded -c "$a,$b" -s "${mib}m" -b "${mib}m" -d 0 | awk '
		/^Loaded latency level 0/ { i = $(NF - 1) } /^Loaded latency level 1/ { l = $(NF - 1) }
		/^Loaded bandwidth level 1/ { w = $(NF - 1) } END { print i, l, w }')
	echo "round $i ref $r plumb $p" | tee -a "$d/all"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for k in 1 2 3; do
	eval "r$k=\$(awk -v k=$k '{ print \$(3 + k) }' \"\$d/all\" | med)"
	eval "p$k=\$(awk -v k=$k '{ print \$(7 + k) }' \"\$d/all\" | med)"
done
echo "medians of $n rounds:        idle ns  loaded ns  reader MB/s"
printf '  loaded_ref (independent) %8s %10s %12s\n' "$r1" "$r2" "$r3"
printf '  lat_loaded               %8s %10s %12s\n' "$p1" "$p2" "$p3"
