#!/bin/sh
# side-by-side.sh — plumb's lmbench figures next to lmbench 3's and STREAM's own, on this machine,
# in the same minutes: each command runs as alternating pairs (plumb then lmbench, lmbench then
# plumb, ...) with the same arguments and sizes, quiet and beside a CPU hog this script starts and
# kills. Prints per figure the median of each side, the median of the pairs' ratios plumb/lmbench
# and their range. Nothing is fetched or built here: give the two builds made outside the project.
#
#   sh bench/lmbench/side-by-side.sh [PAIRS] [OUTDIR]        (default 3 pairs, bench/out/lmbench)
#   sh bench/lmbench/side-by-side.sh --table RAW.tsv...       (the table of earlier runs' pairs)
#
# Environment:
#   PLUMB_BIN      plumb's bin directory (default bin; its lmbench names are used)
#   LMBENCH_BIN    lmbench 3's binaries (default $PLUMB_LMBENCH_SRC/bin/<its OS dir>)
#   STREAM_BIN     McCalpin's stream.c built (e.g. gcc -O3 -DSTREAM_ARRAY_SIZE=10000000);
#                  its three arrays are STREAM_MB MB together (default 240), plumb's -M the same
#   FIGURES        words: only the commands whose text contains one (default: all but lat_ops,
#                  whose lmbench run takes minutes on a busy guest; FIGURES=lat_ops runs it)
#   MODES          "quiet hog" (default), or one of them
set -u
# the table: per figure and mode, each side's median, the median of the pairs' ratios, range
table() {
	sort -t"$(printf '\t')" -k2,2 -k1,1r -s "$@" | awk -F'\t' '
function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
# a pair whose lmbench figure is 0 (its integer add, folded by its compiler) has no ratio
function flush(   i, k, r, lo, hi) { if (n == 0) return; k = 0
	for (i = 1; i <= n; i++) if (l[i] > 0) r[++k] = p[i] / l[i]
	if (k == 0) { printf "| %s | %s | %.4g | %.4g | lmbench 0 | | %d |\n", f, m, med(p, n), med(l, n), n; n = 0; return }
	lo = hi = r[1]; for (i = 2; i <= k; i++) { if (r[i] < lo) lo = r[i]; if (r[i] > hi) hi = r[i] }
	printf "| %s | %s | %.4g | %.4g | %.2f | %.2f–%.2f | %d |\n", f, m, med(p, n), med(l, n), med(r, k), lo, hi, n; n = 0 }
{ if ($2 != f || $1 != m) { flush(); f = $2; m = $1 } n++; p[n] = $4; l[n] = $5 }
END { flush() }'
}
if [ "${1:-}" = --table ]; then
	shift
	echo "| figure | mode | plumb | lmbench 3 | ratio (median of pairs) | range | pairs |"
	echo "|---|---|---|---|---|---|---|"
	table "$@"
	exit
