#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# present.sh — results a person can read and a program can load: series identity (the size is
# the abscissa, never a parameter: one chart line per metric x stride x run, bounded legends,
# compare's default rows are the summary-level points), scratch paths that compare equal, every
# writer (JSON, lmbench text, CSV, SVG, HTML) emitting valid UTF-8 and well-formed XML whatever
# bytes came in (parsed back by Python's strict json, csv and xml.etree), JSON typing and schema
# versions, CSV export, list --json, help texts and exit codes.
. tests/lib.sh
D=tests/data/lmbench
A=$D/seed-a10-3.0.36-28.txt
B=$D/seed-goflex-kirkwood.txt
export PLUMB_DB="$T/store.db" # never touch the user's store

if ! command -v python3 >/dev/null 2>&1; then
	skip present/all "python3 is not installed (the strict parsers of these tests)"
	exit 0
fi

# ---- 1. series identity: a run with lat_mem_rd curves ------------------------------------
"$PLUMB" lat_mem_rd --json -N 1 0.25 16 128 >"$T/seq.json" 2>"$T/err"
# (a knee given: where no cache size is known, -t would measure one, for seconds, to choose how to
# warm sizes past it; these sizes are far below any knee)
PLUMB_MEM_KNEE=${PLUMB_MEM_KNEE:-8M} "$PLUMB" lat_mem_rd --json -N 1 -t 0.25 16 >"$T/rand.json" 2>>"$T/err"
check present/lat_mem_rd-params-without-size \
	sh -c "! grep -q '\"size\"' '$T/seq.json' && grep -q '\"stride\": 128' '$T/seq.json'"
"$PLUMB" plot "$T/seq.json" "$T/rand.json" -d "$T/svg1" 2>>"$T/err"
# svgcheck FILE...: every chart well-formed XML on its own, at most 80 text elements, a legend
# of at most 16 entries, every line chart with a line, every line with at least 2 points; prints
# "FILE lines legend points-of-shortest-line" for the caller's own checks
cat >"$T/svgcheck.py" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
bad = 0
for path in sys.argv[1:]:
    raw = open(path, 'rb').read()
    raw.decode('utf-8')  # strict
    root = ET.fromstring(raw)
    texts = [t for t in root.iter() if t.tag.endswith('text')]
    lines = [p for p in root.iter() if p.tag.endswith('polyline')]
    legend = [t for t in texts if 'stride=' in (t.text or '') or '.txt' in (t.text or '')
              or '.json' in (t.text or '')]
    npts = [len(p.get('points', '').split()) for p in lines]
    print(path.split('/')[-1], len(lines), len(legend), min(npts) if npts else 0)
    is_line_chart = '-bars-' not in path
    if len(texts) > 80 or len(legend) > 16 or (lines and min(npts) < 2) or \
            (is_line_chart and not lines):
        print('BAD', path, 'texts', len(texts), 'legend', len(legend), 'points', npts)
        bad = 1
