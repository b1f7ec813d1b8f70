#!/bin/sh
# compare.sh — plumb's memory tools against reference loops and perf, side by side in one run.
# Run from the repository root after `make`:  sh bench/mem/compare.sh [ROUNDS]
# Builds bench/mem/stream_ref.c and chase_ref.c with -O3 -march=native (OpenMP for the
# all-cores STREAM), then alternates plumb and the reference ROUNDS times (default 3) and prints
# medians and ratios. Needs perf (Debian's linux-perf) for the memcpy/memset comparison.
set -u
ROUNDS=${1:-3}
P=${PLUMB:-bin/plumb}
W=$(mktemp -d "${TMPDIR:-/tmp}/plumb-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
CC=${CC:-cc}
$CC -O3 -march=native -Wno-unknown-pragmas bench/mem/stream_ref.c -o "$W/stream_ref" -lm || exit 2
$CC -O3 -march=native -fopenmp bench/mem/stream_ref.c -o "$W/stream_ref_omp" -lm || exit 2
$CC -O3 -march=native bench/mem/chase_ref.c -o "$W/chase_ref" || exit 2
NEL=${NEL:-80000000}            # elements per STREAM array (the issue's McCalpin figures)
MBYTES=$((NEL * 24))            # plumb's -M: bytes of the three arrays
BW=${BW:-268435456}             # bw_mem / perf size (256 MiB)
LAT=${LAT:-256}                 # MiB for the random chase
NCPU=$(getconf _NPROCESSORS_ONLN)
rec() { echo "$1 $2" >>"$W/vals"; }   # name value
for r in $(seq "$ROUNDS"); do
	$P stream -M $MBYTES >"$W/s1" 2>&1
	rec plumb_copy_1t "$(awk '/copy bandwidth/ { print $4 }' "$W/s1")"
	rec plumb_triad_1t "$(awk '/triad bandwidth/ { print $4 }' "$W/s1")"
	"$W/stream_ref" $NEL >"$W/r1"
	rec ref_copy_1t "$(awk '/^Copy:/ { print $2 }' "$W/r1")"
	rec ref_triad_1t "$(awk '/^Triad:/ { print $2 }' "$W/r1")"
	$P stream -M $MBYTES --threads all >"$W/s2" 2>&1
	rec plumb_copy_all "$(awk '/copy bandwidth/ { print $4 }' "$W/s2")"
	rec plumb_triad_all "$(awk '/triad bandwidth/ { print $4 }' "$W/s2")"
	OMP_NUM_THREADS=$NCPU OMP_PROC_BIND=true "$W/stream_ref_omp" $NEL >"$W/r2"
	rec ref_copy_all "$(awk '/^Copy:/ { print $2 }' "$W/r2")"
	rec ref_triad_all "$(awk '/^Triad:/ { print $2 }' "$W/r2")"
	rec plumb_bcopy "$($P bw_mem $BW bcopy 2>&1 | awk '/^[0-9]/ { print $2 }')"
	rec perf_memcpy "$(perf bench mem memcpy -f default -s $BW -l 10 2>/dev/null | awk '/GB\/sec/ { printf "%.2f", $1 * 1073.741824 }')"
	rec plumb_bzero "$($P bw_mem $BW bzero 2>&1 | awk '/^[0-9]/ { print $2 }')"
	rec perf_memset "$(perf bench mem memset -f default -s $BW -l 10 2>/dev/null | awk '/GB\/sec/ { printf "%.2f", $1 * 1073.741824 }')"
	rec plumb_rand_4k "$($P lat_mem_rd -t $LAT 2>&1 | awk '/^[0-9]/ { v = $2 } END { print v }')"
	rec ref_whole_4k "$("$W/chase_ref" whole $LAT 4k)"
	rec plumb_rand_thp "$($P lat_mem_rd -t --pages thp $LAT 2>&1 | awk '/^[0-9]/ { v = $2 } END { print v }')"
	rec ref_whole_thp "$("$W/chase_ref" whole $LAT thp)"
	rec ref_block_4k "$("$W/chase_ref" block $LAT 4k)"
	rec plumb_l1_ns "$($P lat_mem_rd -t 0.03125 2>&1 | awk '/^0\.00781 / { print $2 }')"
	rec mhz "$("$W/chase_ref" mhz)"
done
med() { awk -v k="$1" '$1 == k && $2 != "" { print $2 }' "$W/vals" | sort -g |
	awk '{ v[++n] = $1 } END { if (n) print (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'; }
row() { # label plumb-key ref-key unit
	a=$(med "$2"); b=$(med "$3")
	printf "%-34s %10s %10s %6s  %s\n" "$1" "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b }')" "$4"
}
echo "medians of $ROUNDS alternated rounds ($(date -u +%FT%TZ), $(uname -m), $NCPU CPUs)"
printf "%-34s %10s %10s %6s\n" "" plumb reference ratio
row "STREAM copy, 1 thread" plumb_copy_1t ref_copy_1t "MB/s (ref: stream_ref $NEL)"
row "STREAM triad, 1 thread" plumb_triad_1t ref_triad_1t "MB/s"
row "STREAM copy, all CPUs" plumb_copy_all ref_copy_all "MB/s (ref: OpenMP $NCPU threads)"
row "STREAM triad, all CPUs" plumb_triad_all ref_triad_all "MB/s"
row "bw_mem bcopy vs perf memcpy" plumb_bcopy perf_memcpy "MB/s ($BW bytes)"
row "bw_mem bzero vs perf memset" plumb_bzero perf_memset "MB/s (perf sets nonzero bytes)"
row "lat_mem_rd -t $LAT MiB, 4 KiB pages" plumb_rand_4k ref_whole_4k "ns (ref: whole-buffer cycle)"
row "lat_mem_rd -t $LAT MiB, THP" plumb_rand_thp ref_whole_thp "ns"
row "  same vs 256 KiB-block chase" plumb_rand_4k ref_block_4k "ns (multichase-like order)"
l1=$(med plumb_l1_ns); mhz=$(med mhz)
echo "L1 latency: $l1 ns = $(awk -v a="$l1" -v m="$mhz" 'BEGIN { printf "%.1f", a * m / 1000 }') cycles at $mhz MHz (dependent-add clock)"
echo "tool run times (default arguments):"
for t in "lat_mem_rd" "lat_mem_rd -t" "stream" "tlb" "par_mem" "line" "cache"; do
	s=$(date +%s.%N); $P $t >/dev/null 2>&1; e=$(date +%s.%N)
	printf "  %-16s %6.1f s\n" "$t" "$(echo "$e - $s" | bc)"
done
