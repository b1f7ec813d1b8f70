#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# compare.sh — `plumb compare` from the command line: bad arguments (one line, exit 2), then,
# once the run reader exists, hand-written plumb JSON runs: a run against itself, a known 20 %
# shift in both directions, --fail-on-regression, formats, facts warnings, an imported lmbench
# file ("no test"). The statistics themselves are unit-tested (tests/unit/compare_test.c).
. tests/lib.sh

expect_usage "compare: no run" "$PLUMB" compare
expect_usage "compare: one run" "$PLUMB" compare only-one.json
expect_usage "compare: bad alpha" "$PLUMB" compare --alpha 2 a b
expect_usage "compare: alpha not a number" "$PLUMB" compare --alpha x a b
expect_usage "compare: bad min-effect" "$PLUMB" compare --min-effect -1 a b
expect_usage "compare: bad correction" "$PLUMB" compare --correction bonferroni a b
expect_usage "compare: bad format" "$PLUMB" compare --format xml a b
expect_usage "compare: unknown option" "$PLUMB" compare --frobnicate a b
expect_usage "compare: missing file" "$PLUMB" compare "$T/nope.json" "$T/nope2.json"

# gen_run FILE SEED SCALE GOVERNOR [CLOCK_MHZ [AB_SESSION]]: a plumb JSON run, 8 rounds of 3
# samples per point.
# lat_syscall.null and lat_mem_rd.rand (lower is better) are multiplied by SCALE, bw_mem.frd
# (higher is better) too, so SCALE 1.2 = latency worse, bandwidth better.
gen_run() {
	awk -v seed="$2" -v scale="$3" -v gov="$4" -v clk="${5:-}" -v ab="${6:-}" '
	function point(metric, params, x, center, unit, stat, better,   r, s, v, first) {
		printf "%s    {\"metric\": \"%s\", \"params\": {%s}, \"x\": %s, \"value\": %.6g, \"unit\": \"%s\", \"statistic\": \"%s\", \"better\": \"%s\", \"method_version\": 1, \"info\": {\"placement\": \"single:1\"}, \"samples\": [", sep, metric, params, x, center, unit, stat, better
		first = 1
		for (r = 0; r < 8; r++) {
			rv = center * (1 + 0.04 * (rand() - 0.5))
			for (s = 0; s < 3; s++) {
				v = rv * (1 + 0.005 * s)
				printf "%s{\"value\": %.6g, \"iters\": 1000, \"elapsed_ns\": %.0f, \"round\": %d}", first ? "" : ", ", v, v * 1000, r
				first = 0
			}
		}
		printf "]}"
		sep = ",\n"
	}
	BEGIN {
		srand(seed)
		printf "{\n  \"schema\": \"plumb/1\", \"kind\": \"run\", \"plumb_version\": \"0.1.0\",\n"
		printf "  \"run\": {\"id\": null, \"label\": \"t%s\", \"host\": \"vm\", \"profile\": \"quick\", \"started\": \"2026-11-30T04:00:00Z\", \"ended\": \"2026-11-30T04:05:00Z\", \"incomplete\": false, \"rounds\": 8, \"options\": {}},\n", seed
		printf "  \"system\": {\"hostname\": \"vm\", \"cpu_model\": \"Test CPU\", \"governor\": \"%s\", \"smt\": \"0\", \"cache_l1d\": \"49152\", \"cache_l2\": \"1048576\", \"cache_l3\": \"33554432\"%s},\n", gov, clk == "" ? "" : ", \"clock_mhz\": \"" clk "\""
		printf "  \"facts\": {%s},\n  \"results\": [\n", ab == "" ? "" : "\"ab_session\": \"" ab "\""
		sep = ""
		point("lat_syscall.null", "", "null", 0.13 * scale, "us", "median", "lower")
		point("lat_mem_rd.rand", "\"stride\": \"16\"", 64, 95 * scale, "ns", "min", "lower")
		point("bw_mem.frd", "", 64, 9000 * scale, "MB/s", "median", "higher")
		printf "\n  ]\n}\n"
	}' >"$1"
}

