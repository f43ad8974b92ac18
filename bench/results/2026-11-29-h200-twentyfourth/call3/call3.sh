#!/bin/bash
# Call 3: pairs with values loaded late (lv-place: in the place step after the keys' write-out;
# lv-early: before the keys' write-out), uncapped and at 80; uint64 one sweep at small sizes.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O/pairs $O/cap $O/u64
OUT=$O/pairs KT=1 OPS=sort TYPES=uint32 LOGS="26 28" ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 300 bash bench/probes/kernel-variants.sh .exp/lv-place.patch .exp/lv-early.patch > $O/pairs/kv.txt 2>&1
BUILD=/tmp/kv/build OUT=$O/cap CLSCAN_TUNING=max_regs=80 KT=1 OPS=sort TYPES=uint32 LOGS="26" ROUNDS=1 \
  KERNEL=clscan_sort_onesweep timeout 90 bash bench/probes/kernel-variants.sh .exp/lv-place.patch .exp/lv-early.patch > $O/cap/kv.txt 2>&1
BUILD=/tmp/kv/build OUT=$O/u64 OPS=sort TYPES=uint64 LOGS="16 20 22 24 25" ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 150 bash bench/probes/kernel-variants.sh tuning:sort_onesweep=1 > $O/u64/kv.txt 2>&1
tar -czf $OUT/o.tgz -C /tmp o
for d in pairs cap u64; do echo "== $d"; grep -A14 '  n type' $O/$d/kv.txt | cut -c1-200; grep -E '==|Used|spill' $O/$d/kv.txt | tail -8; done
