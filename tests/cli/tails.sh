#!/bin/sh
# tails.sh — lat_tail, percentiles of single operations: its lines' format, listed and in no
# profile's plan, usage errors, p50 <= p90 <= p99 <= p99.9 <= max for every operation (a law:
# each block's percentiles are ordered, and so are their medians), a known truth (an injected
# 1 ms stall every N operations shows in the percentiles above 1 - 1/N and in none below), the
# null call's median against lat_syscall's (an independent measurement), a stop that leaves no
# child, and the run's JSON and CSV carry it. Small blocks and -N 3: seconds.
. tests/lib.sh

"$PLUMB" list --metrics >"$T/metrics"
ok=1
for q in p50 p90 p99 p999 max; do grep -q "^| lat_tail.$q |" "$T/metrics" || ok=0; done
if [ $ok -eq 1 ]; then pass tails/listed; else fail tails/listed "lat_tail.* not all in list --metrics"; fi
if "$PLUMB" run --dry-run --full | grep -q '  lat_tail'; then fail tails/in-no-profile "in the full plan"
elif "$PLUMB" run --dry-run | grep -q '  lat_tail'; then fail tails/in-no-profile "in the default plan"
else pass tails/in-no-profile; fi
for sel in lat_tail tails; do
	n=$("$PLUMB" run --dry-run --only $sel | grep -c '  lat_tail')
	if [ "$n" -eq 1 ]; then pass tails/only-$sel; else fail tails/only-$sel "$n steps, want 1"; fi
done

expect_usage tails/usage-bad-op "$PLUMB" lat_tail -o nosuch
expect_usage tails/usage-small-block "$PLUMB" lat_tail -k 5
expect_usage tails/usage-large-block "$PLUMB" lat_tail -k 100001
expect_usage tails/usage-summary-format "$PLUMB" summary --tails --format markdown "$T/none.json"
expect_usage tails/usage-stall-every "$PLUMB" lat_tail --stall-every 1
expect_usage tails/usage-operand "$PLUMB" lat_tail 5

# value OP Q FILE: the microseconds on the line "Tail OP Q: V microseconds"
value() { awk -v op="$1" -v q="$2:" '$1 == "Tail" && $2 == op && $3 == q { print $4; exit }' "$3"; }

