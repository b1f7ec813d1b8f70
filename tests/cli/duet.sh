#!/bin/sh
# duet.sh — `plumb ab --duet` (both sides run each step at the same time, each pinned whole to a
# CPU of its own) end to end: the usage errors (one line, exit 2: one CPU, --cpu); each side's
# processes allowed only its own CPU, both in a step at once; an A/A duet session passes --fail-on-regression at a
# strict alpha (0.001, min effect 10 %), leaves out par_ops saying why, and stores its design
# as facts; a stop sent to the parent alone ends both sides (exit 128 + signal, no process and
# no temporary file left).
. tests/lib.sh
export PLUMB_MEM_KNEE=8388608 # the sides' plans without the knee probe (fast)

expect_usage "duet: --cpu refused" "$PLUMB" ab --duet --cpu 0 --b "$PLUMB" --only lat_syscall.null
if command -v taskset >/dev/null 2>&1; then
	expect_usage "duet: one CPU refused" taskset -c 0 "$PLUMB" ab --duet --b "$PLUMB" \
		--only lat_syscall.null
else
	skip "duet: one CPU refused" "taskset (util-linux) is not installed"
fi
ncpu=$(awk '/^Cpus_allowed_list/ { print $2 }' /proc/self/status | tr ',' '\n' |
	awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
if [ "$ncpu" -lt 2 ]; then
	skip "duet: A/A passes --fail-on-regression" "one CPU allowed here: a duet needs two"
	exit 0
fi

DB=$T/duet.db
SQLITE=1
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && SQLITE=0
STORE="--db $DB"
[ $SQLITE -eq 0 ] && STORE=--no-store
"$PLUMB" ab --duet --only lat_syscall.null,lat_syscall.fstat,par_ops --repeat 3 --time-limit 0 \
	--b "$PLUMB" $STORE --alpha 0.001 --min-effect 10 --fail-on-regression >"$T/aa.out" 2>"$T/aa.err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^lat_syscall.null .*paired rounds' "$T/aa.out" &&
   tail -n1 "$T/aa.out" | grep -q '^0 worse, ' && grep -q 'duet on CPUs' "$T/aa.err"
then pass "duet: A/A passes --fail-on-regression"
else fail "duet: A/A passes --fail-on-regression" "rc=$rc $(grep -E 'worse|better' "$T/aa.out" | head -3) $(tail -n3 "$T/aa.err")"; fi
if grep -q '^ab: --duet: par_ops left out: ' "$T/aa.err" && ! grep -q '^par_ops' "$T/aa.out"
then pass "duet: par_ops left out, said"
else fail "duet: par_ops left out, said" "$(grep par_ops "$T/aa.err" "$T/aa.out" | head -3)"; fi
if [ $SQLITE -eq 1 ]; then
	id=$(sed -n 's/.*stored as runs \([0-9]*\) .*/\1/p' "$T/aa.err")
	"$PLUMB" export --db "$DB" "$id" >"$T/a.json" 2>&1
	if grep -q '"ab_design": *"duet"' "$T/a.json" && grep -q '"ab_duet_cpus": *"[0-9]*,[0-9]*"' "$T/a.json"
	then pass "duet: the design is stored as facts"
	else fail "duet: the design is stored as facts" "run $id: $(grep -o '"ab_[a-z_]*": *"[^"]*"' "$T/a.json" | tr '\n' ' ')"; fi
fi

# a stop to the parent alone, while both sides run a step: both end, nothing left, exit 143
if ! command -v setsid >/dev/null 2>&1; then
	skip "duet: a stop ends both sides" "setsid (util-linux) is not installed"
	exit 0
fi
mkdir -p "$T/tmp"
mark="plumb-duet-$$"
TMPDIR="$T/tmp" PLUMB_SIG_MARK="$mark" setsid "$PLUMB" ab --duet --only lat_ops --repeat 3 \
	--b "$PLUMB" --no-store >/dev/null 2>"$T/stop.err" &
pid=$!
children() { cat /proc/"$1"/task/*/children 2>/dev/null; }
# both sides in a step at once: each has the child process that runs the step's measurement
both=0 i=0
while [ $i -lt 600 ] && [ -e "/proc/$pid" ]; do # up to 30 s for both sides to plan and start
	sides=$(children "$pid")
	n=0
	for s in $sides; do [ -n "$(children "$s")" ] && n=$((n + 1)); done
	[ "$n" -eq 2 ] && both=1 && break
	sleep 0.05; i=$((i + 1))
done
cpus=""
for s in $sides; do
	cpus="$cpus $(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$s/status" 2>/dev/null)"
done
kill -TERM "$pid"
i=0
while [ $i -lt 100 ] && [ -e "/proc/$pid" ] && ! awk '{ exit $3 != "Z" }' "/proc/$pid/stat" 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
wait "$pid"
rc=$?
sleep 0.3
left=$(grep -l "PLUMB_SIG_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null | wc -l)
files=$(ls -A "$T/tmp")
# each side allowed one CPU, not the other's
set -- $cpus
if [ $both -eq 1 ] && [ $# -eq 2 ] && [ "$1" != "$2" ] && echo "$1 $2" | grep -Eq '^[0-9]+ [0-9]+$'
then pass "duet: both sides in a step at once, each pinned to its own CPU"
else fail "duet: both sides in a step at once, each pinned to its own CPU" "both=$both sides [$sides] allowed CPUs [$cpus]"; fi
if [ $rc -eq 143 ] && [ "$left" -eq 0 ] && [ -z "$files" ] && grep -q 'stopped by SIGTERM' "$T/stop.err"
then pass "duet: a stop to the parent ends both sides"
else
	fail "duet: a stop to the parent ends both sides" "rc=$rc left=$left files=[$files] $(tail -n2 "$T/stop.err")"
	for f in $(grep -l "PLUMB_SIG_MARK=$mark" /proc/[0-9]*/environ 2>/dev/null); do
		p=${f#/proc/}; kill -KILL "${p%/environ}" 2>/dev/null; done
fi
