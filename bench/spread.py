#!/usr/bin/env python3
"""spread.py RUN.json... — repeatability of lmbench's summary cells across runs of plumb.

The cells are the stored results the summary tables read (`plumb summary --cells`: the same
choice of sizes, strides and process counts as the tables). For each, the spread
(max - min) / median across the runs; then the share within 1 %, 2 %, 5 % and 10 %, the ten worst
by name, and whether each of those was flagged inside its own runs: noisy (95 % CI of the median
wider than +-5 %) or with a caveat, the flags summary and compare print.
"""
import statistics, subprocess, sys

plumb = "bin/plumb"
out = subprocess.run([plumb, "summary", "--cells", *sys.argv[1:]], capture_output=True,
                     text=True, check=True).stdout
cells = {}
for line in out.splitlines():
    i, metric, params, x, value, n, noise, caveat = line.split("\t")
    key = (metric, params, x)
    nz = float(noise)
    cells.setdefault(key, {})[int(i)] = (float(value), nz, (nz == nz and nz > 5) or caveat != "-")
nruns = len(sys.argv) - 1
rows = []
for key, per in cells.items():
    if len(per) != nruns:
        continue
    vals = [v for v, _, _ in per.values()]
    med = statistics.median(vals)
    if med:
        flagged = any(f for _, _, f in per.values())
        rows.append(((max(vals) - min(vals)) / abs(med), key, flagged))
n = len(rows)
if not n:
    print("no common cells"); sys.exit(1)
print(f"{n} summary cells measured in all {nruns} runs")
for lim in (0.01, 0.02, 0.05, 0.10):
    c = sum(1 for s, _, _ in rows if s <= lim)
    print(f"  within {lim*100:4.0f} %: {c:3d}/{n} ({100*c/n:.0f} %)")
over = [r for r in rows if r[0] > 0.10]
print(f"  beyond 10 %: {len(over)}, of which flagged (noisy or caveat) in their runs: {sum(1 for r in over if r[2])}")
print("worst ten:")
for s, (m, p, x), fl in sorted(rows, reverse=True)[:10]:
    xs = "" if x == "nan" else f" x={float(x):g}"
    print(f"  {s*100:6.1f} %  {m} {p}{xs}{'  (flagged)' if fl else ''}")
