#!/bin/bash
# bench/bisect_goals.sh [OUTDIR] — does `plumb bisect-check` decide a +STEP % system-call step
# with one run per commit? (not part of CI; figures in bench/README.md, "bisect-check: one run a
# commit"). N times: one `plumb run --only lat_syscall` of this build is stored as the good
# commit's only baseline run; then bisect-check judges (a) this build again (an identical commit:
# 0 or 125 are true, 1 is false) and (b) this build with every lat_syscall sample multiplied by
# 1 + STEP/100 (bench/scale_run.py: a known step on the machine's real noise; 1 is true), against
# that stored run (--baseline) with --sessions SESSIONS looks. PAIRED=1 also judges both in the
# paired mode (--a this build, side B under bench/scale_side.py), one plumb ab session a look.
# Prints the exit codes' counts per mode and case. N (10), STEP (5), MIN (--min-effect, 2),
# SESSIONS (3), METRIC (lat_syscall.null), PAIRED (1) from the environment. Needs bin/plumb built
# with SQLite, python3. Say the machine's load beside every figure.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/bisect_goals}
N=${N:-10}; STEP=${STEP:-5}; MIN=${MIN:-2}; SESSIONS=${SESSIONS:-3}
METRIC=${METRIC:-lat_syscall.null}; PAIRED=${PAIRED:-1}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# copies: a rebuild while the experiment runs must not change the binary under it
cp bin/plumb bin/plumb-hello bin/plumb-spawn bench/scale_side.py bench/scale_run.py "$out/" || exit 2
P=$out/plumb
F=$(awk -v s="$STEP" 'BEGIN { print 1 + s / 100 }')
RE='^lat_syscall\.'
ans=$out/answers.tsv
: >"$ans"
echo "bisect_goals: N=$N STEP=$STEP MIN=$MIN SESSIONS=$SESSIONS METRIC=$METRIC; start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq 1 "$N"); do
	db=$out/base-$i.db
	rm -f "$db"
	"$P" run --only lat_syscall --db "$db" --label good >/dev/null 2>"$out/base-$i.err" ||
		{ echo "the baseline run failed (see $out/base-$i.err)" >&2; exit 1; }
	for kind in same step; do
		if [ "$kind" = same ]; then b=$P; else b="python3 $out/scale_run.py $F $RE $P"; fi
		"$P" bisect-check --baseline good --db "$db" --metric "$METRIC" --min-effect "$MIN" \
			--sessions "$SESSIONS" --b "$b" --only lat_syscall >"$out/baseline-$kind-$i.out" 2>&1
		printf 'baseline\t%s\t%d\t%d\n' "$kind" "$i" $? >>"$ans"
		[ "$PAIRED" = 1 ] || continue
		if [ "$kind" = same ]; then b=$P; else b="python3 $out/scale_side.py $F $RE $P"; fi
		"$P" bisect-check --a "$P" --b "$b" --metric "$METRIC" --min-effect "$MIN" \
			--sessions "$SESSIONS" --only lat_syscall >"$out/paired-$kind-$i.out" 2>&1
		printf 'paired\t%s\t%d\t%d\n' "$kind" "$i" $? >>"$ans"
	done
	echo "round $i of $N done $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
done
echo "| mode | case | 0 good | 1 bad | 125 undecided/not judged | other |"
echo "|---|---|---:|---:|---:|---:|"
awk -F'\t' '{ k = $1 "\t" $2; n[k]++; c[k, ($4 == 0 || $4 == 1 || $4 == 125) ? $4 : "o"]++ }
	END { for (k in n) { split(k, a, "\t")
		printf "| %s | %s | %d | %d | %d | %d |\n", a[1], a[2] == "same" ? "identical build" : "+'"$STEP"' % step",
			c[k, 0], c[k, 1], c[k, 125], c[k, "o"] } }' "$ans" | sort
