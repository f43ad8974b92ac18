#!/usr/bin/env python3
"""Medians of clscan-bench runs taken by turns, one column a side (scripts/gpu-compare.sh,
bench/probes/kernel-variants.sh). Each FILE is PREFIX-SIDE-LOG-ROUND.txt, clscan-bench's output;
--sides names the columns in order; each side after the first is then given over the first.
C loops and qsort rows are left out."""
import argparse, re, statistics

ap = argparse.ArgumentParser()
ap.add_argument("--sides", required=True, help="comma-separated, in column order")
ap.add_argument("files", nargs="+")
a = ap.parse_args()
sides = a.sides.split(",")
rows = {}
for path in a.files:
    side = re.search(r"[^/]*?-(.+)-\d+-\d+\.txt$", path).group(1)
    for line in open(path):
        m = re.match(r"(\d+)\s+(\w+)\s+(.+?)\s+(\d+\.\d+)\s+\d+\.\d+\s+\d+\.\d+\s+\S+$", line)
        if m and "C " not in m.group(3) and "qsort" not in m.group(3):
            key = (int(m.group(1)), m.group(2), m.group(3).strip())
            rows.setdefault(key, {}).setdefault(side, []).append(float(m.group(4)))
print(f"{'n':>10} {'type':7} {'what':40} " + " ".join(f"{s[:22]:>22}" for s in sides) +
      "".join(f" {s[:8] + '/' + sides[0][:8]:>17}" for s in sides[1:]))
for key in sorted(rows):
    med = {s: statistics.median(v) for s, v in rows[key].items()}
    cells = " ".join(f"{med[s]:22.4f}" if s in med else f"{'-':>22}" for s in sides)
    tail = "".join(f" {med[s] / med[sides[0]]:17.3f}" if s in med and sides[0] in med else f" {'-':>17}"
                   for s in sides[1:])
    print(f"{key[0]:>10} {key[1]:7} {key[2][:40]:40} {cells}{tail}")
