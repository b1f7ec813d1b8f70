# signals.sh — a stop (SIGINT, SIGTERM, SIGHUP) sent to plumb alone or to its whole process
# group, at chosen moments of run, ab, serve and push: the exit status is 128 + the signal, the
# process is gone within 2 s, "stopped by SIGxxx" is said once, no process and no temporary file
# is left, and the store is consistent. Each moment is waited for (a file, a child process, a
# line), not guessed with a sleep. Also: ab stops a side that never prints its plan, and serve
# still serves a real client while idle connections flood it.
. tests/lib.sh
export PLUMB_DB="$T/default.db"  # never the user's store
export PLUMB_MEM_KNEE=8388608    # the sides' and runs' plans without the knee probe (fast)
LIMIT=2                          # seconds from the signal to the exit
SQLITE=1
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && SQLITE=0
if ! command -v setsid >/dev/null 2>&1; then
	skip signals/all "setsid (util-linux) is not installed: it gives each command its own process group"
	exit 0
fi

now() { date +%s.%N; }
signum() { case $1 in INT) echo 2 ;; TERM) echo 15 ;; HUP) echo 1 ;; esac; }

# wait_for SECONDS CMD...: until CMD succeeds (0) or the time is up (1)
wait_for() {
	end=$(awk -v s="$1" 'BEGIN { print s * 20 }'); shift
	i=0
	while [ $i -lt "$end" ]; do
		"$@" 2>/dev/null && return 0
		sleep 0.05; i=$((i + 1))
	done
	return 1
}
gone() { [ ! -e "/proc/$1" ] || awk '{ exit $3 != "Z" }' "/proc/$1/stat" 2>/dev/null; }
has_child() { [ -n "$(pgrep -P "$1")" ]; }
has_grandchild() { for c in $(pgrep -P "$1"); do has_child "$c" && return 0; done; return 1; }
marked() { grep -l "PLUMB_SIG_MARK=$1" /proc/[0-9]*/environ 2>/dev/null | wc -l; }
kill_marked() { for f in $(grep -l "PLUMB_SIG_MARK=$1" /proc/[0-9]*/environ 2>/dev/null); do
	p=${f#/proc/}; kill -KILL "${p%/environ}" 2>/dev/null; done; }

# start NAME CMD...: CMD in a session of its own (its pid leads its process group), with a
# marker in its environment and a private TMPDIR; sets pid, mark, tmp, err, out
N=0
start() {
	N=$((N + 1))
	mark="plumb-sig-$$-$N"; tmp="$T/tmp$N"; err="$T/err$N"; out="$T/out$N"
	mkdir -p "$tmp"
	TMPDIR="$tmp" PLUMB_SIG_MARK="$mark" setsid "$@" >"$out" 2>"$err" &
	pid=$!
}

# stop_check NAME SIG parent|group [STORE]: send, wait, check everything
stop_check() {
	name=$1 sig=$2 who=$3 store=$4
	if [ "$who" = group ] && [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" != "$pid" ]; then
		kill -KILL "$pid"; wait "$pid" 2>/dev/null
		skip "$name" "setsid did not make the command a process group leader"; return
	fi
	t0=$(now)
	if [ "$who" = group ]; then kill -"$sig" -"$pid"; else kill -"$sig" "$pid"; fi
	wait_for 10 gone "$pid" || kill -KILL "$pid" # a hang fails the test, never blocks it
	t1=$(now)
	{ wait "$pid"; } 2>/dev/null; rc=$?
	sleep 0.3
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
	want=$((128 + $(signum "$sig")))
	said=$(grep -c "stopped by SIG$sig" "$err")
	left=$(marked "$mark")
	files=$(ls -A "$tmp")
	why=""
	[ "$rc" -eq "$want" ] || why="exit $rc, want $want"
	[ -z "$why" ] && ! lt "$secs" "$LIMIT" && why="took ${secs} s (limit $LIMIT s)"
	[ -z "$why" ] && [ "$said" -ne 1 ] && why="'stopped by SIG$sig' said $said times"
	[ -z "$why" ] && [ "$left" -ne 0 ] && why="$left process(es) left"
	[ -z "$why" ] && [ -n "$files" ] && why="left in TMPDIR: $(echo $files | head -c 100)"
	if [ -z "$why" ] && [ -n "$store" ] && [ -f "$store" ] &&
	   ! "$PLUMB" runs --check --db "$store" >"$T/check" 2>&1; then
		why="store not consistent: $(head -c 200 "$T/check")"
	fi
	if [ -z "$why" ]; then pass "$name"
	else fail "$name" "$why; stderr: $(head -c 300 "$err" | tr '\n' '|')"; fi
	kill_marked "$mark"
	rm -rf "$tmp"
}

# ---- plumb run: while it plans, while a step runs --------------------------------------------
RUN="--only syscall --samples 150 --repeat 2"
KEEP="--db $T/run.db" # an interrupted run is stored, marked incomplete
[ $SQLITE -eq 0 ] && KEEP="--no-store -o $T/run.json"
for c in "INT parent" "TERM group"; do
	set -- $c
	start "$PLUMB" run $RUN $KEEP
	sleep 0.2
	stop_check "signals/run-planning-$1-$2" "$1" "$2" "$T/run.db"
done
for c in "TERM parent" "HUP group" "INT group"; do
	set -- $c
	start "$PLUMB" run $RUN $KEEP
	if wait_for 20 has_child "$pid"; then
		stop_check "signals/run-step-$1-$2" "$1" "$2" "$T/run.db"
	else
		kill -KILL "$pid"; fail "signals/run-step-$1-$2" "no step started within 20 s"
	fi
done

# ---- plumb ab: side B still planning (a wrapper that waits first), steps running ---------------
cat >"$T/slowb" <<EOF
#!/bin/sh
touch "\$SLOWB_FLAG"
sleep 10
exec "$PLUMB" "\$@"
EOF
chmod +x "$T/slowb"
for c in "INT parent" "HUP parent" "TERM group"; do
	set -- $c
	flag="$T/slowb-started-$N"
	export SLOWB_FLAG="$flag"
	start "$PLUMB" ab $RUN --b "$T/slowb" --db "$T/ab.db"
	if wait_for 20 test -f "$flag"; then
		stop_check "signals/ab-plan-$1-$2" "$1" "$2" "$T/ab.db"
	else
		kill -KILL "$pid"; fail "signals/ab-plan-$1-$2" "side B never started"
	fi
done
for c in "TERM parent" "INT group"; do
	set -- $c
	start "$PLUMB" ab $RUN --b "$PLUMB" --db "$T/ab.db"
	if wait_for 20 has_grandchild "$pid"; then
		stop_check "signals/ab-step-$1-$2" "$1" "$2" "$T/ab.db"
	else
		kill -KILL "$pid"; fail "signals/ab-step-$1-$2" "no step started within 20 s"
	fi
done
if [ -f "$T/ab.db" ] && "$PLUMB" runs --db "$T/ab.db" 2>/dev/null | grep -q '^ *[0-9]'; then
	fail signals/ab-stores-nothing "$("$PLUMB" runs --db "$T/ab.db" | head -3)"
else
	pass signals/ab-stores-nothing
fi

# a side that never prints its plan is stopped after --start-timeout and named
printf '#!/bin/sh\nsleep 60\n' >"$T/mute"
chmod +x "$T/mute"
start "$PLUMB" ab --only syscall --b "$T/mute" --start-timeout 2 --db "$T/ab.db"
t0=$(now); wait "$pid"; rc=$?; t1=$(now); sleep 0.3
secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
# (side A's own warnings may come first: it shares ab's stderr)
if [ "$rc" -eq 3 ] && tail -n1 "$err" | grep -q "side B ($T/mute) did not print its plan within 2 s" &&
   [ "$(grep -c 'did not print' "$err")" -eq 1 ] &&
   [ "$(marked "$mark")" -eq 0 ] && [ -z "$(ls -A "$tmp")" ] && lt "$secs" 15; then
	pass signals/ab-start-timeout
else
	fail signals/ab-start-timeout "rc=$rc after ${secs} s, $(marked "$mark") left: $(head -c 300 "$err")"
	kill_marked "$mark"
fi

# ---- plumb serve: listening, and with connections open ------------------------------------------
base=$((20000 + $$ % 20000))
serve_up() { grep -q http "$out"; }
for c in "HUP parent" "INT group"; do
	set -- $c
	up=0
	for try in 1 2 3; do
		base=$((base + 7))
		start "$PLUMB" serve --port "$base"
		if wait_for 10 serve_up; then up=1; break; fi
		kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	done
	if [ $up -eq 0 ]; then
		fail "signals/serve-$1-$2" "serve did not start: $(head -c 200 "$err")"; continue
	fi
	[ -x "$BIN/flood" ] && { "$BIN/flood" "$base" 20 30 >"$T/flood.out" & fpid=$!; wait_for 10 test -s "$T/flood.out"; }
	stop_check "signals/serve-$1-$2" "$1" "$2"
	[ -n "$fpid" ] && { kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null; fpid=; }
done

# ---- plumb push: waiting for a store another process holds locked --------------------------------
# a writer holding the store locked until its stdin closes: python3's sqlite3, or the sqlite3 shell
locker() {
	if python3 -c 'import sqlite3' 2>/dev/null; then
		python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE"); open(sys.argv[2], "w").close(); sys.stdin.read()' "$1" "$2"
	else
		{ printf 'BEGIN IMMEDIATE;\n.system touch %s\n' "$2"; cat; } | sqlite3 "$1" >/dev/null 2>&1
	fi
}
if [ $SQLITE -eq 0 ] || { ! python3 -c 'import sqlite3' 2>/dev/null && ! command -v sqlite3 >/dev/null 2>&1; }; then
	skip signals/push "needs SQLite in plumb, and python3's sqlite3 or the sqlite3 shell (to hold the store locked)"
else
	D=tests/data/lmbench
	TGT="$T/target.db"
	"$PLUMB" push "$D/seed-a10-3.0.36-28.txt" --to "$TGT" >/dev/null 2>&1
	for c in "TERM parent" "HUP group"; do
		set -- $c
		# the store locked by another writer: push waits in SQLite's busy handler
		rm -f "$T/lock"; mkfifo "$T/lock"
		rm -f "$T/locked"
		locker "$TGT" "$T/locked" <"$T/lock" &
		lpid=$!
		exec 9>"$T/lock"
		wait_for 10 test -f "$T/locked" || fail "signals/push-$1-$2" "could not lock the store"
		start "$PLUMB" push "$D/seed-goflex-kirkwood.txt" --to "$TGT"
		sleep 0.5
		stop_check "signals/push-$1-$2" "$1" "$2"
		exec 9>&-
		wait "$lpid" 2>/dev/null
		n=$("$PLUMB" runs --db "$TGT" 2>/dev/null | grep -c '^ *[0-9]')
		if "$PLUMB" runs --check --db "$TGT" >/dev/null 2>&1 && [ "$n" -eq 1 ]; then
			pass "signals/push-$1-$2-nothing-torn"
		else
			fail "signals/push-$1-$2-nothing-torn" "$n runs, check: $("$PLUMB" runs --check --db "$TGT" 2>&1 | head -c 200)"
		fi
	done
fi

# ---- plumb serve under a flood of idle connections: a real client is still served ----------------
if [ ! -x "$BIN/flood" ]; then
	skip signals/serve-flood "bin/flood not built (make test builds it)"
else
	base=$((base + 7))
	start "$PLUMB" serve --port "$base"
	if wait_for 10 serve_up; then
		"$BIN/flood" "$base" 200 30 >"$T/flood.out" & fpid=$!
		wait_for 10 test -s "$T/flood.out"
		t0=$(now)
		timeout 20 "$PLUMB" lat_tcp -N 3 -b "$base" 127.0.0.1 >"$T/lat.out" 2>&1; rc=$?
		t1=$(now)
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		if [ $rc -eq 0 ] && grep -q 'TCP latency using 127.0.0.1' "$T/lat.out" && lt "$secs" 10; then
			pass signals/serve-flood
		else
			fail signals/serve-flood "$(cat "$T/flood.out"), lat_tcp rc=$rc after ${secs} s: $(head -c 200 "$T/lat.out")"
		fi
		kill "$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null
	else
		fail signals/serve-flood "serve did not start: $(head -c 200 "$err")"
	fi
	kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
	kill_marked "$mark"
fi
