# side.sh — side metrics per sample (docs/side-metrics.md): the JSON's side object, a run file
# read back, collection off, the perf fallback; per-operation truths with bounds that hold on a
# busy machine; the PMU probe's refusal path.
. tests/lib.sh
# per_op FILE METRIC FIELD: the median over samples of FIELD per operation ("none" when absent)
per_op() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["metric"] != sys.argv[2]:
        continue
    s = r.get("side") or {}
    v = [x / o for x, o in zip(s.get(sys.argv[3]) or [], s.get("ops") or [])
         if x is not None and o]
    v.sort()
    print(v[len(v) // 2] if v else "none")
    break
else:
    print("none")
PY
}
"$PLUMB" lat_syscall null --json -N 5 >"$T/null.json"
check side/json-object python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
s = r["side"]
assert len(s["ops"]) == len(r["samples"]) == 5
for k in ("vol_cs", "invol_cs", "cs", "minflt", "majflt", "task_ns"):
    assert len(s[k]) == 5 and all(isinstance(x, (int, float)) for x in s[k]), k
assert r["info"]["side"] == "proc"
assert s["ops"][0] == r["samples"][0]["iters"]
' "$T/null.json"
# the share of a sample the process ran: never more than the wall time of the sample (one
# process, one thread), and never nothing
check side/task-clock-within-wall python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
for t, s in zip(r["side"]["task_ns"], r["samples"]):
    assert 0 < t <= s["elapsed_ns"] * 1.05 + 1e5, (t, s["elapsed_ns"])
' "$T/null.json"
# a file read back keeps them: export reads the document and writes it again
"$PLUMB" export "$T/null.json" --format json >"$T/again.json" 2>"$T/again.err"
check side/read-back python3 -c '
import json, sys
a = json.load(open(sys.argv[1]))["results"][0]["side"]
b = json.load(open(sys.argv[2]))["results"][0]["side"]
assert a == b, (a, b)
' "$T/null.json" "$T/again.json"
# -P copies: each copy's side metrics travel with its samples to the parent
"$PLUMB" lat_syscall null -P 2 --json -N 3 >"$T/par.json" 2>/dev/null
check side/parallel-copies-keep-side python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
s = r["side"]
assert len(r["samples"]) == 6 and len(s["task_ns"]) == 6, s
for t, m in zip(s["task_ns"], r["samples"]):
    assert 0 < t <= m["elapsed_ns"] * 1.05 + 1e5, (t, m["elapsed_ns"])
' "$T/par.json"
# CSV export: a sample's side metrics in columns of their own, the values of the JSON
"$PLUMB" export "$T/null.json" --format csv >"$T/null.csv" 2>"$T/csv.err"
check side/export-csv python3 -c '
import csv, json, sys
r = json.load(open(sys.argv[1]))["results"][0]
rows = [x for x in csv.DictReader(open(sys.argv[2], newline="")) if x["metric"] == r["metric"]]
assert len(rows) == len(r["samples"]) == 5, len(rows)
for k in ("iters", "elapsed_ns", "side_ops", "vol_cs", "invol_cs", "cs", "migrations",
          "task_ns", "steal_ns", "freq_khz", "cycles", "dtlb_misses", "window_ns", "idle_cpus",
          "idle_states"):
    assert k in rows[0], k
for i, row in enumerate(rows):
    assert float(row["side_ops"]) == r["side"]["ops"][i]
    for k in ("cs", "task_ns", "minflt"):
        assert float(row[k]) == r["side"][k][i], (k, row[k], r["side"][k][i])
    assert int(row["iters"]) == r["samples"][i]["iters"]
' "$T/null.json" "$T/null.csv"
# off: nothing read, nothing written; an old reader's document (no side) reads as before
PLUMB_SIDE=off "$PLUMB" lat_syscall null --json -N 3 >"$T/off.json"
check side/off-writes-none python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert "side" not in r and "side" not in r["info"]
' "$T/off.json"
check side/off-reads-back "$PLUMB" export "$T/off.json" --format json
# perf software events on request, where the kernel allows them
PLUMB_SIDE_PERF=on "$PLUMB" lat_pipe --json -N 5 >"$T/pipe-perf.json"
perf=yes
grep -q '"side": "perf"' "$T/pipe-perf.json" || perf=no
if [ $perf = no ] && grep -q '"side": "proc"' "$T/pipe-perf.json"; then
	skip side/perf-source "perf software events refused here (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)): read from /proc"
else
	check side/perf-source grep -q '"side": "perf"' "$T/pipe-perf.json"
fi

# ---- per-operation truths --------------------------------------------------------------------
# A pipe round trip: the tool blocks in read, its echo helper blocks in read: two switches per
# operation counting both processes (the helper is counted: its /proc/PID/status, or perf
# with inherit). Preemptions by a busy machine add a few per thousand operations.
"$PLUMB" lat_pipe --json -N 5 >"$T/pipe.json"
for f in pipe pipe-perf; do
	cs=$(per_op "$T/$f.json" lat_pipe.latency cs)
	if between "$cs" 1.5 2.5; then pass "side/$f-two-switches-per-op"
	else fail "side/$f-two-switches-per-op" "cs per op $cs"; fi
done
# a null system call switches nothing: under 0.05 per call even when a neighbour takes the CPU
# once a millisecond (a call is well under a microsecond)
cs=$(per_op "$T/null.json" lat_syscall.null cs)
if between "$cs" 0 0.05; then pass side/null-no-switches; else fail side/null-no-switches "cs per op $cs"; fi
# pinned to one CPU: no migrations (counted where /proc/self/sched has them, or by perf)
cpu=$(allowed_cpus | head -1)
"$PLUMB" lat_pipe --cpu "$cpu" --json -N 5 >"$T/pin.json"
if grep -q '"migrations"' "$T/pin.json"; then
	check side/pinned-no-migrations python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert sum(r["side"]["migrations"]) == 0, r["side"]["migrations"]
' "$T/pin.json"
else
	skip side/pinned-no-migrations "no se.nr_migrations in /proc/self/sched (a kernel without SCHED_DEBUG): migrations are not counted"
fi
# a page-fault loop: lat_pagefault maps its own file, drops its pages and touches each page
# once a pass: one fault per page (major when the eviction held, minor when it did not)
"$PLUMB" lat_pagefault --json -N 3 >"$T/pf.json" 2>"$T/pf.err"
mi=$(per_op "$T/pf.json" lat_pagefault.latency minflt)
ma=$(per_op "$T/pf.json" lat_pagefault.latency majflt)
f=$(awk -v a="$mi" -v b="$ma" 'BEGIN { print a + b }')
if between "$f" 0.8 1.5; then pass side/pagefault-one-fault-per-page
else fail side/pagefault-one-fault-per-page "minor $mi + major $ma per page"; fi
# a process made to yield: a busy loop shares the tool's CPU, so the scheduler takes the CPU
# from the tool during its samples: involuntary switches. Each sample is 20 ms (ENOUGH=20000),
# several scheduler slices and ticks: at the suite's 2 ms a sample of ~1 ms fits between two
# preemptions, and CI saw 11 such samples with none inside (a fair scheduler never gives one of
# two equal tasks 220 ms in a row).
if command -v taskset >/dev/null 2>&1; then
	taskset -c "$cpu" sh -c 'while :; do :; done' &
	busy=$!
	trap 'kill $busy 2>/dev/null; rm -rf "$T"' EXIT
	ENOUGH=20000 "$PLUMB" lat_syscall null --cpu "$cpu" --json -N 11 >"$T/yield.json"
	kill $busy 2>/dev/null; wait $busy 2>/dev/null
	n=$(python3 -c 'import json,sys; print(sum(json.load(open(sys.argv[1]))["results"][0]["side"]["invol_cs"]))' "$T/yield.json")
	if [ "${n:-0}" -ge 1 ] 2>/dev/null; then pass side/shared-cpu-involuntary
	else fail side/shared-cpu-involuntary "involuntary switches over 11 samples: $n"; fi
else
	skip side/shared-cpu-involuntary "no taskset to place a busy loop on the tool's CPU"
fi

# ---- the PMU probe and the facts --------------------------------------------------------------
"$PLUMB" sysinfo --json >"$T/sys.json"
check side/facts-recorded python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))
f = f.get("system", f)
assert f["pmu"] in ("none", "partial", "full"), f["pmu"]
for k in ("perf_event_paranoid", "cpu_pmus", "idle_states", "microcode" if "x86" in f.get("arch", "") else "pmu"):
    assert k in f, k
