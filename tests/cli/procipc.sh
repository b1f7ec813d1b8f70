# procipc.sh — lat_select, lat_sig, lat_proc, lat_pipe, lat_unix, lat_fifo, lat_fcntl, lat_sem,
# lat_epoll:
# output lines, physical plausibility, bad arguments, and that nothing (children, temp files,
# semaphores) outlives a tool, also when it is killed.
. tests/lib.sh
REAL=$(readlink -f "$PLUMB")
HELLO=$(readlink -f "$BIN/plumb-hello")
SPAWN=$(readlink -f "$BIN/plumb-spawn")
# Temp dirs the tools make must land here, and be gone when they exit.
TT="$T/tmp"
mkdir -p "$TT"
export TMPDIR="$TT"

# Processes this script started (directly or not) running our plumb binary (echo children are
# forks of plumb), and this tree's plumb-hello and plumb-spawn. A plumb started from here carries
# this script's mark in its environment, so a plumb of another test or of a user on the same
# machine (a server another script left behind, once) is not counted as this script's leftover.
export PLUMB_PROCIPC_MARK="$T"
ours() {
	# one ls for every process (a readlink per process costs seconds on a busy machine)
	ls -l /proc/[0-9]*/exe 2>/dev/null |
	awk -v a="$REAL" -v b="$HELLO" -v c="$SPAWN" '$NF == a || $NF == b || $NF == c { split($(NF - 2), p, "/"); print p[3], ($NF == a) }' |
	while read -r pid isplumb; do
		# plumb-spawn and plumb-hello run with an empty environment (lat_proc gives them one):
		# any of this tree's is ours
		if [ "$isplumb" = 0 ] || tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "PLUMB_PROCIPC_MARK=$T"
		then echo "$pid"; fi
	done
}
nsem() { ipcs -s 2>/dev/null | grep -c '^0x'; }
num() { isnum "$1" && echo "$1" || echo "-1"; }
sem0=$(nsem)

