# honesty.sh — figures that say exactly what they are (issue 14): procedure and fork against
# independent reference loops (bin/refloop, no plumb code), fault counts of lat_mmap and
# lat_pagefault, the summary's explanatory lines, method versions, docs/metrics.md.
# Ratio bounds only, never speeds: both sides are timed the same way, interleaved, so a busy
# machine moves both.
. tests/lib.sh
REF="$BIN/refloop"

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# value (the statistic) of the first result in a JSON document
jval() { sed -n 's/^ *"value": \([-0-9.e+]*\),\{0,1\}$/\1/p' "$1" | head -n1; }
# info value of KEY in a JSON document (first result)
jinfo() { sed -n "s/^ *\"$2\": \"\\([^\"]*\\)\",\\{0,1\\}\$/\\1/p" "$1" | head -n1; }
within() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { r = a / b; exit !(b > 0 && r >= 1 - f && r <= 1 + f) }'; }

# ---- procedure and fork against the reference loops: 7 interleaved rounds, medians, 15 % ----
# Both on the same CPU (the last online one) when taskset exists, else both unpinned.
CPU=none; PIN=
if command -v taskset >/dev/null 2>&1; then
	CPU=$(($(getconf _NPROCESSORS_ONLN) - 1)); PIN="taskset -c $CPU"
	$PIN true 2>/dev/null || { CPU=none; PIN=; }
fi
if [ ! -x "$REF" ]; then
	fail honesty/refloop-built "bin/refloop missing (make test builds it)"
else
	for mode in procedure fork; do
		: >"$T/p.$mode"; : >"$T/r.$mode"
		rmode=call; [ $mode = fork ] && rmode=fork
		for i in 1 2 3 4 5 6 7; do
			"$PLUMB" lat_proc --cpu $CPU -N 5 --json $mode >"$T/pj" 2>/dev/null
			jval "$T/pj" | awk '{ print $1 * 1000 }' >>"$T/p.$mode" # us -> ns
			$PIN "$REF" $rmode 5 >>"$T/r.$mode"
		done
		p=$(median <"$T/p.$mode"); r=$(median <"$T/r.$mode")
		if within "$p" "$r" 0.15; then pass "honesty/$mode-matches-independent-loop"
		else fail "honesty/$mode-matches-independent-loop" "plumb $p ns, reference $r ns (rounds: $(tr '\n' ' ' <"$T/p.$mode")/ $(tr '\n' ' ' <"$T/r.$mode"))"; fi
	done
fi
