#!/bin/sh
# leaks.sh — LeakSanitizer over every tool and command once, on an ASan build (make check-asan
# runs it). The test suite itself runs with detect_leaks=0: its signal tests count plumb's
# processes, and LSan's exit-time tracer is one more. Here each invocation runs to a normal end
# and must leave no "ERROR: LeakSanitizer" report. Prints PASS/FAIL lines and a total.
cd "$(dirname "$0")/.." || exit 2
P=bin/plumb
T=$(mktemp -d /tmp/plumb-leaks.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT
export ENOUGH=1000 TMPDIR="$T"
export ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 UBSAN_OPTIONS=halt_on_error=1
head -c 1048576 /dev/urandom >"$T/f1m"
pass=0 fail=0
while IFS= read -r cmd; do
	[ -n "$cmd" ] || continue
	# shellcheck disable=SC2086 # the words of cmd are the arguments
	$P $cmd >"$T/out" 2>&1 </dev/null
	rc=$?
	if grep -q 'ERROR: LeakSanitizer' "$T/out"; then
		echo "FAIL leaks/$cmd: $(grep -m1 -A7 'leak of' "$T/out" | grep -E ' in (x|[a-z_]+ /)' | head -3 | tr -s ' ' | tr '\n' ';')"
		fail=$((fail + 1))
	elif [ $rc -ne 0 ]; then # a command that did not run to its end proves nothing
		echo "FAIL leaks/$cmd: exit $rc: $(tail -n 1 "$T/out")"
		fail=$((fail + 1))
	else
		echo "PASS leaks/$cmd"
		pass=$((pass + 1))
	fi
done <<LIST
lat_syscall -N 2 null
lat_syscall -N 2 open
lat_select -N 2 -n 10 file
lat_select -N 2 -n 10 tcp
lat_sig -N 2 prot
lat_proc -N 2 fork
lat_proc -N 2 exec
lat_pipe -N 2
lat_unix -N 2
lat_fifo -N 2
lat_fcntl -N 2
lat_sem -N 2
lat_ops -N 2
mhz
memsize 16
lat_ctx -N 2 -s 0 2
lat_fs -N 2 -s 0
bw_file_rd -N 2 1m io_only $T/f1m
bw_mmap_rd -N 2 1m mmap_only $T/f1m
lat_mmap -N 2 1m $T/f1m
lat_pagefault -N 2 $T/f1m
lmdd if=internal of=internal count=100
lat_tcp -N 2
lat_udp -N 2
lat_connect -N 2
lat_unix_connect -N 2
bw_tcp -N 2 -m 64k
bw_unix -N 2
bw_pipe -N 2
lat_http -N 2
lat_rpc -N 2 -p udp
bw_mem -N 2 1m rd
lat_mem_rd -N 2 1
stream -N 2 -M 2m
stream -N 2 -M 2m -v 2 --no-nt
tlb -M 16m
par_mem -M 1m
line
cache -M 1m
list
list --json
list --metrics
sysinfo
run --quick --only syscall,memory --no-store -o $T/q.json
summary $T/q.json
compare $T/q.json $T/q.json
report $T/q.json -o $T/r.html
plot $T/q.json -d $T/svg
export $T/q.json --format lmbench -o $T/q.txt
export $T/q.json --format csv -o $T/q.csv
import --db $T/db $T/q.json
runs --db $T/db
compare --db $T/db 1 $T/q.json
ab --quick --only syscall --b bin/plumb --db $T/db --json-dir $T
annotate --db $T/db
runs --db $T/db --host nosuchhost --since 2020-01-01
push 1 --db $T/db --to $T/db2
summary --per-host $T/q.json $T/q.json
compare $T/q.json $T/q.json --format junit
LIST
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
