#!/bin/sh
# ab.sh — `plumb ab` end to end on this machine, restricted to the cheap lat_syscall and lat_ops
# tools (par_ops, seconds a round, is left out to keep the script short): usage errors (one
# line, exit 2); this binary against itself passes
# --fail-on-regression at a strict alpha (0.001, min effect 10 %: that such a session fails
# less than once in 1000 is shown by tests/unit/compare_sim_test.c); this binary against itself
# under bin/slowsys (every system call several times dearer, nothing else; alpha 0.01, min effect
# 25 %) flags the system-call metrics worse and no lat_ops metric; the stored pair
# compares paired afterwards, with the session's answers, and shows an A/A row the same. The
# two verdict checks are skipped, saying so, when the rows say they could not see (a machine
# too busy: detectable change above the one measured, no interval within ±25 %).
. tests/lib.sh

expect_usage "ab: no --b" "$PLUMB" ab --only syscall
expect_usage "ab: bad label" "$PLUMB" ab --b "$PLUMB" --label A
expect_usage "ab: -o refused" "$PLUMB" ab --b "$PLUMB" -o x.json
expect_usage "ab: bad alpha" "$PLUMB" ab --b "$PLUMB" --alpha 7
expect_usage "ab: empty prefix" "$PLUMB" ab --b " "
expect_usage "ab: bad run option" "$PLUMB" ab --b "$PLUMB" --frobnicate
expect_usage "ab: side not a program" "$PLUMB" ab --b "$T/no-such-plumb" --only syscall

# Ctrl-C: both sides stop, nothing is stored, no temporary directory is left, exit 130
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" "$PLUMB" ab --only syscall,ops --b "$PLUMB" --db "$T/int.db" >/dev/null 2>"$T/int.err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
sleep 1
left=$(ls -A "$T/tmp")
if [ $rc -eq 130 ] && [ -z "$left" ] && grep -q 'nothing stored' "$T/int.err" &&
   ! "$PLUMB" runs --db "$T/int.db" 2>/dev/null | grep -q '^ *[0-9]'
then pass "ab: Ctrl-C stops both sides cleanly"
else fail "ab: Ctrl-C stops both sides cleanly" "rc=$rc left=[$left] $(tail -n2 "$T/int.err")"; fi

