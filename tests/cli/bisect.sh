#!/bin/sh
# bisect.sh — `plumb bisect-check` as a `git bisect run` predicate: usage errors and other
# failures exit 128 (git aborts the bisect rather than calling the commit bad); then a throwaway
# repository of 16 commits whose program is a wrapper around this plumb, every system call made
# several times dearer by bin/slowsys from commit 11 on, and `git bisect run plumb bisect-check`
# pairing each commit's program with this plumb (plumb ab sessions) ends on commit 11. A look
# against a stored label checks that mode's plumbing (its answer depends on the machine's load;
# tests/cli/bisectguard.sh checks what it refuses to judge).
. tests/lib.sh

# expect_abort NAME CMD...: exit 128 with a message
expect_abort() {
	name=$1; shift
	"$@" >"$T/out" 2>"$T/err"; rc=$?
	if [ "$rc" -eq 128 ] && [ -s "$T/err" ]
	then pass "$name"
	else fail "$name" "rc=$rc: $(head -c 200 "$T/err")"; fi
}
expect_abort "bisect-check: no --metric" "$PLUMB" bisect-check --min-effect 10 --a "$PLUMB"
expect_abort "bisect-check: no --min-effect" "$PLUMB" bisect-check --metric lat_syscall.null --a "$PLUMB"
expect_abort "bisect-check: no baseline" "$PLUMB" bisect-check --metric lat_syscall.null --min-effect 10
expect_abort "bisect-check: two baselines" "$PLUMB" bisect-check --metric lat_syscall.null \
	--min-effect 10 --a "$PLUMB" --baseline x
expect_abort "bisect-check: -o refused" "$PLUMB" bisect-check --metric lat_syscall.null \
	--min-effect 10 --a "$PLUMB" -o x.json
expect_abort "bisect-check: unknown baseline" "$PLUMB" bisect-check --metric lat_syscall.null \
	--min-effect 10 --baseline "$T/no-such.json"
expect_abort "bisect-check: bad run option" "$PLUMB" bisect-check --metric lat_syscall.null \
	--min-effect 10 --a "$PLUMB" --frobnicate

# many short rounds of the one step that decides, on CPU 0 (see ab.sh); --mem 1m skips the
# memory planner's probe, which this step does not need. Under four other test suites on two
# vCPUs, 4 rounds of the whole syscall family left intervals of +-300 % (t with 3 degrees of
# freedom); 6 rounds of the null call alone (each round on fresh workers) take about 4 s on a
# quiet machine and decide the test's several-fold slowdown in one look.
RUNOPTS="--cpu 0 --only lat_syscall.null --repeat 6 --mem 1m"

# a build without SQLite has no store (and a run it cannot store is written to the current
# directory): the looks that need one are skipped
NOSQL=""
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && NOSQL="built without SQLite"

# a stored baseline: the plumbing (one look, any of the three answers, never an error)
DB=$T/store.db
if [ -n "$NOSQL" ]; then
	skip "bisect-check: against a stored label" "$NOSQL: no store"
elif "$PLUMB" run $RUNOPTS --label good --db "$DB" >/dev/null 2>"$T/base.err"; then
	"$PLUMB" bisect-check --baseline good --db "$DB" --metric lat_syscall --min-effect 50 \
		--sessions 1 $RUNOPTS >"$T/label.out" 2>&1
	rc=$?
	# (a side made beside other work is not judged: 125 and a line saying so, no look)
	if { { [ $rc -eq 0 ] || [ $rc -eq 1 ] || [ $rc -eq 125 ]; } &&
	     [ "$(grep -c '^look 1/1: lat_syscall\.null ' "$T/label.out")" -eq 1 ] ||
	   { [ $rc -eq 125 ] && grep -q 'ran beside other work' "$T/label.out"; }; } &&
	   grep -q '^bisect-check: ' "$T/label.out"
	then pass "bisect-check: against a stored label"
	else fail "bisect-check: against a stored label" "rc=$rc $(tail -n 4 "$T/label.out")"; fi
