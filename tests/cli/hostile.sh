# hostile.sh — hostile text and damaged rows, through every way in (a hand-made JSON file, an
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# lmbench file, the SQLite store, a real PostgreSQL store) and out of every printing command:
# escape sequences (ESC [2J, an OSC title ESC ]0;x BEL), CR/LF, tabs, pipes, C1 and bidi controls,
# bytes that are not UTF-8 in labels, hosts, facts, metric names, parameters and units; every
# output checked for raw control bytes and for its format (tests/hostile_check.py). Fields of
# 10 MB are refused in one line. One damaged run in a store is skipped with a warning naming it,
# every other run still listed and compared, and `runs --check` names it.
. tests/lib.sh
. tests/gen_run.sh
. tests/pg_server.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
CHK="python3 tests/hostile_check.py"
if ! command -v python3 >/dev/null 2>&1; then
	skip hostile/all "no python3 to check the outputs' formats"
	exit 0
fi

# ---- the files: two runs of one hostile label, every user-written field hostile ---------------
gen_run "$T/a.json" boardA base 1 6
gen_run "$T/b.json" boardA base 2 6
python3 - "$T" <<'EOF'
import json, sys
t = sys.argv[1]
evil = "ev\u001b[2J\u001b]0;x\u0007il\r\nFAKE ROW 99\t|x|\u0085\u202e<script>&\"'"
for n in 'ab':
    d = json.load(open(f'{t}/{n}.json'))
    d['run']['label'] = evil + 'L'
    d['run']['host'] = evil + 'H'
    d['system']['hostname'] = evil
    d['system']['os'] = evil
    d['facts'] = {evil + 'k': evil + 'v', 'clock_mhz': evil, 'clock_mhz_p5': '1',
                  'clock_mhz_p95': '2', 'clock_spread_pct': evil}
    d['results'][0]['metric'] = 'lat_syscall.' + evil
    d['results'][1]['params'] = {'p' + evil: evil}
    d['results'][2]['unit'] = evil
    d['results'][3]['info'] = {'caveat': evil}
    # side metrics (report's charts, export's CSV) with a hostile cpuidle state name
    for r in d['results'][:4]:
        k = len(r['samples'])
        r['side'] = {'ops': [1000] * k, 'cs': [(2000 if n == 'a' else 3000) + i for i in range(k)],
                     'idle': {evil: {'usage': [1] * k, 'time_us': [5] * k}}}
        r.setdefault('info', {})['idle_states'] = evil + ',C1'
    s = json.dumps(d).encode()
    # raw bytes that are not UTF-8 inside the label (a JSON reader may keep them)
    s = s.replace(b'FAKE ROW 99', b'FAKE\xff\xfe ROW 99', 2)
    open(f'{t}/h{n}.json', 'wb').write(s)
# big fields: 10 MB in each field a user writes
big = 'A' * (10 << 20)
for field in ['label', 'host', 'fact', 'metric', 'params']:
    d = json.load(open(f'{t}/a.json'))
    if field in ('label', 'host'):
        d['run'][field] = big
    elif field == 'fact':
        d['facts'] = {'note': big}
    elif field == 'metric':
        d['results'][0]['metric'] = 'lat_syscall.' + big
    else:
        d['results'][1]['params'] = {'p': big}
    d['run']['uid'] = '%032x' % (len(field) + 7)
    open(f'{t}/big-{field}.json', 'w').write(json.dumps(d))
EOF
# an lmbench file with hostile header lines and bytes that are not UTF-8
{
	head -n 3 tests/data/lmbench/seed-a10-3.0.36-28.txt
	printf '[OS: Linux\033[2J\033]0;x\007 \377\376\r\nFAKE]\n[HOSTNAME: h\033[31mred\033[0m]\n'
	tail -n +4 tests/data/lmbench/seed-a10-3.0.36-28.txt
} >"$T/evil.txt"

