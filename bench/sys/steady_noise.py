#!/usr/bin/env python3
"""bench/sys/steady_noise.py RUN.json... — the figures behind a steady twin's declared noise
(.steady = { ... } in its tool's file): per metric, the within-run sd of a round's log value (s_w),
the sd of a run's value (the mean of its rounds' mean logs, s_b) and the run effect
sqrt(max(0, s_b^2 - s_w^2 / rounds)): what separates runs beyond their rounds. Then the
declared pair as bench/README.md's rule makes it: the run sd at NOISE_ROUNDS = 3 rounds
(sqrt(effect^2 + s_w^2 / 3)) and the effect, each x 1.25 and rounded up to half a percent."""
import json, math, statistics, sys
from collections import defaultdict

runs = defaultdict(list)  # point -> [ [round log means] per run ]
for path in sys.argv[1:]:
    for r in json.load(open(path)).get('results', []):
        if not r['metric'].endswith('.steady') and not r['metric'].startswith(tuple(sys.argv[0:0])):
            pass
        key = r['metric'] + ('' if r.get('x') is None else f"@{r['x']:g}")
        by = defaultdict(list)
        for s in r.get('samples', []):
            if isinstance(s.get('value'), (int, float)) and s['value'] > 0:
                by[s['round']].append(math.log(s['value']))
        if len(by) >= 2:
            runs[key].append([statistics.mean(v) for v in by.values()])

def up(x):
    return math.ceil(x * 1.25 * 200) / 200

print(f"{'point':34s} {'runs':>4s} {'rounds':>6s} {'s_w %':>6s} {'s_b %':>6s} {'effect %':>8s}   declared run(3)/effect")
for key in sorted(runs):
    rs = runs[key]
    if len(rs) < 3:
        continue
    k = statistics.median(len(x) for x in rs)
    sw = math.sqrt(statistics.mean(statistics.variance(x) for x in rs))
    sb = statistics.stdev(statistics.mean(x) for x in rs)
    eff = math.sqrt(max(0.0, sb * sb - sw * sw / k))
    run3 = math.sqrt(eff * eff + sw * sw / 3)
    print(f"{key:34s} {len(rs):4d} {k:6.0f} {100*sw:6.1f} {100*sb:6.1f} {100*eff:8.1f}   {up(run3):.3f} / {up(eff):.3f}")
