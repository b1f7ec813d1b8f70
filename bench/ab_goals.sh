#!/bin/bash
# bench/ab_goals.sh — what `plumb ab` finds on this machine (not part of CI; figures in
# bench/README.md, "plumb ab: power and A/A rates"). System calls are made dearer by calibrated
# amounts with bin/slowsys 1:LEN (one seccomp filter of LEN instructions on every system call of
# side B, nothing else dearer): the cost of the filter is measured against the null system
# call in this run (alternating plain and filtered lat_syscall null, medians), and LEN chosen
# for each amount (default 3 5 10 20 % of a null call). Then, per amount, N `plumb ab` sessions
# against this binary under the wrapper, and N A/A sessions; bench/ab_goals.py prints the power
# curve (effect -> share of sessions that call lat_syscall.null worse; the same over every
# system-call and IPC row, whose relative change is smaller than the null call's) and the A/A
# rates (false rows per table, share of `same` at ±3 % for system-call, IPC and lat_ops rows).
# INJECT=shift instead: side B runs under bench/scale_side.py, which multiplies every sample of
# the system-call, IPC and lat_ops rows by exactly 1 + amount/100 in the file the side saves: a
# known change on the machine's real noise, for kernels where even the smallest filter costs more
# than the amounts asked (28-38 % of a null call on the 2-vCPU guest of 2026-12-02).
# Usage: bench/ab_goals.sh [OUTDIR] (default bench/out/ab_goals); N (10), AMOUNTS ("3 5 10 20"),
# FLAGS (run and ab options for every session, default none: a default session of every family;
# e.g. FLAGS="--only syscall,ipc,ops" for a short one) from the environment. Needs bin/plumb,
# bin/slowsys (make bin/slowsys), python3. Say the machine's load beside every figure.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/ab_goals}
N=${N:-10}
AMOUNTS=${AMOUNTS:-3 5 10 20}
FLAGS=${FLAGS:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)
here=$(pwd)
# copies: a rebuild while the experiment runs must not change the binary under it
# lat_proc runs its helpers from beside the binary: copy them too
cp bin/plumb bin/plumb-hello bin/plumb-spawn "$out/" && cp bin/slowsys "$out/slowsys" || exit 2
P=$out/plumb
S=$out/slowsys
"$S" 1 true 2>/dev/null || { echo "no seccomp filters here: cannot make system calls dearer" >&2; exit 2; }
null_us() { # [WRAPPER...]: one lat_syscall null, in microseconds
	"$@" "$P" lat_syscall null 2>&1 | awk '/Simple syscall/ { print $3 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
INJECT=${INJECT:-slowsys}
SHIFTED='^(lat_syscall|lat_sig|lat_select|lat_pipe|lat_unix|lat_fifo|lat_fcntl|lat_sem|lat_ops)\.'
if [ "$INJECT" = shift ]; then
	cp bench/scale_side.py "$out/scale_side.py" || exit 2
	echo "calibration: none (INJECT=shift: side B's system-call, IPC and lat_ops samples multiplied by 1 + amount/100; load $(cut -d' ' -f1-3 /proc/loadavg))" | tee "$out/calibration.txt"
	: >"$out/amounts.txt"
	for a in $AMOUNTS; do echo "$a shift $a" | tee -a "$out/amounts.txt"; done
fi
BIG=2048
rm -f "$out"/cal-*.txt
[ "$INJECT" = shift ] || {
for i in 1 2 3 4 5 6 7; do
	null_us >>"$out/cal-base.txt"
	null_us "$S" 1:2 >>"$out/cal-min.txt"
	null_us "$S" 1:$BIG >>"$out/cal-big.txt"
done
base=$(median <"$out/cal-base.txt")
min=$(median <"$out/cal-min.txt")
big=$(median <"$out/cal-big.txt")
echo "calibration: null call ${base} us; with a 2-instruction filter ${min} us; with ${BIG} ${big} us (medians of 7, alternated; load $(cut -d' ' -f1-3 /proc/loadavg))" | tee "$out/calibration.txt"
: >"$out/amounts.txt"
for a in $AMOUNTS; do
	# LEN for the amount, and the amount that LEN gives by the calibration (a filter costs at
	# least its entry, min - base: a smaller amount cannot be made, and is said)
	set -- $(awk -v b="$base" -v m="$min" -v g="$big" -v a="$a" -v B="$BIG" 'BEGIN {
		per = (g - m) / (B - 2); want = b * a / 100
		if (per <= 0) { print 0, 0; exit }
		l = 2 + (want - (m - b)) / per
		l = l < 2 ? 2 : (l > 4096 ? 4096 : l)
		printf "%d %.1f", l, (m - b + per * (int(l) - 2)) / b * 100 }')
	len=$1 got=$2
	[ "$len" -ge 2 ] || { echo "cannot calibrate: the filter's cost did not grow with its length" >&2; exit 3; }
	echo "$a $len $got" | tee -a "$out/amounts.txt"
done
}
t0=$(date +%s)
for i in $(seq 1 "$N"); do
	"$P" ab $FLAGS --b "$P" --no-store --format csv >"$out/aa-$i.csv" 2>"$out/aa-$i.err"
	while read -r a len _; do
		if [ "$len" = shift ]; then
			side="python3 $out/scale_side.py $(awk -v a="$a" 'BEGIN { print 1 + a / 100 }') $SHIFTED $P"
		else side="$S 1:$len $P"; fi
		"$P" ab $FLAGS --b "$side" --no-store --format csv >"$out/inj$a-$i.csv" 2>"$out/inj$a-$i.err"
	done <"$out/amounts.txt"
	echo "round $i of $N done ($(( $(date +%s) - t0 )) s; load $(cut -d' ' -f1-3 /proc/loadavg))"
done
python3 "$here/bench/ab_goals.py" "$out"
