#!/usr/bin/env python3
"""Where a kernel's register peak lies: reads `nvdisasm --print-life-ranges` output (regs.sh writes it
with LIVE=DIR) and prints the most general registers live at once in KERNEL, then every instruction
within one of it, with its neighbours. The peak, not the average, sets how many work-groups fit on a
compute unit, so this names the loop to make leaner (bench/notebook.md, 2026-11-28 fourteenth).

usage: live-peak.py FILE.sass [KERNEL] [--places N]"""
import argparse
import re

INSTR = re.compile(r"\s*/\*([0-9a-f]+)\*/\s+(.*?);\s*//\s*\|\s*(\d+)")


def rows_of(lines, kernel):
    """(offset, instruction, live count) of each instruction of the kernel's text section."""
    start = next(i for i, line in enumerate(lines) if line.startswith(kernel + ":"))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("//----"):
            break
        m = INSTR.match(line)
        if m:
            rows.append((m.group(1), m.group(2).strip(), int(m.group(3))))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sass")
    ap.add_argument("kernel", nargs="?", default="clscan_scan_single_pass")
    ap.add_argument("--places", type=int, default=8, help="peak places to show (default 8)")
    a = ap.parse_args()
    rows = rows_of(open(a.sass).read().split("\n"), a.kernel)
    peak = max(r[2] for r in rows)
    hot = [k for k, r in enumerate(rows) if r[2] >= peak - 1]
    print(f"{a.kernel}: {len(rows)} instructions, peak {peak} registers live, {len(hot)} within one of it")
    shown = set()
    for k in hot[:a.places]:
        for q in range(max(0, k - 1), min(len(rows), k + 2)):
            if q not in shown:
                shown.add(q)
                print(f"  {rows[q][0]:>6} {rows[q][2]:3d}  {rows[q][1][:90]}")
        print("  --")


if __name__ == "__main__":
    main()
