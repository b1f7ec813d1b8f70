#!/bin/sh
# lane: parallel (times nothing: its runs are the smallest there are, their numbers unread)
# identity.sh — runs told apart and never pooled across machines or builds: `plumb run` and
# `plumb ab` end with the ids they stored; `plumb runs` shows build, scope and architecture and
# selects by them; runs of one label or host that differ in architecture (a hand-edited JSON
# run) are refused with the fact named, pooled with --pool-anyway and said; two ab sessions keep
# distinct labels; summary names each row's run; `summary --format markdown` and html parse back
# as tables with a facts header, whatever bytes a label holds.
. tests/lib.sh
. tests/gen_run.sh
export PLUMB_DB="$T/default.db" # never touch the user's store
DB="$T/store.db"

# runs made by hand: an x86 run and a run whose architecture fact was edited, another host's
gen_run "$T/x86.json" boardA same 1 4
gen_run "$T/arm.json" boardA same 1 4 22222222222222222222222222222222
sed -i 's/"system": {/"system": {"arch": "x86_64", /' "$T/x86.json"
sed -i 's/"system": {/"system": {"arch": "aarch64", /' "$T/arm.json"
gen_run "$T/other.json" boardB other 1 4 33333333333333333333333333333333

# ---- summary --format markdown and html: tables that parse back -----------------------------
sed "s/\"label\": \"same\"/\"label\": \"evil|<b>\\\\u0007label\"/" "$T/x86.json" >"$T/evil.json"
"$PLUMB" summary --format markdown "$T/evil.json" "$T/other.json" >"$T/sum.md" 2>"$T/md.err"
cat >"$T/md.py" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding='utf-8', errors='strict').read()
cells = lambda line: re.split(r'(?<!\\)\|', line.strip())[1:-1]
tables, cur = [], []
for line in text.split('\n') + ['']:
    if line.startswith('|'):
        cur.append(line)
    elif cur:
        tables.append(cur); cur = []
assert len(tables) >= 2, 'tables: %d' % len(tables)
for t in tables:
    head = cells(t[0])
    assert all(re.fullmatch(r'-{3,}:?', c.strip()) for c in cells(t[1])), t[1]
    for row in t[2:]:
        assert len(cells(row)) == len(head), (head, row)
facts = [c.strip() for c in cells(tables[0][0])]
for want in ('CPU', 'MHz', 'Kernel', 'Compiler and flags', 'Memory', 'Date'):
    assert want in facts, facts
assert len(tables[0]) == 4, 'facts rows'
proc = [t for t in tables if 'null call' in t[0]]
assert proc and len(proc[0]) == 4, 'processor table rows'
assert '-1' not in [c.strip() for t in tables for r in t[2:] for c in cells(r)], 'a -1 cell'
assert '<b>' not in text, 'raw HTML from a label'
EOF
check identity/summary-markdown-tables python3 "$T/md.py" "$T/sum.md"
"$PLUMB" summary --format html "$T/evil.json" "$T/other.json" >"$T/sum.html" 2>"$T/html.err"
check identity/summary-html-well-formed python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.fromstring(open(sys.argv[1], "rb").read().split(b"\n", 1)[1])
tables = list(root.iter("table"))
assert len(tables) >= 2
for t in tables:
    rows = list(t.iter("tr"))
    assert len({len(list(r)) for r in rows}) == 1, "ragged table"
' "$T/sum.html"
# MediaWiki (board wikis): wikitables whose rows have the header's cells, and nothing from a
# run's text that wikitext would read as markup (a label with a pipe, a tag, a template, a link)
sed "s/\"label\": \"same\"/\"label\": \"evil||}{{tpl}}[[x]]<b>'''bold'''\"/" "$T/x86.json" >"$T/evilw.json"
"$PLUMB" summary --format mediawiki "$T/evilw.json" "$T/other.json" >"$T/sum.wiki" 2>"$T/wiki.err"
check identity/summary-mediawiki-tables python3 -c '
import sys
text = open(sys.argv[1], encoding="utf-8", errors="strict").read()
tables, cur = [], None
for line in text.split("\n"):
    if line.startswith("{|"):
        cur = []
    elif line.startswith("|}"):
        tables.append(cur); cur = None
    elif cur is not None and line.startswith("!"):
        cur.append(("h", line[2:].split(" !! ")))
    elif cur is not None and line.startswith("| "):
        cur.append(("d", line[2:].split(" || ")))
    elif cur is not None:
        assert line == "|-", line
