#!/bin/bash
# Call 2 (twenty-sixth session): the larger tiles (pairs from 2^22) against HEAD, second round; one sweep
# at every size (keys at 32, pairs at 24) against the table at 2^18..2^24; every sort program at 64.
mkdir -p /tmp/o/cmp /tmp/o/kv /tmp/o/r64
t0=$(date +%s)
ROUNDS=1 OPS=sort TYPES=uint32 LOGS="16 22 25 26 28" SIDES="base=.exp/base tiles=." OUT=/tmp/o/cmp \
  timeout 200 bash scripts/gpu-compare.sh > /tmp/o/cmp/table.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/cmp/table.txt
cut -c1-130 /tmp/o/cmp/table.txt | grep -v "copy roof"
BUILD=/tmp/cmp-tiles OPS=sort TYPES=uint32 LOGS="18 20 22 24" ROUNDS=2 OUT=/tmp/o/kv \
  timeout 120 bash bench/probes/kernel-variants.sh tuning:sort_onesweep=1 > /tmp/o/kv/table.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/kv/table.txt
cut -c1-130 /tmp/o/kv/table.txt | grep -v "copy roof"
left=$(( 540 - ($(date +%s) - t0) ))
BUILD=/tmp/cmp-tiles OPS=sort TYPES=uint32 LOGS="28 26" ROUNDS=2 OUT=/tmp/o/r64 \
  timeout $left bash bench/probes/kernel-variants.sh tuning:max_regs=64 > /tmp/o/r64/table.txt 2>&1
echo "rc=$? after $(( $(date +%s) - t0 )) s" >> /tmp/o/r64/table.txt
cut -c1-130 /tmp/o/r64/table.txt | grep -v "copy roof"
tar -czf $OUT/o.tgz -C /tmp o
