#!/bin/bash
# Call 2: early counts (histogram a sub-group, then ballots place each key) and the warp-offsets loop.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
OUT=$O KT=1 OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 400 bash bench/probes/kernel-variants.sh .exp/wo.patch .exp/ec.patch .exp/ecx.patch > $O/kv.txt 2>&1
KERNEL=clscan_sort_scatter timeout 60 bash bench/probes/regs.sh /tmp/kv/cache-cl /tmp/kv/cache-ecx >> $O/kv.txt 2>&1
for f in $O/kv-*-26-*.txt; do echo "== $f"; grep -E 'sort \(|sort_by_key|sort_ex|onesweep|digits|scatter' $f | cut -c1-120; done > $O/summary.txt
tar -czf $OUT/o.tgz -C /tmp o
cat $O/summary.txt; tail -45 $O/kv.txt | cut -c1-200
