#!/bin/sh
# lane: parallel (times nothing: runs beside the timing scripts, tests/run.sh)
# report.sh — `plumb report` / `plumb plot`: bad arguments, then the HTML page (a synthetic
# two-run report written by the unit-test binary, so it does not depend on the run reader)
# must reference nothing outside itself and must render in headless Chromium to a screenshot
# that is not blank (compared with the screenshot of an empty page of the same size).
. tests/lib.sh

expect_usage "report: no output" "$PLUMB" report some-run
expect_usage "report: unknown option" "$PLUMB" report --frobnicate -o "$T/x.html"
expect_usage "plot: no directory" "$PLUMB" plot some-run
expect_usage "plot: -o is for report" "$PLUMB" plot -o "$T/x.html" -d "$T/svg" some-run
expect_usage "report: bad alpha" "$PLUMB" report --alpha 0 -o "$T/x.html" some-run
expect_usage "report: missing run" "$PLUMB" report "$T/nope.json" -o "$T/x.html"
check "report: nothing left behind on error" test ! -e "$T/x.html"

# plot --png: a PNG beside each SVG drawn by rsvg-convert; without one on PATH a stand-in that
# writes a PNG signature (plot's side of it: the argument vector, the temporary name, the rename)
. tests/gen_run.sh
gen_run "$T/a.json" vm a 1 4
mkdir -p "$T/fake"
if ! command -v rsvg-convert >/dev/null 2>&1; then
	cat >"$T/fake/rsvg-convert" <<'EOS'
#!/bin/sh
[ "$1" = -o ] && [ -s "$3" ] && printf '\211PNG\r\n\032\n' >"$2"
EOS
	chmod +x "$T/fake/rsvg-convert"
