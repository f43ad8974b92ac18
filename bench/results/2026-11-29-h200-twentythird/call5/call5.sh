#!/bin/bash
# Call 5: the landed-to-be tree against 14663f0 (sorts, by turns) and a register cap on every other program.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
OUT=$O OPS=sort TYPES=uint32,uint64 LOGS="16 22 25 26 28" ROUNDS=2 timeout 380 bash scripts/gpu-compare.sh > $O/cmp.txt 2>&1
OUT=$O KT=1 OPS=scan,compact,family,reduce,sat TYPES=int32 LOGS=26 ROUNDS=1 KERNEL=all \
  timeout 170 bash bench/probes/kernel-variants.sh tuning:max_regs=96 tuning:max_regs=80 tuning:max_regs=64 > $O/kv.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
cat $O/cmp.txt | cut -c1-220; grep -B2 -A40 '  n type' $O/kv.txt | cut -c1-230 | head -60
