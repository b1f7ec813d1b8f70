# newtools.sh — lmbench's tools outside its suite: lat_usleep, lat_rand, lat_cmd, lat_pmake,
# lat_dram_page. For each: its lmbench line, a physical law that holds on every machine, its
# metrics in `plumb list --metrics`; lat_cmd and lat_pmake leave no child after a stop; none is
# in a profile's plan unless --only names it.
. tests/lib.sh

"$PLUMB" list --metrics >"$T/metrics"
"$PLUMB" run --dry-run --full >"$T/plan"
# listed TOOL METRIC...: the tool's metrics in `plumb list --metrics`
listed() {
	t=$1; shift; miss=""
	for m in "$@"; do grep -q "^| $m |" "$T/metrics" || miss="$miss $m"; done
	if [ -z "$miss" ]; then pass "$t/listed"; else fail "$t/listed" "not in plumb list --metrics:$miss"; fi
}
# asked TOOL ALIAS STEPS: in no profile's plan (not even full's), STEPS steps with --only TOOL
# and with --only ALIAS
asked() {
	if grep -q "  $1" "$T/plan"; then fail "$1/in-no-profile" "$(grep "  $1" "$T/plan" | head -n 1)"
	else pass "$1/in-no-profile"; fi
	for w in "$1" "$2"; do
		n=$("$PLUMB" run --dry-run --only "$w" | grep -c "  $1")
		if [ "$n" -eq "$3" ]; then pass "$1/only-$w"; else fail "$1/only-$w" "$n steps, want $3"; fi
	done
}

# ---- lat_usleep: a sleep of 100 us lasts at least 100 us, by every method ---------------------
listed usleep lat_usleep.latency lat_usleep.realtime lat_usleep.p50 lat_usleep.p99 lat_usleep.max
asked lat_usleep usleep 5
"$BIN/lat_usleep" -N 3 100 2>"$T/us" >"$T/us.out"
check usleep/line grep -Eq '^usleep 100 microseconds: [0-9]+\.[0-9]{4} microseconds$' "$T/us"
check usleep/stdout-empty test ! -s "$T/us.out"
for m in usleep nanosleep select pselect itimer; do
	"$PLUMB" lat_usleep -N 3 -u $m 100 --json >"$T/u.$m" 2>"$T/u.$m.err" ||
		{ fail "usleep/$m" "exit $?: $(head -c 200 "$T/u.$m.err")"; continue; }
	# every sample's value, the median and the single calls' figures
	vals=$(sed -n 's/.*"value": \([0-9.e+-]*\).*/\1/p' "$T/u.$m")
	low=$(echo "$vals" | awk 'NR == 1 || $1 < m { m = $1 } END { print m }')
	if [ -n "$vals" ] && ! lt "$low" 100; then pass "usleep/$m-at-least-100us"
	else fail "usleep/$m-at-least-100us" "smallest value $low us"; fi
done
# the distribution: p50 <= p99 <= max
p() { awk -v m="\"lat_usleep.$1\"" '$0 ~ "\"metric\": " m { f = 1 } f && /"value":/ { gsub(/[,]/, ""); print $2; exit }' "$T/u.nanosleep"; }
p50=$(p p50) p99=$(p p99) max=$(p max)
if isnum "$p50" && ! lt "$p99" "$p50" && ! lt "$max" "$p99"; then pass usleep/distribution-ordered
else fail usleep/distribution-ordered "p50=$p50 p99=$p99 max=$max"; fi
"$PLUMB" lat_usleep -N 3 -r -u nanosleep 100 >"$T/rt" 2>&1
if grep -Eq '^realtime nanosleep 100 microseconds: [0-9.]+ microseconds$' "$T/rt"; then pass usleep/realtime
elif grep -q 'SCHED_FIFO refused' "$T/rt" && grep -Eq '^nanosleep 100 microseconds: ' "$T/rt"; then
	skip usleep/realtime "SCHED_FIFO refused here (said so and measured at the normal priority)"
else fail usleep/realtime "$(head -c 200 "$T/rt")"; fi
expect_usage usleep/usage-no-usecs "$PLUMB" lat_usleep
expect_usage usleep/usage-bad-method "$PLUMB" lat_usleep -u spin 100
expect_usage usleep/usage-zero "$PLUMB" lat_usleep 0

# ---- lat_rand: lmbench's two lines, a call costs more than nothing and less than 10 us --------
listed rand lat_rand.drand48 lat_rand.lrand48
asked lat_rand rand 1
"$BIN/lat_rand" -N 3 2>"$T/rand"
check rand/lines sh -c "grep -Eq '^drand48 latency: [0-9]+\.[0-9]{2} nanoseconds$' '$T/rand' &&
	grep -Eq '^lrand48 latency: [0-9]+\.[0-9]{2} nanoseconds$' '$T/rand'"
for f in drand48 lrand48; do
	v=$(field "$T/rand" "^$f latency" 3)
	if between "$v" 0.1 10000; then pass "rand/$f-plausible"; else fail "rand/$f-plausible" "$v ns"; fi
done
expect_usage rand/usage-operand "$PLUMB" lat_rand 5

# ---- lat_cmd: the whole command: `sleep 0.01` lasts at least 10 ms ---------------------------
listed cmd lat_cmd.latency
asked lat_cmd cmd 1
"$BIN/lat_cmd" -N 3 true 2>"$T/cmd"
check cmd/line grep -Eq '^lat_cmd: [0-9]+\.[0-9]{4} microseconds$' "$T/cmd"
v=$("$PLUMB" lat_cmd -N 3 sleep 0.01 2>&1 | awk '/^lat_cmd:/ { print $2 }')
if isnum "$v" && ! lt "$v" 10000; then pass cmd/sleep-at-least-10ms; else fail cmd/sleep-at-least-10ms "$v us"; fi
"$PLUMB" lat_cmd false >"$T/o" 2>"$T/e"; rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$T/e")" -eq 1 ]; then pass cmd/failing-command
else fail cmd/failing-command "exit $rc: $(head -c 200 "$T/e")"; fi
"$PLUMB" lat_cmd /no/such/cmd >"$T/o" 2>"$T/e"; rc=$?
if [ $rc -eq 3 ] && grep -q 'cannot run' "$T/e"; then pass cmd/missing-command
else fail cmd/missing-command "exit $rc: $(head -c 200 "$T/e")"; fi
expect_usage cmd/usage-no-command "$PLUMB" lat_cmd

# ---- a stop to the parent alone reaps lat_cmd's command and lat_pmake's jobs -----------------
stopped() { # stopped NAME SIG CMD...: start CMD, stop it when its child runs, check none is left
	name=$1 sig=$2; shift 2
	"$@" >"$T/so" 2>"$T/se" &
	pid=$!
	i=0
	while [ $i -lt 200 ] && [ -z "$(pgrep -P $pid)" ]; do sleep 0.05; i=$((i + 1)); done
	kids=$(pgrep -P $pid | tr '\n' ' ')
	kill -"$sig" $pid
	wait $pid 2>/dev/null
	sleep 0.3
	left=""
	for k in $kids; do [ -e /proc/$k ] && left="$left $k"; done
	if [ -z "$kids" ]; then fail "$name" "no child seen within 10 s"
	elif [ -n "$left" ]; then fail "$name" "left:$left"; kill -KILL $left 2>/dev/null
	else pass "$name"; fi
}
stopped cmd/stop-reaps TERM "$PLUMB" lat_cmd sleep 30

