#!/bin/bash
# bench/verdicts.sh — how often compare's verdicts are right on this machine (not part of CI;
# figures in bench/README.md, "Verdicts"). Families syscall,ops,ipc,proc (cheap, and syscall
# has a place to inject a cost), default profile unless FLAGS says otherwise:
#   1. separate: NSEP default runs of one build, stored (label aa) and written as JSON; then
#      every consecutive pair compared as files (fresh store: default noise) and by id (the
#      store's history of the other runs), and the run-to-run noise and clock figures
#      (bench/verdicts.py)
#   2. paired:   NAB `plumb ab` sessions of this binary against itself
#   3. inject:   NAB `plumb ab` sessions against this binary under bin/slowsys $INJECT (every system
#      call enters a seccomp filter: +10-30 % on the cheap calls, nothing else), and NSEP/2
#      separate runs under it compared with the runs of part 1 (one against one, label against
#      label)
# Usage: bench/verdicts.sh [OUTDIR] (default bench/out/verdicts); NSEP, NAB, FAMILIES, FLAGS,
# INJECT (slowsys's N:LEN, default 1:1) from the environment; COMPARE_ONLY=1 redoes only the
# comparisons of separate runs (with the current bin/plumb) and the figures.
# Needs bin/plumb, bin/slowsys (make bin/slowsys), python3.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/verdicts}
NSEP=${NSEP:-8}
NAB=${NAB:-6}
FAM=${FAMILIES:-syscall,ops,ipc,proc}
FLAGS=${FLAGS:-}
INJ=${INJECT:-1:1}
mkdir -p "$out"
# copies: a rebuild while the experiment runs must not change the binary under it
cp bin/plumb "$out/plumb" && cp bin/slowsys "$out/slowsys" || exit 2
out=$(cd "$out" && pwd)
P=$out/plumb
S=$out/slowsys
DB=$out/store.db
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
ninj=$((NSEP / 2))
compare_separate() {
	for i in $(seq 2 "$NSEP"); do
		$P compare --format csv "$out/sep$((i - 1)).json" "$out/sep$i.json" >"$out/aa-files-$i.csv" 2>/dev/null
		$P compare --format csv --db "$DB" "$((i - 1))" "$i" >"$out/aa-hist-$i.csv" 2>/dev/null
	done
	for i in $(seq 1 "$ninj"); do
		# one run against one run: as files (default noise) and from the store (history)
		$P compare --format csv "$out/sep$i.json" "$out/inj$i.json" >"$out/inj-files-$i.csv" 2>/dev/null
		$P compare --format csv --db "$DB" "$i" "$((NSEP + i))" >"$out/inj-hist-$i.csv" 2>/dev/null
	done
	$P compare --format csv --db "$DB" aa inj >"$out/inj-labels.csv" 2>/dev/null
}
if [ "${COMPARE_ONLY:-0}" = 1 ]; then
	P=$(pwd)/bin/plumb
	compare_separate
	python3 bench/verdicts.py "$out" "$NSEP"
	exit 0
fi
rm -f "$DB"

echo "## separate runs: $NSEP default runs of one build ($FAM $FLAGS)"
for i in $(seq 1 "$NSEP"); do
	t0=$(date +%s.%N)
	$P run --only "$FAM" $FLAGS --label aa --db "$DB" -o "$out/sep$i.json" >/dev/null 2>"$out/sep$i.err"
	echo "sep$i $(secs "$t0") s"
done

echo "## paired: $NAB plumb ab sessions, A/A"
for i in $(seq 1 "$NAB"); do
	t0=$(date +%s.%N)
	$P ab --only "$FAM" $FLAGS --b "$P" --no-store --format csv >"$out/ab-aa-$i.csv" 2>"$out/ab-aa-$i.err"
	echo "ab-aa$i $(secs "$t0") s"
done

echo "## injected: $NAB plumb ab sessions, B under slowsys $INJ"
for i in $(seq 1 "$NAB"); do
	t0=$(date +%s.%N)
	$P ab --only "$FAM" $FLAGS --b "$S $INJ $P" --no-store --format csv >"$out/ab-inj-$i.csv" 2>"$out/ab-inj-$i.err"
	echo "ab-inj$i $(secs "$t0") s"
done
for i in $(seq 1 "$ninj"); do
	t0=$(date +%s.%N)
	$S $INJ $P run --only "$FAM" $FLAGS --label inj --db "$DB" -o "$out/inj$i.json" >/dev/null 2>"$out/inj$i.err"
	echo "inj$i $(secs "$t0") s"
done
compare_separate
python3 bench/verdicts.py "$out" "$NSEP"
