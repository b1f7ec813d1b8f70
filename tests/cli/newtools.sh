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

# ---- lat_pmake: 2 jobs on 2 CPUs are not slower than 1 job beyond noise -----------------------
listed pmake lat_pmake.time
asked lat_pmake pmake 3
"$BIN/lat_pmake" -N 3 2 1000 2>"$T/pm"
check pmake/lines sh -c "head -n 1 '$T/pm' | grep -qx '\"pmake jobs=2' && sed -n 2p '$T/pm' | grep -Eq '^1000 [0-9]+\.[0-9]{2}$'"
ncpu=$(allowed_cpus | wc -l)
one() { "$PLUMB" lat_pmake -N 3 "$1" 100000 2>&1 | awk '$1 == 100000 { print $2 }'; }
# idle CPUs (a fraction of the machine's) between two reads of /proc/stat's cpu line
stat_cpu() { awk '/^cpu / { print $5 + $6, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9; exit }' /proc/stat; }
idle_cpus() { echo "$1 $2" | awk -v n="$(grep -c '^cpu[0-9]' /proc/stat)" \
	'{ d = $4 - $2; printf "%.2f", (d > 0 ? ($3 - $1) / d * n : 0) }'; }
# Each job's work is 100 ms of cached loads: long beside the time the scheduler takes to move a
# new child to an idle CPU (on the 2-vCPU guest 2 jobs of 10 ms took 1.8 x one job with a CPU
# idle, of 100 ms 1.1 x). Every machine: 2 jobs never take longer than running
# them one after the other (2 x one job), beyond noise (checked against 3 x). With 2 CPUs free
# they take about as long as one job (its forks aside): checked when the machine measured a
# second CPU idle while one job ran (a busy machine's other work takes it: skipped, saying so).
# A miss is measured again, up to 3 times in all.
k=0 tries="" idle=0
while [ $k -lt 3 ]; do
	k=$((k + 1))
	a=$(stat_cpu); t1=$(one 1); b=$(stat_cpu); t2=$(one 2)
	idle=$(idle_cpus "$a" "$b"); tries="$tries 1:$t1/2:$t2 (idle CPUs $idle)"
	isnum "$t1" && isnum "$t2" && lt "$t2" "$(awk -v a="$t1" 'BEGIN { print a * 1.5 }')" && break
	# no second CPU to show it, and not serial: measuring again would show no more
	isnum "$idle" && lt "$idle" 0.8 && lt "$t2" "$(awk -v a="$t1" 'BEGIN { print a * 3 }')" && break
done
# serial is the worst case (2 x one job); 3 x allows a saturated machine's noise and the forks
if isnum "$t1" && isnum "$t2" && lt "$t2" "$(awk -v a="$t1" 'BEGIN { print a * 3 }')"; then
	pass pmake/two-jobs-not-serial
else fail pmake/two-jobs-not-serial "us per round:$tries"; fi
if [ "$ncpu" -lt 2 ]; then
	skip pmake/two-jobs-on-two-cpus "only $ncpu CPU allowed here"
elif lt "$t2" "$(awk -v a="$t1" 'BEGIN { print a * 1.5 }')"; then
	pass pmake/two-jobs-on-two-cpus
elif isnum "$idle" && lt "$idle" 0.8; then
	skip pmake/two-jobs-on-two-cpus "the machine had no second CPU free (idle CPUs measured while one job ran: $idle; us per round:$tries)"
else fail pmake/two-jobs-on-two-cpus "us per round:$tries"; fi
expect_usage pmake/usage-no-usecs "$PLUMB" lat_pmake 2
expect_usage pmake/usage-zero-jobs "$PLUMB" lat_pmake 0 100

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
stopped pmake/stop-reaps INT "$PLUMB" lat_pmake 2 30000000

# ---- lat_dram_page: a page miss costs more than a page hit, where the machine shows it --------
listed dram lat_dram_page.hit lat_dram_page.miss lat_dram_page.diff
asked lat_dram_page dram 1
dram() { "$PLUMB" lat_dram_page -v -N 5 >"$T/dram" 2>&1 || return 1
	hit=$(field "$T/dram" '^page hit' 3); miss=$(field "$T/dram" '^page miss' 3); }
if dram; then
	check dram/lines sh -c "grep -Eq '^page hit: [0-9.]+ nanoseconds$' '$T/dram' &&
		grep -Eq '^-?[0-9]+\.[0-9]{6}$' '$T/dram'"
	k=1 tries="hit $hit miss $miss"
	while ! lt "$hit" "$miss" && [ $k -lt 3 ]; do
		k=$((k + 1)); dram; tries="$tries; hit $hit miss $miss"
	done
	if lt "$hit" "$miss"; then pass dram/miss-costs-more
	else skip dram/miss-costs-more "measured 3 times, a page miss was never dearer (ns per load: $tries): this machine does not show DRAM row locality through these loads (a guest's pages scattered by its host, or the load of the machine)"; fi
else
	fail dram/runs "$(head -c 200 "$T/dram")"
fi
# the difference may come out below zero (as lat_sig.catch's): every reader and store keeps it
"$PLUMB" lat_dram_page -N 3 --json >"$T/dram.json" 2>"$T/dram.err"
sed '/"metric": "lat_dram_page.diff"/,$ s/"value": [-0-9.e+]*/"value": -1.5/' "$T/dram.json" >"$T/dneg.json"
if grep -q '"value": -1.5' "$T/dneg.json" && "$PLUMB" export "$T/dneg.json" --format json >"$T/o" 2>"$T/e" &&
   grep -q '"value": -1.5' "$T/o"; then pass dram/negative-difference-kept
else fail dram/negative-difference-kept "$(head -c 200 "$T/e" "$T/dram.err")"; fi
