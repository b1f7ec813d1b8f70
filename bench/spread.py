#!/usr/bin/env python3
"""spread.py RUN.json... — repeatability of metrics across runs of plumb.

For every single-value metric and the largest point of every series (the points lmbench's
summary reads), the spread (max - min) / median of the run values; then the share of metrics
within 1 %, 2 % and 5 %, and the ten worst by name. Reads plumb's run JSON (docs/json-schema.md).
"""
import json, sys, statistics

def points(path):
    doc = json.load(open(path))
    best = {}
    for r in doc.get("results", []):
        params = " ".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
        key = (r["metric"], params)
        x = r.get("x")
        if x is None:
            best[key] = (None, r["value"])
        elif key not in best or (best[key][0] is not None and x > best[key][0]):
            best[key] = (x, r["value"])
    return {k: v[1] for k, v in best.items() if v[1] is not None}

runs = [points(p) for p in sys.argv[1:]]
keys = set.intersection(*(set(r) for r in runs)) if runs else set()
rows = []
for k in sorted(keys):
    vals = [r[k] for r in runs]
    med = statistics.median(vals)
    if med:
        rows.append(((max(vals) - min(vals)) / abs(med), k, vals))
n = len(rows)
if not n:
    print("no common metrics"); sys.exit(1)
for lim in (0.01, 0.02, 0.05):
    c = sum(1 for s, _, _ in rows if s <= lim)
    print(f"within {lim*100:.0f} %: {c}/{n} ({100*c/n:.0f} %)")
print("worst ten:")
for s, (m, p), vals in sorted(rows, reverse=True)[:10]:
    print(f"  {s*100:6.1f} %  {m} {p}")