fi
PAIRS=${1:-3}
OUT=${2:-bench/out/lmbench}
PB=${PLUMB_BIN:-bin}
SRC=${PLUMB_LMBENCH_SRC:-}
LB=${LMBENCH_BIN:-}
if [ -z "$LB" ] && [ -n "$SRC" ]; then
	for d in "$SRC"/bin/*; do [ -x "$d/bw_mem" ] && LB=$d && break; done
fi
STREAM_MB=${STREAM_MB:-240}
MODES=${MODES:-quiet hog}
case $PAIRS in '' | *[!0-9]* | 0) echo "side-by-side.sh: PAIRS must be a whole number > 0" >&2; exit 2 ;; esac
[ -x "$PB/bw_mem" ] || { echo "side-by-side.sh: no plumb build in $PB (make first)" >&2; exit 2; }
[ -n "$LB" ] && [ -x "$LB/bw_mem" ] || {
	echo "side-by-side.sh: no lmbench 3 build: set LMBENCH_BIN or PLUMB_LMBENCH_SRC" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
HOG=
cleanup() {
	[ -n "$HOG" ] && kill "$HOG" 2>/dev/null
	"$LB/bw_tcp" -S 127.0.0.1 >/dev/null 2>&1
	"$LB/lat_tcp" -S 127.0.0.1 >/dev/null 2>&1
	rm -f "$OUT/p.out" "$OUT/l.out"
}
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

# figure | command (both sides, tool name first; @stream = plumb stream vs STREAM) | what to read
#   f2: the 2nd field of the last line; "LABEL": the number after "LABEL:"; ctx N: the line "N v"
FIGS="bw_mem 64m fwr|bw_mem 64m fwr|f2
bw_mem 64m frd|bw_mem 64m frd|f2
bw_mem 64m fwr (plumb --lmbench-loop)|bw_mem 64m fwr ++--lmbench-loop|f2
bw_mem 64m frd (plumb --lmbench-loop)|bw_mem 64m frd ++--lmbench-loop|f2
bw_mem 64m fcp|bw_mem 64m fcp|f2
bw_mem 64m rd|bw_mem 64m rd|f2
bw_mem 64m wr|bw_mem 64m wr|f2
bw_mem 64m cp|bw_mem 64m cp|f2
bw_mem 64m bcopy|bw_mem 64m bcopy|f2
bw_mem 64m bzero|bw_mem 64m bzero|f2
lat_syscall null|lat_syscall null|Simple syscall
lat_syscall read|lat_syscall read|Simple read
lat_sig catch|lat_sig catch|Signal handler overhead
lat_pipe|lat_pipe|Pipe latency
lat_pipe (plumb --cpu none)|lat_pipe ++--cpu ++none|Pipe latency
lat_unix|lat_unix|AF_UNIX sock stream latency
lat_ctx -s 16 2|lat_ctx -s 16 2|ctx 2
lat_ctx -s 16 2 (plumb --cpu none)|lat_ctx -s 16 2 ++--cpu ++none|ctx 2
lat_proc fork|lat_proc fork|Process fork+exit
lat_proc fork (plumb --cpu none)|lat_proc fork ++--cpu ++none|Process fork+exit
bw_unix|bw_unix|f2
bw_tcp (loopback)|@server bw_tcp|f2
bw_tcp (loopback, plumb --cpu none)|@server bw_tcp ++--cpu ++none|f2
lat_tcp (loopback)|@server lat_tcp|TCP latency using 127.0.0.1
stream copy (plumb NT)|@stream|Copy
stream triad (plumb NT)|@stream|Triad
stream copy (--no-nt)|@stream --no-nt|Copy
stream triad (--no-nt)|@stream --no-nt|Triad
lat_ops integer bit|lat_ops|integer bit
lat_ops int64 bit|lat_ops|int64 bit
lat_ops integer add|lat_ops|integer add
lat_ops integer mul|lat_ops|integer mul
lat_ops double add|lat_ops|double add"

# run one side of a command: $1 = p or l, $2 = command; output (stdout+stderr) on stdout
side() {
	who=$1; shift
	case $1 in
	@server)
		t=$2
		# plumb runs its own loopback server; "++WORD" words go to plumb only
		if [ "$who" = p ]; then shift 2; "$PB/$t" $(printf '%s\n' "$@" | sed 's/^++//') 2>&1; return; fi
		"$LB/$t" -s >/dev/null 2>&1; sleep 0.3
		"$LB/$t" 127.0.0.1 2>&1
		"$LB/$t" -S 127.0.0.1 >/dev/null 2>&1 ;;
	@stream)
		shift
		if [ "$who" = p ]; then
			"$PB/stream" -M "${STREAM_MB}m" "$@" 2>&1 |
				awk '/bandwidth/ { n = $2; printf "%s%s: %s\n", toupper(substr(n, 1, 1)), substr(n, 2), $4 }'
		else
			[ -x "${STREAM_BIN:-}" ] && "$STREAM_BIN" 2>&1 | awk '/^(Copy|Scale|Add|Triad):/ { print $1, $2 }'
		fi ;;
	*)
		t=$1; shift
		# "++WORD" words go to plumb only (a placement or loop that lmbench does not have)
		args= extra=
		while [ $# -gt 0 ]; do
			case $1 in ++*) extra="$extra ${1#++}" ;; *) args="$args $1" ;; esac
			shift
		done
		if [ "$who" = p ]; then "$PB/$t" $extra $args 2>&1; else "$LB/$t" $args 2>&1; fi ;;
	esac
}

value() { # $1 = what to read, output on stdin
	case $1 in
	f2) awk 'NF >= 2 && $1 ~ /^[0-9.]+$/ { v = $2 } END { if (v != "") print v }' ;;
	"ctx "*) awk -v n="${1#ctx }" '$1 == n && NF == 2 { v = $2 } END { if (v != "") print v }' ;;
	*) awk -v l="$1:" 'index($0, l) == 1 { s = substr($0, length(l) + 1); split(s, a, " ");
		v = a[1] } END { if (v != "") print v }' ;;
	esac
}

RAW=$OUT/raw.tsv
: >"$RAW"
CMDS=$(printf '%s\n' "$FIGS" | awk -F'|' '!seen[$2]++ { print $2 }')
for mode in $MODES; do
	if [ "$mode" = hog ]; then
		sh -c 'while :; do :; done' &
		HOG=$!
	fi
	printf '%s\n' "$CMDS" | while IFS= read -r cmd; do
		if [ -n "${FIGURES:-}" ]; then
			hit=0
			for w in $FIGURES; do case $cmd in *"$w"*) hit=1 ;; esac; done
			[ $hit = 1 ] || continue
		else
			case $cmd in lat_ops*) continue ;; esac
		fi
		case $cmd in @stream*) [ -x "${STREAM_BIN:-}" ] || continue ;; esac
		i=1
		while [ $i -le "$PAIRS" ]; do
			# the order alternates: odd pairs plumb first, even pairs lmbench first
			if [ $((i % 2)) = 1 ]; then
				side p $cmd >"$OUT/p.out"; side l $cmd >"$OUT/l.out"
			else
				side l $cmd >"$OUT/l.out"; side p $cmd >"$OUT/p.out"
			fi
			printf '%s\n' "$FIGS" | awk -F'|' -v c="$cmd" '$2 == c { print $1 "|" $3 }' |
			while IFS='|' read -r fig what; do
				pv=$(value "$what" <"$OUT/p.out"); lv=$(value "$what" <"$OUT/l.out")
				[ -n "$pv" ] && [ -n "$lv" ] && printf '%s\t%s\t%d\t%s\t%s\n' "$mode" "$fig" "$i" "$pv" "$lv" >>"$RAW"
			done
			i=$((i + 1))
		done
		echo "done: $mode $cmd" >&2
	done
	if [ -n "$HOG" ]; then kill "$HOG" 2>/dev/null; wait "$HOG" 2>/dev/null; HOG=; fi
done

echo "# $(uname -n) $(date -u '+%Y-%m-%d %H:%M UTC') $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), pairs $PAIRS"
echo "| figure | mode | plumb | lmbench 3 | ratio (median of pairs) | range | pairs |"
echo "|---|---|---|---|---|---|---|"
table "$RAW"
