#!/usr/bin/env python3
"""bench/ab_goals.py OUTDIR — the figures of bench/ab_goals.sh: per calibrated amount, the share of
sessions that call lat_syscall.null worse and the share of system-call and IPC rows called worse
(their median change beside it: a fixed cost per call is a smaller share of a dearer call); for
the A/A sessions, false rows per table, tables with a false row, and the share of `same` at the
session's minimum effect for system-call, IPC and lat_ops rows. Sessions are read from their CSV
(one line per point and side)."""
import csv, glob, os, re, statistics, sys

out = sys.argv[1]

def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(f) if r.get('verdict') not in (None, '', 'baseline')]

def family(m):
    if m.startswith(('lat_syscall.', 'lat_sig.', 'lat_select.')):
        return 'syscall'
    if m.startswith(('lat_pipe.', 'lat_unix.', 'lat_fifo.', 'lat_fcntl.', 'lat_sem.')):
        return 'ipc'
    if m.startswith('lat_ops.'):
        return 'ops'
    return 'other'

def rounds(err):
    m = re.search(r'sequential session: (\d+) round', open(err).read()) if os.path.exists(err) else None
    return int(m.group(1)) if m else None

print(open(os.path.join(out, 'calibration.txt')).read().strip())
print()
print('| amount asked (null call) | filter LEN | amount it gives by the calibration | sessions | lat_syscall.null worse | syscall+IPC rows worse | their median change | lat_ops rows worse | sessions finding every syscall+IPC row | rounds (median) |')
print('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for line in open(os.path.join(out, 'amounts.txt')):
    a, ln, got = (line.split() + ['?'])[:3]
    files = sorted(glob.glob(os.path.join(out, f'inj{a}-*.csv')))
    files = [f for f in files if os.path.getsize(f) > 0]
    if not files:
        continue
    null_hit = rows_hit = rows_all = ops_hit = ops_all = every = 0
    ch, rd = [], []
    above = 0  # syscall+IPC rows whose 95 % interval lies above 0, whatever the minimum effect
    for p in files:
        miss = 0
        for r in rows(p):
            if family(r['metric']) == 'ops' and r['verdict'] != 'no test':
                ops_all += 1
                ops_hit += r['verdict'] == 'worse'
            fam = family(r['metric'])
            if r['metric'] == 'lat_syscall.null':
                null_hit += r['verdict'] == 'worse'
            if fam in ('syscall', 'ipc') and r['verdict'] != 'no test':
                rows_all += 1
                rows_hit += r['verdict'] == 'worse'
                miss += r['verdict'] != 'worse'
                above += bool(r.get('change_lo_pct')) and float(r['change_lo_pct']) > 0
                if r['change_pct']:
                    ch.append(float(r['change_pct']))
        every += miss == 0
        n = rounds(p[:-4] + '.err')
        if n:
            rd.append(n)
    med = f"{statistics.median(ch):+.1f} %" if ch else '-'
    print(f"| +{a} % | {ln} | +{got} % | {len(files)} | {null_hit}/{len(files)} | {rows_hit}/{rows_all} | {med} | {ops_hit}/{ops_all} | {every}/{len(files)} | {statistics.median(rd) if rd else '-'} |")
    print(f"(syscall+IPC rows whose 95 % interval lies above 0: {above}/{rows_all}; `worse` also needs"
          f" the estimate at or above the minimum effect, so a change of exactly the minimum effect is"
          f" called worse about half the time)")

aa = [p for p in sorted(glob.glob(os.path.join(out, 'aa-*.csv'))) if os.path.getsize(p) > 0]
if aa:
    false = tables_false = 0
    same = {'syscall': [0, 0], 'ipc': [0, 0], 'ops': [0, 0]}
    for p in aa:
        f = 0
        for r in rows(p):
            f += r['verdict'] in ('worse', 'better')
            fam = family(r['metric'])
            if fam in same and r['verdict'] != 'no test':
                same[fam][1] += 1
                same[fam][0] += r['verdict'] == 'same'
        false += f
        tables_false += f > 0
    print()
    print(f"A/A: {len(aa)} tables, {false} false rows ({false / len(aa):.2f} per table), "
          f"{tables_false} tables with a false row")
    for fam, (s, n) in same.items():
        if n:
            print(f"A/A same at the minimum effect: {fam} {s}/{n} ({s / n:.2f})")