sys.exit(bad)
EOF
if python3 "$T/svgcheck.py" "$T"/svg1/*.svg >"$T/svg1.out" 2>&1; then
	pass present/svg-bounded-and-well-formed
else
	fail present/svg-bounded-and-well-formed "$(grep -m3 'BAD\|Error' "$T/svg1.out")"
fi
seq=$(grep 'mem-latency-seq' "$T/svg1.out")
# two strides → two lines of a dozen points each, two legend entries (before: one per point)
check present/lat_mem_rd-one-line-per-stride test "$(echo "$seq" | awk '{print $2 "," $3}')" = "2,2"
check present/lat_mem_rd-lines-not-dots test "$(echo "$seq" | awk '{print $4}')" -ge 10
# The cache levels are marked on the memory charts: from the run's own facts when this machine
# reports its cache sizes (else skipped: there is nothing to mark), and, on any machine, from a
# copy of the run whose facts name an L1d of 32 KiB and an L2 of 128 KiB (the chart reaches 256 KiB).
if grep -q '"cache_l[0-9]d\{0,1\}":' "$T/seq.json"; then
	check present/cache-level-marked grep -q 'L1d\|L1 \|L2 ' "$T"/svg1/*mem-latency-seq.svg
else
	skip present/cache-level-marked "this machine reports no cache sizes (no sysfs cache directory, none found elsewhere): nothing to mark"
fi
grep -v '"cache_l[0-9]d\{0,1\}":' "$T/seq.json" |
	sed 's/^\( *\)"system": {$/&\n\1  "cache_l1d": 32768,\n\1  "cache_l2": 131072,/' >"$T/seqc.json"
"$PLUMB" plot "$T/seqc.json" -d "$T/svg1c" 2>>"$T/err"
if grep -q '>L1d<\|L1d ' "$T"/svg1c/*mem-latency-seq.svg 2>/dev/null && grep -q '>L2<\|L2 ' "$T"/svg1c/*mem-latency-seq.svg; then
	pass present/cache-level-marked-from-facts
else
	fail present/cache-level-marked-from-facts "no L1d/L2 marks in $(ls "$T/svg1c" 2>&1 | tr '\n' ' ')"
fi
# a metric measured at one size (bw_mem in a quick run) is a bar, not a chart without a line
"$PLUMB" bw_mem --json -N 2 1m frd >"$T/bw.json" 2>>"$T/err"
"$PLUMB" plot "$T/seq.json" "$T/bw.json" -d "$T/svg4" 2>>"$T/err"
if python3 "$T/svgcheck.py" "$T"/svg4/*.svg >"$T/svg4.out" 2>&1 && ls "$T"/svg4 | grep -q 'bars-bw_mem'; then
	pass present/single-point-metric-is-a-bar
else
	fail present/single-point-metric-is-a-bar "$(ls "$T/svg4" | tr '\n' ' ') $(grep -m2 'BAD' "$T/svg4.out")"
fi

# two lmbench runs with every lmbench series: bounded legends, no chart without a line
"$PLUMB" plot "$A" "$B" -d "$T/svg2" 2>>"$T/err"
if python3 "$T/svgcheck.py" "$T"/svg2/*.svg >"$T/svg2.out" 2>&1; then
	pass present/lmbench-charts-bounded
else
	fail present/lmbench-charts-bounded "$(grep -m3 'BAD\|Error' "$T/svg2.out")"
fi
check present/lmbench-seq-14-lines test "$(awk '/mem-latency-seq/ {print $2}' "$T/svg2.out")" -eq 14

# ---- compare: the summary-level points by default, --all for the rest --------------------
cat >"$T/points.py" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline='', encoding='utf-8')))
print(len({(r['metric'], r['params'], r['x']) for r in rows}))
EOF
"$PLUMB" compare "$A" "$B" --format csv >"$T/cmp.csv" 2>>"$T/err"
"$PLUMB" compare "$A" "$B" --format csv --all >"$T/cmp-all.csv" 2>>"$T/err"
n=$(python3 "$T/points.py" "$T/cmp.csv")
nall=$(python3 "$T/points.py" "$T/cmp-all.csv")
# two default lmbench runs hold about 140 summary-level points (600 before, one per size)
if between "$n" 60 200 && [ "$nall" -gt 500 ]; then
	pass present/compare-default-rows
else
	fail present/compare-default-rows "default $n points, --all $nall"
fi

# ---- 2. scratch paths are not identity -----------------------------------------------------
"$PLUMB" export "$A" -o "$T/a.json"
sed 's|/var/tmp/XXX|/tmp/plumb.*/XXX|g' "$T/a.json" >"$T/a-plumb.json"
"$PLUMB" compare "$A" "$T/a-plumb.json" >"$T/scratch.out" 2>>"$T/err"
check present/scratch-paths-compare-equal sh -c \
	"grep -q '^lmdd.write_bw' '$T/scratch.out' && ! grep -q 'missing' '$T/scratch.out'"

