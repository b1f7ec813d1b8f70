#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# conditions.sh — a run measured under emulation or beside other work says so wherever it is
# shown (results/run_cond.h): summary in every format, the lmbench export's header, runs; and
# compare/trend warn when sides differ in contention or were measured in separate blocks of
# time, saying how to interleave (analysis/compare_cond.c). The runs are synthetic JSON whose
# facts say emulated or contended: nothing here emulates or loads the machine.
. tests/lib.sh
. tests/gen_run.sh

# facts FILE 'KEY": "VALUE", ...': add facts to a gen_run file's system object
facts() { sed -i "s/\"os\": \"Linux\"}/\"os\": \"Linux\", $2}/" "$1"; }

gen_run "$T/emu.json" board emu 1 4
facts "$T/emu.json" '"arch": "aarch64", "emulated": "qemu-user", "emulation_host_arch": "x86_64", "clock_mhz": "3710"'
"$PLUMB" summary --format markdown "$T/emu.json" >"$T/emu.md" 2>"$T/err"
# the header, above the first lmbench table: the facts table's CPU and MHz, and a note
head=$(sed -n '1,/^## Processor/p' "$T/emu.md")
if echo "$head" | grep -q '^| file run 1 (label emu) | board | emulated (qemu-user on x86_64) | 3710 (emulated) |' &&
	echo "$head" | grep -q 'emulated (qemu-user on x86_64): its numbers time an emulator on the host, not aarch64 hardware'
then pass "conditions: emulated run's markdown header says emulated"
else fail "conditions: emulated run's markdown header says emulated" "$(echo "$head" | head -n 8) $(cat "$T/err")"; fi
"$PLUMB" summary "$T/emu.json" >"$T/emu.txt" 2>&1
"$PLUMB" summary --format html "$T/emu.json" >"$T/emu.html" 2>&1
if sed -n '1,/^Processor/p' "$T/emu.txt" | grep -q '^Note: .* was emulated (qemu-user on x86_64)' &&
	sed -n '1,/<table>/p' "$T/emu.html" | grep -q 'was emulated (qemu-user on x86_64)'
then pass "conditions: text and html summaries say emulated above the tables"
else fail "conditions: text and html summaries say emulated above the tables" "$(head -n 8 "$T/emu.txt")"; fi
"$PLUMB" export --format lmbench "$T/emu.json" >"$T/emu.lmb" 2>&1
check "conditions: lmbench export's header says emulated" \
	grep -q '^\[CONDITIONS: emulated (qemu-user on x86_64)\]$' "$T/emu.lmb"
# read in again, the header gives the conditions back: shown as the JSON run's, written once
"$PLUMB" summary --format markdown "$T/emu.lmb" >"$T/emu2.md" 2>&1
"$PLUMB" export --format lmbench "$T/emu.lmb" >"$T/emu2.lmb" 2>&1
if grep -q 'was emulated (qemu-user on x86_64): its numbers time an emulator' "$T/emu2.md" &&
	[ "$(grep -c '^\[CONDITIONS: ' "$T/emu2.lmb")" -eq 1 ] && cmp -s "$T/emu.lmb" "$T/emu2.lmb"
then pass "conditions: a re-imported lmbench export is still emulated"
else fail "conditions: a re-imported lmbench export is still emulated" "$(head -n 6 "$T/emu2.md"; grep CONDITIONS "$T/emu2.lmb")"; fi

if "$PLUMB" import --db "$T/s.db" "$T/emu.json" >/dev/null 2>&1; then
	"$PLUMB" runs --db "$T/s.db" >"$T/runs.txt" 2>&1
	"$PLUMB" runs --db "$T/s.db" --wide >"$T/runsw.txt" 2>&1
	if grep -q ' emu .* emulated$' "$T/runs.txt" && grep -q 'emulated (qemu-user on x86_64)' "$T/runsw.txt"
	then pass "conditions: runs shows emulated"
	else fail "conditions: runs shows emulated" "$(cat "$T/runs.txt")"; fi
else
	skip "conditions: runs shows emulated" "no store (plumb built without SQLite)"
fi

# back-to-back versions, the first beside others' work (45 % of the CPUs), the rest quiet:
# trend and compare warn, naming the shares and how to interleave
for i in 1 2 3; do
	gen_run "$T/c$i.json" vm "v$i" 1 4
	sed -i "s/2026-11-0[12]T10:0\([02]\)/2026-11-01T1${i}:0\1/g" "$T/c$i.json"
done
facts "$T/c1.json" '"contention_max_pct": "45", "contended_steps": "lat_syscall (others 45%, steal 0%)"'
facts "$T/c2.json" '"contention_max_pct": "2"'
facts "$T/c3.json" '"contention_max_pct": "3"'
"$PLUMB" trend "$T/c1.json" "$T/c2.json" "$T/c3.json" >/dev/null 2>"$T/trend.err"
"$PLUMB" compare "$T/c1.json" "$T/c2.json" >/dev/null 2>"$T/cmp.err"
"$PLUMB" compare "$T/c2.json" "$T/c3.json" >/dev/null 2>"$T/quiet.err"
if grep -q 'different amounts of other work .*c1.json 45%, .*c2.json 2%, .*c3.json 3%).*plumb ab' "$T/trend.err" &&
	grep -q 'separate blocks of time (3 of 3 pairs' "$T/trend.err" &&
	grep -q 'different amounts of other work .*plumb ab' "$T/cmp.err" &&
	! grep -q 'other work' "$T/quiet.err" && grep -q 'separate blocks of time' "$T/quiet.err"
then pass "conditions: trend and compare warn on contention and time blocks"
else fail "conditions: trend and compare warn on contention and time blocks" "$(cat "$T/trend.err" "$T/quiet.err")"; fi
# interleaved runs (one side's runs before and after the other's) are not in separate blocks
sed "s/2026-11-01T12:0\([02]\)/2026-11-01T14:0\1/g" "$T/c2.json" >"$T/c2b.json"
if "$PLUMB" import --db "$T/i.db" "$T/c2.json" "$T/c2b.json" "$T/c3.json" >/dev/null 2>&1; then
	"$PLUMB" compare --db "$T/i.db" v2 v3 >"$T/inter.out" 2>"$T/inter.err"
	if grep -q '^lat_syscall.null' "$T/inter.out" && ! grep -q 'separate blocks' "$T/inter.err"
	then pass "conditions: interleaved sides are not warned"
	else fail "conditions: interleaved sides are not warned" "$(cat "$T/inter.err")"; fi
else
	skip "conditions: interleaved sides are not warned" "no store (plumb built without SQLite)"
fi

# a side measured emulated is named in compare's warnings
gen_run "$T/nat.json" board nat 1 4
"$PLUMB" compare "$T/nat.json" "$T/emu.json" >/dev/null 2>"$T/emucmp.err"
check "conditions: compare names an emulated side" \
	grep -q 'emu.json was emulated (qemu-user on x86_64): its numbers time an emulator' "$T/emucmp.err"
