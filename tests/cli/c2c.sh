#!/bin/sh
# c2c.sh — lat_c2c, core to core: one line per ordered pair of the CPUs plumb may use and none
# for a CPU with itself; a round trip within physical bounds; both orders of a pair alike
# within noise; one CPU refused with one line; bad -c lists refused; in no profile's plan.
. tests/lib.sh

"$PLUMB" list --metrics >"$T/metrics"
check c2c/listed grep -q '^| lat_c2c.roundtrip |' "$T/metrics"
if "$PLUMB" run --dry-run --full | grep -q '  lat_c2c'; then fail c2c/in-no-profile "in the full plan"
else pass c2c/in-no-profile; fi
n=$("$PLUMB" run --dry-run --only lat_c2c | grep -c '  lat_c2c')
if [ "$n" -eq 1 ]; then pass c2c/only; else fail c2c/only "$n steps, want 1"; fi

expect_usage c2c/usage-bad-list "$PLUMB" lat_c2c -c x
expect_usage c2c/usage-cpu-absent "$PLUMB" lat_c2c -c 0,9999
expect_usage c2c/usage-cpu-twice "$PLUMB" lat_c2c -c 0,0
expect_usage c2c/usage-operand "$PLUMB" lat_c2c 5

# one CPU: nothing to pair, said in one line, exit 3
if command -v taskset >/dev/null 2>&1; then
	taskset -c "$(allowed_cpus | head -n 1)" "$PLUMB" lat_c2c >"$T/one" 2>"$T/one.err"; rc=$?
	if [ $rc -eq 3 ] && [ "$(wc -l <"$T/one.err")" -eq 1 ] && grep -q 'two CPUs' "$T/one.err"
	then pass c2c/one-cpu-refused
	else fail c2c/one-cpu-refused "rc=$rc $(head -c 200 "$T/one.err")"; fi
else skip c2c/one-cpu-refused "no taskset here"; fi

ncpu=$(allowed_cpus | wc -l)
if [ "$ncpu" -lt 2 ]; then
	skip c2c/pairs "one CPU may be used here: no pair"
	exit 0
fi
# at most 4 CPUs (12 ordered pairs), so that a large machine's test stays short
cpus=$(allowed_cpus | head -n 4 | tr '\n' ',' | sed 's/,$//')
k=$(allowed_cpus | head -n 4 | wc -l)
"$PLUMB" lat_c2c -N 3 -c "$cpus" >"$T/c2c" 2>"$T/c2c.err"; rc=$?
lines=$(grep -Ec '^Cache line round trip CPU [0-9]+ to CPU [0-9]+: [0-9]+\.[0-9]{2} nanoseconds$' "$T/c2c")
if [ $rc -eq 0 ] && [ "$lines" -eq $((k * (k - 1))) ]; then pass c2c/one-line-per-ordered-pair
else fail c2c/one-line-per-ordered-pair "rc=$rc lines=$lines want $((k * (k - 1))): $(head -c 300 "$T/c2c.err")"; fi
if awk '/^Cache line round trip CPU/ && $6 == $9 + 0 { bad = 1 } END { exit bad }' FS='[ :]+' "$T/c2c"
then pass c2c/diagonal-not-measured; else fail c2c/diagonal-not-measured "$(grep 'CPU \([0-9]*\) to CPU \1:' "$T/c2c")"; fi
# a round trip is two hand-overs of a line between caches: each costs more than 1 ns on any
# CPU made so far; the upper bound only catches a unit error: beside a CPU hog per CPU a side
# waits out the hog's time slices, and a round trip measured 12 ms (1 s is 100 of those)
if awk '/^Cache line round trip CPU/ { v = $(NF - 1); if (v < 2 || v > 1e9) bad = 1 } END { exit bad }' "$T/c2c"
then pass c2c/plausible; else fail c2c/plausible "$(cat "$T/c2c")"; fi

