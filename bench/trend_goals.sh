#!/bin/sh
# bench/trend_goals.sh — how often `plumb trend` finds a known step, and how often it finds one
# that is not there, on series of real runs (not part of CI; figures in bench/README.md, "Trend:
# series of one or two runs a version"). Each of NS series: NV versions x NR runs of
# `plumb lat_syscall --json CALL` for each call in CALLS (one tool invocation a run and call; the
# versions interleaved in time: every version once, then again NR times). The same runs make
# two series: stored as they are (labels a1..aNV: an A/A series, every change found is false),
# and with every sample of versions K..NV multiplied by SHIFT (labels s1..sNV: a known step on
# the machine's own noise, like bench/scale_side.py for ab; a change between s(K-1) and sK is
# the truth, any other is false). Both the batch mean (lat_syscall.CALL) and the steady figure
# (lat_syscall.CALL.steady) are counted.
# Usage: bench/trend_goals.sh [OUTDIR] (default ${TMPDIR:-/tmp}/plumb-trend-goals); NS (10),
# NV (6), NR (2), K (NV/2 + 1), SHIFT (1.10), CALLS ("null read write stat fstat open"),
# TREND (extra `plumb trend` options) from the environment. RUNS=suite makes each run one
# `plumb run --only lat_syscall` instead (the system calls' 12 rounds spread over the run, as a
# nightly's run has them; every call, CALLS unused), RUNS=tool (default) one tool invocation a
# call (a tenth of a second: one moment of the machine). Needs bin/plumb and python3.
set -u
cd "$(dirname "$0")/.."
out=${1:-${TMPDIR:-/tmp}/plumb-trend-goals}
NS=${NS:-10}
NV=${NV:-6}
NR=${NR:-2}
K=${K:-$((NV / 2 + 1))}
SHIFT=${SHIFT:-1.10}
CALLS=${CALLS:-null read write stat fstat open}
TREND=${TREND:-}
RUNS=${RUNS:-tool}
[ -x bin/plumb ] || { echo "needs bin/plumb (make)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
# a copy: a rebuild while the series run must not change the binary under them
cp bin/plumb "$out/plumb" || exit 2
P=$out/plumb
ncalls=$(echo $CALLS | wc -w)
scale() { # FACTOR FILE: every lat_syscall sample and value in FILE times FACTOR, in place
	python3 - "$1" "$2" <<'EOF'
import json, sys
f, path = float(sys.argv[1]), sys.argv[2]
d = json.load(open(path))
for r in d.get('results', []):
    if not r.get('metric', '').startswith('lat_syscall.'):
        continue
    if isinstance(r.get('value'), (int, float)):
        r['value'] *= f
    for s in r.get('samples', []):
        for k in ('value', 'elapsed_ns'):
            if isinstance(s.get(k), (int, float)):
                s[k] *= f
json.dump(d, open(path, 'w'))
EOF
}
start=$(date +%s)
: >"$out/summary.txt"
for s in $(seq 1 "$NS"); do
	dir="$out/series$s"
	rm -rf "$dir" && mkdir -p "$dir"
	for r in $(seq 1 "$NR"); do
		for v in $(seq 1 "$NV"); do
			if [ "$RUNS" = suite ]; then
				# a nightly's run: the suite's rounds spread over the run
				"$P" run --only lat_syscall --no-store -o "$dir/a$v-$r-run.json" >/dev/null 2>&1 ||
					{ echo "plumb run --only lat_syscall failed" >&2; exit 1; }
				cp "$dir/a$v-$r-run.json" "$dir/s$v-$r-run.json"
				[ "$v" -ge "$K" ] && scale "$SHIFT" "$dir/s$v-$r-run.json"
				continue
			fi
			for c in $CALLS; do
				"$P" lat_syscall --json "$c" >"$dir/a$v-$r-$c.json" 2>/dev/null ||
					{ echo "lat_syscall $c failed" >&2; exit 1; }
				cp "$dir/a$v-$r-$c.json" "$dir/s$v-$r-$c.json"
				[ "$v" -ge "$K" ] && scale "$SHIFT" "$dir/s$v-$r-$c.json"
			done
		done
	done
	for v in $(seq 1 "$NV"); do
		# a store a series: a run stored once is not stored again under another label
		"$P" import --db "$dir/a.db" --label "a$v" "$dir/a$v-"*.json >/dev/null &&
			"$P" import --db "$dir/s.db" --label "s$v" "$dir/s$v-"*.json >/dev/null ||
			{ echo "import failed" >&2; exit 1; }
	done
	for series in a s; do
		sel=""
		for v in $(seq 1 "$NV"); do sel="$sel $series$v"; done
		# shellcheck disable=SC2086
		"$P" trend --db "$dir/$series.db" $TREND $sel >"$dir/$series.txt" 2>"$dir/$series.err"
	done
	# one line a series: changes found (metric, where), for both figures
	for series in a s; do
		grep '^  .* between ' "$dir/$series.txt" |
			awk -v S="$s" -v ser="$series" -v K="$K" '{
				m = $1; sub(":", "", m)
				fig = (m ~ /\.steady$/) ? "steady" : "mean"
				at = ($0 ~ (" between " ser (K - 1) " and " ser K " ")) ? "hit" : "false"
				print S, ser, fig, at, m }'
	done >>"$out/summary.txt"
	echo "series $s of $NS done ($(( $(date +%s) - start )) s; load $(cut -d' ' -f1-3 /proc/loadavg))"
done
echo "measuring took $(( $(date +%s) - start )) s; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
# per figure: metric series with the step found at K (of NS x calls), false changes on the
# stepped series, false changes on the A/A series, and A/A series (of NS) with no false change
for fig in steady mean; do
	awk -v fig="$fig" -v NS="$NS" -v NC="$ncalls" '$3 == fig {
		if ($2 == "s" && $4 == "hit") hit++
		else if ($2 == "s") sf++
		else { af++; bad[$1] = 1 } }
		END { n = 0; for (k in bad) n++
			printf "%s: step +%s found at its version in %d of %d metric series; %d other changes on the stepped series; A/A: %d false changes, %d of %d series with none\n",
				fig, "'"$SHIFT"'", hit, NS * NC, sf, af, NS - n, NS }' "$out/summary.txt"
done
