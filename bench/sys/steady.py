#!/usr/bin/env python3
"""bench/sys/steady.py RUN.json... — per metric with a steady twin, the coefficient of variation
over runs of the batch mean (lmbench's figure) and of its steady figure (the median operation),
for each condition named in the file names (run-h0-*.json: alone, run-h1-*.json: beside a CPU
hog per CPU). A run's value of a point is what compare judges: the mean over its rounds of each
round's mean log value (docs/compare.md), shown as its exponential."""
import json, math, re, statistics, sys
from collections import defaultdict

vals = defaultdict(lambda: defaultdict(list))  # cond -> point -> values
for path in sys.argv[1:]:
    m = re.search(r'-h(\d)-', path)
    cond = 'hog' if m and m.group(1) == '1' else 'alone'
    doc = json.load(open(path))
    for r in doc.get('results', []):
        key = r['metric'] + ('' if r.get('x') is None else f"@{r['x']:g}")
        if r['params']:
            key += ' ' + ' '.join(f"{a}={b}" for a, b in sorted(r['params'].items()) if a != 'file')
        by = {}
        for smp in r.get('samples', []):
            if isinstance(smp.get('value'), (int, float)) and smp['value'] > 0:
                by.setdefault(smp['round'], []).append(math.log(smp['value']))
        if by:
            vals[cond][key].append(math.exp(statistics.mean(statistics.mean(v) for v in by.values())))

def cv(v):
    return 100 * statistics.stdev(v) / statistics.mean(v) if len(v) > 1 and statistics.mean(v) else float('nan')

for cond in sorted(vals):
    pts = vals[cond]
    print(f"== {cond}: CV over runs, %  (batch mean -> steady figure), runs per point")
    for key in sorted(pts):
        if key.split(' ')[0].endswith('.steady'):
            continue
        base, rest = (key.split(' ', 1) + [''])[:2]
        tw = base.replace('@', '.steady@') if '@' in base else base + '.steady'
        twk = (tw + (' ' + rest if rest else ''))
        if twk not in pts:
            continue
        a, b = pts[key], pts[twk]
        print(f"{key:40s} {cv(a):6.1f} -> {cv(b):5.1f}   (mean {statistics.median(a):.4g}, steady {statistics.median(b):.4g}, n={len(a)})")
