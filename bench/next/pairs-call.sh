#!/bin/bash
# On the GPU machine from the repository root (one device call, some 400 s): bench/next's two pairs
# patches against the tree's table, uint32 sorts at 2^26 and 2^28, two rounds; then the same three
# trees with every sort in tiles of 32 (the pairs keep their cap of 80) and under 64 registers, at
# 2^26, two rounds. Tables in $OUT/*/table.txt, everything packed into $OUT/pairs.tgz.
set -u
OUT=${OUT:-/tmp/clscan-gpu-out}
mkdir -p "$OUT"
w=/tmp/pairs && rm -rf $w && mkdir -p $w
patches=(bench/next/sort-pairs-packed-ranks.patch bench/next/sort-pairs-values-after-place.patch)
OPS=sort TYPES=uint32 LOGS="26 28" ROUNDS=2 OUT=$w/table \
  timeout 300 bash bench/probes/kernel-variants.sh "${patches[@]}" > $w/table.txt 2>&1
for t in wg_size=256,items=32 max_regs=64; do
  BUILD=/tmp/kv/build CLSCAN_TUNING=$t OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 OUT=$w/${t%%=*} \
    timeout 120 bash bench/probes/kernel-variants.sh "${patches[@]}" > $w/${t%%=*}.txt 2>&1
done
for f in $w/*.txt; do echo "== $f"; grep -E "sort_by_key|  sort |registers|spill" "$f" | cut -c1-130; done
tar -czf "$OUT/pairs.tgz" -C /tmp pairs
