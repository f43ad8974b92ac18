#!/bin/bash
# On the GPU machine from the repository root (one device call, some 350 s, at most 570): uint32
# pairs at 2^26 in other group shapes against the table's (groups of 256, 24 keys a work-item, 80
# registers: 3 groups a compute unit on the H200), now that a work-item no longer holds its values
# beside its keys; then bench/next/sort-pairs-beside.patch against the tree under the shapes where it
# applies (up to 40 KiB of keys and values a tile), and under the table at 2^20 (tiles of 16 there). Each shape is
# a CLSCAN_TUNING variant under one build (it sets the keys' sorts too: read the pairs row only), two
# rounds (three at 2^20). Tables in $OUT/shapes/*.txt, everything packed into $OUT/shapes.tgz.
set -u
OUT=${OUT:-/tmp/clscan-gpu-out}
mkdir -p "$OUT"
w=/tmp/shapes && rm -rf $w && mkdir -p $w
kv() { timeout "$1" bash bench/probes/kernel-variants.sh "${@:2}"; }
OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 OUT=$w/shapes kv 240 \
  tuning:wg_size=256,items=20,max_regs=64 tuning:wg_size=256,items=16,max_regs=64 \
  tuning:wg_size=512,items=12,max_regs=64 tuning:wg_size=128,items=24 > $w/shapes.txt 2>&1
for t in wg_size=256,items=20,max_regs=64 wg_size=256,items=16,max_regs=64 wg_size=128,items=24; do
  BUILD=/tmp/kv/build CLSCAN_TUNING=$t OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 OUT=$w/beside-${t//[=,]/_} kv 90 \
    bench/next/sort-pairs-beside.patch > $w/beside-${t//[=,]/_}.txt 2>&1
done
BUILD=/tmp/kv/build OPS=sort TYPES=uint32 LOGS=20 ROUNDS=3 OUT=$w/beside-table kv 60 \
  bench/next/sort-pairs-beside.patch > $w/beside-table.txt 2>&1
for f in $w/*.txt; do echo "== ${f##*/}"; grep -E "sort_by_key|registers|spill" "$f" | cut -c1-200; done
tar -czf "$OUT/shapes.tgz" -C /tmp shapes