assert f["pmu"] == "full" or f.get("pmu_refused"), "a PMU short of full says why"
' "$T/sys.json"
# the refusal path, on any machine: fabricated counts fail the calibrated loop, the probe says
# so, and no hardware counter reaches a result
PLUMB_PMU_FAKE=implausible "$PLUMB" sysinfo >"$T/fake.txt"
check side/pmu-refuses-implausible grep -Eq '^pmu_refused +instructions 3000 for a loop of' "$T/fake.txt"
check side/pmu-refused-none grep -Eq '^pmu +none$' "$T/fake.txt"
PLUMB_PMU_FAKE=implausible "$PLUMB" lat_syscall null --json -N 3 >"$T/fake.json"
check side/pmu-refused-nothing-stored python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["results"][0]["side"]
assert not any(k in s for k in ("cycles", "instructions", "cache_misses", "dtlb_misses")), s.keys()
assert d["system"]["pmu"] == "none"
' "$T/fake.json"
# the plausible path needs a CPU PMU that passes the probe
if grep -q '"pmu": "\(full\|partial\)"' "$T/sys.json"; then
	check side/pmu-instructions-per-call python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["results"][0]["side"]
v = sorted(i / o for i, o in zip(s["instructions"], s["ops"]))
assert 5 <= v[len(v) // 2] <= 100000, v
' "$T/null.json"
else
	skip side/pmu-instructions-per-call "no PMU passed the probe here ($(grep -o '"pmu_refused": "[^"]*"' "$T/sys.json"); cpu_pmus: $(ls /sys/bus/event_source/devices 2>/dev/null | tr '\n' ' '))"
fi

# ---- beside the verdict: compare ------------------------------------------------------------
"$PLUMB" run --only lat_pipe --no-store -o "$T/a.json" >/dev/null 2>&1
check side/run-file-keeps-side python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
r = [r for r in d["results"] if r["metric"] == "lat_pipe.latency"][0]
assert len(r["side"]["cs"]) == len(r["samples"]) >= 6, r.get("side")
' "$T/a.json"
# B: the same run, twice as slow, with 50 % more switches per operation and the host stealing a
# tenth of every sample's window (the span the machine's figures cover, window_ns), the first
# idle state a fifth of the idle CPUs' time over it: compare must call it worse, name cs and
# the state as changed, say "disturbed"
python3 - "$T/a.json" "$T/b.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["uid"] = "0123456789abcdef0123456789abcdef"
for r in d["results"]:
    for s in r["samples"]:
        s["value"] *= 2
    side = r.get("side")
    if side:
        side["cs"] = [c * 1.5 for c in side["cs"]]
        win = side["window_ns"]
        side["steal_ns"] = [w * 0.1 for w in win]
        for st in (side.get("idle") or {}).values():  # the first state: 20 % of the CPUs' time
            st["time_us"] = [w * n * 0.2 / 1000 for w, n in zip(win, side["idle_cpus"])]
            break
json.dump(d, open(sys.argv[2], "w"))
PY
"$PLUMB" compare "$T/a.json" "$T/b.json" >"$T/cmp.txt" 2>/dev/null
check side/compare-names-changed-cs grep -Eq '^    cs +2\.0.* -> 3\.0.* \(\+50%\) changed$' "$T/cmp.txt"
if grep -q '"idle_states"' "$T/a.json"; then
	check side/compare-names-idle-state grep -Eq '^    [A-Za-z0-9_-]+% +0\.000 .* -> 20\.0.* changed$' "$T/cmp.txt"
else
	skip side/compare-names-idle-state "no cpuidle states in sysfs here"
fi
check side/compare-says-disturbed grep -Eq '^lat_pipe\.latency.* worse( at equal clock)? disturbed$' "$T/cmp.txt"
check side/compare-width-120 awk 'length > 120 { exit 1 }' "$T/cmp.txt"
# three sides of long names, every side metric: the tables and their headers stay within 120
# columns (the one-sentence answers above them name each side whole)
L="$T/a-side-named-at-length-for-the-baseline-of-kernel-6.1.0-with-its-build-flags"
cp "$T/a.json" "$L-A.json"
cp "$T/b.json" "$L-B.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["run"]["uid"] = "1123456789abcdef0123456789abcdef"
json.dump(d, open(sys.argv[2], "w"))' "$T/b.json" "$L-C.json"
"$PLUMB" compare --side "$L-A.json" "$L-B.json" "$L-C.json" >"$T/long.txt" 2>/dev/null
check side/compare-side-3-long-names-120 awk '/ is (slower|faster|mixed): / { next }
	length > 120 { bad = 1 } END { exit bad || NR < 10 }' "$T/long.txt"
"$PLUMB" trend "$L-A.json" "$L-B.json" "$L-C.json" "$L-A.json" >"$T/long-trend.txt" 2>/dev/null
check side/trend-long-names-120 awk 'length > 120 { exit 1 }' "$T/long-trend.txt"
"$PLUMB" compare --side "$T/a.json" "$T/a.json" >"$T/same.txt" 2>/dev/null
check side/compare-side-every-row grep -Eq '^    minflt ' "$T/same.txt"
"$PLUMB" compare --json "$T/a.json" "$T/b.json" >"$T/cmp.json" 2>/dev/null
check side/compare-json python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["rows"] if r["metric"] == "lat_pipe.latency"]
s = rows[0]["sides"]
assert 1.5 <= s[0]["side"]["cs"]["per_op"] <= 2.5 and s[1]["disturbed"] is True, s
' "$T/cmp.json"
"$PLUMB" compare --format csv "$T/a.json" "$T/b.json" >"$T/cmp.csv" 2>/dev/null
check side/compare-csv python3 -c '
import csv, sys
head = next(csv.reader(open(sys.argv[1])))
assert len(head) == len(set(head)), head  # a column name twice is a column lost to DictReader
rows = list(csv.DictReader(open(sys.argv[1])))
r = [r for r in rows if r["metric"] == "lat_pipe.latency" and r["disturbed"] == "1"]
assert r and r[0]["side"] and "=" not in r[0]["side"] and "cs=3" in r[0]["side_metrics"], rows[:2]
' "$T/cmp.csv"

# ---- the store keeps them (schema 7: samples.side) --------------------------------------------
if "$PLUMB" import --db "$T/s.db" "$T/a.json" >/dev/null 2>&1; then
	"$PLUMB" export 1 --db "$T/s.db" --format json >"$T/back.json" 2>/dev/null
	check side/store-round-trip python3 -c '
import json, sys
pick = lambda f: [r for r in json.load(open(f))["results"] if r["metric"] == "lat_pipe.latency"][0]
assert pick(sys.argv[1])["side"] == pick(sys.argv[2])["side"]
' "$T/a.json" "$T/back.json"
else
	skip side/store-round-trip "no SQLite store in this build"
fi

# ---- trend: under each change of level, what changed with it --------------------------------
python3 - "$T/a.json" "$T/b.json" "$T" <<'PY'
import json, sys
for src, dst, u in ((sys.argv[1], "a2.json", "1"), (sys.argv[2], "b2.json", "2")):
    d = json.load(open(src)); d["run"]["uid"] = u * 32
    json.dump(d, open(sys.argv[3] + "/" + dst, "w"))
PY
"$PLUMB" trend "$T/a.json" "$T/a2.json" "$T/b.json" "$T/b2.json" >"$T/trend.txt" 2>/dev/null
check side/trend-names-changed-cs grep -Eq '^    cs +2\.0.* -> 3\.0.* \(\+50%\) changed$' "$T/trend.txt"
check side/trend-width-120 awk 'length > 120 { exit 1 }' "$T/trend.txt"