# ---- every operation: the lines, and their order ---------------------------------------------
"$PLUMB" lat_tail -N 3 -k 1000 >"$T/all" 2>"$T/all.err"; rc=$?
lines=$(grep -Ec '^Tail (null|read|write|sig|pipe|unix|tcp|udp|pagefault) (p50|p90|p99|p99\.9|max): -?[0-9]+\.[0-9]{4} microseconds$' "$T/all")
if [ $rc -eq 0 ] && [ "$lines" -eq 45 ] && [ "$(wc -l <"$T/all")" -eq 45 ]; then pass tails/lines
else fail tails/lines "rc=$rc lines=$lines of $(wc -l <"$T/all"): $(head -c 300 "$T/all.err")"; fi
for op in null read write sig pipe unix tcp udp pagefault; do
	set -- $(value $op p50 "$T/all") $(value $op p90 "$T/all") $(value $op p99 "$T/all") \
		$(value $op p99.9 "$T/all") $(value $op max "$T/all")
	if [ $# -eq 5 ] && awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" \
		'BEGIN { exit !(a > 0 && a <= b && b <= c && c <= d && d <= e && e < 1e7) }'
	then pass tails/ordered-$op
	else fail tails/ordered-$op "p50 p90 p99 p99.9 max = $*"; fi
done

# ---- known truth: one 1 ms busy stall in every N null calls -----------------------------------
# Blocks of 2000: N=200 puts 10 stalls in each (0.5 %): above p99 (rank 1980), at p99.9 (1998);
# N=50 puts 40 (2 %): p99 is one, p90 not. The clock's cost subtracted is ~30 ns, so a stalled
# call reads >= 0.99 ms. A preempted call can only add: "near p50" is 3 tries at under 0.1 ms.
n=0
while :; do
	n=$((n + 1))
	"$PLUMB" lat_tail -o null -N 3 -k 2000 --stall-every 200 >"$T/s200" 2>&1
	p50=$(value null p50 "$T/s200"); p99=$(value null p99 "$T/s200")
	p999=$(value null p99.9 "$T/s200"); max=$(value null max "$T/s200")
	if awk -v a="$p50" -v c="$p99" -v d="$p999" -v e="$max" \
		'BEGIN { exit !(a > 0 && c < 100 && d >= 990 && e >= 990) }'
	then pass tails/stall-0.5pct; break; fi
	[ $n -lt 3 ] || { fail tails/stall-0.5pct "p50 $p50 p99 $p99 p99.9 $p999 max $max us (want p99 < 100, p99.9 and max >= 990) in 3 tries"; break; }
done
n=0
while :; do
	n=$((n + 1))
	"$PLUMB" lat_tail -o null -N 3 -k 2000 --stall-every 50 >"$T/s50" 2>&1
	p90=$(value null p90 "$T/s50"); p99=$(value null p99 "$T/s50")
	if awk -v b="$p90" -v c="$p99" 'BEGIN { exit !(b > 0 && b < 100 && c >= 990) }'
	then pass tails/stall-2pct; break; fi
	[ $n -lt 3 ] || { fail tails/stall-2pct "p90 $p90 p99 $p99 us (want p90 < 100, p99 >= 990) in 3 tries"; break; }
done
if "$PLUMB" lat_tail -o null -N 3 -k 200 --stall-every 50 --json | grep -Eq '"stall_every": "?50"?'
then pass tails/stall-in-params; else fail tails/stall-in-params "stall_every not in the params"; fi

# ---- the null call's median against lat_syscall null's steady figure (its own loop: the median
# of short batches; its batch mean carries every preemption of a busy machine, 7x at load 12).
# Other work only adds time: each side's least disturbed figure over the tries
n=0 tmin= smin=
while :; do
	n=$((n + 1))
	"$PLUMB" lat_tail -o null -N 3 -k 2000 >"$T/null" 2>&1
	t=$(value null p50 "$T/null")
	s=$("$PLUMB" lat_syscall -N 3 null --json 2>/dev/null | python3 -c 'import json, sys
print(next(r["value"] for r in json.load(sys.stdin)["results"] if r["metric"] == "lat_syscall.null.steady"))')
	tmin=$(awk -v a="$tmin" -v b="$t" 'BEGIN { print (a == "" || (b > 0 && b < a)) ? b : a }')
	smin=$(awk -v a="$smin" -v b="$s" 'BEGIN { print (a == "" || (b > 0 && b < a)) ? b : a }')
	if awk -v t="$tmin" -v s="$smin" 'BEGIN { exit !(t > 0 && s > 0 && t < 4 * s && s < 4 * t) }'
	then pass tails/null-vs-lat_syscall; break; fi
	[ $n -lt 3 ] || { fail tails/null-vs-lat_syscall "least of 3 tries: lat_tail p50 $tmin us, lat_syscall null $smin us"; break; }
done

# ---- a stop mid-run: exit 128 + the signal, the pipe's child gone --------------------------------
for stop in TERM:pipe INT:unix TERM:udp INT:tcp; do
	sig=${stop%:*}; op=${stop#*:}
	"$PLUMB" lat_tail -o $op -N 900 -k 777 >/dev/null 2>"$T/stop.err" &
	pid=$!
	i=0; child=""
	while [ -z "$child" ] && [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1; i=$((i + 1)); child=$(ps -o pid= --ppid $pid | tr -d ' ' | head -n 1); done
	kill -$sig $pid; wait $pid 2>/dev/null; rc=$?
	sleep 0.3
	left=$(ps -eo args | grep -c "^$PLUMB lat_tail -o $op -N 900 -k 777\$")
	want=143; [ $sig = INT ] && want=130
	if [ -n "$child" ] && [ $rc -eq $want ] && [ "$left" -eq 0 ]; then pass tails/sig$sig-$op-reaped
	else fail tails/sig$sig-$op-reaped "child '$child' rc=$rc (want $want) left=$left: $(head -c 200 "$T/stop.err")"; fi
done

# ---- plumb run --only lat_tail: stored in the run's JSON, exported as CSV ------------------------
if "$PLUMB" run --only lat_tail --repeat 1 --no-store -o "$T/run.json" >/dev/null 2>"$T/run.err"; then
	j=$(grep -c '"metric": "lat_tail\.' "$T/run.json")
	"$PLUMB" export "$T/run.json" --format csv -o "$T/run.csv" 2>/dev/null
	csv=$(grep -c 'lat_tail\.p999' "$T/run.csv" 2>/dev/null)
	if [ "$j" -eq 45 ] && [ "${csv:-0}" -ge 9 ]; then pass tails/run-json-csv
	else fail tails/run-json-csv "$j results in the JSON (want 45), ${csv:-0} p999 rows in the CSV"; fi
else fail tails/run-json-csv "plumb run failed: $(head -c 300 "$T/run.err")"; fi

# ---- summary --tails and the report's chart per operation, from that run ------------------------
if [ -s "$T/run.json" ]; then
	"$PLUMB" summary --tails "$T/run.json" >"$T/sum" 2>"$T/sum.err"; rc=$?
	rows=$(grep -Ec '^#1 +[^ ]+ +(null|read|write|sig|pipe|unix|tcp|udp|pagefault) +([0-9.]+ +){6}[0-9.]+%$' "$T/sum")
	if [ $rc -eq 0 ] && [ "$rows" -eq 9 ] && grep -q 'p99.9' "$T/sum"; then pass tails/summary
	else fail tails/summary "rc=$rc rows=$rows: $(head -c 400 "$T/sum") $(head -c 200 "$T/sum.err")"; fi
	"$PLUMB" report "$T/run.json" -o "$T/r.html" --svg-dir "$T/svg" >/dev/null 2>&1
	n=$(ls "$T/svg" 2>/dev/null | grep -c 'tails-op-')
	if [ "$n" -eq 9 ] && grep -q 'percentile in nines' "$T/svg/"*tails-op-pipe.svg; then pass tails/report-chart
	else fail tails/report-chart "$n percentile charts (want 9): $(ls "$T/svg" 2>/dev/null | tr '\n' ' ')"; fi
	# the page itself shows them under their own heading, not only the plot files
	if grep -q '<h2 id="tails">Tail latency</h2>' "$T/r.html"; then pass tails/report-page-section
	else fail tails/report-page-section "no Tail latency section: $(grep -o '<h2 id="[a-z0-9]*"' "$T/r.html" | tr '\n' ' ')"; fi
else skip tails/summary "no run file (run-json-csv failed)"; skip tails/report-chart "no run file"; skip tails/report-page-section "no run file"; fi