fi
PATH="$PATH:$T/fake" "$PLUMB" plot --png -d "$T/png" "$T/a.json" >/dev/null 2>"$T/png.err"; rc=$?
{
	nsvg=$(ls "$T/png"/*.svg 2>/dev/null | wc -l)
	npng=0
	for p in "$T/png"/*.png; do
		[ -f "$p" ] && head -c 8 "$p" | od -An -c | grep -q 'P   N   G' && npng=$((npng + 1))
	done
	if [ $rc -eq 0 ] && [ "$nsvg" -ge 1 ] && [ "$npng" -eq "$nsvg" ] && ! ls "$T/png" | grep -q tmp; then
		pass "plot: --png"
	else
		fail "plot: --png" "rc=$rc, $nsvg svg, $npng png: $(tail -n 2 "$T/png.err")"
	fi
}
expect_usage "plot: --png without a converter" env PATH="$T/nothing" "$PLUMB" plot --png -d "$T/png2" "$T/a.json"

# a series of four versions: the page holds a trend chart per metric (report_trend.c), listed
# in the contents and drawn in their own section
for i in 1 2 3 4; do gen_run "$T/v$i.json" vm "v$i-gcc-12.2.0-O$i-march-native-flto" "$([ $i -ge 3 ] && echo 2 || echo 1)" 4; done
"$PLUMB" report -o "$T/series.html" "$T/v1.json" "$T/v2.json" "$T/v3.json" "$T/v4.json" \
	>/dev/null 2>"$T/series.err"
ntrend=$(grep -c '<div class="chart wide" id="trend-' "$T/series.html" 2>/dev/null)
if grep -q '<h2 id="trend">' "$T/series.html" && grep -q 'href="#trend-lat_syscall-null"' \
	"$T/series.html" && [ "${ntrend:-0}" -ge 4 ]; then
	pass "report: a series of four versions has its trend charts"
else
	fail "report: a series of four versions has its trend charts" \
		"$ntrend charts: $(head -c 200 "$T/series.err")"
fi

# side metrics (report_side.c): two runs whose samples carry them, B slower with 50 % more
# switches per operation and the host stealing a tenth of each sample. The page draws a chart
# beside each worse row, its bars the per-operation medians compare computes; one run alone
# draws the per-tool chart; a run without side metrics draws none.
gen_run "$T/b.json" vm b 2 4
for w in a b; do
	python3 - "$T/$w.json" "$T/side-$w.json" "$([ $w = a ] && echo 2 || echo 3)" \
		"$([ $w = a ] && echo 0.001 || echo 0.1)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
cs, steal = float(sys.argv[3]), float(sys.argv[4])
for r in d["results"]:
    ops = [s["iters"] for s in r["samples"]]
    el = [s["elapsed_ns"] for s in r["samples"]]
    r["side"] = {"ops": ops, "cs": [o * cs * (1 + 0.01 * (i % 3)) for i, o in enumerate(ops)],
                 "migrations": [i % 2 for i in range(len(ops))],
                 "task_ns": [e * 0.9 for e in el], "steal_ns": [e * steal for e in el]}
json.dump(d, open(sys.argv[2], "w"))
PY
done
"$PLUMB" report -o "$T/side.html" "$T/side-a.json" "$T/side-b.json" >/dev/null 2>"$T/side.err"
# the medians of cs per operation, as the chart prints them (%.3f from 1 to 10)
check "report: side metrics beside each worse row" python3 - "$T/side.html" "$T/side-a.json" \
	"$T/side-b.json" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
def med(f, metric):
    r = [r for r in json.load(open(f))["results"] if r["metric"] == metric][0]
    v = sorted(c / o for c, o in zip(r["side"]["cs"], r["side"]["ops"]))
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
for metric in ("lat_syscall.null", "lat_syscall.read"):
    m = re.search(r'<div class="chart wide" id="side-%s">(.*?)</div>' % metric.replace(".", "-"),
                  html, re.S)
    assert m, metric + ": no chart"
    svg = m.group(1)
    assert "worse" in svg and "cs, changed (per op)" in svg, metric
    vals = re.findall(r'class="value"[^>]*>([^<]*)<', svg)
    for f in sys.argv[2:]:
        assert "%.3f" % med(f, metric) in vals, (metric, f, med(f, metric), vals)
assert 'id="side-lat_syscall-write"' not in html  # no change, no chart
PY
python3 tests/cli/report_geometry.py "$T/side.html" side-a.json side-b.json |
	sed 's/^\(PASS\|FAIL\) report:/\1 report side:/'
"$PLUMB" report -o "$T/side1.html" "$T/side-a.json" >/dev/null 2>"$T/side1.err"
check "report: side metrics per tool of one run" python3 - "$T/side1.html" "$T/side-a.json" <<'PY'
import json, re, sys
html = open(sys.argv[1]).read()
m = re.search(r'<div class="chart wide" id="side-tools">(.*?)</div>', html, re.S)
assert m, "no per-tool chart"
svg = m.group(1)
assert re.search(r'class="point"[^>]*>lat_syscall<', svg), "no lat_syscall row"
v = sorted(c / o for r in json.load(open(sys.argv[2]))["results"]
           for c, o in zip(r["side"]["cs"], r["side"]["ops"]))
n = len(v)
want = "%.2f" % (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2)
vals = re.findall(r'class="value"[^>]*>([^<]*)<', svg)
assert vals[0] == want and vals[3] == "90.0", (want, vals)  # cs/op; task clock 90 % of wall
PY
python3 tests/cli/report_geometry.py "$T/side1.html" side-a.json |
	sed 's/^\(PASS\|FAIL\) report:/\1 report side one run:/'
"$PLUMB" report -o "$T/noside.html" "$T/a.json" >/dev/null 2>&1
check "report: no side charts without side metrics" sh -c "! grep -q 'id=\"side' '$T/noside.html'"

UNIT=${UNIT:-$BIN/unit-tests}
if [ ! -x "$UNIT" ]; then
	skip "report: html" "$UNIT not built (make bin/unit-tests)"
	exit 0
fi
PLUMB_REPORT_OUT="$T/r.html" "$UNIT" report_synthetic >"$T/unit.out" 2>&1
if [ -s "$T/r.html" ] && grep -q '^PASS unit/report_synthetic' "$T/unit.out"; then
	pass "report: html"
else
	fail "report: html" "$(head -c 300 "$T/unit.out")"
	exit 0
fi

bad=$(grep -Eio 'https?://|<script|@import|url\(|<link|<iframe|<img' "$T/r.html" | sort -u | tr '\n' ' ')
if [ -z "$bad" ]; then pass "report: self-contained"; else fail "report: self-contained" "found: $bad"; fi
check "report: has print styles" grep -q '@media print' "$T/r.html"
check "report: has charts" test "$(grep -c '<svg' "$T/r.html")" -ge 6
# the charts' geometry: medians printed at the bar's end and clear of the whiskers, titles
# whole, legends naming each side with its build
if command -v python3 >/dev/null 2>&1; then
	# it prints lib.sh's PASS/FAIL lines itself
	python3 tests/cli/report_geometry.py "$T/r.html" "before (gcc 12.2.0 -O2)" \
		"after (gcc 12.2.0 -O0)" || fail "report: geometry" "report_geometry.py failed"
else
	skip "report: bar values clear of whiskers" "python3 is not installed"
fi
check "report: contents before the verdicts" sh -c "grep -n 'id=\"contents\"\|id=\"verdicts\"' '$T/r.html' | head -n 1 | grep -q contents"

CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
	skip "report: renders in chromium" "chromium is not installed (apt-get install chromium)"
	exit 0
fi

# shot HTML PNG: headless screenshot at 1280 px, a private profile, nothing from the network
shot() {
	prof=$(mktemp -d "$T/chrome.XXXXXX")
	timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
		--screenshot="$2" --window-size=1280,2000 "file://$1" >"$T/chrome.log" 2>&1
	rm -rf "$prof"
}
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title></head><body></body></html>\n' >"$T/blank.html"
shot "$T/r.html" "$T/r.png"
shot "$T/blank.html" "$T/blank.png"
if [ ! -s "$T/r.png" ]; then
	fail "report: renders in chromium" "no screenshot: $(tail -n 3 "$T/chrome.log")"
	exit 0
fi
size=$(wc -c <"$T/r.png")
blank=$(wc -c <"$T/blank.png" 2>/dev/null || echo 0)
# PNG compresses a uniform page to a few KB; charts, tables and text make it far larger.
distinct=$(od -An -tu1 -v "$T/r.png" | tr -s ' ' '\n' | sort -u | wc -l)
if [ "$size" -gt 50000 ] && [ "$size" -gt $((blank * 5)) ] && [ "$distinct" -gt 200 ]; then
	pass "report: renders in chromium"
else
	fail "report: renders in chromium" "png $size bytes (blank page: $blank), $distinct distinct bytes"
fi

# printing: the print styles must give a real multi-page document
prof=$(mktemp -d "$T/chrome.XXXXXX")
timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
	--no-pdf-header-footer --print-to-pdf="$T/r.pdf" "file://$T/r.html" >"$T/chrome.log" 2>&1
rm -rf "$prof"
pages=$(grep -a -o '/Count [0-9]*' "$T/r.pdf" 2>/dev/null | awk '{ if ($2 > m) m = $2 } END { print m + 0 }')
if head -c 5 "$T/r.pdf" 2>/dev/null | grep -q '%PDF' && [ "$pages" -ge 2 ]; then
	pass "report: prints"
else
	fail "report: prints" "pdf pages=$pages: $(tail -n 2 "$T/chrome.log")"
fi

# the series page as Chromium lays it out at 1280 px: the trend charts drawn (a box of real
# size inside the page) and every table, the four versions' verdicts included, within the page.
# The page has no script; the test's copy adds one that writes what it measures into the DOM.
measure='var w=document.documentElement.clientWidth,d=0,m=0,mt="";
document.querySelectorAll("[id^=trend-] svg").forEach(function(s){var r=s.getBoundingClientRect();
if(r.width>100&&r.height>50&&r.right<=w+1)d++});
document.querySelectorAll("table").forEach(function(t){var r=t.getBoundingClientRect();
if(r.width>0&&r.right>m){m=r.right;mt=(t.previousElementSibling||{}).id||""}});
document.body.setAttribute("data-measured","trend="+d+" widest="+Math.ceil(m)+" page="+w+" at="+mt)'
awk -v js="$measure" '/<\/body>/ { print "<script>" js "</script>" } { print }' "$T/series.html" \
	>"$T/series-m.html"
prof=$(mktemp -d "$T/chrome.XXXXXX")
timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$prof" \
	--window-size=1280,2000 --dump-dom "file://$T/series-m.html" >"$T/series.dom" 2>"$T/chrome.log"
rm -rf "$prof"
got=$(grep -o 'data-measured="[^"]*"' "$T/series.dom" | head -n 1)
drawn=$(echo "$got" | sed -n 's/.*trend=\([0-9]*\).*/\1/p')
widest=$(echo "$got" | sed -n 's/.*widest=\([0-9]*\).*/\1/p')
page=$(echo "$got" | sed -n 's/.*page=\([0-9]*\).*/\1/p')
if [ "${drawn:-0}" -ge 4 ]; then
	pass "report: chromium draws the series' trend charts"
else
	fail "report: chromium draws the series' trend charts" "measured: ${got:-nothing}"
fi
if [ -n "$widest" ] && [ -n "$page" ] && [ "$widest" -le "$page" ]; then
	pass "report: four versions' tables fit the page"
else
	fail "report: four versions' tables fit the page" "measured: ${got:-nothing}"
fi
