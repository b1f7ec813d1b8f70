#!/bin/bash
# bench/side_truths.sh [OUTDIR] — do the side metrics name the cause of a known change? Three
# pairs of run files (plumb run -o, default 3 rounds), each compared with `plumb compare`:
#   seccomp: lat_syscall null, then the same under bin/slowsys 1 (one seccomp filter of 4096
#            BPF instructions on every system call): the cause is kernel work per call;
#   ipc:     lat_pipe pinned (both ends on one CPU, plumb's default), then spread over two CPUs
#            (--cpu with two CPUs): the cause is cross-CPU wake-ups and idle entries;
#   migrate: lat_syscall null unpinned (--cpu none, 21 samples: a tool's document, one round,
#            so compare shows the change and no test), alone, then while its affinity is
#            flipped between the first and the last CPU every 10 ms: the cause is migrations.
# Prints each comparison's table and its side metric lines (--side: all of them). Needs
# bin/slowsys (make bin/slowsys), taskset and at least 2 CPUs. Not part of CI.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/side_truths}
mkdir -p "$out"
[ -x bin/slowsys ] || make bin/slowsys >/dev/null
n=$(nproc)
r() { # r NAME COMMAND...: a plumb run command, its run into OUTDIR/NAME.json
	local name=$1; shift
	"$@" --no-store -o "$out/$name.json" >/dev/null 2>&1
}
r sys-a bin/plumb run --only lat_syscall.null
r sys-b bin/slowsys 1 bin/plumb run --only lat_syscall.null
r ipc-a bin/plumb run --only lat_pipe
r ipc-b bin/plumb run --only lat_pipe --cpu "0,$((n - 1))"
bin/plumb lat_syscall null --cpu none -N 21 --json >"$out/mig-a.json"
bin/plumb lat_syscall null --cpu none -N 21 --json >"$out/mig-b.json" &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	taskset -a -p -c 0 "$pid" >/dev/null 2>&1; sleep 0.01
	taskset -a -p -c $((n - 1)) "$pid" >/dev/null 2>&1; sleep 0.01
done
wait "$pid"
for p in sys ipc mig; do
	echo "== $p"
	bin/plumb compare --all --side "$out/$p-a.json" "$out/$p-b.json" 2>/dev/null |
		sed -n '/^metric/,$p'
done
echo "load $(cut -d' ' -f1-3 /proc/loadavg); $n CPUs"
