#!/usr/bin/env python3
"""runspread.py LABEL=RUN.json,RUN.json,... ... — how much of the run-to-run spread of a few
metrics the rounds of one run already see.

For each configuration (LABEL) and point: each round's value (the median of its samples; the
minimum for lat_mem_rd, whose statistic is its best sample), on the log scale; the within-run
standard deviation s_w (rounds around their run's mean, pooled over runs), the between-run
standard deviation s_b of the runs' means, and what round noise alone would give the means,
s_w / sqrt(R). Their ratio is > 1 when something fixed for a whole run (its pages, its CPU, the
clock of its minutes) moves the run; sigma_run = sqrt(max(0, s_b^2 - s_w^2 / R)) is that part,
the noise a comparison of separate runs must pay per run. "2+2 runs" is the change two runs a
side would detect with 80 % power at 5 % (2.8 s_b on the log scale, s_b taken as known).
Figures in percent (log * 100).
"""
import json, math, statistics, sys

POINTS = [  # (metric, params, largest x of the run or None)
    ("lat_syscall.null", {}, False),
    ("lat_pipe.latency", {}, False),
    ("bw_mem.rd", {}, True),
    ("lat_mem_rd.seq", {"stride": 128}, True),
]


def round_values(run, metric, params, largest):
    rs = [r for r in run["results"] if r["metric"] == metric and r.get("params", {}) == params]
    if not rs:
        return None
    if largest:
        rs = [max(rs, key=lambda r: r.get("x") or 0)]
    by = {}
    for s in rs[0].get("samples", []):
        if s.get("value") is not None:
            by.setdefault(s.get("round", 0), []).append(s["value"])
    best = metric.startswith("lat_mem_rd")
    return [math.log(min(v) if best else statistics.median(v)) for _, v in sorted(by.items())]


def spread(runs):
    out = []
    for metric, params, largest in POINTS:
        per = [round_values(r, metric, params, largest) for r in runs]
        per = [p for p in per if p and len(p) >= 2]
        if len(per) < 3:
            continue
        R = statistics.mean(len(p) for p in per)
        ss = sum(sum((v - statistics.mean(p)) ** 2 for v in p) for p in per)
        dfw = sum(len(p) - 1 for p in per)
        sw = math.sqrt(ss / dfw)
        sb = statistics.stdev([statistics.mean(p) for p in per])
        srun = math.sqrt(max(0.0, sb * sb - sw * sw / R))
        out.append((metric, len(per), R, 100 * sw, 100 * sb, 100 * sw / math.sqrt(R),
                    sb / (sw / math.sqrt(R)), 100 * srun, 100 * (math.exp(2.8 * sb) - 1)))
    return out


print(f"{'config':<10} {'point':<18} {'runs':>4} {'rounds':>6} {'s_w %':>7} {'s_b %':>7} "
      f"{'s_w/vR %':>8} {'ratio':>6} {'sigma_run %':>11} {'2+2 runs %':>10}")
for arg in sys.argv[1:]:
    label, files = arg.split("=", 1)
    runs = [json.load(open(f)) for f in files.split(",") if f]
    for m, n, R, sw, sb, exp, ratio, srun, mde in spread(runs):
        print(f"{label:<10} {m:<18} {n:>4} {R:>6.1f} {sw:>7.1f} {sb:>7.1f} {exp:>8.1f} {ratio:>6.2f} "
              f"{srun:>11.1f} {mde:>10.0f}")