assert len(tables) >= 2, len(tables)
for t in tables:
    assert t[0][0] == "h", t[0]
    assert all(len(r[1]) == len(t[0][1]) for r in t[1:]), t
body = text.replace("<pre>", "").replace("</pre>", "")
for bad in ("{{", "[[", "<b>", "\x27\x27\x27bold"):
    assert bad not in body, bad
assert "evil&#124;&#124;&#125;&#123;&#123;tpl" in text
' "$T/sum.wiki"
expect_usage identity/summary-bad-format "$PLUMB" summary --format pdf "$T/other.json"

# files alone (no store): the same refusal
expect_usage identity/per-host-files-refused "$PLUMB" summary --per-host "$T/x86.json" "$T/arm.json"
check identity/per-host-files-names-fact grep -q 'architecture differs' "$T/err"

if "$PLUMB" runs --db "$DB" 2>&1 | grep -q 'without SQLite'; then
	skip identity/store "plumb was built without SQLite (make NO_SQLITE=1): store tests skipped"
	exit 0
fi

# ---- pooling refusal: one label, the x86 run and the edited one -------------------------------
gen_run "$T/x2.json" boardA twin 1 4 44444444444444444444444444444444
"$PLUMB" import --db "$DB" "$T/x86.json" "$T/arm.json" "$T/other.json" "$T/x2.json" >/dev/null 2>&1
expect_usage identity/compare-refuses-mixed-label "$PLUMB" compare --db "$DB" same other
check identity/refusal-names-the-fact grep -q 'architecture differs.*x86_64.*aarch64' "$T/err"
check identity/refusal-names-the-runs grep -q 'run 1 .*run 2 ' "$T/err"
check identity/refusal-offers-pool-anyway grep -q -- '--pool-anyway' "$T/err"
"$PLUMB" compare --db "$DB" --pool-anyway same other >"$T/pooled.out" 2>"$T/pooled.err"
rc=$?
check identity/pool-anyway-compares test $rc -eq 0 -a -s "$T/pooled.out"
check identity/pool-anyway-said grep -q 'pooled anyway, although architecture differs' "$T/pooled.err"
# report, plot and trend judge sides as compare does: the same refusal
expect_usage identity/report-refuses-mixed-label "$PLUMB" report --db "$DB" same other -o "$T/r.html"
check identity/report-refusal-names-the-fact grep -q 'architecture differs' "$T/err"
check identity/report-pool-anyway "$PLUMB" report --db "$DB" --pool-anyway same other -o "$T/r.html"
expect_usage identity/trend-refuses-mixed-label "$PLUMB" trend --db "$DB" same other
expect_usage identity/per-host-refuses-mixed "$PLUMB" summary --db "$DB" --per-host same
check identity/per-host-refusal-names-host grep -q 'host boardA: not pooled, architecture differs' "$T/err"
"$PLUMB" summary --db "$DB" --per-host --pool-anyway same >"$T/ph.out" 2>"$T/ph.err"
check identity/per-host-pool-anyway-said grep -q 'pooled anyway' "$T/ph.err"
check identity/per-host-pool-anyway-one-row test "$(sed -n '/^Processor/,/^$/p' "$T/ph.out" | grep -c '^boardA ')" -eq 1
# the same build, kernel and CPU pool as before: no refusal
gen_run "$T/x3.json" boardA twin 1 4 55555555555555555555555555555555
check identity/like-runs-still-pool "$PLUMB" summary --per-host "$T/x2.json" "$T/x3.json"