else
	fail "bisect-check: against a stored label" "baseline run failed: $(tail -n 2 "$T/base.err")"
fi

# a stop sent to bisect-check alone (a paired session under way): the session's sides stop, no
# temporary directory is left, and it dies of the signal (exit 143 >= 128: git aborts)
mkdir -p "$T/tmp"
# (--repeat 200: a look of --repeat 6 takes under 2 s on a quiet machine, and one answered before
# the stop exits 0; this session lasts 50 s here and is stopped once its sides have begun)
TMPDIR="$T/tmp" "$PLUMB" bisect-check --a "$PLUMB" --metric lat_syscall.null --min-effect 50 \
	$RUNOPTS --repeat 200 >/dev/null 2>"$T/stop.err" &
pid=$!
i=0; while [ -z "$(ls -A "$T/tmp")" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -TERM $pid
wait $pid
rc=$?
sleep 1
left=$(ls -A "$T/tmp")
if [ $rc -eq 143 ] && [ -z "$left" ] && ! pgrep -f "$T/tmp" >/dev/null 2>&1
then pass "bisect-check: SIGTERM stops it cleanly"
else fail "bisect-check: SIGTERM stops it cleanly" "rc=$rc left=[$left] $(tail -n 2 "$T/stop.err")"; fi

SLOW=$BIN/slowsys
why=""
[ -x "$SLOW" ] || why="bin/slowsys not built (make test builds it)"
[ -n "$why" ] || "$SLOW" 1 true 2>"$T/slow.err" || why="no seccomp filters here: $(cat "$T/slow.err")"
[ -n "$why" ] || command -v git >/dev/null 2>&1 || why="git is not installed"
# paired looks keep their sessions in a private SQLite store
[ -n "$why" ] || why=$NOSQL
if [ -n "$why" ]; then
	skip "bisect-check: git bisect run finds the slower commit" "$why"
	exit 0
fi

# the repository: prog is the build under test; from commit 11 on it runs plumb with every
# system call dearer (seven filters of 4096 instructions: several times a null call)
R=$T/repo
mkdir "$R"
(
	cd "$R" || exit 1
	git init -q . && git config user.email t@example.org && git config user.name test &&
	git config commit.gpgsign false || exit 1
	for i in $(seq 1 16); do
		if [ "$i" -ge 11 ]; then
			printf '#!/bin/sh\nexec "%s" 7 "%s" "$@"\n' "$SLOW" "$PLUMB" >prog
		else
			printf '#!/bin/sh\nexec "%s" "$@"\n' "$PLUMB" >prog
		fi
		chmod +x prog
		echo "$i" >version
		git add prog version && git commit -q -m "commit $i" || exit 1
	done
) || { fail "bisect-check: git bisect run finds the slower commit" "cannot make the repository"; exit 0; }
want=$(git -C "$R" rev-list --reverse HEAD | sed -n 11p)
first=$(git -C "$R" rev-list --reverse HEAD | sed -n 1p)
(
	cd "$R" &&
	git bisect start HEAD "$first" >/dev/null &&
	git bisect run "$PLUMB" bisect-check --a "$PLUMB" --b "$R/prog" \
		--metric lat_syscall.null --min-effect 100 --sessions 3 $RUNOPTS
) >"$T/bisect.out" 2>&1
got=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit.*/\1/p' "$T/bisect.out")
if [ -n "$got" ] && [ "$got" = "$want" ]
then pass "bisect-check: git bisect run finds the slower commit"
else fail "bisect-check: git bisect run finds the slower commit" \
	"want $want got [$got]: $(grep -E '^(look|bisect-check|running|Bisecting|There)' "$T/bisect.out" | tail -n 12)"; fi
grep -E '^look ' "$T/bisect.out" | sed 's/^/  /'