clean() { # NAME KIND FILE: the output is clean for its medium
	if $CHK "$2" "$3" >"$T/why" 2>&1; then pass "$1"; else fail "$1" "$(head -c 300 "$T/why")"; fi
}
one_line_refusal() { # NAME CMD...: exit 2, one short line, nothing on stdout
	name=$1
	shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ "$(wc -c <"$T/err")" -lt 4096 ] &&
		[ ! -s "$T/out" ]; then
		pass "$name"
	else
		fail "$name" "rc=$rc $(wc -l <"$T/err") lines $(wc -c <"$T/err") bytes: $(head -c 200 "$T/err")"
	fi
}
# every command that prints, against the runs RUN1 and RUN2; outputs into $T/PREFIX.*. Short:
# the commands whose reading differs by store (the rest print what any reader gives them).
all_outputs() { # PREFIX full|short RUN1 RUN2 [--db DB]
	pre=$1 how=$2 r1=$3 r2=$4
	shift 4
	"$PLUMB" summary "$@" "$r1" "$r2" >"$T/$pre.sum" 2>>"$T/$pre.err"
	clean "hostile/$pre-summary" text "$T/$pre.sum"
	"$PLUMB" summary --per-host "$@" "$r1" "$r2" >"$T/$pre.ph" 2>>"$T/$pre.err"
	clean "hostile/$pre-summary-per-host" text "$T/$pre.ph"
	"$PLUMB" compare "$@" "$r1" "$r2" --format json >"$T/$pre.cmp.json" 2>>"$T/$pre.err"
	clean "hostile/$pre-compare-json" json "$T/$pre.cmp.json"
	"$PLUMB" export "$@" "$r1" --format lmbench -o "$T/$pre.exp.lmbench" >/dev/null 2>>"$T/$pre.err"
	clean "hostile/$pre-export-lmbench" text "$T/$pre.exp.lmbench"
	# lmbench's text keeps one line per header: the hostile CR/LF made no line of its own
	check "hostile/$pre-export-lmbench-no-forged-line" test "$(grep -c 'FAKE' "$T/$pre.exp.lmbench")" -le 3
	if [ "$how" = short ]; then
		clean "hostile/$pre-stderr" text "$T/$pre.err"
		return
	fi
	"$PLUMB" summary --cells "$@" "$r1" "$r2" >"$T/$pre.cells" 2>>"$T/$pre.err"
	clean "hostile/$pre-summary-cells" text "$T/$pre.cells"
	# tab-separated: a tab in a name never adds a column
	check "hostile/$pre-summary-cells-columns" test -z "$(awk -F'\t' 'NF != 8' "$T/$pre.cells")"
	for fmt in text markdown; do
		"$PLUMB" compare "$@" "$r1" "$r2" --format $fmt >"$T/$pre.cmp.$fmt" 2>>"$T/$pre.err"
		clean "hostile/$pre-compare-$fmt" text "$T/$pre.cmp.$fmt"
	done
	# a LF or '|' in a name never forges a row or a column of the table
	rows=$(grep -c '^| ' "$T/$pre.cmp.markdown")
	pipes=$(grep '^| ' "$T/$pre.cmp.markdown" | awk -F' [|] ' 'NR == 1 { print NF }')
	bad=$(grep '^| ' "$T/$pre.cmp.markdown" | awk -F' [|] ' -v n="$pipes" 'NF != n' | wc -l)
	check "hostile/$pre-markdown-rows-intact" test "$rows" -ge 3 -a "$bad" -eq 0
	"$PLUMB" compare "$@" "$r1" "$r2" --format csv >"$T/$pre.cmp.csv" 2>>"$T/$pre.err"
	clean "hostile/$pre-compare-csv" csv "$T/$pre.cmp.csv"
	"$PLUMB" compare "$@" "$r1" "$r2" --format junit -o "$T/$pre.junit.xml" 2>>"$T/$pre.err"
	clean "hostile/$pre-compare-junit" xml "$T/$pre.junit.xml"
	"$PLUMB" report "$@" "$r1" "$r2" -o "$T/$pre.html" >/dev/null 2>>"$T/$pre.err"
	clean "hostile/$pre-report" html "$T/$pre.html"
	rm -rf "$T/$pre.svg"
	"$PLUMB" plot "$@" "$r1" "$r2" -d "$T/$pre.svg" >/dev/null 2>>"$T/$pre.err"
	ok=1
	for f in "$T/$pre.svg"/*.svg; do
		[ -f "$f" ] && $CHK xml "$f" >"$T/why" 2>&1 || { ok=0; break; }
	done
	check "hostile/$pre-plot" test $ok -eq 1 -a "$(ls "$T/$pre.svg" | wc -l)" -ge 1
	for fmt in json csv; do
		"$PLUMB" export "$@" "$r1" --format $fmt -o "$T/$pre.exp.$fmt" >/dev/null 2>>"$T/$pre.err"
		clean "hostile/$pre-export-$fmt" $fmt "$T/$pre.exp.$fmt"
	done
	clean "hostile/$pre-stderr" text "$T/$pre.err"
}

# ---- through files: import, then every command --------------------------------------------------
DB="$T/store.db"
if "$PLUMB" runs --db "$T/probe.db" 2>&1 | grep -q 'without SQLite'; then
	skip hostile/sqlite "plumb was built without SQLite: the file outputs only"
	all_outputs file full "$T/ha.json" "$T/hb.json"
	exit 0
fi
"$PLUMB" import --db "$DB" "$T/ha.json" "$T/hb.json" "$T/evil.txt" >"$T/import.out" 2>&1
check hostile/import-ok test "$(grep -c '^run ' "$T/import.out")" -eq 3
clean hostile/import-output text "$T/import.out"
"$PLUMB" runs --db "$DB" >"$T/runs.out" 2>&1
clean hostile/runs text "$T/runs.out"
check hostile/runs-no-forged-row test "$(wc -l <"$T/runs.out")" -eq 4
all_outputs sqlite full 1 2 --db "$DB"
# the files read directly, without a store
"$PLUMB" summary "$T/ha.json" "$T/evil.txt" >"$T/file.sum" 2>&1
clean hostile/file-summary text "$T/file.sum"
"$PLUMB" compare "$T/ha.json" "$T/hb.json" >"$T/file.cmp" 2>&1
clean hostile/file-compare text "$T/file.cmp"

# ---- 10 MB fields: refused in one line, at every entry ----------------------------------------
for field in label host fact metric params; do
	one_line_refusal "hostile/10mb-$field-refused" "$PLUMB" import --db "$DB" "$T/big-$field.json"
done
check hostile/10mb-nothing-imported test "$("$PLUMB" runs --db "$DB" | wc -l)" -eq 4
BIGARG=$(head -c 300 /dev/zero | tr '\0' x)
one_line_refusal hostile/long-import-label "$PLUMB" import --db "$DB" --label "$BIGARG" "$T/a.json"
one_line_refusal hostile/long-relabel "$PLUMB" runs --db "$DB" --relabel 1 "$BIGARG"
one_line_refusal hostile/long-run-label "$PLUMB" run --quick --only syscall --label "$BIGARG" --db "$DB"
check hostile/limit-named grep -q 'label is longer than 256 bytes' "$T/err"

# ---- one damaged row in the SQLite store -------------------------------------------------------
gen_run "$T/c.json" boardC good 1 6
gen_run "$T/d.json" boardC good 2 6
gen_run "$T/e.json" boardC good 1 6 00000000000000000000000000000abc
D2="$T/damaged.db"
"$PLUMB" import --db "$D2" "$T/c.json" "$T/e.json" "$T/d.json" >/dev/null 2>&1
# PREFIX DB BADID WHERE: run BADID is damaged, 1 and 3 are not. WHERE: "row" (the runs row: runs
# skips it too) or "results" (its samples: runs, which reads no samples, lists it; every reader
# of results skips it); "label" when its label no longer selects it.
damaged_checks() {
	pre=$1 db=$2 bad=$3 where=$4
	"$PLUMB" runs --db "$db" >"$T/$pre.runs" 2>"$T/$pre.runs.err"
	check "hostile/$pre-runs-lists-the-others" test "$(grep -c '^ *[13] ' "$T/$pre.runs")" -eq 2
	if [ "$where" != results ]; then
		check "hostile/$pre-runs-skips-the-bad" test "$(grep -c "^ *$bad " "$T/$pre.runs")" -eq 0
		check "hostile/$pre-runs-warning-names-it" grep -q "run $bad (uid .*skipped" "$T/$pre.runs.err"
		check "hostile/$pre-warning-one-line" test "$(wc -l <"$T/$pre.runs.err")" -eq 1
	fi
	"$PLUMB" runs --db "$db" --check >"$T/$pre.check" 2>&1
	rc=$?
	check "hostile/$pre-check-names-it" test $rc -ne 0 -a "$(grep -c "^run $bad " "$T/$pre.check")" -eq 1
	"$PLUMB" compare --db "$db" 1 3 >"$T/$pre.cmp" 2>&1
	check "hostile/$pre-compare-others" grep -q 'lat_syscall.read .*worse' "$T/$pre.cmp"
	"$PLUMB" summary --db "$db" --all >"$T/$pre.sum" 2>"$T/$pre.sum.err"
	check "hostile/$pre-summary-others" test "$(grep -c '^boardC ' "$T/$pre.sum")" -ge 2
	check "hostile/$pre-summary-warns" grep -q "run $bad .*skipped" "$T/$pre.sum.err"
	if [ "$where" != label ]; then
		"$PLUMB" summary --db "$db" good >"$T/$pre.lab" 2>"$T/$pre.lab.err"
		check "hostile/$pre-label-side-skips-it" grep -q "run $bad .*skipped" "$T/$pre.lab.err"
		check "hostile/$pre-label-side-others" test "$(grep -c '^boardC ' "$T/$pre.lab")" -ge 2
	fi
	one_line_refusal "hostile/$pre-bad-run-by-id-refused" "$PLUMB" export --db "$db" "$bad"
}
sq() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()' "$@"; }
if python3 -c 'import sqlite3' 2>/dev/null; then
	sq "$D2" "UPDATE runs SET rounds = -5 WHERE id = 2"
	damaged_checks sqlite-rounds "$D2" 2 row
	sq "$D2" "UPDATE runs SET rounds = 6, label = 'good' || printf('%.*c', 2000000, 'x') WHERE id = 2"
	damaged_checks sqlite-2mb-label "$D2" 2 label
	sq "$D2" "UPDATE runs SET label = 'good' WHERE id = 2; UPDATE samples SET value = -1 WHERE result_id IN (SELECT id FROM results WHERE run_id = 2 AND seq = 0)"
	damaged_checks sqlite-negative-sample "$D2" 2 results
else
	skip hostile/sqlite-damaged "python3 has no sqlite3 module to damage a row with"
fi

# ---- PostgreSQL: the same, against a private server --------------------------------------------
pg_start_or_skip hostile/pg || exit 0
"$PLUMB" push "$T/ha.json" "$T/hb.json" --to "$PG_URI" >"$T/push.out" 2>&1
clean hostile/pg-push-output text "$T/push.out"
"$PLUMB" runs --db "$PG_URI" >"$T/pg.runs" 2>&1
clean hostile/pg-runs text "$T/pg.runs"
check hostile/pg-runs-no-forged-row test "$(wc -l <"$T/pg.runs")" -eq 3
all_outputs pg short 1 2 --db "$PG_URI"
# hostile text written straight into the database (what a hand edit or another tool leaves)
pg_sql "UPDATE runs SET host = E'pg\\x1b]0;x\\x07\\r\\nFAKE' WHERE id = 1; UPDATE facts SET value = E'v\\x1b[2J' WHERE run_id = 1" >/dev/null
"$PLUMB" runs --db "$PG_URI" >"$T/pg.runs2" 2>&1
clean hostile/pg-edited-runs text "$T/pg.runs2"
"$PLUMB" summary --db "$PG_URI" 1 >"$T/pg.sum2" 2>&1
clean hostile/pg-edited-summary text "$T/pg.sum2"
# damaged rows: the others still list and compare
for f in c e d; do "$PLUMB" push "$T/$f.json" --to "$PG_URI" >/dev/null 2>&1; done
P3=$(pg_sql "SELECT id FROM runs WHERE uid = '00000000000000000000000000000abc'")
PC=$(pg_sql "SELECT min(id) FROM runs WHERE label = 'good'")
PD=$(pg_sql "SELECT max(id) FROM runs WHERE label = 'good'")
pg_damaged() { # PREFIX WHERE: run P3 is damaged (WHERE as for damaged_checks)
	pre=$1
	"$PLUMB" runs --db "$PG_URI" --label good >"$T/$pre.runs" 2>"$T/$pre.err"
	if [ "$2" = row ]; then
		check "hostile/$pre-runs-lists-the-others" test "$(grep -c '^ *[0-9]' "$T/$pre.runs")" -eq 2
		check "hostile/$pre-runs-warning-names-it" grep -q "run $P3 (uid 0*abc).*skipped" "$T/$pre.err"
	fi
	"$PLUMB" runs --db "$PG_URI" --check >"$T/$pre.check" 2>&1
	check "hostile/$pre-check-names-it" grep -q "^run $P3 " "$T/$pre.check"
	"$PLUMB" compare --db "$PG_URI" "$PC" "$PD" >"$T/$pre.cmp" 2>&1
	check "hostile/$pre-compare-others" grep -q 'lat_syscall.read .*worse' "$T/$pre.cmp"
	"$PLUMB" summary --db "$PG_URI" good >"$T/$pre.sum" 2>&1
	check "hostile/$pre-summary-others" test "$(grep -c '^boardC ' "$T/$pre.sum")" -eq 2
	check "hostile/$pre-summary-warns" grep -q "run $P3 (uid 0*abc).*skipped" "$T/$pre.sum"
}
pg_sql "UPDATE runs SET rounds = -5 WHERE id = $P3" >/dev/null
pg_damaged pg-rounds row
pg_sql "UPDATE runs SET rounds = 6, started = repeat('9', 10000000) WHERE id = $P3" >/dev/null
pg_damaged pg-10mb-started row
pg_sql "UPDATE runs SET started = '2026-11-01T10:00:00Z' WHERE id = $P3; UPDATE samples SET iters = -3 WHERE result_id IN (SELECT id FROM results WHERE run_id = $P3)" >/dev/null
pg_damaged pg-negative-iters results