gen_run "$T/a.json" 1 1 performance
gen_run "$T/a2.json" 2 1 performance
# separate files know nothing of the host's run-to-run noise: the default table is assumed
# (5-12 %), so the shifted run is twice as slow
gen_run "$T/b.json" 3 2 powersave

"$PLUMB" compare --wide "$T/a.json" "$T/a.json" >"$T/self.out" 2>"$T/self.err"
rc=$?
if grep -q "not implemented" "$T/self.err"; then
	for n in self shift fail-on-regression csv json markdown warning lmbench-notest "three sides" report plot; do
		skip "compare: $n" "run reader not available yet"
	done
	exit 0
fi

if [ $rc -eq 0 ] && grep -q 'lat_syscall.null' "$T/self.out" && ! grep -Eq '(worse|better) \(p=' "$T/self.out"; then
	pass "compare: self"
else
	fail "compare: self" "rc=$rc $(head -c 300 "$T/self.out" "$T/self.err")"
fi

"$PLUMB" compare --wide "$T/a.json" "$T/b.json" >"$T/shift.out" 2>"$T/shift.err"
rc=$?
lat=$(grep '^lat_syscall.null' "$T/shift.out")
bw=$(grep '^bw_mem.frd' "$T/shift.out")
case "$lat|$bw" in
*worse*"|"*better*) pass "compare: shift" ;;
*) fail "compare: shift" "rc=$rc lat='$lat' bw='$bw'" ;;
esac

# item 7 of issue 11: every row has its change with a 95 % interval, the noise it assumed, and a
# verdict word exactly once; "no significant change" rows say what they could have detected
bad=$(grep -E '^(lat_|bw_)' "$T/shift.out" "$T/self.out" | while IFS= read -r l; do
	n=$(printf '%s\n' "$l" | grep -oE 'worse|better|same|no significant change|no test' | wc -l)
	printf '%s\n' "$l" | grep -Eq '[+-][0-9.]+% \[[+-][0-9.]+, [+-][0-9.]+\]' || n=x
	printf '%s\n' "$l" | grep -q 'default ±' || n=y
	case "$l" in *"no significant change"*) printf '%s\n' "$l" | grep -Eq '±[0-9.]+% +default' || n=z ;; esac
	[ "$n" = 1 ] || printf '%s\n' "$l"
done)
if [ -z "$bad" ] && tail -n1 "$T/shift.out" | grep -Eq '^[0-9]+ worse, [0-9]+ better, [0-9]+ no significant change, [0-9]+ no test'
then pass "compare: row format"; else fail "compare: row format" "$bad $(tail -n1 "$T/shift.out")"; fi

"$PLUMB" compare --fail-on-regression "$T/a.json" "$T/b.json" >/dev/null 2>&1
rc1=$?
"$PLUMB" compare --fail-on-regression "$T/a.json" "$T/a2.json" >/dev/null 2>&1
rc0=$?
if [ $rc1 -eq 1 ] && [ $rc0 -eq 0 ]; then pass "compare: fail-on-regression"
else fail "compare: fail-on-regression" "worse → $rc1 (want 1), same → $rc0 (want 0)"; fi

# a worse point between two machines (another CPU model), or beside a run made beside other
# work, is no regression of a change: exit 4 and one line why, never 1 (docs/compare.md)
sed 's/"cpu_model": "Test CPU"/"cpu_model": "Other CPU"/' "$T/b.json" >"$T/b-foreign.json"
sed 's/"smt": "0"/"smt": "0", "contended_steps": "round 1\/8: lat_syscall null (others 80%, steal 0%)"/' \
	"$T/b.json" >"$T/b-busy.json"
