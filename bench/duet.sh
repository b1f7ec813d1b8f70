#!/bin/sh
# bench/duet.sh — does a duet `plumb ab` session (--duet: both sides run each step at the same
# time, each pinned to a CPU of its own) give narrower intervals than the default alternating
# one (each step on one side, then on the other) on this machine? Not part of CI; figures in
# bench/README.md, "plumb ab --duet". Per repetition, interleaved so that the machine's load
# reaches both designs alike: an A/A session (this binary against itself) and a session against
# this binary under bin/slowsys 1:LEN (every system call of side B dearer, nothing else), each
# once alternating and once duet, on the same steps and rounds (--repeat R --time-limit 0: no
# sequential rounds, so both designs have the same number of paired rounds). Figures: per
# design and kind, the median over sessions of the median half-width of the rows' 95 %
# intervals (the interval the verdict is judged on, as % on the log scale), per family; A/A
# rows called worse or better (false rows); in the slowdown sessions, system-call rows called
# worse; the load average before each session.
# Usage: bench/duet.sh [OUTDIR] (default bench/out/duet); N (4), R (5), LEN (400), FLAGS
# ("--only syscall,ipc,lat_ops") from the environment. Needs bin/plumb and bin/slowsys.
set -u
cd "$(dirname "$0")/.."
out=${1:-bench/out/duet}
N=${N:-4}
R=${R:-5}
LEN=${LEN:-400}
FLAGS=${FLAGS:---only syscall,ipc,lat_ops}
mkdir -p "$out"
out=$(cd "$out" && pwd)
# copies: a rebuild while the experiment runs must not change the binary under it
cp bin/plumb "$out/plumb" && cp bin/slowsys "$out/slowsys" || exit 2
P=$out/plumb
S=$out/slowsys
: >"$out/sessions.txt"
i=1
while [ "$i" -le "$N" ]; do
	for kind in aa slow; do
		if [ "$kind" = aa ]; then b=$P; else b="$S 1:$LEN $P"; fi
		# the design that goes first alternates between repetitions
		if [ $((i % 2)) -eq 1 ]; then designs="alt duet"; else designs="duet alt"; fi
		for d in $designs; do
			if [ "$d" = duet ]; then dflag=--duet; else dflag=; fi
			load=$(cut -d' ' -f1-3 /proc/loadavg)
			t0=$(date +%s)
			# shellcheck disable=SC2086
			"$P" ab $FLAGS $dflag --repeat "$R" --time-limit 0 --b "$b" --no-store \
				--format csv >"$out/$kind-$d-$i.csv" 2>"$out/$kind-$d-$i.err"
			echo "$kind $d $i rc=$? load=[$load] $(($(date +%s) - t0))s" >>"$out/sessions.txt"
		done
	done
	i=$((i + 1))
done
# Summary: one line per design and kind.
summarize() {
	kind=$1 d=$2
	for f in "$out/$kind-$d"-*.csv; do
		[ -s "$f" ] || continue
		# rows of side B: the interval judged on (at equal clock when the verdict was)
		awk -F, -v file="$f" 'NR > 1 && $5 == "B" && $12 != "" {
			lo = $12; hi = $13
			if ($17 == 1 && $15 != "") { lo = $15; hi = $16 }
			hw = (log(1 + hi / 100) - log(1 + lo / 100)) / 2 * 100
			fam = $1; sub(/\..*/, "", fam)
			if (fam ~ /^lat_(pipe|unix|fifo|fcntl|sem)$/) fam = "ipc"
			print file, fam, hw, $20 }' "$f"
	done | awk -v kind="$kind" -v d="$d" '
		function median(a, n,   i, j, t) {
			for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
			return n ? (n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2) : -1 }
		{ k = $2; n[k]++; v[k, n[k]] = $3; all[++na] = $3
		  if ($4 == "worse" || $4 == "better") { flagged[k]++; fl++ }
		  if ($4 == "worse" && k == "lat_syscall") sysworse++
		  if (k == "lat_syscall") sysrows++
		  files[$1] = 1 }
		END { ns = 0; for (f in files) ns++
		  printf "%-5s %-5s sessions=%d rows=%d median half-width %.1f %%", kind, d, ns, na, median(all, na)
		  split("lat_syscall ipc lat_ops", ks, " ")
		  for (x = 1; x <= 3; x++) { k = ks[x]; m = 0; for (j = 1; j <= n[k]; j++) t[++m] = v[k, j]
		    printf "; %s %.1f %%", k, median(t, m); delete t }
		  printf "; rows worse/better: %d", fl
		  if (kind == "slow") printf " (lat_syscall worse: %d of %d)", sysworse, sysrows
		  printf "\n" }'
}
{
	echo "bench/duet.sh: N=$N R=$R LEN=$LEN FLAGS=$FLAGS; $(nproc) CPUs, $(uname -r)"
	echo "load average (1, 5, 15 min) before each session: $(sed 's/.*load=\[\([^]]*\)\].*/\1/' "$out/sessions.txt" | awk '{ s += $1; if ($1 > mx) mx = $1; if (mn == "" || $1 < mn) mn = $1 } END { printf "1-min %.1f-%.1f, mean %.1f", mn, mx, s / NR }')"
	for kind in aa slow; do
		for d in alt duet; do summarize "$kind" "$d"; done
	done
	grep -h "^ab: sequential session" "$out"/*-duet-1.err "$out"/*-alt-1.err 2>/dev/null | head -4
} | tee "$out/figures.txt"
rm -f "$out/plumb" "$out/slowsys"
