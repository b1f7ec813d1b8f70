#!/usr/bin/env python3
"""bench/noise_table.py PLUMB DB OUTDIR NSEP NAB — the per-metric figures behind compare's default
noise (the .noise = { ... } of each metric's row in its tool's file, bench/README.md "Run-to-run noise: the default table"):
over the separate runs OUTDIR/sep1..NSEP.json, each metric point's run-to-run standard deviation
of the run value (the mean over rounds of each round's mean log value, as compare forms it) and
its round-to-round standard deviation within a run; over the A/A `plumb ab` sessions aaA<i>/aaB<i>
stored in DB, the standard deviation of one paired round's log ratio. Also written to
OUTDIR/noise_table.txt, one line a point. Run by bench/verdicts.sh; on its own, e.g.
  python3 bench/noise_table.py bin/plumb bench/out/verdicts/store.db bench/out/verdicts 10 8"""
import json, math, os, statistics, subprocess, sys

plumb, db, out, nsep, nab = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])

def rounds(doc):
    """{point: {round: mean log value}}"""
    pts = {}
    for r in doc['results']:
        key = r['metric'] + ('' if r['x'] is None else f" x={r['x']}")
        if r['params']:
            key += ' ' + ' '.join(f"{a}={b}" for a, b in sorted(r['params'].items()))
        by = {}
        for s in r.get('samples', []):
            if isinstance(s.get('value'), (int, float)) and s['value'] > 0:
                by.setdefault(s['round'], []).append(math.log(s['value']))
        if by:
            pts[key] = {k: statistics.mean(v) for k, v in by.items()}
    return pts

runs = [rounds(json.load(open(os.path.join(out, f"sep{i}.json"))))
        for i in range(1, nsep + 1) if os.path.exists(os.path.join(out, f"sep{i}.json"))]
run_sd, round_sd = {}, {}
for key in set.intersection(*(set(r) for r in runs)) if runs else []:
    means = [statistics.mean(r[key].values()) for r in runs]
    within = [statistics.variance(list(r[key].values())) for r in runs if len(r[key]) > 1]
    if len(means) > 2:
        run_sd[key] = statistics.stdev(means)
    if within:
        round_sd[key] = math.sqrt(statistics.mean(within))

def export(label):
    p = subprocess.run([plumb, 'export', '--db', db, label], capture_output=True, text=True)
    return rounds(json.loads(p.stdout)) if p.returncode == 0 else None

pair_var = {}
for i in range(1, nab + 1):
    a, b = export(f"aaA{i}"), export(f"aaB{i}")
    if not a or not b:
        continue
    for key in a:
        if key in b:
            d = [b[key][k] - a[key][k] for k in a[key] if k in b[key]]
            if len(d) > 1:
                pair_var.setdefault(key, []).append(statistics.variance(d))
pair_sd = {k: math.sqrt(statistics.mean(v)) for k, v in pair_var.items()}

keys = sorted(set(run_sd) | set(pair_sd))
with open(os.path.join(out, 'noise_table.txt'), 'w') as f:
    f.write(f"# point, run-to-run sd over {len(runs)} runs, round sd within a run, paired round sd "
            f"over {len(pair_var and next(iter(pair_var.values())))} A/A sessions (%)\n")
    for k in keys:
        fmt = lambda d: f"{100 * d[k]:.2f}" if k in d else '-'
        f.write(f"{k} {fmt(run_sd)} {fmt(round_sd)} {fmt(pair_sd)}\n")
print(f"\nper-metric noise ({len(runs)} separate runs, {len(pair_var and next(iter(pair_var.values())))} "
      f"A/A sessions): {os.path.join(out, 'noise_table.txt')}")
print("| point | run-to-run sd | round sd | paired round sd |")
print("|---|---:|---:|---:|")
for k in keys:
    fmt = lambda d: f"{100 * d[k]:.1f} %" if k in d else '-'
    print(f"| {k} | {fmt(run_sd)} | {fmt(round_sd)} | {fmt(pair_sd)} |")