# Both orders of the first pair: the same two caches, so alike within a factor of 2 where the
# hardware is symmetric. It need not be (a guest's vCPUs sit where the host puts them; CI saw
# 323 against 114 ns, maybe each order at another host placement), so each try also times both orders with an independent ping-pong loop
# (bench/cpu/pingpong.c, written apart): lat_c2c fails only when it is lopsided while the
# independent loop, measured in the same try, is not (or lopsided the other way), 3 tries running.
a=$(allowed_cpus | sed -n 1p); b=$(allowed_cpus | sed -n 2p)
pp=""
if ${CC:-cc} -O2 -o "$T/pingpong" bench/cpu/pingpong.c -lpthread 2>"$T/pp.err"; then pp="$T/pingpong"; fi
n=0
while :; do
	n=$((n + 1))
	"$PLUMB" lat_c2c -N 5 -c "$a,$b" --json >"$T/ab.json" 2>/dev/null
	set -- $(sed -n 's/^ *"lmbench": "Cache line round trip CPU [0-9]* to CPU [0-9]*: \([0-9.]*\) nanoseconds",*$/\1/p' "$T/ab.json")
	if [ $# -eq 2 ] && awk -v x="$1" -v y="$2" 'BEGIN { exit !(x > 0 && y > 0 && x < 2 * y && y < 2 * x) }'
	then pass c2c/symmetric; break; fi
	# a guest's vCPUs move between host cores (this project's guest: 110 or 530 ns a round trip,
	# by where the host has them): when the two orders' samples overlap, they met the same levels
	if awk '/"lmbench": "Cache line round trip/ { k++ }
		k && /"value":/ && match($0, /^ */) && RLENGTH > 6 { v = $2 + 0; n[k]++; if (!(k in lo) || v < lo[k]) lo[k] = v; if (v > hi[k]) hi[k] = v }
		END { exit !(k == 2 && n[1] && n[2] && lo[1] <= hi[2] && lo[2] <= hi[1]) }' "$T/ab.json"
	then pass c2c/symmetric; break; fi
	tool="$*"; ind=""
	if [ -n "$pp" ] && [ $# -eq 2 ]; then
		ind="$("$pp" "$a" "$b" 5000) $("$pp" "$b" "$a" 5000)"
		# the machine's own lopsidedness: the independent loop's two orders differ the same way,
		# by a ratio within 2x of lat_c2c's
		if awk -v x="$1" -v y="$2" -v ind="$ind" 'BEGIN { split(ind, p, " ");
			r = x / y; q = p[1] / p[2]; exit !(p[1] > 0 && p[2] > 0 && r < 2 * q && q < 2 * r) }'
		then
			skip c2c/symmetric "this machine's two orders differ, and an independent ping-pong loop agrees: lat_c2c $tool ns, pingpong $ind ns"
			break
		fi
		# beyond 1.5 us a round trip is a wait for the scheduler, not a cache hand-over (a
		# cross-socket one costs under 1 us): the CPUs are shared with other work, and which
		# order meets the other work's time slices is chance
		if awk -v ind="$ind" 'BEGIN { split(ind, p, " "); exit !(p[1] > 1500 || p[2] > 1500) }'
		then
			skip c2c/symmetric "the CPUs are busy: the independent loop takes $ind ns a round trip, a scheduler's wait, not a cache's (lat_c2c $tool ns)"
			break
		fi
	fi
	[ $n -lt 3 ] || { fail c2c/symmetric "$a to $b and back: lat_c2c $tool ns, independent loop ${ind:-not built} ns, in each of 3 tries"; break; }
done

# a stop mid-run: exit 143, nothing left running
# samples of 200 ms (20 s in all), so the stop comes mid-run on any machine
"$PLUMB" lat_c2c -N 50 --min-sample 200000 -c "$a,$b" >/dev/null 2>&1 &
pid=$!
sleep 1
kill -TERM $pid; wait $pid; rc=$?
if [ $rc -eq 143 ]; then pass c2c/sigterm; else fail c2c/sigterm "rc=$rc"; fi
