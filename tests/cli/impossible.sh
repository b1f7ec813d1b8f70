#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# impossible.sh — values no machine gives are refused where they enter (issue 34 item 3): a
# sample or a result of 0, 1e308, 1e-300, null (NaN) or a negative number in a JSON file is
# refused at import in one line naming the metric and the value; the same values written into a
# store behind plumb's back are named by `runs --check`, which fails; lmbench's "0.00" (below
# its two printed decimals) is left out, never imported as a zero, and the run says so.
. tests/lib.sh
. tests/gen_run.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
if ! command -v python3 >/dev/null 2>&1; then
	skip impossible/all "no python3 to write the hostile files"
	exit 0
fi
gen_run "$T/good.json" boardA base 1 4
# WHAT VALUE WHERE: WHERE "sample" (the first sample) or "result" (the result's value)
for c in zero:0:sample big:1e308:sample tiny:1e-300:sample null:None:sample neg:-0.3:sample \
	rzero:0:result rnull:None:result; do
	what=${c%%:*} rest=${c#*:} v=${rest%%:*} where=${rest#*:}
	python3 - "$T/good.json" "$T/$what.json" "$v" "$where" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
v = None if sys.argv[3] == 'None' else float(sys.argv[3])
r = d['results'][0]
if sys.argv[4] == 'sample':
    r['samples'][0]['value'] = v
else:
    r['value'] = v
open(sys.argv[2], 'w').write(json.dumps(d))
EOF
	"$PLUMB" import --db "$T/i-$what.db" "$T/$what.json" >"$T/o" 2>"$T/e"
	rc=$?
	if [ $rc -ne 0 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q 'lat_syscall.null: value' "$T/e" &&
		[ ! -s "$T/o" ]; then
		pass "impossible/import-refuses-$what"
	else
		fail "impossible/import-refuses-$what" "rc $rc: $(head -c 300 "$T/e")"
	fi
done
# the checks below need a store (import, runs --check)
if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip impossible/store "plumb was built without SQLite: the store checks (import into a store, runs --check) skipped"
else
# the rule's other side: a difference (lat_ctx.switch) may be zero or negative
python3 - "$T/good.json" "$T/diff.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
r = d['results'][0]
r['metric'] = 'lat_ctx.switch'
r['samples'][0]['value'] = -0.2
r['samples'][1]['value'] = 0
open(sys.argv[2], 'w').write(json.dumps(d))
EOF
check impossible/difference-may-be-negative "$PLUMB" import --db "$T/diff.db" "$T/diff.json"

# the same values in a store: runs --check names them and fails; a reader skips the run
"$PLUMB" import --db "$T/s.db" "$T/good.json" >/dev/null 2>&1
for c in zero:0 big:1e308 tiny:1e-300 null:NULL neg:-0.3; do
	what=${c%%:*} v=${c#*:}
	cp "$T/s.db" "$T/s-$what.db"
	python3 - "$T/s-$what.db" "$v" <<'EOF'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
v = None if sys.argv[2] == 'NULL' else float(sys.argv[2])
c.execute("UPDATE samples SET value = ? WHERE seq = (SELECT min(seq) FROM samples) AND "
          "result_id = (SELECT min(id) FROM results)", (v,))
c.commit()
EOF
	"$PLUMB" runs --db "$T/s-$what.db" --check >"$T/o" 2>&1
	rc=$?
	if [ $rc -ne 0 ] && grep -q 'run 1 .*lat_syscall.null: value' "$T/o"; then
		pass "impossible/runs-check-names-$what"
	else
		fail "impossible/runs-check-names-$what" "rc $rc: $(head -c 300 "$T/o")"
	fi
done

# lmbench prints "integer add: 0.00 nanoseconds": not a zero, a value below two decimals
L=tests/data/lmbench/lmbench3-x86_64-partial-results.txt
"$PLUMB" import --db "$T/l.db" "$L" >/dev/null 2>"$T/e"
"$PLUMB" export --db "$T/l.db" 1 -o "$T/l.json" 2>>"$T/e"
if ! grep -q '"metric": *"lat_ops.integer_add"' "$T/l.json" &&
	grep -q '"lmbench.below_resolution": *"[^"]*lat_ops.integer_add' "$T/l.json"; then
	pass impossible/lmbench-zero-left-out
else
	fail impossible/lmbench-zero-left-out "$(head -c 300 "$T/e")"
fi

# out of memory while reading a file is said as such, never "bad JSON at byte N: (null)": the
# import is tried under shrinking address-space limits (where it fails depends on the machine)
# (not under a sanitizer: its shadow memory needs more address space than any such limit)
sh bench/gen_points.sh 20000 1 >"$T/big.json"
short=0 bad=
[ -n "${ASAN_OPTIONS:-}" ] && short=-1
for v in 160000 120000 90000 70000 60000 50000 40000 30000; do
	[ $short -lt 0 ] && break
	(ulimit -v $v 2>/dev/null || exit 0; "$PLUMB" import --db "$T/oom-$v.db" "$T/big.json") \
		>/dev/null 2>"$T/oom.err" && continue
	short=$((short + 1))
	grep -q 'out of memory' "$T/oom.err" && ! grep -q 'null\|bad JSON' "$T/oom.err" ||
		bad="$bad $v: $(head -c 160 "$T/oom.err");"
done
if [ $short -lt 0 ]; then skip impossible/out-of-memory-said "a sanitizer build (ASAN_OPTIONS): its shadow memory does not fit an address-space limit"
elif [ $short -eq 0 ]; then skip impossible/out-of-memory-said "no limit down to 30 MB made the import fail"
elif [ -z "$bad" ]; then pass impossible/out-of-memory-said
else fail impossible/out-of-memory-said "$bad"; fi

# an lmbench file of one block pasted 1000 times: one run, read in at most 3x the file's size
# of memory (it took 15x), and a second import says so in one line, not one a block
L=tests/data/lmbench/seed-a10-3.0.36-28.txt
i=0; while [ $i -lt 1000 ]; do cat "$L"; i=$((i + 1)); done >"$T/rep.txt"
size=$(wc -c <"$T/rep.txt")
if [ -n "${ASAN_OPTIONS:-}" ]; then
	skip impossible/lmbench-repeats-memory "a sanitizer build (ASAN_OPTIONS): its shadow and quarantine are most of the memory"
	"$PLUMB" import --db "$T/rep.db" "$T/rep.txt" >"$T/o1" 2>&1
elif [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%M' -o "$T/rss" "$PLUMB" import --db "$T/rep.db" "$T/rep.txt" >"$T/o1" 2>&1
	rss=$(($(tail -n 1 "$T/rss") * 1024))
	if [ "$rss" -le $((3 * size)) ]; then pass impossible/lmbench-repeats-memory
	else fail impossible/lmbench-repeats-memory "$rss bytes resident for a $size-byte file"; fi
else
	skip impossible/lmbench-repeats-memory "no /usr/bin/time to read the peak memory"
	"$PLUMB" import --db "$T/rep.db" "$T/rep.txt" >"$T/o1" 2>&1
fi
"$PLUMB" import --db "$T/rep.db" "$T/rep.txt" >"$T/o2" 2>&1
if [ "$(wc -l <"$T/o1")" -eq 1 ] && [ "$(wc -l <"$T/o2")" -eq 1 ] && grep -q 'already in the store' "$T/o2"
then pass impossible/lmbench-repeats-one-line
else fail impossible/lmbench-repeats-one-line "$(head -c 200 "$T/o1") / $(head -c 200 "$T/o2")"; fi

fi

# values at the ends of the plausible range (1e-6 us and 9e9 us): every format prints a number
# with no more digits than it holds (a change of +2e12 % as "+2.23e+12%", never 13 digits), no inf
sed 's/"value": 0\.30[0-9]*/"value": 1e-6/g; s/"value": 0\.40[0-9]*/"value": 9e9/g' \
	"$T/good.json" >"$T/ends.json"
for fmt in text markdown csv json; do
	"$PLUMB" compare --format $fmt "$T/good.json" "$T/ends.json" >"$T/cmp.$fmt" 2>"$T/e"
	# 7 significant digits or more (a nonzero digit 7 places after another) is more than a
	# ratio of measurements holds (JSON: its change fields; its other statistics are exact)
	sel=cat; [ $fmt = json ] && sel="grep change"
	if [ -s "$T/cmp.$fmt" ] && ! $sel "$T/cmp.$fmt" | grep -Eq '[1-9][0-9.]{6,}[1-9]|inf|nan'; then
		pass "impossible/compare-$fmt-digits"
	else
		fail "impossible/compare-$fmt-digits" "$($sel "$T/cmp.$fmt" | grep -Eo '.{20}([1-9][0-9.]{6,}[1-9]|inf|nan).{5}' | head -2) $(head -c 100 "$T/e")"
	fi
done
"$PLUMB" trend "$T/good.json" "$T/ends.json" "$T/ends.json" >"$T/ends.trend" 2>"$T/e"
if [ -s "$T/ends.trend" ] && ! grep -Eq '[1-9][0-9.]{6,}[1-9]|inf' "$T/ends.trend"
then pass impossible/trend-digits
else fail impossible/trend-digits "$(grep -Eo '.{20}([1-9][0-9.]{6,}[1-9]|inf).{5}' "$T/ends.trend" | head -2) $(head -c 200 "$T/e")"; fi
