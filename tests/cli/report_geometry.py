#!/usr/bin/env python3
"""report_geometry.py HTML — the report's charts read one way only (tests/cli/report.sh):
every bar chart prints each median at its bar's end, clear of the min-max whisker; every title
is whole (its lines joined give the chart's <title>); legends name the sides given on the
command line. Prints one PASS/FAIL line per check."""
import re
import sys
import xml.etree.ElementTree as ET

html = open(sys.argv[1], encoding="utf-8").read()
labels = sys.argv[2:]
svgs = [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", html, re.S)]
texts_w = 6.6  # px a character at 11-12 px sans-serif, as svg.c estimates


def text_of(e):
    return "".join(e.itertext())


def check(name, bad):
    if bad:
        print(f"FAIL {name}: {bad[0]}" + (f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""))
    else:
        print(f"PASS {name}")


bad_value, bad_title, bad_legend, bars = [], [], [], 0
for svg in svgs:
    title = text_of(svg.find("title"))
    lines = [text_of(t) for t in svg.findall("text") if t.get("class") == "title"]
    if " ".join(lines).replace("  ", " ") != title and "".join(lines) != title:
        bad_title.append(f"{lines!r} for {title!r}")
    items = list(svg)
    legend = [text_of(t) for t in items if t.tag == "text" and t.get("class") == "legend"]
    if legend:
        for want in labels:
            if not any(want in l for l in legend):
                bad_legend.append(f"{title}: no {want!r} in {legend!r}")
    for i, e in enumerate(items):
        if e.tag != "rect" or e.get("class") != "bar":
            continue
        bars += 1
        bx, by = float(e.get("x")), float(e.get("y"))
        end, bh = bx + float(e.get("width")), float(e.get("height"))
        whisker = value = None
        for f in items[i + 1:i + 3]:
            if f.tag == "path" and f.get("class") == "whisker":
                whisker = f
            if f.tag == "text" and f.get("class") == "value":
                value = f
        if value is None:
            bad_value.append(f"{title}: a bar without its value")
            continue
        tx, ty = float(value.get("x")), float(value.get("y"))
        box = (tx, ty - 11, tx + texts_w * len(text_of(value)), ty + 2)  # x0 y0 x1 y1
        if abs(tx - end) > 6:
            bad_value.append(f"{title}: value at x={tx}, bar ends at {end}")
        if not (by - 1 <= ty <= by + bh + 1):
            bad_value.append(f"{title}: value at y={ty} outside its bar {by}..{by + bh}")
        if whisker is not None:
            nums = [float(n) for n in re.findall(r"-?[0-9.]+", whisker.get("d"))]
            # M l y H r  M l y0 V y1  M r y0 V y1
            left, wy, right, y0, y1 = nums[0], nums[1], nums[2], nums[4], nums[5]
            for ex in (left, right):
                if box[0] - 1 <= ex <= box[2] + 1 and box[1] - 1 <= y1 and y0 <= box[3] + 1:
                    bad_value.append(f"{title}: value {text_of(value)!r} overlaps a whisker end"
                                     f" at x={ex}")
            if box[1] <= wy <= box[3] and box[0] <= right and left <= box[2]:
                bad_value.append(f"{title}: value {text_of(value)!r} crosses the whisker")
check("report: bar values clear of whiskers", bad_value if bars else ["no bars found"])
check("report: titles whole", bad_title if svgs else ["no charts found"])
check("report: legends name the runs", bad_legend)
