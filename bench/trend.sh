#!/bin/sh
# bench/trend.sh — `plumb trend` on real repeated runs of one build (not part of CI; figures in
# bench/README.md, "Trend"): an A/A series of NV versions x NR runs of `plumb lat_syscall` (each
# run one tool invocation per call in CALLS, stored with the label aa<v>; the versions' runs
# interleaved in time), then the same series with every run from version K on under
# bin/slowsys $INJECT (one seccomp filter of LEN instructions: a system call 10-30 % dearer,
# nothing else), labels st<v>. Prints, for each series, the changes `plumb trend --by label`
# finds: on the A/A series every one is false; on the stepped one a change at st<K> is the
# truth, any other is false.
# Usage: bench/trend.sh [OUTDIR] (default $TMPDIR/plumb-bench-trend); NV (20), NR (2), K (NV/2 + 1),
# INJECT (1:24), CALLS ("null read write stat fstat open"), TOOLFLAGS (the tool's options, default
# none: its 5 ms samples) from the environment. Needs bin/plumb and bin/slowsys.
set -u
cd "$(dirname "$0")/.."
out=${1:-${TMPDIR:-/tmp}/plumb-bench-trend}
NV=${NV:-20}
NR=${NR:-2}
K=${K:-$((NV / 2 + 1))}
INJECT=${INJECT:-1:24}
CALLS=${CALLS:-null read write stat fstat open}
TOOLFLAGS=${TOOLFLAGS:-}
P=$(pwd)/bin/plumb
S=$(pwd)/bin/slowsys
[ -x "$P" ] && [ -x "$S" ] || { echo "needs bin/plumb and bin/slowsys (make bin/slowsys)" >&2; exit 2; }
mkdir -p "$out"
db="$out/trend.db"
rm -f "$db"
start=$(date +%s)
for series in aa st; do
	for r in $(seq 1 "$NR"); do
		for v in $(seq 1 "$NV"); do
			w=""
			[ "$series" = st ] && [ "$v" -ge "$K" ] && w="$S $INJECT"
			for c in $CALLS; do
				# shellcheck disable=SC2086
				$w "$P" lat_syscall $TOOLFLAGS --json "$c" >"$out/$series$v-$r-$c.json" ||
					{ echo "lat_syscall $c failed" >&2; exit 1; }
			done
		done
	done
	for v in $(seq 1 "$NV"); do
		"$P" import --db "$db" --label "$series$v" "$out/$series$v-"*.json >/dev/null
	done
	rm -f "$out/$series"*.json
done
end=$(date +%s)
"$P" trend --db "$db" --by label aa1 >/dev/null 2>&1 # warm the store's cache
for series in aa st; do
	sel=""
	for v in $(seq 1 "$NV"); do sel="$sel $series$v"; done
	# shellcheck disable=SC2086
	"$P" trend --db "$db" $sel >"$out/$series.txt" 2>"$out/$series.err"
	n=$(grep -c '^  .*: [-+][0-9.]* % .* between ' "$out/$series.txt")
	if [ "$series" = aa ]; then
		echo "A/A: $NV versions x $NR runs x $(echo $CALLS | wc -w) calls: $n false changes"
	else
		hit=$(grep -c "^  .* between $series$((K - 1)) and $series$K " "$out/$series.txt")
		echo "step under slowsys $INJECT from $series$K: $hit of $(echo $CALLS | wc -w) calls found there, $((n - hit)) other changes"
	fi
	grep '^  .* between \|noise' "$out/$series.txt" | sed 's/^/    /'
done
echo "measuring took $((end - start)) s; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%FT%TZ)"