# run NAME TOOL ARGS...: through the lmbench symlink with --json (every sample; the lmbench line
# is in the document), then check nothing of ours is left running and no temp dir is left.
run() {
	name=$1; shift
	"$BIN/$@" --json >"$T/$name.json" 2>"$T/$name.err"; rc=$?
	[ $rc -eq 0 ] || fail "procipc/$name-runs" "exit $rc: $(head -c 200 "$T/$name.err")"
	sed -n 's/^ *"lmbench": "\(.*\)",\{0,1\}$/\1/p' "$T/$name.json" >"$T/$name"
	left=$(ours | tr '\n' ' ')
	if [ -z "$left" ]; then pass "procipc/$name-no-children"; else fail "procipc/$name-no-children" "still running: $left"; fi
	if [ -z "$(ls -A "$TT")" ]; then pass "procipc/$name-no-tempdir"; else fail "procipc/$name-no-tempdir" "$(ls -A "$TT")"; rm -rf "${TT:?}"/*; fi
	[ ! -s "$T/$name.err" ] || fail "procipc/$name-stderr-empty" "$(head -c 100 "$T/$name.err")"
}
# line NAME REGEX: the tool's single result line matches lmbench's format
line() {
	if [ "$(wc -l <"$T/$1")" -eq 1 ] && grep -Eq "$2" "$T/$1"; then pass "procipc/$1-line"
	else fail "procipc/$1-line" "$(head -c 200 "$T/$1")"; fi
}
# v NAME: the value printed (the median); vmin NAME: the least disturbed sample. Relations
# between two benchmarks compare minima: on a machine shared with other work, noise only ever
# adds time, and medians of short samples swing by a factor of two or more.
v() { num "$(sed -n 's/.*: \([0-9.-]*\) microseconds$/\1/p' "$T/$1")"; }
vmin() { num "$(awk '/"samples"/ { s = 1 } s && /"value":/ { x = $2; sub(/,$/, "", x); if (m == "" || x + 0 < m + 0) m = x } END { print m }' "$T/$1.json")"; }
# dearer TEST CHEAP DEAR "CHEAP ARGS" "DEAR ARGS": the minimum of DEAR's samples is above
# CHEAP's. On a miss both are measured again, up to 3 times in all: a loaded machine can invert
# one pair of runs, not three in a row unless the relation is false.
dearer() {
	t=$1; a=$2; b=$3; ca=$4; cb=$5; n=1
	while ! lt "$(vmin "$a")" "$(vmin "$b")" && [ $n -lt 3 ]; do
		n=$((n + 1))
		"$PLUMB" $ca --json >"$T/$a.json" 2>/dev/null
		"$PLUMB" $cb --json >"$T/$b.json" 2>/dev/null
	done
	if lt "$(vmin "$a")" "$(vmin "$b")"; then pass "procipc/$t"
	else fail "procipc/$t" "$a=$(vmin "$a") $b=$(vmin "$b") in each of $n tries"; fi
}
# notcheaper TEST CHEAP DEAR: DEAR's least disturbed sample is not below CHEAP's by more than
# the two runs' spreads (median - minimum of each), the noise a measurement of the same work shows
# bytes_per_write TOOL ARGS...: the kernel's count of bytes written over write calls made, by the
# tool and the children it reaped (/proc/PID/io of a shell that waited for it: a reaped child's
# I/O counts are added to its parent's), printed as one number; empty without I/O accounting
bytes_per_write() {
	sh -c '"$@" >/dev/null 2>&1; cat /proc/$$/io 2>/dev/null' sh "$PLUMB" "$@" |
		awk '/^wchar:/ { w = $2 } /^syscw:/ { c = $2 } END { if (c > 0) printf "%.0f\n", w / c }'
}
# sym NAME REGEX TOOL ARGS...: plain run through the symlink: the line on stderr, stdout empty
sym() {
	name=$1; re=$2; shift 2
	"$BIN/$@" 2>"$T/$name.sym" >"$T/$name.symout"
	if [ "$(wc -l <"$T/$name.sym")" -eq 1 ] && grep -Eq "$re" "$T/$name.sym" && [ ! -s "$T/$name.symout" ]; then
		pass "procipc/$name-symlink-stderr"
	else fail "procipc/$name-symlink-stderr" "$(head -c 200 "$T/$name.sym")"; fi
}

NUM='[0-9]+\.[0-9]{4}'
# ---- lat_select ------------------------------------------------------------------------------
run sel10 lat_select -n 10 -N 5 file
run sel100 lat_select -n 100 -N 5 file
run tsel10 lat_select -n 10 -N 5 tcp
run tsel100 lat_select -n 100 -N 5 tcp
run sel1k lat_select -n 1000 -N 3 file
line sel10 "^Select on 10 fd's: $NUM microseconds$"
line tsel100 "^Select on 100 tcp fd's: $NUM microseconds$"
line sel1k "^Select on 1000 fd's: $NUM microseconds$"
# select examines every descriptor: 10 times as many cost more
dearer select-100-dearer-than-10 sel10 sel100 "lat_select -n 10 -N 5 file" "lat_select -n 100 -N 5 file"
dearer select-tcp-100-dearer-than-10 tsel10 tsel100 "lat_select -n 10 -N 5 tcp" "lat_select -n 100 -N 5 tcp"
dearer select-1000-dearer-than-100 sel100 sel1k "lat_select -n 100 -N 5 file" "lat_select -n 1000 -N 3 file"
sym sel "^Select on 10 fd's: $NUM microseconds$" lat_select -n 10 -N 3 file
"$PLUMB" lat_select -n 1k -N 3 file >"$T/sel1kk" 2>&1; rc=$?
# 1k = 1024 descriptors do not fit below FD_SETSIZE with stdin/out/err open: one line, exit 2
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/sel1kk")" -eq 1 ]; then pass procipc/select-1k-too-many; else fail procipc/select-1k-too-many "rc=$rc $(cat "$T/sel1kk")"; fi
expect_usage procipc/select-usage-none "$PLUMB" lat_select
expect_usage procipc/select-usage-mode "$PLUMB" lat_select udp
expect_usage procipc/select-usage-n0 "$PLUMB" lat_select -n 0 file
expect_usage procipc/select-usage-nabc "$PLUMB" lat_select -n abc file
expect_usage procipc/select-usage-nhuge "$PLUMB" lat_select -n 100000 file
expect_usage procipc/select-usage-extra "$PLUMB" lat_select file tcp

# ---- lat_sig ---------------------------------------------------------------------------------
echo data >"$T/sigfile"
run install lat_sig -N 5 install
run catch lat_sig -N 11 catch
run prot lat_sig -N 11 prot
run protf lat_sig -N 11 prot "$T/sigfile"
line install "^Signal handler installation: $NUM microseconds$"
line catch "^Signal handler overhead: $NUM microseconds$"
line prot "^Protection fault: $NUM microseconds$"
line protf "^Protection fault: $NUM microseconds$"
# a signal delivery and a fault cost more than nothing and far less than a millisecond
for k in install catch prot protf; do
	if between "$(v $k)" 0.001 1000 && lt 0 "$(v $k)"; then pass "procipc/sig-$k-plausible"; else fail "procipc/sig-$k-plausible" "$(v $k)"; fi
done
"$PLUMB" lat_sig catch -N 3 --json >"$T/catch.json"
n=$(grep -c '"elapsed_ns"' "$T/catch.json")
# 3 samples of the figure, 3 of its steady twin
if [ "$n" -eq 6 ] && grep -q '"kill0_ns"' "$T/catch.json" && grep -q '"kill0_steady_ns"' "$T/catch.json"
then pass procipc/sig-catch-json; else fail procipc/sig-catch-json "samples=$n"; fi
# the steady delivery: more than nothing (a delivery adds a signal frame, the handler and a
# sigreturn to the system call subtracted), and the whole single kill(self, SIGUSR1) it was
# taken from (the delivery plus kill(self, 0), both medians of single calls) agrees with
# lat_tail's median of the same call within a factor of 2. Not a tighter bound: the two are
# taken in different processes at different moments, and this guest's level moves 20-35 %
# between moments (seen: steady catch 2.51 us beside a p50 of 2.35 us under make test, where
# a quiet machine gives 2.0 and 2.4). Up to 3 tries.
n=0
while :; do
	n=$((n + 1))
	read -r cs k0 <<EOT
$("$PLUMB" lat_sig catch -N 3 --json 2>/dev/null | python3 -c 'import json, sys
r = next(r for r in json.load(sys.stdin)["results"] if r["metric"] == "lat_sig.catch.steady")
print(r["value"], r["info"]["kill0_steady_ns"] / 1000)' 2>/dev/null)
EOT
	tp=$("$PLUMB" lat_tail -o sig -N 3 -k 2000 2>&1 | awk '$3 == "p50:" { print $4 }')
	whole=$(awk -v a="$cs" -v b="$k0" 'BEGIN { print a + b }')
	if lt 0 "$cs" && lt 0 "$k0" && isnum "$tp" &&
	   between "$whole" "$(awk -v t="$tp" 'BEGIN { print t / 2 }')" "$(awk -v t="$tp" 'BEGIN { print t * 2 }')"
	then pass procipc/sig-catch-steady; break; fi
	[ $n -lt 3 ] || { fail procipc/sig-catch-steady "3 tries, the last: steady catch '$cs' us + kill(self, 0) '$k0' us against lat_tail sig p50 '$tp' us"; break; }
done
# prot's steady figure: single faults, at least 15 a sample, each read by the handler's clock;
# a fault's trap and handling cost more than nothing beyond a delivery, and far less than 1 ms.
# The delivery subtracted is measured at other moments: on a host that flips between two
# speeds a fault can read below it, and the tool then records no twin and says steady=none on
# lat_sig.prot (seen once in 5 runs here, at -0.32 us before it did): up to 3 tries
n=0 seen=""
while :; do
	n=$((n + 1))
	"$PLUMB" lat_sig prot -N 3 --json >"$T/prot.json"
	set -- $(python3 -c 'import json, sys
res = json.load(open(sys.argv[1]))["results"]
r = next((x for x in res if x["metric"] == "lat_sig.prot.steady"), None)
if r is None:
    b = next(x for x in res if x["metric"] == "lat_sig.prot")
    print("none", b["info"].get("steady", "?"))
else:
    print(r["value"], min(s["iters"] for s in r["samples"]), r["info"]["steady"], "catch_steady_ns" in r["info"])' "$T/prot.json" 2>/dev/null)
	seen="$seen [$*]"
	if [ $# -eq 4 ] && lt 0 "$1" && lt "$1" 1000 && [ "$2" -ge 15 ] && [ "$3" = single ] && [ "$4" = True ]
	then pass procipc/sig-prot-steady; break; fi
	# a twin left out must say so on the batch row; a twin present must be right
	if [ $# -ne 2 ] || [ "$2" != none ] || [ $n -ge 3 ]; then
		fail procipc/sig-prot-steady "value, least faults, steady, catch:$seen"; break
	fi
done
expect_usage procipc/sig-usage-none "$PLUMB" lat_sig
expect_usage procipc/sig-usage-mode "$PLUMB" lat_sig bogus
expect_usage procipc/sig-usage-nofile "$PLUMB" lat_sig prot /no/such/file
expect_usage procipc/sig-usage-emptyfile "$PLUMB" lat_sig prot /dev/null
expect_usage procipc/sig-usage-extra "$PLUMB" lat_sig catch "$T/sigfile" more

# ---- lat_proc --------------------------------------------------------------------------------
for m in procedure fork exec shell; do run "proc_$m" lat_proc -N 5 $m; done
line proc_procedure "^Procedure call: $NUM microseconds$"
line proc_fork "^Process fork\+exit: $NUM microseconds$"
line proc_exec "^Process fork\+execve: $NUM microseconds$"
line proc_shell "^Process fork\+/bin/sh -c: $NUM microseconds$"
sym proc "^Procedure call: $NUM microseconds$" lat_proc -N 3 procedure
# execve adds a program load to fork+exit; sh -c adds a second execve and a shell start
dearer proc-exec-dearer-than-fork proc_fork proc_exec "lat_proc -N 3 fork" "lat_proc -N 3 exec"
dearer proc-shell-dearer-than-exec proc_exec proc_shell "lat_proc -N 3 exec" "lat_proc -N 3 shell"
pr=$(vmin proc_procedure); fk=$(vmin proc_fork)
if lt 0 "$pr" && lt "$(awk -v p="$pr" 'BEGIN { print p * 100 }')" "$fk"; then pass procipc/proc-call-far-cheaper-than-fork
else fail procipc/proc-call-far-cheaper-than-fork "procedure=$pr fork=$fk"; fi
# a helper the kernel cannot run (a foreign binary without binfmt_misc, as under qemu-user
# started by hand; here a file that is no program) is one line saying so, not "no answer"
mkdir -p "$T/noexec"
cp "$REAL" "$HELLO" "$T/noexec/"
printf '\177ELF not a program' >"$T/noexec/plumb-spawn"
chmod +x "$T/noexec/plumb-spawn"
"$T/noexec/plumb" lat_proc -N 1 fork >/dev/null 2>"$T/noexec.err"; rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$T/noexec.err")" -eq 1 ] &&
	grep -q 'plumb-spawn: cannot start it: Exec format error' "$T/noexec.err"
then pass "procipc/proc-helper-cannot-start"
else fail "procipc/proc-helper-cannot-start" "rc=$rc $(cat "$T/noexec.err")"; fi
expect_usage procipc/proc-usage-none "$PLUMB" lat_proc
expect_usage procipc/proc-usage-mode "$PLUMB" lat_proc spawn
expect_usage procipc/proc-usage-extra "$PLUMB" lat_proc fork extra
# without plumb-hello beside the binary: exit 3, one line
mkdir -p "$T/lonely"
cp "$PLUMB" "$T/lonely/plumb"
"$T/lonely/plumb" lat_proc exec >"$T/lonely.out" 2>&1; rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$T/lonely.out")" -eq 1 ] && grep -q plumb-hello "$T/lonely.out"; then pass procipc/proc-no-hello
else fail procipc/proc-no-hello "rc=$rc $(head -c 200 "$T/lonely.out")"; fi

# without plumb-spawn beside the binary: fork cannot be measured from a small process: exit 3
mkdir -p "$T/nospawn"
cp "$PLUMB" "$BIN/plumb-hello" "$T/nospawn/"
"$T/nospawn/plumb" lat_proc fork >"$T/nospawn.out" 2>&1; rc=$?
if [ $rc -eq 3 ] && [ "$(wc -l <"$T/nospawn.out")" -eq 1 ] && grep -q plumb-spawn "$T/nospawn.out"; then pass procipc/proc-no-spawn
else fail procipc/proc-no-spawn "rc=$rc $(head -c 200 "$T/nospawn.out")"; fi
# fork, exec and shell are forked from plumb-spawn, and the result says so
if grep -q '"forked_from": "[^"]*plumb-spawn"' "$T/proc_fork.json" && grep -q '"forked_from": "[^"]*plumb-spawn"' "$T/proc_shell.json"
then pass procipc/proc-forked-from-spawn; else fail procipc/proc-forked-from-spawn "$(grep forked "$T/proc_fork.json")"; fi

# fork's child leaves through the C library's exit(), lmbench's operation: a destructor
# preloaded into plumb-spawn runs in each of 3 children and in the helper itself (4), where an
# _exit() child would skip it (1)
cat >"$T/dtor.c" <<'EOF'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
__attribute__((destructor)) static void mark(void)
{
	const char *f = getenv("PLUMB_DTOR_FILE");
	int fd = f ? open(f, O_WRONLY | O_APPEND | O_CREAT, 0600) : -1;
	if (fd >= 0 && write(fd, "x", 1) == 1)
		close(fd);
}
EOF
if ${CC:-cc} -shared -fPIC -o "$T/dtor.so" "$T/dtor.c" 2>"$T/dtor.err"; then
	ans=$(printf 'f 3\n' | PLUMB_DTOR_FILE="$T/dtor.marks" LD_PRELOAD="$T/dtor.so" \
		"$SPAWN" "$HELLO" true)
	marks=$(wc -c <"$T/dtor.marks" 2>/dev/null)
	if [ "$ans" = ok ] && [ "${marks:-0}" -eq 4 ]; then pass procipc/proc-fork-child-exits
	else fail procipc/proc-fork-child-exits "answer '$ans', ${marks:-no} runs, want 4"
	fi
else
	skip procipc/proc-fork-child-exits \
		"no C compiler for a preloaded destructor: $(head -c 200 "$T/dtor.err")"
fi

# installed layout: PREFIX/bin/plumb finds PREFIX/lib/plumb/plumb-hello and plumb-spawn (a
# blank in the path must survive sh -c)
mkdir -p "$T/in st/bin" "$T/in st/lib/plumb/bin"
cp "$PLUMB" "$T/in st/bin/plumb"
cp "$BIN/plumb-hello" "$T/in st/lib/plumb/plumb-hello"
cp "$BIN/plumb-spawn" "$T/in st/lib/plumb/plumb-spawn"
ln -s ../../../bin/plumb "$T/in st/lib/plumb/bin/lat_proc"
"$T/in st/lib/plumb/bin/lat_proc" -N 3 exec 2>"$T/inst_exec" >/dev/null
"$T/in st/bin/plumb" lat_proc -N 3 shell >"$T/inst_shell" 2>&1
if grep -Eq "^Process fork\+execve: $NUM microseconds$" "$T/inst_exec" &&
   grep -Eq "^Process fork\+/bin/sh -c: $NUM microseconds$" "$T/inst_shell"; then pass procipc/proc-installed-layout
else fail procipc/proc-installed-layout "$(cat "$T/inst_exec" "$T/inst_shell" | head -c 300)"; fi

# ---- pipe, unix, fifo, fcntl, sem --------------------------------------------------------------
run pipe lat_pipe -N 5
run unix lat_unix -N 5
run unix16k lat_unix -N 5 -m 16k
run fifo lat_fifo -N 5
run fcntl lat_fcntl -N 5
run sem lat_sem -N 5
line pipe "^Pipe latency: $NUM microseconds$"
line unix "^AF_UNIX sock stream latency: $NUM microseconds$"
line unix16k "^AF_UNIX sock stream latency: $NUM microseconds$"
line fifo "^Fifo latency: $NUM microseconds$"
line fcntl "^Fcntl lock latency: $NUM microseconds$"
line sem "^Semaphore latency: $NUM microseconds$"
"$PLUMB" lat_syscall -N 5 null >"$T/null" 2>&1
null=$(field "$T/null" '^Simple syscall' 3)
# a round trip is two system calls and two process switches at least
for k in pipe unix fifo; do
	if between "$(v $k)" 0.5 1000 && lt "$null" "$(v $k)"; then pass "procipc/$k-plausible"; else fail "procipc/$k-plausible" "$k=$(v $k) null=$null"; fi
done
for k in fcntl sem; do
	if between "$(v $k)" 0.1 1000 && lt "$null" "$(v $k)"; then pass "procipc/$k-plausible"; else fail "procipc/$k-plausible" "$k=$(v $k) null=$null"; fi
done
# -m is the message: the kernel counts the bytes each write call moved (nearly every write of
# the run is a message). No timing relation holds at 16 KiB on every machine: on a 2-vCPU KVM
# guest a 16 KiB round trip measured 22.6 us and a 1-byte one 26.9 us in one CI run (the wake-ups
# dominate and differ from run to run). A round trip of 1 MiB copies 4 MiB more than one of
# 1 byte: no memory is fast enough to hide that behind a wake-up.
b1=$(bytes_per_write lat_unix -N 3)
b16=$(bytes_per_write lat_unix -N 3 -m 16k)
if [ -z "$b1" ] || [ -z "$b16" ]; then skip procipc/unix-16k-moves-16k "no /proc/PID/io here (kernel without task I/O accounting)"
elif [ "$b16" -ge 8192 ] && [ "$b16" -le 16384 ] && [ "$b1" -le 64 ]; then pass procipc/unix-16k-moves-16k
else fail procipc/unix-16k-moves-16k "bytes per write call: -m 16k $b16, default (1 byte) $b1"; fi
run unix1m lat_unix -N 5 -m 1m
dearer unix-1m-dearer unix unix1m "lat_unix -N 5" "lat_unix -N 5 -m 1m"
sym pipe "^Pipe latency: $NUM microseconds$" lat_pipe -N 3
# (a sign allowed: catch subtracts a kill(0) measured apart from it, and with 3 samples on a busy
# CPU the difference came out -0.17 us once; sig-catch-plausible judges the value, with 11)
sym sig "^Signal handler overhead: -?$NUM microseconds$" lat_sig -N 3 catch
if [ "$(nsem)" = "$sem0" ]; then pass procipc/sem-removed; else fail procipc/sem-removed "semaphore sets before $sem0, after $(nsem)"; fi
mkdir -p "$T/fs"
check procipc/fifo-fsdir "$PLUMB" lat_fifo -N 3 --fsdir "$T/fs"
if [ -z "$(ls -A "$T/fs")" ]; then pass procipc/fifo-fsdir-clean; else fail procipc/fifo-fsdir-clean "$(ls -A "$T/fs")"; fi
two=$(allowed_cpus | head -n 2 | tr '\n' ',' | sed 's/,$//')
case "$two" in
*,*) check procipc/pipe-spread "$PLUMB" lat_pipe -N 3 --cpu "$two" ;;
*) skip procipc/pipe-spread "one CPU may be used here: nothing to spread over" ;;
esac
check procipc/sem-parallel "$PLUMB" lat_sem -N 3 -P 2
check procipc/fifo-parallel "$PLUMB" lat_fifo -N 3 -P 2
for t in lat_pipe lat_fifo lat_fcntl lat_sem; do
	expect_usage "procipc/$t-usage-extra" "$PLUMB" $t extra
done
expect_usage procipc/unix-usage-m0 "$PLUMB" lat_unix -m 0
expect_usage procipc/unix-usage-mabc "$PLUMB" lat_unix -m abc
expect_usage procipc/unix-usage-mhuge "$PLUMB" lat_unix -m 1g

# ---- lat_epoll ----------------------------------------------------------------------------------
run epoll lat_epoll -N 5
line epoll "^epoll latency: $NUM microseconds$"
# Each side blocks in epoll_wait() once a round trip (level-triggered, one byte in flight): the
# helper's count of wake-ups, reported at teardown, equals the round trips made, and those are
# at least the timed ones (iterations x samples). A loop that polled, or read without waiting,
# would count otherwise (the tool itself exits 3 on a mismatch).
trips=$(sed -n 's/^ *"round_trips": \([0-9]*\),\{0,1\}$/\1/p' "$T/epoll.json" | head -n 1)
wakes=$(sed -n 's/^ *"helper_wakeups": \([0-9]*\),\{0,1\}$/\1/p' "$T/epoll.json" | head -n 1)
iters=$(sed -n 's/^ *"iters": \([0-9]*\),\{0,1\}$/\1/p' "$T/epoll.json" | head -n 1)
if isnum "$trips" && isnum "$iters" && [ "$trips" = "$wakes" ] && [ "$trips" -ge $((iters * 5)) ]
then pass procipc/epoll-one-wakeup-per-round-trip
else fail procipc/epoll-one-wakeup-per-round-trip "round trips $trips, helper wake-ups $wakes, iterations $iters x 5 samples"; fi
# A round trip is six system calls at least (write, epoll_wait and read on each side), each
# costing no less than a null one: the least disturbed sample is above 4 null calls' least
# (noise only adds time; measured again up to 3 times in all).
n=1
"$PLUMB" lat_syscall -N 5 null --json >"$T/null5.json" 2>/dev/null
while ! lt "$(awk -v m="$(vmin null5)" 'BEGIN { print 4 * m }')" "$(vmin epoll)" && [ $n -lt 3 ]; do
	n=$((n + 1))
	"$PLUMB" lat_syscall -N 5 null --json >"$T/null5.json" 2>/dev/null
	"$PLUMB" lat_epoll -N 5 --json >"$T/epoll.json" 2>/dev/null
done
if between "$(v epoll)" 0.5 1000 && lt "$(awk -v m="$(vmin null5)" 'BEGIN { print 4 * m }')" "$(vmin epoll)"
then pass procipc/epoll-above-4-syscalls
else fail procipc/epoll-above-4-syscalls "epoll=$(v epoll) (least $(vmin epoll)) null least=$(vmin null5) in $n tries"; fi
# its chart (the row's .chart = "samples"): every sample a side holds, sorted, a line for the
# batch mean's and a dashed one for the steady figure's, in plot's files and on report's page
"$PLUMB" plot -d "$T/epoll-plot" "$T/epoll.json" >/dev/null 2>"$T/epoll-plot.err"
svg=$(ls "$T/epoll-plot/"*-samples-lat_epoll-latency.svg 2>/dev/null | head -n 1)
lines=1 # the steady line too when the run holds the steady figure (it always should)
grep -q '"lat_epoll.latency.steady"' "$T/epoll.json" && lines=2
if [ -n "$svg" ] && grep -q '<title>lat_epoll.latency: epoll wake-up round trip, 1 byte' "$svg" &&
	[ "$(grep -c "<polyline " "$svg")" -ge $lines ] &&
	{ [ $lines = 1 ] || grep -q 'stroke-dasharray' "$svg"; } &&
	grep -q '>rank among the side' "$svg" && grep -q '>us<' "$svg"
then pass procipc/epoll-chart-of-samples
else fail procipc/epoll-chart-of-samples "${svg:-no svg}: $(ls "$T/epoll-plot" 2>&1 | head -c 300) $(head -c 200 "$T/epoll-plot.err")"; fi
"$PLUMB" report -o "$T/epoll.html" "$T/epoll.json" >/dev/null 2>&1
check procipc/epoll-chart-in-report grep -q 'id="samples-lat_epoll-latency"' "$T/epoll.html"
sym epoll "^epoll latency: $NUM microseconds$" lat_epoll -N 3
check procipc/epoll-parallel "$PLUMB" lat_epoll -N 3 -P 2
expect_usage procipc/lat_epoll-usage-extra "$PLUMB" lat_epoll extra

# ---- killed mid-run: the echo child goes too; the semaphore set too ------------------------------
ncpu=$(allowed_cpus | wc -l)
for t in lat_pipe lat_sem lat_epoll; do
	# long enough (1000 samples of 20 ms) to be killed mid-run even on a busy machine, where
	# the children may take seconds to show
	t0=$(date +%s)
	ENOUGH=20000 "$PLUMB" $t -N 1000 >"$T/kill.out" 2>&1 &
	pid=$!
	kids=""; i=0
	while [ -z "$kids" ] && [ $i -lt 100 ]; do
		sleep 0.1
		kids=$(pgrep -P $pid | tr '\n' ' ')
		i=$((i + 1))
	done
	# default placement: the echo child shares the measuring process's CPU
	if [ $t = lat_pipe ] && [ -n "$kids" ] && [ "$ncpu" -gt 1 ]; then
		a=$(awk '/Cpus_allowed_list/ { print $2 }' /proc/$pid/status)
		b=$(awk '/Cpus_allowed_list/ { print $2 }' /proc/${kids%% *}/status)
		if [ -n "$a" ] && [ "$a" = "$b" ]; then pass procipc/pipe-same-cpu; else fail procipc/pipe-same-cpu "parent=$a child=$b"; fi
	fi
	kill -TERM $pid
	wait $pid; rc=$?
	sleep 0.2
	left=""
	for k in $kids; do kill -0 "$k" 2>/dev/null && left="$left $k"; done
	if [ -n "$kids" ] && [ -z "$left" ] && [ $rc -eq 143 ]; then pass "procipc/$t-sigterm-kills-child"
	else fail "procipc/$t-sigterm-kills-child" "rc=$rc after $(( $(date +%s) - t0 )) s children=[$kids] left=[$left] output: $(head -c 300 "$T/kill.out")"; fi
done
if [ "$(nsem)" = "$sem0" ]; then pass procipc/sem-removed-on-sigterm; else fail procipc/sem-removed-on-sigterm "before $sem0, after $(nsem)"; fi

# ---- the seed article's loops (run as written, through the lmbench names, in bash) --------------
cd "$T" || exit 1
dd if=/dev/urandom of=test.pattern bs=1024 count=1024 2>/dev/null
PATH="$BIN:$PATH" bash -c 'list="null read write stat fstat open"; \
  for i in $list; do echo -en "$i\t"; done; echo; \
  for i in $list; do \
  res=$(lat_syscall $i test.pattern 2>&1 | awk "{print \$3}"); \
  echo -en "$res\t"; done; echo microseconds' >"$T/seed_sys" 2>&1
vals=$(awk '/null\tread\twrite\tstat\tfstat\topen/ { getline; print }' "$T/seed_sys")
if echo "$vals" | grep -Eq '^([0-9]+\.[0-9]{4}	){6}microseconds$'; then pass procipc/seed-lat_syscall-loop
else fail procipc/seed-lat_syscall-loop "$(head -c 300 "$T/seed_sys")"; fi
# lat_proc: the article's awk sets FS inside the action. Awks that split fields lazily (BusyBox,
# the article's target) apply it to the current line and print the numbers; POSIX awks (mawk,
# gawk) apply it from the next line, so on the single lmbench line they print the word before
# the colon — lmbench itself gives the same. Accept either, exactly.
seed_proc() {
	PATH="$BIN:$PATH" bash -c 'list="procedure fork exec shell"; \
  for i in $list; do echo -en "$i\t"; done ;echo; \
  for i in $list; do res=$(lat_proc $i 2>&1 | awk "{FS=\":\"} ; {print \$2}" \
  | awk "{print \$1}"); echo -en "$res\t"; done ; echo microseconds'
}
seed_proc >"$T/seed_proc" 2>&1
vals=$(awk '/procedure\tfork\texec\tshell/ { getline; print }' "$T/seed_proc")
if [ "$(echo 'a b:c' | awk '{FS=":"} ; {print $2}')" = "c" ]; then want='^([0-9]+\.[0-9]{4}	){4}microseconds$'
else want='^call:	fork\+exit:	fork\+execve:	fork\+/bin/sh	microseconds$'; fi
if echo "$vals" | grep -Eq "$want"; then pass procipc/seed-lat_proc-loop
else fail procipc/seed-lat_proc-loop "$(head -c 300 "$T/seed_proc")"; fi
# and the numbers the article reads: field 2 after the colon of each line
PATH="$BIN:$PATH" bash -c 'for i in procedure fork exec shell; do lat_proc -N 3 $i 2>&1 | awk -F: "{print \$2}" | awk "{print \$1}"; done' >"$T/seed_proc2" 2>&1
if [ "$(grep -Ec '^[0-9]+\.[0-9]{4}$' "$T/seed_proc2")" -eq 4 ]; then pass procipc/seed-lat_proc-numbers
else fail procipc/seed-lat_proc-numbers "$(head -c 300 "$T/seed_proc2")"; fi
left=$(ours | tr '\n' ' ')
if [ -z "$left" ]; then pass procipc/seed-no-children; else fail procipc/seed-no-children "$left"; fi
