#!/bin/sh
# lane: parallel (no timing asserted but a 25x slower null call: runs beside the timing scripts)
# remote.sh — `plumb on HOST`, the suite on another machine over ssh, against a real OpenSSH
# server this test starts on loopback (its own host key, client key and sshd_config in a temp
# directory; the target is this machine as this user): a run comes back into a local store with
# the target's facts and nothing stays on the target; a stop (SIGINT, SIGHUP) mid-run leaves
# nothing there either; no ssh (a closed port), no space (a 64 KiB tmpfs), another architecture
# (the target's `uname -m` says riscv64: a uname first on the PATH its sshd gives sessions) and a
# library the target lacks each give one line; `plumb on HOST ab` runs an A/A session of the
# bundle there, its verdict shown here, both runs stored here, ab's status its own (also 1, a
# regression: bundle B's side under bin/slowsys), and a stop mid-session leaves nothing there.
# SKIPs when sshd or ssh-keygen is missing or will not start.
. tests/lib.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$SSHD" ] || ! command -v ssh-keygen >/dev/null || ! command -v ssh >/dev/null; then
	skip remote/all "no OpenSSH server or client here (apt-get install openssh-server)"
	exit 0
fi
ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" && ssh-keygen -q -t ed25519 -N '' -f "$T/id" || {
	skip remote/all "ssh-keygen cannot make keys"; exit 0; }
