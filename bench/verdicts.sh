#!/bin/bash
# bench/verdicts.sh — how often compare's verdicts are right on this machine (not part of CI;
# figures in bench/README.md, "Verdicts"). Families syscall,ops,ipc,proc (cheap, and syscall
# has a place to inject a cost), default profile unless FLAGS says otherwise:
#   1. separate: NSEP default runs of one build (label aa), stored and written as JSON; every
#      consecutive pair compared as files (fresh store: the default noise) and by id (the
#      store's history of the other runs)
#   2. paired:   NAB `plumb ab` sessions of this binary against itself, stored (labels aaA<i>,
#      aaB<i>) and judged again from the store with the current binary
#   3. inject:   NAB `plumb ab` sessions against this binary under bin/slowsys $INJECT (every
#      system call enters a seccomp filter, nothing else gets dearer), NAB8 more with --repeat 8;
#      NINJ separate runs under it (label inj), compared one against one and as labels (inj
#      against aa)
#   4. known shift: each consecutive pair of part 1's runs again, with every lat_ops sample of
#      the second multiplied by SHIFT (default 1.15): a 15 % change on the family whose
#      run-to-run noise is lowest, on real noise (issue 11, item 5)
# then bench/verdicts.py prints the verdict counts, the time each part took, the run-to-run
# noise and each metric's slope on the run's clock, and bench/noise_table.py the per-metric
# figures the metrics' declared default noise (.noise = { ... } in each tool's file) is made from.
# Usage: bench/verdicts.sh [OUTDIR] (default bench/out/verdicts); NSEP (10), NAB (8), NAB8 (4),
# NINJ (NSEP/2), FAMILIES, FLAGS, INJECT (slowsys's N:LEN, default 1:24), SHIFT from the
# environment; COMPARE_ONLY=1 redoes only the comparisons (with the current bin/plumb) and the
# figures. Needs bin/plumb, bin/slowsys (make bin/slowsys), python3.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/verdicts}
NSEP=${NSEP:-10}
NAB=${NAB:-8}
NAB8=${NAB8:-4}
NINJ=${NINJ:-$((NSEP / 2))}
FAM=${FAMILIES:-syscall,ops,ipc,proc}
FLAGS=${FLAGS:-}
INJ=${INJECT:-1:24}
SHIFT=${SHIFT:-1.15}
mkdir -p "$out"
here=$(pwd)
out=$(cd "$out" && pwd)
DB=$out/store.db
secs() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

judge() {
	P=$1
	rm -f "$out"/*.csv
	for i in $(seq 2 "$NSEP"); do
		$P compare --format csv "$out/sep$((i - 1)).json" "$out/sep$i.json" >"$out/aa-files-$i.csv" 2>/dev/null
		$P compare --format csv --db "$DB" "$((i - 1))" "$i" >"$out/aa-hist-$i.csv" 2>/dev/null
		python3 - "$out/sep$i.json" "$out/shift$i.json" "$SHIFT" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
k = float(sys.argv[3])
for r in d['results']:
    if r['metric'].startswith('lat_ops.'):
        r['value'] *= k
        for s in r.get('samples', []):
            s['value'] *= k
json.dump(d, open(sys.argv[2], 'w'))
PY
		$P compare --format csv "$out/sep$((i - 1)).json" "$out/shift$i.json" >"$out/shift-files-$i.csv" 2>/dev/null
	done
	for i in $(seq 1 "$NAB"); do
		$P compare --format csv --db "$DB" "aaA$i" "aaB$i" >"$out/ab-aa-$i.csv" 2>/dev/null
		$P compare --format csv --db "$DB" "injA$i" "injB$i" >"$out/ab-inj-$i.csv" 2>/dev/null
	done
	for i in $(seq 1 "$NAB8"); do
		$P compare --format csv --db "$DB" "inj8A$i" "inj8B$i" >"$out/ab8-inj-$i.csv" 2>/dev/null
	done
	i=0
	for id in $($P runs --db "$DB" --label inj | awk 'NR > 1 { print $1 }'); do
		i=$((i + 1))
		# one run against one run: as files (default noise) and from the store (history)
		$P compare --format csv "$out/sep$i.json" "$out/inj$i.json" >"$out/inj-files-$i.csv" 2>/dev/null
		$P compare --format csv --db "$DB" "$i" "$id" >"$out/inj-hist-$i.csv" 2>/dev/null
	done
	$P compare --format csv --db "$DB" aa inj >"$out/inj-labels.csv" 2>/dev/null
	python3 "$here/bench/verdicts.py" "$out" "$NSEP"
	python3 "$here/bench/noise_table.py" "$P" "$DB" "$out" "$NSEP" "$NAB"
}
if [ "${COMPARE_ONLY:-0}" = 1 ]; then
	judge "$here/bin/plumb"
	exit 0
fi
# copies: a rebuild while the experiment runs must not change the binary under it
# lat_proc runs its helpers from beside the binary: copy them too
cp bin/plumb bin/plumb-hello bin/plumb-spawn "$out/" && cp bin/slowsys "$out/slowsys" || exit 2
P=$out/plumb
S=$out/slowsys
rm -f "$DB" "$out/times.txt"
part() { # NAME COUNT COMMAND...: run COMMAND COUNT times ($i set), log each time
	name=$1 n=$2
	shift 2
	for i in $(seq 1 "$n"); do
		t0=$(date +%s.%N)
		eval "$*"
		echo "$name $i $(secs "$t0")" | tee -a "$out/times.txt"
	done
}
part sep "$NSEP" '$P run --only "$FAM" $FLAGS --label aa --db "$DB" -o "$out/sep$i.json" >/dev/null 2>"$out/sep$i.err"'
part ab-aa "$NAB" '$P ab --only "$FAM" $FLAGS --b "$P" --db "$DB" --label aaA$i,aaB$i >/dev/null 2>"$out/ab-aa-$i.err"'
part ab-inj "$NAB" '$P ab --only "$FAM" $FLAGS --b "$S $INJ $P" --db "$DB" --label injA$i,injB$i >/dev/null 2>"$out/ab-inj-$i.err"'
part ab8-inj "$NAB8" '$P ab --only "$FAM" $FLAGS --repeat 8 --b "$S $INJ $P" --db "$DB" --label inj8A$i,inj8B$i >/dev/null 2>"$out/ab8-inj-$i.err"'
part inj "$NINJ" '$S $INJ $P run --only "$FAM" $FLAGS --label inj --db "$DB" -o "$out/inj$i.json" >/dev/null 2>"$out/inj$i.err"'
judge "$P"