# ---- 3. hostile bytes through every writer --------------------------------------------------
# a Latin-1 forum paste with a control byte in the host name, under a hostile file name
H="$T/$(printf 'caf\351\002<&>')"
mkdir -p "$H"
sed "s/T-01/$(printf 'Cl\351ss\001')/g" "$A" >"$H/run.txt"
cp "$H/run.txt" "$H/$(printf 'r\351\003&.txt')" # the file name names the side
"$PLUMB" export "$H/run.txt" -o "$T/h.json" 2>>"$T/err"
"$PLUMB" export "$H/run.txt" --format lmbench >"$T/h.txt" 2>>"$T/err"
"$PLUMB" export "$H/run.txt" --format csv >"$T/h.csv" 2>>"$T/err"
"$PLUMB" compare "$H/$(printf 'r\351\003&.txt')" "$B" --format csv >"$T/hc.csv" 2>>"$T/err"
"$PLUMB" compare "$H/$(printf 'r\351\003&.txt')" "$B" --format json >"$T/hc.json" 2>>"$T/err"
"$PLUMB" plot "$H/$(printf 'r\351\003&.txt')" "$B" -d "$T/svg3" 2>>"$T/err"
"$PLUMB" report "$H/$(printf 'r\351\003&.txt')" "$B" -o "$T/h.html" 2>>"$T/err"
cat >"$T/strict.py" <<'EOF'
import csv, io, json, re, sys, xml.etree.ElementTree as ET
# strict.py KIND FILE...: every FILE parses strictly as KIND; the ones that do not are named
def check(kind, path):
    text = open(path, 'rb').read().decode('utf-8')  # strict: invalid UTF-8 raises
    if kind == 'json':
        doc = json.loads(text)
        if 'run' in doc:
            assert '\ufffd' in doc['run']['host'], doc['run']['host']
    elif kind == 'csv':
        rows = list(csv.reader(io.StringIO(text, newline='')))
        assert len({len(r) for r in rows}) == 1, 'ragged rows'
    elif kind == 'svg':
        ET.fromstring(text.encode('utf-8'))
    elif kind == 'html':
        svgs = re.findall(r'<svg.*?</svg>', text, re.S)
        assert svgs, 'no inline svg'
        for s in svgs:
            root = ET.fromstring(s)  # each chart is XML on its own: no HTML entities, no control bytes
            texts = [t for t in root.iter() if t.tag.endswith('text')]
            pts = [len(p.get('points', '').split()) for p in root.iter() if p.tag.endswith('polyline')]
            assert len(texts) <= 80, 'a chart with %d texts' % len(texts)
            assert not pts or min(pts) >= 2, 'a chart line without 2 points'
        for sec in ('id="verdicts"', 'id="latency"', 'id="summary"', 'id="facts"'):
            assert sec in text, sec
        order = [text.index(x) for x in ('id="contents"', 'id="verdicts"', 'id="summary"', 'id="latency"', 'id="facts"')]
        assert order == sorted(order), 'sections out of order: contents, verdicts, summary, charts, facts'
        assert 'L M B E N C H' in text, 'no lmbench summary tables' 
    elif kind == 'text':
        assert 'Cl\\xe9ss\\x01' in text, 'the host name is not kept, its Latin-1 and control bytes shown as \\xNN'
bad = 0
for path in sys.argv[2:]:
    try:
        check(sys.argv[1], path)
    except Exception as e:
        print(path, type(e).__name__, e)
        bad = 1
if bad:
    sys.exit(1)