# every family (no --only) within a short --time-limit: the session says first what it covers
# and its bound, starts no step whose last time would pass the limit, and ends within it plus
# the one step pair under way and the workers' ends (30 s: a step of a quick run on a busy
# 2-CPU machine, measured 22 s for a 20 s limit beside three other builds); its default table
# fits 120 columns
t0=$(date +%s)
PLUMB_LLC=32M "$PLUMB" ab --quick --time-limit 15 --b "$PLUMB" --no-store >"$T/all.out" 2>"$T/all.err"
rc=$?
took=$(($(date +%s) - t0))
w=$(LC_ALL=C sed 's/[\x80-\xbf]//g' "$T/all.out" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
if [ $rc -eq 0 ] && [ "$took" -le 45 ] && grep -q '^ab: [0-9]* steps (mhz, .*at most 15 s (--time-limit)' "$T/all.err" &&
	grep -Eq 'stopped by --time-limit|every point decided' "$T/all.err" && [ "$w" -le 120 ]
then pass "ab: every family within --time-limit, announced, in 120 columns"
else fail "ab: every family within --time-limit, announced, in 120 columns" "rc=$rc ${took}s ${w} columns: $(grep '^ab: ' "$T/all.err") $(tail -n 2 "$T/all.err")"; fi

# progress: on a terminal a line rewritten step by step; never in a file
if command -v script >/dev/null 2>&1; then
	PLUMB_LLC=32M timeout 120 script -qc "'$PLUMB' ab --quick --only syscall --time-limit 5 --b '$PLUMB' --no-store" \
		/dev/null >"$T/tty.out" 2>&1
	if tr '\r' '\n' <"$T/tty.out" | grep -aq 'ab: round 1, step 1 of [0-9]* (lat_syscall null), [0-9]* s of at most 5 s' &&
		! grep -q 'ab: round' "$T/all.err"
	then pass "ab: progress on a terminal only"
	else fail "ab: progress on a terminal only" "$(tr '\r' '\n' <"$T/tty.out" | grep -a 'ab:' | head -n 3)"; fi
else
	skip "ab: progress on a terminal only" "no script(1) to give plumb a terminal (util-linux)"
fi

STRICT="--alpha 0.001 --min-effect 10"
# CPU 0: plumb's default placement is the highest CPU, where every other plumb on a shared
# machine (other test suites) runs too; the verdicts need rounds that are not preempted by them
CPU="--cpu 0"
DB=$T/store.db

# a sequential session (rounds added for undecided points within --time-limit, none on a busy
# machine): this binary against itself passes --fail-on-regression
"$PLUMB" ab --wide $CPU --only syscall,lat_ops --repeat 5 --time-limit 20 --seed 7 --b "$PLUMB" --db "$DB" \
	$STRICT --fail-on-regression >"$T/aa.out" 2>"$T/aa.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^lat_syscall.null.steady ' "$T/aa.out" && grep -q 'paired rounds' "$T/aa.out" &&
   tail -n1 "$T/aa.out" | grep -q '^0 worse, '
then pass "ab: A/A passes --fail-on-regression"
else fail "ab: A/A passes --fail-on-regression" "rc=$rc $(grep -E 'worse|better' "$T/aa.out" | head -5) $(tail -n3 "$T/aa.err")"; fi
# a later compare of the stored labels, at the session's alpha and minimum effect (its answers,
# p values included, are replayed), uses the session's pairing
if "$PLUMB" runs --db "$DB" >/dev/null 2>&1; then
	# the session's default labels (A#SESSION, B#SESSION) as its last line names them
	labs=$(sed -n 's/.*stored as runs [0-9]* (\([^)]*\)) and [0-9]* (\([^)]*\)).*/\1 \2/p' "$T/aa.err")
	"$PLUMB" compare --wide --db "$DB" $STRICT $labs >"$T/later.out" 2>&1
	if grep '^lat_syscall.null.steady ' "$T/later.out" | grep -q 'paired rounds'
	then pass "ab: compare A B afterwards is paired"
	else fail "ab: compare A B afterwards is paired" "$(head -n8 "$T/later.out")"; fi
	# the stored session replays the same looks: the same answer on every row, in every format
	"$PLUMB" compare --db "$DB" $STRICT --format json $labs >"$T/later.json" 2>/dev/null
	verdicts() { awk '/^[a-z_]+\.[a-z0-9_.]+ / { v = "?"; for (w = 1; w <= NF; w++)
		if ($w ~ /^(worse|better|same)$/ || ($w == "no" && $(w+1) ~ /^(significant|test)/)) { v = $w $(w+1); break }
		print $1, v }' "$1" | sort; }
	jv=$(grep -o '"verdict": *"[^"]*"' "$T/later.json" | grep -vc '"baseline"')
	# the rows the text shows (a batch mean beside its steady figure only where it changed)
	jsame=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
print(sum(1 for r in d['rows'] if r['shown'] for s in r['sides'][1:] if s['verdict'] == 'same'))" "$T/later.json")
	if [ "$(verdicts "$T/aa.out")" = "$(verdicts "$T/later.out")" ] && [ "$jv" -gt 0 ] &&
	   [ "$jsame" -eq "$(grep -Ec ' same \(p=' "$T/aa.out")" ]
	then pass "ab: compare of the stored session gives the session's answers (text, JSON)"
	else fail "ab: compare of the stored session gives the session's answers (text, JSON)" "session: $(verdicts "$T/aa.out" | tr '\n' ' ' | cut -c1-300) later: $(verdicts "$T/later.out" | tr '\n' ' ' | cut -c1-300)"; fi
	# an A/A row is reported same, at the default alpha, with the session's looks: within ±50 %
	# (on a 2-vCPU machine with five builds at once the paired jitter of one step reached
	# 20-50 %, and no row was within ±25 %)
	"$PLUMB" compare --wide --db "$DB" --min-effect 50 $labs >"$T/same.out" 2>&1
	# rows whose 95 % interval lies within ±25 %: where none does, the machine is too busy for
	# any row to be shown within ±50 % (said, not failed)
	narrow=$(grep -Eo '^[a-z_]+\.[a-z0-9_.]+ .*paired' "$T/same.out" | grep -Eo '\[[-+][0-9.]+, [-+][0-9.]+\]' |
		tr -d '[],+' | awk '$1 > -25 && $2 < 25' | wc -l)
	if grep -Eq '^[a-z_]+\.[a-z0-9_]+\.steady .* same \(p=' "$T/same.out" &&
	   grep -q 'sequential session: .*order seed 7' "$T/aa.err"
	then pass "ab: an A/A steady row is reported same"
	elif [ "$narrow" -eq 0 ]
	then skip "ab: an A/A steady row is reported same" "machine too busy: no row's interval within ±25 % ($(grep sequential "$T/aa.err" | cut -c1-90))"
	else fail "ab: an A/A steady row is reported same" "$(tail -n1 "$T/same.out") $(grep sequential "$T/aa.err")"; fi
else
	skip "ab: compare A B afterwards is paired" "built without SQLite: no store"
fi

SLOW=$(dirname "$PLUMB")/slowsys
if [ ! -x "$SLOW" ]; then
	skip "ab: slower system calls are flagged" "bin/slowsys not built (make test builds it)"
	exit 0
fi
if ! "$SLOW" 1 true 2>"$T/slow.err"; then
	skip "ab: slower system calls are flagged" "no seccomp filters here: $(cat "$T/slow.err")"
	exit 0
fi
# the injected cost (4 filters of 4096 instructions, a few us a call) is several times a null
# call; 8 rounds give the paired test its degrees of freedom on a busy host (--time-limit 0: no
# rounds added after them). alpha 0.01 and a
# 25 % minimum effect: strict enough that lat_ops, whose short loops swing by tens of percent when
# other work preempts them, stays unflagged, loose enough for BH over 24 tests to pass the calls
"$PLUMB" ab --wide $CPU --only syscall,lat_ops --repeat 8 --time-limit 0 --b "$SLOW 4 $PLUMB" --no-store --alpha 0.01 \
	--min-effect 25 --fail-on-regression >"$T/slow.out" 2>"$T/slow.err"
rc=$?
bad="" busy=""
# the judged figure, the median operation (the batch mean, shown where it changed, too)
for m in null.steady read.steady write.steady fstat.steady; do
	line=$(grep "^lat_syscall.$m " "$T/slow.out")
	echo "$line" | grep -q ' worse ' && continue
	# not flagged: a failure unless the row says it could not see a change this large (its
	# detectable change above the change measured: a machine too busy for 8 rounds)
	ch=$(echo "$line" | grep -Eo '[-+][0-9.]+% \[' | head -n1 | tr -d '%[ +')
	det=$(echo "$line" | grep -Eo '±[0-9.]+%' | tail -n1 | tr -d '±%')
	if [ -n "$ch" ] && [ -n "$det" ] && awk -v c="$ch" -v d="$det" 'BEGIN { exit !(c + 0 < d + 0) }'
	then busy="$busy lat_syscall.$m (+$ch %, detectable ±$det %)"
	else bad="$bad lat_syscall.$m-not-worse"; fi
done
if grep -E '^lat_ops\.' "$T/slow.out" | grep -Eq ' (worse|better) \('; then
	bad="$bad ops-flagged"
fi
if [ -z "$bad" ] && [ -n "$busy" ]
then skip "ab: slower system calls are flagged, nothing else" "machine too busy to see it:$busy"
elif [ $rc -eq 1 ] && [ -z "$bad" ]
then pass "ab: slower system calls are flagged, nothing else"
else fail "ab: slower system calls are flagged, nothing else" "rc=$rc$bad $(grep -E '^lat_syscall|worse|better' "$T/slow.out" | head -8)"; fi