for k in foreign:'different machines (CPU model differs' busy:'ran beside other work'; do
	f=${k%%:*}; want=${k#*:}
	"$PLUMB" compare --fail-on-regression "$T/a.json" "$T/b-$f.json" >/dev/null 2>"$T/nj.err"
	rc=$?
	if [ $rc -eq 4 ] && [ "$(grep -c -- "--fail-on-regression: .*$want.*(exit 4)" "$T/nj.err")" -eq 1 ]
	then pass "compare: fail-on-regression, $f side: exit 4"
	else fail "compare: fail-on-regression, $f side: exit 4" "rc=$rc $(tail -n 2 "$T/nj.err")"; fi
	"$PLUMB" trend --fail-on-regression "$T/a.json" "$T/a2.json" "$T/b-$f.json" >"$T/nj.out" 2>"$T/nj.err"
	rc=$?
	if [ $rc -eq 4 ] && grep -q -- "--fail-on-regression: .*$want.*(exit 4)" "$T/nj.err"
	then pass "trend: fail-on-regression, $f run: exit 4"
	else fail "trend: fail-on-regression, $f run: exit 4" "rc=$rc $(tail -n 2 "$T/nj.err") $(tail -n 3 "$T/nj.out")"; fi
done

"$PLUMB" compare --format csv "$T/a.json" "$T/b.json" >"$T/c.csv" 2>/dev/null
if head -n1 "$T/c.csv" | grep -q '^metric,params,x,unit,side,value' && grep -q ',worse,' "$T/c.csv"
then pass "compare: csv"; else fail "compare: csv" "$(head -n3 "$T/c.csv")"; fi

"$PLUMB" compare --json "$T/a.json" "$T/b.json" >"$T/c.json" 2>/dev/null
if grep -q '"kind": "compare"' "$T/c.json" && grep -q '"regressions": 2' "$T/c.json"
then pass "compare: json"; else fail "compare: json" "$(head -c 300 "$T/c.json")"; fi

"$PLUMB" compare --format markdown "$T/a.json" "$T/b.json" >"$T/c.md" 2>/dev/null
if grep -q '^| metric' "$T/c.md" && grep -q '^| ---' "$T/c.md"
then pass "compare: markdown"; else fail "compare: markdown" "$(head -n5 "$T/c.md")"; fi

if grep -q 'warning: governor differs' "$T/shift.err" && [ "$(grep -c warning "$T/shift.err")" -eq 1 ]
then pass "compare: warning"; else fail "compare: warning" "$(cat "$T/shift.err")"; fi

# the CPU clock each side's runs read (plumb run's clock_mhz fact): a difference over 1 % is
# said, because every CPU-bound number moves with it; equal clocks say nothing
gen_run "$T/k1.json" 1 1 performance 4000
gen_run "$T/k2.json" 2 1 performance 4200
gen_run "$T/k3.json" 3 1 performance 4020
"$PLUMB" compare "$T/k1.json" "$T/k2.json" >/dev/null 2>"$T/k12.err"
"$PLUMB" compare "$T/k1.json" "$T/k3.json" >/dev/null 2>"$T/k13.err"
if grep -q 'CPU clock during the runs differs .*k1.json=4000 MHz; .*k2.json=4200 MHz (+5.0%)' "$T/k12.err" &&
   ! grep -q 'CPU clock' "$T/k13.err"
then pass "compare: clock warning"; else fail "compare: clock warning" "$(cat "$T/k12.err" "$T/k13.err")"; fi

# two sides of one plumb ab session (ab_session fact): rounds pair up, the noise is the pairs'
gen_run "$T/p1.json" 1 1 performance "" s1
gen_run "$T/p2.json" 1 1.1 performance "" s1
"$PLUMB" compare --wide "$T/p1.json" "$T/p2.json" >"$T/pair.out" 2>/dev/null
if grep '^lat_syscall.null' "$T/pair.out" | grep -q 'worse.*paired rounds'
then pass "compare: paired"; else fail "compare: paired" "$(cat "$T/pair.out")"; fi

# the four answers, on an A/A pair of one plumb ab session with known values (no random numbers,
# so the same on every machine): 8 rounds whose deviations are one fixed pattern, side B's
# shifted by a round, so both sides have the same mean; quiet rows (1 %) are `same` within the
# default 3 %, a noisy one (30 %) cannot be told and says "no significant change"; nothing fails
# --fail-on-regression, and every format says so.
gen_aa() {
	awk -v phase="$2" '
	function point(metric, x, center, amp, unit, better,   r, s, v, first) {
		printf "%s    {\"metric\": \"%s\", \"params\": {}, \"x\": %s, \"value\": %.6g, \"unit\": \"%s\", \"statistic\": \"median\", \"better\": \"%s\", \"method_version\": 1, \"samples\": [", sep, metric, x, center, unit, better
		first = 1
		for (r = 0; r < 8; r++) {
			rv = center * exp(amp * c[(r + phase) % 8])
			for (s = 0; s < 3; s++) {
				printf "%s{\"value\": %.6g, \"iters\": 1000, \"elapsed_ns\": %.0f, \"round\": %d}", first ? "" : ", ", rv, rv * 1000, r
				first = 0
			}
		}
		printf "]}"
		sep = ",\n"
	}
	BEGIN {
		split("0.3 -0.5 0.9 -0.2 -0.8 0.4 0.1 -0.2", cc, " ")
		for (i = 0; i < 8; i++) c[i] = cc[i + 1]
		printf "{\n  \"schema\": \"plumb/1\", \"kind\": \"run\", \"plumb_version\": \"0.1.0\",\n"
		printf "  \"run\": {\"id\": null, \"label\": \"aa%s\", \"host\": \"vm\", \"profile\": \"quick\", \"started\": \"2026-11-30T04:00:00Z\", \"ended\": \"2026-11-30T04:05:00Z\", \"incomplete\": false, \"rounds\": 8, \"options\": {}},\n", phase
		printf "  \"system\": {\"hostname\": \"vm\"},\n  \"facts\": {\"ab_session\": \"aa1\"},\n  \"results\": [\n"
		sep = ""
		point("lat_syscall.null", "null", 0.13, 0.01, "us", "lower")
		point("lat_pipe.latency", "null", 4.2, 0.01, "us", "lower")
		point("bw_mem.frd", 64, 9000, 0.3, "MB/s", "higher")
		printf "\n  ]\n}\n"
	}' >"$1"
}
gen_aa "$T/aa0.json" 0
gen_aa "$T/aa1.json" 1
"$PLUMB" compare --wide --fail-on-regression "$T/aa0.json" "$T/aa1.json" >"$T/aa.out" 2>"$T/aa.err"
rc=$?
if [ $rc -eq 0 ] && grep '^lat_syscall.null' "$T/aa.out" | grep -q ' same (p=' &&
   grep '^lat_pipe.latency' "$T/aa.out" | grep -q ' same (p=' &&
   grep '^bw_mem.frd' "$T/aa.out" | grep -q 'no significant change' &&
   tail -n1 "$T/aa.out" | grep -q '^0 worse, 0 better, 1 no significant change, 0 no test, 2 same$'
then pass "compare: a/a same"; else fail "compare: a/a same" "rc=$rc $(cat "$T/aa.out" "$T/aa.err")"; fi
"$PLUMB" compare --format csv "$T/aa0.json" "$T/aa1.json" >"$T/aa.csv" 2>/dev/null
"$PLUMB" compare --json "$T/aa0.json" "$T/aa1.json" >"$T/aa.js" 2>/dev/null
"$PLUMB" compare --format junit --fail-on-regression "$T/aa0.json" "$T/aa1.json" >"$T/aa.xml" 2>/dev/null
rcj=$?
if [ "$(grep -c ',same,' "$T/aa.csv")" -eq 2 ] && [ "$(grep -c '"verdict": "same"' "$T/aa.js")" -eq 2 ] &&
   [ $rcj -eq 0 ] && grep -q '<testsuites [^>]*failures="0"' "$T/aa.xml" && ! grep -q '<failure' "$T/aa.xml"
then pass "compare: a/a same in csv, json, junit"
else fail "compare: a/a same in csv, json, junit" "rc=$rcj $(cat "$T/aa.csv") $(head -c 400 "$T/aa.xml")"; fi

# one stored run against another: the store's earlier runs of the host give the noise (4 needed)
for i in 11 12 13 14 15 16; do gen_run "$T/h$i.json" $i 1 performance; done
if "$PLUMB" import --db "$T/h.db" "$T"/h1?.json >/dev/null 2>&1; then
	"$PLUMB" compare --wide --db "$T/h.db" 1 2 >"$T/hist.out" 2>/dev/null
	"$PLUMB" compare --wide "$T/h11.json" "$T/h12.json" >"$T/nohist.out" 2>/dev/null
	if grep '^lat_syscall.null' "$T/hist.out" | grep -q 'history 4 runs' &&
	   grep '^lat_syscall.null' "$T/nohist.out" | grep -q 'default ±'
	then pass "compare: history noise"; else fail "compare: history noise" "$(cat "$T/hist.out")"; fi
else
	skip "compare: history noise" "no store (built without SQLite)"
fi

# an lmbench raw results file has one value per metric: change shown, "no test"
cat >"$T/lm.txt" <<'LM'
[lmbench3.0 results for Linux vm 6.1.0 #1 SMP x86_64 GNU/Linux]
[LMBENCH_VER: ]
[MHZ: 2600 MHz, 0.3846 nanosec clock]
[OS: x86_64-linux-gnu]
Simple syscall: 0.1500 microseconds
LM
"$PLUMB" compare "$T/lm.txt" "$T/a.json" >"$T/lm.out" 2>"$T/lm.err"
if grep '^lat_syscall.null' "$T/lm.out" | grep -Eq 'no test|method differs'; then
	pass "compare: lmbench-notest"
else
	fail "compare: lmbench-notest" "$(head -c 400 "$T/lm.out" "$T/lm.err")"
fi

# bw_mem frd is plumb's vector loop (method 1), lmbench's a scalar one: against an imported
# lmbench file, and against `bw_mem --lmbench-loop` (method 2), the row is shown, never judged
cat >"$T/lmfrd.txt" <<'LM'
[lmbench3.0 results for Linux vm 6.1.0 #1 SMP x86_64 GNU/Linux]
[MHZ: 2600 MHz, 0.3846 nanosec clock]
[OS: x86_64-linux-gnu]

Memory read bandwidth
64.00 5000.00

LM
"$PLUMB" compare "$T/lmfrd.txt" "$T/a.json" >"$T/lmfrd.out" 2>"$T/lmfrd.err"
if grep '^bw_mem.frd' "$T/lmfrd.out" | grep -q 'method differs' &&
   grep -q 'different method version' "$T/lmfrd.out" "$T/lmfrd.err"
then pass "compare: lmbench-frd-method-differs"
else fail "compare: lmbench-frd-method-differs" "$(head -c 400 "$T/lmfrd.out" "$T/lmfrd.err")"; fi
sed '/"bw_mem.frd"/s/"method_version": 1/"method_version": 2/' "$T/a2.json" >"$T/a2lm.json"
"$PLUMB" compare "$T/a.json" "$T/a2lm.json" >"$T/lmloop.out" 2>&1
if grep '^bw_mem.frd' "$T/lmloop.out" | grep -q 'method differs' &&
   ! grep '^lat_syscall.null' "$T/lmloop.out" | grep -q 'method differs'
then pass "compare: lmbench-loop-method-differs"
else fail "compare: lmbench-loop-method-differs" "$(head -c 400 "$T/lmloop.out")"; fi

# summary says where its Mem read is plumb's vector loop, and only there
"$PLUMB" summary "$T/a.json" >"$T/sum-vec" 2>&1
"$PLUMB" summary "$T/a2lm.json" >"$T/sum-lm" 2>&1
"$PLUMB" summary "$T/lmfrd.txt" >"$T/sum-file" 2>&1
if grep -q '^Bcopy (hand), Mem read, Mem write: .*--lmbench-loop' "$T/sum-vec" &&
   ! grep -q 'Mem read, Mem write:' "$T/sum-lm" "$T/sum-file"
then pass "compare: summary-vector-loop-line"
else fail "compare: summary-vector-loop-line" "$(grep -c 'Mem write:' "$T/sum-vec" "$T/sum-lm" "$T/sum-file" | tr '\n' ' ')"; fi

# the rows' notes under the tables: each once, in the tables' order (process and context
# switch before the integer ops, memory last), the one-CPU note only where plumb pinned
notes_run() { # FILE PLACEMENT
	awk -v pl="$2" 'function r(m, x, v, u) {
		printf "%s{\"metric\": \"%s\", \"params\": {}, \"x\": %s, \"value\": %s, \"unit\": \"%s\", \"method_version\": 1, \"info\": {\"placement\": \"%s\"}}", sep, m, x, v, u, pl
		sep = ",\n"
	}
	BEGIN {
		printf "{\"schema\": \"plumb/1\", \"kind\": \"run\", \"run\": {\"label\": \"n\", \"host\": \"h\", \"source\": \"plumb\"},\n\"results\": [\n"
		r("bw_mem.frd", 134.217728, 13970.5, "MB/s"); r("bw_mem.fwr", 134.217728, 9000.1, "MB/s")
		r("lat_ops.integer_bit", "null", 0.27, "ns"); r("lat_pipe.latency", "null", 5.1, "us")
		r("lat_unix.latency", "null", 9.7, "us")
		printf "\n]}\n"
	}' >"$1"
}
notes_run "$T/notes1.json" single:1
notes_run "$T/notes0.json" none
"$PLUMB" summary "$T/notes1.json" >"$T/notes1.out" 2>&1
"$PLUMB" summary "$T/notes0.json" >"$T/notes0.out" 2>&1
order=$(grep -o '^\(ctxsw\|intgr bit\|Bcopy (hand)\),' "$T/notes1.out" | tr '\n' ' ')
if [ "$order" = "ctxsw, intgr bit, Bcopy (hand), " ] &&
   grep -q '^intgr bit, int64 bit: ' "$T/notes0.out" && ! grep -q '^ctxsw, ' "$T/notes0.out"
then pass "compare: summary-notes-once-in-table-order"
else fail "compare: summary-notes-once-in-table-order" "order '$order'; $(tail -n 8 "$T/notes1.out")"; fi

# three sides at once: a, a2 (same) and b (shifted)
"$PLUMB" compare --wide "$T/a.json" "$T/a2.json" "$T/b.json" >"$T/three.out" 2>/dev/null
if grep '^lat_syscall.null' "$T/three.out" | grep -q 'no significant change.*worse'
then pass "compare: three sides"; else fail "compare: three sides" "$(head -n6 "$T/three.out")"; fi

"$PLUMB" report "$T/a.json" "$T/b.json" -o "$T/r.html" 2>"$T/r.err"
# one point per series here: lat_mem_rd is among the bars (a point is not a line chart)
if [ -s "$T/r.html" ] && grep -q 'lat_mem_rd.rand stride=16 @64' "$T/r.html"
then pass "compare: report"; else fail "compare: report" "$(cat "$T/r.err")"; fi

"$PLUMB" plot "$T/a.json" "$T/b.json" -d "$T/svg" 2>"$T/p.err"
n=$(ls "$T/svg" 2>/dev/null | grep -c '\.svg$')
if [ "$n" -ge 3 ] && head -n2 "$T/svg/01-"*.svg | grep -q '<svg xmlns='
then pass "compare: plot"; else fail "compare: plot" "$n files; $(cat "$T/p.err")"; fi
