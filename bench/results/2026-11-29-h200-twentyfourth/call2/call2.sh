#!/bin/bash
# Call 2: uint64 keys one sweep / caps (issue 30), the pairs program's live peak.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
OUT=$O KT=1 OPS=sort TYPES=uint64 LOGS="26 28" ROUNDS=1 KERNEL=clscan_sort_onesweep \
  timeout 400 bash bench/probes/kernel-variants.sh tuning:sort_onesweep=1 tuning:sort_onesweep=1,max_regs=80 \
  tuning:sort_onesweep=1,wg_size=256,items=16 tuning:max_regs=80 > $O/kv.txt 2>&1
KERNEL=clscan_sort_scatter timeout 30 bash bench/probes/regs.sh /tmp/kv/cache-cl /tmp/kv/cache-tuning-max_regs_80 > $O/regs-scatter.txt 2>&1
CLSCAN_DEVICE=gpu CLSCAN_CACHE_DIR=/tmp/kv/cache-u32 timeout 60 /tmp/kv/build/clscan-bench --auto-only --ops sort \
  --types uint32 --min-log 20 --max-log 20 > $O/u32-20.txt 2>&1
KERNEL=clscan_sort_onesweep LIVE=$O/sass timeout 60 bash bench/probes/regs.sh /tmp/kv/cache-u32 > $O/live.txt 2>&1
for f in $O/kv-*-2[68]-*.txt; do echo "== $f"; grep -E 'sort|onesweep|digits|scatter|hist' $f | cut -c1-140; done > $O/summary.txt
tar -czf $O/sass.tgz -C $O sass 2>/dev/null; rm -rf $O/sass
tar -czf $OUT/o.tgz -C /tmp o
grep -A12 '  n type' $O/kv.txt | cut -c1-250; grep -B1 -A1 registers $O/kv.txt | grep -E '==|Used'; cat $O/regs-scatter.txt | grep -E '==|Used'; tail -30 $O/live.txt
