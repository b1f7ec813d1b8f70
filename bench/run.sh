#!/bin/bash
# bench/run.sh — measure plumb itself on this machine (not part of CI; see README.md here):
#   1. wall time of `plumb run --quick`, the default profile and `--full`
#   2. repeatability: the default profile 5 times; per metric (max-min)/median across runs
#   3. measurement overhead: plumb's null call and pipe round trip next to `perf bench` with
#      the same CPU placement, alternated 3 times in one run
# Usage: bench/run.sh [all|time|repeat|overhead] [OUTDIR]   (default: all, bench/out)
# Needs: a built bin/plumb, python3, perf (Debian linux-perf) for the overhead part.
set -u
cd "$(dirname "$0")/.."
what=${1:-all}
out=${2:-bench/out}
mkdir -p "$out"
P=bin/plumb
export PLUMB_DB="$out/bench.db"

wall() { # wall NAME CMD...: seconds of wall time
	local t0 t1
	t0=$(date +%s.%N); "$@" >/dev/null 2>"$out/$1.err"; t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }'
}

if [ "$what" = all ] || [ "$what" = time ]; then
	echo "## wall time"
	for prof in --quick "" --full; do
		name=run${prof:-default}
		t0=$(date +%s.%N)
		$P run $prof --no-store -o "$out/time${prof:---default}.json" >/dev/null 2>"$out/time${prof:---default}.err"
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" -v n="plumb run ${prof:-(default)}" 'BEGIN { printf "%-28s %6.1f s\n", n, b - a }'
	done
fi

if [ "$what" = all ] || [ "$what" = repeat ]; then
	echo "## repeatability (default profile, 5 runs)"
	for i in 1 2 3 4 5; do
		$P run --no-store -o "$out/rep$i.json" >/dev/null 2>"$out/rep$i.err"
	done
	python3 bench/spread.py "$out"/rep[1-5].json
fi

if [ "$what" = all ] || [ "$what" = overhead ]; then
	echo "## overhead vs perf bench (both on CPU 1, alternated 3 times)"
	for i in 1 2 3; do
		taskset -c 1 $P lat_syscall null 2>&1 | awk '{ print "plumb lat_syscall null        ", $3, "us" }'
		taskset -c 1 perf bench syscall basic 2>&1 | awk '/usecs\/op/ { print "perf bench syscall basic      ", $1, "us" }'
		taskset -c 1 $P lat_pipe 2>&1 | awk '{ print "plumb lat_pipe                ", $3, "us" }'
		taskset -c 1 perf bench sched pipe -l 200000 2>&1 | awk '/usecs\/op/ { print "perf bench sched pipe         ", $1, "us" }'
	done
fi
