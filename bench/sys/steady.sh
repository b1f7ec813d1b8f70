#!/bin/bash
# bench/sys/steady.sh [N] [OUT] — run-to-run spread of lmbench's figure (the batch mean) against
# the steady figure (the median operation, metric "<id>.steady") for the system-call, signal,
# IPC and process latencies: N default runs of `plumb run --only syscall,ipc,proc` (12 rounds of
# the cheap OS latencies, as the default profile), alternately alone and beside a CPU hog on
# every CPU (HOG=0 or HOG=1 keeps one condition only). Prints, per metric and condition, the
# coefficient of variation of the runs' values of both figures (bench/sys/steady.py).
# Not part of CI: a measurement of this machine, minutes long.
set -u
cd "$(dirname "$0")/../.."
n=${1:-8}; out=${2:-bench/out/steady}
mkdir -p "$out"
hogs=()
hog_on() { for c in $(seq "$(nproc)"); do sh -c 'while :; do :; done' & hogs+=($!); done; }
hog_off() { [ ${#hogs[@]} -gt 0 ] && kill "${hogs[@]}" 2>/dev/null; wait "${hogs[@]}" 2>/dev/null; hogs=(); }
trap 'hog_off' EXIT INT TERM
for i in $(seq "$n"); do
	for h in 0 1; do
		[ -n "${HOG:-}" ] && [ "$HOG" != "$h" ] && continue
		[ "$h" = 1 ] && hog_on
		bin/plumb run --only "${ONLY:-syscall,ipc,proc}" --no-store -o "$out/run-h$h-$i.json" >/dev/null 2>"$out/run-h$h-$i.err"
		hog_off
		echo "run $i hog=$h done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
	done
done
python3 bench/sys/steady.py "$out"/run-h*-*.json | tee "$out/steady.txt"
