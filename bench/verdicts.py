#!/usr/bin/env python3
"""bench/verdicts.py OUTDIR NSEP — the figures of bench/verdicts.sh: verdict counts of every
comparison it made (false verdicts where nothing changed; flagged system-call metrics where a
cost was injected), the run-to-run noise of each metric family over the separate runs, and how
each metric moved with the run's CPU clock (slope of log value on log clock_mhz)."""
import csv, glob, json, math, os, statistics, sys

out, nsep = sys.argv[1], int(sys.argv[2])

def verdicts(path):
    rows = []
    with open(path) as f:
        for r in csv.DictReader(f):
            if r.get('verdict') in (None, 'baseline'):
                continue
            rows.append(r)
    return rows

# metrics that make no system call while timed: an injected syscall cost must not move them
def no_syscall(m):
    return m.startswith('lat_ops.') or m.startswith('par_ops.') or m == 'lat_proc.procedure'

def shifted_ops(m):
    return m.startswith('lat_ops.')

def summarize(name, pattern, target=None):
    """target: None for A/A (every verdict is false), else a predicate of the metrics whose
    change is real (those flagged `worse` are hits; any verdict elsewhere, or `better` there,
    is false)."""
    files = sorted(glob.glob(os.path.join(out, pattern)))
    if not files:
        return
    n = tested = false = hit = cand = worst = 0
    changes = []
    for p in files:
        before = false
        for r in verdicts(p):
            v, m = r['verdict'], r['metric']
            if v in ('worse', 'better', 'same', 'no significant change'):
                tested += 1
            flagged = v in ('worse', 'better')
            if target is None or not target(m):
                false += flagged
            else:
                cand += 1
                hit += v == 'worse'
                false += v == 'better'
                if r['change_pct']:
                    changes.append(float(r['change_pct']))
        n += 1
        worst = max(worst, false - before)
    line = f"| {name} | {n} | {tested} | {false} | {worst} |"
    if target is not None:
        med = statistics.median(changes) if changes else float('nan')
        line += f" {hit}/{cand} ({hit / cand:.2f}) | {med:+.1f} % |" if cand else " - | - |"
    else:
        line += " - | - |"
    print(line)

syscall = lambda m: not no_syscall(m)
print("| comparison | comparisons | tested rows | false verdicts | most in one comparison | changed rows flagged worse | median change of those rows |")
print("|---|---:|---:|---:|---:|---:|---:|")
summarize("separate A/A, files (default noise)", "aa-files-*.csv")
summarize("separate A/A, store (history)", "aa-hist-*.csv")
summarize("plumb ab A/A", "ab-aa-*.csv")
summarize("plumb ab, B under slowsys", "ab-inj-*.csv", syscall)
summarize("plumb ab --repeat 8, B under slowsys", "ab8-inj-*.csv", syscall)
summarize("separate, slowsys run vs one run, files", "inj-files-*.csv", syscall)
summarize("separate, slowsys run vs one run, store", "inj-hist-*.csv", syscall)
summarize("separate, label inj vs label aa", "inj-labels.csv", syscall)
summarize("known shift: lat_ops x SHIFT in one of two runs, files", "shift-files-*.csv", shifted_ops)

# what each part cost
tp = os.path.join(out, 'times.txt')
if os.path.exists(tp):
    t = {}
    for line in open(tp):
        name, _, sec = line.split()
        t.setdefault(name, []).append(float(sec))
    print("\n| part | count | median s | range s |")
    print("|---|---:|---:|---|")
    for name, v in t.items():
        print(f"| {name} | {len(v)} | {statistics.median(v):.1f} | {min(v):.1f}-{max(v):.1f} |")

# run-to-run noise and the clock, over the separate runs of one build
runs = []
for i in range(1, nsep + 1):
    p = os.path.join(out, f"sep{i}.json")
    if os.path.exists(p):
        runs.append(json.load(open(p)))
if len(runs) < 3:
    sys.exit(0)
clock = [float(r['system'].get('clock_mhz', 'nan')) for r in runs]
print(f"\nclock_mhz of the {len(runs)} runs: {', '.join(f'{c:.0f}' for c in clock)}")
vals = {}
for k, r in enumerate(runs):
    for res in r['results']:
        if res.get('x') is not None or not isinstance(res.get('value'), (int, float)) or res['value'] <= 0:
            continue
        key = res['metric'] + (' ' + ' '.join(f"{a}={b}" for a, b in res['params'].items()) if res['params'] else '')
        vals.setdefault(key, [None] * len(runs))[k] = math.log(res['value'])

def family(m):
    for pre, f in (('lat_ops.', 'ops'), ('par_ops.', 'par_ops'), ('lat_syscall.', 'syscall'),
                   ('lat_sig.', 'syscall'), ('lat_select.', 'syscall'), ('lat_proc.', 'proc'),
                   ('lat_ctx.', 'ipc'), ('lat_pipe', 'ipc'), ('lat_unix', 'ipc'), ('lat_fifo', 'ipc'),
                   ('lat_fcntl', 'ipc'), ('lat_sem', 'ipc'), ('bw_', 'bw')):
        if m.startswith(pre):
            return f
    return 'other'

lc = [math.log(c) for c in clock]
mc = statistics.mean(lc)
sxx = sum((x - mc) ** 2 for x in lc)
fam = {}
print("\n| metric | run-to-run sd | slope on log clock | r |")
print("|---|---:|---:|---:|")
for key, v in sorted(vals.items()):
    if any(x is None for x in v):
        continue
    sd = statistics.stdev(v)
    my = statistics.mean(v)
    sxy = sum((x - mc) * (y - my) for x, y in zip(lc, v))
    syy = sum((y - my) ** 2 for y in v)
    slope = sxy / sxx if sxx > 0 else float('nan')
    r = sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float('nan')
    fam.setdefault(family(key), []).append((sd, slope, r))
    print(f"| {key} | {sd * 100:.1f} % | {slope:+.2f} | {r:+.2f} |")
print("\n| family | metrics | median run-to-run sd | median slope | median r |")
print("|---|---:|---:|---:|---:|")
for f, l in sorted(fam.items()):
    print(f"| {f} | {len(l)} | {statistics.median(x[0] for x in l) * 100:.1f} % | "
          f"{statistics.median(x[1] for x in l):+.2f} | {statistics.median(x[2] for x in l):+.2f} |")
