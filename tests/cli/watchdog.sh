#!/bin/sh
# watchdog.sh — every wait on a step has a bound (docs/compare.md "The watchdog", docs/suite.md):
# a side of `plumb ab` stopped with SIGSTOP in the middle of a session is killed with its process
# group once its bound (never past --time-limit) has passed, the session ends with the rounds it
# has, says so in one line, and its stored runs name what was stopped in their watchdog fact.
# (A step of plumb run past its bound: tests/cli/suite.sh; a hung build under bisect-check:
# tests/cli/bisectguard.sh.)
. tests/lib.sh

NOSQL=""
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && NOSQL="built without SQLite"

# --repeat 100: each round on fresh workers, so the session lasts a minute or more; side B is
# stopped once its second worker is there (the first round complete, so the session has a round
# to store), wherever that worker is: starting, in a step, or between them
if [ -n "$NOSQL" ]; then store="--no-store"; else store="--db $T/ab.db"; fi
# ENOUGH: samples of 50 ms, so each worker is in its step for most of its life and the stop
# finds it there, where the session waits on it (with 5 ms samples a worker lived 0.1 s: the stop
# could fall after its last step, and the session then ended by its time limit, never waiting)
ENOUGH=50000 "$PLUMB" ab --b "$PLUMB" --cpu 0 --only lat_syscall.null --repeat 100 --mem 1m \
	--time-limit 8 $store >"$T/ab.out" 2>"$T/ab.err" &
pid=$!
first=""; b=""; i=0
while [ -z "$b" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
	w=$(pgrep -P $pid -f 'ab-worker=.*/B\.json' | head -n 1)
	[ -z "$first" ] && first=$w
	[ -n "$w" ] && [ "$w" != "$first" ] && b=$w
	i=$((i + 1)); sleep 0.05
done
if [ -z "$b" ]; then
	fail "watchdog: ab side stopped with SIGSTOP" "side B not found: $(tail -n 3 "$T/ab.err")"
	kill $pid 2>/dev/null; wait $pid
	exit 0
fi
kill -STOP "$b"
t0=$(date +%s)
# the bound is 8 s (--time-limit); 40 s is what a loaded machine may add, never the old minutes
i=0; while kill -0 $pid 2>/dev/null && [ $i -lt 400 ]; do sleep 0.1; i=$((i + 1)); done
t=$(($(date +%s) - t0))
if kill -0 $pid 2>/dev/null; then
	kill -CONT "$b" 2>/dev/null; kill $pid; wait $pid
	fail "watchdog: ab side stopped with SIGSTOP" "still running ${t} s after the stop"
	exit 0
fi
wait $pid; rc=$?
left=$(ps -o stat= -p "$b" 2>/dev/null)
if [ $rc -eq 3 ] && [ -z "$left" ] &&
   [ "$(grep -c "side B did not answer .* past its watchdog bound: stopped" "$T/ab.err")" -eq 1 ]
then pass "watchdog: ab side stopped with SIGSTOP ends the session (${t} s, exit 3)"
else fail "watchdog: ab side stopped with SIGSTOP" "rc=$rc ${t} s left=[$left] $(tail -n 3 "$T/ab.err")"; fi

# the stored runs (rounds complete before the stop) say what the watchdog stopped
if [ -n "$NOSQL" ]; then
	skip "watchdog: the stored runs name the stop" "$NOSQL"
elif "$PLUMB" export 2 --db "$T/ab.db" --format json 2>/dev/null |
	grep -q '"watchdog": "side B did not answer'
then pass "watchdog: the stored runs name the stop"
else fail "watchdog: the stored runs name the stop" "$("$PLUMB" runs --db "$T/ab.db" 2>&1 | tail -n 2)"; fi

# a side alive but slow (samples of 1.5 s: a step of several outgrows a 3 s limit) is stopped at
# --time-limit inside its step: it writes the steps before, the session ends as the time limit
# ends it (exit 0, not 3: nothing hung), in one line naming the step, within the limit plus the
# side's 3 s to stop and a loaded machine's slack
t0=$(date +%s)
ENOUGH=1500000 "$PLUMB" ab --b "$PLUMB" --only syscall --time-limit 3 --no-store \
	>"$T/slow.out" 2>"$T/slow.err"
rc=$?
t=$(($(date +%s) - t0))
if [ $rc -eq 0 ] && [ $t -le 30 ] &&
   grep -q "did not finish step .* past its watchdog bound: stopped there, the steps before it kept" "$T/slow.err" &&
   grep -q "stopped by --time-limit in round 1 after" "$T/slow.err" && grep -q ' worse, ' "$T/slow.out"
then pass "watchdog: a slow side stopped at --time-limit ends the session as the limit does (${t} s)"
else fail "watchdog: a slow side stopped at --time-limit ends the session as the limit does" "rc=$rc ${t} s $(grep -v hypervisor "$T/slow.err" | tail -n 3)"; fi
