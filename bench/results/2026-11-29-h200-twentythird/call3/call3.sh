#!/bin/bash
# Call 3: on top of ecx (early counts + warp-offsets loop + bit tests + base minus start): the highest
# peer as leader (hi), reads + warp sync instead of atomic + shuffle (lds), no padding (nopad), all.
set -u
O=/tmp/o; rm -rf $O; mkdir -p $O
OUT=$O KT=1 OPS=sort TYPES=uint32 LOGS=26 ROUNDS=2 KERNEL=clscan_sort_onesweep \
  timeout 420 bash bench/probes/kernel-variants.sh .exp/ecx.patch .exp/hi.patch .exp/lds.patch .exp/nopad.patch .exp/all.patch > $O/kv.txt 2>&1
KERNEL=clscan_sort_onesweep LIVE=$O/sass timeout 60 bash bench/probes/regs.sh /tmp/kv/cache-ecx /tmp/kv/cache-all > $O/live.txt 2>&1
for f in $O/kv-*-26-*.txt; do echo "== $f"; grep -E 'sort \(|sort_by_key|sort_ex|onesweep|digits|scatter' $f | cut -c1-120; done > $O/summary.txt
tar -czf $O/sass.tgz -C $O sass 2>/dev/null; rm -rf $O/sass
tar -czf $OUT/o.tgz -C /tmp o
grep -E '==|onesweep' $O/summary.txt; grep -A8 '  n type' $O/kv.txt | cut -c1-250; grep -B1 -A1 registers $O/kv.txt | grep -E '==|Used'