print('ok')
EOF
strict() {
	if out=$(python3 "$T/strict.py" "$2" "$3" 2>&1); then pass "present/utf8-$1"; else fail "present/utf8-$1" "$(echo "$out" | tail -1)"; fi
}
strict json-export json "$T/h.json"
strict lmbench-export text "$T/h.txt"
"$PLUMB" summary "$H/run.txt" >"$T/h.sum" 2>>"$T/err"
check present/utf8-summary python3 -c "import sys; t=open(sys.argv[1],'rb').read().decode('utf-8'); assert 'Cl\\\\xe9ss' in t" "$T/h.sum"
strict csv-export csv "$T/h.csv"
strict compare-csv csv "$T/hc.csv"
strict compare-json json "$T/hc.json"
python3 "$T/strict.py" svg "$T"/svg3/*.svg >"$T/badsvg" 2>&1 && : >"$T/badsvg"
check present/utf8-plot-svgs sh -c "test ! -s '$T/badsvg' && ls '$T'/svg3/*.svg >/dev/null"
strict report-html html "$T/h.html"
"$PLUMB" report "$A" -o "$T/one.html" 2>>"$T/err"
check present/one-run-report-has-summary-tables grep -q 'L M B E N C H' "$T/one.html"
check present/report-facts-humanized sh -c "'$PLUMB' report '$T/seq.json' -o '$T/seq.html' && grep -q '[0-9] [KMGT]iB' '$T/seq.html'"
# the bytes are stored as given: the store keeps them, only the writers replace them
"$PLUMB" export "$T/h.json" -o "$T/h2.json" 2>>"$T/err"
check present/reimport-same cmp -s "$T/h.json" "$T/h2.json"
if "$PLUMB" import --label "$(printf 'lab\351l\001')" "$H/run.txt" >/dev/null 2>"$T/imp.err"; then
	"$PLUMB" export 1 -o "$T/lab.json" 2>>"$T/err"
	"$PLUMB" export 1 --format csv >"$T/lab.csv" 2>>"$T/err"
	check present/utf8-label-json python3 -c "import json,sys; d=json.load(open(sys.argv[1],encoding='utf-8')); assert d['run']['label']=='lab\ufffdl\u0001'" "$T/lab.json"
	check present/utf8-label-csv python3 -c "import csv,sys; r=list(csv.DictReader(open(sys.argv[1],newline='',encoding='utf-8'))); assert r[0]['label']=='lab\ufffdl\\\\x01'" "$T/lab.csv"
else
	skip present/utf8-label "no SQLite store in this build: $(head -c 100 "$T/imp.err")"
fi

# ---- 4. JSON: numbers as numbers, shortest form, schema versions ---------------------------
check present/json-numbers python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
s=d['system']; r=d['results'][0]
assert isinstance(s['cpus_online'], int), s['cpus_online']
assert isinstance(r['info']['iters'], int), r['info']
assert isinstance(r['params']['stride'], int)
assert d['schema']=='plumb/2'
" "$T/seq.json"
check present/json-shortest sh -c "! grep -Eq '[0-9]\.[0-9]*0000000000[0-9]|[0-9]\.[0-9]*9999999999[0-9]' '$T/seq.json'"
sed 's|"schema": "plumb/2"|"schema": "plumb/9"|' "$T/a.json" >"$T/v9.json"
expect_usage present/json-unknown-major "$PLUMB" export "$T/v9.json"
sed 's|"schema": "plumb/2"|"schema": "plumb/1"|' "$T/a.json" >"$T/v1.json"
check present/json-reads-plumb-1 "$PLUMB" export "$T/v1.json" --format lmbench

# ---- 5. CSV export and list --json ---------------------------------------------------------
"$PLUMB" export "$T/seq.json" --format csv >"$T/seq.csv"
want=$(python3 -c "import json,sys; print(sum(len(r['samples']) for r in json.load(open(sys.argv[1]))['results']))" "$T/seq.json")
check present/csv-one-row-per-sample python3 -c "
import csv,sys
rows=list(csv.DictReader(open(sys.argv[1],newline='',encoding='utf-8')))
assert list(rows[0].keys())[:10]==['run','host','label','metric','params','x','round','value','unit','better']
assert list(rows[0].keys())[10:13]==['iters','elapsed_ns','side_ops'] and list(rows[0].keys())[-1]=='idle_states'
assert len(rows)==int(sys.argv[2]), (len(rows), sys.argv[2])
assert all(float(r['value'])>0 for r in rows)
" "$T/seq.csv" "$want"
"$PLUMB" export "$A" -o "$T/a.csv"
check present/csv-by-extension head -1 "$T/a.csv"
check present/list-json python3 -c "
import json,subprocess,sys
d=json.loads(subprocess.check_output([sys.argv[1],'list','--json']))
assert len(d['tools'])>30 and any(m['id']=='lat_mem_rd.seq' for m in d['metrics'])
" "$PLUMB"

# ---- 7. help and exit codes ----------------------------------------------------------------
# every option of every command has its own line in --help
for c in run compare report plot export import summary runs list sysinfo serve; do
	"$PLUMB" "$c" --help >"$T/help" 2>&1
	for o in $(grep -o -- '--[a-z][a-z-]*' "$T/help" | sort -u); do
		grep -Eq "^ +(-[a-zA-Z], )?$o( |$)" "$T/help" || echo "$c $o" >>"$T/undoc"
	done
done
check present/help-one-line-per-option test ! -s "$T/undoc"
[ -s "$T/undoc" ] && echo "undocumented: $(tr '\n' ' ' <"$T/undoc")"
check present/help-timeout sh -c "'$PLUMB' run --help | grep -q '^  --timeout SEC'"
expect_usage present/export-unwritable-exit-2 "$PLUMB" export "$A" -o /nonexistent/x
"$PLUMB" lat_mem_rd 999999999 >/dev/null 2>"$T/big"
check present/lat_mem_rd-too-large grep -q 'too large' "$T/big"