cp "$T/id.pub" "$T/authorized_keys"
user=$(id -un)
# sshd refuses to start without its privilege separation directory (made by its service unit)
[ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null
mkdir "$T/fakearch" "$T/target"
printf '#!/bin/sh\n[ "$1" = -m ] && { echo riscv64; exit 0; }\nexec /bin/uname "$@"\n' >"$T/fakearch/uname"
chmod +x "$T/fakearch/uname"
PIDS=""
# sshd_start NAME [EXTRA CONFIG LINE]: an sshd on a free loopback port; sets PORT
sshd_start() {
	for try in 1 2 3 4 5; do
		PORT=$(awk -v s="$$$try" 'BEGIN { srand(s); print 20000 + int(rand() * 40000) }')
		cat >"$T/$1.conf" <<-EOF
		Port $PORT
		ListenAddress 127.0.0.1
		HostKey $T/hostkey
		PidFile $T/$1.pid
		AuthorizedKeysFile $T/authorized_keys
		PermitRootLogin prohibit-password
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		StrictModes no
		UsePAM no
		$2
		EOF
		"$SSHD" -D -f "$T/$1.conf" -E "$T/$1.log" &
		PIDS="$PIDS $!"
		i=0
		while [ $i -lt 50 ]; do
			grep -q 'Server listening' "$T/$1.log" 2>/dev/null && return 0
			kill -0 $! 2>/dev/null || break
			sleep 0.1; i=$((i + 1))
		done
	done
	return 1
}
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
if ! sshd_start main; then
	skip remote/all "sshd does not start here: $(tail -n 1 "$T/main.log" 2>/dev/null)"
	exit 0
fi
main_port=$PORT
sshd_start fake "SetEnv PATH=$T/fakearch:/usr/local/bin:/usr/bin:/bin" || {
	fail remote/sshd "the second sshd did not start: $(tail -n 1 "$T/fake.log")"; exit 0; }
cat >"$T/ssh_config" <<EOF
Host board riscvboard closed
	HostName 127.0.0.1
	User $user
	IdentityFile $T/id
	IdentitiesOnly yes
	BatchMode yes
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	LogLevel ERROR
Host board
	Port $main_port
Host riscvboard
	Port $PORT
Host closed
	Port 1
EOF
if ! ssh -F "$T/ssh_config" board true 2>"$T/ssh.err"; then
	skip remote/all "cannot log in to the test's own sshd: $(tail -n 1 "$T/ssh.err")"
	exit 0
fi
# the bundle of this build, named as `make bundle` names it
tree=$(cd "$(dirname "$PLUMB")/.." && pwd)
triple=$(${CC:-cc} -dumpmachine)
mkdir "$T/bundles"
B="$T/bundles/plumb-$(cat "$tree/VERSION")-$triple.tar.gz"
sh mk/bundle.sh "$tree" "$B" >"$T/bundle.out" 2>&1 || { fail remote/bundle "$(tail -n 1 "$T/bundle.out")"; exit 0; }
on() { "$PLUMB" on "$@" ; }
common="--ssh-config $T/ssh_config --bundle $T/bundles --db $T/local.db"

# a run comes back, with the target's facts, and nothing stays there (without SQLite it is
# written with -o instead of stored)
keep=""
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && keep="--no-store -o $T/back.json"
if on board $common $keep --remote-dir "$T/target" --quick --only lat_syscall.null --label onboard \
	>"$T/run.out" 2>"$T/run.err"; then
	pass "remote: plumb on runs the suite there"
else
	fail "remote: plumb on runs the suite there" "$(tail -n 2 "$T/run.err")"
fi
if [ -n "$keep" ]; then
	skip "remote: says the run is stored" "plumb was built without SQLite: the run is written with -o"
else
	check "remote: says the run is stored" grep -q '^run [0-9]*: stored here, measured on ' "$T/run.out"
	"$PLUMB" export onboard --db "$T/local.db" --format json -o "$T/back.json" 2>"$T/exp.err"
fi
check "remote: the run has the target's facts" grep -q '"ssh_target": *"board"' "$T/back.json"
check "remote: the run has the target's host" grep -q "\"host\": *\"$(uname -n)\"" "$T/back.json"
check "remote: the run has its measurement" grep -q '"lat_syscall' "$T/back.json"
check "remote: nothing left on the target" test -z "$(ls -A "$T/target")"

# a stop sent to plumb alone mid-run (SIGINT, then SIGHUP): the run there is stopped and its
# directory removed, and plumb dies of the signal
for c in "INT 130" "HUP 129"; do
set -- $c
"$PLUMB" on board $common --remote-dir "$T/target" --only lat_syscall --repeat 1000 >"$T/stop.out" 2>"$T/stop.err" &
pid=$!
i=0
while [ $i -lt 200 ] && ! ls "$T"/target/plumb-on.*/pid >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -"$1" $pid
i=0
while [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
if kill -0 $pid 2>/dev/null; then
	fail "remote: SIG$1 ends plumb on" "still running 30 s after SIG$1"
	kill -KILL $pid
fi
wait $pid
rc=$?
check "remote: SIG$1 ends plumb on by SIG$1 (status $rc)" test $rc -eq "$2"
check "remote: SIG$1 leaves nothing on the target" test -z "$(ls -A "$T/target")"
if pgrep -f "$T/target/" >/dev/null; then
	fail "remote: SIG$1 leaves no process on the target" "$(pgrep -af "$T/target/" | head -n 2)"
else
	pass "remote: SIG$1 leaves no process on the target"
fi
check "remote: SIG$1 says so" grep -q "stopped by SIG$1" "$T/stop.err"
done

# one_line NAME PATTERN CMD...: CMD fails with exactly one line on stderr matching PATTERN
one_line() {
	name=$1 pat=$2; shift 2
	"$@" >"$T/one.out" 2>"$T/one.err"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$T/one.err")" -eq 1 ] && grep -q "$pat" "$T/one.err"; then
		pass "remote: $name, one line"
	else
		fail "remote: $name, one line" "exit $rc: $(head -c 600 "$T/one.err")"
	fi
}
one_line "no ssh" '^plumb on: no ssh to closed: .*Connection refused' on closed $common --quick
one_line "another architecture" \
	"^plumb on: wrong architecture: no plumb-.*bundle for riscvboard (uname -m: riscv64).*make bundle CC=riscv64-linux-gnu-gcc" \
	on riscvboard $common --quick
one_line "a bundle of another architecture" "^plumb on: wrong architecture: riscvboard is riscv64 (uname -m), the bundle .* is for" \
	on riscvboard --ssh-config "$T/ssh_config" --bundle "$B" --quick
mkdir "$T/full"
if mount -t tmpfs -o size=64k tmpfs "$T/full" 2>"$T/mount.err"; then
	one_line "no space" "^plumb on: no space on board in $T/full/plumb-on\." \
		on board $common --remote-dir "$T/full" --quick
	check "remote: no space leaves nothing" test -z "$(ls -A "$T/full")"
else
	skip "remote: no space" "cannot mount a small tmpfs here: $(head -n 1 "$T/mount.err")"
fi
# a plumb linked to a library the target does not have (not static, as a bundle must be)
mkdir -p "$T/lib" "$T/dyn/plumb-x/bin"
echo 'int plumb_test_only(void) { return 0; }' >"$T/lib/l.c"
echo 'int plumb_test_only(void); int main(void) { return plumb_test_only(); }' >"$T/lib/m.c"
if ${CC:-cc} -shared -fPIC -o "$T/lib/libplumbtestonly.so" "$T/lib/l.c" &&
	${CC:-cc} -o "$T/dyn/plumb-x/bin/plumb" "$T/lib/m.c" -L"$T/lib" -lplumbtestonly; then
	tar czf "$T/dyn.tar.gz" -C "$T/dyn" plumb-x
	one_line "a library the target lacks" \
		"^plumb on: board lacks a library the bundle's plumb needs: libplumbtestonly.so" \
		on board $common --bundle "$T/dyn.tar.gz" --remote-dir "$T/target" --quick
	check "remote: a missing library leaves nothing" test -z "$(ls -A "$T/target")"
else
	skip "remote: a library the target lacks" "cannot build a shared library with ${CC:-cc}"
fi
expect_usage "remote: a host that is an option" "$PLUMB" on --quick
expect_usage "remote: --json refused" "$PLUMB" on board --json

# plumb on HOST ab: an A/A session of the same bundle on the target, its verdict shown here, both
# runs back with the target's facts, nothing left there; the exit status is ab's
abc="--ssh-config $T/ssh_config --db $T/local.db"
abkeep=""
"$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite' && abkeep="--no-store"
on board ab --a "$B" --b "$B" $abc $abkeep --remote-dir "$T/target" --only lat_syscall.null \
	--time-limit 10s --label base,change >"$T/ab.out" 2>"$T/ab.err"
rc=$?
check "remote: plumb on HOST ab ends as ab does (status $rc)" test $rc -eq 0
# the answer's headline, whichever it is: an A/A session on a loaded machine may honestly call
# B faster (a false positive at alpha 0.05) or test nothing in 10 s; what is checked is that
# the verdict reaches this side
if grep -Eq '^change( is (slower|faster|mixed))?: ' "$T/ab.out"
then pass "remote: ab's verdict shows here"
else fail "remote: ab's verdict shows here" "no answer line: $(head -c 300 "$T/ab.out")"; fi
check "remote: ab's session ran there with both plumbs" grep -q '^ab: .*lat_syscall' "$T/ab.err"
if [ -n "$abkeep" ]; then
	check "remote: ab's runs come back" grep -q '^plumb on: runs base and change of .*not stored' "$T/ab.err"
else
	check "remote: ab's runs are stored here" \
		grep -q '^plumb on: runs [0-9]* (base) and [0-9]* (change): stored here' "$T/ab.err"
	"$PLUMB" export change --db "$T/local.db" --format json -o "$T/ab.json" 2>"$T/abexp.err"
	check "remote: ab's run has the target's facts" grep -q '"ssh_target": *"board"' "$T/ab.json"
	check "remote: ab's run is of the session" grep -q '"ab_side": *"B"' "$T/ab.json"
	# plausibility only: a null system call between 10 ns and 1 ms
	v=$(awk '/"metric": *"lat_syscall.null"/ { m = 1 } m && /"value":/ { sub(/.*"value": */, "");
		sub(/,.*/, ""); print; exit }' "$T/ab.json")
	if [ -n "$v" ] && between "$v" 0.01 1000
	then pass "remote: ab's null call is plausible ($v us)"
	else fail "remote: ab's null call is plausible" "value '$v': $(head -c 300 "$T/ab.json")"; fi
fi
check "remote: ab leaves nothing on the target" test -z "$(ls -A "$T/target")"
# a regression: bundle B's plumb runs its side (`plumb run`) under bin/slowsys, every system
# call tens of times dearer, the session itself and --version as they are; with
# --fail-on-regression ab exits 1 there, and plumb on with it
SLOW=$BIN/slowsys
if [ ! -x "$SLOW" ]; then
	skip "remote: ab's regression (exit 1) passes through" "bin/slowsys not built (make test builds it)"
elif ! "$SLOW" 1 true 2>"$T/slow.err"; then
	skip "remote: ab's regression (exit 1) passes through" "no seccomp filters here: $(cat "$T/slow.err")"
else
	mkdir "$T/slowb" "$T/slowbundle" && tar xzf "$B" -C "$T/slowb"
	sb=$(basename "$B" .tar.gz)
	mv "$T/slowb/$sb/bin/plumb" "$T/slowb/$sb/bin/plumb.real"
	cat >"$T/slowb/$sb/bin/plumb" <<-EOF
	#!/bin/sh
	h=\$(dirname "\$0")
	[ "\$1" = run ] && exec "$SLOW" 4 "\$h/plumb.real" "\$@"
	exec "\$h/plumb.real" "\$@"
	EOF
	chmod +x "$T/slowb/$sb/bin/plumb"
	SB="$T/slowbundle/$sb.tar.gz"
	tar czf "$SB" -C "$T/slowb" "$sb"
	on board ab --a "$B" --b "$SB" $abc $abkeep --remote-dir "$T/target" --only lat_syscall.null \
		--repeat 3 --time-limit 0 --alpha 0.01 --min-effect 25 --fail-on-regression \
		--label base,slower >"$T/ab3.out" 2>"$T/ab3.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q '^lat_syscall\.null.* worse ' "$T/ab3.out"; then
		pass "remote: ab's regression (exit 1) passes through"
	elif [ -n "${ASAN_OPTIONS:-}" ] && [ $rc -eq 0 ] && grep -q '^lat_syscall\.null.*no significant change' "$T/ab3.out"; then
		# seen once: a sanitizer build's 3 rounds spread so far (+1014 % [+350, +2659], both
		# sides "noisy") that the first look's spent alpha leaves the row undecided
		skip "remote: ab's regression (exit 1) passes through" \
			"a sanitizer build (ASAN_OPTIONS): its 3 rounds were too noisy to decide the row ($(grep '^lat_syscall' "$T/ab3.out" | head -n 1 | tr -s ' '))"
	else
		fail "remote: ab's regression (exit 1) passes through" \
			"exit $rc: $(grep '^lat_syscall' "$T/ab3.out" | head -n 2) $(tail -n 2 "$T/ab3.err")"
	fi
	if [ -z "$abkeep" ]; then
		check "remote: a regression's runs are stored here too" \
			grep -q '^plumb on: runs [0-9]* (base) and [0-9]* (slower): stored here' "$T/ab3.err"
	fi
	check "remote: a regression leaves nothing on the target" test -z "$(ls -A "$T/target")"
fi
on board ab --a "$B" --b "$B" $abc --remote-dir "$T/target" --only nosuchfamily >"$T/ab2.out" 2>"$T/ab2.err"
rc=$?
if [ $rc -eq 2 ] && grep -q nosuchfamily "$T/ab2.err" && test -z "$(ls -A "$T/target")"
then pass "remote: ab's own usage error is its status, nothing left"
else fail "remote: ab's own usage error is its status, nothing left" "exit $rc: $(cat "$T/ab2.err")"; fi
# a stop mid-session: ab and its sides stopped there, the directory removed, plumb dies of it
"$PLUMB" on board ab --a "$B" --b "$B" $abc --remote-dir "$T/target" --only lat_syscall \
	--time-limit 10m >"$T/abstop.out" 2>"$T/abstop.err" &
pid=$!
i=0
while [ $i -lt 300 ] && ! grep -q '^ab: ' "$T/abstop.err"; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT $pid
i=0
while [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill -0 $pid 2>/dev/null && { fail "remote: SIGINT ends plumb on HOST ab" "still running after 30 s"; kill -KILL $pid; }
wait $pid
rc=$?
check "remote: SIGINT ends plumb on HOST ab by SIGINT (status $rc)" test $rc -eq 130
check "remote: SIGINT mid-session leaves nothing on the target" test -z "$(ls -A "$T/target")"
if pgrep -f "$T/target/" >/dev/null; then
	fail "remote: SIGINT mid-session leaves no process" "$(pgrep -af "$T/target/" | head -n 2)"
else
	pass "remote: SIGINT mid-session leaves no process"
fi
expect_usage "remote: ab without --b" "$PLUMB" on board ab --a "$B" $abc
expect_usage "remote: ab with --bundle" "$PLUMB" on board ab --a "$B" --b "$B" --bundle "$B" $abc
