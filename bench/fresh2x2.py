#!/usr/bin/env python3
"""bench/fresh2x2.py PLUMB TRIALS RUN.json... — what `plumb compare` of two runs a side on a
fresh store decides, on real runs of one build (issue 24 item 3). K=1 in the environment: one
run a side (K runs a side in general).

Each trial draws 2K distinct runs at random: K are side A, K side B; for each factor
(1 = A/A, then 1.10, 1.15, 1.20) side B's system-call and IPC latency samples (lat_syscall,
lat_sig install/catch, lat_pipe, lat_unix, lat_fifo, lat_fcntl, lat_sem) are multiplied by
the factor in a copy of its files, so the change is known and the noise is the machine's.
Both sides are imported into a new store (labels A and B) and `PLUMB compare A B --format json`
judges them. Printed: per factor, the rows found worse / better / same / undecided over the
scaled metrics, and the false rows (any verdict other than `same` or undecided where nothing
changed, or `better`); and the median half-width of the 95 % intervals.
The runs: e.g. 10 of `plumb run --only syscall,signal,ipc --no-store -o rI.json` (the default
profile runs those in 12 rounds). A bench tool, not part of plumb or its tests."""
import json, math, os, random, re, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale_side import scale  # noqa: E402  (one way of scaling a side, shared with ab_goals)

SCALED = re.compile(r'^(lat_syscall\.|lat_sig\.(install|catch)$|lat_(pipe|unix|fifo|fcntl|sem)\.)')
FACTORS = [1.0, 1.10, 1.15, 1.20]


def scaled_copy(src, dst, factor):
    shutil.copyfile(src, dst)
    if factor != 1:
        scale(dst, factor, SCALED)


def judge(plumb, a, b, factor, tmp):
    db = os.path.join(tmp, 'store.db')
    if os.path.exists(db):
        os.remove(db)
    files = []
    for i, src in enumerate(b):
        dst = os.path.join(tmp, f'b{i}.json')
        scaled_copy(src, dst, factor)
        files.append(dst)
    for label, fs in (('A', a), ('B', files)):
        subprocess.run([plumb, 'import', '--db', db, '--label', label] + list(fs), check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = subprocess.run([plumb, 'compare', '--db', db, 'A', 'B', '--format', 'json'],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False).stdout
    return json.loads(out)['rows']


def main():
    plumb, trials, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    k = int(os.environ.get('K', '2'))
    rng = random.Random(24)
    draws = [rng.sample(runs, 2 * k) for _ in range(trials)]
    with tempfile.TemporaryDirectory() as tmp:
        for factor in FACTORS:
            tally, false_rows, widths, tables_false = {}, 0, [], 0
            for d in draws:
                rows = judge(plumb, d[:k], d[k:], factor, tmp)
                f0 = false_rows
                for r in rows:
                    if not SCALED.search(r['metric']):
                        continue
                    s = r['sides'][1]
                    v = s.get('verdict', 'no test')
                    tally[v] = tally.get(v, 0) + 1
                    if v == 'better' or (factor == 1 and v == 'worse'):
                        false_rows += 1
                    lo, hi = s.get('change_lo_pct'), s.get('change_hi_pct')
                    if isinstance(lo, (int, float)) and isinstance(hi, (int, float)):
                        widths.append((math.log1p(hi / 100) - math.log1p(lo / 100)) / 2 * 100)
                tables_false += false_rows > f0
            n = sum(tally.values())
            print(f"factor {factor:.2f}: {len(draws)} comparisons, {n} rows: " +
                  ', '.join(f"{k} {v} ({100 * v / n:.0f} %)" for k, v in sorted(tally.items())) +
                  f"; false rows {false_rows} (in {tables_false} tables); median half-width "
                  f"{statistics.median(widths):.1f} %")


if __name__ == '__main__':
    main()