# ---- selections by architecture; summary rows named by their run ----------------------------
"$PLUMB" runs --db "$DB" --arch aarch64 >"$T/arch.out"
check identity/runs-select-arch test "$(grep -c '^ *[0-9]' "$T/arch.out")" -eq 1 -a "$(grep -c '^ *2 ' "$T/arch.out")" -eq 1
"$PLUMB" summary --db "$DB" arch=x86_64,label=same >"$T/sel.out" 2>&1
check identity/selection-arch grep -q '^boardA ' "$T/sel.out"
expect_usage identity/selection-unknown-key "$PLUMB" summary --db "$DB" cpu=x86
# three runs of one host and OS: each row says which run it is, in every table
"$PLUMB" summary --db "$DB" 1 2 4 >"$T/three.out" 2>&1
rows=$(sed -n '/^Processor/,/^$/p' "$T/three.out" | grep '^boardA ' | sort -u | wc -l)
check identity/summary-rows-distinct test "$rows" -eq 3
check identity/summary-header-says-run grep -q '^Host  *Run ' "$T/three.out"
# the newest run alone when none is named (README: plumb summary): run 4, twin
"$PLUMB" summary --db "$DB" --format markdown >"$T/newest.out" 2>&1
check identity/summary-newest-only test "$(grep -c '^| run ' "$T/newest.out")" -eq 1 -a "$(grep -c '^| run 4 (label twin) ' "$T/newest.out")" -eq 1

# ---- run and runs: the id said, build, flags and scope shown --------------------------------
# the smallest run there is: one family, 3 samples, no cache knee measured (PLUMB_LLC)
export PLUMB_LLC=32M
"$PLUMB" run --db "$DB" --quick --only syscall --label 'v1' --samples 3 >"$T/run.out" 2>"$T/run.err"
id=$(sed -n 's/.*stored as run \([0-9]*\) (label v1) in .*; plumb report \([0-9]*\)$/\1 \2/p' "$T/run.err")
check identity/run-prints-its-id test -n "$id" -a "${id% *}" = "${id#* }"
"$PLUMB" runs --db "$DB" >"$T/runs.out"
line=$(grep "^ *${id% *} " "$T/runs.out")
check identity/runs-shows-scope echo "$line" | grep -q ' syscall '
check identity/runs-shows-build echo "$line" | grep -Eq ' (gcc|clang|cc)[^ ]* [0-9][^ ]* .*-O'
check identity/runs-shows-version echo "$line" | grep -Eq ' [0-9]+\.[0-9]+\.[0-9]+$'
check identity/runs-fits-120-columns test "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$T/runs.out")" -le 120
"$PLUMB" runs --db "$DB" --wide >"$T/wide.out"
check identity/runs-wide-cflags grep -q -- ' cflags' "$T/wide.out"
"$PLUMB" runs --db "$DB" --json >"$T/runs.json"
check identity/runs-json python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = [x for x in d["runs"] if x["id"] == int(sys.argv[2])][0]
assert d["kind"] == "runs" and r["scope"] == "syscall" and r["build_cflags"] and r["arch"]
' "$T/runs.json" "${id% *}"
cc=$(python3 -c 'import json,sys; print([x for x in json.load(open(sys.argv[1]))["runs"] if x["id"] == int(sys.argv[2])][0]["build"].split()[0])' "$T/runs.json" "${id% *}")
"$PLUMB" runs --db "$DB" --cc "$cc" >"$T/cc.out"
check identity/runs-select-cc grep -q "^ *${id% *} " "$T/cc.out"
"$PLUMB" runs --db "$DB" --cflags "-Ono-such" >"$T/nocflags.out"
check identity/runs-select-cflags test "$(grep -c '^ *[0-9]' "$T/nocflags.out")" -eq 0

# ---- two ab sessions: distinct default labels, never pooled by label -------------------------
AB="$T/ab.db"
for s in 1 2; do
	"$PLUMB" ab --db "$AB" --quick --only syscall --samples 3 --b "$PLUMB" >"$T/ab$s.out" 2>"$T/ab$s.err"
done
l1=$(sed -n 's/.*stored as runs [0-9]* (\([^)]*\)) and.*/\1/p' "$T/ab1.err")
l2=$(sed -n 's/.*stored as runs [0-9]* (\([^)]*\)) and.*/\1/p' "$T/ab2.err")
check identity/ab-labels-per-session test -n "$l1" -a -n "$l2" -a "$l1" != "$l2"
check identity/ab-says-how-to-reopen grep -q '; plumb report [0-9]* [0-9]*$' "$T/ab1.err"
"$PLUMB" compare --db "$AB" "$l1" "$l2" >"$T/ab.cmp" 2>&1
check identity/ab-sessions-compare-one-run-a-side grep -q '^lat_syscall.null.steady ' "$T/ab.cmp"
"$PLUMB" runs --db "$AB" --label "$l1" >"$T/ab.l1"
check identity/ab-label-one-run test "$(grep -c '^ *[0-9]' "$T/ab.l1")" -eq 1

